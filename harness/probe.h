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

/* What probing needs of the run: a restart of the compositor after a probe during which it
 * crashed or hung (then the probe runs once more on the fresh one), and a place for that
 * crash, which is a FAIL under compositor/crash like any case's (`probe/FEATURE` in the
 * results).  A feature is never decided from a run during which the compositor died, was
 * stopped or stopped answering: after a second crash in the same probe it stays unknown.  The
 * same for the application under test (--client) that ends by itself during a probe: a FAIL
 * under client/crash, one re-probe (it starts anew in every run), and after a second crash the
 * feature is unknown with the source APP_CRASH_SOURCE (its cases are then the crash's FAILs). */
struct probe_hooks {
    int (*restart)(void *ctx, char *why, size_t len);   /* 0, or -1 with why */
    void (*incident)(void *ctx, const struct testcase *probe, const struct result *res);
    /* the application under test ended before it ever mapped a window: an input error (why),
     * after which nothing is probed */
    void (*not_started)(void *ctx, const char *why);
    void *ctx;
    int liveness_ms;
    /* this start only finds the application's states (client-participates, client-state-*):
     * under the reference policy, before a run under another (probe_states_known) */
    bool states_only;
};

/* A probe that could not set its scenario up is run again, this many runs in all. */
#define PROBE_SETUP_ATTEMPTS 2

/* Are the application's states known before probing: decided by an earlier probe pass of this
 * process, or in the table $FRAMESYNC_CLIENT_STATES_FROM names? */
bool probe_states_known(void);

/* Runs every probe (in the order of probes_order) with env (whose `features` must be fs, filled
 * as the probes decide), logging each to log_dir/<feature>.log; the selections of the running
 * compositor give `wm` and `compositing`.  Sets fs->probe_ms. */
void probes_run(struct testcase **probes, int n, struct run_env *env, struct features *fs, const char *client_binary,
                const char *log_dir, enum profile p, const struct probe_hooks *hooks);

#endif
