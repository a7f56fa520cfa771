#include "oracle-screen.h"
#include "clock.h"
#include "frame-colour.h"
#include "pngwrite.h"
#include "session.h"
#include "xutil.h"

#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>
#include <xcb/damage.h>
#include <xcb/xtest.h>

/* ---- pure parts ---- */

static int mask_shift(uint32_t m)
{
    return m ? __builtin_ctz(m) : 0;
}

static uint32_t channel8(uint32_t pixel, uint32_t mask)
{
    if (!mask)
        return 0;
    uint32_t v = (pixel & mask) >> mask_shift(mask);
    uint32_t max = mask >> mask_shift(mask);
    return max == 255 ? v : (uint32_t)(((uint64_t)v * 255 + max / 2) / max);
}

int screen_decode_pixel(const struct pixel_format *f, const uint8_t *data, size_t len, uint32_t *rgb)
{
    int bytes = f->bpp / 8;
    if ((f->bpp != 8 && f->bpp != 16 && f->bpp != 24 && f->bpp != 32) || len < (size_t)bytes)
        return -1;
    uint32_t p = 0;
    for (int i = 0; i < bytes; i++)
        p |= (uint32_t)data[f->msb_first ? i : bytes - 1 - i] << (8 * (bytes - 1 - i));
    *rgb = (channel8(p, f->red_mask) << 16) | (channel8(p, f->green_mask) << 8) | channel8(p, f->blue_mask);
    return 0;
}

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

int screen_format_shows(char *out, size_t len, const char *client, uint32_t window, uint32_t rgb,
                        int x, int y, bool mapped, const char *via, int64_t rtt_us, int changed)
{
    int n = snprintf(out, len, "shows client=%s window=%" PRIu32 " frame=%" PRId32 " rgb=%06" PRIX32
                               " x=%d y=%d mapped=%d via=%s rtt_us=%" PRId64 " changed=%s",
                     client, window, frame_of_colour(rgb), rgb & 0xFFFFFFu, x, y, mapped ? 1 : 0, via, rtt_us,
                     changed < 0 ? "unknown" : changed ? "1" : "0");
    return n > 0 && (size_t)n < len ? 0 : -1;
}

/* ---- the oracle ---- */

#define MAX_WINDOWS 16
#define POLL_INTERVAL_NS 4000000 /* 4 ms, only while a case runs and damage was not seen */

struct win {
    char client[16];
    xcb_window_t window;
    bool mapped;
    bool geom_valid, geom_dirty;
    int cx, cy;                 /* the sampled point, root coordinates */
    int rx, ry, rw, rh;         /* the whole window, root coordinates */
    bool have_value;
    uint32_t rgb;
    struct screen_behind behind; /* what was there while it was unmapped */
    const char *force;          /* emit the current state at the next sample, with this via */
    bool gone;
    uint32_t select_seq;        /* events before this request are about an earlier window of this XID */
};

struct scr_state {
    struct oracle o;
    struct xserver *x;
    xcb_connection_t *c;
    xcb_window_t root;
    int width, height;
    struct pixel_format pf;
    uint8_t damage_event;
    xcb_damage_damage_t damage;
    int epfd, tfd;
    bool timer_on;
    struct session *s;
    bool active;                /* the compositor composites: this case gets records */
    xcb_window_t cm_owner;      /* which compositor damage_works is about */
    bool damage_works;          /* its paints were seen to damage the root at a sampled point */
    bool always_poll;           /* FRAMESYNC_SCREEN_POLL=1: poll even so (to check the oracle) */
    struct win wins[MAX_WINDOWS];
    int nwins;
    xcb_rectangle_t old[MAX_WINDOWS];   /* where the last case's windows were */
    int nold;
};

static struct win *find_window(struct scr_state *st, xcb_window_t w)
{
    for (int i = 0; i < st->nwins; i++)
        if (st->wins[i].window == w && !st->wins[i].gone)
            return &st->wins[i];
    return NULL;
}

/* XIDs are reused: a client of this case gets the window ID of the last case's client, whose
 * DestroyNotify may still be queued.  An event about w older than our selection on it is not
 * about w. */
static struct win *event_window(struct scr_state *st, const xcb_generic_event_t *e, xcb_window_t id)
{
    struct win *w = find_window(st, id);
    return w && (int32_t)(e->full_sequence - w->select_seq) >= 0 ? w : NULL;
}

static void set_timer(struct scr_state *st)
{
    bool want = st->active && (!st->damage_works || st->always_poll) && st->nwins > 0;
    if (want == st->timer_on)
        return;
    struct itimerspec its = {0};
    if (want)
        its.it_interval.tv_nsec = its.it_value.tv_nsec = POLL_INTERVAL_NS;
    timerfd_settime(st->tfd, 0, &its, NULL);
    st->timer_on = want;
}

static void refresh_geometry(struct scr_state *st)
{
    xcb_get_geometry_cookie_t gc[MAX_WINDOWS];
    xcb_translate_coordinates_cookie_t tc[MAX_WINDOWS];
    for (int i = 0; i < st->nwins; i++) {
        struct win *w = &st->wins[i];
        if (w->gone || !w->geom_dirty)
            continue;
        gc[i] = xcb_get_geometry(st->c, w->window);
        tc[i] = xcb_translate_coordinates(st->c, w->window, st->root, 0, 0);
    }
    for (int i = 0; i < st->nwins; i++) {
        struct win *w = &st->wins[i];
        if (w->gone || !w->geom_dirty)
            continue;
        w->geom_dirty = false;
        xcb_get_geometry_reply_t *g = xcb_get_geometry_reply(st->c, gc[i], NULL);
        xcb_translate_coordinates_reply_t *t = xcb_translate_coordinates_reply(st->c, tc[i], NULL);
        if (g && t) {
            w->cx = t->dst_x + g->width / 2;
            w->cy = t->dst_y + g->height / 2;
            w->rx = t->dst_x;
            w->ry = t->dst_y;
            w->rw = g->width + 2 * g->border_width;
            w->rh = g->height + 2 * g->border_width;
            w->geom_valid = true;
        } else {
            w->geom_valid = false; /* destroyed meanwhile */
        }
        free(g);
        free(t);
    }
}

static bool on_screen(const struct scr_state *st, const struct win *w)
{
    return w->geom_valid && w->cx >= 0 && w->cy >= 0 && w->cx < st->width && w->cy < st->height;
}

/* One round: every window's point, pipelined; a record for each change (or forced state). */
static void sample(struct scr_state *st, const char *via)
{
    refresh_geometry(st);
    xcb_get_image_cookie_t ic[MAX_WINDOWS];
    bool sent[MAX_WINDOWS] = {0};
    int64_t t0 = clock_now_us();
    for (int i = 0; i < st->nwins; i++) {
        struct win *w = &st->wins[i];
        if (w->gone || !on_screen(st, w)) {
            w->force = NULL; /* nothing to show for it: not on screen (or gone) */
            continue;
        }
        ic[i] = xcb_get_image(st->c, XCB_IMAGE_FORMAT_Z_PIXMAP, st->root, (int16_t)w->cx, (int16_t)w->cy, 1, 1,
                              ~0u);
        sent[i] = true;
    }
    xcb_flush(st->c);
    for (int i = 0; i < st->nwins; i++) {
        if (!sent[i])
            continue;
        struct win *w = &st->wins[i];
        xcb_get_image_reply_t *r = xcb_get_image_reply(st->c, ic[i], NULL);
        int64_t rtt = clock_now_us() - t0;
        uint32_t rgb;
        if (!r || screen_decode_pixel(&st->pf, xcb_get_image_data(r), (size_t)xcb_get_image_data_length(r), &rgb) < 0) {
            free(r);
            w->force = NULL;
            continue;
        }
        free(r);
        screen_behind_note(&w->behind, w->mapped, w->cx, w->cy, rgb);
        if (w->have_value && w->rgb == rgb && !w->force)
            continue;
        w->have_value = true;
        w->rgb = rgb;
        char line[512];
        if (st->s && st->active &&
            screen_format_shows(line, sizeof line, w->client, w->window, rgb, w->cx, w->cy, w->mapped,
                                w->force ? w->force : via, rtt,
                                screen_behind_changed(&w->behind, w->cx, w->cy, rgb)) == 0) {
            struct record *rec = record_make("screen", t0, "%s", line);
            if (rec)
                session_add_record(st->s, rec);
        }
        w->force = NULL;
    }
}

static bool covers(const xcb_rectangle_t *r, int x, int y)
{
    return x >= r->x && y >= r->y && x < r->x + (int)r->width && y < r->y + (int)r->height;
}

static void set_mapped(struct win *w, bool mapped)
{
    if (w->mapped != mapped) {
        w->mapped = mapped;
        w->force = mapped ? "map" : "unmap";
    }
    w->geom_dirty = true;
}

/* Handles one event of the oracle's connection; true when it calls for a sample. */
static bool handle_event(struct scr_state *st, xcb_generic_event_t *e, bool *by_damage)
{
    uint8_t type = e->response_type & 0x7F;
    if (st->damage_event && type == st->damage_event) {
        xcb_damage_notify_event_t *d = (xcb_damage_notify_event_t *)e;
        for (int i = 0; i < st->nwins; i++) {
            struct win *w = &st->wins[i];
            if (!w->gone && w->geom_valid && covers(&d->area, w->cx, w->cy)) {
                if (st->active && w->mapped)
                    st->damage_works = true;
                *by_damage = true;
                return true;
            }
        }
        return false;
    }
    struct win *w;
    switch (type) {
    case XCB_CONFIGURE_NOTIFY:
        if ((w = event_window(st, e, ((xcb_configure_notify_event_t *)e)->window)))
            return w->geom_dirty = true;
        break;
    case XCB_REPARENT_NOTIFY:
        if ((w = event_window(st, e, ((xcb_reparent_notify_event_t *)e)->window)))
            return w->geom_dirty = true;
        break;
    case XCB_MAP_NOTIFY:
        if ((w = event_window(st, e, ((xcb_map_notify_event_t *)e)->window))) {
            set_mapped(w, true);
            return true;
        }
        break;
    case XCB_UNMAP_NOTIFY:
        if ((w = event_window(st, e, ((xcb_unmap_notify_event_t *)e)->window))) {
            set_mapped(w, false);
            return true;
        }
        break;
    case XCB_DESTROY_NOTIFY:
        if ((w = event_window(st, e, ((xcb_destroy_notify_event_t *)e)->window)))
            w->gone = true;
        break;
    }
    return false;
}

/* Takes every event, samples while anything calls for it; leaves xcb's queue empty, so the fd
 * is a faithful wake-up. */
static void process(struct scr_state *st, bool need, const char *via)
{
    for (;;) {
        bool by_damage = false;
        xcb_generic_event_t *e;
        while ((e = xcb_poll_for_event(st->c))) {
            if (handle_event(st, e, &by_damage))
                need = true;
            free(e);
        }
        for (int i = 0; i < st->nwins; i++)
            if (!st->wins[i].gone && (st->wins[i].force || st->wins[i].geom_dirty))
                need = true;
        if (!need || xcb_connection_has_error(st->c))
            break;
        need = false;
        sample(st, by_damage ? "damage" : via);
        via = "damage";
    }
    set_timer(st);
}

static void scr_readable(struct oracle *o, struct session *s)
{
    struct scr_state *st = o->state;
    st->s = s;
    uint64_t ticks = 0;
    bool poll_due = read(st->tfd, &ticks, sizeof ticks) == (ssize_t)sizeof ticks && st->active;
    process(st, poll_due, "poll");
}

static void scr_observe(struct oracle *o, struct session *s, const struct record *r)
{
    struct scr_state *st = o->state;
    if (!st->active || !strcmp(r->source, "harness") || !strcmp(r->source, "wm"))
        return;
    st->s = s;
    const char *win = record_get(r, "window");
    xcb_window_t xid = win ? (xcb_window_t)strtoul(win, NULL, 10) : 0;
    struct win *w = NULL;
    if (!strcmp(r->kind, "done")) {
        const char *cmd = record_get(r, "cmd");
        if (cmd && !strcmp(cmd, "create") && xid) {
            process(st, false, "configure"); /* what is queued about an earlier window of this ID first */
            for (int i = 0; i < st->nwins; i++)
                if (!strcmp(st->wins[i].client, r->source))
                    st->wins[i].gone = true; /* one window per client; a new create replaces it */
            if (st->nwins == MAX_WINDOWS)
                return;
            w = &st->wins[st->nwins++];
            *w = (struct win){.window = xid, .geom_dirty = true, .force = "create"};
            snprintf(w->client, sizeof w->client, "%s", r->source);
            const uint32_t mask = XCB_EVENT_MASK_STRUCTURE_NOTIFY;
            w->select_seq = xcb_change_window_attributes(st->c, xid, XCB_CW_EVENT_MASK, &mask).sequence;
        } else if (cmd && !strcmp(cmd, "destroy")) {
            for (int i = 0; i < st->nwins; i++)
                if (!strcmp(st->wins[i].client, r->source))
                    st->wins[i].gone = true;
        } else {
            return;
        }
    } else if ((w = find_window(st, xid))) {
        if (!strcmp(r->kind, "map-notify"))
            set_mapped(w, true);
        else if (!strcmp(r->kind, "unmap-notify"))
            set_mapped(w, false);
        else if (!strcmp(r->kind, "configure-notify") || !strcmp(r->kind, "reparent-notify"))
            w->geom_dirty = true;
        else
            return;
    } else {
        return;
    }
    process(st, false, "configure");
}

/* Does any pixel of the rectangle show a frame colour? */
static bool frame_colour_in(struct scr_state *st, xcb_rectangle_t r)
{
    int x0 = r.x < 0 ? 0 : r.x, y0 = r.y < 0 ? 0 : r.y;
    int x1 = r.x + r.width > st->width ? st->width : r.x + r.width;
    int y1 = r.y + r.height > st->height ? st->height : r.y + r.height;
    if (x1 <= x0 || y1 <= y0)
        return false;
    xcb_get_image_reply_t *img = xcb_get_image_reply(
        st->c, xcb_get_image(st->c, XCB_IMAGE_FORMAT_Z_PIXMAP, st->root, (int16_t)x0, (int16_t)y0,
                             (uint16_t)(x1 - x0), (uint16_t)(y1 - y0), ~0u), NULL);
    if (!img)
        return false;
    const uint8_t *d = xcb_get_image_data(img);
    size_t len = (size_t)xcb_get_image_data_length(img), h = (size_t)(y1 - y0);
    size_t stride = len / h, bpp = (size_t)st->pf.bpp / 8;
    bool found = false;
    for (size_t y = 0; y < h && !found; y++)
        for (size_t x = 0; x < (size_t)(x1 - x0) && !found; x++) {
            uint32_t rgb;
            if (screen_decode_pixel(&st->pf, d + y * stride + x * bpp, len - y * stride - x * bpp, &rgb) == 0 &&
                frame_of_colour(rgb) >= 0)
                found = true;
        }
    free(img);
    return found;
}

/* The last case's windows are gone, but the compositor may not have repainted yet: their frame
 * colours would be taken for this case's windows.  Waits (woken by damage, at most max_ms)
 * until none is left where they were; false when some still is. */
static bool settle(struct scr_state *st, int max_ms)
{
    int64_t deadline = clock_now_us() + (int64_t)max_ms * 1000;
    for (;;) {
        bool stale = false;
        for (int i = 0; i < st->nold && !stale; i++)
            stale = frame_colour_in(st, st->old[i]);
        if (!stale)
            return true;
        int64_t left = deadline - clock_now_us();
        if (left <= 0 || xcb_connection_has_error(st->c))
            return false;
        struct pollfd pfd = {.fd = xcb_get_file_descriptor(st->c), .events = POLLIN};
        poll(&pfd, 1, left > 20000 ? 20 : (int)(left / 1000) + 1); /* damage wakes it; 20 ms at most */
        xcb_generic_event_t *e;
        while ((e = xcb_poll_for_event(st->c)))
            free(e);
    }
}

static void scr_case_begin(struct oracle *o, struct session *s)
{
    struct scr_state *st = o->state;
    st->s = NULL;
    st->nwins = 0;
    st->active = false;
    process(st, false, "poll"); /* what arrived between cases belongs to no case */
    xcb_window_t cm = xu_selection_owner(st->x->conn, "_NET_WM_CM_S0");
    if (cm != st->cm_owner) {
        st->cm_owner = cm;
        st->damage_works = false;
    }
    st->active = cm != XCB_NONE;
    st->s = s;
    if (st->active && st->nold > 0) {
        int64_t t0 = clock_now_us();
        if (!settle(st, 1000)) {
            struct record *r = record_make("screen", t0, "stale windows=%d msg=frame colours of the last case's "
                                           "windows were still on screen after 1000 ms", st->nold);
            if (r)
                session_add_record(s, r);
        }
    }
    st->nold = 0;
    if (st->active) { /* the software cursor damages the root: out of the way, once per case */
        xcb_test_fake_input(st->c, XCB_MOTION_NOTIFY, 0, XCB_CURRENT_TIME, st->root, (int16_t)(st->width - 1),
                            (int16_t)(st->height - 1), 0);
        xcb_flush(st->c);
    }
    set_timer(st);
}

static void scr_case_end(struct oracle *o, struct session *s)
{
    (void)s;
    struct scr_state *st = o->state;
    st->nold = 0;
    for (int i = 0; i < st->nwins; i++)
        if (st->wins[i].geom_valid)
            st->old[st->nold++] = (xcb_rectangle_t){(int16_t)st->wins[i].rx, (int16_t)st->wins[i].ry,
                                                    (uint16_t)st->wins[i].rw, (uint16_t)st->wins[i].rh};
    st->s = NULL;
    st->active = false;
    st->nwins = 0;
    set_timer(st);
}

bool screen_pixel_format(const xcb_setup_t *setup, const xcb_screen_t *scr, struct pixel_format *pf)
{
    memset(pf, 0, sizeof *pf);
    pf->msb_first = setup->image_byte_order == XCB_IMAGE_ORDER_MSB_FIRST;
    for (xcb_format_iterator_t f = xcb_setup_pixmap_formats_iterator(setup); f.rem; xcb_format_next(&f))
        if (f.data->depth == scr->root_depth)
            pf->bpp = f.data->bits_per_pixel;
    for (xcb_depth_iterator_t d = xcb_screen_allowed_depths_iterator(scr); d.rem; xcb_depth_next(&d))
        for (xcb_visualtype_iterator_t v = xcb_depth_visuals_iterator(d.data); v.rem; xcb_visualtype_next(&v))
            if (v.data->visual_id == scr->root_visual) {
                pf->red_mask = v.data->red_mask;
                pf->green_mask = v.data->green_mask;
                pf->blue_mask = v.data->blue_mask;
                return pf->bpp != 0;
            }
    return false;
}

static uint32_t channel_of8(uint32_t v8, uint32_t mask)
{
    uint32_t max = mask ? mask >> mask_shift(mask) : 0;
    return mask ? ((uint32_t)(((uint64_t)v8 * max + 127) / 255) << mask_shift(mask)) & mask : 0;
}

uint32_t screen_pixel_of_rgb(const struct pixel_format *f, uint32_t rgb)
{
    return channel_of8((rgb >> 16) & 0xFF, f->red_mask) | channel_of8((rgb >> 8) & 0xFF, f->green_mask) |
           channel_of8(rgb & 0xFF, f->blue_mask);
}

struct oracle *oracle_screen_create(struct xserver *x, char *err, size_t errlen)
{
    struct scr_state *st = calloc(1, sizeof *st);
    st->x = x;
    st->epfd = st->tfd = -1;
    st->always_poll = getenv("FRAMESYNC_SCREEN_POLL") && !strcmp(getenv("FRAMESYNC_SCREEN_POLL"), "1");
    st->c = xcb_connect(x->display_name, NULL);
    if (xcb_connection_has_error(st->c)) {
        snprintf(err, errlen, "cannot open the screen oracle's connection to %s", x->display_name);
        goto fail;
    }
    const xcb_setup_t *setup = xcb_get_setup(st->c);
    xcb_screen_t *scr = xcb_setup_roots_iterator(setup).data;
    st->root = scr->root;
    st->width = scr->width_in_pixels;
    st->height = scr->height_in_pixels;
    if (!screen_pixel_format(setup, scr, &st->pf)) {
        snprintf(err, errlen, "cannot tell the root visual's pixel layout");
        goto fail;
    }
    xcb_generic_error_t *ge = NULL;
    free(xcb_get_image_reply(st->c, xcb_get_image(st->c, XCB_IMAGE_FORMAT_Z_PIXMAP, st->root, 0, 0, 1, 1, ~0u), &ge));
    if (ge) { /* a rootless server (Xwayland): the compositor's picture is not on the root */
        snprintf(err, errlen, "GetImage on the root window fails (X error %u): this X server does not show the "
                 "composited screen on its root (a rootless Xwayland)", ge->error_code);
        free(ge);
        goto fail;
    }
    const xcb_query_extension_reply_t *dmg = xcb_get_extension_data(st->c, &xcb_damage_id);
    const xcb_query_extension_reply_t *xt = xcb_get_extension_data(st->c, &xcb_test_id);
    if (!dmg || !dmg->present) {
        snprintf(err, errlen, "the X server has no DAMAGE extension");
        goto fail;
    }
    if (!xt || !xt->present)
        fprintf(stderr, "framesync: no XTEST: the screen oracle cannot move the pointer away\n");
    free(xcb_damage_query_version_reply(st->c, xcb_damage_query_version(st->c, 1, 1), NULL));
    st->damage_event = dmg->first_event + XCB_DAMAGE_NOTIFY;
    st->damage = xcb_generate_id(st->c);
    xcb_generic_error_t *e = xcb_request_check(
        st->c, xcb_damage_create_checked(st->c, st->damage, st->root, XCB_DAMAGE_REPORT_LEVEL_RAW_RECTANGLES));
    if (e) {
        snprintf(err, errlen, "DamageCreate on the root failed (X error %u)", e->error_code);
        free(e);
        goto fail;
    }
    st->epfd = epoll_create1(EPOLL_CLOEXEC);
    st->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (st->epfd < 0 || st->tfd < 0) {
        snprintf(err, errlen, "cannot make the screen oracle's timer");
        goto fail;
    }
    struct epoll_event ev = {.events = EPOLLIN};
    ev.data.fd = xcb_get_file_descriptor(st->c);
    epoll_ctl(st->epfd, EPOLL_CTL_ADD, ev.data.fd, &ev);
    ev.data.fd = st->tfd;
    epoll_ctl(st->epfd, EPOLL_CTL_ADD, st->tfd, &ev);
    /* one fd for session_pump: the connection and the poll timer behind an epoll set */
    st->o = (struct oracle){.name = "screen", .fd = st->epfd, .readable = scr_readable, .observe = scr_observe,
                            .case_begin = scr_case_begin, .case_end = scr_case_end,
                            .snapshot = oracle_screen_snapshot, .destroy = oracle_screen_destroy, .state = st};
    return &st->o;
fail:
    if (st->epfd >= 0)
        close(st->epfd);
    if (st->tfd >= 0)
        close(st->tfd);
    xu_disconnect(st->c);
    free(st);
    return NULL;
}

void oracle_screen_destroy(struct oracle *o)
{
    if (!o)
        return;
    struct scr_state *st = o->state;
    close(st->epfd);
    close(st->tfd);
    xu_disconnect(st->c);
    free(st);
}

int oracle_screen_snapshot(struct oracle *o, const char *path, char *err, size_t errlen)
{
    struct scr_state *st = o->state;
    xcb_generic_error_t *e = NULL;
    xcb_get_image_reply_t *img = xcb_get_image_reply(
        st->c, xcb_get_image(st->c, XCB_IMAGE_FORMAT_Z_PIXMAP, st->root, 0, 0, (uint16_t)st->width,
                             (uint16_t)st->height, ~0u), &e);
    if (!img) {
        snprintf(err, errlen, "GetImage of the root failed (X error %u)", e ? e->error_code : 0);
        free(e);
        return -1;
    }
    const uint8_t *d = xcb_get_image_data(img);
    size_t len = (size_t)xcb_get_image_data_length(img), stride = len / (size_t)st->height, bpp = (size_t)st->pf.bpp / 8;
    uint8_t *rgb = malloc((size_t)st->width * (size_t)st->height * 3);
    for (size_t y = 0; y < (size_t)st->height; y++)
        for (size_t x = 0; x < (size_t)st->width; x++) {
            uint32_t p = 0;
            size_t at = y * stride + x * bpp;
            if (at < len)
                screen_decode_pixel(&st->pf, d + at, len - at, &p);
            uint8_t *o3 = rgb + 3 * (y * (size_t)st->width + x);
            o3[0] = (uint8_t)(p >> 16);
            o3[1] = (uint8_t)(p >> 8);
            o3[2] = (uint8_t)p;
        }
    free(img);
    int rc = png_write_rgb(path, st->width, st->height, rgb, err, errlen);
    free(rgb);
    return rc;
}
