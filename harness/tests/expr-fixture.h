/* The fake expression environment the expr unit tests share (test_expr.c, test_expr_filter.c):
 * named records in a timeline, a fixed atom table, and helpers to evaluate and explain.
 * Its functions are static inline and its state static, so each test program has its own. */
#ifndef EXPR_FIXTURE_H
#define EXPR_FIXTURE_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../expr.h"

/* ---- a fake environment: named records in a timeline, a fixed atom table ---- */

struct fake {
    struct timeline tl;
    const char *names[16];
    struct record *recs[16];
    int n;
    int atom_calls;
};

static inline const struct record *fake_lookup(void *ctx, const char *name, size_t len)
{
    struct fake *f = ctx;
    for (int i = 0; i < f->n; i++)
        if (strlen(f->names[i]) == len && !strncmp(f->names[i], name, len))
            return f->recs[i];
    return NULL;
}

static inline uint32_t fake_atom(void *ctx, const char *name)
{
    struct fake *f = ctx;
    f->atom_calls++;
    if (!strcmp(name, "WM_PROTOCOLS"))
        return 300;
    if (!strcmp(name, "_NET_WM_SYNC_REQUEST"))
        return 301;
    if (!strcmp(name, "_NET_WM_FRAME_DRAWN"))
        return 302;
    return 0;
}

static struct fake F __attribute__((unused));
static struct expr_env ENV __attribute__((unused));

/* Adds a record to the timeline and binds it to name (NULL: unbound). */
static inline struct record *add(const char *name, const char *line)
{
    struct record *r = record_parse("A", line);
    assert_non_null(r);
    timeline_add(&F.tl, r);
    if (name) {
        F.names[F.n] = name;
        F.recs[F.n++] = r;
    }
    return r;
}

static inline int setup(void **state)
{
    (void)state;
    memset(&F, 0, sizeof F);
    timeline_init(&F.tl, 1000000);
    ENV = (struct expr_env){.lookup = fake_lookup, .atom = fake_atom, .ctx = &F, .t0_us = 1000000};
    return 0;
}

static inline int teardown(void **state)
{
    (void)state;
    timeline_free(&F.tl);
    return 0;
}

/* Splits a space-separated expression and evaluates it. */
static char explain[1024] __attribute__((unused));
static inline enum expr_status eval(const char *text)
{
    char buf[512];
    char *tok[64];
    int n = 0;
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
        tok[n++] = t;
    explain[0] = 0;
    return expr_eval(&ENV, tok, n, explain, sizeof explain);
}

#define assert_eval(text, want)                                                                \
    do {                                                                                       \
        enum expr_status got_ = eval(text);                                                    \
        if (got_ != (want))                                                                    \
            fail_msg("`%s`: got %d, wanted %d (%s)", text, (int)got_, (int)(want), explain);   \
    } while (0)

#define assert_explain_has(sub)                                                                \
    do {                                                                                       \
        if (!strstr(explain, sub))                                                             \
            fail_msg("explanation \"%s\" does not contain \"%s\"", explain, sub);              \
    } while (0)

static inline value_t term(const char *t)
{
    value_t v = -12345;
    char err[256];
    if (expr_term(&ENV, t, &v, err, sizeof err) != 0)
        fail_msg("term `%s`: %s", t, err);
    return v;
}

static inline const char *str(value_t v)
{
    static char buf[8][64];
    static int i;
    i = (i + 1) % 8;
    return value_str(v, buf[i], sizeof buf[i]);
}

#endif
