/* The compositor under test across a run: started for a profile (its command, with {profile}
 * substituted) and kept while the profile's command stays the same; restarted when it ended, was
 * stopped or stopped answering; its feature table probed at its first start (or read from
 * --features) and kept across restarts. */
#ifndef FRAMESYNC_LIFECYCLE_H
#define FRAMESYNC_LIFECYCLE_H

#include "runstate.h"

/* How the compositor was found when a case was about to start. */
enum wm_state {
    WM_READY,        /* running (started now, or still running) */
    WM_HAD_ENDED,    /* it had ended (or was stopped) since the last case: restarted now */
    WM_NOT_STARTED,  /* the command could not be started: why says so */
};

/* Makes sure the compositor of profile p runs (probing it when its command is new).  `ended`
 * (when not NULL) gets how it had ended for WM_HAD_ENDED. */
enum wm_state lifecycle_ensure(struct run *r, enum profile p, char *ended, size_t endedlen, char *why, size_t len);
/* The oracles and the grab watch on the run's X server (once for our Xvfb; lifecycle does it at
 * each start of a compositor that brings its own).  -1 with err. */
int lifecycle_attach_observers(struct run *r, char *err, size_t errlen);
/* Stops it (before a restart, at the end). */
void lifecycle_stop(struct run *r);
/* Stops it because it crashed, was stopped or hung during a case: the next case restarts it
 * and says why. */
void lifecycle_stop_broken(struct run *r, const char *why);
/* The environment the cases run in. */
struct run_env lifecycle_env(struct run *r);
/* The command line of one start of cmd: {tmpdir} this start's private folder, {root} the framesync
 * folder, {report} what tells the harness which X server the session brings (`xserver: own`). */
void lifecycle_start_command(const struct run *r, const char *cmd, const char *start_dir, char *out, size_t len);
/* How long the liveness barrier waits for the compositor (scaled). */
int lifecycle_liveness_ms(const struct run *r);

#endif
