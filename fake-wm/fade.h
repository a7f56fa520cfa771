/* Fade-in (fade.c): the variant's opacity ramp of newly mapped windows. */
#ifndef FAKEWM_FADE_H
#define FAKEWM_FADE_H

#include <stdbool.h>
#include <stdint.h>

#include "win.h"

void fade_window_mapped(struct win *w);
void fade_window_unmapped(struct win *w);
void fade_update_completed(struct win *w);       /* later updates: full opacity */
uint16_t fade_alpha(struct win *w, int64_t now); /* painting w now: its opacity, 0..0xffff */
bool fade_running(const struct win *w);

#endif
