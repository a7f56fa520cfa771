#include "expr.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *value_str(value_t v, char *buf, size_t len)
{
    char tmp[64];
    int i = 0;
    bool neg = v < 0;
    unsigned __int128 u = neg ? -(unsigned __int128)v : (unsigned __int128)v;
    do {
        tmp[i++] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u);
    size_t o = 0;
    if (neg && o + 1 < len)
        buf[o++] = '-';
    while (i > 0 && o + 1 < len)
        buf[o++] = tmp[--i];
    buf[o] = 0;
    return buf;
}

bool parse_integer(const char *s, value_t *out)
{
    bool neg = false;
    if (*s == '-' || *s == '+')
        neg = *s++ == '-';
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        base = 16, s += 2;
    if (!*s)
        return false;
    unsigned __int128 v = 0;
    for (; *s; s++) {
        int d = isdigit((unsigned char)*s) ? *s - '0'
                : (base == 16 && isxdigit((unsigned char)*s)) ? tolower((unsigned char)*s) - 'a' + 10
                : -1;
        if (d < 0)
            return false;
        v = v * (unsigned)base + (unsigned)d;
        if (v >> 100)
            return false;
    }
    *out = neg ? -(value_t)v : (value_t)v;
    return true;
}

static bool is_atom_name(const char *s)
{
    if (!(isupper((unsigned char)*s) || *s == '_'))
        return false;
    for (; *s; s++)
        if (!(isupper((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '_'))
            return false;
    return true;
}

int expr_term(const struct expr_env *env, const char *term, value_t *out, char *err, size_t len)
{
    if (parse_integer(term, out))
        return 0;
    const char *dot = strchr(term, '.');
    if (dot && isalpha((unsigned char)term[0])) {
        const struct record *r = env->lookup(env->ctx, term, (size_t)(dot - term));
        const char *field = dot + 1;
        if (!r) {
            snprintf(err, len, "`%.*s` names no record (its wait did not run)", (int)(dot - term), term);
            return -1;
        }
        if (!strcmp(field, "t")) {
            *out = r->t_us - env->t0_us;
            return 0;
        }
        if (!strcmp(field, "seq")) {
            *out = r->seq;
            return 0;
        }
        const char *v = record_get(r, field);
        if (!v) {
            snprintf(err, len, "the %s record has no field `%s`", r->kind, field);
            return -1;
        }
        if (!parse_integer(v, out)) {
            snprintf(err, len, "%s = `%s` is not a number", term, v);
            return -1;
        }
        return 0;
    }
    if (is_atom_name(term)) {
        uint32_t a = env->atom(env->ctx, term);
        if (!a) {
            snprintf(err, len, "cannot intern the atom %s", term);
            return -1;
        }
        *out = a;
        return 0;
    }
    snprintf(err, len, "`%s` is not a number, an atom name or NAME.FIELD", term);
    return -1;
}

/* Left to right: a + b % c is (a + b) % c.  Cases write what they mean with this in mind. */
static int eval_side(const struct expr_env *env, char *const *tok, int n, value_t *out,
                     char *shown, size_t shown_len, char *err, size_t len)
{
    value_t acc;
    if (expr_term(env, tok[0], &acc, err, len) < 0)
        return -1;
    for (int i = 1; i + 1 < n; i += 2) {
        value_t b;
        if (expr_term(env, tok[i + 1], &b, err, len) < 0)
            return -1;
        switch (tok[i][0]) {
        case '+': acc += b; break;
        case '-': acc -= b; break;
        case '*': acc *= b; break;
        case '/':
        case '%':
            if (b == 0) {
                snprintf(err, len, "division by zero in `%s`", tok[i + 1]);
                return -1;
            }
            acc = tok[i][0] == '/' ? acc / b : acc % b;
            break;
        }
    }
    /* what the reader needs to see: every named term's value */
    size_t o = strlen(shown);
    for (int i = 0; i < n; i += 2) {
        value_t v;
        char vb[64], e2[8];
        if (strchr(tok[i], '.')) { /* numbers and atoms speak for themselves */
            if (expr_term(env, tok[i], &v, e2, sizeof e2) == 0 && o < shown_len)
                o += (size_t)snprintf(shown + o, shown_len - o, "%s%s = %s", o ? ", " : "", tok[i],
                                      value_str(v, vb, sizeof vb));
        }
    }
    if (n > 1 && o < shown_len) {
        char vb[64];
        char expr[256] = "";
        for (int i = 0; i < n; i++) {
            strncat(expr, tok[i], sizeof expr - strlen(expr) - 2);
            if (i + 1 < n)
                strncat(expr, " ", sizeof expr - strlen(expr) - 1);
        }
        snprintf(shown + o, shown_len - o, "%s%s = %s", o ? ", " : "", expr, value_str(acc, vb, sizeof vb));
    }
    *out = acc;
    return 0;
}

/* When a record is known only to lie in a span of time: a screen record of a sampling oracle
 * (oracle-capture.h) says what was on screen at some moment after its since_us (relative to the
 * case's start) and no later than its t.  Any other record happened at its t. */
static bool record_span(const struct expr_env *env, const struct record *r, int64_t *lo, int64_t *hi)
{
    const char *since = record_get(r, "since_us");
    *hi = r->t_us;
    *lo = since ? env->t0_us + strtoll(since, NULL, 10) : r->t_us;
    return since != NULL;
}

#define EXPR_NOT_SAMPLED ((enum expr_status) - 1)

/* `A before B` / `A after B` where one of them was sampled: decided only when the spans do not
 * overlap; otherwise the order cannot be told from what was seen (EXPR_ERROR, with why), never
 * guessed.  EXPR_NOT_SAMPLED when neither was sampled (the timeline's order decides). */
static enum expr_status sampled_order(const struct expr_env *env, const char *a, const char *op, const char *b,
                                      char *explain, size_t len)
{
    const struct record *ra = env->lookup ? env->lookup(env->ctx, a, strlen(a)) : NULL;
    const struct record *rb = env->lookup ? env->lookup(env->ctx, b, strlen(b)) : NULL;
    if (!ra || !rb)
        return EXPR_NOT_SAMPLED;
    int64_t alo, ahi, blo, bhi;
    bool sa = record_span(env, ra, &alo, &ahi), sb = record_span(env, rb, &blo, &bhi);
    if (!sa && !sb)
        return EXPR_NOT_SAMPLED;
    bool after = op[0] == 'a';
    /* A after B for certain when A's earliest is past B's latest; A before B when A's latest is
     * before B's earliest */
    if (alo > bhi || ahi < blo) {
        bool a_later = alo > bhi;
        if (a_later == after)
            return EXPR_TRUE;
        snprintf(explain, len, "%s (at %+.3f ms%s) came %s %s (%s%+.3f ms): wanted %s %s %s", a,
                 (double)(ahi - env->t0_us) / 1000.0, sa ? " at the latest" : "", a_later ? "after" : "before", b,
                 sb ? "shown no later than " : "at ", (double)(bhi - env->t0_us) / 1000.0, a, op, b);
        return EXPR_FALSE;
    }
    snprintf(explain, len, "the screen oracle knows only a span of time for what it saw (a picture's, or the "
             "frames' around a paint): %s lies between "
             "%+.3f and %+.3f ms and %s between %+.3f and %+.3f ms, so whether %s came %s %s cannot be told",
             a, (double)(alo - env->t0_us) / 1000.0, (double)(ahi - env->t0_us) / 1000.0, b,
             (double)(blo - env->t0_us) / 1000.0, (double)(bhi - env->t0_us) / 1000.0, a, op, b);
    return EXPR_ERROR;
}

enum expr_status expr_eval(const struct expr_env *env, char *const *tok, int n, char *explain,
                           size_t len)
{
    int cmp;
    for (cmp = 0; cmp < n; cmp++) { /* the parser guarantees exactly one comparison word */
        const char *t = tok[cmp];
        if (!strcmp(t, "==") || !strcmp(t, "!=") || !strcmp(t, "<") || !strcmp(t, "<=") ||
            !strcmp(t, ">") || !strcmp(t, ">=") || !strcmp(t, "before") || !strcmp(t, "after"))
            break;
    }
    if (cmp == 0 || cmp >= n - 1) {
        snprintf(explain, len, "malformed expression");
        return EXPR_ERROR;
    }
    const char *op = tok[cmp];
    char shown[512] = "", err[256];
    value_t a, b;
    if (!strcmp(op, "before") || !strcmp(op, "after")) {
        enum expr_status sampled = sampled_order(env, tok[0], op, tok[2], explain, len);
        if (sampled != EXPR_NOT_SAMPLED)
            return sampled;
        char ta[128], tb[128];
        snprintf(ta, sizeof ta, "%s.seq", tok[0]);
        snprintf(tb, sizeof tb, "%s.seq", tok[2]);
        if (expr_term(env, ta, &a, err, sizeof err) < 0 || expr_term(env, tb, &b, err, sizeof err) < 0) {
            snprintf(explain, len, "%s", err);
            return EXPR_ERROR;
        }
        bool ok = op[0] == 'b' ? a < b : a > b;
        if (!ok)
            snprintf(explain, len, "%s is record #%d and %s is record #%d of the timeline: wanted %s %s %s",
                     tok[0], (int)a, tok[2], (int)b, tok[0], op, tok[2]);
        return ok ? EXPR_TRUE : EXPR_FALSE;
    }
    if (eval_side(env, tok, cmp, &a, shown, sizeof shown, err, sizeof err) < 0 ||
        eval_side(env, tok + cmp + 1, n - cmp - 1, &b, shown, sizeof shown, err, sizeof err) < 0) {
        snprintf(explain, len, "%s", err);
        return EXPR_ERROR;
    }
    bool ok = !strcmp(op, "==") ? a == b : !strcmp(op, "!=") ? a != b : !strcmp(op, "<") ? a < b
              : !strcmp(op, "<=") ? a <= b : !strcmp(op, ">") ? a > b : a >= b;
    if (!ok) {
        char want[256] = "";
        for (int i = 0; i < n; i++) {
            strncat(want, tok[i], sizeof want - strlen(want) - 2);
            if (i + 1 < n)
                strncat(want, " ", sizeof want - strlen(want) - 1);
        }
        char va[64], vb[64];
        if (!shown[0])
            snprintf(shown, sizeof shown, "%s vs %s", value_str(a, va, sizeof va), value_str(b, vb, sizeof vb));
        snprintf(explain, len, "%s; wanted %s", shown, want);
    }
    return ok ? EXPR_TRUE : EXPR_FALSE;
}

int expr_value(const struct expr_env *env, char *const *tokens, int n, value_t *out, char *err, size_t len)
{
    char shown[8] = "";
    if (n < 1 || n % 2 == 0) {
        snprintf(err, len, "expected VALUE [OP VALUE]...");
        return -1;
    }
    for (int i = 1; i < n; i += 2)
        if (strlen(tokens[i]) != 1 || !strchr("+-*/%", tokens[i][0])) {
            snprintf(err, len, "expected an operator (+ - * / %%), found `%s`", tokens[i]);
            return -1;
        }
    return eval_side(env, tokens, n, out, shown, 0, err, len);
}

static bool compare(value_t a, enum filter_op op, value_t b)
{
    switch (op) {
    case FILTER_EQ: return a == b;
    case FILTER_NE: return a != b;
    case FILTER_LT: return a < b;
    case FILTER_LE: return a <= b;
    case FILTER_GT: return a > b;
    case FILTER_GE: return a >= b;
    }
    return false;
}

bool expr_filter_matches(const struct expr_env *env, const struct record *r, const char *key,
                         enum filter_op op, const char *term)
{
    /* after=VAR / before=VAR: the record's place in the timeline against the named record's */
    if (!strcmp(key, "after") || !strcmp(key, "before")) {
        const struct record *other = env->lookup(env->ctx, term, strlen(term));
        if (!other)
            return false;
        return key[0] == 'a' ? r->seq > other->seq : r->seq < other->seq;
    }
    const char *have = record_get(r, key);
    if (!have)
        return false;
    value_t hv, want;
    char err[128];
    if (parse_integer(have, &hv) && expr_term(env, term, &want, err, sizeof err) == 0)
        return compare(hv, op, want);
    /* text: only equality makes sense; a VAR.FIELD term stands for that field's text */
    const char *text = term, *dot = strchr(term, '.');
    if (dot && env->lookup) {
        const struct record *other = env->lookup(env->ctx, term, (size_t)(dot - term));
        const char *field = other ? record_get(other, dot + 1) : NULL;
        if (field)
            text = field;
    }
    int c = strcmp(have, text);
    return op == FILTER_EQ ? c == 0 : op == FILTER_NE ? c != 0 : false;
}
