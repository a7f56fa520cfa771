#include "tap.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void tap_open(struct tap *t, FILE *a, FILE *b)
{
    memset(t, 0, sizeof *t);
    if (a)
        t->out[t->nout++] = a;
    if (b)
        t->out[t->nout++] = b;
}

static void emit(struct tap *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(struct tap *t, const char *fmt, ...)
{
    for (int i = 0; i < t->nout; i++) {
        va_list ap;
        va_start(ap, fmt);
        vfprintf(t->out[i], fmt, ap);
        va_end(ap);
        fflush(t->out[i]);
    }
}

void tap_plan(struct tap *t, int total)
{
    emit(t, "TAP version 13\n1..%d\n", total);
}

void tap_comment(struct tap *t, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
        emit(t, "# %s\n", line);
}

void yaml_quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", f);
        else if (ch < 0x20 || ch == 0x7f) /* DEL is not printable in YAML either */
            fprintf(f, "\\x%02x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

/* A reason on one TAP line: a line break becomes "; " (a space after a colon), `#` a space. */
static void one_line(char *dst, size_t len, const char *src)
{
    size_t o = 0;
    for (const char *p = src; *p && o + 3 < len; p++) {
        if (*p == '\n') {
            if (o && dst[o - 1] != ':')
                dst[o++] = ';';
            dst[o++] = ' ';
        } else
            dst[o++] = *p == '#' ? ' ' : *p;
    }
    dst[o] = 0;
}

/* The YAML diagnostic, into a memory stream first so every output gets the same text. */
static char *diagnostic(const struct testcase *tc, const struct result *r, const struct catalog *cat,
                        const struct session *s, const char *compositor_cmd)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    /* a FAIL is a finding of the clause whose check failed; otherwise the case's clause */
    const char *clause = r->clause ? r->clause : tc->clauses[0];
    fprintf(f, "  ---\n  verdict: %s\n  clause: %s\n", verdict_name(r->verdict), clause);
    if (r->verdict == VERDICT_FAIL)
        fprintf(f, "  level: %s\n", level_name(catalog_level(cat, clause)));
    const struct clause *cl = catalog_find(cat, clause);
    if (cl) {
        fputs("  wording: ", f);
        yaml_quoted(f, cl->wording);
        fputc('\n', f);
    }
    fputs("  description: ", f);
    yaml_quoted(f, tc->description);
    char where[1100];
    snprintf(where, sizeof where, "%s:%d", tc->path, r->step ? r->step->line : 1);
    fputs("\n  file: ", f);
    yaml_quoted(f, where); /* a path may hold quotes or backslashes too */
    fputc('\n', f);
    if (r->step) {
        fputs("  step: ", f);
        yaml_quoted(f, r->step->text);
        fputc('\n', f);
    }
    fputs("  reason: ", f);
    yaml_quoted(f, r->reason);
    fputc('\n', f);
    if (r->expected[0]) {
        fputs("  expected: ", f);
        yaml_quoted(f, r->expected);
        fputc('\n', f);
    }
    if (r->observed[0]) {
        fputs("  observed: ", f);
        yaml_quoted(f, r->observed);
        fputc('\n', f);
    }
    fputs("  compositor: ", f);
    yaml_quoted(f, compositor_cmd);
    fprintf(f, "\n  checks: \"%d of %d ran\"\n", r->checks_run, tc->checks);
    fprintf(f, "  duration_ms: %.1f\n", (double)(r->end_us - r->start_us) / 1000.0);
    if (r->log_path[0]) {
        fputs("  log: ", f);
        yaml_quoted(f, r->log_path);
        fputc('\n', f);
    }
    if (s && s->tl.n) {
        fputs("  timeline: |\n", f);
        timeline_print(&s->tl, f, "    ", r->mark_seq);
    }
    fputs("  ...\n", f);
    fclose(f);
    return text;
}

/* One finding per clause broken, with the cases and profiles that show it. */
static void note_finding(struct tap *t, const char *clause, enum level level, const char *id, enum profile p)
{
    struct tap_finding *fd = NULL;
    for (int i = 0; i < t->nfindings && !fd; i++)
        if (!strcmp(t->findings[i].clause, clause))
            fd = &t->findings[i];
    if (!fd) {
        if (t->nfindings == TAP_MAX_FINDINGS)
            return;
        fd = &t->findings[t->nfindings++];
        snprintf(fd->clause, sizeof fd->clause, "%s", clause);
        fd->level = level;
    }
    size_t o = strlen(fd->cases);
    snprintf(fd->cases + o, sizeof fd->cases - o, "%s%s [%s]", o ? "; " : "", id, profile_name(p));
}

void tap_result(struct tap *t, const struct testcase *tc, enum profile p, const struct result *r,
                const struct catalog *cat, const struct session *s, const char *compositor_cmd)
{
    t->n++;
    t->counts[r->verdict]++;
    char reason[512];
    one_line(reason, sizeof reason, r->reason);
    switch (r->verdict) {
    case VERDICT_PASS:
        emit(t, "ok %d - %s [%s]\n", t->n, tc->id, profile_name(p));
        return;
    case VERDICT_SKIP:
        emit(t, "ok %d - %s [%s] # SKIP %s\n", t->n, tc->id, profile_name(p), reason);
        return;
    case VERDICT_FAIL:
        emit(t, "not ok %d - %s [%s]\n", t->n, tc->id, profile_name(p));
        note_finding(t, r->clause ? r->clause : tc->clauses[0],
                     catalog_level(cat, r->clause ? r->clause : tc->clauses[0]), tc->id, p);
        break;
    case VERDICT_UNRESOLVED:
        /* not a TAP directive on purpose: parsers count it as a failure, never as a pass or skip */
        emit(t, "not ok %d - %s [%s] # UNRESOLVED: %s\n", t->n, tc->id, profile_name(p), reason);
        break;
    }
    char *d = diagnostic(tc, r, cat, s, compositor_cmd);
    emit(t, "%s", d);
    free(d);
}

void tap_bail_out(struct tap *t, const char *reason)
{
    char r[2048];
    one_line(r, sizeof r, reason);
    emit(t, "Bail out! %s\n", r);
}

void tap_summary(struct tap *t)
{
    if (!t->nfindings)
        emit(t, "# findings: none (no clause broken)\n");
    else
        emit(t, "# findings: %d clause%s broken (each FAIL is filed under the clause of the check that failed)\n",
             t->nfindings, t->nfindings == 1 ? "" : "s");
    for (int i = 0; i < t->nfindings; i++)
        emit(t, "#   %s (%s): %s\n", t->findings[i].clause, level_describe(t->findings[i].level),
             t->findings[i].cases);
    emit(t, "# framesync: %d passed, %d failed, %d skipped, %d unresolved\n",
         t->counts[VERDICT_PASS], t->counts[VERDICT_FAIL], t->counts[VERDICT_SKIP],
         t->counts[VERDICT_UNRESOLVED]);
}
