/* Fault hostile-wedges (syncint.h): a hostile window (an unusable counter property or counter, a
 * destroyed counter, an unanswered request, a counter flood, destroyed mid-update) stops the sync
 * requests of every other window until it is gone. */
#include "syncint.h"

#include "faults.h"
#include "log.h"

/* the window whose hostility stopped every other window's requests (0: none; WEDGED_BY_GONE: one
 * destroyed mid-update, until the next window goes) */
#define WEDGED_BY_GONE 1u
static xcb_window_t wedged_by;

void hostile(const struct win *w, const char *what)
{
    if (FAULT(HOSTILE_WEDGES) && !wedged_by) {
        wedged_by = w->id;
        logmsg("window %u: %s: no other window gets a sync request until it is gone (fault hostile-wedges)", w->id,
               what);
    }
}

xcb_window_t hostile_wedged_by(void) { return wedged_by; }

void hostile_window_gone(const struct win *w)
{
    if (wedged_by == WEDGED_BY_GONE)
        wedged_by = 0;
    else if (wedged_by == w->id)
        wedged_by = w->waiting ? WEDGED_BY_GONE : 0;
    else if (w->waiting) {
        hostile(w, "withdrawn or destroyed mid-update");
        if (wedged_by == w->id)
            wedged_by = WEDGED_BY_GONE;
    }
}
