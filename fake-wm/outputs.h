/* The outputs the compositor tells apart (outputs.c): the RandR 1.5 monitors of the screen, for
 * the variant per-output-clock (each output painted at its own cadence, as mutter paints each stage
 * view with its own frame clock) and the fault drawn-per-output-count.  Without either, the
 * screen is one output and nothing is read. */
#ifndef FAKEWM_OUTPUTS_H
#define FAKEWM_OUTPUTS_H

#include <stdbool.h>
#include <stdint.h>

#include "win.h"

struct output {
    int x, y, w, h;
    int64_t interval_us; /* its refresh interval (per-output-clock: each its own) */
};

bool outputs_in_use(void);
/* on the compositor connection: reads the monitors and follows them (a monitor set or deleted
 * makes the server send the root a ConfigureNotify: outputs_root_configured) */
void outputs_start(void);
void outputs_root_configured(void);
int outputs_count(void);                 /* 1 when not in use */
const struct output *outputs_get(int i);
/* the output that shows most of w (the lowest of equals; 0 when it shows none of it) */
int outputs_of(const struct win *w);
bool outputs_touch(const struct win *w, int output); /* some of w is on that output */

#endif
