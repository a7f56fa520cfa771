/* Faults crash-during-probe and hang-during-probe (probebreak.c): at the 4th MapRequest since the
 * start, fake-wm abort()s, or stops handling X events for ever with its connections open. */
#ifndef FAKEWM_PROBEBREAK_H
#define FAKEWM_PROBEBREAK_H

#include <xcb/xcb.h>

/* called for each MapRequest fake-wm is about to honour (id: its window); returns unless it breaks */
void probe_break_at_map_request(xcb_window_t id);

#endif
