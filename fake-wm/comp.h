/* The compositor (composite.c), on its own connection X.pc: what the WM side and the main loop
 * ask of it. */
#ifndef FAKEWM_COMP_H
#define FAKEWM_COMP_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>

#include "win.h"

/* wm_catch_up: handles every event of the WM connection the server sent before now (wmevents.h);
 * called before each paint */
void comp_start(void (*wm_catch_up)(void));
void comp_handle_event(xcb_generic_event_t *ev);
void comp_window_created(struct win *w);  /* a new toplevel: its DAMAGE object, before any map */
void comp_window_mapped(struct win *w);
void comp_window_unmapped(struct win *w);
void comp_window_configured(struct win *w, bool resized, bool moved_or_restacked);
void comp_window_destroyed(struct win *w);
void comp_counter_changed(struct win *w, int64_t old, int64_t value); /* update counter */
void comp_counter_gone(struct win *w);
void comp_schedule(void);            /* something changed: repaint at the next refresh */
void comp_tick(int64_t now);         /* paint if due */
int64_t comp_next_deadline(void);

/* the snapshot of w's live contents into a new frame (the caller took care of fences) */
bool comp_snapshot(struct win *w, struct frame *f);
void comp_free_frame(struct frame *f);
void comp_show_frame(struct win *w, struct frame *f); /* f becomes the saved copy (w owns it) */

#endif
