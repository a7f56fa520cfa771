/* The Xwayland commit freeze (--variant xwayland-commits, and the faults thawed-before-answer and
 * frozen-after-timeout): _XWAYLAND_ALLOW_COMMITS = 0 on a window while fake-wm waits for the answer
 * to its sync request, 1 when the wait ends.  Under Xvfb the property does nothing; the request
 * oracle sees it (cases/xwayland/). */
#ifndef FAKE_WM_XWCOMMITS_H
#define FAKE_WM_XWCOMMITS_H

#include "win.h"

/* The wait for w's answer began (its configure is sent): hold its commits. */
void xwc_wait_started(struct win *w);
/* The wait ended, why = "timeout" or what else ended it: let them through. */
void xwc_wait_ended(struct win *w, const char *why);

#endif
