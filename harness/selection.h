/* Which (case, profile) items a run executes, in the canonical order every worker computes the
 * same way: profiles in order, cases by path, filtered by --profile, --filter and --select, and
 * item k of the order belonging to shard k % N (--shard K/N), but for the states of one client
 * case (`.../animating`, `.../idle`), which go to one shard together.  So results merge back into
 * one order whatever the number of workers. */
#ifndef FRAMESYNC_SELECTION_H
#define FRAMESYNC_SELECTION_H

#include <regex.h>
#include <stdbool.h>
#include "discovery.h"
#include "options.h"

struct item {
    const struct testcase *tc;
    enum profile p;
};

struct selection {
    unsigned profiles;
    bool filtered;
    regex_t re;
    int shard, nshards;
    /* --select FILE: the (case, profile) pairs to run; NULL ids: no --select */
    char **ids;
    unsigned *id_profiles;
    int nids;
};

/* From the options: compiles --filter, reads --select (checked against the cases: every bad line
 * is reported as FILE:LINE: what was expected).  -1 with the messages on stderr. */
int selection_init(struct selection *sel, const struct options *o, const struct case_set *set);
void selection_free(struct selection *sel);

/* Does the case match --filter (its id or one of its clauses)? */
bool selection_matches(const struct selection *sel, const struct testcase *tc);

/* This shard's items in the canonical order (caller frees *out); their number. */
int selection_items(const struct selection *sel, const struct case_set *set, struct item **out);

#endif
