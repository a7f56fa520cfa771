#include "oracle-capture.h"
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
#include <sys/timerfd.h>
#include <unistd.h>

/* the pause between one capture's end and the next one's start while a case has windows: the
 * captures are sampling, and each costs the compositor a rendering and the machine a process */
#define CAPTURE_GAP_MS 10
/* how long the last case's frame colours may stay on screen (as oracle-screen.c) */
#define SETTLE_MS 1000

struct cap_state {
    struct oracle o;
    struct xserver *x;
    xcb_connection_t *c;
    xcb_window_t root;
    struct capture cap;
    int epfd, tfd;
    struct capture_job job;
    bool job_running;
    char job_client[16];        /* the one window's client a per-window capture takes, "": all */
    int next_window;            /* per-window captures: the window to look at next (round robin) */
    bool next_now;              /* something called for a sample: start one as soon as possible */
    struct session *s;
    bool active;
    struct ow_tracker wt;        /* the case's windows (oracle-windows.h) */
    int failures;               /* captures in a row that failed */
    char last_error[512];
};

static void arm_timer(struct cap_state *st, int ms)
{
    struct itimerspec its = {0};
    if (ms > 0) {
        its.it_value.tv_sec = ms / 1000;
        its.it_value.tv_nsec = (long)(ms % 1000) * 1000000L;
    }
    timerfd_settime(st->tfd, 0, &its, NULL);
}

static bool has_windows(const struct cap_state *st)
{
    for (int i = 0; i < st->wt.nwins; i++)
        if (!st->wt.wins[i].gone)
            return true;
    return false;
}

/* The windows a capture takes: every one on screen, in one box around their points; or, where the
 * template takes {window} (capture_per_window), the next one on screen after the last taken, alone.
 * Marks them (job_x >= 0); the index of the one window, -1 for the box, or -2 when none is on screen. */
static int choose_windows(struct cap_state *st)
{
    bool one = capture_per_window(&st->cap);
    int chosen = -2;
    for (int k = 0; k < st->wt.nwins; k++) {
        int i = one ? (st->next_window + k) % st->wt.nwins : k;
        struct ow_window *w = &st->wt.wins[i];
        w->job_x = w->job_y = -1;
        if (chosen >= 0 || !ow_on_screen(&st->wt, w))
            continue; /* nothing to show for it: not on screen (or gone); or one window is taken */
        w->job_x = w->cx;
        w->job_y = w->cy;
        chosen = one ? i : -1;
    }
    if (chosen >= 0)
        st->next_window = chosen + 1;
    return chosen;
}

/* Starts a capture of the windows' points (choose_windows), if none is under way. */
static void start_capture(struct cap_state *st)
{
    if (st->job_running || !st->active || !st->s)
        return;
    ow_refresh_geometry(&st->wt);
    int chosen = choose_windows(st);
    int x0 = st->cap.width, y0 = st->cap.height, x1 = -1, y1 = -1;
    for (int i = 0; i < st->wt.nwins; i++) {
        struct ow_window *w = &st->wt.wins[i];
        if (w->job_x < 0)
            continue;
        x0 = w->cx < x0 ? w->cx : x0;
        y0 = w->cy < y0 ? w->cy : y0;
        x1 = w->cx > x1 ? w->cx : x1;
        y1 = w->cy > y1 ? w->cy : y1;
    }
    st->next_now = false;
    if (x1 < 0)
        return;
    char err[512];
    uint32_t window = chosen >= 0 ? st->wt.wins[chosen].window : 0;
    if (capture_begin(&st->cap, window, x0, y0, x1 - x0 + 1, y1 - y0 + 1, &st->job, err, sizeof err) < 0) {
        snprintf(st->last_error, sizeof st->last_error, "%s", err);
        return;
    }
    snprintf(st->job_client, sizeof st->job_client, "%s", chosen >= 0 ? st->wt.wins[chosen].client : "");
    st->job_running = true;
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = st->job.fd};
    epoll_ctl(st->epfd, EPOLL_CTL_ADD, st->job.fd, &ev);
}

static void drop_job(struct cap_state *st)
{
    if (!st->job_running)
        return;
    if (st->job.fd >= 0)
        epoll_ctl(st->epfd, EPOLL_CTL_DEL, st->job.fd, NULL);
    capture_cancel(&st->job);
    st->job_running = false;
}

/* The capture ended: a record for each window whose pixel or mapped state changed. */
static void finish_capture(struct cap_state *st)
{
    struct image im;
    char err[512];
    int64_t t0 = st->job.t_begin, t1 = st->job.t_end, rtt = t1 - t0;
    int bx = st->job.x, by = st->job.y;
    int rc = capture_end(&st->job, &im, err, sizeof err);
    st->job_running = false;
    if (rc < 0) {
        if (st->failures++ == 0 && st->s) { /* once in a row: the timeline says the oracle is blind */
            struct record *r = record_make("screen", t1, "capture-failed msg=%s", err);
            if (r)
                session_add_record(st->s, r);
        }
        snprintf(st->last_error, sizeof st->last_error, "%s", err);
        return;
    }
    st->failures = 0;
    if (st->s && st->active) { /* when it looked: run-wait.c judges a screen wait on a sample begun after
                                * its deadline */
        char of[32] = "";
        if (st->job_client[0])
            snprintf(of, sizeof of, " client=%s", st->job_client);
        struct record *r = record_make("screen", t1, "sampled began_us=%lld rtt_us=%lld%s",
                                       (long long)(t0 - st->s->tl.start_us), (long long)rtt, of);
        if (r)
            session_add_record(st->s, r);
    }
    for (int i = 0; i < st->wt.nwins; i++) {
        struct ow_window *w = &st->wt.wins[i];
        if (w->gone || w->job_x < 0)
            continue;
        int64_t px = image_pixel(&im, w->job_x - bx, w->job_y - by);
        if (px < 0)
            continue;
        uint32_t rgb = (uint32_t)px;
        screen_behind_note(&w->behind, w->mapped, w->job_x, w->job_y, rgb);
        int64_t since = w->last_begin;
        w->last_begin = t0;
        /* a record when the pixel or the window's mapped state changed (as oracle-screen.c) */
        const char *via = ow_shows_news(w, rgb, w->job_x, w->job_y, "capture");
        if (!via)
            continue;
        char line[512];
        if (st->s && st->active &&
            screen_format_shows(line, sizeof line, w->client, w->window, rgb, w->job_x, w->job_y, w->mapped, via,
                                rtt, screen_behind_changed(&w->behind, w->job_x, w->job_y, rgb)) == 0) {
            /* since_us: the picture shows the screen after this (the last sample of the window, which
             * showed something else, began then), and no later than t: harness/expr.c orders such a
             * record against others only when the order is certain */
            struct record *r = record_make("screen", t1, "%s since_us=%lld", line,
                                           (long long)(since ? since - st->s->tl.start_us : 0));
            if (r)
                session_add_record(st->s, r);
        }
    }
    image_free(&im);
}

static void set_mapped(struct cap_state *st, struct ow_window *w, bool mapped)
{
    ow_set_mapped(w, mapped);
    st->next_now = true;
}

/* what an event or a record says of a window: a sample is due */
static void apply(struct cap_state *st, enum ow_change change, struct ow_window *w)
{
    if (change == OW_GEOMETRY)
        st->next_now = true;
    else if (change == OW_MAP || change == OW_UNMAP)
        set_mapped(st, w, change == OW_MAP);
}

static void handle_event(struct cap_state *st, xcb_generic_event_t *e)
{
    struct ow_window *w;
    enum ow_change change = ow_event(&st->wt, e, &w);
    apply(st, change, w);
}

/* Everything that is due: events, the capture's output, the next capture. */
static void process(struct cap_state *st)
{
    xcb_generic_event_t *e;
    while ((e = xcb_poll_for_event(st->c))) {
        handle_event(st, e);
        free(e);
    }
    if (st->job_running) {
        int r = capture_read(&st->job);
        if (r != 0) { /* its fd is closed (and so out of the epoll set) */
            if (r < 0)
                drop_job(st);
            else
                finish_capture(st);
            if (st->active && has_windows(st)) /* the next sample after a pause, or now if called for */
                arm_timer(st, st->next_now ? 0 : CAPTURE_GAP_MS);
        } else if (clock_now_us() - st->job.t_begin > (int64_t)st->cap.timeout_ms * 1000) {
            drop_job(st);
            snprintf(st->last_error, sizeof st->last_error, "a capture took more than %d ms", st->cap.timeout_ms);
        }
    }
    if (!st->job_running && st->next_now)
        start_capture(st);
}

static void cap_readable(struct oracle *o, struct session *s)
{
    struct cap_state *st = o->state;
    st->s = s;
    uint64_t ticks = 0;
    if (read(st->tfd, &ticks, sizeof ticks) == (ssize_t)sizeof ticks && st->active && has_windows(st))
        st->next_now = true;
    process(st);
}

static void cap_observe(struct oracle *o, struct session *s, const struct record *r)
{
    struct cap_state *st = o->state;
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
    } else {
        apply(st, change, w);
    }
    /* whatever a client did (painted, set a counter, answered), the screen may change now */
    st->next_now = true;
    process(st);
}

static void cap_case_begin(struct oracle *o, struct session *s)
{
    struct cap_state *st = o->state;
    st->s = NULL;
    st->wt.nwins = 0;
    st->active = false;
    drop_job(st);
    arm_timer(st, 0);
    xcb_generic_event_t *e;
    while ((e = xcb_poll_for_event(st->c))) /* what arrived between cases belongs to no case */
        free(e);
    st->active = xu_selection_owner(st->x->conn, "_NET_WM_CM_S0") != XCB_NONE;
    st->s = s;
    st->failures = 0;
    ow_settle(&st->wt, s, st->active, SETTLE_MS,
              &(struct ow_settle_ops){.frame_colour_in = ow_capture_shows_frame, .wait = ow_wait_signal, .ctx = &st->cap});
}

static void cap_case_end(struct oracle *o, struct session *s)
{
    (void)s;
    struct cap_state *st = o->state;
    drop_job(st);
    arm_timer(st, 0);
    ow_case_end(&st->wt);
    st->s = NULL;
    st->active = false;
}

static int cap_snapshot(struct oracle *o, const char *path, char *err, size_t errlen)
{
    struct cap_state *st = o->state;
    struct image im;
    if (capture_region(&st->cap, 0, 0, 0, st->cap.width, st->cap.height, &im, err, errlen) < 0)
        return -1;
    int rc = png_write_rgb(path, im.w, im.h, im.rgb, err, errlen);
    image_free(&im);
    return rc;
}

static void cap_destroy(struct oracle *o)
{
    if (!o)
        return;
    struct cap_state *st = o->state;
    drop_job(st);
    if (st->epfd >= 0)
        close(st->epfd);
    if (st->tfd >= 0)
        close(st->tfd);
    xu_disconnect(st->c);
    for (int i = 0; st->cap.env[i]; i++)
        free(st->cap.env[i]);
    free(st);
}

struct oracle *oracle_capture_create(struct xserver *x, const struct capture *cap, char *desc, size_t desclen,
                                     char *err, size_t errlen)
{
    struct cap_state *st = calloc(1, sizeof *st);
    st->x = x;
    st->epfd = st->tfd = -1;
    st->job.fd = -1;
    st->cap = *cap;
    for (int i = 0; cap->env[i] && i < CAPTURE_MAX_ENV; i++)
        st->cap.env[i] = strdup(cap->env[i]);
    st->o = (struct oracle){.name = "screen", .fd = -1, .readable = cap_readable, .observe = cap_observe,
                            .case_begin = cap_case_begin, .case_end = cap_case_end, .snapshot = cap_snapshot,
                            .destroy = cap_destroy, .state = st};
    st->c = xcb_connect(x->display_name, NULL);
    if (xcb_connection_has_error(st->c)) {
        snprintf(err, errlen, "cannot open the capture oracle's connection to %s", x->display_name);
        goto fail;
    }
    xcb_screen_t *scr = xcb_setup_roots_iterator(xcb_get_setup(st->c)).data;
    st->root = scr->root;
    st->cap.width = scr->width_in_pixels;
    st->cap.height = scr->height_in_pixels;
    ow_init(&st->wt, st->c, st->root, st->cap.width, st->cap.height);
    if (proc_check_program(cap->command, err, errlen) < 0)
        goto fail;
    /* the command must work before any case relies on it: the whole screen, once */
    struct image im;
    char why[512];
    int64_t t0 = clock_now_us();
    if (capture_region(&st->cap, 0, 0, 0, st->cap.width, st->cap.height, &im, why, sizeof why) < 0) {
        snprintf(err, errlen, "its screen-capture command does not work here: %s", why);
        goto fail;
    }
    snprintf(desc, desclen, "the compositor's own picture: `%s` (the whole %dx%d screen took %.0f ms)",
             cap->command, im.w, im.h, (double)(clock_now_us() - t0) / 1000.0);
    image_free(&im);
    st->epfd = epoll_create1(EPOLL_CLOEXEC);
    st->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (st->epfd < 0 || st->tfd < 0) {
        snprintf(err, errlen, "cannot make the capture oracle's timer");
        goto fail;
    }
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = xcb_get_file_descriptor(st->c)};
    epoll_ctl(st->epfd, EPOLL_CTL_ADD, ev.data.fd, &ev);
    ev.data.fd = st->tfd;
    epoll_ctl(st->epfd, EPOLL_CTL_ADD, st->tfd, &ev);
    st->o.fd = st->epfd;
    return &st->o;
fail:
    cap_destroy(&st->o);
    return NULL;
}
