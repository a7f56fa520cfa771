/* TAP 13: the plan, one `ok`/`not ok` line per case and profile, a YAML block under each
 * failure, SKIP directives with their reason.  Written to stdout and to results.tap at once. */
#ifndef FRAMESYNC_TAP_H
#define FRAMESYNC_TAP_H

#include <stdio.h>
#include "catalog.h"
#include "caseparse.h"
#include "run.h"

#define TAP_MAX_FINDINGS 64

struct tap {
    FILE *out[2];
    int nout;
    int n;                  /* last test number written */
    int counts[4];          /* per verdict */
    struct tap_finding {    /* each clause broken once, with the cases that show it */
        char clause[128];
        enum level level;   /* its clause's keyword (catalog_level) */
        char cases[2048];
    } findings[TAP_MAX_FINDINGS];
    int nfindings;
};

void tap_open(struct tap *t, FILE *a, FILE *b);
void tap_plan(struct tap *t, int total);
void tap_comment(struct tap *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tap_result(struct tap *t, const struct testcase *tc, enum profile p, const struct result *r,
                const struct catalog *cat, const struct session *s, const char *compositor_cmd);
void tap_bail_out(struct tap *t, const char *reason);
/* "# 10 passed, 1 failed, 2 skipped, 0 unresolved" and the plain closing line. */
void tap_summary(struct tap *t);

/* YAML double-quoted scalar. */
void yaml_quoted(FILE *f, const char *s);

#endif
