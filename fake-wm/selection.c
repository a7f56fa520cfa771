/* ICCCM manager selections (selection.h): WM_S0 for the WM, _NET_WM_CM_S0 for the compositor. */
#include "selection.h"

#include "log.h"

#include "clock.h"

#include <poll.h>

#include <stdlib.h>
#include <string.h>

void selection_take(xcb_connection_t *c, xcb_window_t owner, enum atom_id selection, xcb_timestamp_t t)
{
    xcb_set_selection_owner(c, owner, atom(selection), t);
    xcb_get_selection_owner_reply_t *o =
        xcb_get_selection_owner_reply(c, xcb_get_selection_owner(c, atom(selection)), NULL);
    if (!o || o->owner != owner) {
        logmsg("could not take %s", atom_name(selection));
        exit(1);
    }
    free(o);
    xcb_client_message_event_t m;
    memset(&m, 0, sizeof m);
    m.response_type = XCB_CLIENT_MESSAGE;
    m.format = 32;
    m.window = X.root;
    m.type = atom(A_MANAGER);
    m.data.data32[0] = t;
    m.data.data32[1] = atom(selection);
    m.data.data32[2] = owner;
    xcb_send_event(c, 0, X.root, XCB_EVENT_MASK_STRUCTURE_NOTIFY, (const char *)&m);
}

void selection_refuse(xcb_connection_t *c, const xcb_selection_request_event_t *e)
{
    xcb_selection_notify_event_t n;
    memset(&n, 0, sizeof n);
    n.response_type = XCB_SELECTION_NOTIFY;
    n.time = e->time;
    n.requestor = e->requestor;
    n.selection = e->selection;
    n.target = e->target;
    n.property = XCB_NONE; /* refused: no conversions offered */
    xcb_send_event(c, 0, e->requestor, XCB_EVENT_MASK_NO_EVENT, (const char *)&n);
}

/* ---- --replace: ICCCM 2.8's new manager ---- */

/* Waits until window `old` is destroyed (its DestroyNotify on c, which selected StructureNotify on
 * it), at most SELECTION_TAKE_OVER_MS; the other events are of no use this early (nothing else is
 * selected yet but the check window's PropertyNotify). */
static bool await_destroyed(xcb_connection_t *c, xcb_window_t old)
{
    int64_t deadline = clock_now_us() + (int64_t)SELECTION_TAKE_OVER_MS * 1000;
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

void selection_take_over(xcb_connection_t *c, xcb_window_t owner, enum atom_id selection, xcb_timestamp_t t)
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
               atom_name(selection), old, SELECTION_TAKE_OVER_MS);
}
