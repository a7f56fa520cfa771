/* The resize cell's client (resize.h): a window whose every paint tells its size (the colour of
 * its paint number, edge markers at its right and bottom edges), painted after each batch of
 * events at a cost of paint_ms, answering each sync request after painting the size that followed
 * it, in its form (basic, draft, defacto, none). */
#include "resize.h"
#include "clock.h"
#include "proc.h"
#include "xhelpers.h"

#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/xcb_icccm.h>

#define SLOW_ANSWER_US 100000
#define CONFIGURE_WAIT_US 100000 /* a request with no ConfigureNotify after it is answered then */

static const char *const atom_names[A_COUNT] = {
    "WM_PROTOCOLS", "WM_DELETE_WINDOW", "_NET_WM_SYNC_REQUEST", "_NET_WM_SYNC_REQUEST_COUNTER",
    "_NET_WM_MOVERESIZE", "_NET_WM_NAME", "UTF8_STRING", "_NET_WM_FRAME_DRAWN", "_NET_WM_SYNC_DRAWN"};

void resize_client_init(struct rcell *rc)
{
    rc->scr = xcb_setup_roots_iterator(xcb_get_setup(rc->c)).data;
    free(xcb_sync_initialize_reply(rc->c, xcb_sync_initialize(rc->c, 3, 1), NULL));
    xh_intern_atoms(rc->c, atom_names, A_COUNT, rc->atom);
}

static void set_counter(struct rcell *rc, xcb_sync_counter_t c, int64_t v)
{
    xcb_sync_set_counter(rc->c, c, xh_sync_int64(v));
}

static bool extended(const struct rcell *rc) { return rc->rs->form == RF_DRAFT || rc->rs->form == RF_DEFACTO; }

void resize_client_create_window(struct rcell *rc)
{
    rc->win = xcb_generate_id(rc->c);
    uint32_t values[3] = {BG_RGB, XCB_GRAVITY_NORTH_WEST,
                          XCB_EVENT_MASK_STRUCTURE_NOTIFY | XCB_EVENT_MASK_EXPOSURE};
    xcb_create_window(rc->c, XCB_COPY_FROM_PARENT, rc->win, rc->scr->root, X0, Y0, W0, H0, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, rc->scr->root_visual,
                      XCB_CW_BACK_PIXEL | XCB_CW_BIT_GRAVITY | XCB_CW_EVENT_MASK, values);
    rc->gc = xcb_generate_id(rc->c);
    xcb_create_gc(rc->c, rc->gc, rc->win, 0, NULL);
    xcb_atom_t protocols[2] = {rc->atom[A_WM_DELETE_WINDOW], rc->atom[A_SYNC_REQUEST]};
    xcb_change_property(rc->c, XCB_PROP_MODE_REPLACE, rc->win, rc->atom[A_WM_PROTOCOLS], XCB_ATOM_ATOM, 32,
                        rc->rs->form == RF_NONE ? 1 : 2, protocols);
    if (rc->rs->form != RF_NONE) {
        rc->basic = xcb_generate_id(rc->c);
        xcb_sync_create_counter(rc->c, rc->basic, xh_sync_int64(0));
        uint32_t counters[2] = {rc->basic, 0};
        if (extended(rc)) {
            rc->ext = xcb_generate_id(rc->c);
            xcb_sync_create_counter(rc->c, rc->ext, xh_sync_int64(0));
            counters[1] = rc->ext;
        }
        xcb_change_property(rc->c, XCB_PROP_MODE_REPLACE, rc->win, rc->atom[A_SYNC_REQUEST_COUNTER],
                            XCB_ATOM_CARDINAL, 32, extended(rc) ? 2 : 1, counters);
    }
    const char *name = "framesync-bench resize";
    xcb_change_property(rc->c, XCB_PROP_MODE_REPLACE, rc->win, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8,
                        (uint32_t)strlen(name), name);
    xcb_change_property(rc->c, XCB_PROP_MODE_REPLACE, rc->win, rc->atom[A_NET_WM_NAME], rc->atom[A_UTF8_STRING], 8,
                        (uint32_t)strlen(name), name);
    xcb_change_property(rc->c, XCB_PROP_MODE_REPLACE, rc->win, XCB_ATOM_WM_CLASS, XCB_ATOM_STRING, 8, 32,
                        "framesync-bench\0framesync-bench");
    xcb_size_hints_t hints;
    memset(&hints, 0, sizeof hints);
    xcb_icccm_size_hints_set_position(&hints, 1, X0, Y0);
    xcb_icccm_size_hints_set_size(&hints, 1, W0, H0);
    xcb_icccm_size_hints_set_min_size(&hints, 32, 32);
    xcb_icccm_set_wm_normal_hints(rc->c, rc->win, &hints);
    rc->w = W0;
    rc->h = H0;
    xcb_map_window(rc->c, rc->win);
    xcb_flush(rc->c);
}

/* defacto answers an extended request (l[4] = 1) with its delimited update, a basic one (a WM
 * that knows only the basic form uses the first of the two counters) on the first counter, as GTK */
static bool defacto_extended(const struct rcell *rc) { return rc->rs->form == RF_DEFACTO && rc->req_extended; }

/* the answer to the request a paint was for, in the client's form */
static void answer(struct rcell *rc, int64_t v, bool extended_request)
{
    if (rc->rs->form == RF_BASIC || (rc->rs->form == RF_DEFACTO && !extended_request)) {
        set_counter(rc, rc->basic, v);
    } else if (rc->rs->form == RF_DRAFT) {
        /* the draft's l[4] does not tell the forms apart: both counters answer */
        set_counter(rc, rc->basic, v);
        int64_t even = (v & 1) ? v + 1 : v;
        if (even > rc->ext_value)
            rc->ext_value = even;
        set_counter(rc, rc->ext, rc->ext_value);
    } else if (rc->rs->form == RF_DEFACTO) {
        rc->ext_value++; /* odd since the paint began: even ends it */
        set_counter(rc, rc->ext, rc->ext_value);
    }
    rc->answered++;
    xcb_flush(rc->c);
}

static void simulate_cost(struct rcell *rc, int64_t start)
{
    /* what painting costs an application: it reads no events meanwhile */
    int64_t until = start + (int64_t)rc->rs->paint_ms * 1000;
    for (int64_t left; (left = until - clock_now_us()) > 0;)
        poll(NULL, 0, (int)((left + 999) / 1000));
}

static void paint(struct rcell *rc)
{
    int64_t start = clock_now_us();
    bool answers = rc->req_pending && (rc->req_configured || start >= rc->req_at_us + CONFIGURE_WAIT_US);
    int64_t v = rc->req_value;
    bool ext_answer = answers && defacto_extended(rc);
    bool delimited = extended(rc) && (rc->rs->form == RF_DEFACTO || !answers);
    if (delimited) {
        /* an update: the second counter odd (defacto's answer: value + 1, as GTK's begin_frame) */
        int64_t odd = ext_answer ? ((v & 1) ? v : v + 1) : rc->ext_value + 1;
        if (odd <= rc->ext_value)
            odd = rc->ext_value + ((rc->ext_value & 1) ? 2 : 1);
        rc->ext_value = odd;
        set_counter(rc, rc->ext, odd);
    }
    int k = rc->npaints;
    uint32_t fill = frame_colour((uint32_t)k), edge = edge_colour((uint32_t)k);
    int w = rc->w, h = rc->h;
    int ew = w > EDGE_PX ? EDGE_PX : w, eh = h > EDGE_PX ? EDGE_PX : h;
    xcb_change_gc(rc->c, rc->gc, XCB_GC_FOREGROUND, &fill);
    xcb_rectangle_t in = {0, 0, (uint16_t)(w - ew > 0 ? w - ew : 1), (uint16_t)(h - eh > 0 ? h - eh : 1)};
    xcb_poly_fill_rectangle(rc->c, rc->win, rc->gc, 1, &in);
    xcb_change_gc(rc->c, rc->gc, XCB_GC_FOREGROUND, &edge);
    xcb_rectangle_t edges[2] = {{(int16_t)(w - ew), 0, (uint16_t)ew, (uint16_t)h},
                                {0, (int16_t)(h - eh), (uint16_t)w, (uint16_t)eh}};
    xcb_poly_fill_rectangle(rc->c, rc->win, rc->gc, 2, edges);
    xcb_flush(rc->c);
    simulate_cost(rc, start);
    if (rc->npaints < MAX_PAINTS)
        rc->paints[rc->npaints++] = (struct paint_rec){.start_us = start, .end_us = clock_now_us(), .w = (int16_t)w,
                                                       .h = (int16_t)h, .answers = answers};
    rc->need_paint = false;
    if (delimited && !ext_answer) {
        /* a frame that is not an extended answer ends its update now */
        rc->ext_value++;
        set_counter(rc, rc->ext, rc->ext_value);
        xcb_flush(rc->c);
    }
    if (answers) {
        rc->req_pending = false;
        if (rc->rs->slow) {
            rc->answer_due = true;
            rc->answer_at_us = clock_now_us() + SLOW_ANSWER_US;
            rc->answer_value = v;
            rc->answer_extended = ext_answer;
        } else {
            answer(rc, v, ext_answer);
        }
    }
}

static int64_t value_of(uint32_t lo, uint32_t hi) { return (int64_t)(((uint64_t)hi << 32) | lo); }

static void handle(struct rcell *rc, xcb_generic_event_t *e)
{
    switch (e->response_type & 0x7f) {
    case XCB_CONFIGURE_NOTIFY: {
        xcb_configure_notify_event_t *c = (xcb_configure_notify_event_t *)e;
        if (c->window != rc->win)
            break;
        rc->configures++;
        if (c->width != rc->w || c->height != rc->h) {
            rc->size_changes++;
            rc->w = c->width;
            rc->h = c->height;
            rc->need_paint = true;
        }
        if (rc->req_pending)
            rc->req_configured = true;
        break;
    }
    case XCB_EXPOSE:
        rc->exposes++;
        rc->need_paint = true;
        break;
    case XCB_MAP_NOTIFY:
        if (((xcb_map_notify_event_t *)e)->window == rc->win)
            rc->mapped = true;
        break;
    case XCB_CLIENT_MESSAGE: {
        xcb_client_message_event_t *m = (xcb_client_message_event_t *)e;
        if (m->window != rc->win || m->format != 32)
            break;
        const uint32_t *l = m->data.data32;
        if (m->type == rc->atom[A_WM_PROTOCOLS] && l[0] == rc->atom[A_SYNC_REQUEST]) {
            rc->requests++;
            if (rc->req_pending)
                rc->superseded++; /* the WM went on without the last answer */
            rc->req_pending = true;
            rc->req_configured = false;
            rc->req_value = value_of(l[2], l[3]);
            rc->req_extended = l[4] == 1;
            rc->req_at_us = clock_now_us();
            rc->need_paint = true; /* a request is answered after a paint, also without a new size */
        } else if (m->type == rc->atom[A_FRAME_DRAWN] ||
                   (m->type == rc->atom[A_WM_PROTOCOLS] && l[0] == rc->atom[A_SYNC_DRAWN])) {
            rc->drawn++;
        }
        break;
    }
    default:
        break;
    }
}

int resize_client_pump(struct rcell *rc)
{
    int n = 0;
    xcb_generic_event_t *e;
    while ((e = xcb_poll_for_event(rc->c))) {
        handle(rc, e);
        free(e);
        n++;
    }
    return n;
}

/* one turn of the client: events, then the paint they call for, the answers due; false: stop */
const char *resize_client_turn(struct rcell *rc, int64_t until)
{
    resize_sampler_turn(&rc->cap); /* a sampled capture's picture, where one came (resize-sampled.c) */
    int handled = resize_client_pump(rc);
    int64_t now = clock_now_us();
    if (rc->answer_due && now >= rc->answer_at_us) {
        rc->answer_due = false;
        answer(rc, rc->answer_value, rc->answer_extended);
    }
    /* a request waits (up to CONFIGURE_WAIT_US) for the ConfigureNotify that follows it; a request
     * before the map (a WM that syncs at map) is answered although the window is not mapped yet */
    bool wait_configure = rc->req_pending && !rc->req_configured && now < rc->req_at_us + CONFIGURE_WAIT_US;
    bool can_paint = rc->need_paint && !rc->answer_due && !wait_configure && (rc->mapped || rc->req_pending);
    if (can_paint)
        paint(rc);
    const char *why = bench_session_should_stop(rc->env->session);
    if (why)
        return why;
    if (xcb_connection_has_error(rc->c))
        return "x-error";
    int64_t wake = until;
    if (rc->answer_due && rc->answer_at_us < wake)
        wake = rc->answer_at_us;
    if (wait_configure && rc->req_at_us + CONFIGURE_WAIT_US < wake)
        wake = rc->req_at_us + CONFIGURE_WAIT_US;
    now = clock_now_us();
    if (rc->need_paint && !rc->answer_due && !wait_configure && (rc->mapped || rc->req_pending))
        wake = now;
    int timeout = wake <= now || handled ? 0 : (int)((wake - now + 999) / 1000);
    /* events xcb read into its queue meanwhile (while flushing) would not wake poll(): take them */
    xcb_generic_event_t *q = timeout > 0 ? xcb_poll_for_queued_event(rc->c) : NULL;
    if (q) {
        handle(rc, q);
        free(q);
        timeout = 0;
    }
    if (timeout > 0) {
        struct pollfd p[3] = {{.fd = xcb_get_file_descriptor(rc->c), .events = POLLIN},
                              {.fd = proc_signal_fd(), .events = POLLIN},
                              {.fd = resize_sampler_fd(&rc->cap), .events = POLLIN}};
        poll(p, 3, timeout);
        if (p[1].revents)
            proc_handle_signals();
    }
    return NULL;
}
