/* ICCCM manager selections (selection.h): WM_S0 for the WM, _NET_WM_CM_S0 for the compositor. */
#include "selection.h"

#include "log.h"

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
