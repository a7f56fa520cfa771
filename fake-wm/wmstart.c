/* The window manager's start-up (wmstart.h). */
#include "wmstart.h"

#include "faults.h"
#include "features.h"
#include "log.h"
#include "selection.h"
#include "state.h"
#include "sync.h"
#include "win.h"

#include <stdio.h>
#include <stdlib.h>

static xcb_timestamp_t fresh_timestamp(void)
{
    /* a zero-length append on our own window; the PropertyNotify carries the server time */
    xcb_change_property(X.c, XCB_PROP_MODE_APPEND, X.check_win, atom(A_FAKE_WM_TIMESTAMP),
                        XCB_ATOM_CARDINAL, 32, 0, NULL);
    xcb_flush(X.c);
    for (;;) {
        xcb_generic_event_t *ev = xcb_wait_for_event(X.c);
        if (!ev) {
            logmsg("X connection closed during start-up");
            exit(0);
        }
        uint8_t type = ev->response_type & 0x7f;
        if (type == 0) {
            log_x_error("wm", (xcb_generic_error_t *)ev);
        } else if (type == XCB_PROPERTY_NOTIFY) {
            xcb_property_notify_event_t *p = (xcb_property_notify_event_t *)ev;
            if (p->window == X.check_win && p->atom == atom(A_FAKE_WM_TIMESTAMP)) {
                xcb_timestamp_t t = p->time;
                free(ev);
                note_time(t);
                return t;
            }
        }
        /* before SubstructureRedirect nothing else is selected */
        free(ev);
    }
}

static void set_supported(void)
{
    xcb_atom_t list[16];
    int n = 0;
    list[n++] = atom(A_NET_SUPPORTED);
    list[n++] = atom(A_NET_SUPPORTING_WM_CHECK);
    list[n++] = atom(A_NET_WM_NAME);
    list[n++] = atom(A_NET_WM_MOVERESIZE); /* interactive resizing (moveresize.c), every profile */
    if (!FAULT(SYNC_NOT_ADVERTISED)) {
        list[n++] = atom(A_NET_WM_SYNC_REQUEST);
        list[n++] = atom(A_NET_WM_SYNC_REQUEST_COUNTER);
    }
    /* drawn messages and fences need the compositor and the extended form: only what is done is
     * claimed (a plain WM, basic-only, no-drawn, no-fences, no-timings leave theirs out) */
    bool drawn = drawn_supported() && !FAULT(NOT_ADVERTISED);
    if (opt.profile == PROFILE_DRAFT2011) {
        if (drawn)
            list[n++] = atom(A_NET_WM_SYNC_DRAWN);
        if (fences_supported() && !FAULT(FENCES_NOT_ADVERTISED))
            list[n++] = atom(A_NET_WM_SYNC_FENCES);
    } else if (opt.profile == PROFILE_DEFACTO) {
        if (drawn)
            list[n++] = atom(A_NET_WM_FRAME_DRAWN);
        if (timings_supported())
            list[n++] = atom(A_NET_WM_FRAME_TIMINGS);
    }
    xcb_change_property(X.c, XCB_PROP_MODE_REPLACE, X.root, atom(A_NET_SUPPORTED), XCB_ATOM_ATOM,
                        32, (uint32_t)n, list);
    char names[512] = "";
    size_t used = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < A_COUNT; k++)
            if (X.atom[k] == list[i] && used < sizeof names) {
                int len = snprintf(names + used, sizeof names - used, "%s%s", used ? " " : "", atom_name(k));
                used += len > 0 ? (size_t)len : 0;
                break;
            }
    logmsg("_NET_SUPPORTED has %d atoms (profile %s%s%s): %s", n, profile_name(opt.profile),
           opt.composite ? "" : ", no compositor: no drawn/fence atoms",
           FAULT(NOT_ADVERTISED) ? ", fault not-advertised: drawn atom left out" : "", names);
}

/* faults of a manager that starts with windows already mapped (a WM that replaced another):
 * adopted-unsynced (their resizes get no sync request), adopted-odd-shown (an update in progress
 * at adoption is not seen: it is shown as it is drawn) */
static void adoption_faults(struct win *w)
{
    if (FAULT(ADOPTED_UNSYNCED) && w->form != FORM_NONE) {
        w->adopted_unsynced = true;
        logmsg("window %u: adopted: its resizes get no sync request (fault adopted-unsynced)", w->id);
    }
    if (FAULT(ADOPTED_ODD_SHOWN) && w->odd) {
        w->odd = w->odd_from_map = false;
        logmsg("window %u: adopted in the middle of an update: taken to be done, shown as drawn (fault "
               "adopted-odd-shown)",
               w->id);
    }
}

static void adopt_existing(void)
{
    xcb_query_tree_reply_t *t = xcb_query_tree_reply(X.c, xcb_query_tree(X.c, X.root), NULL);
    if (!t)
        return;
    xcb_window_t *kids = xcb_query_tree_children(t);
    int n = xcb_query_tree_children_length(t);
    for (int i = 0; i < n; i++) {
        if (win_is_own(kids[i])) {
            if (!win_find(kids[i]))
                win_add(kids[i], 0, 0, 1, 1, 0, true)->own = true;
            continue;
        }
        xcb_get_window_attributes_reply_t *a =
            xcb_get_window_attributes_reply(X.c, xcb_get_window_attributes(X.c, kids[i]), NULL);
        xcb_get_geometry_reply_t *g = xcb_get_geometry_reply(X.c, xcb_get_geometry(X.c, kids[i]), NULL);
        if (a && g && a->_class != XCB_WINDOW_CLASS_INPUT_ONLY) {
            struct win *w = win_add(kids[i], g->x, g->y, g->width, g->height, g->border_width,
                                    a->override_redirect);
            if (a->map_state != XCB_MAP_STATE_UNMAPPED) {
                w->mapped = true;
                if (!w->override_redirect) {
                    w->managed = true;
                    sync_manage(w);
                    adoption_faults(w);
                    logmsg("window %u: %s (already mapped at start-up)", w->id, is_wm() ? "adopted" : "observed");
                }
            }
        } else if (a && g) {
            win_add(kids[i], g->x, g->y, g->width, g->height, g->border_width, true);
        }
        free(a);
        free(g);
    }
    free(t);
}

static void become_wm(xcb_timestamp_t t);

void wm_start(void)
{
    const xcb_query_extension_reply_t *sync = xcb_get_extension_data(X.c, &xcb_sync_id);
    if (!sync || !sync->present) {
        logmsg("the X server has no SYNC extension");
        exit(1);
    }
    X.sync_event_base = sync->first_event;
    xcb_sync_initialize_reply_t *si =
        xcb_sync_initialize_reply(X.c, xcb_sync_initialize(X.c, 3, 1), NULL);
    free(si);

    X.check_win = xcb_generate_id(X.c);
    uint32_t vals[2] = {1, XCB_EVENT_MASK_PROPERTY_CHANGE};
    xcb_create_window(X.c, XCB_COPY_FROM_PARENT, X.check_win, X.root, -100, -100, 1, 1, 0,
                      XCB_WINDOW_CLASS_INPUT_ONLY, XCB_COPY_FROM_PARENT,
                      XCB_CW_OVERRIDE_REDIRECT | XCB_CW_EVENT_MASK, vals);
    win_note_own(X.check_win);
    xcb_timestamp_t t = fresh_timestamp();
    logmsg("initial server timestamp %u", t);

    if (!is_wm()) {
        /* cm-only: a compositing manager next to no WM sees the toplevels come and go
         * (SubstructureNotify) but redirects nothing, owns no WM_S0, claims nothing */
        uint32_t mask = XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY | XCB_EVENT_MASK_PROPERTY_CHANGE;
        xcb_change_window_attributes(X.c, X.root, XCB_CW_EVENT_MASK, &mask);
        adopt_existing();
        logmsg("no window manager (variant cm-only): no WM_S0, no SubstructureRedirect, no "
               "_NET_SUPPORTING_WM_CHECK, no _NET_SUPPORTED");
        return;
    }
    become_wm(t);
}

/* SubstructureRedirect, the check window, _NET_SUPPORTED, then WM_S0 announced with MANAGER */
static void become_wm(xcb_timestamp_t t)
{
    /* --replace: WM_S0 first, and the old WM gone (it deselects SubstructureRedirect before it
     * destroys its WM_S0 window, ICCCM 2.8); announced below, once this one manages */
    if (opt.replace)
        selection_take_over(X.c, X.check_win, A_WM_S0, t);
    /* SubstructureRedirect fails if another WM has it */
    uint32_t mask = XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY |
                    XCB_EVENT_MASK_PROPERTY_CHANGE;
    xcb_generic_error_t *err =
        xcb_request_check(X.c, xcb_change_window_attributes_checked(X.c, X.root, XCB_CW_EVENT_MASK, &mask));
    if (err) {
        logmsg("cannot select SubstructureRedirect on the root (another window manager is running?)");
        free(err);
        exit(1);
    }

    static const char name[] = "fake-wm";
    xcb_change_property(X.c, XCB_PROP_MODE_REPLACE, X.check_win, atom(A_NET_SUPPORTING_WM_CHECK),
                        XCB_ATOM_WINDOW, 32, 1, &X.check_win);
    xcb_change_property(X.c, XCB_PROP_MODE_REPLACE, X.check_win, atom(A_NET_WM_NAME),
                        atom(A_UTF8_STRING), 8, sizeof name - 1, name);
    xcb_change_property(X.c, XCB_PROP_MODE_REPLACE, X.root, atom(A_NET_SUPPORTING_WM_CHECK),
                        XCB_ATOM_WINDOW, 32, 1, &X.check_win);
    set_supported();

    adopt_existing();

    /* ICCCM manager selection WM_S0, announced with MANAGER */
    selection_take(X.c, X.check_win, A_WM_S0, t);
    logmsg("owns WM_S0 (window %u), check window %u", X.check_win, X.check_win);
}
