/* The control channel (control.c): the resizes, moves and drawn-message modes a test asks fake-wm
 * for with a _FRAMESYNC_WM_CONTROL client message to the root (README.md, "The control channel"). */
#ifndef FAKEWM_CONTROL_H
#define FAKEWM_CONTROL_H

#include <stdbool.h>
#include <xcb/xcb.h>

bool control_client_message(const xcb_client_message_event_t *e); /* false: not a control message */

#endif
