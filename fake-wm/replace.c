/* ICCCM 2.8 manager selections handed over (replace.h).  "If a manager loses ownership of a manager
 * selection, this means that a new manager is taking over its responsibilities.  The old manager
 * must release all resources it has managed and must then destroy the window that owned the
 * selection. ... When the new manager notices that the window owning the selection has been
 * destroyed, it knows that it can successfully proceed to control the resource it is planning to
 * manage." */
#include "replace.h"

#include "comp.h"
#include "faults.h"
#include "features.h"
#include "log.h"
#include "moveresize.h"
#include "win.h"

#include "clock.h"
#include "xhelpers.h"

#include <poll.h>
#include <stdlib.h>

static bool zombie;

bool replace_zombie(void) { return zombie; }

/* Waits until window `old` is destroyed (its DestroyNotify on c, which selected StructureNotify on
 * it), at most REPLACE_WAIT_MS; the other events are of no use this early (nothing else is
 * selected yet but the check window's PropertyNotify). */
static bool await_destroyed(xcb_connection_t *c, xcb_window_t old)
{
    int64_t deadline = clock_now_us() + (int64_t)REPLACE_WAIT_MS * 1000;
    for (;;) {
        xcb_generic_event_t *ev;
        while ((ev = xcb_poll_for_event(c))) {
            uint8_t type = ev->response_type & 0x7f;
            bool gone = type == XCB_DESTROY_NOTIFY && ((xcb_destroy_notify_event_t *)ev)->window == old;
            if (type == XCB_PROPERTY_NOTIFY)
                note_time(((xcb_property_notify_event_t *)ev)->time);
            free(ev);
            if (gone)
                return true;
        }
        if (xcb_connection_has_error(c))
            return false;
        int64_t left = (deadline - clock_now_us()) / 1000;
        if (left <= 0)
            return false;
        struct pollfd pfd = {.fd = xcb_get_file_descriptor(c), .events = POLLIN};
        poll(&pfd, 1, (int)left + 1);
    }
}

void replace_take_over(xcb_connection_t *c, xcb_window_t owner, enum atom_id selection, xcb_timestamp_t t)
{
    xcb_window_t old = XCB_NONE;
    for (int tries = 0; tries < 2; tries++) {
        xcb_get_selection_owner_reply_t *o =
            xcb_get_selection_owner_reply(c, xcb_get_selection_owner(c, atom(selection)), NULL);
        xcb_window_t now = o ? o->owner : XCB_NONE;
        free(o);
        if (now == XCB_NONE || now == old)
            break; /* nobody (any more), or the window watched is still the owner */
        /* ICCCM 2.8: select StructureNotify on the owner, then ask again: it may have changed
         * between the two */
        old = now;
        uint32_t mask = XCB_EVENT_MASK_STRUCTURE_NOTIFY;
        xcb_generic_error_t *err =
            xcb_request_check(c, xcb_change_window_attributes_checked(c, old, XCB_CW_EVENT_MASK, &mask));
        if (err) {
            free(err); /* gone already */
            old = XCB_NONE;
        }
    }
    if (old == XCB_NONE) {
        logmsg("--replace: nobody owns %s: taking it as at any start", atom_name(selection));
        return;
    }
    xcb_set_selection_owner(c, owner, atom(selection), t);
    xcb_get_selection_owner_reply_t *o =
        xcb_get_selection_owner_reply(c, xcb_get_selection_owner(c, atom(selection)), NULL);
    bool ours = o && o->owner == owner;
    free(o);
    if (!ours) {
        logmsg("--replace: could not take %s from window %u", atom_name(selection), old);
        exit(1);
    }
    int64_t from = clock_now_us();
    if (await_destroyed(c, old))
        logmsg("--replace: took %s; the old manager destroyed its window %u after %lld ms", atom_name(selection), old,
               (long long)((clock_now_us() - from) / 1000));
    else
        logmsg("--replace: took %s; the old manager did not destroy its window %u within %d ms: going on (ICCCM "
               "2.8 would have the user decide)",
               atom_name(selection), old, REPLACE_WAIT_MS);
}

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
