/* The size limits a window's WM_NORMAL_HINTS set (sizelimits.c): a WM keeps every resize it makes or
 * grants within the minimum and maximum size (ICCCM 4.1.2.3), as mutter, xfwm4 and KWin do, so a
 * resize can be given another size than the one asked for. */
#ifndef FAKEWM_SIZELIMITS_H
#define FAKEWM_SIZELIMITS_H

#include <stdbool.h>

#include "win.h"

/* keeps r's width and height within w's limits (a pointer resize dragging the left or top edge
 * keeps the opposite edge where it was); true when it changed what r asked for */
bool size_limits_apply(const struct win *w, struct configure_req *r, enum resize_origin o);

#endif
