/* Output: every record is one line `KIND t=NOW fields...` on stdout (line-buffered, so each
 * record reaches the harness as soon as it is written), plus atom names for the `*name` fields
 * and the text of X errors. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "scripted-client.h"

void record(const char *kind, const char *fmt, ...)
{
    /* The time is taken when the record is written, which is when the client has seen what it
     * reports (events are decoded as soon as they are read). */
    printf("%s t=%lld", kind, (long long)clock_now_us());
    if (fmt && *fmt) {
        va_list ap;
        va_start(ap, fmt);
        putchar(' ');
        vprintf(fmt, ap);
        va_end(ap);
    }
    putchar('\n');
    fflush(stdout);
}

void logmsg(struct client *cl, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "scripted-client[%s]: ", cl->name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* Atom names cost a round trip each; a test sees the same few dozen atoms over and over. */
#define ATOM_CACHE 512
static struct {
    xcb_atom_t atom;
    char *name;
} cache[ATOM_CACHE];
static int ncached;

static void sanitize(char *s)
{
    /* Values never contain spaces (the protocol splits on them). */
    for (; *s; s++)
        if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '=')
            *s = '_';
}

const char *atom_name(struct client *cl, xcb_atom_t atom)
{
    if (atom == XCB_ATOM_NONE)
        return "";
    for (int i = 0; i < ncached; i++)
        if (cache[i].atom == atom)
            return cache[i].name;
    xcb_generic_error_t *err = NULL;
    xcb_get_atom_name_reply_t *r =
        xcb_get_atom_name_reply(cl->c, xcb_get_atom_name(cl->c, atom), &err);
    free(err); /* not an atom: an empty name, as the protocol says; not a reportable error */
    if (!r)
        return "";
    int len = xcb_get_atom_name_name_length(r);
    char *name = malloc((size_t)len + 1);
    if (!name) {
        free(r);
        return "";
    }
    memcpy(name, xcb_get_atom_name_name(r), (size_t)len);
    name[len] = '\0';
    free(r);
    sanitize(name);
    if (ncached < ATOM_CACHE) {
        cache[ncached].atom = atom;
        cache[ncached].name = name;
        ncached++;
        return name;
    }
    /* Cache full: keep the name in a slot that is overwritten next time. */
    static char *spare;
    free(spare);
    spare = name;
    return spare;
}

void x_error_text(char *buf, size_t len, const xcb_generic_error_t *e)
{
    snprintf(buf, len, "X error code %u major %u minor %u resource %u sequence %u",
             e->error_code, e->major_code, e->minor_code, e->resource_id, e->full_sequence);
}

void record_x_error(const xcb_generic_error_t *e)
{
    record("x-error", "code=%u major=%u minor=%u resource=%u sequence=%u", e->error_code,
           e->major_code, e->minor_code, e->resource_id, e->full_sequence);
}
