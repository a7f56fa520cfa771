/* How a case or a probe is run so that its verdict can be trusted.
 *
 * - A run that could not set its scenario up (a set-up step did not hold, a fake client could not
 *   do a command: result.setup_failed) says nothing about the clause: it is run again, up to
 *   `setup_attempts` runs in all, and is UNRESOLVED only when every run failed to set up.  The
 *   logs of the earlier runs are kept as PREFIX.attempt-K.log.
 * - A run during which the compositor died, was stopped or stopped answering (the liveness
 *   barrier, liveness.h, after every run that did not pass, and after every probe) decides
 *   nothing about the protocol: its verdict becomes a FAIL under compositor/crash that says what
 *   the compositor did and what the case saw before.  The caller restarts the compositor. */
#ifndef FRAMESYNC_GUARDED_H
#define FRAMESYNC_GUARDED_H

#include <sys/types.h>
#include "liveness.h"
#include "run.h"

#define CRASH_CLAUSE "compositor/crash"
/* Runs of a case whose set-up fails before it is UNRESOLVED. */
#define CASE_SETUP_ATTEMPTS 3

struct guard {
    const struct run_env *env;
    const char *client_binary;
    int setup_attempts;     /* runs of a case whose set-up fails (1: no retry) */
    int liveness_ms;        /* how long the barrier waits for the compositor's answer */
    bool check_always;      /* the barrier also after a PASS (probes: a hung compositor looks
                               like one that holds every update and waits on every fence) */
};

/* Runs tc into s, which it initialises with log prefix `prefix` (the caller writes the log, from
 * *log_from of the compositor's output, and frees s); fills res.  Returns the compositor's health
 * after the run. */
enum liveness guarded_run(const struct testcase *tc, const struct guard *g, enum profile p, const char *prefix,
                          struct session *s, struct result *res, off_t *log_from);

/* Turns res into the compositor's crash: a FAIL under compositor/crash with what happened
 * (`what`: "exited: killed by signal 9 (Killed)", "stopped answering: ...") and what the run had
 * seen before. */
void guarded_crash_verdict(struct result *res, const char *what, const char *during);

#endif
