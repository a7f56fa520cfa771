/* What the window manager does to a client window on its connection (winops.c): configure it
 * (remembering what it gave), map it, set its WM_STATE.  The sync request code decides when. */
#ifndef FAKEWM_WINOPS_H
#define FAKEWM_WINOPS_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>

#include "win.h"

void wm_configure_raw(xcb_window_t id, const struct configure_req *r);  /* as asked, nothing noted */
void wm_note_given_geometry(struct win *w, const struct configure_req *r);
void wm_apply_configure(struct win *w, const struct configure_req *r);   /* both of the above */
void wm_map(struct win *w);
void wm_set_state(xcb_window_t id, uint32_t state);                     /* WM_STATE: 1 Normal, 0 Withdrawn */
/* the window is a child of the root now (a round trip): not gone, not reparented by its client */
bool wm_on_root(xcb_window_t id);

#endif
