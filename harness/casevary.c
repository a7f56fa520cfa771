/* One case file for several profiles whose texts differ only in words: `vary:` header lines
 *
 *     profiles:    draft-2011 de-facto
 *     vary:        draft-2011  drawn=sync-drawn  atom=_NET_WM_SYNC_DRAWN
 *     vary:        de-facto    drawn=frame-drawn atom=_NET_WM_FRAME_DRAWN
 *
 * make one case per profile, each the file with every {NAME} replaced by that profile's VALUE
 * (a word: no blanks), under the same id.  The rest of the file is parsed as any case's, once per
 * profile, so an error names the file and the line as written. */
#include "caseparse-internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VARY_NAMES 8

struct variant {
    int profile;
    int line;
    int nnames;
    char *names[MAX_VARY_NAMES];
    char *values[MAX_VARY_NAMES];
};

struct variants {
    struct variant v[3];
    int n;
};

static void variants_free(struct variants *vs)
{
    for (int i = 0; i < vs->n; i++)
        for (int k = 0; k < vs->v[i].nnames; k++) {
            free(vs->v[i].names[k]);
            free(vs->v[i].values[k]);
        }
}

/* The value of a `vary:` line, or NULL when the line is not one. */
static char *vary_value(char *line)
{
    while (isspace((unsigned char)*line))
        line++;
    if (strncmp(line, "vary:", 5))
        return NULL;
    return line + 5;
}

static bool same_names(const struct variant *a, const struct variant *b)
{
    if (a->nnames != b->nnames)
        return false;
    for (int k = 0; k < a->nnames; k++)
        if (strcmp(a->names[k], b->names[k]))
            return false;
    return true;
}

/* One `vary: PROFILE NAME=VALUE...` line into vs; false with the error. */
static bool parse_vary(struct parser *p, char *value, struct variants *vs)
{
    char *tok[MAX_VARY_NAMES + 2];
    int n = cp_tokenize(value, tok, MAX_VARY_NAMES + 2);
    if (n < 2 || n > MAX_VARY_NAMES + 1)
        return cp_fail(p, "expected `vary: PROFILE NAME=VALUE...` (1 to %d names)", MAX_VARY_NAMES);
    int bit = profile_parse(tok[0]);
    if (!bit)
        return cp_fail(p, "unknown profile `%s` in `vary:` (expected ewmh-1.5, draft-2011 or de-facto)", tok[0]);
    for (int i = 0; i < vs->n; i++)
        if (vs->v[i].profile == bit)
            return cp_fail(p, "profile %s varies twice", tok[0]);
    struct variant *v = &vs->v[vs->n++];
    *v = (struct variant){.profile = bit, .line = p->line};
    for (int i = 1; i < n; i++) {
        char *eq = strchr(tok[i], '=');
        if (!eq || eq == tok[i] || !eq[1])
            return cp_fail(p, "expected NAME=VALUE in `vary:`, found `%s`", tok[i]);
        *eq = 0;
        if (!cp_is_name(tok[i]))
            return cp_fail(p, "a name in `vary:` has letters, digits, - and _, found `%s`", tok[i]);
        v->names[v->nnames] = strdup(tok[i]);
        v->values[v->nnames++] = strdup(eq + 1);
    }
    if (vs->n > 1 && !same_names(v, &vs->v[0]))
        return cp_fail(p, "every `vary:` line names the same words in the same order (as line %d)", vs->v[0].line);
    return true;
}

/* The `vary:` lines of the header; false with the error. */
static bool find_variants(struct parser *p, const char *text, struct variants *vs)
{
    char *buf = strdup(text);
    p->line = 0;
    for (char *line = buf, *nl; line && !p->failed; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        p->line++;
        char *value = vary_value(line);
        if (value)
            parse_vary(p, value, vs);
    }
    free(buf);
    return !p->failed;
}

struct text {
    char *s;
    size_t len, cap;
};

static void put(struct text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap)
        t->s = realloc(t->s, t->cap = (t->len + n + 1) * 2);
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = 0;
}

/* The index of the name {NAME} at s starts with, or -1. */
static int name_at(const struct variant *v, const char *s)
{
    for (int k = 0; s[0] == '{' && k < v->nnames; k++) {
        size_t n = strlen(v->names[k]);
        if (!strncmp(s + 1, v->names[k], n) && s[n + 1] == '}')
            return k;
    }
    return -1;
}

/* The file for one profile: `vary:` lines blanked (the line numbers stay), {NAME} replaced. */
static char *substitute(const char *text, const struct variant *v)
{
    struct text t = {0};
    put(&t, "", 0);
    for (const char *c = text; *c;) {
        const char *eol = strchr(c, '\n');
        size_t len = eol ? (size_t)(eol - c) : strlen(c);
        char *line = strndup(c, len);
        for (const char *s = line; !vary_value(line) && *s;) {
            int k = name_at(v, s);
            put(&t, k >= 0 ? v->values[k] : s, k >= 0 ? strlen(v->values[k]) : 1);
            s += k >= 0 ? strlen(v->names[k]) + 2 : 1;
        }
        free(line);
        if (eol)
            put(&t, "\n", 1);
        c += len + (eol ? 1 : 0);
    }
    return t.s;
}

struct testcase *case_parse_variants(const char *path, const char *text, clause_known_fn known, char *err,
                                     size_t errlen, bool *had)
{
    struct parser p = {.path = path, .err = err, .errlen = errlen, .known = known};
    struct variants vs = {0};
    *had = false;
    if (!find_variants(&p, text, &vs) || vs.n == 0) {
        variants_free(&vs);
        *had = p.failed;
        return NULL;
    }
    *had = true;
    struct testcase *first = NULL, **tail = &first;
    unsigned declared = 0, varied = 0;
    for (int i = 0; i < vs.n; i++) {
        char *one = substitute(text, &vs.v[i]);
        struct testcase *tc = case_parse_one(path, one, known, err, errlen);
        free(one);
        if (!tc) {
            case_free(first);
            variants_free(&vs);
            return NULL;
        }
        if (first && strcmp(first->id, tc->id)) {
            p.line = vs.v[i].line;
            cp_fail(&p, "the case id cannot vary (`%s` and `%s`): one file is one case", first->id, tc->id);
        }
        declared = tc->profiles;
        varied |= (unsigned)vs.v[i].profile;
        tc->profiles &= (unsigned)vs.v[i].profile;
        *tail = tc;
        tail = &tc->next_variant;
        if (p.failed)
            break;
    }
    p.line = vs.v[0].line;
    if (declared != varied)
        cp_fail(&p, "`vary:` lines must cover exactly the profiles of `profiles:`, one line each");
    variants_free(&vs);
    if (p.failed) {
        case_free(first);
        return NULL;
    }
    return first;
}
