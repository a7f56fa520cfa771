/* Window management on the WM connection: WM_S0, the supporting-WM check window,
 * _NET_SUPPORTED, SubstructureRedirect, the list of toplevels in stacking order,
 * MapRequest / ConfigureRequest / CirculateRequest. No reparenting, no decorations. */
#include "fakewm.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* ---- start-up ---- */
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

static void unmanage(struct win *w, const char *why)
{
    if (!w->managed)
        return;
    w->managed = false;
    moveresize_window_gone(w);
    sync_unmanage(w);
    logmsg("window %u: %s (%s)", w->id, is_wm() ? "unmanaged" : "no longer observed", why);
}

/* ---- faults crash-during-probe and hang-during-probe ---- */
/* The suite probes a compositor with about a dozen scenarios of one or two windows right after it
 * starts, so the 4th MapRequest breaks it during the probes, and a restarted fake-wm (counting from
 * 0 again) every few windows of the cases. */
#define BREAKING_MAP_REQUEST 4

static _Noreturn void crash_now(xcb_window_t id)
{
    logmsg("window %u: MapRequest %d since the start: aborting (fault crash-during-probe)", id,
           BREAKING_MAP_REQUEST);
    /* no core file: the self-test crashes it hundreds of times */
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    abort();
}

static _Noreturn void hang_now(xcb_window_t id)
{
    logmsg("window %u: MapRequest %d since the start: no X event is handled from now on, the connections stay "
           "open (fault hang-during-probe)",
           id, BREAKING_MAP_REQUEST);
    x_flush();
    /* the main loop took SIGTERM and SIGINT through a signalfd, which nothing reads now: back to their
     * default action, so that the harness's SIGTERM ends the process as its SIGKILL would */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    sigprocmask(SIG_UNBLOCK, &stop, NULL);
    for (;;)
        pause();
}

/* called for each MapRequest fake-wm is about to honour */
static void break_at_map_request(xcb_window_t id)
{
    static int handled;
    if (!FAULT(CRASH_DURING_PROBE) && !FAULT(HANG_DURING_PROBE))
        return;
    if (++handled < BREAKING_MAP_REQUEST)
        return;
    if (FAULT(CRASH_DURING_PROBE))
        crash_now(id);
    hang_now(id);
}

/* ---- events ---- */
static void handle_map_request(xcb_map_request_event_t *e)
{
    struct win *w = win_find(e->window);
    if (!w) {
        /* not a toplevel we know (e.g. created before a reparent): take its geometry now */
        xcb_get_geometry_reply_t *g = xcb_get_geometry_reply(X.c, xcb_get_geometry(X.c, e->window), NULL);
        if (!g) {
            logmsg("window %u: MapRequest for a window that is gone, ignored", e->window);
            return;
        }
        w = win_add(e->window, g->x, g->y, g->width, g->height, g->border_width, false);
        free(g);
    }
    if (w->map_after_wait) {
        logmsg("window %u: MapRequest while its map waits for the sync request at map: ignored", w->id);
        return;
    }
    break_at_map_request(w->id);
    if (!w->managed) {
        w->managed = true;
        sync_manage(w);
        if (opt.composite)
            fences_read(w);
        wm_set_state(w->id, 1 /* NormalState */);
        if (VARIANT(SYNC_AT_MAP) && sync_request_at_map(w))
            return; /* mapped when the counter reaches the request (sync_wait_done) */
    }
    wm_map(w);
}

static void handle_configure_request(xcb_configure_request_event_t *e)
{
    struct configure_req r = {
        .mask = e->value_mask,
        .x = e->x,
        .y = e->y,
        .width = e->width,
        .height = e->height,
        .border_width = e->border_width,
        .sibling = e->sibling,
        .stack_mode = e->stack_mode,
    };
    struct win *w = win_find(e->window);
    if (!w || !w->managed) {
        /* not managed (not mapped yet): honoured as it is */
        wm_configure_raw(e->window, &r);
        if (w)
            wm_note_given_geometry(w, &r);
        logv("window %u: ConfigureRequest of an unmanaged window applied", e->window);
        return;
    }
    sync_configure_request(w, &r, ORIGIN_CLIENT);
}

static void handle_configure_notify(xcb_configure_notify_event_t *e)
{
    if (e->event != X.root)
        return;
    struct win *w = win_find(e->window);
    if (!w)
        return;
    bool resized = e->width != w->w || e->height != w->h || e->border_width != w->bw;
    bool moved = e->x != w->x || e->y != w->y;
    w->x = e->x;
    w->y = e->y;
    w->w = e->width;
    w->h = e->height;
    w->bw = e->border_width;
    w->override_redirect = e->override_redirect;
    bool restacked = stack_place_above(w, e->above_sibling);
    if (opt.composite)
        comp_window_configured(w, resized, moved || restacked);
}

void wm_handle_event(xcb_generic_event_t *ev)
{
    uint8_t type = ev->response_type & 0x7f;
    if (type == X.sync_event_base + XCB_SYNC_ALARM_NOTIFY) {
        xcb_sync_alarm_notify_event_t *a = (xcb_sync_alarm_notify_event_t *)ev;
        note_time(a->timestamp);
        sync_handle_alarm(a);
        return;
    }
    switch (type) {
    case XCB_CREATE_NOTIFY: {
        xcb_create_notify_event_t *e = (xcb_create_notify_event_t *)ev;
        if (e->parent != X.root || win_find(e->window))
            return;
        struct win *w = win_add(e->window, e->x, e->y, e->width, e->height, e->border_width, e->override_redirect);
        w->own = win_is_own(e->window);
        if (opt.composite && !w->own)
            comp_window_created(w);
        return;
    }
    case XCB_DESTROY_NOTIFY: {
        xcb_destroy_notify_event_t *e = (xcb_destroy_notify_event_t *)ev;
        struct win *w = win_find(e->window);
        if (!w)
            return;
        w->destroyed = true;
        if (w->managed)
            logmsg("window %u: destroyed", w->id);
        unmanage(w, "destroyed");
        if (opt.composite)
            comp_window_destroyed(w);
        win_free(w);
        return;
    }
    case XCB_REPARENT_NOTIFY: {
        xcb_reparent_notify_event_t *e = (xcb_reparent_notify_event_t *)ev;
        struct win *w = win_find(e->window);
        if (e->parent == X.root) {
            if (!w && !win_is_own(e->window)) {
                xcb_get_geometry_reply_t *g =
                    xcb_get_geometry_reply(X.c, xcb_get_geometry(X.c, e->window), NULL);
                if (g) {
                    win_add(e->window, e->x, e->y, g->width, g->height, g->border_width,
                            e->override_redirect);
                    free(g);
                }
            }
        } else if (w) {
            /* no longer a toplevel */
            unmanage(w, "reparented away from the root");
            if (opt.composite)
                comp_window_destroyed(w);
            win_free(w);
        }
        return;
    }
    case XCB_MAP_REQUEST:
        handle_map_request((xcb_map_request_event_t *)ev);
        return;
    case XCB_MAP_NOTIFY: {
        xcb_map_notify_event_t *e = (xcb_map_notify_event_t *)ev;
        if (e->event != X.root)
            return;
        struct win *w = win_find(e->window);
        if (!w || w->own)
            return;
        w->mapped = true;
        w->override_redirect = e->override_redirect;
        if (!is_wm() && !w->override_redirect && !w->managed) {
            /* cm-only: the client mapped itself; its counters are read now, before the compositor
             * decides whether its first frame is part of an update */
            w->managed = true;
            sync_manage(w);
        }
        if (opt.composite)
            comp_window_mapped(w);
        return;
    }
    case XCB_UNMAP_NOTIFY: {
        xcb_unmap_notify_event_t *e = (xcb_unmap_notify_event_t *)ev;
        struct win *w = win_find(e->window);
        if (!w)
            return;
        if (e->event == X.root && !(ev->response_type & 0x80)) {
            w->mapped = false;
            if (opt.composite)
                comp_window_unmapped(w);
        }
        /* no reparenting: an unmap of a managed window is a withdrawal (ICCCM 4.1.4) */
        if (w->managed) {
            if (is_wm())
                wm_set_state(w->id, 0 /* WithdrawnState */);
            unmanage(w, "unmapped");
        }
        return;
    }
    case XCB_CONFIGURE_REQUEST:
        handle_configure_request((xcb_configure_request_event_t *)ev);
        return;
    case XCB_CONFIGURE_NOTIFY:
        handle_configure_notify((xcb_configure_notify_event_t *)ev);
        return;
    case XCB_CIRCULATE_REQUEST: {
        xcb_circulate_request_event_t *e = (xcb_circulate_request_event_t *)ev;
        xcb_circulate_window(X.c, e->place == XCB_PLACE_ON_TOP ? XCB_CIRCULATE_RAISE_LOWEST
                                                               : XCB_CIRCULATE_LOWER_HIGHEST,
                             X.root);
        return;
    }
    case XCB_CIRCULATE_NOTIFY: {
        xcb_circulate_notify_event_t *e = (xcb_circulate_notify_event_t *)ev;
        struct win *w = win_find(e->window);
        if (!w)
            return;
        stack_to_end(w, e->place == XCB_PLACE_ON_TOP);
        if (opt.composite)
            comp_window_configured(w, false, true);
        return;
    }
    case XCB_PROPERTY_NOTIFY: {
        xcb_property_notify_event_t *e = (xcb_property_notify_event_t *)ev;
        note_time(e->time);
        return;
    }
    case XCB_SELECTION_CLEAR: {
        xcb_selection_clear_event_t *e = (xcb_selection_clear_event_t *)ev;
        note_time(e->time);
        if (e->selection == atom(A_WM_S0)) {
            logmsg("lost WM_S0 to another window manager, exiting");
            x_flush();
            exit(0);
        }
        return;
    }
    case XCB_SELECTION_REQUEST: {
        xcb_selection_request_event_t *e = (xcb_selection_request_event_t *)ev;
        note_time(e->time);
        selection_refuse(X.c, e);
        return;
    }
    case XCB_CLIENT_MESSAGE: {
        xcb_client_message_event_t *e = (xcb_client_message_event_t *)ev;
        if (e->type == atom(A_NET_WM_MOVERESIZE)) {
            moveresize_client_message(e);
            return;
        }
        if (control_client_message(e))
            return;
        logmsg("client message type %u to window %u ignored (not implemented)", e->type, e->window);
        return;
    }
    case XCB_KEY_PRESS: {
        xcb_key_press_event_t *e = (xcb_key_press_event_t *)ev;
        note_time(e->time);
        kbd_resize_key_press(e);
        return;
    }
    case XCB_MAPPING_NOTIFY:
        kbd_resize_mapping_changed();
        return;
    case XCB_MOTION_NOTIFY: {
        xcb_motion_notify_event_t *e = (xcb_motion_notify_event_t *)ev;
        note_time(e->time);
        ptr_resize_motion(e);
        return;
    }
    case XCB_BUTTON_RELEASE: {
        xcb_button_release_event_t *e = (xcb_button_release_event_t *)ev;
        note_time(e->time);
        ptr_resize_button_release(e);
        return;
    }
    case XCB_KEY_RELEASE:
    case XCB_BUTTON_PRESS: {
        xcb_key_press_event_t *e = (xcb_key_press_event_t *)ev;
        note_time(e->time);
        return;
    }
    case XCB_ENTER_NOTIFY:
    case XCB_LEAVE_NOTIFY: {
        xcb_enter_notify_event_t *e = (xcb_enter_notify_event_t *)ev;
        note_time(e->time);
        return;
    }
    default:
        logv("event type %u ignored", type);
        return;
    }
}

void wm_check_timers(int64_t now)
{
    sync_check_timers(now);
    moveresize_check_timers(now);
}

int64_t wm_next_deadline(void)
{
    int64_t a = sync_next_deadline(), b = moveresize_next_deadline();
    if (a < 0)
        return b;
    if (b < 0)
        return a;
    return a < b ? a : b;
}
