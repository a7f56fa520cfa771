/* The set of oracles a run uses, made once per X server (each has its own X connection). */
#ifndef FRAMESYNC_ORACLES_H
#define FRAMESYNC_ORACLES_H

#include "capture.h"
#include "oracle.h"
#include "xserver.h"

#define MAX_ORACLES 4

/* Creates the oracles for this server; returns how many.  An oracle that cannot work on this
 * server is left out: its cases then find no records of its source.  The screen oracle reads the
 * root window; where the root shows nothing (a rootless Xwayland), the compositor's own picture
 * through cap (a `screen-stream:` helper that sees every frame, oracle-stream.h, or else a
 * `screen-capture:` command; NULL: none).  served gets which one serves (for the
 * report), no_screen why there is none ("" when there is one): cases that read the screen then
 * SKIP with it.  Both are len bytes. */
int oracles_create(struct xserver *x, struct capture *cap, struct oracle **out, int max, char *served,
                   char *no_screen, size_t len);
void oracles_destroy(struct oracle **o, int n);

#endif
