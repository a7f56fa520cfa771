#include "caseparse.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS 128 /* a hostile property of 100 items is one command line */
#define MAX_CLIENTS 8
#define MAX_VARS 64


/* What the parser knows while it reads one file. */
struct parser {
    const char *path;
    int line;
    char *err;
    size_t errlen;
    bool failed;
    struct testcase *tc;
    char *clients[MAX_CLIENTS];
    int nclients;
    char *vars[MAX_VARS];
    int nvars;
    clause_known_fn known;
    int checks_line;
    bool probe;                 /* a *.probe file */
    const char *clause;         /* the `check` line in force, NULL before the first */
    bool in_checks;
    int ncheck_lines;
};

static feature_known_fn feature_known;

void case_set_feature_check(feature_known_fn known)
{
    feature_known = known;
}

static bool fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(struct parser *p, const char *fmt, ...)
{
    if (p->failed)
        return false;
    int n = snprintf(p->err, p->errlen, "%s:%d: ", p->path, p->line);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < p->errlen)
        vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    p->failed = true;
    return false;
}

static int tokenize(char *s, char **tok, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(s, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (t[0] == '#')
            break;
        if (n == max)
            return -1;
        tok[n++] = t;
    }
    return n;
}

static bool is_name(const char *s)
{
    if (!isalpha((unsigned char)*s))
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_')
            return false;
    return true;
}

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
        return fail(p, "`%.*s` is not bound: name a record with `as %.*s` in an earlier wait",
                    (int)(dot - t), t, (int)(dot - t), t);
    return true;
}

static int parse_ms(struct parser *p, const char *s, const char *after)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || (*end && strcmp(end, "ms")) || v < 0 || v > 3600000 || errno)
        return fail(p, "expected a duration in milliseconds after `%s`, found `%s`", after, s), -1;
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
static bool known_feature(struct parser *p, const char *name);

static bool parse_expect(struct parser *p, struct step *s, char **tok, int n)
{
    /* expect supported ATOM / expect unsupported ATOM: a check on _NET_SUPPORTED (FAIL, where
     * `require` would SKIP), for the cases about honesty: what is sent must be advertised */
    if (n >= 1 && (!strcmp(tok[0], "supported") || !strcmp(tok[0], "unsupported"))) {
        if (n != 2)
            return fail(p, "expected `expect %s ATOM`", tok[0]);
        s->tokens = calloc(2, sizeof *s->tokens);
        s->tokens[0] = strdup(tok[0]);
        s->tokens[1] = strdup(tok[1]);
        s->ntokens = 2;
        return true;
    }
    /* expect feature NAME: a check on what the probes saw (FAIL with their reason), for the
     * honesty cases the other way round: what is advertised must be done */
    if (n >= 1 && !strcmp(tok[0], "feature")) {
        if (n != 2 || !is_name(tok[1]))
            return fail(p, "expected `expect feature NAME`");
        if (!known_feature(p, tok[1]))
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
                return fail(p, "one comparison per expect, found `%s` and `%s`", tok[cmp], tok[i]);
            cmp = i;
        }
    if (cmp < 0)
        return fail(p, "expected a comparison (== != < <= > >= before after) in `expect`");
    for (int i = 0; i < n; i++) {
        if (i == cmp)
            continue;
        bool operand_pos = (i < cmp) ? (i % 2 == 0) : ((i - cmp - 1) % 2 == 0);
        if (operand_pos) {
            if (is_arith(tok[i]) || is_comparison(tok[i]))
                return fail(p, "expected a value (number, atom or NAME.FIELD), found `%s`", tok[i]);
            if (!check_term(p, tok[i]))
                return false;
        } else if (!is_arith(tok[i])) {
            return fail(p, "expected an operator (+ - * / %%) or the comparison, found `%s`", tok[i]);
        }
    }
    if (cmp == 0 || cmp == n - 1 || cmp % 2 != 1 || (n - cmp - 1) % 2 != 1)
        return fail(p, "expected a value on each side of `%s`", tok[cmp]);
    if (!strcmp(tok[cmp], "before") || !strcmp(tok[cmp], "after")) {
        if (n != 3 || !is_name(tok[0]) || !is_name(tok[2]))
            return fail(p, "`%s` compares two named records: expect A %s B", tok[cmp], tok[cmp]);
        for (int i = 0; i < 3; i += 2)
            if (!known_var(p, tok[i], strlen(tok[i])))
                return fail(p, "`%s` is not bound: name a record with `as %s` in an earlier wait",
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
        return fail(p, "expected KEY=VALUE (or != < <= > >=), found `%s`", t);
    f->key = strndup(t, k);
    bool order = !strcmp(f->key, "after") || !strcmp(f->key, "before");
    if (order && (f->op != FILTER_EQ || !is_name(value) || !known_var(p, value, strlen(value))))
        return fail(p, "`%s=` names a record bound earlier with `as`, found `%s`", f->key, t);
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
        return fail(p, "expected `%s SOURCE EVENT ... %s MS`", verb, limit_word);
    if (!known_source(p, tok[1]))
        return fail(p, "`%s` is not a client of this case (declare it with `client %s` first)", tok[1], tok[1]);
    s->source = strdup(tok[1]);
    s->event = strdup(tok[2]);
    int i = 3;
    for (; i < n && strpbrk(tok[i], "=<>"); i++) {
        if (s->nfilters == MAX_FILTERS)
            return fail(p, "at most %d KEY=VALUE filters", MAX_FILTERS);
        if (!parse_filter(p, tok[i], &s->filters[s->nfilters]))
            return false;
        s->nfilters++;
    }
    if (i >= n || strcmp(tok[i], limit_word))
        return fail(p, "expected `%s MS` after the event%s, found `%s`", limit_word,
                    s->nfilters ? " filters" : "", i < n ? tok[i] : "end of line");
    if (i + 1 >= n)
        return fail(p, "expected a duration in milliseconds after `%s`", limit_word);
    if ((s->ms = parse_ms(p, tok[i + 1], limit_word)) < 0)
        return false;
    i += 2;
    if (i < n && s->kind == STEP_WAIT && !strcmp(tok[i], "as")) {
        if (i + 1 >= n || !is_name(tok[i + 1]))
            return fail(p, "expected a name after `as`");
        s->as = strdup(tok[i + 1]);
        if (p->nvars < MAX_VARS && !known_var(p, s->as, strlen(s->as)))
            p->vars[p->nvars++] = s->as;
        i += 2;
    }
    if (i < n)
        return fail(p, "unexpected `%s` at the end of `%s`", tok[i], verb);
    return true;
}

static bool known_feature(struct parser *p, const char *name)
{
    if (feature_known && !feature_known(name))
        return fail(p, "unknown feature `%s` (the features are the probes of cases/probes/ and those listed "
                       "in cases/README.md)", name);
    return true;
}

static bool parse_require(struct parser *p, struct step *s, char **tok, int n)
{
    bool atom = n == 3 && (!strcmp(tok[1], "supported") || !strcmp(tok[1], "unsupported"));
    bool reserved = n >= 2 && (!strcmp(tok[1], "supported") || !strcmp(tok[1], "unsupported") || !strcmp(tok[1], "no"));
    bool feature = (n == 2 && is_name(tok[1]) && !reserved) || (n == 3 && !strcmp(tok[1], "no") && is_name(tok[2]));
    if (!atom && !feature)
        return fail(p, "expected `require FEATURE`, `require no FEATURE`, `require supported ATOM`, "
                       "`require unsupported ATOM`, `require wait ...` or `require none ...`");
    if (feature && !known_feature(p, tok[n - 1]))
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
            return fail(p, "a probe's checks establish its feature: expected `check` alone");
    } else {
        if (n != 2)
            return fail(p, "expected `check CLAUSE-ID` (one of the clauses of `clause:`)");
        bool listed = false;
        for (int i = 0; i < p->tc->nclauses; i++)
            if (!strcmp(p->tc->clauses[i], tok[1]))
                listed = true;
        if (!listed)
            return fail(p, "`check %s`: list the clause in `clause:` first (the header is the case's index)", tok[1]);
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
        return n == 2 ? true : fail(p, "expected `%s resize-end`", tok[0]);
    if (n < 4)
        return fail(p, "expected `%s resize W H [hold] [via TRIGGER] [within MS]`", tok[0]);
    for (int i = 2; i < 4; i++) {
        char *end;
        long v = strtol(tok[i], &end, 10);
        if (*end || v < 1 || v > 32767)
            return fail(p, "expected a size 1..32767 in `resize`, found `%s`", tok[i]);
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
            return fail(p, "expected `hold`, `within MS` or `via configure|keyboard|pointer|map|driven|held` in `resize`, "
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
        if (!is_name(tok[n - 1]))
            return fail(p, "expected a name after `as`");
        s->as = strdup(tok[n - 1]);
        if (p->nvars < MAX_VARS && !known_var(p, s->as, strlen(s->as)))
            p->vars[p->nvars++] = s->as;
        n -= 2;
    }
    if (n < 2)
        return fail(p, "expected a command for client `%s`", tok[0]);
    if ((!strcmp(tok[1], "resize") || !strcmp(tok[1], "resize-end")) && !check_resize(p, tok, n))
        return false;
    s->command = join(tok + 1, n - 1);
    for (int i = 1; i < n; i++) /* NAME.FIELD words are replaced by the value at run time */
        if (strchr(tok[i], '.') && !check_term(p, tok[i]))
            return false;
    return true;
}

/* One step (without a `when`/`unless` prefix). */
static bool parse_plain_step(struct parser *p, struct step *s, char **tok, int n)
{
    if (!strcmp(tok[0], "client")) {
        s->kind = STEP_CLIENT;
        if ((n != 2 && (n != 3 || strcmp(tok[2], "under-test"))) || !is_name(tok[1]))
            return fail(p, "expected `client NAME` or `client NAME under-test`");
        if (known_client(p, tok[1]))
            return fail(p, "client `%s` is already declared", tok[1]);
        if (p->nclients == MAX_CLIENTS)
            return fail(p, "at most %d clients per case", MAX_CLIENTS);
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
            return fail(p, "`expect` is a check: put it after a `check %s` line", p->probe ? "" : "CLAUSE-ID");
        return parse_expect(p, s, tok + 1, n - 1);
    }
    if (!strcmp(tok[0], "check")) {
        s->kind = STEP_CHECK;
        return parse_check(p, s, tok, n);
    }
    if (!strcmp(tok[0], "mark")) {
        s->kind = STEP_MARK;
        if (n != 2 || !is_name(tok[1]))
            return fail(p, "expected `mark NAME`");
        s->as = strdup(tok[1]);
        if (p->nvars < MAX_VARS && !known_var(p, s->as, strlen(s->as)))
            p->vars[p->nvars++] = s->as;
        return true;
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
    return fail(p, "expected a step (client, wait, none, expect, check, mark, require, when, unless, or a declared "
                   "client's name and a command), found `%s`", tok[0]);
}

static bool parse_step(struct parser *p, char *line)
{
    char *copy = strdup(line);
    char *tok[MAX_TOKENS];
    int n = tokenize(copy, tok, MAX_TOKENS);
    if (n < 0) {
        free(copy);
        return fail(p, "too many words (at most %d)", MAX_TOKENS);
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
        if (n < 3 || !is_name(tok[1]))
            ok = fail(p, "expected `%s FEATURE STEP`", tok[0]);
        else if (known_feature(p, tok[1])) {
            s->when = strdup(tok[1]);
            s->unless = tok[0][0] == 'u';
            t += 2;
            n -= 2;
            static const char *allowed[] = {"wait", "none", "client", NULL};
            bool fine = known_client(p, t[0]);
            for (int i = 0; allowed[i]; i++)
                fine |= !strcmp(t[0], allowed[i]);
            if (!fine)
                ok = fail(p, "`%s` takes a command, a client, or a wait/none (which is then not a check), "
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

static bool header_line(const char *line)
{
    const char *c = line;
    while (islower((unsigned char)*c) || *c == '-')
        c++;
    return c > line && *c == ':' && (c[1] == ' ' || c[1] == '\t' || c[1] == 0);
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = 0;
    return s;
}

static bool parse_header(struct parser *p, char *line)
{
    char *colon = strchr(line, ':');
    *colon = 0;
    const char *key = line;
    char *value = trim(colon + 1);
    struct testcase *tc = p->tc;
    if (!*value)
        return fail(p, "`%s:` needs a value", key);
    static const char *case_only[] = {"case", "clause", "profiles", NULL};
    static const char *probe_only[] = {"feature", "absent", "detail", "attempts", NULL};
    for (int i = 0; case_only[i]; i++)
        if (p->probe && !strcmp(key, case_only[i]))
            return fail(p, "`%s:` is for cases; a probe has `feature:` and `absent:`", key);
    for (int i = 0; probe_only[i]; i++)
        if (!p->probe && !strcmp(key, probe_only[i]))
            return fail(p, "`%s:` is for probes (cases/probes/*.probe)", key);
    if (!strcmp(key, "feature")) {
        if (tc->feature)
            return fail(p, "`feature:` given twice");
        if (!is_name(value))
            return fail(p, "a feature name has letters, digits, - and _, found `%s`", value);
        tc->feature = strdup(value);
        char id[128];
        snprintf(id, sizeof id, "probe/%s", value);
        tc->id = strdup(id);
    } else if (!strcmp(key, "absent")) {
        if (tc->absent)
            return fail(p, "`absent:` given twice");
        tc->absent = strdup(value);
    } else if (!strcmp(key, "attempts")) {
        char *end;
        long n = strtol(value, &end, 10);
        if (tc->attempts)
            return fail(p, "`attempts:` given twice");
        if (*end || n < 1 || n > 5)
            return fail(p, "`attempts:` takes a number from 1 to 5, found `%s`", value);
        tc->attempts = (int)n;
    } else if (!strcmp(key, "detail")) {
        if (tc->detail)
            return fail(p, "`detail:` given twice");
        tc->detail = strdup(value);
    } else if (!strcmp(key, "case")) {
        if (tc->id)
            return fail(p, "`case:` given twice");
        for (const char *c = value; *c; c++)
            if (!isalnum((unsigned char)*c) && !strchr("-_./", *c))
                return fail(p, "a case id has letters, digits and - _ . /, found `%s`", value);
        tc->id = strdup(value);
    } else if (!strcmp(key, "clause")) {
        if (tc->nclauses)
            return fail(p, "`clause:` given twice (list every ID on one line)");
        char *tok[MAX_CLAUSES + 1];
        int n = tokenize(value, tok, MAX_CLAUSES + 1);
        if (n < 1 || n > MAX_CLAUSES)
            return fail(p, "expected 1 to %d clause IDs", MAX_CLAUSES);
        for (int i = 0; i < n; i++) {
            if (p->known && !p->known(tok[i]))
                return fail(p, "unknown clause `%s` (clause IDs are listed in cases/clauses.txt)", tok[i]);
            tc->clauses[tc->nclauses++] = strdup(tok[i]);
        }
    } else if (!strcmp(key, "profiles")) {
        if (tc->profiles)
            return fail(p, "`profiles:` given twice");
        char *tok[8];
        int n = tokenize(value, tok, 8);
        for (int i = 0; i < n; i++) {
            int bit = profile_parse(tok[i]);
            if (!bit)
                return fail(p, "unknown profile `%s` (expected ewmh-1.5, draft-2011 or de-facto)", tok[i]);
            tc->profiles |= (unsigned)bit;
        }
    } else if (!strcmp(key, "description")) {
        if (tc->description)
            return fail(p, "`description:` given twice");
        tc->description = strdup(value);
    } else if (!strcmp(key, "why")) {
        if (tc->why)
            return fail(p, "`why:` given twice");
        tc->why = strdup(value);
    } else if (!strcmp(key, "checks")) {
        if (tc->checks)
            return fail(p, "`checks:` given twice");
        char *end;
        long v = strtol(value, &end, 10);
        if (*end || v < 1 || v > 1000)
            return fail(p, "expected a number of checks (1-1000), found `%s`", value);
        tc->checks = (int)v;
        p->checks_line = p->line;
    } else {
        return fail(p, "unknown header `%s:` (expected %s)", key,
                    p->probe ? "feature, description, absent, detail, why, checks" : "case, clause, profiles, description, why, checks");
    }
    return true;
}

static bool finish(struct parser *p)
{
    struct testcase *tc = p->tc;
    static const char *required[] = {"case", "clause", "profiles", "description", "checks"};
    static const char *required_probe[] = {"feature", "description", "absent", "description", "checks"};
    const void *have[] = {tc->id, tc->nclauses ? tc : NULL, tc->profiles ? tc : NULL,
                          tc->description, tc->checks ? tc : NULL};
    const void *have_probe[] = {tc->feature, tc->description, tc->absent, tc->description, tc->checks ? tc : NULL};
    for (int i = 0; i < 5; i++)
        if (!(p->probe ? have_probe : have)[i])
            return fail(p, "missing header `%s:`", (p->probe ? required_probe : required)[i]);
    if (p->probe)
        tc->profiles = ALL_PROFILES; /* a probe is about the compositor, whatever the profile */
    if (tc->nsteps == 0)
        return fail(p, "a case needs steps");
    if (!p->ncheck_lines)
        return fail(p, "no `check` line: the checks of a case come after `check CLAUSE-ID` (what comes before "
                       "is the set-up, which never fails the case)");
    for (int i = 0; i < tc->nclauses; i++) { /* the header is the index of what the case checks */
        bool checked = false;
        for (int j = 0; j < tc->nsteps; j++)
            checked |= tc->steps[j].kind == STEP_CHECK && tc->steps[j].source && !strcmp(tc->steps[j].source, tc->clauses[i]);
        if (!checked) {
            p->line = 1;
            return fail(p, "`clause:` lists %s but no `check %s` line follows: list only the clauses the case checks",
                        tc->clauses[i], tc->clauses[i]);
        }
    }
    int counted = case_count_checks(tc);
    if (counted != tc->checks) {
        p->line = p->checks_line;
        return fail(p, "`checks: %d` but the case has %d check steps (wait, none, expect after `check`)",
                    tc->checks, counted);
    }
    return true;
}

struct testcase *case_parse_buffer(const char *path, const char *text, clause_known_fn known,
                                   char *err, size_t errlen)
{
    struct parser p = {.path = path, .err = err, .errlen = errlen, .known = known};
    size_t plen = strlen(path);
    p.probe = plen > 6 && !strcmp(path + plen - 6, ".probe");
    p.tc = calloc(1, sizeof *p.tc);
    p.tc->path = strdup(path);
    char *buf = strdup(text);
    bool in_header = true;
    /* walked by hand, not with strtok: empty lines must still count for line numbers */
    for (char *line = buf; line && !p.failed;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        p.line++;
        for (char *c = line; *c && !p.failed; c++)
            if ((unsigned char)*c < 0x20 && *c != '\t' && *c != '\r')
                fail(&p, "control character 0x%02x in the line", (unsigned char)*c);
        char *t = trim(line);
        if (!p.failed && *t && *t != '#') {
            if (!header_line(t)) {
                in_header = false;
                parse_step(&p, t);
            } else if (in_header) {
                parse_header(&p, t);
            } else {
                fail(&p, "header line `%s` after the first step: headers come first", t);
            }
        }
        line = nl && nl[1] ? nl + 1 : NULL; /* nothing after the last newline is not a line */
    }
    free(buf);
    if (!p.failed)
        finish(&p);
    if (p.failed) {
        case_free(p.tc);
        return NULL;
    }
    return p.tc;
}

struct testcase *case_parse_file(const char *path, clause_known_fn known, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return NULL;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, n, m);
    fclose(f);
    fclose(m);
    if (memchr(text, 0, len)) {
        snprintf(err, errlen, "%s:1: a case file is text; found a NUL byte", path);
        free(text);
        return NULL;
    }
    struct testcase *tc = case_parse_buffer(path, text, known, err, errlen);
    free(text);
    return tc;
}

int case_count_checks(const struct testcase *tc)
{
    int n = 0;
    for (int i = 0; i < tc->nsteps; i++)
        if ((tc->steps[i].kind == STEP_WAIT || tc->steps[i].kind == STEP_NONE ||
             tc->steps[i].kind == STEP_EXPECT) && !tc->steps[i].precondition && !tc->steps[i].setup)
            n++;
    return n;
}

void case_free(struct testcase *tc)
{
    if (!tc)
        return;
    for (int i = 0; i < tc->nsteps; i++) {
        struct step *s = &tc->steps[i];
        free(s->text);
        free(s->source);
        free(s->command);
        free(s->event);
        free(s->as);
        free(s->when);
        for (int j = 0; j < s->nfilters; j++) {
            free(s->filters[j].key);
            free(s->filters[j].value);
        }
        for (int j = 0; j < s->ntokens; j++)
            free(s->tokens[j]);
        free(s->tokens);
    }
    free(tc->steps);
    for (int i = 0; i < tc->nclauses; i++)
        free(tc->clauses[i]);
    free(tc->path);
    free(tc->id);
    free(tc->description);
    free(tc->why);
    free(tc->feature);
    free(tc->absent);
    free(tc->detail);
    free(tc);
}
