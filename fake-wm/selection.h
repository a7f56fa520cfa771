/* ICCCM manager selections (selection.c), the same for the WM (WM_S0 on the WM connection) and
 * the compositor (_NET_WM_CM_S0 on its own): taken at start, or from the manager that holds them
 * (--replace). */
#ifndef FAKEWM_SELECTION_H
#define FAKEWM_SELECTION_H

#include <xcb/xcb.h>

#include "state.h"

/* owner takes the selection at time t and announces it with a MANAGER client message on the root;
 * exits 1 (logged "could not take NAME") when it does not become the owner */
void selection_take(xcb_connection_t *c, xcb_window_t owner, enum atom_id selection, xcb_timestamp_t t);
/* How long a new manager waits for the old one's selection window to go (ICCCM 2.8: "within a
 * reasonable time"; then it would ask the user, which fake-wm cannot: it goes on).  A manager that
 * goes as it should takes milliseconds; well below the 2 s hold timeout, so that a zombie of the
 * faults replaced-keeps-* (replace.h) still holds a window odd since before the replacement when the
 * new one is ready */
#define SELECTION_TAKE_OVER_MS 500

/* --replace (ICCCM 2.8): owner takes `selection` at time t from its current owner, if any, and waits
 * up to SELECTION_TAKE_OVER_MS for the DestroyNotify of the window that owned it.  No announcement:
 * the caller's selection_take makes it once the role is taken up.  Nothing to do when nobody owns it. */
void selection_take_over(xcb_connection_t *c, xcb_window_t owner, enum atom_id selection, xcb_timestamp_t t);
/* a conversion of our selection asked for: refused (fake-wm offers none) */
void selection_refuse(xcb_connection_t *c, const xcb_selection_request_event_t *e);

#endif
