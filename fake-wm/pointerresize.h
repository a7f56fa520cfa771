/* Pointer resizing (pointerresize.c): _NET_WM_MOVERESIZE SIZE_TOPLEFT..SIZE_LEFT while a button is
 * held, then the pointer's motion until the button's release, under a pointer grab. */
#ifndef FAKEWM_POINTERRESIZE_H
#define FAKEWM_POINTERRESIZE_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>

#include "win.h"

struct ptr_start {
    uint32_t dir;           /* 0..7 */
    int16_t root_x, root_y; /* the pointer when the client sent the message */
    uint32_t button;        /* l[3]: the button held (0: any) */
};
bool ptr_resize_button_down(void);                      /* QueryPointer: is any button held? */
uint8_t ptr_resize_grab(void);                          /* one GrabPointer attempt: its status */
void ptr_resize_begin(struct win *w, const struct ptr_start *start, uint32_t source);
bool ptr_resize_running(xcb_window_t *which);
void ptr_resize_end(const char *why);
void ptr_resize_motion(const xcb_motion_notify_event_t *e);
void ptr_resize_button_release(const xcb_button_release_event_t *e);
bool ptr_resize_motion_pending(void);
int64_t ptr_resize_next_due(void);                     /* a position to apply then (0: now), or -1 */
void ptr_resize_flush_motion(void);                     /* apply the latest motion seen */
void ptr_resize_window_gone(struct win *w);

#endif
