/* What the compositor's files (comp*.c) share among themselves; comp.h is what they offer the rest.
 *   compstamps.c - what is in flight on the compositor connection: paints and fence waits, each
 *                  followed by a zero-length property append whose PropertyNotify says the server
 *                  has processed it (then the drawn messages go out; fence waits time out);
 *   comphold.c   - delimited updates: which windows are held, the hold timeout, delayed-others,
 *                  and an update counter's changes (a completed update's snapshot);
 *   compwin.c    - the windows' events from the WM side, and the compositor connection's events;
 *   comppaint.c  - painting, the refresh timer, the compositor's timers;
 *   compstart.c  - the start-up. */
#ifndef FAKEWM_COMPINT_H
#define FAKEWM_COMPINT_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>
#include <xcb/sync.h>

#include "win.h"

/* how long a newly mapped window that has not drawn yet stays unshown */
#define FIRST_SHOW_GRACE_US 100000

/* ---- compstamps.c ---- */
void stamps_start(xcb_window_t stamp_win);              /* our own window, whose property is appended to */
void stamps_paint_issued(void);
int stamps_paints_in_flight(void);
void stamps_fence_issued(xcb_sync_fence_t f, xcb_window_t win);
/* a PropertyNotify on the compositor connection: true when it was a stamp (handled) */
bool stamps_property_notify(const xcb_property_notify_event_t *p);
/* a window that goes away while the compositor waits on its fence would block painting until the
 * timeout: release that wait at once */
void stamps_release_fences_of(struct win *w, const char *why);
void stamps_forget_window(xcb_window_t id);            /* destroyed: no longer named by a stamp */
void stamps_check_fences(int64_t now);                  /* fence waits past the timeout */
int64_t stamps_next_deadline(void);                     /* -1: none */

/* ---- comphold.c ---- */
bool in_update(const struct win *w);       /* its followed second counter is odd */
bool held(const struct win *w);            /* the last complete frame is shown, not the contents */
bool kept(const struct win *w);            /* held, or a staged frame is still to come */
bool hold_may_expire(const struct win *w); /* the hold ends by itself after --hold-timeout-ms */
void update_began(const struct win *w);    /* fault holds-whole-screen: the screen freezes */
bool screen_frozen(void);                  /* fault holds-whole-screen: it froze */
/* delayed-others: true when w's damage is to be shown only once w->defer_until has passed */
bool delay_damage(struct win *w, int64_t now);
/* w is destroyed: its hold goes with it (fault destroyed-hold-lingers: it lingers) */
void hold_gone_with(const struct win *w);
void end_expired_delays(int64_t now);
void check_holds(int64_t now);             /* first-show grace and hold timeouts */

/* ---- compwin.c ---- */
void compwin_start(uint8_t damage_event_base);

/* ---- comppaint.c ---- */
/* the overlay picture and the back buffer; wm_catch_up runs before each paint */
void paint_start(xcb_window_t overlay, void (*wm_catch_up)(void));
void paint(int64_t now);

#endif
