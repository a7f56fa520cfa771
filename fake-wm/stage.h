/* Staged frames (stage.c), for the benchmark injections paint-delay and compress-every: the
 * snapshot of a completed update kept aside and shown later. */
#ifndef FAKEWM_STAGE_H
#define FAKEWM_STAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "win.h"

bool stage_update(struct win *w, int64_t value, int64_t now); /* true: staged, shown later */
bool stage_holding(const struct win *w);
void stage_release_due(int64_t now);
int64_t stage_next_deadline(void);
void stage_forget(struct win *w);

#endif
