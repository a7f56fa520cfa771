/* JSON rows, one object a line.  Each row is flushed when it ends, so an interrupted run keeps
 * every frame settled so far. */
#include "bench.h"

#include <inttypes.h>
#include <math.h>

static void key(struct row *r, const char *k)
{
    fprintf(r->f, "%s\"%s\":", r->first ? "" : ",", k);
    r->first = false;
}

void row_key(struct row *r, const char *k) { key(r, k); }

void row_begin(struct row *r, const struct row_sink *out, const char *kind)
{
    r->f = out->f;
    r->first = true;
    fputc('{', r->f);
    row_str(r, "kind", kind);
    row_str(r, "run", out->run_id);
}

void row_str(struct row *r, const char *k, const char *v)
{
    key(r, k);
    fputc('"', r->f);
    for (const unsigned char *c = (const unsigned char *)v; *c; c++) {
        if (*c == '"' || *c == '\\')
            fprintf(r->f, "\\%c", *c);
        else if (*c < 0x20)
            fprintf(r->f, "\\u%04x", *c);
        else
            fputc(*c, r->f);
    }
    fputc('"', r->f);
}

void row_int(struct row *r, const char *k, int64_t v)
{
    key(r, k);
    fprintf(r->f, "%" PRId64, v);
}

void row_num(struct row *r, const char *k, double v)
{
    key(r, k);
    if (isfinite(v))
        fprintf(r->f, "%.3f", v);
    else
        fputs("null", r->f);
}

void row_opt_ms(struct row *r, const char *k, int64_t us, int64_t origin_us)
{
    if (us < 0)
        row_null(r, k);
    else
        row_num(r, k, (double)(us - origin_us) / 1000.0);
}

void row_bool(struct row *r, const char *k, bool v)
{
    key(r, k);
    fputs(v ? "true" : "false", r->f);
}

void row_null(struct row *r, const char *k)
{
    key(r, k);
    fputs("null", r->f);
}

void row_raw(struct row *r, const char *k, const char *json)
{
    key(r, k);
    fputs(json, r->f);
}

void row_end(struct row *r)
{
    fputs("}\n", r->f);
    fflush(r->f);
}
