/* The events of the window manager connection (wmevents.c dispatches them by type to
 * wmwindows.c, the toplevels' lives, and wminput.c, input, selections and client messages). */
#ifndef FAKEWM_WMEVENTS_H
#define FAKEWM_WMEVENTS_H

#include <stdint.h>
#include <xcb/xcb.h>

void wm_dispatch(xcb_generic_event_t *ev); /* an event or an error read from the WM connection */
/* --inject input-first=MS: the events wm_dispatch kept that are due by now (inputfirst.h) */
void wm_check_kept(int64_t now);
/* Everything the server sent the WM connection before now: a round trip, then the queue.  The
 * compositor calls this before it paints, so that a counter change the server processed before a
 * client's drawing is known before that drawing is shown (the two connections' events are not
 * ordered with each other). */
void wm_catch_up(void);

#endif
