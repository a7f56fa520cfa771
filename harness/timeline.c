#include "timeline.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void timeline_init(struct timeline *tl, int64_t start_us)
{
    memset(tl, 0, sizeof *tl);
    tl->start_us = start_us;
}

void record_free(struct record *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->nfields; i++) {
        free(r->fields[i].key);
        free(r->fields[i].value);
    }
    free(r->kind);
    free(r->line);
    free(r);
}

void timeline_free(struct timeline *tl)
{
    for (int i = 0; i < tl->n; i++)
        record_free(tl->recs[i]);
    free(tl->recs);
    memset(tl, 0, sizeof *tl);
}

static bool add_field(struct record *r, const char *key, size_t klen, const char *val, size_t vlen)
{
    if (r->nfields >= RECORD_MAX_FIELDS)
        return true; /* extra fields are dropped from matching, kept in r->line */
    r->fields[r->nfields].key = strndup(key, klen);
    r->fields[r->nfields].value = strndup(val, vlen);
    r->nfields++;
    return true;
}

struct record *record_parse(const char *source, const char *line)
{
    while (*line == ' ')
        line++;
    size_t klen = strcspn(line, " ");
    if (klen == 0)
        return NULL;
    struct record *r = calloc(1, sizeof *r);
    snprintf(r->source, sizeof r->source, "%s", source);
    r->kind = strndup(line, klen);
    r->line = strdup(line);
    r->t_us = -1;
    const char *p = line + klen;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        const char *eq = strchr(p, '=');
        size_t tok = strcspn(p, " ");
        if (!eq || (size_t)(eq - p) > tok || eq == p) {
            record_free(r);
            return NULL;
        }
        size_t kl = (size_t)(eq - p);
        const char *v = eq + 1;
        size_t vl = (kl == 3 && !strncmp(p, "msg", 3)) ? strlen(v) : strcspn(v, " ");
        if (kl == 1 && *p == 't') {
            char *end;
            r->t_us = strtoll(v, &end, 10);
            if (end == v || end != v + vl) { /* not a number: malformed, not time 0 */
                record_free(r);
                return NULL;
            }
        } else
            add_field(r, p, kl, v, vl);
        p = v + vl;
    }
    if (r->t_us < 0) {
        record_free(r);
        return NULL;
    }
    return r;
}

struct record *record_make(const char *source, int64_t t_us, const char *fmt, ...)
{
    char buf[1024], line[1100];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    size_t k = strcspn(buf, " ");
    snprintf(line, sizeof line, "%.*s t=%lld%s", (int)k, buf, (long long)t_us, buf + k);
    return record_parse(source, line);
}

const char *record_get(const struct record *r, const char *key)
{
    for (int i = 0; i < r->nfields; i++)
        if (!strcmp(r->fields[i].key, key))
            return r->fields[i].value;
    return NULL;
}

struct record *timeline_add(struct timeline *tl, struct record *r)
{
    if (tl->n == tl->cap) {
        tl->cap = tl->cap ? tl->cap * 2 : 64;
        tl->recs = realloc(tl->recs, (size_t)tl->cap * sizeof *tl->recs);
    }
    r->seq = tl->n + 1;
    tl->recs[tl->n++] = r;
    return r;
}

void record_print(const struct timeline *tl, const struct record *r, FILE *f)
{
    double ms = (double)(r->t_us - tl->start_us) / 1000.0;
    fprintf(f, "%+9.3f ms  %-8s %s", ms, r->source, r->kind);
    for (int i = 0; i < r->nfields; i++)
        fprintf(f, " %s=%s", r->fields[i].key, r->fields[i].value);
}

void timeline_print(const struct timeline *tl, FILE *f, const char *prefix, int mark_seq)
{
    for (int i = 0; i < tl->n; i++) {
        /* a sampling screen oracle's `sampled` records (one per picture) are evidence for the
         * verdict of a screen wait (run-wait.c), which names the one it used; listed they drown
         * the timeline */
        if (!strcmp(tl->recs[i]->kind, "sampled") && tl->recs[i]->seq != mark_seq)
            continue;
        fputs(prefix, f);
        record_print(tl, tl->recs[i], f);
        if (tl->recs[i]->seq == mark_seq)
            fputs("   <-- here", f);
        fputc('\n', f);
    }
}
