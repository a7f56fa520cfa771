/* The bottom of the case parser (caseparse-internal.h): the errors with FILE:LINE, words and names,
 * the feature check cases may be held to, and freeing a case.  It calls nothing of the parser's
 * other files; they all call it. */
#include "caseparse-internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static feature_known_fn feature_known;

void case_set_feature_check(feature_known_fn known)
{
    feature_known = known;
}

bool case_feature_known(const char *name)
{
    return !feature_known || feature_known(name);
}

bool cp_fail(struct parser *p, const char *fmt, ...)
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

int cp_tokenize(char *s, char **tok, int max)
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

bool cp_is_name(const char *s)
{
    if (!isalpha((unsigned char)*s))
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_')
            return false;
    return true;
}

void case_free(struct testcase *tc)
{
    if (!tc)
        return;
    case_free(tc->next_variant);
    for (int i = 0; i < tc->nsteps; i++) {
        struct step *s = &tc->steps[i];
        free(s->text);
        free(s->source);
        free(s->command);
        free(s->event);
        free(s->as);
        free(s->when);
        free(s->fallback);
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
