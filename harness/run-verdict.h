/* The verdict of a whole run, beside the cases' own: a run that tested nothing is not green.
 * Like pytest refusing an empty run, it is UNRESOLVED (exit status 1) when no case passed or
 * failed (every one was skipped, or none was selected; not for an application under --client,
 * for which taking part is optional and not taking part is its answer), or when the compositor lists protocol
 * atoms in _NET_SUPPORTED and the probes saw it do none of the protocol; --allow-empty accepts
 * such a run and says so, and so does `allow-empty: REASON` in the named compositor's conf (a WM
 * known to take no part in the protocol, such as wlroots' and weston's XWMs: its run shows that,
 * with the reason, instead of being red for ever).  Otherwise the exit status is 1 on an UNRESOLVED case or a finding of a
 * level --fail-on counts (terms.h), 0 else. */
#ifndef FRAMESYNC_RUN_VERDICT_H
#define FRAMESYNC_RUN_VERDICT_H

#include <stdbool.h>
#include "runstate.h"

struct run_verdict {
    char reason[2048];   /* why the run tested nothing ("" when it tested something) */
    bool accepted;       /* ... and --allow-empty (or the conf's allow-empty:) accepted it */
    char accepted_by[700]; /* "--allow-empty", or "allow-empty: REASON (compositors/NAME.conf)" */
    int exit_status;
};

void run_verdict_decide(struct run_verdict *v, const struct run *r, int nitems);

#endif
