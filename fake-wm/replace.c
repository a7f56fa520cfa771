/* ICCCM 2.8 manager selections handed over, the old manager's side (replace.h): "If a manager loses
 * ownership of a manager selection, this means that a new manager is taking over its
 * responsibilities.  The old manager must release all resources it has managed and must then
 * destroy the window that owned the selection."  A layer of the WM events (fake-wm/README.md): the
 * WM connection's SelectionClear and the top (for the compositor's) call it; it calls the parts
 * below. */
#include "replace.h"

#include "comp.h"
#include "faults.h"
#include "features.h"
#include "log.h"
#include "moveresize.h"
#include "win.h"

#include "xhelpers.h"

#include <stdlib.h>

static bool zombie;

bool replace_zombie(void) { return zombie; }

/* ---- losing a selection ---- */

/* The WM role given up: no SubstructureRedirect (the new WM needs it), no grab, no waits for
 * answers.  keep_notify: the zombie still follows the toplevels' lives for its compositing. */
static void give_up_wm(bool keep_notify)
{
    for (int i = 0; i < nstack; i++)
        if (stack[i]->managed)
            moveresize_window_gone(stack[i]);
    xcb_ungrab_keyboard(X.c, XCB_CURRENT_TIME);
    xcb_ungrab_pointer(X.c, XCB_CURRENT_TIME);
    uint32_t mask = keep_notify ? XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY | XCB_EVENT_MASK_PROPERTY_CHANGE : 0;
    xcb_change_window_attributes(X.c, X.root, XCB_CW_EVENT_MASK, &mask);
}

/* faults replaced-keeps-hold / replaced-keeps-freeze: the loser stops managing (so the new WM can
 * start) and destroys its WM_S0 window, but goes on compositing, never exits, and keeps for ever
 * the hold of each window in the middle of an update, or the frozen picture of each window whose
 * resize waits for its answer; its _NET_WM_CM_S0 window and its redirection stay */
static void become_zombie(enum atom_id selection)
{
    zombie = true;
    int kept = 0;
    for (int i = 0; i < nstack; i++) {
        struct win *w = stack[i];
        if (FAULT(REPLACED_KEEPS_HOLD) && w->odd && w->fupd.active)
            w->hold_left = true, kept++;
        if (FAULT(REPLACED_KEEPS_FREEZE) && w->resize_frozen)
            w->freeze_left = true, kept++;
        /* the WM's waits end: the zombie applies no resize any more, and (but for the frozen
         * pictures the fault keeps) shows what the window has drawn, as at a timeout */
        if (w->waiting && w->wait_alarm != XCB_NONE)
            alarm_destroy(w->wait_alarm);
        w->wait_alarm = XCB_NONE;
        w->waiting = w->queued = w->configure_held = w->map_after_wait = false;
        if (w->resize_frozen && !w->freeze_left && compositing())
            comp_resize_answered(w);
    }
    give_up_wm(true);
    if (opt.composite)
        comp_no_hold_timeout();
    if (is_wm())
        xcb_destroy_window(X.c, X.check_win);
    xh_round_trip(X.c);
    logmsg("lost %s: stops managing and destroys its WM_S0 window, but keeps compositing with %d window(s) held or "
           "frozen for ever, and does not exit (fault %s)",
           atom_name(selection), kept, FAULT(REPLACED_KEEPS_HOLD) ? "replaced-keeps-hold" : "replaced-keeps-freeze");
}

void replace_lost(enum atom_id selection)
{
    if (zombie) {
        logmsg("lost %s as well: keeps its redirection and its window (fault %s)", atom_name(selection),
               FAULT(REPLACED_KEEPS_HOLD) ? "replaced-keeps-hold" : "replaced-keeps-freeze");
        return;
    }
    if (FAULT(REPLACED_KEEPS_HOLD) || FAULT(REPLACED_KEEPS_FREEZE)) {
        become_zombie(selection);
        return;
    }
    logmsg("lost %s to a new manager (ICCCM 2.8): releasing what it manages, destroying its selection windows, "
           "exiting",
           atom_name(selection));
    /* the compositor first, on its own connection, and waited for: when the new manager sees the
     * WM_S0 window go (below, on the other connection) the redirection is already released */
    if (opt.composite)
        comp_release();
    give_up_wm(false);
    xcb_destroy_window(X.c, X.check_win);
    xh_round_trip(X.c);
    exit(0);
}
