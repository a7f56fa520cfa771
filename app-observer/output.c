/* The observer's two outputs: records on stdout, one a line with `t=` first on the suite's clock
 * (common/clock.h), which the harness reads like a scripted client's; and log lines on stderr,
 * which go to the case's log. */
#include "app-observer.h"
#include "clock.h"

#include <stdarg.h>
#include <stdio.h>

void out_record(const char *kind, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    printf("%s t=%lld%s%s\n", kind, (long long)clock_now_us(), buf[0] ? " " : "", buf);
    fflush(stdout);
}

void logw(const struct observer *ob, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "app-observer %s: ", ob->name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
