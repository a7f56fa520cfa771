/* ICCCM 2.8 manager selections handed over, the old manager's side (replace.c; the new one's,
 * --replace, is selection_take_over): a fake-wm that loses WM_S0 or _NET_WM_CM_S0 (SelectionClear)
 * releases everything it manages, destroys its selection windows and exits.  The faults
 * replaced-keeps-hold and replaced-keeps-freeze make the loser a zombie instead: it gives up being
 * the WM and its WM_S0 window, but keeps compositing (without its hold timeout), with the hold or
 * the frozen picture it had. */
#ifndef FAKEWM_REPLACE_H
#define FAKEWM_REPLACE_H

#include <stdbool.h>

#include "state.h"

/* A SelectionClear of one of our manager selections: a new manager takes over.  Releases every
 * role (unredirects, gives back the overlay, deselects SubstructureRedirect, ungrabs), destroys the
 * selection windows and exits 0; or, with a replaced-keeps-* fault, becomes the zombie. */
void replace_lost(enum atom_id selection);

/* The faults' zombie: it no longer manages anything, only composites (the WM side ignores the
 * client messages meant for the new WM) */
bool replace_zombie(void);

#endif
