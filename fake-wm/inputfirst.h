/* --inject input-first=MS (inputfirst.c): the keys, buttons and motions of the WM connection are
 * handled at once, every other event of it MS ms after it came, in the order it came: the order of
 * KWin under Wayland, whose seat input is handled in its Wayland dispatch while its X events wait in
 * Xwayland's socket.  For the proof of the scripted client's input barrier (common/input-barrier.h,
 * tests/test_input_path.py), with the input path's helper tests/xtest-seat. */
#ifndef FAKEWM_INPUTFIRST_H
#define FAKEWM_INPUTFIRST_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>

/* With the injection, an event that is not input is kept (copied) to be handled later: true. */
bool inputfirst_defer(const xcb_generic_event_t *ev);
/* Handles the kept events that are due by now (through handle). */
void inputfirst_check(int64_t now, void (*handle)(xcb_generic_event_t *ev));
int64_t inputfirst_next_deadline(void); /* CLOCK_MONOTONIC us of the next one, -1 when none is kept */

#endif
