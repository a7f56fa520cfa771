#include "selection.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct testcase *case_by_id(const struct case_set *set, const char *id)
{
    for (int i = 0; i < set->ncases; i++)
        if (!strcmp(set->cases[i]->id, id))
            return set->cases[i];
    return NULL;
}

static void add_selected(struct selection *sel, const char *id, unsigned bit)
{
    sel->ids = realloc(sel->ids, (size_t)(sel->nids + 1) * sizeof *sel->ids);
    sel->id_profiles = realloc(sel->id_profiles, (size_t)(sel->nids + 1) * sizeof *sel->id_profiles);
    sel->ids[sel->nids] = strdup(id);
    sel->id_profiles[sel->nids++] = bit;
}

/* One line of --select: `CASE-ID PROFILE`; 0 or -1 with the message. */
static int select_line(struct selection *sel, const struct case_set *set, const char *path, int lineno, char *line)
{
    char id[512], prof[64], extra[8];
    char *hash = strchr(line, '#');
    if (hash)
        *hash = 0;
    int words = sscanf(line, "%511s %63s %7s", id, prof, extra);
    if (words <= 0)
        return 0;
    int bit = words == 2 ? profile_parse(prof) : 0;
    const struct testcase *tc = bit ? case_by_id(set, id) : NULL;
    if (tc && case_for_profile(tc, (enum profile)bit))
        tc = case_for_profile(tc, (enum profile)bit);
    if (words != 2 || !bit)
        fprintf(stderr, "framesync: %s:%d: expected `CASE-ID PROFILE` (profile ewmh-1.5, draft-2011 or de-facto)\n",
                path, lineno);
    else if (!tc)
        fprintf(stderr, "framesync: %s:%d: no case `%s` in the case folder\n", path, lineno, id);
    else if (!(tc->profiles & (unsigned)bit))
        fprintf(stderr, "framesync: %s:%d: case `%s` does not belong to profile %s\n", path, lineno, id, prof);
    else {
        add_selected(sel, id, (unsigned)bit);
        return 0;
    }
    return -1;
}

static int load_select(struct selection *sel, const char *path, const struct case_set *set)
{
    FILE *f = fopen(path, "re");
    if (!f) {
        fprintf(stderr, "framesync: cannot read --select %s: %s\n", path, strerror(errno));
        return -1;
    }
    char line[1024];
    int lineno = 0, bad = 0;
    sel->ids = calloc(1, sizeof *sel->ids);
    while (fgets(line, sizeof line, f))
        bad += select_line(sel, set, path, ++lineno, line) < 0;
    fclose(f);
    return bad ? -1 : 0;
}

int selection_init(struct selection *sel, const struct options *o, const struct case_set *set)
{
    memset(sel, 0, sizeof *sel);
    sel->profiles = o->profiles;
    sel->shard = o->shard;
    sel->nshards = o->nshards;
    if (o->filter) {
        int rc = regcomp(&sel->re, o->filter, REG_EXTENDED | REG_NOSUB);
        if (rc) {
            char err[512];
            regerror(rc, &sel->re, err, sizeof err);
            fprintf(stderr, "framesync: --filter `%s`: %s\n", o->filter, err);
            return -1;
        }
        sel->filtered = true;
    }
    return o->select_path ? load_select(sel, o->select_path, set) : 0;
}

void selection_free(struct selection *sel)
{
    if (sel->filtered)
        regfree(&sel->re);
    for (int i = 0; i < sel->nids; i++)
        free(sel->ids[i]);
    free(sel->ids);
    free(sel->id_profiles);
    memset(sel, 0, sizeof *sel);
}

bool selection_matches(const struct selection *sel, const struct testcase *tc)
{
    if (!sel->filtered || regexec(&sel->re, tc->id, 0, NULL, 0) == 0)
        return true;
    for (int i = 0; i < tc->nclauses; i++)
        if (regexec(&sel->re, tc->clauses[i], 0, NULL, 0) == 0)
            return true;
    return false;
}

static bool in_select_list(const struct selection *sel, const struct testcase *tc, int p)
{
    if (!sel->ids)
        return true;
    for (int i = 0; i < sel->nids; i++)
        if (sel->id_profiles[i] == (unsigned)p && !strcmp(sel->ids[i], tc->id))
            return true;
    return false;
}

/* The length of the id less a last component `/animating` or `/idle`: the states of one client
 * case (cases/client/README.md, "Client states") are one unit of the dealing, so that one worker
 * does not get every idle wait and the other every animating case, and both states run in the
 * same application (app-keep.h).  runner/tapstream.py deals the same way. */
static size_t family_len(const char *id)
{
    const char *slash = strrchr(id, '/');
    if (slash && (!strcmp(slash, "/animating") || !strcmp(slash, "/idle")))
        return (size_t)(slash - id);
    return strlen(id);
}

int selection_items(const struct selection *sel, const struct case_set *set, struct item **out)
{
    struct item *items = calloc((size_t)set->ncases * 3 + 1, sizeof *items);
    int n = 0, unit = -1, last_p = 0;
    const char *last = "";
    size_t last_len = 0;
    for (int p = PROFILE_FIRST; p <= PROFILE_LAST; p <<= 1)
        for (int i = 0; i < set->ncases; i++) {
            const struct testcase *tc = case_for_profile(set->cases[i], (enum profile)p);
            if (!tc || !(sel->profiles & (unsigned)p) || !selection_matches(sel, tc) || !in_select_list(sel, tc, p))
                continue;
            size_t len = family_len(tc->id);
            if (unit < 0 || p != last_p || len != last_len || strncmp(tc->id, last, len) || len == strlen(tc->id))
                unit++;
            last_p = p;
            last = tc->id;
            last_len = len;
            if (unit % sel->nshards == sel->shard)
                items[n++] = (struct item){.tc = tc, .p = (enum profile)p};
        }
    *out = items;
    return n;
}
