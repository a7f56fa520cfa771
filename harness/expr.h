/* The values of `expect` and of wait filters: numbers, atom names, NAME.FIELD of a bound record,
 * combined with + - * / % left to right, compared with == != < <= > >=, or records ordered with
 * before/after.  Arithmetic is 128-bit, so 64-bit counter values near the top of the range
 * (and + 240) do not overflow. */
#ifndef FRAMESYNC_EXPR_H
#define FRAMESYNC_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "caseparse.h"
#include "timeline.h"

typedef __int128 value_t;

struct expr_env {
    const struct record *(*lookup)(void *ctx, const char *name, size_t len);
    uint32_t (*atom)(void *ctx, const char *name);    /* 0 when it cannot be interned */
    void *ctx;
    int64_t t0_us;                                     /* NAME.t is relative to this */
};

enum expr_status { EXPR_TRUE, EXPR_FALSE, EXPR_ERROR };

/* Evaluates; *explain gets what was compared ("req.value = 0, wanted req.value != 0") on
 * EXPR_FALSE, or what could not be evaluated on EXPR_ERROR. */
enum expr_status expr_eval(const struct expr_env *env, char *const *tokens, int n,
                           char *explain, size_t len);
/* One term; returns -1 (with a message in err) when it has no value. */
int expr_term(const struct expr_env *env, const char *term, value_t *out, char *err, size_t len);
/* An arithmetic expression (VALUE [OP VALUE]...); -1 with err when it has no value. */
int expr_value(const struct expr_env *env, char *const *tokens, int n, value_t *out, char *err, size_t len);
/* Does the record's field compare with the filter's term as op says (numerically if both are
 * numbers, else as text: only = and !=)?  Keys after/before compare the record's timeline position
 * with the record bound to the name in term. */
bool expr_filter_matches(const struct expr_env *env, const struct record *r, const char *key,
                         enum filter_op op, const char *term);
/* Decimal rendering of a 128-bit value. */
const char *value_str(value_t v, char *buf, size_t len);
bool parse_integer(const char *s, value_t *out);

#endif
