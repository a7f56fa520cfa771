/* Case discovery: every *.probe and *.case file under the case folder, parsed and checked before
 * anything starts.  There is no list to maintain: a file in the folder is a case.  A run tests one
 * side, the compositor (every case but cases/client/) or, with --client, the application (only
 * cases/client/); --coverage sees both. */
#ifndef FRAMESYNC_DISCOVERY_H
#define FRAMESYNC_DISCOVERY_H

#include "caseparse.h"

enum side { SIDE_BOTH, SIDE_COMPOSITOR, SIDE_CLIENT };

struct case_set {
    struct testcase **cases;     /* by path; a file with `vary:` lines is one entry whose
                                    per-profile cases follow each other (next_variant) */
    int ncases;
    struct testcase **probes;    /* in the order their `require`/`when` lines need */
    int nprobes;
};

/* Parses every probe, then every case (whose `require` lines name the probes' features); reports
 * every malformed file on stderr (FILE:LINE: what was expected), not just the first, and returns
 * -1 then. */
int case_set_load(struct case_set *set, const char *dir, enum side side);
void case_set_free(struct case_set *set);
/* The case of tc's file for profile p (tc itself, or one of its `vary:` variants), or NULL. */
const struct testcase *case_for_profile(const struct testcase *tc, enum profile p);

#endif
