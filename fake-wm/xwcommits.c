#include "xwcommits.h"
#include "faults.h"
#include "log.h"
#include "state.h"
#include "variants.h"

#include <string.h>

static bool holds_commits(void)
{
    return VARIANT(XWAYLAND_COMMITS) || FAULT(THAWED_BEFORE_ANSWER) || FAULT(FROZEN_AFTER_TIMEOUT) ||
           FAULT(SHOWN_WHILE_HELD) || FAULT(NEW_BUFFER_IN_OLD_GEOMETRY);
}

/* On the client window itself: fake-wm has no frame (mutter writes it on the frame when there is
 * one, apply_allow_commits_x11_property). */
static void allow_commits(struct win *w, uint32_t allow)
{
    xcb_change_property(X.c, XCB_PROP_MODE_REPLACE, w->id, atom(A_XWAYLAND_ALLOW_COMMITS), XCB_ATOM_CARDINAL, 32, 1,
                        &allow);
    xcb_flush(X.c);
}

void xwc_wait_started(struct win *w)
{
    if (!holds_commits())
        return;
    allow_commits(w, 0);
    w->commits_held = true;
    if (FAULT(THAWED_BEFORE_ANSWER)) {
        allow_commits(w, 1);
        w->commits_held = false;
        logmsg("window %u: commits let through before the answer (fault thawed-before-answer)", w->id);
    }
}

void xwc_wait_ended(struct win *w, const char *why)
{
    if (!w->commits_held)
        return;
    if (FAULT(FROZEN_AFTER_TIMEOUT) && !strcmp(why, "timeout")) {
        logmsg("window %u: commits left held after the timeout (fault frozen-after-timeout)", w->id);
        return;
    }
    allow_commits(w, 1);
    w->commits_held = false;
}
