/* A check of fake-wm's pointer-driven resizing, as a toolkit and a user make one: a client window
 * that takes part in the sync protocol (basic form, or extended with --extended), a button press
 * on its corner (XTEST), `_NET_WM_MOVERESIZE` for that direction, pointer motion (XTEST) and the
 * release.  The client answers each sync request after the ConfigureNotify that follows it.
 *
 *   pointer-resize [--extended] [--expect-requests|--expect-no-requests] [--expect-ignored]
 *                  [--answer-delay-ms N]
 *
 * --answer-delay-ms N: the client answers N ms after the ConfigureNotify (a slow client), so the
 * WM has to queue the motion that comes meanwhile and apply the latest size after the answer.
 * Checks (exit 0 when all hold, 1 otherwise; each result printed):
 *   - without a held button, _NET_WM_MOVERESIZE starts nothing (no pointer grab);
 *   - SIZE_BOTTOMRIGHT, +60,+40 in 6 moves: the last ConfigureNotify is 260x190 at the same place;
 *   - SIZE_TOPLEFT, -30,-20: 290x210, moved by -30,-20 (the bottom-right corner stays put);
 *   - every sync request comes before the ConfigureNotify it announces, with increasing values,
 *     and there is at least one (--expect-requests, the default) or none (--expect-no-requests);
 *   - with --expect-ignored the WM takes no grab at all and the size does not change.
 * fake-wm/tests/pointer-resize.sh builds it and runs it on its own Xvfb against fake-wm. */
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xcb/sync.h>
#include <xcb/xcb.h>
#include <xcb/xtest.h>

static xcb_connection_t *c;
static xcb_screen_t *screen;
static xcb_window_t win;
static xcb_sync_counter_t counter1, counter2;
static bool extended;
static int failures;

/* what the client saw */
static int nrequests, unannounced_resizes;
static int64_t last_request, pending_answer;
static bool answer_due;
static bool values_increase = true;
static int answer_delay_ms;     /* --answer-delay-ms: a slow client, so resizes queue up */
static int64_t answer_at = -1;  /* when the armed answer is due (CLOCK_MONOTONIC ms) */
static int16_t cur_x, cur_y;
static uint16_t cur_w, cur_h;

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static xcb_atom_t intern(const char *name)
{
    xcb_intern_atom_reply_t *r = xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, (uint16_t)strlen(name), name), NULL);
    xcb_atom_t a = r ? r->atom : XCB_NONE;
    free(r);
    return a;
}

static void check(bool ok, const char *what)
{
    printf("%s: %s\n", ok ? "ok" : "FAIL", what);
    if (!ok)
        failures++;
}

static xcb_sync_int64_t i64(int64_t v)
{
    xcb_sync_int64_t r = {.hi = (int32_t)(v >> 32), .lo = (uint32_t)v};
    return r;
}

static void answer(void)
{
    /* basic: the counter := the value; extended: first := value, second := next even >= value */
    xcb_sync_set_counter(c, counter1, i64(pending_answer));
    if (extended)
        xcb_sync_set_counter(c, counter2, i64((pending_answer + 1) & ~(int64_t)1));
    xcb_flush(c);
    answer_due = false;
}

static void handle(xcb_generic_event_t *ev)
{
    uint8_t type = ev->response_type & 0x7f;
    if (type == XCB_CLIENT_MESSAGE) {
        xcb_client_message_event_t *m = (xcb_client_message_event_t *)ev;
        if (m->data.data32[0] == intern("_NET_WM_SYNC_REQUEST")) {
            int64_t v = (int64_t)(((uint64_t)m->data.data32[3] << 32) | m->data.data32[2]);
            if (nrequests > 0 && v <= last_request)
                values_increase = false;
            last_request = v;
            pending_answer = v;
            answer_due = true;
            nrequests++;
            printf("  sync request value=%lld l4=%u\n", (long long)v, m->data.data32[4]);
        }
    } else if (type == XCB_CONFIGURE_NOTIFY) {
        xcb_configure_notify_event_t *e = (xcb_configure_notify_event_t *)ev;
        if (e->window != win)
            return;
        bool resized = e->width != cur_w || e->height != cur_h;
        cur_x = e->x;
        cur_y = e->y;
        cur_w = e->width;
        cur_h = e->height;
        printf("  configure-notify %ux%u+%d+%d\n", e->width, e->height, e->x, e->y);
        if (resized && !answer_due)
            unannounced_resizes++;
        if (answer_due) {
            if (answer_delay_ms)
                answer_at = now_ms() + answer_delay_ms;
            else
                answer();
        }
    }
}

/* handle events until the deadline (an event wait with a deadline, not a sleep) */
static void run_for(int ms)
{
    int64_t end = now_ms() + ms;
    for (;;) {
        xcb_generic_event_t *ev;
        while ((ev = xcb_poll_for_event(c))) {
            handle(ev);
            free(ev);
        }
        if (answer_at >= 0 && now_ms() >= answer_at) {
            answer_at = -1;
            answer();
        }
        int64_t wake = answer_at >= 0 && answer_at < end ? answer_at : end;
        int64_t left = wake - now_ms();
        if (end - now_ms() <= 0 || xcb_connection_has_error(c))
            return;
        struct pollfd p = {.fd = xcb_get_file_descriptor(c), .events = POLLIN};
        poll(&p, 1, left > 0 ? (int)left : 0);
    }
}

/* a GrabPointer at the timestamp 1 (never moves the server's last-grab time): AlreadyGrabbed
 * means another client holds the pointer, i.e. the WM's resize mode */
static bool pointer_grabbed_by_other(void)
{
    xcb_grab_pointer_cookie_t ck =
        xcb_grab_pointer(c, 0, screen->root, 0, XCB_GRAB_MODE_ASYNC, XCB_GRAB_MODE_ASYNC, XCB_NONE, XCB_NONE, 1);
    xcb_ungrab_pointer(c, XCB_CURRENT_TIME);
    xcb_grab_pointer_reply_t *r = xcb_grab_pointer_reply(c, ck, NULL);
    bool other = r && (r->status == XCB_GRAB_STATUS_ALREADY_GRABBED || r->status == XCB_GRAB_STATUS_FROZEN);
    free(r);
    return other;
}

static bool wait_for_grab(int ms, bool want)
{
    int64_t end = now_ms() + ms;
    while (now_ms() < end) {
        if (pointer_grabbed_by_other() == want)
            return true;
        run_for(5);
    }
    return false;
}

static void fake(uint8_t type, uint8_t detail, int16_t x, int16_t y)
{
    xcb_test_fake_input(c, type, detail, XCB_CURRENT_TIME, type == XCB_MOTION_NOTIFY ? screen->root : XCB_NONE, x,
                        y, 0);
    xcb_flush(c);
}

static void send_moveresize(int16_t x, int16_t y, uint32_t dir, uint32_t button)
{
    xcb_client_message_event_t m;
    memset(&m, 0, sizeof m);
    m.response_type = XCB_CLIENT_MESSAGE;
    m.format = 32;
    m.window = win;
    m.type = intern("_NET_WM_MOVERESIZE");
    m.data.data32[0] = (uint32_t)x;
    m.data.data32[1] = (uint32_t)y;
    m.data.data32[2] = dir;
    m.data.data32[3] = button;
    m.data.data32[4] = 1;
    xcb_send_event(c, 0, screen->root, XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY,
                   (const char *)&m);
    xcb_flush(c);
}

/* press on (x, y), send the message, drag by (dx, dy) in `steps` moves, release */
static bool drag(int16_t x, int16_t y, uint32_t dir, int dx, int dy, int steps, bool expect_grab)
{
    fake(XCB_MOTION_NOTIFY, 0, x, y);
    fake(XCB_BUTTON_PRESS, 1, 0, 0);
    run_for(20);
    send_moveresize(x, y, dir, 1);
    bool grabbed = wait_for_grab(expect_grab ? 2000 : 300, true);
    for (int i = 1; i <= steps; i++) {
        fake(XCB_MOTION_NOTIFY, 0, (int16_t)(x + dx * i / steps), (int16_t)(y + dy * i / steps));
        run_for(40);
    }
    fake(XCB_BUTTON_RELEASE, 1, 0, 0);
    run_for(300);
    return grabbed;
}

static void create_window(void)
{
    win = xcb_generate_id(c);
    uint32_t vals[2] = {screen->white_pixel, XCB_EVENT_MASK_STRUCTURE_NOTIFY};
    xcb_create_window(c, XCB_COPY_FROM_PARENT, win, screen->root, 100, 100, 200, 150, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, XCB_CW_BACK_PIXEL | XCB_CW_EVENT_MASK,
                      vals);
    xcb_atom_t protocols[2] = {intern("WM_DELETE_WINDOW"), intern("_NET_WM_SYNC_REQUEST")};
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, win, intern("WM_PROTOCOLS"), XCB_ATOM_ATOM, 32, 2, protocols);
    xcb_sync_initialize_reply_t *si = xcb_sync_initialize_reply(c, xcb_sync_initialize(c, 3, 1), NULL);
    free(si);
    counter1 = xcb_generate_id(c);
    xcb_sync_create_counter(c, counter1, i64(0));
    uint32_t counters[2] = {counter1, XCB_NONE};
    if (extended) {
        counter2 = xcb_generate_id(c);
        xcb_sync_create_counter(c, counter2, i64(0));
        counters[1] = counter2;
    }
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, win, intern("_NET_WM_SYNC_REQUEST_COUNTER"), XCB_ATOM_CARDINAL, 32,
                        extended ? 2 : 1, counters);
    xcb_map_window(c, win);
    xcb_flush(c);
    cur_x = 100;
    cur_y = 100;
    cur_w = 200;
    cur_h = 150;
    run_for(300);
}

int main(int argc, char **argv)
{
    bool expect_requests = true, expect_ignored = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--extended"))
            extended = true;
        else if (!strcmp(argv[i], "--expect-no-requests"))
            expect_requests = false;
        else if (!strcmp(argv[i], "--expect-requests"))
            expect_requests = true;
        else if (!strcmp(argv[i], "--expect-ignored"))
            expect_ignored = true;
        else if (!strcmp(argv[i], "--answer-delay-ms") && i + 1 < argc)
            answer_delay_ms = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: pointer-resize [--extended] [--expect-requests|--expect-no-requests] "
                            "[--expect-ignored] [--answer-delay-ms N]\n");
            return 2;
        }
    }
    c = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(c)) {
        fprintf(stderr, "pointer-resize: cannot connect to the X server\n");
        return 2;
    }
    screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
    create_window();

    /* no button held: the message is ignored */
    fake(XCB_MOTION_NOTIFY, 0, 300, 250);
    run_for(20);
    send_moveresize(300, 250, 4, 1);
    check(!wait_for_grab(300, true), "no pointer grab for _NET_WM_MOVERESIZE without a held button");

    if (expect_ignored) {
        bool grabbed = drag(300, 250, 4, 60, 40, 6, false);
        check(!grabbed, "no pointer grab: pointer-driven resizing is ignored");
        check(cur_w == 200 && cur_h == 150, "the size did not change");
        check(nrequests == 0, "no sync request");
    } else {
        check(drag(300, 250, 4, 60, 40, 6, true), "SIZE_BOTTOMRIGHT: the WM grabbed the pointer");
        check(wait_for_grab(500, false), "the pointer grab ended with the release");
        check(cur_w == 260 && cur_h == 190 && cur_x == 100 && cur_y == 100,
              "SIZE_BOTTOMRIGHT +60,+40: 260x190 at 100,100");
        check(drag(100, 100, 0, -30, -20, 3, true), "SIZE_TOPLEFT: the WM grabbed the pointer");
        check(wait_for_grab(500, false), "the pointer grab ended with the release");
        check(cur_w == 290 && cur_h == 210 && cur_x == 70 && cur_y == 80,
              "SIZE_TOPLEFT -30,-20: 290x210 at 70,80 (the bottom-right corner stays at 360,290)");
        if (expect_requests) {
            check(nrequests > 0, "sync requests were sent during the pointer resizes");
            check(unannounced_resizes == 0, "every resizing ConfigureNotify came after a sync request");
            check(values_increase, "the request values increase");
        } else {
            check(nrequests == 0, "no sync request during the pointer resizes");
        }
    }
    printf("%s (%d sync requests)\n", failures ? "FAILED" : "PASSED", nrequests);
    xcb_disconnect(c);
    return failures ? 1 : 0;
}
