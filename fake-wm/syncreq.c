/* The _NET_WM_SYNC_REQUEST protocol: which form a window uses, setting the counter at manage,
 * choosing request values, sending the request before the ConfigureNotify, waiting for the
 * counter with an alarm (with a timeout), and queueing resizes meanwhile. */
#include "fakewm.h"
#include "propdecode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reading the properties ---- */
static bool lists_sync_protocol(xcb_window_t id)
{
    xcb_get_property_reply_t *r = xcb_get_property_reply(
        X.c, xcb_get_property(X.c, 0, id, atom(A_WM_PROTOCOLS), XCB_ATOM_ATOM, 0, 64), NULL);
    bool found = false;
    if (r && r->type == XCB_ATOM_ATOM && r->format == 32) {
        const xcb_atom_t *a = xcb_get_property_value(r);
        int n = xcb_get_property_value_length(r) / 4;
        for (int i = 0; i < n; i++)
            if (a[i] == atom(A_NET_WM_SYNC_REQUEST))
                found = true;
    }
    free(r);
    return found;
}

/* returns the number of counters read (0: none or invalid); logs why */
/* fault hostile-wedges: the window whose hostility stopped every other window's requests (0:
 * none; WEDGED_BY_GONE: one destroyed mid-update, until the next window goes) */
#define WEDGED_BY_GONE 1u
static xcb_window_t wedged_by;

static void hostile(const struct win *w, const char *what)
{
    if (FAULT(HOSTILE_WEDGES) && !wedged_by) {
        wedged_by = w->id;
        logmsg("window %u: %s: no other window gets a sync request until it is gone (fault hostile-wedges)", w->id,
               what);
    }
}

static int read_counter_property(struct win *w, xcb_sync_counter_t out[2])
{
    xcb_get_property_reply_t *r = xcb_get_property_reply(
        X.c,
        xcb_get_property(X.c, 0, w->id, atom(A_NET_WM_SYNC_REQUEST_COUNTER), XCB_GET_PROPERTY_TYPE_ANY, 0, 64),
        NULL);
    uint32_t v[2];
    int items = 0, n = 0;
    switch (r ? prop_decode_xids(r->type, r->format, xcb_get_property_value(r),
                                 (size_t)xcb_get_property_value_length(r), v, 2, &items)
              : PROP_ABSENT) {
    case PROP_ABSENT:
        logmsg("window %u: no _NET_WM_SYNC_REQUEST_COUNTER: no sync for this window", w->id);
        break;
    case PROP_WRONG_TYPE:
        hostile(w, "a counter property of the wrong type");
        logmsg("window %u: _NET_WM_SYNC_REQUEST_COUNTER has type %u format %u, not CARDINAL/32: "
               "ignored, no sync for this window",
               w->id, r->type, r->format);
        break;
    case PROP_EMPTY:
        hostile(w, "an empty counter property");
        logmsg("window %u: _NET_WM_SYNC_REQUEST_COUNTER has no items: no sync for this window", w->id);
        break;
    case PROP_OK:
        if (items > 2)
            hostile(w, "a counter property of more than two items");
        if (items > 2)
            logmsg("window %u: _NET_WM_SYNC_REQUEST_COUNTER has %d items: using the first two", w->id, items);
        n = items > 2 ? 2 : items;
        for (int i = 0; i < n; i++)
            out[i] = v[i];
        break;
    }
    free(r);
    return n;
}

/* ---- manage ---- */
/* delimited updates start from the counter's value at map: odd means the map and the first paint
 * are one update */
static void start_delimited(struct win *w, xcb_sync_counter_t c, int64_t value)
{
    follow_start(&w->fupd, c, value);
    w->odd = (value & 1) != 0;
    w->odd_since = clock_now_us();
    w->hold_expired = false;
    w->odd_from_map = w->odd;
}

/* cm-only: a compositor without a WM sends no requests and never sets a counter, but may still do
 * its part of delimited updates: it follows the second counter of a window that has two */
static void observe_counters(struct win *w, const xcb_sync_counter_t ctr[2], int n)
{
    int64_t v;
    if (n != 2 || !extended_form_available()) {
        logmsg("window %u: observed, form=none (variant cm-only: no sync requests; %s)", w->id,
               n != 2 ? "one counter: nothing to follow" : "no extended form in this profile");
        return;
    }
    if (!counter_query(ctr[1], &v)) {
        logmsg("window %u: second counter %u is not a valid XSync counter: nothing to follow", w->id, ctr[1]);
        return;
    }
    w->counter1 = ctr[0];
    w->counter2 = ctr[1];
    w->form = FORM_EXTENDED;
    w->req_counter = ctr[1];
    start_delimited(w, ctr[1], v);
    w->seen_for_request = v;
    logmsg("window %u: observed, form=extended counter=%u value=%lld%s; following it for delimited updates, "
           "no requests (variant cm-only)",
           w->id, ctr[1], (long long)v, w->odd ? " (odd: update in progress)" : "");
}

/* basic-only: the requests use the first of two counters, and the compositor still follows the
 * second for delimited updates.  The draft makes the extended form of requests optional, not
 * whether a compositor shows half-drawn frames: any compositor shown two counters holds the window
 * while the second is odd. */
static void follow_second_counter(struct win *w, xcb_sync_counter_t c)
{
    int64_t v;
    if (!counter_query(c, &v)) {
        logmsg("window %u: second counter %u is not a valid XSync counter: its updates are not held", w->id, c);
        return;
    }
    w->counter2 = c;
    start_delimited(w, c, v);
    logmsg("window %u: second counter %u value=%lld%s followed for delimited updates (variant basic-only: "
           "requests on the first counter)",
           w->id, c, (long long)v, w->odd ? " (odd: update in progress)" : "");
}

void sync_manage(struct win *w)
{
    w->form = FORM_NONE;
    w->req_counter = XCB_NONE;
    w->counter1 = w->counter2 = XCB_NONE;
    w->waiting = false;
    w->queued = false;
    w->map_after_wait = false;
    w->interactive_fresh = false;

    bool listed = lists_sync_protocol(w->id);
    if (!listed && !FAULT(SYNC_TO_ALL)) {
        logmsg("window %u: %s, form=none (does not list _NET_WM_SYNC_REQUEST in WM_PROTOCOLS: no "
               "requests)",
               w->id, is_wm() ? "managed" : "observed");
        return;
    }
    if (!listed)
        logmsg("window %u: does not list _NET_WM_SYNC_REQUEST; fault sync-to-all: using the protocol anyway",
               w->id);

    xcb_sync_counter_t ctr[2] = {XCB_NONE, XCB_NONE};
    int n = read_counter_property(w, ctr);
    if (!is_wm()) {
        observe_counters(w, ctr, n);
        return;
    }
    if (n == 0) {
        if (FAULT(SYNC_TO_ALL)) {
            /* requests without a counter: nothing to set or wait for */
            w->form = FORM_BASIC;
            logmsg("window %u: managed, form=basic without a counter (fault sync-to-all)", w->id);
        }
        return;
    }

    bool extended = extended_form_available() && (n == 2 || FAULT(SINGLE_COUNTER_EXTENDED));
    if (!extended) {
        /* basic form: the only counter, or the first of two (ewmh-1.5 has no extended form) */
        w->counter1 = ctr[0];
        int64_t cur;
        if (!counter_query(ctr[0], &cur)) {
            logmsg("window %u: counter %u is not a valid XSync counter: no sync for this window", w->id, ctr[0]);
            hostile(w, "not a counter");
            return;
        }
        w->form = FORM_BASIC;
        w->req_counter = ctr[0];
        if (FAULT(NO_SET_AT_MANAGE)) {
            logmsg("window %u: managed, form=basic counter=%u value=%lld; not set at manage (fault no-set-at-manage)",
                   w->id, ctr[0], (long long)cur);
        } else {
            counter_set(ctr[0], w->basic_value);
            logmsg("window %u: managed, form=basic counter=%u value=%lld; set to %lld", w->id, ctr[0],
                   (long long)cur, (long long)w->basic_value);
        }
        /* two counters in a text with delimited updates: only basic-only gets here */
        if (n == 2 && profile_extended())
            follow_second_counter(w, ctr[1]);
        return;
    }

    /* extended form */
    if (n == 1) {
        w->counter1 = XCB_NONE;
        w->counter2 = ctr[0];
        logmsg("window %u: one counter, treated as the extended form (fault single-counter-extended)", w->id);
    } else {
        w->counter1 = ctr[0];
        w->counter2 = ctr[1];
    }
    xcb_sync_counter_t upd = w->counter2;
    xcb_sync_counter_t req = (FAULT(USE_FIRST_COUNTER) && w->counter1) ? w->counter1 : w->counter2;
    if (FAULT(RESET_EXTENDED)) {
        int64_t v = w->have_requested ? w->last_requested : 0;
        counter_set(upd, v);
        logmsg("window %u: set the extended counter %u to %lld at manage (fault reset-extended)", w->id, upd,
               (long long)v);
    }
    int64_t uval = 0, rval = 0;
    if (!counter_query(upd, &uval)) {
        logmsg("window %u: second counter %u is not a valid XSync counter: no sync for this window", w->id, upd);
        hostile(w, "not a counter");
        return;
    }
    if (req != upd && !counter_query(req, &rval)) {
        logmsg("window %u: first counter %u is not a valid XSync counter: no sync for this window", w->id, req);
        hostile(w, "not a counter");
        return;
    }
    if (req == upd)
        rval = uval;
    w->form = FORM_EXTENDED;
    w->req_counter = req;
    start_delimited(w, upd, uval);
    if (req != upd)
        follow_start(&w->freq, req, rval);
    if (FAULT(NO_QUERY_INITIAL)) {
        w->seen_for_request = 0;
        logmsg("window %u: taking 0 as the initial value instead of %lld (fault no-query-initial)", w->id,
               (long long)rval);
    } else if (FAULT(IGNORE_SPONTANEOUS) && w->have_requested) {
        w->seen_for_request = w->last_requested;
    } else {
        w->seen_for_request = rval;
    }
    if (req != upd)
        logmsg("window %u: managed, form=extended counter=%u value=%lld; requests use the first counter %u "
               "value=%lld (fault use-first-counter)",
               w->id, upd, (long long)uval, req, (long long)rval);
    else
        logmsg("window %u: managed, form=extended counter=%u value=%lld%s; first counter %u left alone", w->id,
               upd, (long long)uval, w->odd ? " (odd: update in progress)" : "", w->counter1);
}

void sync_unmanage(struct win *w)
{
    if (wedged_by == WEDGED_BY_GONE)
        wedged_by = 0;
    else if (wedged_by == w->id)
        wedged_by = w->waiting ? WEDGED_BY_GONE : 0;
    else if (w->waiting) {
        hostile(w, "withdrawn or destroyed mid-update");
        if (wedged_by == w->id)
            wedged_by = WEDGED_BY_GONE;
    }
    w->map_after_wait = false; /* withdrawn or destroyed before its map: nothing to map */
    if (w->waiting) {
        alarm_destroy(w->wait_alarm);
        w->wait_alarm = XCB_NONE;
        w->waiting = false;
    }
    follow_stop(&w->fupd);
    follow_stop(&w->freq);
    if (w->queued && !w->destroyed) {
        /* the window is no longer managed: what it asked for is applied as it is */
        w->queued = false;
        wm_apply_configure(w, &w->queue);
    }
    w->queued = false;
    w->form = FORM_NONE;
    w->req_counter = XCB_NONE;
}

/* ---- requests ---- */
static int64_t round_up_even(int64_t v) { return (v & 1) ? v + 1 : v; }

static int64_t next_value(struct win *w)
{
    if (w->form == FORM_BASIC) {
        int64_t v = w->basic_value + 1;
        if (FAULT(VALUE_ZERO) && w->nrequests == 0)
            v = 0;
        if (FAULT(VALUE_NOT_INCREASING))
            v = 1;
        w->basic_value = v;
        return v;
    }
    int64_t inc = 100;
    if (opt.profile == PROFILE_DEFACTO && !FAULT(INCREMENT_100_DEFACTO))
        inc = 240;
    if (FAULT(SMALL_INCREMENT))
        inc = 2;
    /* the last value seen includes a change whose alarm has not come yet (a follow alarm is
     * inactive from its notify until it is re-armed): ask the server, as a real WM reading its
     * counter would, unless a fault is about not seeing what the client did */
    int64_t now_value;
    if (!FAULT(IGNORE_SPONTANEOUS) && !(FAULT(NO_QUERY_INITIAL) && w->nrequests == 0) &&
        w->req_counter != XCB_NONE && counter_query(w->req_counter, &now_value) && now_value > w->seen_for_request)
        w->seen_for_request = now_value;
    /* saturate near the top of the signed 64-bit range (the draft says nothing about it) */
    int64_t base = w->seen_for_request;
    int64_t v = base > INT64_MAX - inc - 1 ? INT64_MAX - 1 : round_up_even(base + inc);
    /* after a timeout the client has not reached the last value: never ask for it again (a late
     * answer to the old request must not look like an answer to the new one) */
    if (w->have_requested && v <= w->last_requested && !FAULT(SMALL_INCREMENT) &&
        w->last_requested < INT64_MAX - 2)
        v = round_up_even(w->last_requested + 2);
    if (FAULT(ODD_VALUE))
        v = v < INT64_MAX ? v + 1 : v - 2;
    return v;
}

static void send_request(struct win *w, int64_t v)
{
    if (wedged_by && w->id != wedged_by) {
        logmsg("window %u: no sync request for %lld: wedged by window %u (fault hostile-wedges)", w->id, (long long)v,
               wedged_by);
        return;
    }
    xcb_client_message_event_t m;
    memset(&m, 0, sizeof m);
    m.response_type = XCB_CLIENT_MESSAGE;
    m.format = 32;
    m.window = w->id;
    m.type = FAULT(WRONG_MESSAGE_TYPE) ? atom(A_NET_WM_SYNC_REQUEST) : atom(A_WM_PROTOCOLS);
    m.data.data32[0] = atom(A_NET_WM_SYNC_REQUEST);
    m.data.data32[1] = FAULT(NO_TIMESTAMP) ? XCB_CURRENT_TIME : X.last_time;
    m.data.data32[2] = (uint32_t)((uint64_t)v & 0xffffffffu);
    m.data.data32[3] = (uint32_t)((uint64_t)v >> 32);
    uint32_t l4 = 0;
    if (w->form == FORM_BASIC)
        l4 = FAULT(L4_NONZERO_BASIC) ? 1 : 0;
    else if (opt.profile == PROFILE_DEFACTO)
        l4 = FAULT(NO_L4_MARKER) ? 0 : 1;
    else
        l4 = FAULT(L4_MARKER_DRAFT) ? 1 : 0;
    m.data.data32[4] = l4;
    xcb_send_event(X.c, 0, w->id, XCB_EVENT_MASK_NO_EVENT, (const char *)&m);
    logmsg("window %u: sync request value=%lld form=%s l1=%u l4=%u", w->id, (long long)v, form_name(w->form),
           m.data.data32[1], l4);
}

static bool is_resize(const struct win *w, const struct configure_req *r)
{
    return ((r->mask & XCB_CONFIG_WINDOW_WIDTH) && r->width != w->wm_w) ||
           ((r->mask & XCB_CONFIG_WINDOW_HEIGHT) && r->height != w->wm_h);
}

static void merge_queue(struct configure_req *q, const struct configure_req *r)
{
    if (r->mask & XCB_CONFIG_WINDOW_X) q->x = r->x;
    if (r->mask & XCB_CONFIG_WINDOW_Y) q->y = r->y;
    if (r->mask & XCB_CONFIG_WINDOW_WIDTH) q->width = r->width;
    if (r->mask & XCB_CONFIG_WINDOW_HEIGHT) q->height = r->height;
    if (r->mask & XCB_CONFIG_WINDOW_BORDER_WIDTH) q->border_width = r->border_width;
    if (r->mask & XCB_CONFIG_WINDOW_SIBLING) q->sibling = r->sibling;
    if (r->mask & XCB_CONFIG_WINDOW_STACK_MODE) q->stack_mode = r->stack_mode;
    q->mask |= r->mask;
}

void sync_target_geometry(const struct win *w, int16_t *x, int16_t *y, uint16_t *wd, uint16_t *ht)
{
    const struct configure_req *q = w->queued ? &w->queue : NULL;
    *x = q && (q->mask & XCB_CONFIG_WINDOW_X) ? q->x : w->wm_x;
    *y = q && (q->mask & XCB_CONFIG_WINDOW_Y) ? q->y : w->wm_y;
    *wd = q && (q->mask & XCB_CONFIG_WINDOW_WIDTH) ? q->width : w->wm_w;
    *ht = q && (q->mask & XCB_CONFIG_WINDOW_HEIGHT) ? q->height : w->wm_h;
}

/* why a resize from o gets no sync request (it is applied at once), or NULL: WMs that send requests
 * only in interactive resizes, and the fault of one that claims the protocol and sends none */
static const char *why_no_request(enum resize_origin o)
{
    if (FAULT(ADVERTISES_SYNC_SENDS_NONE))
        return "fault advertises-sync-sends-none: no requests at all";
    if (o != ORIGIN_CLIENT)
        return NULL; /* the variants refuse the interactive resizes they do not do (moveresize.c) */
    if (VARIANT(KEYBOARD_ONLY))
        return "variant keyboard-only: requests only in interactive resizes";
    if (VARIANT(POINTER_ONLY))
        return "variant pointer-only: requests only in interactive resizes";
    if (VARIANT(INTERACTIVE_ONLY))
        return "variant interactive-only: requests only in interactive resizes";
    return NULL;
}

static void queue_resize(struct win *w, const struct configure_req *r, enum resize_origin o)
{
    if (!w->queued) {
        w->queue = *r;
        w->queued = true;
    } else {
        merge_queue(&w->queue, r);
    }
    w->queue_origin = o; /* the latest: in the variants where the origin matters, only one kind queues */
    if (++w->queued_configures == 10)
        hostile(w, "a burst of 10 resizes while its request is unanswered");
    logmsg("window %u: resize to %ux%u queued (waiting for counter %u to reach %lld)", w->id,
           (r->mask & XCB_CONFIG_WINDOW_WIDTH) ? r->width : w->wm_w,
           (r->mask & XCB_CONFIG_WINDOW_HEIGHT) ? r->height : w->wm_h, w->req_counter, (long long)w->wait_value);
}

/* the request, then the configure (so the ConfigureNotify comes after the message) */
static void request_and_configure(struct win *w, const struct configure_req *r, int64_t v)
{
    if (FAULT(REQUEST_AFTER_CONFIGURE)) {
        wm_apply_configure(w, r);
        send_request(w, v);
        logmsg("window %u: configured before the request (fault request-after-configure)", w->id);
    } else {
        send_request(w, v);
        wm_apply_configure(w, r);
    }
    w->nrequests++;
    w->last_requested = v;
    w->have_requested = true;
    if (w->form == FORM_EXTENDED && FAULT(IGNORE_SPONTANEOUS))
        w->seen_for_request = v;
    logmsg("window %u: resized to %ux%u", w->id, w->wm_w, w->wm_h);
}

static void start_wait(struct win *w, int64_t v)
{
    if (w->req_counter == XCB_NONE)
        return; /* sync-to-all without a counter: nothing to wait for */
    if (FAULT(NO_WAIT)) {
        logmsg("window %u: not waiting for counter %u (fault no-wait)", w->id, w->req_counter);
        return;
    }
    w->waiting = true;
    w->wait_value = v;
    w->wait_deadline = clock_now_us() + (int64_t)opt.sync_timeout_ms * 1000;
    w->wait_alarm = alarm_create(w->req_counter, v, XCB_SYNC_TESTTYPE_POSITIVE_COMPARISON, 0);
}

/* restart-counter (openbox's do_resize): the basic counter goes back to 0 at the start of each
 * resize, and the requests of that resize count 1, 2, 3...  A resize starts with a client's own
 * ConfigureRequest that is not queued behind another request, or with the first request of a
 * keyboard or pointer resize (sync_interactive_started). */
static bool starts_resize(const struct win *w, enum resize_origin o, bool from_queue)
{
    if (o != ORIGIN_CLIENT)
        return w->interactive_fresh;
    return !from_queue;
}

static void restart_counter(struct win *w)
{
    w->basic_value = 0;
    if (w->req_counter != XCB_NONE)
        counter_set(w->req_counter, 0);
    logmsg("window %u: counter %u set to 0 at the start of a resize; requests restart at 1 (variant "
           "restart-counter)",
           w->id, w->req_counter);
}

void sync_interactive_started(struct win *w)
{
    w->interactive_fresh = true;
}

static void configure_request(struct win *w, const struct configure_req *r, enum resize_origin o, bool from_queue)
{
    if (w->form == FORM_NONE || !is_resize(w, r)) {
        wm_apply_configure(w, r);
        if (w->form != FORM_NONE)
            logv("window %u: ConfigureRequest without a size change applied at once", w->id);
        return;
    }
    const char *without = why_no_request(o);
    if (without) {
        wm_apply_configure(w, r);
        logmsg("window %u: resize to %ux%u applied at once without a sync request (%s)", w->id, w->wm_w, w->wm_h,
               without);
        return;
    }
    /* a client's own resize is not serialised behind the answers: applied at once, never waited for */
    bool unserialised = o == ORIGIN_CLIENT && VARIANT(CONFIGURE_UNSERIALISED);
    if (w->waiting && !unserialised) {
        queue_resize(w, r, o);
        return;
    }
    if (w->waiting)
        logmsg("window %u: resize applied at once although request %lld is unanswered (variant "
               "configure-unserialised)",
               w->id, (long long)w->wait_value);
    else if (w->form == FORM_BASIC && VARIANT(RESTART_COUNTER) && starts_resize(w, o, from_queue))
        restart_counter(w);
    if (o != ORIGIN_CLIENT)
        w->interactive_fresh = false;
    int64_t v = next_value(w);
    request_and_configure(w, r, v);
    if (unserialised) {
        logmsg("window %u: not waiting for request %lld (variant configure-unserialised)", w->id, (long long)v);
        return;
    }
    start_wait(w, v);
}

void sync_configure_request(struct win *w, const struct configure_req *r, enum resize_origin o)
{
    configure_request(w, r, o, false);
}

void sync_forced_configure(struct win *w, const struct configure_req *r)
{
    if (w->form == FORM_NONE || w->waiting || FAULT(ADVERTISES_SYNC_SENDS_NONE)) {
        logmsg("window %u: %s: configured without a sync request", w->id,
               w->form == FORM_NONE ? "no counter"
               : w->waiting         ? "a request is unanswered"
                                    : "fault advertises-sync-sends-none");
        wm_apply_configure(w, r);
        return;
    }
    int64_t v = next_value(w);
    request_and_configure(w, r, v);
    start_wait(w, v);
}

/* sync-at-map (compiz, KWin when compositing): a sync request before the map of a basic-form
 * window, and the map only once the counter has reached it (or the wait timed out);
 * sync_wait_done maps it.  Both compositors that do this are basic-form only, so an extended
 * window is mapped as by default (its first frame is what the drawn message reports).  Returns
 * false when the window is to be mapped at once. */
bool sync_request_at_map(struct win *w)
{
    if (w->form != FORM_BASIC)
        return false;
    if (FAULT(ADVERTISES_SYNC_SENDS_NONE)) {
        logmsg("window %u: mapped without a sync request (fault advertises-sync-sends-none)", w->id);
        return false;
    }
    int64_t v = next_value(w);
    send_request(w, v);
    w->nrequests++;
    w->last_requested = v;
    w->have_requested = true;
    if (w->form == FORM_EXTENDED && FAULT(IGNORE_SPONTANEOUS))
        w->seen_for_request = v;
    start_wait(w, v);
    if (!w->waiting) {
        logmsg("window %u: sync request %lld at map, nothing to wait for: mapping it (variant sync-at-map)", w->id,
               (long long)v);
        return false;
    }
    w->map_after_wait = true;
    logmsg("window %u: sync request %lld at map: mapping it once counter %u reaches it (variant sync-at-map)", w->id,
           (long long)v, w->req_counter);
    return true;
}

void sync_wait_done(struct win *w, const char *why)
{
    if (!w->waiting)
        return;
    alarm_destroy(w->wait_alarm);
    w->wait_alarm = XCB_NONE;
    w->waiting = false;
    if (w->map_after_wait) {
        w->map_after_wait = false;
        logmsg("window %u: mapping it after its sync request at map (%s; variant sync-at-map)", w->id, why);
        wm_map(w);
    }
    if (w->queued) {
        struct configure_req q = w->queue;
        w->queued = false;
        logmsg("window %u: applying the queued configure", w->id);
        configure_request(w, &q, w->queue_origin, true);
    }
}

static void counter_gone(struct win *w, xcb_sync_counter_t c)
{
    logmsg("window %u: counter %u was destroyed: no sync for this window from now on", w->id, c);
    hostile(w, "its counter was destroyed");
    follow_stop(&w->fupd);
    follow_stop(&w->freq);
    if (opt.composite)
        comp_counter_gone(w);
    w->req_counter = XCB_NONE;
    if (w->waiting)
        sync_wait_done(w, "counter destroyed");
    w->form = FORM_NONE;
}

/* basic-only: the second counter, followed only for delimited updates, was destroyed; the requests
 * on the first counter go on */
static void update_counter_gone(struct win *w, xcb_sync_counter_t c)
{
    logmsg("window %u: second counter %u was destroyed: its updates are no longer held (requests go on with "
           "counter %u)",
           w->id, c, w->req_counter);
    w->counter2 = XCB_NONE;
    if (opt.composite)
        comp_counter_gone(w);
}

/* a new value of a followed counter (from its alarms, or from the wait alarm on the same counter,
 * whichever the server reported first) */
static void follow_update(struct win *w, struct follow *f, int64_t v)
{
    if (v == f->value) {
        follow_rearm(f);
        return;
    }
    int64_t old = f->value;
    f->value = v;
    follow_rearm(f);
    if (++w->counter_changes == 20)
        hostile(w, "a counter flood (20 changes)");
    logv("window %u: counter %u changed %lld -> %lld", w->id, f->counter, (long long)old, (long long)v);
    bool is_req = f->counter == w->req_counter; /* not basic-only's second counter */
    if (is_req && !FAULT(IGNORE_SPONTANEOUS))
        w->seen_for_request = v;
    if (f == &w->fupd && opt.composite)
        comp_counter_changed(w, old, v);
}

static void follow_notify(struct win *w, struct follow *f, const xcb_sync_alarm_notify_event_t *ev)
{
    /* follow alarms have delta 0, so a fired one is Inactive until follow_update re-arms it; an
     * Inactive notify also comes when the counter is destroyed (the alarm's counter becomes None),
     * which only a query of the counter tells apart */
    int64_t still;
    if (ev->state == XCB_SYNC_ALARMSTATE_DESTROYED ||
        (ev->state == XCB_SYNC_ALARMSTATE_INACTIVE && !counter_query(f->counter, &still))) {
        alarm_destroy(f->up == ev->alarm ? f->down : f->up);
        alarm_destroy(ev->alarm);
        f->active = false;
        f->up = f->down = XCB_NONE;
        if (f == &w->fupd && w->form == FORM_BASIC) /* basic-only's second counter */
            update_counter_gone(w, f->counter);
        else
            counter_gone(w, f->counter);
        return;
    }
    follow_update(w, f, xh_sync_value(ev->counter_value));
}

bool sync_handle_alarm(const xcb_sync_alarm_notify_event_t *ev)
{
    for (int i = 0; i < nstack; i++) {
        struct win *w = stack[i];
        if (w->waiting && ev->alarm == w->wait_alarm) {
            int64_t v = xh_sync_value(ev->counter_value);
            /* a PositiveComparison alarm fires only at >= the value: a notify below it means the
             * counter was destroyed */
            if (ev->state == XCB_SYNC_ALARMSTATE_DESTROYED || v < w->wait_value) {
                alarm_destroy(w->wait_alarm);
                w->wait_alarm = XCB_NONE;
                counter_gone(w, w->req_counter);
                return true;
            }
            /* the follow alarms on this counter may report the same change later: use it now */
            if (w->freq.active && w->freq.counter == w->req_counter)
                follow_update(w, &w->freq, v);
            else if (w->fupd.active && w->fupd.counter == w->req_counter)
                follow_update(w, &w->fupd, v);
            if (v >= w->wait_value) {
                logmsg("window %u: counter %u reached %lld (value %lld)", w->id, w->req_counter,
                       (long long)w->wait_value, (long long)v);
                sync_wait_done(w, "reached");
            }
            return true;
        }
        if (w->fupd.active && (ev->alarm == w->fupd.up || ev->alarm == w->fupd.down)) {
            follow_notify(w, &w->fupd, ev);
            return true;
        }
        if (w->freq.active && (ev->alarm == w->freq.up || ev->alarm == w->freq.down)) {
            follow_notify(w, &w->freq, ev);
            return true;
        }
    }
    logv("alarm %u: notify for an alarm no longer in use (state %u)", ev->alarm, ev->state);
    return false;
}

void sync_check_timers(int64_t now)
{
    for (int i = 0; i < nstack; i++) {
        struct win *w = stack[i];
        if (w->waiting && now >= w->wait_deadline) {
            logmsg("window %u: counter %u did not reach %lld after %d ms, carrying on", w->id, w->req_counter,
                   (long long)w->wait_value, opt.sync_timeout_ms);
            hostile(w, "an unanswered request");
            sync_wait_done(w, "timeout");
        }
    }
}

int64_t sync_next_deadline(void)
{
    int64_t d = -1;
    for (int i = 0; i < nstack; i++) {
        struct win *w = stack[i];
        if (w->waiting && (d < 0 || w->wait_deadline < d))
            d = w->wait_deadline;
    }
    return d;
}
