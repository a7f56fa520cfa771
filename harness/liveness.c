#include "liveness.h"
#include "clock.h"
#include "oracle-screen.h"
#include "xutil.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xcb/damage.h>

/* The barrier window's colour: no frame colour (its blue byte is not the marker), so no case's
 * record can be taken for it, and far from the usual black or grey backgrounds. */
#define LIVENESS_RGB 0x2E9D5Cu
#define LIVENESS_SIZE 48
/* Without a damage event, look at the pixel again this often (a compositor that paints the root
 * without damaging it, or damage events lost while the window was not yet there). */
#define RESAMPLE_MS 25

struct barrier {
    xcb_connection_t *c;
    xcb_window_t root, win;
    struct pixel_format pf;
    uint8_t damage_event;
    int64_t deadline_us;
    const struct capture *capture; /* the screen is seen through it, or NULL: the root */
    char capture_error[512];       /* why the last capture failed ("": it did not) */
};

static int left_ms(const struct barrier *b)
{
    int64_t left = (b->deadline_us - clock_now_us()) / 1000;
    return left > 0 ? (int)left : 0;
}

/* Paints the window as a client does after its map or an Expose: some compositors show a window
 * only once its client drew into it (KWin's readyForPainting waits for the first damage), and the
 * background the server paints at the map may come before they watch it. */
static void paint(struct barrier *b)
{
    xcb_gcontext_t gc = xcb_generate_id(b->c);
    uint32_t fg = screen_pixel_of_rgb(&b->pf, LIVENESS_RGB);
    xcb_create_gc(b->c, gc, b->win, XCB_GC_FOREGROUND, &fg);
    xcb_rectangle_t all = {0, 0, LIVENESS_SIZE, LIVENESS_SIZE};
    xcb_poly_fill_rectangle(b->c, b->win, gc, 1, &all);
    xcb_free_gc(b->c, gc);
    xcb_flush(b->c);
}

/* Waits for an event (or up to ms); returns the number of events drained, which are wake-ups
 * here: MapNotify of our window sets *mapped and paints it, as does an Expose. */
static int wake(struct barrier *b, int ms, bool *mapped)
{
    int n = 0;
    xcb_generic_event_t *e;
    struct pollfd pfd = {.fd = xcb_get_file_descriptor(b->c), .events = POLLIN};
    if (!(e = xcb_poll_for_event(b->c))) {
        poll(&pfd, 1, ms);
        e = xcb_poll_for_event(b->c);
    }
    for (; e; e = xcb_poll_for_event(b->c), n++) {
        uint8_t type = e->response_type & 0x7F;
        if (type == XCB_MAP_NOTIFY && ((xcb_map_notify_event_t *)e)->window == b->win) {
            *mapped = true;
            paint(b);
        } else if (type == XCB_EXPOSE && ((xcb_expose_event_t *)e)->window == b->win)
            paint(b);
        free(e);
    }
    return n;
}

static bool open_barrier(struct barrier *b, struct xserver *x, int deadline_ms)
{
    memset(b, 0, sizeof *b);
    b->deadline_us = clock_now_us() + (int64_t)deadline_ms * 1000;
    b->c = xcb_connect(x->display_name, NULL);
    if (xcb_connection_has_error(b->c))
        return false;
    const xcb_setup_t *setup = xcb_get_setup(b->c);
    xcb_screen_t *scr = xcb_setup_roots_iterator(setup).data;
    b->root = scr->root;
    if (!screen_pixel_format(setup, scr, &b->pf))
        return false;
    b->win = xcb_generate_id(b->c);
    uint32_t values[] = {screen_pixel_of_rgb(&b->pf, LIVENESS_RGB), XCB_EVENT_MASK_STRUCTURE_NOTIFY | XCB_EVENT_MASK_EXPOSURE};
    xcb_create_window(b->c, XCB_COPY_FROM_PARENT, b->win, b->root, 16, 16, LIVENESS_SIZE, LIVENESS_SIZE, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, scr->root_visual, XCB_CW_BACK_PIXEL | XCB_CW_EVENT_MASK, values);
    /* named, and each one differently, so a capture that finds a window by its name
     * (tools/weston-capture) finds this one and not an earlier barrier's that is still shown (X ids
     * are reused by the next connection) */
    static unsigned made;
    char name[64];
    int len = snprintf(name, sizeof name, "framesync liveness (pid %d, window %u)", (int)getpid(), ++made);
    xcb_change_property(b->c, XCB_PROP_MODE_REPLACE, b->win, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8, (uint32_t)len,
                        name);
    return true;
}

static void close_barrier(struct barrier *b)
{
    if (!b->c)
        return;
    if (!xcb_connection_has_error(b->c))
        xcb_destroy_window(b->c, b->win);
    xu_disconnect(b->c); /* the server destroys what is left with the connection */
}

/* The window's centre in root coordinates (a WM may have placed and reparented it anywhere). */
static bool centre(struct barrier *b, int *cx, int *cy)
{
    xcb_translate_coordinates_reply_t *t = xcb_translate_coordinates_reply(
        b->c, xcb_translate_coordinates(b->c, b->win, b->root, LIVENESS_SIZE / 2, LIVENESS_SIZE / 2), NULL);
    if (!t)
        return false;
    *cx = t->dst_x;
    *cy = t->dst_y;
    free(t);
    return true;
}

/* Does the screen show the window's colour at (cx, cy)?  *seen: what it shows there.  The root, or
 * the compositor's own picture (a 1x1 capture). */
static bool shows_colour(struct barrier *b, int cx, int cy, uint32_t *seen)
{
    if (b->capture) {
        struct image im;
        char err[512];
        if (capture_region(b->capture, b->win, cx, cy, 1, 1, &im, err, sizeof err) < 0) {
            snprintf(b->capture_error, sizeof b->capture_error, "%s", err);
            return false;
        }
        int64_t px = image_pixel(&im, 0, 0);
        image_free(&im);
        b->capture_error[0] = 0;
        *seen = px < 0 ? 0 : (uint32_t)px;
        return px == (int64_t)LIVENESS_RGB;
    }
    xcb_get_image_reply_t *img = xcb_get_image_reply(
        b->c, xcb_get_image(b->c, XCB_IMAGE_FORMAT_Z_PIXMAP, b->root, (int16_t)cx, (int16_t)cy, 1, 1, ~0u), NULL);
    bool ok = img && screen_decode_pixel(&b->pf, xcb_get_image_data(img), (size_t)xcb_get_image_data_length(img),
                                         seen) == 0 && *seen == LIVENESS_RGB;
    free(img);
    return ok;
}

/* Damage on the root wakes the wait for the window's pixel (under a compositor, clients'
 * drawing does not damage the root: only the compositor's painting does). */
static void watch_root_damage(struct barrier *b)
{
    const xcb_query_extension_reply_t *dmg = xcb_get_extension_data(b->c, &xcb_damage_id);
    if (!dmg || !dmg->present)
        return;
    free(xcb_damage_query_version_reply(b->c, xcb_damage_query_version(b->c, 1, 1), NULL));
    xcb_damage_create(b->c, xcb_generate_id(b->c), b->root, XCB_DAMAGE_REPORT_LEVEL_NON_EMPTY);
}

/* The top-level window (a child of the root) that holds w: its WM's frame, or w itself. */
static xcb_window_t toplevel_of(xcb_connection_t *c, xcb_window_t root, xcb_window_t w)
{
    for (int depth = 0; depth < 16; depth++) {
        xcb_query_tree_reply_t *t = xcb_query_tree_reply(c, xcb_query_tree(c, w), NULL);
        if (!t)
            return XCB_NONE;
        xcb_window_t parent = t->parent;
        free(t);
        if (parent == root)
            return w;
        w = parent;
    }
    return XCB_NONE;
}

/* When the window is not seen: the topmost mapped top-level at (x, y), when it is not the
 * barrier's own (a window stacked above it hides it, whoever paints); its WM_CLASS in *cls. */
static xcb_window_t covered_by(struct barrier *b, int x, int y, char *cls, size_t len)
{
    cls[0] = 0;
    xcb_window_t own = toplevel_of(b->c, b->root, b->win), found = XCB_NONE;
    xcb_query_tree_reply_t *t = xcb_query_tree_reply(b->c, xcb_query_tree(b->c, b->root), NULL);
    if (!t || own == XCB_NONE) {
        free(t);
        return XCB_NONE;
    }
    xcb_window_t *kids = xcb_query_tree_children(t);
    for (int i = xcb_query_tree_children_length(t) - 1; i >= 0 && found == XCB_NONE; i--) { /* top first */
        xcb_get_window_attributes_reply_t *a =
            xcb_get_window_attributes_reply(b->c, xcb_get_window_attributes(b->c, kids[i]), NULL);
        xcb_get_geometry_reply_t *g = xcb_get_geometry_reply(b->c, xcb_get_geometry(b->c, kids[i]), NULL);
        if (a && g && a->map_state == XCB_MAP_STATE_VIEWABLE && a->_class == XCB_WINDOW_CLASS_INPUT_OUTPUT &&
            x >= g->x && y >= g->y && x < g->x + g->width + 2 * g->border_width &&
            y < g->y + g->height + 2 * g->border_width)
            found = kids[i];
        free(a);
        free(g);
    }
    free(t);
    if (found == own)
        return XCB_NONE;
    /* its WM_CLASS, or that of the client window a frame holds */
    xcb_window_t look[2] = {found, XCB_NONE};
    xcb_query_tree_reply_t *ft = xcb_query_tree_reply(b->c, xcb_query_tree(b->c, found), NULL);
    if (ft && xcb_query_tree_children_length(ft) > 0)
        look[1] = xcb_query_tree_children(ft)[0];
    free(ft);
    for (int i = 0; i < 2 && !cls[0] && look[i]; i++) {
        xcb_get_property_reply_t *p = xcb_get_property_reply(
            b->c, xcb_get_property(b->c, 0, look[i], XCB_ATOM_WM_CLASS, XCB_ATOM_STRING, 0, 64), NULL);
        size_t n = p ? (size_t)xcb_get_property_value_length(p) : 0;
        if (n > 0) { /* "instance\0class\0": the class */
            const char *v = xcb_get_property_value(p), *name = v;
            size_t first = strnlen(v, n);
            if (first + 1 < n)
                name = v + first + 1;
            snprintf(cls, len, "%.*s", (int)strnlen(name, n - (size_t)(name - v)), name);
        }
        free(p);
    }
    return found;
}

static enum liveness verdict(enum liveness v, char *why, size_t len, const char *fmt, int ms)
{
    snprintf(why, len, fmt, ms);
    return v;
}

enum liveness liveness_check(const struct run_env *env, int deadline_ms, char *why, size_t len)
{
    struct compositor *c = env->wm;
    struct xserver *x = env->x;
    char how[128];
    why[0] = 0;
    if (!compositor_alive(c)) {
        snprintf(why, len, "%s", proc_describe_exit(c->proc, how, sizeof how));
        return LIVE_EXITED;
    }
    if (proc_is_stopped(c->proc)) {
        snprintf(why, len, "it is stopped (state T): it runs no more");
        return LIVE_STOPPED;
    }
    struct barrier b;
    if (!open_barrier(&b, x, deadline_ms)) {
        close_barrier(&b);
        if (x->proc)
            return LIVE_OK; /* our Xvfb's trouble, not the compositor's: the case's verdict says it */
        snprintf(why, len, "its X server %s takes no connection any more", x->display_name);
        return LIVE_NO_SERVER; /* the server it brought went away: with the compositor, or before it */
    }
    bool wm = xu_selection_owner(x->conn, "WM_S0") != XCB_NONE;
    /* painting is asked of a compositor only where something can see the screen */
    bool cm = xu_selection_owner(x->conn, "_NET_WM_CM_S0") != XCB_NONE && !env->no_screen;
    b.capture = env->capture;
    if (cm && !b.capture)
        watch_root_damage(&b);
    xcb_map_window(b.c, b.win);
    xcb_flush(b.c);
    bool mapped = false;
    while (!mapped && left_ms(&b) > 0 && compositor_alive(c)) /* without a WM the MapNotify comes at once */
        wake(&b, left_ms(&b), &mapped);
    enum liveness v = LIVE_OK;
    int cx = 0, cy = 0;
    if (!compositor_alive(c))
        v = LIVE_EXITED;
    else if (!mapped && wm)
        v = verdict(LIVE_NO_MAP, why, len, "it did not map a new window within %d ms: it answers no MapRequest",
                    deadline_ms);
    else if (cm && centre(&b, &cx, &cy)) {
        uint32_t seen = 0;
        bool shown = shows_colour(&b, cx, cy, &seen);
        while (!shown && left_ms(&b) > 0 && compositor_alive(c)) {
            wake(&b, left_ms(&b) < RESAMPLE_MS ? left_ms(&b) : RESAMPLE_MS, &mapped);
            /* where it is now: a WM may place and decorate it after the MapNotify (KWin) */
            shown = centre(&b, &cx, &cy) && shows_colour(&b, cx, cy, &seen);
        }
        if (!compositor_alive(c))
            v = LIVE_EXITED;
        else if (!shown && b.capture_error[0]) /* the harness's own trouble: it cannot see, so it decides nothing */
            fprintf(stderr, "framesync: the liveness barrier could not see the screen: %s\n", b.capture_error);
        else if (!shown) {
            char cls[64], above[160] = "";
            xcb_window_t cover = covered_by(&b, cx, cy, cls, sizeof cls);
            if (cover != XCB_NONE)
                snprintf(above, sizeof above, "; window 0x%x%s%s%s is stacked above it there", cover,
                         cls[0] ? " (WM_CLASS " : "", cls, cls[0] ? ")" : "");
            snprintf(why, len, "it mapped a new window but did not show it within %d ms (the screen at its centre "
                     "%d,%d stayed %06X, the window is %06X%s): it paints no more", deadline_ms, cx, cy, seen,
                     LIVENESS_RGB, above), v = LIVE_NO_PAINT;
        }
    }
    close_barrier(&b);
    if (v == LIVE_EXITED)
        snprintf(why, len, "%s", proc_describe_exit(c->proc, how, sizeof how));
    return v;
}
