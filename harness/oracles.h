/* The set of oracles a run uses, made once per X server (each has its own X connection). */
#ifndef FRAMESYNC_ORACLES_H
#define FRAMESYNC_ORACLES_H

#include "oracle.h"
#include "xserver.h"

#define MAX_ORACLES 4

/* Creates the oracles for this server; returns how many, or -1 with err. */
int oracles_create(struct xserver *x, struct oracle **out, int max, char *err, size_t errlen);
void oracles_destroy(struct oracle **o, int n);

#endif
