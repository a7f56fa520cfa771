/* ICCCM 2.8 manager selections handed over (replace.c): with --replace fake-wm takes WM_S0 and
 * _NET_WM_CM_S0 from the manager that holds them and waits until that one has destroyed the window
 * that owned each; a fake-wm that loses one of them (SelectionClear) releases everything it
 * manages, destroys its selection windows and exits.  The faults replaced-keeps-hold and
 * replaced-keeps-freeze make the loser a zombie instead: it gives up being the WM and its
 * WM_S0 window, but keeps compositing (without its hold timeout), with the hold or the frozen picture
 * it had. */
#ifndef FAKEWM_REPLACE_H
#define FAKEWM_REPLACE_H

#include <stdbool.h>
#include <xcb/xcb.h>

#include "state.h"

/* How long the new manager waits for the old one's selection window to go (ICCCM 2.8: "within a
 * reasonable time"; then it would ask the user, which fake-wm cannot: it goes on).  A manager that
 * goes as it should takes milliseconds; well below the 2 s hold timeout, so that a zombie of the
 * faults below still holds a window odd since before the replacement when the new one is ready */
#define REPLACE_WAIT_MS 500

/* --replace: owner takes `selection` at time t from its current owner, if any, and waits up to
 * REPLACE_WAIT_MS for the DestroyNotify of the window that owned it.  No announcement: the caller's
 * selection_take makes it once the role is taken up.  Nothing to do when nobody owns it. */
void replace_take_over(xcb_connection_t *c, xcb_window_t owner, enum atom_id selection, xcb_timestamp_t t);

/* A SelectionClear of one of our manager selections: a new manager takes over.  Releases every
 * role (unredirects, gives back the overlay, deselects SubstructureRedirect, ungrabs), destroys the
 * selection windows and exits 0; or, with a replaced-keeps-* fault, becomes the zombie. */
void replace_lost(enum atom_id selection);

/* The faults' zombie: it no longer manages anything, only composites (the WM side ignores the
 * client messages meant for the new WM) */
bool replace_zombie(void);

#endif
