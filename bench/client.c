/* The benchmark's application side: one X connection with the cell's windows, each with two
 * XSync counters in _NET_WM_SYNC_REQUEST_COUNTER (basic, then extended), so every frame can be a
 * delimited update (extended counter odd, draw, even).  It reads the drawn messages
 * (_NET_WM_FRAME_DRAWN with its timestamp, or _NET_WM_SYNC_DRAWN) and _NET_WM_FRAME_TIMINGS, and
 * answers sync requests at once (the bench never resizes, so there is no configure to wait for). */
#include "bench.h"
#include "clock.h"
#include "xhelpers.h"

#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xcb/xcb_icccm.h>

enum {
    A_WM_PROTOCOLS,
    A_WM_DELETE_WINDOW,
    A_NET_WM_SYNC_REQUEST,
    A_NET_WM_SYNC_REQUEST_COUNTER,
    A_NET_WM_SYNC_DRAWN,
    A_NET_WM_FRAME_DRAWN,
    A_NET_WM_FRAME_TIMINGS,
    A_NET_SUPPORTED,
    A_NET_WM_NAME,
    A_UTF8_STRING,
    A_NET_WM_PID,
    A_BENCH_STAMP,
    A_COUNT
};
static const char *const atom_names[A_COUNT] = {
    "WM_PROTOCOLS",         "WM_DELETE_WINDOW",       "_NET_WM_SYNC_REQUEST", "_NET_WM_SYNC_REQUEST_COUNTER",
    "_NET_WM_SYNC_DRAWN",   "_NET_WM_FRAME_DRAWN",    "_NET_WM_FRAME_TIMINGS", "_NET_SUPPORTED",
    "_NET_WM_NAME",         "UTF8_STRING",            "_NET_WM_PID",          "_FRAMESYNC_BENCH_STAMP",
};

struct client {
    xcb_connection_t *c;
    xcb_screen_t *screen;
    xcb_atom_t atom[A_COUNT];
    struct bench_window wins[BENCH_MAX_WINDOWS];
    int nwins;
    bool drawn_advertised;
    /* the last PropertyNotify on our stamp property, for the server clock offset */
    bool stamp_seen;
    xcb_timestamp_t stamp_time;
};

xcb_connection_t *client_conn(struct client *cl) { return cl->c; }
int client_fd(struct client *cl) { return xcb_get_file_descriptor(cl->c); }
bool client_drawn_advertised(struct client *cl) { return cl->drawn_advertised; }
struct bench_window *client_window(struct client *cl, int i) { return &cl->wins[i]; }
int client_nwindows(struct client *cl) { return cl->nwins; }
bool client_broken(struct client *cl) { return xcb_connection_has_error(cl->c) != 0; }

/* what the compositor claims: a drawn message in _NET_SUPPORTED (on the root) */
static bool supports_drawn(struct client *cl)
{
    xcb_get_property_reply_t *r = xcb_get_property_reply(
        cl->c, xcb_get_property(cl->c, 0, cl->screen->root, cl->atom[A_NET_SUPPORTED], XCB_ATOM_ATOM, 0, 4096), NULL);
    bool yes = false;
    if (r && r->format == 32) {
        const xcb_atom_t *a = xcb_get_property_value(r);
        int n = xcb_get_property_value_length(r) / 4;
        for (int i = 0; i < n; i++)
            if (a[i] == cl->atom[A_NET_WM_FRAME_DRAWN] || a[i] == cl->atom[A_NET_WM_SYNC_DRAWN])
                yes = true;
    }
    free(r);
    return yes;
}

struct client *client_open(char *err, size_t errlen)
{
    struct client *cl = calloc(1, sizeof *cl);
    cl->c = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(cl->c)) {
        snprintf(err, errlen, "the client cannot connect to the X server");
        client_close(cl);
        return NULL;
    }
    cl->screen = xcb_setup_roots_iterator(xcb_get_setup(cl->c)).data;
    xcb_sync_initialize_reply_t *s = xcb_sync_initialize_reply(cl->c, xcb_sync_initialize(cl->c, 3, 1), NULL);
    if (!s) {
        snprintf(err, errlen, "the X server has no SYNC extension");
        client_close(cl);
        return NULL;
    }
    free(s);
    xh_intern_atoms(cl->c, atom_names, A_COUNT, cl->atom);
    cl->drawn_advertised = supports_drawn(cl);
    return cl;
}

void client_close(struct client *cl)
{
    if (!cl)
        return;
    if (cl->c)
        xcb_disconnect(cl->c);
    free(cl);
}

static void set_counter(struct client *cl, xcb_sync_counter_t counter, int64_t v)
{
    xcb_sync_set_counter(cl->c, counter, xh_sync_int64(v));
}

/* The properties a compositor needs to sync the window (extended form) and to leave it alone:
 * a fixed size (min = max: no auto-maximize of a big window) at a user-given position. */
static void set_properties(struct client *cl, struct bench_window *w, int index)
{
    xcb_atom_t protocols[2] = {cl->atom[A_WM_DELETE_WINDOW], cl->atom[A_NET_WM_SYNC_REQUEST]};
    xcb_change_property(cl->c, XCB_PROP_MODE_REPLACE, w->id, cl->atom[A_WM_PROTOCOLS], XCB_ATOM_ATOM, 32, 2,
                        protocols);
    uint32_t counters[2] = {w->basic, w->extended};
    xcb_change_property(cl->c, XCB_PROP_MODE_REPLACE, w->id, cl->atom[A_NET_WM_SYNC_REQUEST_COUNTER],
                        XCB_ATOM_CARDINAL, 32, 2, counters);
    char name[64];
    int len = snprintf(name, sizeof name, "framesync-bench %d", index);
    xcb_change_property(cl->c, XCB_PROP_MODE_REPLACE, w->id, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8, (uint32_t)len,
                        name);
    xcb_change_property(cl->c, XCB_PROP_MODE_REPLACE, w->id, cl->atom[A_NET_WM_NAME], cl->atom[A_UTF8_STRING], 8,
                        (uint32_t)len, name);
    xcb_change_property(cl->c, XCB_PROP_MODE_REPLACE, w->id, XCB_ATOM_WM_CLASS, XCB_ATOM_STRING, 8, 32,
                        "framesync-bench\0framesync-bench");
    uint32_t pid = (uint32_t)getpid();
    xcb_change_property(cl->c, XCB_PROP_MODE_REPLACE, w->id, cl->atom[A_NET_WM_PID], XCB_ATOM_CARDINAL, 32, 1, &pid);
    xcb_size_hints_t hints;
    memset(&hints, 0, sizeof hints);
    xcb_icccm_size_hints_set_position(&hints, 1, w->x, w->y);
    xcb_icccm_size_hints_set_size(&hints, 1, w->w, w->h);
    xcb_icccm_size_hints_set_min_size(&hints, w->w, w->h);
    xcb_icccm_size_hints_set_max_size(&hints, w->w, w->h);
    xcb_icccm_set_wm_normal_hints(cl->c, w->id, &hints);
}

/* grid positions with room for decorations (title bars of about 30-40 px) between windows */
#define GAP_X 24
#define GAP_Y 64
#define MARGIN 16

static int layout(struct client *cl, int n, int w, int h, char *err, size_t errlen)
{
    int sw = cl->screen->width_in_pixels, sh = cl->screen->height_in_pixels;
    int cols = 1;
    while (cols < n && MARGIN + (cols + 1) * (w + GAP_X) <= sw)
        cols++;
    int rows = (n + cols - 1) / cols;
    /* margins all round, so the bottom-right corner stays free for the pointer (Xvfb's software
     * cursor damages the root) and a title bar fits above the first row */
    if (MARGIN + cols * w + (cols - 1) * GAP_X > sw - MARGIN || GAP_Y / 2 + rows * h + (rows - 1) * GAP_Y > sh - MARGIN) {
        snprintf(err, errlen, "%d windows of %dx%d do not fit side by side on the %dx%d screen", n, w, h, sw, sh);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        struct bench_window *bw = &cl->wins[i];
        bw->x = MARGIN + (i % cols) * (w + GAP_X);
        bw->y = GAP_Y / 2 + (i / cols) * (h + GAP_Y);
        bw->w = w;
        bw->h = h;
    }
    return 0;
}

static void create_one(struct client *cl, struct bench_window *w, int index)
{
    w->id = xcb_generate_id(cl->c);
    uint32_t values[2] = {0x202020, XCB_EVENT_MASK_STRUCTURE_NOTIFY | XCB_EVENT_MASK_PROPERTY_CHANGE};
    xcb_create_window(cl->c, XCB_COPY_FROM_PARENT, w->id, cl->screen->root, (int16_t)w->x, (int16_t)w->y,
                      (uint16_t)w->w, (uint16_t)w->h, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT, cl->screen->root_visual,
                      XCB_CW_BACK_PIXEL | XCB_CW_EVENT_MASK, values);
    w->basic = xcb_generate_id(cl->c);
    w->extended = xcb_generate_id(cl->c);
    xcb_sync_create_counter(cl->c, w->basic, xh_sync_int64(0));
    xcb_sync_create_counter(cl->c, w->extended, xh_sync_int64(0));
    w->value = 0;
    w->requested = -1;
    w->mapped = false;
    set_properties(cl, w, index);
    xcb_map_window(cl->c, w->id);
}

static int find_window(struct client *cl, xcb_window_t id)
{
    for (int i = 0; i < cl->nwins; i++)
        if (cl->wins[i].id == id)
            return i;
    return -1;
}

/* where the client area really is on the root (a reparenting WM adds a frame) */
static void read_position(struct client *cl, struct bench_window *w)
{
    xcb_translate_coordinates_reply_t *t = xcb_translate_coordinates_reply(
        cl->c, xcb_translate_coordinates(cl->c, w->id, cl->screen->root, 0, 0), NULL);
    if (t) {
        w->x = t->dst_x;
        w->y = t->dst_y;
    }
    free(t);
}

static bool overlaps(const struct bench_window *a, const struct bench_window *b)
{
    return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

static bool on_screen(struct client *cl, const struct bench_window *w)
{
    return w->x >= 0 && w->y >= 0 && w->x + w->w <= cl->screen->width_in_pixels &&
           w->y + w->h <= cl->screen->height_in_pixels;
}

static bool placed_apart(struct client *cl)
{
    for (int i = 0; i < cl->nwins; i++) {
        if (!on_screen(cl, &cl->wins[i]))
            return false;
        for (int j = 0; j < i; j++)
            if (overlaps(&cl->wins[i], &cl->wins[j]))
                return false;
    }
    return true;
}

static int wait_mapped(struct client *cl, int64_t deadline_us, char *err, size_t errlen)
{
    int mapped = 0;
    while (mapped < cl->nwins) {
        xcb_generic_event_t *e;
        while ((e = xcb_poll_for_event(cl->c))) {
            if ((e->response_type & 0x7f) == XCB_MAP_NOTIFY) {
                int i = find_window(cl, ((xcb_map_notify_event_t *)e)->window);
                if (i >= 0 && !cl->wins[i].mapped) {
                    cl->wins[i].mapped = true;
                    mapped++;
                }
            }
            free(e);
        }
        if (mapped == cl->nwins)
            break;
        int64_t left = deadline_us - clock_now_us();
        if (left <= 0 || client_broken(cl)) {
            snprintf(err, errlen, "only %d of %d windows were mapped within the deadline", mapped, cl->nwins);
            return -1;
        }
        struct pollfd p = {.fd = client_fd(cl), .events = POLLIN};
        poll(&p, 1, (int)(left / 1000) + 1);
    }
    return 0;
}

/* The WM placed them its own way (KWin's smart placement ignores USPosition): ask for the grid
 * positions as a client move, and wait for the WM to carry the moves out (ConfigureNotify on each
 * window), at most until the deadline or PLACE_WAIT_US. */
#define PLACE_WAIT_US 2000000
static void move_to_grid(struct client *cl, const struct bench_window *want, int64_t deadline_us)
{
    int64_t until = clock_now_us() + PLACE_WAIT_US;
    if (until > deadline_us)
        until = deadline_us;
    for (int i = 0; i < cl->nwins; i++) {
        uint32_t xy[2] = {(uint32_t)want[i].x, (uint32_t)want[i].y};
        xcb_configure_window(cl->c, cl->wins[i].id, XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y, xy);
    }
    xcb_flush(cl->c);
    while (clock_now_us() < until) {
        for (int i = 0; i < cl->nwins; i++)
            read_position(cl, &cl->wins[i]);
        if (placed_apart(cl))
            return;
        xcb_generic_event_t *e;
        while ((e = xcb_poll_for_event(cl->c)))
            free(e); /* only wake-ups: the positions are read again */
        struct pollfd p = {.fd = client_fd(cl), .events = POLLIN};
        poll(&p, 1, (int)((until - clock_now_us()) / 1000) + 1);
    }
}

int client_create_windows(struct client *cl, int n, int w, int h, int64_t deadline_us, char *err, size_t errlen)
{
    if (layout(cl, n, w, h, err, errlen) < 0)
        return -1;
    cl->nwins = n;
    for (int i = 0; i < n; i++)
        create_one(cl, &cl->wins[i], i);
    xcb_flush(cl->c);
    if (wait_mapped(cl, deadline_us, err, errlen) < 0)
        return -1;
    struct bench_window want[BENCH_MAX_WINDOWS];
    memcpy(want, cl->wins, sizeof want);
    for (int i = 0; i < n; i++)
        read_position(cl, &cl->wins[i]);
    if (!placed_apart(cl))
        move_to_grid(cl, want, deadline_us);
    if (!placed_apart(cl)) {
        snprintf(err, errlen, "the compositor placed the %d windows overlapping or off screen", n);
        return -1;
    }
    return 0;
}

void client_destroy_windows(struct client *cl)
{
    for (int i = 0; i < cl->nwins; i++) {
        xcb_destroy_window(cl->c, cl->wins[i].id);
        xcb_sync_destroy_counter(cl->c, cl->wins[i].basic);
        xcb_sync_destroy_counter(cl->c, cl->wins[i].extended);
    }
    cl->nwins = 0;
    xh_round_trip(cl->c);
}

int client_server_offset_ms(struct client *cl, double *offset_ms)
{
    if (cl->nwins == 0)
        return -1;
    cl->stamp_seen = false;
    int64_t before = clock_now_us();
    xcb_change_property(cl->c, XCB_PROP_MODE_APPEND, cl->wins[0].id, cl->atom[A_BENCH_STAMP], XCB_ATOM_CARDINAL, 32,
                        0, NULL);
    xh_round_trip(cl->c);
    int64_t after = clock_now_us();
    struct client_events none = {0};
    client_pump(cl, &none); /* the PropertyNotify came before the reply */
    if (!cl->stamp_seen)
        return -1;
    /* server time is 32-bit milliseconds: the offset is taken modulo 2^32 ms, near 0 */
    double mid_ms = fmod((double)(before + after) / 2000.0, 4294967296.0);
    double d = (double)cl->stamp_time - mid_ms;
    if (d > 2147483648.0)
        d -= 4294967296.0;
    if (d < -2147483648.0)
        d += 4294967296.0;
    *offset_ms = d;
    return 0;
}

int64_t client_begin_update(struct client *cl, int i)
{
    struct bench_window *w = &cl->wins[i];
    set_counter(cl, w->extended, w->value + 1);
    xcb_flush(cl->c);
    return w->value + 2;
}

void client_end_update(struct client *cl, int i, int64_t value)
{
    struct bench_window *w = &cl->wins[i];
    w->value = value;
    set_counter(cl, w->extended, value);
    xcb_flush(cl->c);
}

static int64_t value_of(uint32_t lo, uint32_t hi)
{
    return (int64_t)(((uint64_t)hi << 32) | lo);
}

/* a request: the basic counter to V, the extended one to the next even value >= V (never back) */
static void answer_request(struct client *cl, struct bench_window *w, int64_t v)
{
    int64_t even = (v & 1) ? v + 1 : v;
    set_counter(cl, w->basic, v);
    if (even > w->value) {
        w->value = even;
        set_counter(cl, w->extended, even);
    }
    xcb_flush(cl->c);
}

static void client_message(struct client *cl, const xcb_client_message_event_t *m, const struct client_events *ev,
                           int64_t now)
{
    int i = find_window(cl, m->window);
    if (i < 0 || m->format != 32)
        return;
    const uint32_t *l = m->data.data32;
    if (m->type == cl->atom[A_WM_PROTOCOLS] && l[0] == cl->atom[A_NET_WM_SYNC_REQUEST]) {
        answer_request(cl, &cl->wins[i], value_of(l[2], l[3]));
    } else if (m->type == cl->atom[A_WM_PROTOCOLS] && l[0] == cl->atom[A_NET_WM_SYNC_DRAWN]) {
        struct drawn_msg d = {.win = i, .value = value_of(l[1], l[2]), .at_us = now, .stamp_us = -1};
        if (ev->drawn)
            ev->drawn(ev->ctx, &d);
    } else if (m->type == cl->atom[A_NET_WM_FRAME_DRAWN]) {
        struct drawn_msg d = {.win = i, .value = value_of(l[0], l[1]), .at_us = now,
                              .stamp_us = value_of(l[2], l[3])};
        if (ev->drawn)
            ev->drawn(ev->ctx, &d);
    } else if (m->type == cl->atom[A_NET_WM_FRAME_TIMINGS]) {
        struct timings_msg t = {.win = i, .value = value_of(l[0], l[1]), .at_us = now,
                                .presentation_offset_us = (int32_t)l[2], .refresh_interval_us = (int32_t)l[3],
                                .delay_us = (int32_t)l[4]};
        if (ev->timings)
            ev->timings(ev->ctx, &t);
    }
}

static void handle_event(struct client *cl, xcb_generic_event_t *e, const struct client_events *ev, int64_t now)
{
    switch (e->response_type & 0x7f) {
    case XCB_CLIENT_MESSAGE:
        client_message(cl, (xcb_client_message_event_t *)e, ev, now);
        break;
    case XCB_PROPERTY_NOTIFY: {
        xcb_property_notify_event_t *p = (xcb_property_notify_event_t *)e;
        if (p->atom == cl->atom[A_BENCH_STAMP]) {
            cl->stamp_seen = true;
            cl->stamp_time = p->time;
        }
        break;
    }
    case XCB_CONFIGURE_NOTIFY: {
        /* a WM may move a window after the map (placement): the sampled point must follow.  The
         * cell re-reads positions before it starts; moves during a cell are not expected. */
        break;
    }
    default:
        break;
    }
}

int client_pump(struct client *cl, const struct client_events *ev)
{
    int n = 0;
    xcb_generic_event_t *e;
    while ((e = xcb_poll_for_event(cl->c))) {
        handle_event(cl, e, ev, clock_now_us());
        free(e);
        n++;
    }
    return n;
}
