/* Probing: runs the feature probes (cases/probes/NAME.probe) against the running compositor and
 * records what they establish in a feature table (featureset.h).  A probe is a scenario in the case
 * language; its verdict decides its feature: PASS present, FAIL or SKIP absent, UNRESOLVED
 * unknown.  Probes run in the order their `require`/`when` lines need (the trigger probes first,
 * since `A resize` uses the trigger they find). */
#ifndef FRAMESYNC_PROBE_H
#define FRAMESYNC_PROBE_H

#include "caseparse.h"
#include "featureset.h"
#include "run.h"

/* Orders the probes so each runs after the features it needs; -1 with err on a cycle. */
int probes_order(struct testcase **probes, int n, char *err, size_t errlen);

/* Runs every probe (in the order of probes_order) with env (whose `features` must be fs, filled
 * as the probes decide), logging each to log_dir/<feature>.log; the selections of the running
 * compositor give `wm` and `compositing`.  Sets fs->probe_ms. */
void probes_run(struct testcase **probes, int n, struct run_env *env, struct features *fs, const char *client_binary,
                const char *log_dir, enum profile p);

#endif
