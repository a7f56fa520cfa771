/* Keyboard resizing (keyresize.c): _NET_WM_MOVERESIZE_SIZE_KEYBOARD, then the arrow keys, Return
 * and Escape, under a keyboard grab. */
#ifndef FAKEWM_KEYRESIZE_H
#define FAKEWM_KEYRESIZE_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>

#include "win.h"

uint8_t kbd_resize_grab(void);                          /* one GrabKeyboard attempt: its status */
void kbd_resize_begin(struct win *w, uint32_t source);  /* the keyboard is grabbed */
bool kbd_resize_running(xcb_window_t *which);
void kbd_resize_end(const char *why);
void kbd_resize_key_press(const xcb_key_press_event_t *e);
void kbd_resize_mapping_changed(void);                  /* MappingNotify: re-read the keymap */
void kbd_resize_window_gone(struct win *w);             /* unmanaged: end its resize */

#endif
