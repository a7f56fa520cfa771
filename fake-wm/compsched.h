/* Whether the compositor is to repaint at its next refresh (compsched.c): the one flag every part
 * of the compositor sets when what is on screen is to change, and the painter clears.  One per
 * output: with per-output clocks (outputs.h) each output is repainted at its own refresh. */
#ifndef FAKEWM_COMPSCHED_H
#define FAKEWM_COMPSCHED_H

#include <stdbool.h>

void comp_schedule(void);              /* something changed: repaint every output at its next refresh */
bool comp_scheduled(void);             /* some output is to be repainted */
bool comp_scheduled_on(int output);
void comp_schedule_settle(bool again); /* a paint of the whole screen was issued: again, or nothing more to paint */
void comp_schedule_settle_on(int output, bool again); /* the same for a paint of one output */
void comp_schedule_on(int output);          /* per-output-clock: that output repaints too */

#endif
