/* The compositor, on its own connection X.pc (comp*.c; compint.h says how its files divide the
 * work): what the WM side and the main loop ask of it.  It owns _NET_WM_CM_S0, redirects the
 * root's children, tracks DAMAGE, holds windows in the middle of an update, and paints into the
 * Composite Overlay Window; the drawn messages (drawn.h), fences (fences.h), staged frames
 * (stage.h) and the fade-in (fade.h) are its helpers. */
#ifndef FAKEWM_COMP_H
#define FAKEWM_COMP_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>

#include "state.h"
#include "win.h"

/* compstart.c.  wm_catch_up: handles every event of the WM connection the server sent before now
 * (wmevents.h); called before each paint */
void comp_start(void (*wm_catch_up)(void));
/* Redirected and painting.  Only with --replace can the start wait: the old compositor, which
 * should have released the redirection before destroying its _NET_WM_CM_S0 window, still holds it;
 * until then the WM side tells the compositor nothing (compositing() in state.h), and comp_tick
 * tries again every REDIRECT_RETRY_MS, then takes the windows as they are then */
bool comp_live(void);
void comp_retry_start(int64_t now);
int64_t comp_retry_deadline(void);   /* -1: no retry due */
static inline bool compositing(void) { return opt.composite && comp_live(); }
/* faults replaced-keeps-*: the zombie keeps its holds until the counter says (replace.c) */
void comp_no_hold_timeout(void);
/* ICCCM 2.8, losing _NET_WM_CM_S0 or WM_S0: the redirection and the overlay given back and the
 * _NET_WM_CM_S0 window destroyed, waited for (replace.c exits after) */
void comp_release(void);

/* compwin.c: the windows' lives as the WM side sees them, and the compositor connection's events */
void comp_window_created(struct win *w);  /* a new toplevel: its DAMAGE object, before any map */
void comp_window_mapped(struct win *w);
void comp_window_unmapped(struct win *w);
void comp_window_configured(struct win *w, bool resized, bool moved_or_restacked);
void comp_window_destroyed(struct win *w);
void comp_handle_event(xcb_generic_event_t *ev);
/* _NET_WM_CM_S0 was taken by a new manager since the last call (a SelectionClear) */
bool comp_selection_lost(void);

/* comphold.c: the update counter (the second of two) changed, or went away */
void comp_counter_changed(struct win *w, int64_t old, int64_t value);
void comp_counter_gone(struct win *w);

/* comppaint.c */
void comp_tick(int64_t now);         /* timers, and paint if due */
/* a synced resize was answered (or timed out): its picture is shown from the next paint */
void comp_resize_answered(struct win *w);
void comp_ready_for_painting(struct win *w); /* show-after-first-answer: its request at manage ended */
/* inject show-before-paint or configure-before-answer (`why`, for the log): the window at its new
 * size, as the client has not painted it yet, painted to the screen now (the WM's configure was
 * just sent, inside a server grab that this ends) */
void comp_show_before_paint(struct win *w, const char *why);
int64_t comp_next_deadline(void);

#endif
