/* One case: its file walked line by line, the header read here, each step handed to casesteps.c,
 * and what the whole must hold (the required headers, a `check` line, the count of checks). */
#include "caseparse-internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* A text header: once, kept as written. */
static bool set_text(struct parser *p, const char *key, char **field, const char *value)
{
    if (*field)
        return cp_fail(p, "`%s:` given twice", key);
    *field = strdup(value);
    return true;
}

static bool h_feature(struct parser *p, const char *key, char *value)
{
    if (p->tc->feature)
        return cp_fail(p, "`%s:` given twice", key);
    if (!cp_is_name(value))
        return cp_fail(p, "a feature name has letters, digits, - and _, found `%s`", value);
    p->tc->feature = strdup(value);
    char id[128];
    snprintf(id, sizeof id, "probe/%s", value);
    p->tc->id = strdup(id);
    return true;
}

static bool h_attempts(struct parser *p, const char *key, char *value)
{
    char *end;
    long n = strtol(value, &end, 10);
    if (p->tc->attempts)
        return cp_fail(p, "`%s:` given twice", key);
    if (*end || n < 1 || n > 5)
        return cp_fail(p, "`attempts:` takes a number from 1 to 5, found `%s`", value);
    p->tc->attempts = (int)n;
    return true;
}

static bool h_case(struct parser *p, const char *key, char *value)
{
    for (const char *c = value; *c; c++)
        if (!isalnum((unsigned char)*c) && !strchr("-_./", *c))
            return cp_fail(p, "a case id has letters, digits and - _ . /, found `%s`", value);
    return set_text(p, key, &p->tc->id, value);
}

static bool h_clause(struct parser *p, const char *key, char *value)
{
    struct testcase *tc = p->tc;
    if (tc->nclauses)
        return cp_fail(p, "`%s:` given twice (list every ID on one line)", key);
    char *tok[MAX_CLAUSES + 1];
    int n = cp_tokenize(value, tok, MAX_CLAUSES + 1);
    if (n < 1 || n > MAX_CLAUSES)
        return cp_fail(p, "expected 1 to %d clause IDs", MAX_CLAUSES);
    for (int i = 0; i < n; i++) {
        if (p->known && !p->known(tok[i]))
            return cp_fail(p, "unknown clause `%s` (clause IDs are listed in cases/clauses.txt)", tok[i]);
        tc->clauses[tc->nclauses++] = strdup(tok[i]);
    }
    return true;
}

static bool h_profiles(struct parser *p, const char *key, char *value)
{
    if (p->tc->profiles)
        return cp_fail(p, "`%s:` given twice", key);
    char *tok[8];
    int n = cp_tokenize(value, tok, 8);
    for (int i = 0; i < n; i++) {
        int bit = profile_parse(tok[i]);
        if (!bit)
            return cp_fail(p, "unknown profile `%s` (expected ewmh-1.5, draft-2011 or de-facto)", tok[i]);
        p->tc->profiles |= (unsigned)bit;
    }
    return true;
}

static bool h_checks(struct parser *p, const char *key, char *value)
{
    if (p->tc->checks)
        return cp_fail(p, "`%s:` given twice", key);
    char *end;
    long v = strtol(value, &end, 10);
    if (*end || v < 1 || v > 1000)
        return cp_fail(p, "expected a number of checks (1-1000), found `%s`", value);
    p->tc->checks = (int)v;
    p->checks_line = p->line;
    return true;
}

/* `start: fresh|shared`: whether the application under test must be started anew for the case */
static bool h_start(struct parser *p, const char *key, char *value)
{
    if (p->start_line)
        return cp_fail(p, "`%s:` given twice", key);
    if (strcmp(value, "fresh") && strcmp(value, "shared"))
        return cp_fail(p, "`start:` takes fresh or shared, found `%s`", value);
    p->tc->start_shared = !strcmp(value, "shared");
    p->start_line = p->line;
    return true;
}

static bool h_absent(struct parser *p, const char *key, char *value) { return set_text(p, key, &p->tc->absent, value); }
static bool h_detail(struct parser *p, const char *key, char *value) { return set_text(p, key, &p->tc->detail, value); }
static bool h_description(struct parser *p, const char *key, char *value)
{
    return set_text(p, key, &p->tc->description, value);
}
static bool h_why(struct parser *p, const char *key, char *value) { return set_text(p, key, &p->tc->why, value); }

/* The header keys: who may use each (a case, a probe, both) and what reads its value. */
enum header_use { FOR_CASES = 1, FOR_PROBES = 2, FOR_BOTH = 3 };
static const struct header_key {
    const char *key;
    enum header_use use;
    bool (*read)(struct parser *p, const char *key, char *value);
} header_keys[] = {
    {"case", FOR_CASES, h_case},          {"clause", FOR_CASES, h_clause},   {"profiles", FOR_CASES, h_profiles},
    {"feature", FOR_PROBES, h_feature},   {"absent", FOR_PROBES, h_absent},  {"detail", FOR_PROBES, h_detail},
    {"attempts", FOR_PROBES, h_attempts}, {"description", FOR_BOTH, h_description},
    {"why", FOR_BOTH, h_why},             {"checks", FOR_BOTH, h_checks},
    {"start", FOR_BOTH, h_start},
};

static bool parse_header(struct parser *p, char *line)
{
    char *colon = strchr(line, ':');
    *colon = 0;
    const char *key = line;
    char *value = trim(colon + 1);
    if (!*value)
        return cp_fail(p, "`%s:` needs a value", key);
    for (size_t i = 0; i < sizeof header_keys / sizeof header_keys[0]; i++) {
        const struct header_key *h = &header_keys[i];
        if (strcmp(key, h->key))
            continue;
        if (p->probe && !(h->use & FOR_PROBES))
            return cp_fail(p, "`%s:` is for cases; a probe has `feature:` and `absent:`", key);
        if (!p->probe && !(h->use & FOR_CASES))
            return cp_fail(p, "`%s:` is for probes (cases/probes/*.probe)", key);
        return h->read(p, key, value);
    }
    return cp_fail(p, "unknown header `%s:` (expected %s)", key,
                   p->probe ? "feature, description, absent, detail, why, checks, start"
                            : "case, clause, profiles, description, why, checks, start");
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
            return cp_fail(p, "missing header `%s:`", (p->probe ? required_probe : required)[i]);
    if (p->probe)
        tc->profiles = ALL_PROFILES; /* a probe is about the compositor, whatever the profile */
    if (tc->nsteps == 0)
        return cp_fail(p, "a case needs steps");
    if (!p->ncheck_lines)
        return cp_fail(p, "no `check` line: the checks of a case come after `check CLAUSE-ID` (what comes before "
                       "is the set-up, which never fails the case)");
    for (int i = 0; i < tc->nclauses; i++) { /* the header is the index of what the case checks */
        bool checked = false;
        for (int j = 0; j < tc->nsteps; j++)
            checked |= tc->steps[j].kind == STEP_CHECK && tc->steps[j].source && !strcmp(tc->steps[j].source, tc->clauses[i]);
        if (!checked) {
            p->line = 1;
            return cp_fail(p, "`clause:` lists %s but no `check %s` line follows: list only the clauses the case checks",
                        tc->clauses[i], tc->clauses[i]);
        }
    }
    int counted = case_count_checks(tc);
    if (counted != tc->checks) {
        p->line = p->checks_line;
        return cp_fail(p, "`checks: %d` but the case has %d check steps (wait, none, expect after `check`)",
                    tc->checks, counted);
    }
    return true;
}

struct testcase *case_parse_one(const char *path, const char *text, clause_known_fn known, char *err, size_t errlen)
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
                cp_fail(&p, "control character 0x%02x in the line", (unsigned char)*c);
        char *t = trim(line);
        if (!p.failed && *t && *t != '#') {
            if (!header_line(t)) {
                in_header = false;
                cp_parse_step(&p, t);
            } else if (in_header) {
                parse_header(&p, t);
            } else {
                cp_fail(&p, "header line `%s` after the first step: headers come first", t);
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

int case_count_checks(const struct testcase *tc)
{
    int n = 0;
    for (int i = 0; i < tc->nsteps; i++)
        if ((tc->steps[i].kind == STEP_WAIT || tc->steps[i].kind == STEP_NONE ||
             tc->steps[i].kind == STEP_EXPECT) && !tc->steps[i].precondition && !tc->steps[i].setup)
            n++;
    return n;
}
