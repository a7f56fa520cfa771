/* The pixel oracle of the benchmark: which frame each window shows on screen, and since when.
 * It reads the ROOT window (the composited screen; GetImage of the client window would only show
 * what the client drew), one pixel at each window's centre, decoded with frame_of_colour().
 *
 * It runs on its own thread with its own connection, so the time a paint is noticed does not wait
 * for the client's drawing (a GL frame can keep the main thread busy for milliseconds).  A DAMAGE
 * object on the root (RawRectangles) wakes it when the compositor paints; the time of the first
 * damage rectangle over a sampled point is when the pixel appeared (DAMAGE arrives within about
 * 0.3 ms of the pixels being readable: docs/observing-x11.md).  A compositor whose paints
 * never damage the root is sampled every 2 ms instead.  Changes of the decoded frame go to the
 * main thread through a pipe, as fixed-size records (atomic writes). */
#include "bench.h"
#include "clock.h"
#include "xhelpers.h"
#include "frame-colour.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xcb/damage.h>
#include <xcb/xtest.h>

#define POLL_MS 2
#define DAMAGE_WAIT_MS 500 /* no damage over a sampled point by then: sample on a timer */

struct point {
    int x, y;
    int32_t last_frame; /* the last decoded value reported (-2: none yet) */
};

struct screen {
    pthread_t thread;
    bool started;
    xcb_connection_t *c;
    xcb_window_t root;
    uint8_t damage_event;
    xcb_damage_damage_t damage;
    struct point pts[BENCH_MAX_WINDOWS];
    int npts;
    int out[2];  /* pixel events: thread -> main */
    int stop[2]; /* main -> thread: end */
    bool msb_first;
    int bpp;
    bool damage_seen;
    int64_t started_us;
};

int screen_fd(struct screen *s) { return s->out[0]; }

int screen_read(struct screen *s, struct pixel_event *out, int max)
{
    ssize_t n = read(s->out[0], out, (size_t)max * sizeof *out);
    return n > 0 ? (int)(n / (ssize_t)sizeof *out) : 0;
}

static void emit(struct screen *s, const struct pixel_event *e)
{
    ssize_t n = write(s->out[1], e, sizeof *e);
    (void)n; /* the main thread reads them all; a full pipe would only lose samples */
}

/* 0x00RRGGBB of a 1x1 ZPixmap reply (24/32 bpp TrueColor with the usual masks, as Xvfb has) */
static uint32_t pixel_rgb(struct screen *s, const uint8_t *d, int len)
{
    int bytes = s->bpp / 8;
    if (len < bytes)
        return 0;
    uint32_t p = 0;
    for (int i = 0; i < bytes; i++)
        p |= (uint32_t)d[s->msb_first ? i : bytes - 1 - i] << (8 * (bytes - 1 - i));
    return p & 0xffffff;
}

/* samples the points marked in `want` (pipelined GetImages), reports each changed frame */
static void sample(struct screen *s, const bool *want, const int64_t *seen_us, const uint32_t *server_ms,
                   bool polled)
{
    xcb_get_image_cookie_t ck[BENCH_MAX_WINDOWS];
    int64_t sent[BENCH_MAX_WINDOWS];
    for (int i = 0; i < s->npts; i++)
        if (want[i]) {
            sent[i] = clock_now_us();
            ck[i] = xcb_get_image(s->c, XCB_IMAGE_FORMAT_Z_PIXMAP, s->root, (int16_t)s->pts[i].x,
                                  (int16_t)s->pts[i].y, 1, 1, ~0u);
        }
    for (int i = 0; i < s->npts; i++) {
        if (!want[i])
            continue;
        xcb_get_image_reply_t *r = xcb_get_image_reply(s->c, ck[i], NULL);
        if (!r)
            continue;
        uint32_t rgb = pixel_rgb(s, xcb_get_image_data(r), xcb_get_image_data_length(r));
        free(r);
        int32_t frame = frame_of_colour(rgb);
        if (frame == s->pts[i].last_frame)
            continue;
        s->pts[i].last_frame = frame;
        struct pixel_event e = {.win = i, .frame = frame, .seen_us = polled ? sent[i] : seen_us[i],
                                .sampled_us = sent[i], .damage_server_ms = polled ? 0 : server_ms[i],
                                .polled = polled};
        emit(s, &e);
    }
}

static bool covers(const xcb_rectangle_t *r, const struct point *p)
{
    return p->x >= r->x && p->x < r->x + r->width && p->y >= r->y && p->y < r->y + r->height;
}

/* every event read now: which points the damage covered, and when each was first covered */
static void read_damage(struct screen *s, bool *want, int64_t *seen_us, uint32_t *server_ms)
{
    xcb_generic_event_t *e;
    while ((e = xcb_poll_for_event(s->c))) {
        int64_t now = clock_now_us();
        if ((e->response_type & 0x7f) == s->damage_event) {
            xcb_damage_notify_event_t *d = (xcb_damage_notify_event_t *)e;
            for (int i = 0; i < s->npts; i++)
                if (covers(&d->area, &s->pts[i]) && !want[i]) {
                    want[i] = true;
                    seen_us[i] = now;
                    server_ms[i] = d->timestamp;
                    s->damage_seen = true;
                }
        }
        free(e);
    }
}

static void *run(void *arg)
{
    struct screen *s = arg;
    bool all[BENCH_MAX_WINDOWS];
    for (int i = 0; i < s->npts; i++)
        all[i] = true;
    int64_t none[BENCH_MAX_WINDOWS] = {0};
    uint32_t zero[BENCH_MAX_WINDOWS] = {0};
    sample(s, all, none, zero, true); /* what is there before the first frame */
    for (;;) {
        bool want[BENCH_MAX_WINDOWS] = {false};
        int64_t seen_us[BENCH_MAX_WINDOWS];
        uint32_t server_ms[BENCH_MAX_WINDOWS];
        read_damage(s, want, seen_us, server_ms);
        bool any = false;
        for (int i = 0; i < s->npts; i++)
            any |= want[i];
        if (any) {
            sample(s, want, seen_us, server_ms, false);
            continue; /* damage that came meanwhile is already queued */
        }
        bool polling = !s->damage_seen && clock_now_us() - s->started_us > DAMAGE_WAIT_MS * 1000;
        struct pollfd p[2] = {{.fd = xcb_get_file_descriptor(s->c), .events = POLLIN},
                              {.fd = s->stop[0], .events = POLLIN}};
        int r = poll(p, 2, polling ? POLL_MS : DAMAGE_WAIT_MS);
        if (p[1].revents || xcb_connection_has_error(s->c))
            break;
        if (r == 0 && polling)
            sample(s, all, none, zero, true);
    }
    return NULL;
}

static int setup_damage(struct screen *s, char *err, size_t errlen)
{
    const xcb_query_extension_reply_t *ext = xcb_get_extension_data(s->c, &xcb_damage_id);
    if (!ext || !ext->present) {
        snprintf(err, errlen, "the X server has no DAMAGE extension");
        return -1;
    }
    free(xcb_damage_query_version_reply(s->c, xcb_damage_query_version(s->c, 1, 1), NULL));
    s->damage_event = ext->first_event + XCB_DAMAGE_NOTIFY;
    s->damage = xcb_generate_id(s->c);
    xcb_damage_create(s->c, s->damage, s->root, XCB_DAMAGE_REPORT_LEVEL_RAW_RECTANGLES);
    return 0;
}

static void pixel_format(struct screen *s)
{
    const xcb_setup_t *setup = xcb_get_setup(s->c);
    xcb_screen_t *scr = xcb_setup_roots_iterator(setup).data;
    s->msb_first = setup->image_byte_order == XCB_IMAGE_ORDER_MSB_FIRST;
    s->bpp = 32;
    for (xcb_format_iterator_t f = xcb_setup_pixmap_formats_iterator(setup); f.rem; xcb_format_next(&f))
        if (f.data->depth == scr->root_depth)
            s->bpp = f.data->bits_per_pixel;
}

/* the pointer to the bottom-right corner: Xvfb's software cursor damages the root under it */
static void pointer_away(struct screen *s)
{
    xcb_screen_t *scr = xcb_setup_roots_iterator(xcb_get_setup(s->c)).data;
    const xcb_query_extension_reply_t *ext = xcb_get_extension_data(s->c, &xcb_test_id);
    if (ext && ext->present)
        xcb_test_fake_input(s->c, XCB_MOTION_NOTIFY, 0, XCB_CURRENT_TIME, s->root,
                            (int16_t)(scr->width_in_pixels - 1), (int16_t)(scr->height_in_pixels - 1), 0);
}

struct screen *screen_start(const struct bench_window *wins, int n, char *err, size_t errlen)
{
    struct screen *s = calloc(1, sizeof *s);
    s->out[0] = s->out[1] = s->stop[0] = s->stop[1] = -1;
    s->c = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(s->c)) {
        snprintf(err, errlen, "the pixel oracle cannot connect to the X server");
        screen_stop(s);
        return NULL;
    }
    s->root = xcb_setup_roots_iterator(xcb_get_setup(s->c)).data->root;
    pixel_format(s);
    if (setup_damage(s, err, errlen) < 0) {
        screen_stop(s);
        return NULL;
    }
    pointer_away(s);
    xh_round_trip(s->c);
    s->npts = n;
    for (int i = 0; i < n; i++)
        s->pts[i] = (struct point){.x = wins[i].x + wins[i].w / 2, .y = wins[i].y + wins[i].h / 2, .last_frame = -2};
    /* the reading end does not block the main loop; the writing end blocks rather than lose samples */
    if (pipe2(s->out, O_CLOEXEC) < 0 || fcntl(s->out[0], F_SETFL, O_NONBLOCK) < 0 || pipe2(s->stop, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        screen_stop(s);
        return NULL;
    }
    s->started_us = clock_now_us();
    if (pthread_create(&s->thread, NULL, run, s) != 0) {
        snprintf(err, errlen, "cannot start the pixel oracle's thread");
        screen_stop(s);
        return NULL;
    }
    s->started = true;
    return s;
}

void screen_stop(struct screen *s)
{
    if (!s)
        return;
    if (s->started) {
        ssize_t n = write(s->stop[1], "x", 1);
        (void)n;
        pthread_join(s->thread, NULL);
    }
    for (int i = 0; i < 2; i++) {
        if (s->out[i] >= 0)
            close(s->out[i]);
        if (s->stop[i] >= 0)
            close(s->stop[i]);
    }
    if (s->c)
        xcb_disconnect(s->c);
    free(s);
}
