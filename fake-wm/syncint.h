/* What the three parts of the sync request protocol (sync.h) share among themselves, and nothing
 * outside them uses. */
#ifndef FAKEWM_SYNCINT_H
#define FAKEWM_SYNCINT_H

#include <stdbool.h>
#include <xcb/xcb.h>

#include "win.h"

/* ---- fault hostile-wedges (synchostile.c) ---- */
/* w did something hostile (what): with the fault, no other window gets a sync request until w is gone */
void hostile(const struct win *w, const char *what);
/* the window whose hostility stops every other window's requests, or XCB_NONE */
xcb_window_t hostile_wedged_by(void);
/* w is unmanaged: the wedge it caused ends (or, destroyed mid-update, lasts until the next window goes) */
void hostile_window_gone(const struct win *w);

/* ---- syncrequest.c ---- */
/* a size change asked for by o (from_queue: the one queued behind the request just answered); asked:
 * what was asked before WM_NORMAL_HINTS' limits changed it into r (NULL: they did not) */
void sync_configure(struct win *w, const struct configure_req *r, enum resize_origin o, bool from_queue,
                    const struct configure_req *asked);
/* the configure a control resize with a gap held back: its time has come (sync_check_timers) */
void sync_apply_held(struct win *w);
/* the resize queued behind an answered request, now that nothing holds it (none: nothing) */
void sync_apply_queue(struct win *w);

#endif
