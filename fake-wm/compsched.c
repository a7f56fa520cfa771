/* Whether the compositor is to repaint at its next refresh (compsched.h). */
#include "compsched.h"

static bool paint_needed;

void comp_schedule(void) { paint_needed = true; }

bool comp_scheduled(void) { return paint_needed; }

void comp_schedule_settle(bool again) { paint_needed = again; }
