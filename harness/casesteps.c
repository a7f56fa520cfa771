/* The steps of a case file (cases/README.md, "Steps"): clients, commands, waits, expectations,
 * requires, checks, marks, and `when`/`unless` prefixes.  Each is checked as it is read: a name
 * must be declared, a record bound, a feature known, so a mistake is a FILE:LINE error before
 * anything runs. */
#include "caseparse-internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool known_client(struct parser *p, const char *name)
{
    for (int i = 0; i < p->nclients; i++)
        if (!strcmp(p->clients[i], name))
            return true;
    return false;
}

static bool known_var(struct parser *p, const char *name, size_t len)
{
    for (int i = 0; i < p->nvars; i++)
        if (strlen(p->vars[i]) == len && !strncmp(p->vars[i], name, len))
            return true;
    return false;
}

/* Sources a wait can read: the clients, and the oracles' names. */
static bool known_source(struct parser *p, const char *name)
{
    return known_client(p, name) || !strcmp(name, "screen") || !strcmp(name, "wm");
}

/* A term that names VAR.FIELD must use a VAR bound earlier by `as`. */
static bool check_term(struct parser *p, const char *t)
{
    const char *dot = strchr(t, '.');
    if (dot && isalpha((unsigned char)t[0]) && !known_var(p, t, (size_t)(dot - t)))
        return cp_fail(p, "`%.*s` is not bound: name a record with `as %.*s` in an earlier wait",
                    (int)(dot - t), t, (int)(dot - t), t);
    return true;
}

static int parse_ms(struct parser *p, const char *s, const char *after)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || (*end && strcmp(end, "ms")) || v < 0 || v > 3600000 || errno)
        return cp_fail(p, "expected a duration in milliseconds after `%s`, found `%s`", after, s), -1;
    return (int)v;
}

static bool is_comparison(const char *t)
{
    static const char *ops[] = {"==", "!=", "<", "<=", ">", ">=", "before", "after", NULL};
    for (int i = 0; ops[i]; i++)
        if (!strcmp(t, ops[i]))
            return true;
    return false;
}

static bool is_arith(const char *t)
{
    return strlen(t) == 1 && strchr("+-*/%", t[0]);
}

/* expect TERM [OP TERM]... CMP TERM [OP TERM]...  (tokens separated by spaces) */

static bool parse_expect(struct parser *p, struct step *s, char **tok, int n)
{
    /* expect supported ATOM / expect unsupported ATOM: a check on _NET_SUPPORTED (FAIL, where
     * `require` would SKIP), for the cases about honesty: what is sent must be advertised */
    if (n >= 1 && (!strcmp(tok[0], "supported") || !strcmp(tok[0], "unsupported"))) {
        if (n != 2)
            return cp_fail(p, "expected `expect %s ATOM`", tok[0]);
        s->tokens = calloc(2, sizeof *s->tokens);
        s->tokens[0] = strdup(tok[0]);
        s->tokens[1] = strdup(tok[1]);
        s->ntokens = 2;
        return true;
    }
    /* expect feature NAME: a check on what the probes saw (FAIL with their reason), for the
     * honesty cases the other way round: what is advertised must be done */
    if (n >= 1 && !strcmp(tok[0], "feature")) {
        if (n != 2 || !cp_is_name(tok[1]))
            return cp_fail(p, "expected `expect feature NAME`");
        if (!cp_known_feature(p, tok[1]))
            return false;
        s->tokens = calloc(2, sizeof *s->tokens);
        s->tokens[0] = strdup(tok[0]);
        s->tokens[1] = strdup(tok[1]);
        s->ntokens = 2;
        return true;
    }
    int cmp = -1;
    for (int i = 0; i < n; i++)
        if (is_comparison(tok[i])) {
            if (cmp >= 0)
                return cp_fail(p, "one comparison per expect, found `%s` and `%s`", tok[cmp], tok[i]);
            cmp = i;
        }
    if (cmp < 0)
        return cp_fail(p, "expected a comparison (== != < <= > >= before after) in `expect`");
    for (int i = 0; i < n; i++) {
        if (i == cmp)
            continue;
        bool operand_pos = (i < cmp) ? (i % 2 == 0) : ((i - cmp - 1) % 2 == 0);
        if (operand_pos) {
            if (is_arith(tok[i]) || is_comparison(tok[i]))
                return cp_fail(p, "expected a value (number, atom or NAME.FIELD), found `%s`", tok[i]);
            if (!check_term(p, tok[i]))
                return false;
        } else if (!is_arith(tok[i])) {
            return cp_fail(p, "expected an operator (+ - * / %%) or the comparison, found `%s`", tok[i]);
        }
    }
    if (cmp == 0 || cmp == n - 1 || cmp % 2 != 1 || (n - cmp - 1) % 2 != 1)
        return cp_fail(p, "expected a value on each side of `%s`", tok[cmp]);
    if (!strcmp(tok[cmp], "before") || !strcmp(tok[cmp], "after")) {
        if (n != 3 || !cp_is_name(tok[0]) || !cp_is_name(tok[2]))
            return cp_fail(p, "`%s` compares two named records: expect A %s B", tok[cmp], tok[cmp]);
        for (int i = 0; i < 3; i += 2)
            if (!known_var(p, tok[i], strlen(tok[i])))
                return cp_fail(p, "`%s` is not bound: name a record with `as %s` in an earlier wait",
                            tok[i], tok[i]);
    }
    s->tokens = calloc((size_t)n, sizeof *s->tokens);
    for (int i = 0; i < n; i++)
        s->tokens[i] = strdup(tok[i]);
    s->ntokens = n;
    return true;
}

/* KEY=V KEY!=V KEY<V KEY<=V KEY>V KEY>=V; after=VAR and before=VAR name a bound record */
static bool parse_filter(struct parser *p, const char *t, struct filter *f)
{
    size_t k = strcspn(t, "!=<>");
    const char *op = t + k;
    static const struct { const char *text; enum filter_op op; } ops[] = {
        {"!=", FILTER_NE}, {"<=", FILTER_LE}, {">=", FILTER_GE}, {"=", FILTER_EQ}, {"<", FILTER_LT}, {">", FILTER_GT}};
    size_t oplen = 0;
    for (size_t j = 0; j < sizeof ops / sizeof ops[0] && !oplen; j++)
        if (!strncmp(op, ops[j].text, strlen(ops[j].text))) {
            f->op = ops[j].op;
            oplen = strlen(ops[j].text);
        }
    const char *value = op + oplen;
    if (k == 0 || !oplen || !*value || strpbrk(value, "=<>!"))
        return cp_fail(p, "expected KEY=VALUE (or != < <= > >=), found `%s`", t);
    f->key = strndup(t, k);
    bool order = !strcmp(f->key, "after") || !strcmp(f->key, "before");
    if (order && (f->op != FILTER_EQ || !cp_is_name(value) || !known_var(p, value, strlen(value))))
        return cp_fail(p, "`%s=` names a record bound earlier with `as`, found `%s`", f->key, t);
    if (!order && !check_term(p, value))
        return false;
    f->value = strdup(value);
    return true;
}

/* wait SRC KIND [K=V]... within MS [as VAR]  /  none SRC KIND [K=V]... for MS */
static bool parse_wait(struct parser *p, struct step *s, char **tok, int n)
{
    const char *verb = tok[0];
    const char *limit_word = s->kind == STEP_WAIT ? "within" : "for";
    if (n < 3)
        return cp_fail(p, "expected `%s SOURCE EVENT ... %s MS`", verb, limit_word);
    if (!known_source(p, tok[1]))
        return cp_fail(p, "`%s` is not a client of this case (declare it with `client %s` first)", tok[1], tok[1]);
    s->source = strdup(tok[1]);
    s->event = strdup(tok[2]);
    int i = 3;
    for (; i < n && strpbrk(tok[i], "=<>"); i++) {
        if (s->nfilters == MAX_FILTERS)
            return cp_fail(p, "at most %d KEY=VALUE filters", MAX_FILTERS);
        if (!parse_filter(p, tok[i], &s->filters[s->nfilters]))
            return false;
        s->nfilters++;
    }
    if (i >= n || strcmp(tok[i], limit_word))
        return cp_fail(p, "expected `%s MS` after the event%s, found `%s`", limit_word,
                    s->nfilters ? " filters" : "", i < n ? tok[i] : "end of line");
    if (i + 1 >= n)
        return cp_fail(p, "expected a duration in milliseconds after `%s`", limit_word);
    if ((s->ms = parse_ms(p, tok[i + 1], limit_word)) < 0)
        return false;
    i += 2;
    if (i < n && s->kind == STEP_WAIT && !strcmp(tok[i], "as")) {
        if (i + 1 >= n || !cp_is_name(tok[i + 1]))
            return cp_fail(p, "expected a name after `as`");
        s->as = strdup(tok[i + 1]);
        if (p->nvars < MAX_VARS && !known_var(p, s->as, strlen(s->as)))
            p->vars[p->nvars++] = s->as;
        i += 2;
    }
    if (i < n)
        return cp_fail(p, "unexpected `%s` at the end of `%s`", tok[i], verb);
    return true;
}

bool cp_known_feature(struct parser *p, const char *name)
{
    if (!case_feature_known(name))
        return cp_fail(p, "unknown feature `%s` (the features are the probes of cases/probes/ and those listed "
                       "in cases/README.md)", name);
    return true;
}

static bool parse_require(struct parser *p, struct step *s, char **tok, int n)
{
    bool atom = n == 3 && (!strcmp(tok[1], "supported") || !strcmp(tok[1], "unsupported"));
    bool reserved = n >= 2 && (!strcmp(tok[1], "supported") || !strcmp(tok[1], "unsupported") || !strcmp(tok[1], "no"));
    bool feature = (n == 2 && cp_is_name(tok[1]) && !reserved) || (n == 3 && !strcmp(tok[1], "no") && cp_is_name(tok[2]));
    if (!atom && !feature)
        return cp_fail(p, "expected `require FEATURE`, `require no FEATURE`, `require supported ATOM`, "
                       "`require unsupported ATOM`, `require wait ...` or `require none ...`");
    if (feature && !cp_known_feature(p, tok[n - 1]))
        return false;
    s->tokens = calloc((size_t)n, sizeof *s->tokens);
    for (int i = 0; i < n; i++)
        s->tokens[i] = strdup(tok[i]);
    s->ntokens = n;
    return true;
}

static char *join(char **tok, int n)
{
    size_t len = 1;
    for (int i = 0; i < n; i++)
        len += strlen(tok[i]) + 1;
    char *s = calloc(1, len);
    for (int i = 0; i < n; i++) {
        if (i)
            strcat(s, " ");
        strcat(s, tok[i]);
    }
    return s;
}

/* `check CLAUSE-ID` (cases; one of the header's clauses) or `check` (probes) */
static bool parse_check(struct parser *p, struct step *s, char **tok, int n)
{
    if (p->probe) {
        if (n != 1)
            return cp_fail(p, "a probe's checks establish its feature: expected `check` alone");
    } else {
        if (n != 2)
            return cp_fail(p, "expected `check CLAUSE-ID` (one of the clauses of `clause:`)");
        bool listed = false;
        for (int i = 0; i < p->tc->nclauses; i++)
            if (!strcmp(p->tc->clauses[i], tok[1]))
                listed = true;
        if (!listed)
            return cp_fail(p, "`check %s`: list the clause in `clause:` first (the header is the case's index)", tok[1]);
        s->source = strdup(tok[1]);
    }
    p->clause = s->source;
    s->clause = s->source;
    p->in_checks = true;
    p->ncheck_lines++;
    return true;
}

/* `A resize W H [hold] [via TRIGGER]` and `A resize-end`: a size change made the way the
 * compositor synchronises it (run.c picks the trigger from the probed features). */
static bool check_resize(struct parser *p, char **tok, int n)
{
    if (!strcmp(tok[1], "resize-end"))
        return n == 2 ? true : cp_fail(p, "expected `%s resize-end`", tok[0]);
    if (n < 4)
        return cp_fail(p, "expected `%s resize W H [hold] [via TRIGGER] [within MS]`", tok[0]);
    for (int i = 2; i < 4; i++) {
        char *end;
        long v = strtol(tok[i], &end, 10);
        if (*end || v < 1 || v > 32767)
            return cp_fail(p, "expected a size 1..32767 in `resize`, found `%s`", tok[i]);
    }
    static const char *triggers[] = {"configure", "keyboard", "pointer", "map", "driven", "held", NULL};
    for (int i = 4; i < n; i++) {
        if (!strcmp(tok[i], "hold"))
            continue;
        if (!strcmp(tok[i], "within") && i + 1 < n) { /* how long the step waits for the WM's reaction */
            if (parse_ms(p, tok[i + 1], "within") < 0)
                return false;
            i++;
            continue;
        }
        bool known = false;
        for (int j = 0; triggers[j] && i + 1 < n; j++)
            known |= !strcmp(tok[i + 1], triggers[j]);
        if (strcmp(tok[i], "via") || !known)
            return cp_fail(p, "expected `hold`, `within MS` or `via configure|keyboard|pointer|map|driven|held` in `resize`, "
                           "found `%s`", tok[i]);
        i++;
    }
    return true;
}

static bool parse_command(struct parser *p, struct step *s, char **tok, int n)
{
    s->kind = STEP_COMMAND;
    s->source = strdup(tok[0]);
    if (n >= 4 && !strcmp(tok[n - 2], "as")) { /* `A counters 2 0 10 as ctr` binds the done record */
        if (!cp_is_name(tok[n - 1]))
            return cp_fail(p, "expected a name after `as`");
        s->as = strdup(tok[n - 1]);
        if (p->nvars < MAX_VARS && !known_var(p, s->as, strlen(s->as)))
            p->vars[p->nvars++] = s->as;
        n -= 2;
    }
    if (n < 2)
        return cp_fail(p, "expected a command for client `%s`", tok[0]);
    if ((!strcmp(tok[1], "resize") || !strcmp(tok[1], "resize-end")) && !check_resize(p, tok, n))
        return false;
    s->command = join(tok + 1, n - 1);
    for (int i = 1; i < n; i++) /* NAME.FIELD words are replaced by the value at run time */
        if (strchr(tok[i], '.') && !check_term(p, tok[i]))
            return false;
    return true;
}

/* `replace-wm [within MS] [as VAR]` */
static bool parse_replace(struct parser *p, struct step *s, char **tok, int n)
{
    s->kind = STEP_REPLACE;
    for (int i = 1; i < n; i += 2) {
        if (i + 1 >= n)
            return cp_fail(p, "expected `replace-wm [within MS] [as NAME]`, found `%s` alone", tok[i]);
        if (!strcmp(tok[i], "within") && !s->ms) {
            if ((s->ms = parse_ms(p, tok[i + 1], "within")) <= 0)
                return s->ms == 0 ? cp_fail(p, "`within 0`: the new instance needs some time to start") : false;
        } else if (!strcmp(tok[i], "as") && !s->as) {
            if (!cp_is_name(tok[i + 1]))
                return cp_fail(p, "expected a name after `as`");
            s->as = strdup(tok[i + 1]);
            if (p->nvars < MAX_VARS && !known_var(p, s->as, strlen(s->as)))
                p->vars[p->nvars++] = s->as;
        } else {
            return cp_fail(p, "expected `replace-wm [within MS] [as NAME]`, found `%s`", tok[i]);
        }
    }
    return true;
}

/* One step (without a `when`/`unless` prefix). */
static bool parse_plain_step(struct parser *p, struct step *s, char **tok, int n)
{
    if (!strcmp(tok[0], "client")) {
        s->kind = STEP_CLIENT;
        if ((n != 2 && (n != 3 || strcmp(tok[2], "under-test"))) || !cp_is_name(tok[1]))
            return cp_fail(p, "expected `client NAME` or `client NAME under-test`");
        if (known_client(p, tok[1]))
            return cp_fail(p, "client `%s` is already declared", tok[1]);
        if (p->nclients == MAX_CLIENTS)
            return cp_fail(p, "at most %d clients per case", MAX_CLIENTS);
        s->source = strdup(tok[1]);
        s->command = join(tok + 2, n - 2);
        p->clients[p->nclients++] = s->source;
        return true;
    }
    if (!strcmp(tok[0], "wait") || !strcmp(tok[0], "none")) {
        s->kind = !strcmp(tok[0], "wait") ? STEP_WAIT : STEP_NONE;
        s->setup = !p->in_checks;
        return parse_wait(p, s, tok, n);
    }
    if (!strcmp(tok[0], "expect")) {
        s->kind = STEP_EXPECT;
        if (!p->in_checks)
            return cp_fail(p, "`expect` is a check: put it after a `check %s` line", p->probe ? "" : "CLAUSE-ID");
        return parse_expect(p, s, tok + 1, n - 1);
    }
    if (!strcmp(tok[0], "check")) {
        s->kind = STEP_CHECK;
        return parse_check(p, s, tok, n);
    }
    if (!strcmp(tok[0], "mark")) {
        s->kind = STEP_MARK;
        if (n != 2 || !cp_is_name(tok[1]))
            return cp_fail(p, "expected `mark NAME`");
        s->as = strdup(tok[1]);
        if (p->nvars < MAX_VARS && !known_var(p, s->as, strlen(s->as)))
            p->vars[p->nvars++] = s->as;
        return true;
    }
    if (!strcmp(tok[0], "replace-wm"))
        return parse_replace(p, s, tok, n);
    if (!strcmp(tok[0], "figure")) {
        /* a measurement the case reports (results.json "figures"), e.g. figure first_show_ms
         * shown.t - top.t / 1000: evaluated as a {EXPR} of a probe's detail */
        s->kind = STEP_FIGURE;
        if (n < 3 || !cp_is_name(tok[1]))
            return cp_fail(p, "expected `figure NAME EXPR [or WORD]`");
        if (n >= 5 && !strcmp(tok[n - 2], "or")) { /* or WORD: what the figure is when EXPR has no value */
            if (!cp_is_name(tok[n - 1]))
                return cp_fail(p, "expected a word after `or` in `figure NAME EXPR or WORD`, found `%s`", tok[n - 1]);
            s->fallback = strdup(tok[n - 1]);
            n -= 2;
        }
        s->as = strdup(tok[1]);
        s->command = join(tok + 2, n - 2);
        return true;
    }
    if (!strcmp(tok[0], "try") && n > 1 && !strcmp(tok[1], "wait")) {
        /* try wait ...: the record a figure measures to, which may never come (set-up, never a check) */
        s->kind = STEP_WAIT;
        s->setup = s->optional = true;
        if (!parse_wait(p, s, tok + 1, n - 1))
            return false;
        return s->as ? true : cp_fail(p, "`try wait` binds what it finds: end it with `as NAME`");
    }
    if (!strcmp(tok[0], "require") && n > 1 && (!strcmp(tok[1], "wait") || !strcmp(tok[1], "none"))) {
        /* require wait|none ...: an observation that decides whether the case applies */
        s->kind = !strcmp(tok[1], "wait") ? STEP_WAIT : STEP_NONE;
        s->precondition = true;
        return parse_wait(p, s, tok + 1, n - 1);
    }
    if (!strcmp(tok[0], "require")) {
        s->kind = STEP_REQUIRE;
        return parse_require(p, s, tok, n);
    }
    if (known_client(p, tok[0]))
        return parse_command(p, s, tok, n);
    return cp_fail(p, "expected a step (client, wait, try wait, none, expect, check, mark, figure, replace-wm, require, when, unless, or a declared "
                   "client's name and a command), found `%s`", tok[0]);
}

bool cp_parse_step(struct parser *p, char *line)
{
    char *copy = strdup(line);
    char *tok[MAX_TOKENS];
    int n = cp_tokenize(copy, tok, MAX_TOKENS);
    if (n < 0) {
        free(copy);
        return cp_fail(p, "too many words (at most %d)", MAX_TOKENS);
    }
    if (n == 0) {
        free(copy);
        return true;
    }
    struct testcase *tc = p->tc;
    tc->steps = realloc(tc->steps, (size_t)(tc->nsteps + 1) * sizeof *tc->steps);
    struct step *s = &tc->steps[tc->nsteps++];
    memset(s, 0, sizeof *s);
    s->line = p->line;
    s->text = join(tok, n);
    s->clause = p->clause;
    char **t = tok;
    bool ok = true;
    if (!strcmp(tok[0], "when") || !strcmp(tok[0], "unless")) {
        /* when FEATURE STEP: a step that only this kind of compositor needs (e.g. the sync request
         * a WM sends at map); never a check, so the case checks the same on every compositor */
        if (n < 3 || !cp_is_name(tok[1]))
            ok = cp_fail(p, "expected `%s FEATURE STEP`", tok[0]);
        else if (cp_known_feature(p, tok[1])) {
            s->when = strdup(tok[1]);
            s->unless = tok[0][0] == 'u';
            t += 2;
            n -= 2;
            static const char *allowed[] = {"wait", "none", "client", "figure", NULL};
            bool fine = known_client(p, t[0]);
            for (int i = 0; allowed[i]; i++)
                fine |= !strcmp(t[0], allowed[i]);
            if (!fine)
                ok = cp_fail(p, "`%s` takes a command, a client, a figure, or a wait/none (which is then not a check), "
                             "found `%s`", tok[0], t[0]);
        } else
            ok = false;
    }
    if (ok)
        ok = parse_plain_step(p, s, t, n);
    if (ok && s->when && (s->kind == STEP_WAIT || s->kind == STEP_NONE))
        s->setup = true;
    free(copy);
    return ok;
}

