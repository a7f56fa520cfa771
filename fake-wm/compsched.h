/* Whether the compositor is to repaint at its next refresh (compsched.c): the one flag every part
 * of the compositor sets when what is on screen is to change, and the painter clears. */
#ifndef FAKEWM_COMPSCHED_H
#define FAKEWM_COMPSCHED_H

#include <stdbool.h>

void comp_schedule(void);              /* something changed: repaint at the next refresh */
bool comp_scheduled(void);
void comp_schedule_settle(bool again); /* a paint was issued: again, or nothing more to paint */

#endif
