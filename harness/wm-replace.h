/* The replacement of the compositor under test by a new instance in a case (`replace-wm`). */
#ifndef FRAMESYNC_WM_REPLACE_H
#define FRAMESYNC_WM_REPLACE_H

#include "runstate.h"

/* Starts the replacement (ctx: the run) and says how it went in out: within_ms its deadline
 * (0: the run's --wm-timeout), at most cap_ms. */
void wm_replace_now(void *ctx, int within_ms, int cap_ms, struct replace_outcome *out);
/* The old instance a replacement left running is stopped now (ctx: the run). */
void wm_replace_settle(void *ctx);

#endif
