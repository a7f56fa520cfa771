/* The resize cell's driver (resize.h): the user, on its own connection and thread.
 * _NET_WM_MOVERESIZE SIZE_BOTTOMRIGHT after an XTEST button press at the window's corner, then
 * XTEST motion at HZ along the path (grow right, grow down, shrink diagonally), then the release;
 * for kbdHZ, _NET_WM_MOVERESIZE_SIZE_KEYBOARD and the arrow keys; for cfgHZ, the client's own
 * ConfigureRequests at HZ.  Every motion (or the size a key brought) is recorded.  On a compositor
 * that brings its X server the keys, motions and button go through its own seat instead (its input
 * helper, harness/input-path.h), each sent once the last one was taken: XTEST reaches only its
 * Xwayland, and its resize is no X grab, so none is waited for. */
#include "resize.h"
#include "clock.h"
#include "xhelpers.h"

#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xcb/xtest.h>

#define GRAB_WAIT_US 2000000
#define MOVERESIZE_SIZE_BOTTOMRIGHT 4
#define MOVERESIZE_SIZE_KEYBOARD 9 /* EWMH: 8 is MOVE, 9 SIZE_KEYBOARD, 10 MOVE_KEYBOARD */
#define KEY_ANSWER_US 100000   /* a key press with no size change by then did nothing (openbox:
                                * the first key of an axis picks the edge); the next may go */
#define STEP_GUESS 8           /* what a key is taken to change before one did (openbox's KEY_DIST) */
#define XK_LEFT 0xff51
#define XK_UP 0xff52
#define XK_RIGHT 0xff53
#define XK_DOWN 0xff54
#define XK_RETURN 0xff0d
#define SEAT_ANSWER_MS 6000    /* a helper that does not answer an event by then failed (as the scripted client) */
#define POINTER_WAIT_US 500000 /* Xwayland shows the seat's pointer at the corner by then */

/* ---- the path: the pointer's offset from where it started, at s in [0, 1] of one pass.  A pass
 * takes PATH_MS whatever the cell's time (so a cell means the same speed everywhere: about
 * 205 px/s); the drive is as many passes as fit --cell-ms, at least one ---- */
static const struct { double s; int dx, dy; } path[] = {
    {0.0, 0, 0}, {0.35, GROW_W, 0}, {0.55, GROW_W, GROW_H}, {0.9, 0, 0}, {1.0, 0, 0}};

static void path_at(double s, int *dx, int *dy)
{
    int n = (int)(sizeof path / sizeof path[0]);
    for (int i = 1; i < n; i++)
        if (s <= path[i].s || i == n - 1) {
            double f = (s - path[i - 1].s) / (path[i].s - path[i - 1].s);
            f = f < 0 ? 0 : f > 1 ? 1 : f;
            *dx = (int)(path[i - 1].dx + f * (path[i].dx - path[i - 1].dx) + 0.5);
            *dy = (int)(path[i - 1].dy + f * (path[i].dy - path[i - 1].dy) + 0.5);
            return;
        }
}

/* wait until `until` or a stop; false on a stop */
static bool driver_wait(struct driver *d, int64_t until)
{
    for (;;) {
        int64_t left = until - clock_now_us();
        if (left <= 0)
            return true;
        struct pollfd p = {.fd = d->stop[0], .events = POLLIN};
        if (poll(&p, 1, (int)((left + 999) / 1000)) > 0)
            return false;
    }
}

/* ---- the compositor's seat: one event a line, answered `done` or `error` once it was taken ---- */
static bool seat_answer(struct driver *d, char *answer, size_t len)
{
    size_t n = 0;
    int64_t deadline = clock_now_us() + (int64_t)SEAT_ANSWER_MS * 1000;
    while (n + 1 < len) {
        int64_t left = deadline - clock_now_us();
        struct pollfd p = {.fd = d->seat_fd, .events = POLLIN};
        if (left <= 0 || poll(&p, 1, (int)(left / 1000) + 1) <= 0 || read(d->seat_fd, answer + n, 1) != 1)
            return false;
        if (answer[n] == '\n')
            break;
        n++;
    }
    answer[n] = 0;
    return !strncmp(answer, "done", 4);
}

static bool seat_event(struct driver *d, const char *fmt, ...)
{
    char event[96], answer[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(event, sizeof event - 1, fmt, ap);
    va_end(ap);
    size_t n = strlen(event);
    event[n] = '\n';
    bool ok = write(d->seat_fd, event, n + 1) == (ssize_t)(n + 1);
    answer[0] = 0;
    ok = ok && seat_answer(d, answer, sizeof answer);
    if (!ok && !d->seat_error[0])
        snprintf(d->seat_error, sizeof d->seat_error, "%.*s: %s", (int)n, event,
                 answer[0] ? answer : "no answer from the input helper");
    return ok;
}

static void pointer_to(struct driver *d, int x, int y)
{
    if (d->seat_fd >= 0)
        seat_event(d, "motion %d %d", x, y);
    else
        xcb_test_fake_input(d->c, XCB_MOTION_NOTIFY, 0, XCB_CURRENT_TIME, d->root, (int16_t)x, (int16_t)y, 0);
}

static void button(struct driver *d, bool down)
{
    if (d->seat_fd >= 0)
        seat_event(d, "button 1 %s", down ? "press" : "release");
    else
        xcb_test_fake_input(d->c, down ? XCB_BUTTON_PRESS : XCB_BUTTON_RELEASE, 1, XCB_CURRENT_TIME, XCB_NONE, 0, 0,
                            0);
}

/* Xwayland shows the seat's pointer where it was sent (the compositor handled the motion): up to
 * POINTER_WAIT_US */
static void await_pointer_at(struct driver *d, int x, int y)
{
    int64_t until = clock_now_us() + POINTER_WAIT_US;
    while (clock_now_us() < until) {
        xcb_query_pointer_reply_t *q = xcb_query_pointer_reply(d->c, xcb_query_pointer(d->c, d->root), NULL);
        bool there = q && q->root_x == x && q->root_y == y;
        free(q);
        if (there || !driver_wait(d, clock_now_us() + 5000))
            return;
    }
}

/* Asks the WM for an interactive resize of the window (_NET_WM_MOVERESIZE in `direction`, with
 * `button` held or 0), then waits up to GRAB_WAIT_US for it to take the pointer (keyboard) grab:
 * d->grabbed says whether it did. */
static void ask_moveresize(struct driver *d, uint32_t direction, uint32_t button, bool pointer)
{
    xcb_client_message_event_t ev;
    memset(&ev, 0, sizeof ev);
    ev.response_type = XCB_CLIENT_MESSAGE;
    ev.window = d->win;
    ev.format = 32;
    ev.type = d->moveresize;
    ev.data.data32[0] = (uint32_t)d->corner_x;
    ev.data.data32[1] = (uint32_t)d->corner_y;
    ev.data.data32[2] = direction;
    ev.data.data32[3] = button;
    ev.data.data32[4] = 1;
    xcb_send_event(d->c, 0, d->root, XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY,
                   (const char *)&ev);
    xcb_flush(d->c);
    if (d->seat_fd >= 0)
        return; /* the compositor's resize is no X grab */
    int64_t until = clock_now_us() + GRAB_WAIT_US;
    while (!(d->grabbed = xh_grabbed_by_other(d->c, d->root, pointer)) && clock_now_us() < until)
        if (!driver_wait(d, clock_now_us() + 5000))
            return;
}

static void driver_begin_pointer(struct driver *d)
{
    pointer_to(d, d->corner_x, d->corner_y);
    if (d->seat_fd >= 0)
        await_pointer_at(d, d->corner_x, d->corner_y);
    button(d, true);
    xh_round_trip(d->c);
    ask_moveresize(d, MOVERESIZE_SIZE_BOTTOMRIGHT, 1, true);
}

/* ---- kbdHZ: _NET_WM_MOVERESIZE_SIZE_KEYBOARD, then the arrow keys by XTEST ---- */
static xcb_keycode_t keycode_of(const struct driver *d, xcb_keysym_t sym)
{
    if (!d->keymap)
        return 0;
    int per = d->keymap->keysyms_per_keycode, n = xcb_get_keyboard_mapping_keysyms_length(d->keymap);
    const xcb_keysym_t *syms = xcb_get_keyboard_mapping_keysyms(d->keymap);
    for (int i = 0; per > 0 && i < n; i++)
        if (syms[i] == sym)
            return (xcb_keycode_t)(d->keymap_min + i / per);
    return 0;
}

static void press(struct driver *d, xcb_keysym_t sym)
{
    if (d->seat_fd >= 0) {
        if (seat_event(d, "key 0x%x press", sym))
            seat_event(d, "key 0x%x release", sym);
        return;
    }
    xcb_keycode_t k = keycode_of(d, sym);
    xcb_test_fake_input(d->c, XCB_KEY_PRESS, k, XCB_CURRENT_TIME, XCB_NONE, 0, 0, 0);
    xcb_test_fake_input(d->c, XCB_KEY_RELEASE, k, XCB_CURRENT_TIME, XCB_NONE, 0, 0, 0);
    xcb_flush(d->c);
}

/* The window's ConfigureNotify events read so far: its size (cw, ch).  A change of size is what
 * the last key press asked for (motion_rec at the press's time): the WM decides what a key does
 * (its step, or nothing for a key that picks an edge), so the driver records what came of it. */
static void read_sizes(struct driver *d)
{
    xcb_generic_event_t *e;
    while ((e = xcb_poll_for_event(d->c))) {
        xcb_configure_notify_event_t *c = (xcb_configure_notify_event_t *)e;
        if ((e->response_type & 0x7f) == XCB_CONFIGURE_NOTIFY && c->window == d->win &&
            (c->width != d->cw || c->height != d->ch)) {
            if (c->width != d->cw)
                d->step_w = abs(c->width - d->cw);
            if (c->height != d->ch)
                d->step_h = abs(c->height - d->ch);
            d->cw = c->width, d->ch = c->height;
            d->key_pending = false;
            if (d->n < MAX_MOTIONS && d->key_at)
                d->recs[d->n++] = (struct motion_rec){.t_us = d->key_at, .w = (int16_t)d->cw, .h = (int16_t)d->ch};
        }
        free(e);
    }
}

static void driver_begin_keyboard(struct driver *d)
{
    uint32_t mask = XCB_EVENT_MASK_STRUCTURE_NOTIFY; /* the window's size: what one key changes */
    xcb_change_window_attributes(d->c, d->win, XCB_CW_EVENT_MASK, &mask);
    const xcb_setup_t *setup = xcb_get_setup(d->c);
    d->keymap_min = setup->min_keycode;
    uint8_t count = (uint8_t)(setup->max_keycode - setup->min_keycode + 1);
    d->keymap = xcb_get_keyboard_mapping_reply(d->c, xcb_get_keyboard_mapping(d->c, setup->min_keycode, count), NULL);
    d->cw = W0;
    d->ch = H0;
    d->step_w = d->step_h = STEP_GUESS;
    ask_moveresize(d, MOVERESIZE_SIZE_KEYBOARD, 0, false); /* no button */
}

/* One key toward the path's size (tw, th) from the window's, once the last key's change came (or
 * KEY_ANSWER_US passed): on the axis of the last key while it is half a step or more away, else on
 * the other.  The first key on an axis is its growing one (Right, Down) whatever the path wants:
 * openbox and marco take that key as picking the edge the keys move (the right or bottom one: the
 * top-left corner stays), where Left or Up would pick the left or top edge; fake-wm grows by it,
 * and the next keys take it back.  Nothing is waited for after it (it may do nothing). */
static void key_toward(struct driver *d, int tw, int th)
{
    read_sizes(d);
    int64_t now = clock_now_us();
    if (d->key_pending && now < d->key_at + KEY_ANSWER_US)
        return;
    int ew = tw - d->cw, eh = th - d->ch;
    bool far_w = 2 * abs(ew) >= d->step_w, far_h = 2 * abs(eh) >= d->step_h;
    if (!far_w && !far_h)
        return;
    bool wide = d->keys && d->last_wide ? far_w : !far_h;
    bool picks_edge = !d->keys || wide != d->last_wide;
    if (picks_edge)
        press(d, wide ? XK_RIGHT : XK_DOWN);
    else
        press(d, wide ? (ew > 0 ? XK_RIGHT : XK_LEFT) : (eh > 0 ? XK_DOWN : XK_UP));
    d->keys++;
    d->last_wide = wide;
    d->key_pending = !picks_edge;
    d->key_at = now;
}

static void *driver_run(void *arg)
{
    struct driver *d = arg;
    if (d->rs->trigger == RT_POINTER)
        driver_begin_pointer(d);
    else if (d->rs->trigger == RT_KEYBOARD)
        driver_begin_keyboard(d);
    d->t0_us = clock_now_us();
    int64_t period = 1000000 / d->rs->hz;
    int lx = 0, ly = 0;
    bool stopped = false;
    for (int64_t i = 1;; i++) {
        int64_t due = d->t0_us + i * period;
        if (due > d->t0_us + d->duration_us)
            break;
        if (!driver_wait(d, due)) {
            stopped = true;
            break;
        }
        int dx, dy;
        int64_t in_pass = (due - d->t0_us) % ((int64_t)PATH_MS * 1000);
        path_at(due - d->t0_us >= d->duration_us ? 1.0 : (double)in_pass / (PATH_MS * 1000.0), &dx, &dy);
        if (d->rs->trigger == RT_KEYBOARD) {
            key_toward(d, W0 + dx, H0 + dy);
            continue;
        }
        if (dx == lx && dy == ly)
            continue; /* a mouse reports motion, not its stillness */
        lx = dx, ly = dy;
        if (d->rs->trigger == RT_POINTER) {
            pointer_to(d, d->corner_x + dx, d->corner_y + dy);
        } else {
            uint32_t wh[2] = {(uint32_t)(W0 + dx), (uint32_t)(H0 + dy)};
            xcb_configure_window(d->c, d->win, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, wh);
        }
        xcb_flush(d->c);
        if (d->n < MAX_MOTIONS)
            d->recs[d->n++] = (struct motion_rec){.t_us = clock_now_us(), .w = (int16_t)(W0 + dx),
                                                  .h = (int16_t)(H0 + dy)};
    }
    /* an interrupted cell keeps its rows: its rates are over the time it drove */
    d->ran_us = stopped ? clock_now_us() - d->t0_us : d->duration_us;
    if (d->rs->trigger == RT_POINTER) {
        button(d, false);
        xh_round_trip(d->c);
    } else if (d->rs->trigger == RT_KEYBOARD) {
        press(d, XK_RETURN); /* ends the keyboard resize where it is */
        xh_round_trip(d->c);
        read_sizes(d);       /* the changes of the last keys */
    }
    atomic_store(&d->done, true);
    return NULL;
}

int resize_driver_start(struct driver *d)
{
    if (pthread_create(&d->thread, NULL, driver_run, d) != 0)
        return -1;
    d->started = true;
    return 0;
}

void resize_driver_stop(struct driver *d)
{
    if (d->started) {
        ssize_t n = write(d->stop[1], "x", 1);
        (void)n;
        pthread_join(d->thread, NULL);
        d->started = false;
    }
}
