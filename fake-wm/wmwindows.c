/* The toplevels' lives on the WM connection (wmint.h): created, destroyed, reparented, mapped
 * (MapRequest: managed, then mapped; no reparenting, no decorations), unmapped (withdrawn),
 * configured (ConfigureRequest: through the sync request protocol), restacked. */
#include "wmint.h"

#include "comp.h"
#include "drawn.h"
#include "embedded.h"
#include "features.h"
#include "fences.h"
#include "policies.h"
#include "log.h"
#include "moveresize.h"
#include "probebreak.h"
#include "state.h"
#include "sync.h"
#include "variants.h"
#include "win.h"
#include "winops.h"

#include <stdlib.h>

static void unmanage(struct win *w, const char *why)
{
    if (!w->managed)
        return;
    w->managed = false;
    embedded_forget(w);
    moveresize_window_gone(w);
    sync_unmanage(w);
    logmsg("window %u: %s (%s)", w->id, is_wm() ? "unmanaged" : "no longer observed", why);
}

void wm_on_create_notify(const xcb_create_notify_event_t *e)
{
    if (e->parent != X.root || win_find(e->window))
        return;
    struct win *w = win_add(e->window, e->x, e->y, e->width, e->height, e->border_width, e->override_redirect);
    w->own = win_is_own(e->window);
    if (compositing() && !w->own)
        comp_window_created(w);
}

void wm_on_destroy_notify(const xcb_destroy_notify_event_t *e)
{
    struct win *w = win_find(e->window);
    if (!w)
        return;
    w->destroyed = true;
    if (w->managed)
        logmsg("window %u: destroyed", w->id);
    unmanage(w, "destroyed");
    if (compositing())
        comp_window_destroyed(w);
    win_free(w);
}

void wm_on_reparent_notify(const xcb_reparent_notify_event_t *e)
{
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
        /* no longer a toplevel: a client that embeds its window in another one (ICCCM 4.1.4: after
         * withdrawing it; without, the reparent's own unmap withdrew it) takes it out of the
         * protocol; the window it went into is shown and synced as before (embedded.c) */
        embedded_reparented(w, win_find(e->parent));
        unmanage(w, "reparented away from the root");
        if (compositing())
            comp_window_destroyed(w);
        win_free(w);
    }
}

void wm_on_map_request(const xcb_map_request_event_t *e)
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
    probe_break_at_map_request(w->id);
    if (!w->managed) {
        w->managed = true;
        sync_manage(w);
        if (compositing())
            fences_read(w);
        wm_set_state(w->id, 1 /* NormalState */);
        if (VARIANT(SYNC_AT_MAP) && sync_request_at_map(w))
            return; /* mapped when the counter reaches the request (sync_wait_done) */
        if (POLICY(SHOW_AFTER_FIRST_ANSWER))
            sync_request_before_show(w); /* mapped now, painted once answered */
    }
    if (compositing())
        drawn_before_map(w);
    wm_map(w);
}

void wm_on_map_notify(const xcb_map_notify_event_t *e)
{
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
    if (compositing())
        comp_window_mapped(w);
}

void wm_on_unmap_notify(const xcb_unmap_notify_event_t *e)
{
    struct win *w = win_find(e->window);
    if (!w)
        return;
    if (e->event == X.root && !(e->response_type & 0x80)) {
        w->mapped = false;
        if (compositing())
            comp_window_unmapped(w);
    }
    /* no reparenting: an unmap of a managed window is a withdrawal (ICCCM 4.1.4) */
    if (w->managed) {
        if (is_wm())
            wm_set_state(w->id, 0 /* WithdrawnState */);
        unmanage(w, "unmapped");
    }
}

void wm_on_configure_request(const xcb_configure_request_event_t *e)
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

void wm_on_configure_notify(const xcb_configure_notify_event_t *e)
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
    if (compositing())
        comp_window_configured(w, resized, moved || restacked);
}

void wm_on_circulate_request(const xcb_circulate_request_event_t *e)
{
    xcb_circulate_window(X.c, e->place == XCB_PLACE_ON_TOP ? XCB_CIRCULATE_RAISE_LOWEST
                                                           : XCB_CIRCULATE_LOWER_HIGHEST,
                         X.root);
}

void wm_on_circulate_notify(const xcb_circulate_notify_event_t *e)
{
    struct win *w = win_find(e->window);
    if (!w)
        return;
    stack_to_end(w, e->place == XCB_PLACE_ON_TOP);
    if (compositing())
        comp_window_configured(w, false, true);
}
