/* Drawn messages (drawn.c): _NET_WM_SYNC_DRAWN, or _NET_WM_FRAME_DRAWN and _NET_WM_FRAME_TIMINGS,
 * after the paint that first shows a completed update (or a newly mapped window). */
#ifndef FAKEWM_DRAWN_H
#define FAKEWM_DRAWN_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>

#include "win.h"

bool drawn_enabled_for(const struct win *w);   /* extended window, compositing, profile */
/* Fault first-drawn-before-map: at the MapRequest of a window whose counters were just read,
 * the first drawn message is sent at once, before the window is even mapped. */
void drawn_before_map(struct win *w);
void drawn_window_mapped(struct win *w, int64_t value, bool odd);
void drawn_update_completed(struct win *w, int64_t value);
/* a paint is being issued and shows w, on output (outputs.h): collect the updates it shows */
void drawn_collect(struct win *w, int output);
/* the server has processed that paint (at server_time): send the messages */
void drawn_paint_done(xcb_timestamp_t server_time);
void drawn_tick(int64_t now);                   /* drawn-delay: send the messages that are due */
int64_t drawn_next_deadline(void);
void drawn_forget(struct win *w);
void drawn_release_delayed(void);               /* the delayed ones go now */
/* the control channel (control.c): drawn messages as usual, never, or delayed by delay_ms more */
enum drawn_control { DRAWN_AS_USUAL, DRAWN_WITHHELD, DRAWN_DELAYED };
void drawn_set_control(enum drawn_control mode, int delay_ms);

#endif
