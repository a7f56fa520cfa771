/* The run itself: the X server and oracles, the probe phase (every profile's compositor probed
 * before the plan, so a crash while probing is reported like a case), the cases one after
 * another under the guard (guarded.h), and the verdict of the whole run (run-verdict.h). */
#ifndef FRAMESYNC_EXECUTOR_H
#define FRAMESYNC_EXECUTOR_H

#include "runstate.h"
#include "selection.h"

/* Runs the items (or, with --probe, only the probes); returns the exit status. */
int executor_run(struct run *r, const struct item *items, int nitems);
/* Stops everything the run started (on every exit path). */
void executor_cleanup(struct run *r);

#endif
