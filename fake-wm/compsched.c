/* Whether the compositor is to repaint at its next refresh (compsched.h). */
#include "compsched.h"

#include "outputs.h"

static bool paint_needed[OUTPUTS_MAX];

void comp_schedule(void)
{
    for (int i = 0; i < OUTPUTS_MAX; i++)
        paint_needed[i] = true;
}

bool comp_scheduled(void)
{
    for (int i = 0; i < outputs_count(); i++)
        if (paint_needed[i])
            return true;
    return false;
}

bool comp_scheduled_on(int output) { return paint_needed[output]; }

void comp_schedule_settle(bool again)
{
    for (int i = 0; i < OUTPUTS_MAX; i++)
        paint_needed[i] = again;
}

void comp_schedule_settle_on(int output, bool again) { paint_needed[output] = again; }

void comp_schedule_on(int output) { paint_needed[output] = true; }
