/* The input of an interactive resize: XTEST into the X server, or the compositor's own seat.
 *
 * On X11 the WM reads the X server's devices, and XTEST is input there.  A Wayland compositor's
 * X window manager reads the compositor's seat, which XTEST (into Xwayland) does not reach: its
 * conf names an input helper (`input:`, harness/input-path.h, e.g. tools/mutter-input) that the
 * harness starts once per compositor session on one end of a socket pair, and every fake client
 * gets the other end as FRAMESYNC_INPUT_FD.  One line goes to the helper per event (`key KEYSYM
 * press`, `button 1 release`, `motion X Y` in root coordinates), and the helper answers `done` or
 * `error` once the compositor took it.  Only one client drives input at a time (a `resize` is one
 * command, and the harness waits for its `done` before the next step), so the answers are not
 * shared out: a client reads exactly its own line (MSG_PEEK up to the newline) and leaves the
 * socket as it found it.  Each event is recorded (`input`) for the case's timeline.
 *
 * With an input barrier (FRAMESYNC_INPUT_BARRIER, barrier.c), each key (press and release), motion
 * or button goes to the helper only after the WM has answered a barrier, so that it comes after
 * every X event this client caused before it (its answers' alarms, its _NET_WM_MOVERESIZE). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <xcb/xtest.h>

#include "clock.h"
#include "input-barrier.h"
#include "scripted-client.h"

/* The helper answers within its own D-Bus timeout (tools/mutter-input.c: 5 s); a little longer
 * here, so an answer never arrives after its asker stopped waiting and misleads the next one. */
#define INPUT_ANSWER_MS 6000

static int seat_fd = -2; /* -2: not looked up yet, -1: none */
static char last_error[768];
static int64_t barrier_took_us = -1; /* the barrier before the next event (-1: none), for its record */
static int64_t barrier_spent_us;     /* in barriers since input_barrier_spent_us last looked */

static int seat(void)
{
    if (seat_fd == -2) {
        const char *v = getenv("FRAMESYNC_INPUT_FD");
        char *end = NULL;
        long fd = v && *v ? strtol(v, &end, 10) : -1;
        seat_fd = end && !*end && fd >= 0 ? (int)fd : -1;
    }
    return seat_fd;
}

bool input_via_seat(void)
{
    return seat() >= 0;
}

xcb_keycode_t input_keycode(struct client *cl, uint32_t keysym)
{
    const xcb_setup_t *setup = xcb_get_setup(cl->c);
    uint8_t min = setup->min_keycode, max = setup->max_keycode;
    xcb_get_keyboard_mapping_reply_t *r = xcb_get_keyboard_mapping_reply(
        cl->c, xcb_get_keyboard_mapping(cl->c, min, (uint8_t)(max - min + 1)), NULL);
    if (!r)
        return 0;
    xcb_keysym_t *syms = xcb_get_keyboard_mapping_keysyms(r);
    int per = r->keysyms_per_keycode;
    xcb_keycode_t found = 0;
    for (int k = 0; k <= max - min && !found; k++)
        for (int j = 0; j < per && !found; j++)
            if (syms[k * per + j] == keysym)
                found = (xcb_keycode_t)(min + k);
    free(r);
    return found;
}

/* One answer line of the helper, consumed up to and including its newline only. */
static bool read_answer(struct client *cl, char *line, size_t len)
{
    int64_t deadline = clock_now_us() + (int64_t)INPUT_ANSWER_MS * 1000;
    for (;;) {
        char peek[512];
        ssize_t n = recv(seat(), peek, sizeof peek - 1, MSG_PEEK | MSG_DONTWAIT);
        if (n == 0) {
            snprintf(line, len, "it closed its end");
            logmsg(cl, "input: the compositor's input helper closed its end");
            return false;
        }
        if (n > 0) {
            char *nl = memchr(peek, '\n', (size_t)n);
            if (nl || n == (ssize_t)sizeof peek - 1) {
                size_t take = nl ? (size_t)(nl - peek) + 1 : (size_t)n;
                ssize_t got = recv(seat(), peek, take, MSG_DONTWAIT);
                peek[got > 0 ? (size_t)got - (nl ? 1 : 0) : 0] = '\0';
                snprintf(line, len, "%s", peek);
                return true;
            }
        } else if (errno != EAGAIN && errno != EINTR) {
            snprintf(line, len, "%s", strerror(errno));
            logmsg(cl, "input: reading the helper's answer: %s", strerror(errno));
            return false;
        }
        int64_t left_ms = (deadline - clock_now_us()) / 1000;
        if (left_ms <= 0) {
            snprintf(line, len, "no answer within %d ms", INPUT_ANSWER_MS);
            logmsg(cl, "input: the compositor's input helper did not answer within %d ms", INPUT_ANSWER_MS);
            return false;
        }
        struct pollfd p = {.fd = seat(), .events = POLLIN};
        poll(&p, 1, (int)(left_ms < 50 ? left_ms : 50)); /* 50: a partial line wakes poll at once again */
    }
}

/* Sends one event to the seat and waits for the helper's answer; false with a log line. */
static bool seat_event(struct client *cl, const char *event)
{
    char line[256], answer[512];
    int n = snprintf(line, sizeof line, "%s\n", event);
    if (send(seat(), line, (size_t)n, MSG_NOSIGNAL) != n) {
        snprintf(last_error, sizeof last_error, "cannot write `%s` to the compositor's input helper: %s", event,
                 strerror(errno));
        logmsg(cl, "input: %s", last_error);
        return false;
    }
    if (!read_answer(cl, answer, sizeof answer)) {
        snprintf(last_error, sizeof last_error, "the compositor's input helper did not answer `%s` (%s)", event,
                 answer);
        return false;
    }
    char barrier[96] = "";
    if (barrier_took_us >= 0)
        snprintf(barrier, sizeof barrier, " barrier=%s barrier_us=%lld", input_barrier_name(barrier_kind()),
                 (long long)barrier_took_us);
    barrier_took_us = -1;
    record("input", "via=seat%s answer=%s msg=%s", barrier, strncmp(answer, "done", 4) ? "error" : "done", event);
    if (strncmp(answer, "done", 4)) {
        snprintf(last_error, sizeof last_error, "the compositor's input helper refused `%s`: %s", event, answer);
        logmsg(cl, "input: %s", last_error);
        return false;
    }
    return true;
}

/* The barrier before one key, motion or button (its first line: event); false with last_error. */
static bool seat_barrier(struct client *cl, const char *event)
{
    bool ok = barrier_before_input(cl, event, &barrier_took_us, last_error, sizeof last_error);
    barrier_spent_us += barrier_took_us > 0 ? barrier_took_us : 0;
    return ok;
}

int64_t input_barrier_spent_us(void)
{
    int64_t spent = barrier_spent_us;
    barrier_spent_us = 0;
    return spent;
}

bool input_key(struct client *cl, uint32_t keysym)
{
    if (!input_via_seat()) {
        xcb_keycode_t key = input_keycode(cl, keysym);
        xcb_test_fake_input(cl->c, XCB_KEY_PRESS, key, XCB_CURRENT_TIME, XCB_NONE, 0, 0, 0);
        xcb_test_fake_input(cl->c, XCB_KEY_RELEASE, key, XCB_CURRENT_TIME, XCB_NONE, 0, 0, 0);
        xcb_flush(cl->c);
        return true;
    }
    char ev[64];
    snprintf(ev, sizeof ev, "key 0x%x press", keysym);
    if (!seat_barrier(cl, ev) || !seat_event(cl, ev))
        return false;
    snprintf(ev, sizeof ev, "key 0x%x release", keysym);
    return seat_event(cl, ev);
}

bool input_motion(struct client *cl, int x, int y)
{
    if (!input_via_seat()) {
        xcb_test_fake_input(cl->c, XCB_MOTION_NOTIFY, 0, XCB_CURRENT_TIME, cl->screen->root, (int16_t)x, (int16_t)y, 0);
        xcb_flush(cl->c);
        return true;
    }
    char ev[64];
    snprintf(ev, sizeof ev, "motion %d %d", x, y);
    return seat_barrier(cl, ev) && seat_event(cl, ev);
}

bool input_button(struct client *cl, bool down)
{
    if (!input_via_seat()) {
        xcb_test_fake_input(cl->c, down ? XCB_BUTTON_PRESS : XCB_BUTTON_RELEASE, 1, XCB_CURRENT_TIME, XCB_NONE, 0,
                            0, 0);
        xcb_flush(cl->c);
        return true;
    }
    const char *ev = down ? "button 1 press" : "button 1 release";
    return seat_barrier(cl, ev) && seat_event(cl, ev);
}

bool input_pointer_shows(struct client *cl, int x, int y, bool button1, int *seen_x, int *seen_y)
{
    xcb_query_pointer_reply_t *p = xcb_query_pointer_reply(cl->c, xcb_query_pointer(cl->c, cl->screen->root), NULL);
    bool shows = p && p->root_x == x && p->root_y == y && (!button1 || (p->mask & XCB_KEY_BUT_MASK_BUTTON_1));
    *seen_x = p ? p->root_x : -1;
    *seen_y = p ? p->root_y : -1;
    free(p);
    return shows;
}

const char *input_error(void)
{
    return last_error[0] ? last_error : "the compositor's input helper failed";
}
