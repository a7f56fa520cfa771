/* The set of oracles a run uses, made once per X server (each has its own X connection). */
#ifndef FRAMESYNC_ORACLES_H
#define FRAMESYNC_ORACLES_H

#include "oracle.h"
#include "xserver.h"

#define MAX_ORACLES 4

/* Creates the oracles for this server; returns how many.  An oracle that cannot work on this
 * server is left out: its cases then find no records of its source.  no_screen gets why there is
 * no screen oracle ("" when there is one): cases that read the screen then SKIP with it. */
int oracles_create(struct xserver *x, struct oracle **out, int max, char *no_screen, size_t len);
void oracles_destroy(struct oracle **o, int n);

#endif
