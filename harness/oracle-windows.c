/* The case's windows as the screen oracles see them (oracle-windows.h). */
#include "oracle-windows.h"
#include "capture.h"
#include "clock.h"
#include "proc.h"
#include "frame-colour.h"
#include "session.h"
#include "timeline.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void screen_behind_note(struct screen_behind *b, bool mapped, int x, int y, uint32_t rgb)
{
    if (mapped || frame_of_colour(rgb) >= 0)
        return;
    *b = (struct screen_behind){.known = true, .x = x, .y = y, .rgb = rgb};
}

int screen_behind_changed(const struct screen_behind *b, int x, int y, uint32_t rgb)
{
    if (!b->known || b->x != x || b->y != y)
        return -1;
    return (rgb & 0xFFFFFFu) != (b->rgb & 0xFFFFFFu);
}

void ow_init(struct ow_tracker *t, xcb_connection_t *c, xcb_window_t root, int width, int height)
{
    *t = (struct ow_tracker){.c = c, .root = root, .width = width, .height = height};
}

struct ow_window *ow_find(struct ow_tracker *t, xcb_window_t id)
{
    for (int i = 0; i < t->nwins; i++)
        if (t->wins[i].window == id && !t->wins[i].gone)
            return &t->wins[i];
    return NULL;
}

struct ow_window *ow_event_window(struct ow_tracker *t, const xcb_generic_event_t *e, xcb_window_t id)
{
    struct ow_window *w = ow_find(t, id);
    return w && (int32_t)(e->full_sequence - w->select_seq) >= 0 ? w : NULL;
}

void ow_refresh_geometry(struct ow_tracker *t)
{
    xcb_get_geometry_cookie_t gc[OW_MAX_WINDOWS];
    xcb_translate_coordinates_cookie_t tc[OW_MAX_WINDOWS];
    for (int i = 0; i < t->nwins; i++) {
        struct ow_window *w = &t->wins[i];
        if (w->gone || !w->geom_dirty)
            continue;
        gc[i] = xcb_get_geometry(t->c, w->window);
        tc[i] = xcb_translate_coordinates(t->c, w->window, t->root, 0, 0);
    }
    for (int i = 0; i < t->nwins; i++) {
        struct ow_window *w = &t->wins[i];
        if (w->gone || !w->geom_dirty)
            continue;
        w->geom_dirty = false;
        xcb_get_geometry_reply_t *g = xcb_get_geometry_reply(t->c, gc[i], NULL);
        xcb_translate_coordinates_reply_t *tr = xcb_translate_coordinates_reply(t->c, tc[i], NULL);
        w->geom_valid = g && tr; /* not valid: destroyed meanwhile */
        if (w->geom_valid) {
            w->cx = tr->dst_x + g->width / 2;
            w->cy = tr->dst_y + g->height / 2;
            w->rx = tr->dst_x;
            w->ry = tr->dst_y;
            w->rw = g->width + 2 * g->border_width;
            w->rh = g->height + 2 * g->border_width;
        }
        free(g);
        free(tr);
    }
}

bool ow_on_screen(const struct ow_tracker *t, const struct ow_window *w)
{
    return !w->gone && w->geom_valid && w->cx >= 0 && w->cy >= 0 && w->cx < t->width && w->cy < t->height;
}

const char *ow_shows_news(struct ow_window *w, uint32_t rgb, int x, int y, const char *kind)
{
    const char *via = !w->have_value ? "create" : w->mapped != w->shown_mapped ? (w->mapped ? "map" : "unmap")
                      : w->rgb != rgb ? kind
                      : w->shown_x != x || w->shown_y != y ? "moved" : NULL;
    if (!via)
        return NULL;
    w->have_value = true;
    w->rgb = rgb;
    w->shown_x = x;
    w->shown_y = y;
    w->shown_mapped = w->mapped;
    return via;
}

bool ow_set_mapped(struct ow_window *w, bool mapped)
{
    bool changed = w->mapped != mapped;
    w->mapped = mapped;
    w->geom_dirty = true;
    return changed;
}

enum ow_change ow_event(struct ow_tracker *t, const xcb_generic_event_t *e, struct ow_window **w)
{
    switch (e->response_type & 0x7F) {
    case XCB_CONFIGURE_NOTIFY:
        if ((*w = ow_event_window(t, e, ((const xcb_configure_notify_event_t *)e)->window)))
            return (*w)->geom_dirty = true, OW_GEOMETRY;
        break;
    case XCB_REPARENT_NOTIFY:
        if ((*w = ow_event_window(t, e, ((const xcb_reparent_notify_event_t *)e)->window)))
            return (*w)->geom_dirty = true, OW_GEOMETRY;
        break;
    case XCB_MAP_NOTIFY:
        if ((*w = ow_event_window(t, e, ((const xcb_map_notify_event_t *)e)->window)))
            return OW_MAP;
        break;
    case XCB_UNMAP_NOTIFY:
        if ((*w = ow_event_window(t, e, ((const xcb_unmap_notify_event_t *)e)->window)))
            return OW_UNMAP;
        break;
    case XCB_DESTROY_NOTIFY:
        if ((*w = ow_event_window(t, e, ((const xcb_destroy_notify_event_t *)e)->window)))
            return (*w)->gone = true, OW_GONE;
        break;
    }
    return OW_NOTHING;
}

static void forget_client(struct ow_tracker *t, const char *client)
{
    for (int i = 0; i < t->nwins; i++)
        if (!strcmp(t->wins[i].client, client))
            t->wins[i].gone = true;
}

enum ow_change ow_record(struct ow_tracker *t, const struct record *r, xcb_window_t *xid, struct ow_window **w)
{
    const char *win = record_get(r, "window");
    *xid = win ? (xcb_window_t)strtoul(win, NULL, 10) : 0;
    *w = NULL;
    if (!strcmp(r->kind, "done")) {
        const char *cmd = record_get(r, "cmd");
        if (cmd && !strcmp(cmd, "create") && *xid)
            return OW_CREATE;
        if (cmd && !strcmp(cmd, "destroy")) {
            forget_client(t, r->source);
            return OW_DESTROY;
        }
        return OW_NOTHING;
    }
    if (!(*w = ow_find(t, *xid)))
        return OW_NOTHING;
    if (!strcmp(r->kind, "map-notify"))
        return OW_MAP;
    if (!strcmp(r->kind, "unmap-notify"))
        return OW_UNMAP;
    if (!strcmp(r->kind, "configure-notify") || !strcmp(r->kind, "reparent-notify"))
        return (*w)->geom_dirty = true, OW_GEOMETRY;
    return OW_NOTHING;
}

struct ow_window *ow_add(struct ow_tracker *t, const char *client, xcb_window_t xid)
{
    forget_client(t, client);
    if (t->nwins == OW_MAX_WINDOWS)
        return NULL;
    struct ow_window *w = &t->wins[t->nwins++];
    *w = (struct ow_window){.window = xid, .geom_dirty = true};
    snprintf(w->client, sizeof w->client, "%s", client);
    const uint32_t mask = XCB_EVENT_MASK_STRUCTURE_NOTIFY;
    w->select_seq = xcb_change_window_attributes(t->c, xid, XCB_CW_EVENT_MASK, &mask).sequence;
    return w;
}

void ow_case_end(struct ow_tracker *t)
{
    t->nold = 0;
    for (int i = 0; i < t->nwins; i++)
        if (t->wins[i].geom_valid)
            t->old[t->nold++] = (xcb_rectangle_t){(int16_t)t->wins[i].rx, (int16_t)t->wins[i].ry,
                                                  (uint16_t)t->wins[i].rw, (uint16_t)t->wins[i].rh};
    t->nwins = 0;
}

static bool settled(struct ow_tracker *t, int max_ms, const struct ow_settle_ops *ops)
{
    int64_t deadline = clock_now_us() + (int64_t)max_ms * 1000;
    for (;;) {
        bool stale = false;
        for (int i = 0; i < t->nold && !stale; i++)
            stale = ops->frame_colour_in(ops->ctx, t->old[i]);
        if (!stale)
            return true;
        int64_t left = deadline - clock_now_us();
        if (left <= 0 || !ops->wait(ops->ctx, left))
            return false;
    }
}

void ow_settle(struct ow_tracker *t, struct session *s, bool active, int max_ms, const struct ow_settle_ops *ops)
{
    if (active && t->nold > 0) {
        int64_t t0 = clock_now_us();
        if (!settled(t, max_ms, ops)) {
            struct record *r = record_make("screen", t0, "stale windows=%d msg=frame colours of the last case's "
                                           "windows were still on screen after %d ms", t->nold, max_ms);
            if (r)
                session_add_record(s, r);
        }
    }
    t->nold = 0;
}

bool ow_capture_shows_frame(void *capture, xcb_rectangle_t r)
{
    struct image im;
    char err[512];
    if (capture_region(capture, 0, r.x, r.y, r.width, r.height, &im, err, sizeof err) < 0)
        return false;
    bool found = false;
    for (int y = 0; y < im.h && !found; y++)
        for (int x = 0; x < im.w && !found; x++)
            found = frame_of_colour((uint32_t)image_pixel(&im, x, y)) >= 0;
    image_free(&im);
    return found;
}

bool ow_wait_signal(void *ctx, int64_t left_us)
{
    (void)ctx;
    (void)left_us;
    if (proc_interrupted())
        return false;
    struct pollfd pfd = {.fd = proc_signal_fd(), .events = POLLIN};
    if (poll(&pfd, 1, 20) > 0)
        proc_handle_signals();
    return true;
}
