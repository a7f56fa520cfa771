#include "terms.h"

#include <string.h>

const char *profile_name(enum profile p)
{
    switch (p) {
    case PROFILE_EWMH15: return "ewmh-1.5";
    case PROFILE_DRAFT2011: return "draft-2011";
    case PROFILE_DEFACTO: return "de-facto";
    }
    return "?";
}

int profile_parse(const char *name)
{
    for (int p = PROFILE_FIRST; p <= PROFILE_LAST; p <<= 1)
        if (!strcmp(name, profile_name((enum profile)p)))
            return p;
    return 0;
}

const char *verdict_name(enum verdict v)
{
    static const char *const names[VERDICT_COUNT] = {"PASS", "FAIL", "SKIP", "UNRESOLVED"};
    return (unsigned)v < VERDICT_COUNT ? names[v] : "?";
}

enum level level_of_keyword(const char *k)
{
    if (!k)
        return LEVEL_IMPLIED;
    if (!strcmp(k, "defect"))
        return LEVEL_DEFECT;
    if (!strncmp(k, "MUST", 4) || !strncmp(k, "SHALL", 5) || !strcmp(k, "REQUIRED"))
        return LEVEL_MUST;
    if (!strncmp(k, "SHOULD", 6) || !strcmp(k, "RECOMMENDED"))
        return LEVEL_SHOULD;
    if (!strncmp(k, "must", 4) || !strncmp(k, "shall", 5))
        return LEVEL_MUST_LC;
    if (!strncmp(k, "should", 6))
        return LEVEL_SHOULD_LC;
    return LEVEL_IMPLIED; /* implied, and the permissions (MAY), which bound nothing by themselves */
}

const char *level_name(enum level l)
{
    static const char *const names[] = {"implied", "should", "SHOULD", "must", "MUST", "defect"};
    return (unsigned)l <= LEVEL_DEFECT ? names[l] : "?";
}

const char *level_describe(enum level l)
{
    switch (l) {
    case LEVEL_MUST_LC: return "must: lowercase, not RFC 2119 normative as written";
    case LEVEL_SHOULD_LC: return "should: lowercase, not RFC 2119 normative as written";
    case LEVEL_IMPLIED: return "implied: stated without a keyword";
    case LEVEL_DEFECT: return "defect: the compositor or the application under test crashed or hung";
    default: return level_name(l);
    }
}

int fail_on_parse(const char *s, enum fail_on *out)
{
    if (!strcmp(s, "any"))
        *out = FAIL_ON_ANY;
    else if (!strcmp(s, "should"))
        *out = FAIL_ON_SHOULD;
    else if (!strcmp(s, "must"))
        *out = FAIL_ON_MUST;
    else
        return -1;
    return 0;
}

bool level_fails(enum level l, enum fail_on f)
{
    switch (f) {
    case FAIL_ON_MUST: return l == LEVEL_MUST || l == LEVEL_MUST_LC || l == LEVEL_DEFECT;
    case FAIL_ON_SHOULD: return l != LEVEL_IMPLIED;
    case FAIL_ON_ANY: break;
    }
    return true;
}
