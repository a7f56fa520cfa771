/* Logging: one line per decision on stderr, prefixed "fake-wm: ". */
#include "log.h"

#include "clock.h"

#include <stdarg.h>
#include <stdio.h>

static bool verbose;

void log_set_verbose(bool on) { verbose = on; }

static void vlog(const char *fmt, va_list ap)
{
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    if (verbose)
        fprintf(stderr, "fake-wm: [%lld] %s\n", (long long)clock_now_us(), buf);
    else
        fprintf(stderr, "fake-wm: %s\n", buf);
}

void logmsg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(fmt, ap);
    va_end(ap);
}

void logv(const char *fmt, ...)
{
    if (!verbose)
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog(fmt, ap);
    va_end(ap);
}

void log_x_error(const char *conn, const xcb_generic_error_t *e)
{
    logmsg("X error on %s connection (ignored): code=%u major=%u minor=%u resource=%u sequence=%u",
           conn, e->error_code, e->major_code, e->minor_code, e->resource_id, e->sequence);
}
