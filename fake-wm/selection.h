/* ICCCM manager selections (selection.c), the same for the WM (WM_S0 on the WM connection) and
 * the compositor (_NET_WM_CM_S0 on its own). */
#ifndef FAKEWM_SELECTION_H
#define FAKEWM_SELECTION_H

#include <xcb/xcb.h>

#include "state.h"

/* owner takes the selection at time t and announces it with a MANAGER client message on the root;
 * exits 1 (logged "could not take NAME") when it does not become the owner */
void selection_take(xcb_connection_t *c, xcb_window_t owner, enum atom_id selection, xcb_timestamp_t t);
/* a conversion of our selection asked for: refused (fake-wm offers none) */
void selection_refuse(xcb_connection_t *c, const xcb_selection_request_event_t *e);

#endif
