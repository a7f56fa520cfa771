/* One cell: its windows make frames for the cell's time, paced as the cell says, and every frame
 * is followed until it is settled (its drawn message and pixel are in, it was covered by a later
 * frame, or its time is up), then written as one row.  See bench/README.md for the outcomes.
 *
 * Every wait is an event or a deadline: poll() on the client's connection, the pixel oracle's pipe
 * and the signal fd, with a timeout at the next thing due (a timer tick, a frame's deadline, the
 * cell's end).  A compositor that never sends what a frame waits for makes each frame wait at
 * most frame_timeout_ms, and the cell ends at its deadline plus settle_ms. */
#include "bench.h"
#include "clock.h"
#include "frame-colour.h"
#include "proc.h"

#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#define RING 1024                 /* unsettled frames a window may have */
#define TIMER_PERIOD_US 16667     /* timer60 */
#define PIXEL_GRACE_US 50000      /* a drawn frame's pixel may still be in the oracle's pipe */
#define COLOUR_FRAMES (FRAME_COLOUR_MAX_FRAME + 1)
#define SHOW_WAIT_US 15000000     /* a compositor may take this long to show new windows */

struct frame {
    int64_t k;                    /* frame number in the cell, per window (its colour) */
    int64_t value;                /* the extended counter value that ends it */
    int64_t odd_us, even_us;
    int64_t pixel_us, sampled_us; /* -1: not seen on screen */
    uint32_t damage_server_ms;
    bool polled;
    int64_t drawn_us, drawn_stamp_us;
    bool have_timings;
    struct timings_msg timings;
    bool covered;                 /* a later frame's drawn message came, none of its own */
    bool passed;                  /* a later frame was seen on screen */
    bool warmup;
};

struct win_state {
    struct frame ring[RING];
    int head, count;
    int64_t next_k;
    int64_t latest_pixel_k;
    int64_t awaited_k;            /* pacing: the frame the next one waits for (-1: none) */
    int64_t next_start_us;        /* pacing: the next frame starts then at the latest */
    int64_t timer_origin_us;
};

enum paced_on { ON_DRAWN, ON_PIXEL, ON_TIMER };
static const char *const paced_names[] = {"drawn", "pixel", "timer"};

struct cell {
    const struct cellspec *spec;
    const struct bench_opts *opt;
    struct bench_session *session;
    struct client *cl;
    struct painter *painter;
    struct screen *scr;
    struct proc *load;
    const struct row_sink *rows;
    struct win_state w[BENCH_MAX_WINDOWS];
    int64_t t0_us, measure_from_us, stop_starting_us, settle_by_us;
    int64_t show_by_us, shown_us;  /* every window must be on screen by then; when they were */
    double offset_ms;
    bool offset_known;
    bool drawn_advertised, drawn_seen, timings_seen, warmup_over;
    enum paced_on paced_on;
    int frames_written, stray_drawn, missed_ticks, polled_pixels, late_messages;
};

/* ---- the ring of unsettled frames ---- */
static struct frame *ring_at(struct win_state *w, int i) { return &w->ring[(w->head + i) % RING]; }

static struct frame *find_k(struct win_state *w, int64_t k)
{
    for (int i = 0; i < w->count; i++)
        if (ring_at(w, i)->k == k)
            return ring_at(w, i);
    return NULL;
}

static struct frame *find_value(struct win_state *w, int64_t value)
{
    for (int i = 0; i < w->count; i++)
        if (ring_at(w, i)->value == value)
            return ring_at(w, i);
    return NULL;
}

/* ---- times on the cell's clock ---- */
static double cell_ms(const struct cell *c, int64_t us) { return (double)(us - c->t0_us) / 1000.0; }

/* a server timestamp (ms, modulo 2^32) on the cell's clock, through the measured offset */
static double server_to_cell_ms(const struct cell *c, double server_ms)
{
    double t0 = fmod((double)c->t0_us / 1000.0, 4294967296.0);
    double d = server_ms - c->offset_ms - t0;
    if (d > 2147483648.0)
        d -= 4294967296.0;
    if (d < -2147483648.0)
        d += 4294967296.0;
    return d;
}

/* ---- what a settled frame was ---- */
static const char *outcome(const struct cell *c, const struct frame *f)
{
    bool late = f->pixel_us >= 0 && (double)(f->pixel_us - f->even_us) > c->opt->late_ms * 1000.0;
    if (f->drawn_us >= 0)
        return late ? "late" : "shown";
    if (f->covered)
        return "compressed";
    if (f->pixel_us >= 0)
        return late ? "late" : "no-drawn";
    return "never-shown";
}

static void opt_diff(struct row *r, const char *key, int64_t to, int64_t from)
{
    if (to < 0 || from < 0)
        row_null(r, key);
    else
        row_num(r, key, (double)(to - from) / 1000.0);
}

static void write_timings(struct row *r, const struct frame *f)
{
    if (!f->have_timings) {
        row_null(r, "timings");
        return;
    }
    char buf[160];
    snprintf(buf, sizeof buf, "{\"at\":%.3f,\"presentation_offset_us\":%d,\"refresh_interval_us\":%d,\"delay_us\":%d}",
             (double)(f->timings.at_us - f->odd_us) / 1000.0, f->timings.presentation_offset_us,
             f->timings.refresh_interval_us, f->timings.delay_us);
    row_raw(r, "timings", buf);
}

static void write_frame(struct cell *c, int win, const struct frame *f)
{
    struct row r;
    row_begin(&r, c->rows, "frame");
    row_str(&r, "cell", c->spec->name);
    row_int(&r, "win", win);
    row_int(&r, "frame", f->k);
    row_int(&r, "value", f->value);
    row_bool(&r, "warmup", f->warmup);
    row_str(&r, "outcome", outcome(c, f));
    row_num(&r, "odd", cell_ms(c, f->odd_us));
    row_num(&r, "even", cell_ms(c, f->even_us));
    row_opt_ms(&r, "pixel", f->pixel_us, c->t0_us);
    if (f->pixel_us >= 0)
        row_str(&r, "pixel_via", f->polled ? "poll" : "damage");
    if (f->pixel_us >= 0 && !f->polled && c->offset_known)
        row_num(&r, "damage_server", server_to_cell_ms(c, f->damage_server_ms));
    row_opt_ms(&r, "drawn", f->drawn_us, c->t0_us);
    bool stamped = f->drawn_us >= 0 && f->drawn_stamp_us >= 0 && c->offset_known;
    if (stamped)
        row_num(&r, "drawn_stamp", server_to_cell_ms(c, (double)f->drawn_stamp_us / 1000.0));
    opt_diff(&r, "even_to_pixel", f->pixel_us, f->even_us);
    opt_diff(&r, "even_to_drawn", f->drawn_us, f->drawn_us >= 0 ? f->even_us : -1);
    opt_diff(&r, "pixel_to_drawn", f->drawn_us, f->pixel_us);
    /* the drawn timestamp against the client's clock: when it says the frame was drawn minus when
     * the pixel was seen (negative: the stamp is earlier) */
    if (stamped && f->pixel_us >= 0)
        row_num(&r, "skew", server_to_cell_ms(c, (double)f->drawn_stamp_us / 1000.0) - cell_ms(c, f->pixel_us));
    write_timings(&r, f);
    row_end(&r);
    c->frames_written++;
}

/* ---- settling ---- */
static bool drawn_expected(const struct cell *c)
{
    return c->drawn_seen || (c->drawn_advertised && !c->warmup_over);
}

static bool settleable(const struct cell *c, const struct frame *f, int64_t now)
{
    if (now >= f->even_us + (int64_t)(c->opt->frame_timeout_ms * 1000))
        return true;
    if (f->covered)
        return true;
    bool pixel_known = f->pixel_us >= 0 || f->passed;
    if (!drawn_expected(c))
        return pixel_known;
    if (f->drawn_us < 0)
        return false;
    if (c->timings_seen && !f->have_timings)
        return false;
    return pixel_known || now >= f->drawn_us + PIXEL_GRACE_US;
}

static void settle(struct cell *c, int64_t now)
{
    for (int i = 0; i < c->spec->windows; i++) {
        struct win_state *w = &c->w[i];
        while (w->count > 0 && settleable(c, ring_at(w, 0), now)) {
            write_frame(c, i, ring_at(w, 0));
            w->head = (w->head + 1) % RING;
            w->count--;
        }
    }
}

static void settle_all(struct cell *c)
{
    for (int i = 0; i < c->spec->windows; i++) {
        struct win_state *w = &c->w[i];
        for (; w->count > 0; w->count--, w->head = (w->head + 1) % RING)
            write_frame(c, i, ring_at(w, 0));
    }
}

/* the earliest time a frame of w becomes settleable by its timeout */
static int64_t settle_deadline(const struct cell *c, struct win_state *w)
{
    if (w->count == 0)
        return INT64_MAX;
    int64_t t = ring_at(w, 0)->even_us + (int64_t)(c->opt->frame_timeout_ms * 1000);
    if (ring_at(w, 0)->drawn_us >= 0)
        t = t < ring_at(w, 0)->drawn_us + PIXEL_GRACE_US ? t : ring_at(w, 0)->drawn_us + PIXEL_GRACE_US;
    return t;
}

/* ---- pacing ---- */
static bool awaited_done(struct cell *c, struct win_state *w)
{
    if (w->awaited_k < 0)
        return true;
    struct frame *f = find_k(w, w->awaited_k);
    if (!f)
        return true; /* settled already */
    if (c->paced_on == ON_DRAWN)
        return f->drawn_us >= 0 || f->covered;
    return f->pixel_us >= 0 || f->passed;
}

static bool may_start(struct cell *c, struct win_state *w, int64_t now)
{
    if (now >= c->stop_starting_us || w->count == RING)
        return false;
    if (c->paced_on == ON_TIMER)
        return now >= w->next_start_us;
    return awaited_done(c, w) || now >= w->next_start_us;
}

static void start_frame(struct cell *c, int i, int64_t now)
{
    struct win_state *w = &c->w[i];
    struct frame *f = &w->ring[(w->head + w->count) % RING];
    memset(f, 0, sizeof *f);
    f->k = w->next_k++;
    f->pixel_us = f->sampled_us = f->drawn_us = f->drawn_stamp_us = -1;
    f->odd_us = clock_now_us();
    f->warmup = f->odd_us < c->measure_from_us;
    f->value = client_begin_update(c->cl, i);
    c->painter->paint(c->painter, i, frame_colour((uint32_t)(f->k % COLOUR_FRAMES)));
    client_end_update(c->cl, i, f->value);
    f->even_us = clock_now_us();
    w->count++;
    w->awaited_k = f->k;
    if (c->paced_on == ON_TIMER) {
        /* the next tick after now; ticks that passed while we were late are missed, not made up */
        int64_t n = (now - w->timer_origin_us) / TIMER_PERIOD_US + 1;
        int64_t next = w->timer_origin_us + n * TIMER_PERIOD_US;
        int64_t due = w->next_start_us + TIMER_PERIOD_US;
        if (next > due)
            c->missed_ticks += (int)((next - due) / TIMER_PERIOD_US);
        w->next_start_us = next;
    } else {
        w->next_start_us = f->even_us + (int64_t)(c->opt->frame_timeout_ms * 1000);
    }
}

/* drawn pacing falls back to the pixel when the compositor sends no drawn messages: decided at
 * the end of the warm-up (a drawn message before that switches to drawn at once) */
static void end_warmup(struct cell *c)
{
    c->warmup_over = true;
    if (c->spec->pacing == PACING_DRAWN && !c->drawn_seen)
        c->paced_on = ON_PIXEL;
}

/* ---- what arrives ---- */
static void on_drawn(void *ctx, const struct drawn_msg *m)
{
    struct cell *c = ctx;
    if (m->win >= c->spec->windows)
        return;
    c->drawn_seen = true;
    if (c->spec->pacing == PACING_DRAWN)
        c->paced_on = ON_DRAWN;
    struct win_state *w = &c->w[m->win];
    struct frame *f = find_value(w, m->value);
    if (!f) {
        c->stray_drawn++; /* an answered sync request, a frame settled by its timeout, a duplicate */
        return;
    }
    if (f->drawn_us >= 0)
        return;
    f->drawn_us = m->at_us;
    f->drawn_stamp_us = m->stamp_us;
    for (int i = 0; i < w->count && ring_at(w, i) != f; i++)
        if (ring_at(w, i)->drawn_us < 0)
            ring_at(w, i)->covered = true;
}

static void on_timings(void *ctx, const struct timings_msg *m)
{
    struct cell *c = ctx;
    if (m->win >= c->spec->windows)
        return;
    c->timings_seen = true;
    struct frame *f = find_value(&c->w[m->win], m->value);
    if (!f) {
        c->late_messages++;
        return;
    }
    f->have_timings = true;
    f->timings = *m;
}

static void on_pixel(struct cell *c, const struct pixel_event *e)
{
    if (e->win >= c->spec->windows || e->frame < 0)
        return;
    struct win_state *w = &c->w[e->win];
    if (w->next_k == 0)
        return;
    /* the colour carries k modulo 2^14: the latest frame started with that remainder */
    int64_t last = w->next_k - 1;
    int64_t k = last - ((last - e->frame) % COLOUR_FRAMES + COLOUR_FRAMES) % COLOUR_FRAMES;
    if (e->polled)
        c->polled_pixels++;
    struct frame *f = find_k(w, k);
    if (f && f->pixel_us < 0) {
        f->pixel_us = e->seen_us;
        f->sampled_us = e->sampled_us;
        f->damage_server_ms = e->damage_server_ms;
        f->polled = e->polled;
    }
    if (k > w->latest_pixel_k) {
        w->latest_pixel_k = k;
        for (int i = 0; i < w->count; i++)
            if (ring_at(w, i)->k < k)
                ring_at(w, i)->passed = true;
    }
}

static void read_pixels(struct cell *c)
{
    struct pixel_event ev[64];
    int n;
    while ((n = screen_read(c->scr, ev, 64)) > 0)
        for (int i = 0; i < n; i++)
            on_pixel(c, &ev[i]);
}

/* ---- the loop ---- */
static int64_t next_wakeup(struct cell *c, int64_t now)
{
    int64_t t = c->shown_us ? c->settle_by_us : c->show_by_us;
    if (!c->warmup_over && c->measure_from_us < t)
        t = c->measure_from_us;
    for (int i = 0; i < c->spec->windows; i++) {
        struct win_state *w = &c->w[i];
        int64_t s = settle_deadline(c, w);
        if (s < t)
            t = s;
        if (now < c->stop_starting_us && w->next_start_us < t)
            t = w->next_start_us;
    }
    if (now < c->stop_starting_us && c->stop_starting_us < t)
        t = c->stop_starting_us;
    return t;
}

/* The warm-up starts when every window has been seen on screen (KWin shows new windows about a
 * second after they map): what comes before is the compositor's start, not its pace. */
static bool all_shown(const struct cell *c)
{
    for (int i = 0; i < c->spec->windows; i++)
        if (c->w[i].latest_pixel_k < 0)
            return false;
    return true;
}

static void start_clocks(struct cell *c, int64_t now)
{
    c->shown_us = now;
    c->measure_from_us = now + (int64_t)(c->opt->warmup_ms * 1000);
    c->stop_starting_us = c->measure_from_us + (int64_t)(c->opt->cell_ms * 1000);
    c->settle_by_us = c->stop_starting_us + (int64_t)(c->opt->settle_ms * 1000);
}

static bool all_settled(const struct cell *c)
{
    for (int i = 0; i < c->spec->windows; i++)
        if (c->w[i].count)
            return false;
    return true;
}

static const char *loop(struct cell *c)
{
    struct client_events ev = {.drawn = on_drawn, .timings = on_timings, .ctx = c};
    for (;;) {
        int64_t now = clock_now_us();
        if (!c->shown_us && all_shown(c))
            start_clocks(c, now);
        if (!c->shown_us && now >= c->show_by_us) {
            settle_all(c);
            return "windows never shown";
        }
        if (!c->warmup_over && now >= c->measure_from_us)
            end_warmup(c);
        for (int i = 0; i < c->spec->windows; i++)
            if (may_start(c, &c->w[i], now))
                start_frame(c, i, now);
        now = clock_now_us();
        settle(c, now);
        if (now >= c->stop_starting_us && all_settled(c))
            return "deadline";
        if (now >= c->settle_by_us) {
            settle_all(c); /* with what is known: their time is up */
            return "deadline";
        }
        const char *why = bench_session_should_stop(c->session);
        if (why)
            return why;
        if (client_broken(c->cl))
            return "x-error";
        if (client_pump(c->cl, &ev) > 0)
            continue; /* replies to the painting may have queued events: handle them before poll */
        int64_t wake = next_wakeup(c, now);
        int timeout = wake <= now ? 0 : (int)((wake - now + 999) / 1000);
        struct pollfd p[3] = {{.fd = client_fd(c->cl), .events = POLLIN},
                              {.fd = screen_fd(c->scr), .events = POLLIN},
                              {.fd = proc_signal_fd(), .events = POLLIN}};
        poll(p, 3, timeout);
        if (p[2].revents)
            proc_handle_signals();
        /* the client's messages first: each is stamped when it is taken from the queue, and a drawn
         * message that came with the paint's damage, stamped after read_pixels' GetImage round
         * trips, read late by their length (beside stress-ng --cpu 2 a 20 ms drawn delay measured
         * 18.3 ms: the plain drawn message was stamped late, the delayed one not) */
        client_pump(c->cl, &ev);
        read_pixels(c);
    }
}

/* ---- set-up and the cell's rows ---- */
static void write_cell_row(struct cell *c)
{
    struct row r;
    row_begin(&r, c->rows, "cell");
    row_str(&r, "cell", c->spec->name);
    row_int(&r, "windows", c->spec->windows);
    row_int(&r, "width", c->spec->width);
    row_int(&r, "height", c->spec->height);
    row_str(&r, "render", render_name(c->spec->render));
    row_str(&r, "pacing", pacing_name(c->spec->pacing));
    row_str(&r, "load", load_name(c->spec->load));
    row_bool(&r, "drawn_advertised", c->drawn_advertised);
    if (c->offset_known)
        row_num(&r, "server_offset_ms", c->offset_ms);
    row_num(&r, "warmup_ms", c->opt->warmup_ms);
    row_num(&r, "cell_ms", c->opt->cell_ms);
    row_num(&r, "late_ms", c->opt->late_ms);
    row_num(&r, "frame_timeout_ms", c->opt->frame_timeout_ms);
    char rects[BENCH_MAX_WINDOWS * 48] = "[";
    for (int i = 0; i < c->spec->windows; i++) {
        const struct bench_window *bw = client_window(c->cl, i);
        size_t n = strlen(rects);
        snprintf(rects + n, sizeof rects - n, "%s[%d,%d,%d,%d]", i ? "," : "", bw->x, bw->y, bw->w, bw->h);
    }
    strcat(rects, "]");
    row_raw(&r, "rects", rects);
    row_end(&r);
}

static void write_end_row(struct cell *c, const struct cell_result *res)
{
    struct row r;
    row_begin(&r, c->rows, "cell-end");
    row_str(&r, "cell", c->spec->name);
    row_str(&r, "ended_by", res->ended_by);
    row_str(&r, "paced_on", res->paced_on);
    row_num(&r, "wall_ms", res->wall_ms);
    row_num(&r, "measured_ms", c->shown_us ? c->opt->cell_ms : 0.0);
    if (c->shown_us)
        row_num(&r, "shown_after_ms", cell_ms(c, c->shown_us));
    row_int(&r, "frames", res->frames);
    row_bool(&r, "drawn_seen", c->drawn_seen);
    row_bool(&r, "timings_seen", c->timings_seen);
    row_int(&r, "stray_drawn", c->stray_drawn);
    row_int(&r, "missed_ticks", c->missed_ticks);
    row_int(&r, "polled_pixels", c->polled_pixels);
    row_end(&r);
}

static int set_up(struct cell *c, char *err, size_t errlen)
{
    const struct cellspec *s = c->spec;
    if (client_create_windows(c->cl, s->windows, s->width, s->height, clock_now_us() + 10000000, err, errlen) < 0)
        return -1;
    c->offset_known = client_server_offset_ms(c->cl, &c->offset_ms) == 0;
    c->painter = s->render == RENDER_GL ? painter_gl(c->cl, err, errlen) : painter_core(c->cl, err, errlen);
    if (!c->painter)
        return -1;
    c->scr = screen_start(client_window(c->cl, 0), s->windows, err, errlen);
    if (!c->scr)
        return -1;
    c->load = load_start(s->load, err, errlen);
    if (s->load != LOAD_IDLE && !c->load)
        return -1;
    return 0;
}

static void tear_down(struct cell *c)
{
    load_stop(c->load);
    screen_stop(c->scr);
    if (c->painter)
        c->painter->destroy(c->painter);
    client_destroy_windows(c->cl);
}

int cell_run(const struct cellspec *spec, const struct cell_env *env, struct cell_result *res, char *err,
             size_t errlen)
{
    if (spec->is_resize)
        return resize_cell_run(spec, env, res, err, errlen);
    if (bench_session_own_xserver(env->session)) {
        /* the pixel oracle reads the X root (screen.c), which a Wayland compositor's Xwayland does not
         * composite to; the resize cells see its screen through its stream */
        snprintf(err, errlen, "the steady cells read the composited screen off the X root, and this compositor "
                              "brings its own X server (xserver: own): only resize cells run on it");
        return -1;
    }
    struct cell *c = calloc(1, sizeof *c);
    c->spec = spec;
    c->opt = env->opt;
    c->session = env->session;
    c->cl = env->cl;
    c->rows = env->rows;
    c->drawn_advertised = client_drawn_advertised(c->cl);
    int rc = set_up(c, err, errlen);
    if (rc == 0) {
        c->paced_on = spec->pacing == PACING_TIMER60 ? ON_TIMER
                      : spec->pacing == PACING_PIXEL || !c->drawn_advertised ? ON_PIXEL
                                                                            : ON_DRAWN;
        c->t0_us = clock_now_us();
        c->measure_from_us = c->stop_starting_us = c->settle_by_us = INT64_MAX; /* start_clocks */
        c->show_by_us = c->t0_us + SHOW_WAIT_US;
        for (int i = 0; i < spec->windows; i++)
            c->w[i] = (struct win_state){.latest_pixel_k = -1, .awaited_k = -1, .next_start_us = c->t0_us,
                                         .timer_origin_us = c->t0_us};
        write_cell_row(c);
        res->ended_by = loop(c);
        res->paced_on = paced_names[c->paced_on];
        res->frames = c->frames_written;
        res->wall_ms = cell_ms(c, clock_now_us());
        write_end_row(c, res);
    }
    tear_down(c);
    free(c);
    return rc;
}
