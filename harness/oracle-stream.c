#include "oracle-stream.h"
#include "clock.h"
#include "frame-colour.h"
#include "oracle-screen.h"
#include "oracle-windows.h"
#include "pngwrite.h"
#include "session.h"
#include "xutil.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

/* how long the last case's frame colours may stay on screen (as oracle-screen.c) */
#define SETTLE_MS 1000

struct str_state {
    struct oracle o;
    struct xserver *x;
    xcb_connection_t *c;
    xcb_window_t root;
    struct capture *cap;        /* the run's: its stream points here while this oracle lives */
    struct stream stream;
    int epfd;
    struct session *s;
    bool active;
    struct ow_tracker wt;        /* the case's windows (oracle-windows.h) */
    int wx[STREAM_MAX_POINTS], wy[STREAM_MAX_POINTS], nwatch; /* the points the helper reports */
    bool rewatch;               /* ask again even if the points did not change (a map, an unmap) */
    int64_t last_frame_us;      /* the previous frame's time: where a gap before the next begins */
    struct stream_stats at_begin; /* the helper's counts when the case began */
    bool have_begin;
    bool dead;                  /* the helper ended: said once */
};

/* The points of every window on screen; sent when they changed or a state change wants a `still`. */
static void update_watch(struct str_state *st)
{
    ow_refresh_geometry(&st->wt);
    int xs[STREAM_MAX_POINTS], ys[STREAM_MAX_POINTS], n = 0;
    for (int i = 0; i < st->wt.nwins; i++) {
        struct ow_window *w = &st->wt.wins[i];
        w->job_x = w->job_y = -1;
        if (!st->active || !ow_on_screen(&st->wt, w) || n == STREAM_MAX_POINTS)
            continue;
        w->job_x = xs[n] = w->cx;
        w->job_y = ys[n] = w->cy;
        n++;
    }
    if (!st->rewatch && n == st->nwatch && !memcmp(xs, st->wx, sizeof(int) * (size_t)n) &&
        !memcmp(ys, st->wy, sizeof(int) * (size_t)n))
        return;
    st->rewatch = false;
    memcpy(st->wx, xs, sizeof xs);
    memcpy(st->wy, ys, sizeof ys);
    st->nwatch = n;
    stream_watch(&st->stream, xs, ys, n);
}

static int point_rgb(const struct stream_frame *f, int x, int y, uint32_t *rgb)
{
    for (int i = 0; i < f->npx; i++)
        if (f->px_x[i] == x && f->px_y[i] == y) {
            *rgb = f->px_rgb[i];
            return 0;
        }
    return -1;
}

/* since_us: the change was shown at t exactly when no frame can be missing before it and t is the
 * frame's own time; after a gap, or where frame times are when the compositor recorded its paint
 * (timing=recorded: mutter), at some moment after the previous frame (harness/expr.c orders it only
 * when that is certain) */
static int64_t shown_since(const struct str_state *st, const struct stream_frame *f)
{
    bool span = f->gap_us > 0 || st->stream.recorded_times;
    return span && st->last_frame_us ? st->last_frame_us : f->t_us;
}

/* A record for each window whose pixel or mapped state changed in this frame (or still). */
static void apply_frame(struct str_state *st, const struct stream_frame *f)
{
    const char *kind = f->still ? "still" : "frame";
    for (int i = 0; i < st->wt.nwins; i++) {
        struct ow_window *w = &st->wt.wins[i];
        uint32_t rgb;
        if (w->gone || w->job_x < 0 || point_rgb(f, w->job_x, w->job_y, &rgb) < 0)
            continue;
        screen_behind_note(&w->behind, w->mapped, w->job_x, w->job_y, rgb);
        const char *via = ow_shows_news(w, rgb, w->job_x, w->job_y, kind);
        if (!via)
            continue;
        char line[512];
        if (screen_format_shows(line, sizeof line, w->client, w->window, rgb, w->job_x, w->job_y, w->mapped, via,
                                0, screen_behind_changed(&w->behind, w->job_x, w->job_y, rgb)) == 0) {
            struct record *r = record_make("screen", f->t_us, "%s seq=%llu since_us=%lld", line,
                                           (unsigned long long)f->seq,
                                           (long long)(shown_since(st, f) - st->s->tl.start_us));
            if (r)
                session_add_record(st->s, r);
        }
    }
}

/* A frame line: a gap before it is a record of its own (a `none` over it cannot hold: run-wait.c). */
static void handle_frame(struct str_state *st, const struct stream_frame *f)
{
    if (st->s && st->active && f->gap_us > 0) {
        struct record *r = record_make("screen", f->t_us, "capture-gap seq=%llu gap_us=%lld since_us=%lld",
                                       (unsigned long long)f->seq, (long long)f->gap_us,
                                       (long long)((st->last_frame_us ? st->last_frame_us : f->t_us) -
                                                   st->s->tl.start_us));
        if (r)
            session_add_record(st->s, r);
    }
    if (st->s && st->active)
        apply_frame(st, f);
    if (!f->still)
        st->last_frame_us = f->t_us;
}

/* Everything the helper wrote so far. */
static void drain(struct str_state *st)
{
    if (stream_fill(&st->stream) < 0 && !st->dead) {
        st->dead = true;
        if (st->s) {
            struct record *r = record_make("screen", clock_now_us(), "capture-failed msg=the screen stream ended");
            if (r)
                session_add_record(st->s, r);
        }
    }
    char line[4096];
    struct stream_frame f;
    while (stream_take_line(&st->stream, line, sizeof line))
        if (stream_parse_frame(line, &f) == 1)
            handle_frame(st, &f);
}

static void process(struct str_state *st)
{
    xcb_generic_event_t *e;
    while ((e = xcb_poll_for_event(st->c))) {
        struct ow_window *w;
        enum ow_change change = ow_event(&st->wt, e, &w);
        if ((change == OW_MAP || change == OW_UNMAP) && ow_set_mapped(w, change == OW_MAP))
            st->rewatch = true;
        free(e);
    }
    drain(st);
    if (st->active)
        update_watch(st);
}

static void str_readable(struct oracle *o, struct session *s)
{
    struct str_state *st = o->state;
    st->s = s;
    process(st);
}

static void str_observe(struct oracle *o, struct session *s, const struct record *r)
{
    struct str_state *st = o->state;
    if (!st->active || !strcmp(r->source, "harness") || !strcmp(r->source, "wm") || !strcmp(r->source, "screen"))
        return;
    st->s = s;
    xcb_window_t xid;
    struct ow_window *w;
    enum ow_change change = ow_record(&st->wt, r, &xid, &w);
    if (change == OW_CREATE) {
        process(st); /* what is queued about an earlier window of this ID first */
        if (!(w = ow_add(&st->wt, r->source, xid)))
            return;
        w->job_x = w->job_y = -1;
        xcb_flush(st->c);
    } else if ((change == OW_MAP || change == OW_UNMAP) && ow_set_mapped(w, change == OW_MAP)) {
        st->rewatch = true;
    }
    process(st);
}

static void str_case_begin(struct oracle *o, struct session *s)
{
    struct str_state *st = o->state;
    st->s = NULL;
    st->wt.nwins = 0;
    st->active = false;
    process(st); /* what arrived between cases belongs to no case */
    st->active = xu_selection_owner(st->x->conn, "_NET_WM_CM_S0") != XCB_NONE;
    st->s = s;
    ow_settle(&st->wt, s, st->active, SETTLE_MS,
              &(struct ow_settle_ops){.frame_colour_in = ow_capture_shows_frame, .wait = ow_wait_signal, .ctx = st->cap});
    st->have_begin = st->active && stream_stats(&st->stream, 2000, &st->at_begin) == 0;
}

/* What the helper captured during the case: frames, their rate against the output's, and gaps. */
static void add_case_stats(struct str_state *st)
{
    struct stream_stats now;
    if (!st->have_begin || stream_stats(&st->stream, 2000, &now) < 0)
        return;
    uint64_t frames = now.frames - st->at_begin.frames;
    int64_t span = clock_now_us() - st->s->tl.start_us;
    struct record *r = record_make("screen", clock_now_us(),
                                   "capture-stats frames=%llu fps=%.1f refresh_hz=%.3f gaps=%llu gap_us=%lld "
                                   "failed=%llu",
                                   (unsigned long long)frames, span > 0 ? (double)frames * 1e6 / (double)span : 0.0,
                                   now.refresh_mhz / 1000.0, (unsigned long long)(now.gaps - st->at_begin.gaps),
                                   (long long)(now.gap_us - st->at_begin.gap_us),
                                   (unsigned long long)(now.failed - st->at_begin.failed));
    if (r)
        session_add_record(st->s, r);
}

static void str_case_end(struct oracle *o, struct session *s)
{
    struct str_state *st = o->state;
    st->s = s;
    process(st);
    add_case_stats(st);
    ow_case_end(&st->wt);
    update_watch(st); /* no window: no points */
    st->s = NULL;
    st->active = false;
}

static int str_snapshot(struct oracle *o, const char *path, char *err, size_t errlen)
{
    struct str_state *st = o->state;
    struct image im;
    if (capture_region(st->cap, 0, 0, 0, st->cap->width, st->cap->height, &im, err, errlen) < 0)
        return -1;
    int rc = png_write_rgb(path, im.w, im.h, im.rgb, err, errlen);
    image_free(&im);
    return rc;
}

static void str_destroy(struct oracle *o)
{
    if (!o)
        return;
    struct str_state *st = o->state;
    if (st->cap->stream == &st->stream)
        st->cap->stream = NULL;
    stream_stop(&st->stream);
    if (st->epfd >= 0)
        close(st->epfd);
    xu_disconnect(st->c);
    free(st);
}

struct oracle *oracle_stream_create(struct xserver *x, struct capture *cap, const char *command, char *desc,
                                    size_t desclen, char *err, size_t errlen)
{
    struct str_state *st = calloc(1, sizeof *st);
    st->x = x;
    st->cap = cap;
    st->epfd = -1;
    st->stream.fd = -1;
    st->o = (struct oracle){.name = "screen", .fd = -1, .readable = str_readable, .observe = str_observe,
                            .case_begin = str_case_begin, .case_end = str_case_end, .snapshot = str_snapshot,
                            .destroy = str_destroy, .state = st};
    st->c = xcb_connect(x->display_name, NULL);
    if (xcb_connection_has_error(st->c)) {
        snprintf(err, errlen, "cannot open the stream oracle's connection to %s", x->display_name);
        goto fail;
    }
    xcb_screen_t *scr = xcb_setup_roots_iterator(xcb_get_setup(st->c)).data;
    st->root = scr->root;
    ow_init(&st->wt, st->c, st->root, scr->width_in_pixels, scr->height_in_pixels);
    int64_t t0 = clock_now_us();
    if (stream_start(&st->stream, command, cap->env, cap->log_fd, cap->timeout_ms, err, errlen) < 0)
        goto fail;
    if (st->stream.width < scr->width_in_pixels || st->stream.height < scr->height_in_pixels) {
        snprintf(err, errlen, "the screen stream's output is %dx%d, smaller than the X root (%dx%d): root "
                 "coordinates would not be the output's", st->stream.width, st->stream.height,
                 scr->width_in_pixels, scr->height_in_pixels);
        goto fail;
    }
    cap->stream = &st->stream;
    snprintf(desc, desclen, "every frame the compositor composites: `%s` (a %dx%d output refreshing at %.3f Hz; "
             "started in %.0f ms)", command, st->stream.width, st->stream.height, st->stream.refresh_mhz / 1000.0,
             (double)(clock_now_us() - t0) / 1000.0);
    st->epfd = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = xcb_get_file_descriptor(st->c)};
    epoll_ctl(st->epfd, EPOLL_CTL_ADD, ev.data.fd, &ev);
    ev.data.fd = st->stream.fd;
    epoll_ctl(st->epfd, EPOLL_CTL_ADD, st->stream.fd, &ev);
    st->o.fd = st->epfd;
    return &st->o;
fail:
    str_destroy(&st->o);
    return NULL;
}
