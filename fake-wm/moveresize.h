/* Interactive resizes (moveresize.c): _NET_WM_MOVERESIZE checked and routed to the keyboard
 * (keyresize.h) or the pointer (pointerresize.h) resize, its device grab retried on the main loop's
 * timer, one resize at a time. */
#ifndef FAKEWM_MOVERESIZE_H
#define FAKEWM_MOVERESIZE_H

#include <stdint.h>
#include <xcb/xcb.h>

#include "win.h"

void moveresize_client_message(const xcb_client_message_event_t *e);
void moveresize_window_gone(struct win *w);             /* unmanaged: end or forget its resize */
void moveresize_check_timers(int64_t now);              /* grab retries, compressed motion */
int64_t moveresize_next_deadline(void);

#endif
