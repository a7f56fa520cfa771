#include "oracle-screen.h"
#include "oracle-windows.h"
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

#define POLL_INTERVAL_NS 4000000 /* 4 ms, only while a case runs and damage was not seen */

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
    struct ow_tracker wt;        /* the case's windows (oracle-windows.h) */
};

static void set_timer(struct scr_state *st)
{
    bool want = st->active && (!st->damage_works || st->always_poll) && st->wt.nwins > 0;
    if (want == st->timer_on)
        return;
    struct itimerspec its = {0};
    if (want)
        its.it_interval.tv_nsec = its.it_value.tv_nsec = POLL_INTERVAL_NS;
    timerfd_settime(st->tfd, 0, &its, NULL);
    st->timer_on = want;
}

/* One round: every window's point, pipelined; a record for each change (or forced state). */
static void sample(struct scr_state *st, const char *via)
{
    ow_refresh_geometry(&st->wt);
    xcb_get_image_cookie_t ic[OW_MAX_WINDOWS];
    bool sent[OW_MAX_WINDOWS] = {0};
    int64_t t0 = clock_now_us();
    for (int i = 0; i < st->wt.nwins; i++) {
        struct ow_window *w = &st->wt.wins[i];
        if (!ow_on_screen(&st->wt, w)) {
            w->force = NULL; /* nothing to show for it: not on screen (or gone) */
            continue;
        }
        ic[i] = xcb_get_image(st->c, XCB_IMAGE_FORMAT_Z_PIXMAP, st->root, (int16_t)w->cx, (int16_t)w->cy, 1, 1,
                              ~0u);
        sent[i] = true;
    }
    xcb_flush(st->c);
    for (int i = 0; i < st->wt.nwins; i++) {
        if (!sent[i])
            continue;
        struct ow_window *w = &st->wt.wins[i];
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
        bool moved = w->have_value && (w->shown_x != w->cx || w->shown_y != w->cy);
        if (w->have_value && w->rgb == rgb && !w->force && !moved)
            continue;
        const char *why = w->force ? w->force : w->have_value && w->rgb == rgb ? "moved" : via;
        w->have_value = true;
        w->rgb = rgb;
        w->shown_x = w->cx;
        w->shown_y = w->cy;
        char line[512];
        if (st->s && st->active &&
            screen_format_shows(line, sizeof line, w->client, w->window, rgb, w->cx, w->cy, w->mapped,
                                why, rtt,
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

static void set_mapped(struct ow_window *w, bool mapped)
{
    if (ow_set_mapped(w, mapped))
        w->force = mapped ? "map" : "unmap";
}

/* what an event or a record says of a window; true when it calls for a sample */
static bool apply(enum ow_change change, struct ow_window *w)
{
    if (change == OW_MAP || change == OW_UNMAP)
        set_mapped(w, change == OW_MAP);
    return change == OW_GEOMETRY || change == OW_MAP || change == OW_UNMAP;
}

/* Handles one event of the oracle's connection; true when it calls for a sample. */
static bool handle_event(struct scr_state *st, xcb_generic_event_t *e, bool *by_damage)
{
    uint8_t type = e->response_type & 0x7F;
    if (st->damage_event && type == st->damage_event) {
        xcb_damage_notify_event_t *d = (xcb_damage_notify_event_t *)e;
        for (int i = 0; i < st->wt.nwins; i++) {
            struct ow_window *w = &st->wt.wins[i];
            if (!w->gone && w->geom_valid && covers(&d->area, w->cx, w->cy)) {
                if (st->active && w->mapped)
                    st->damage_works = true;
                *by_damage = true;
                return true;
            }
        }
        return false;
    }
    struct ow_window *w;
    enum ow_change change = ow_event(&st->wt, e, &w);
    return apply(change, w);
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
        for (int i = 0; i < st->wt.nwins; i++)
            if (!st->wt.wins[i].gone && (st->wt.wins[i].force || st->wt.wins[i].geom_dirty))
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
    if (st->active && !strcmp(r->source, "harness") && !strcmp(r->kind, "wm-replaced")) {
        /* a new compositor took over: every window as it shows now, whether or not it changed */
        st->s = s;
        for (int i = 0; i < st->wt.nwins; i++)
            if (!st->wt.wins[i].gone) {
                st->wt.wins[i].force = "replaced";
                st->wt.wins[i].geom_dirty = true;
            }
        process(st, false, "replaced");
        return;
    }
    if (!st->active || !strcmp(r->source, "harness") || !strcmp(r->source, "wm"))
        return;
    st->s = s;
    xcb_window_t xid;
    struct ow_window *w;
    enum ow_change change = ow_record(&st->wt, r, &xid, &w);
    if (change == OW_CREATE) {
        process(st, false, "configure"); /* what is queued about an earlier window of this ID first */
        if (!(w = ow_add(&st->wt, r->source, xid)))
            return;
        w->force = "create";
    } else if (!apply(change, w) && change != OW_DESTROY) {
        return;
    }
    process(st, false, "configure");
}

/* Does any pixel of the rectangle show a frame colour? */
static bool frame_colour_in(void *ctx, xcb_rectangle_t r)
{
    struct scr_state *st = ctx;
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

/* Waits for the screen to change (ow_settle): damage wakes it, 20 ms at most; false on a broken
 * connection. */
static bool wait_damage(void *ctx, int64_t left_us)
{
    struct scr_state *st = ctx;
    if (xcb_connection_has_error(st->c))
        return false;
    struct pollfd pfd = {.fd = xcb_get_file_descriptor(st->c), .events = POLLIN};
    poll(&pfd, 1, left_us > 20000 ? 20 : (int)(left_us / 1000) + 1);
    xcb_generic_event_t *e;
    while ((e = xcb_poll_for_event(st->c)))
        free(e);
    return true;
}

static void scr_case_begin(struct oracle *o, struct session *s)
{
    struct scr_state *st = o->state;
    st->s = NULL;
    st->wt.nwins = 0;
    st->active = false;
    process(st, false, "poll"); /* what arrived between cases belongs to no case */
    xcb_window_t cm = xu_selection_owner(st->x->conn, "_NET_WM_CM_S0");
    if (cm != st->cm_owner) {
        st->cm_owner = cm;
        st->damage_works = false;
    }
    st->active = cm != XCB_NONE;
    st->s = s;
    ow_settle(&st->wt, s, st->active, 1000,
              &(struct ow_settle_ops){.frame_colour_in = frame_colour_in, .wait = wait_damage, .ctx = st});
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
    ow_case_end(&st->wt);
    st->s = NULL;
    st->active = false;
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
    ow_init(&st->wt, st->c, st->root, st->width, st->height);
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
