/* The sync request protocol at manage and unmanage (sync.h): which form a window uses, setting the
 * basic counter, reading and following the extended one. */
#include "sync.h"
#include "syncint.h"

#include "counters.h"
#include "faults.h"
#include "features.h"
#include "log.h"
#include "propdecode.h"
#include "state.h"
#include "winops.h"

#include "clock.h"

#include <stdlib.h>

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
 * are one update.  A hold is the counter's, not the map's: an update the window was in when it was
 * unmapped, and which ended while it was unmapped, is over (fault hold-kept-across-unmap: w->odd,
 * left from before the unmap, still counts) */
static void start_delimited(struct win *w, xcb_sync_counter_t c, int64_t value)
{
    bool left_over = FAULT(HOLD_KEPT_ACROSS_UNMAP) && w->odd && !(value & 1);
    if (left_over)
        logmsg("window %u: still taken to be in the update it was in when it was unmapped, although counter %u is "
               "even (%lld) (fault hold-kept-across-unmap)",
               w->id, c, (long long)value);
    follow_start(&w->fupd, c, value);
    w->odd = (value & 1) != 0 || left_over;
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

/* basic form: the only counter, or the first of two (ewmh-1.5 has no extended form) */
static void manage_basic(struct win *w, const xcb_sync_counter_t ctr[2], int n)
{
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
}

/* the counters of an extended-form window: the first and the second, or (fault
 * single-counter-extended) the only one as the second */
static void extended_counters(struct win *w, const xcb_sync_counter_t ctr[2], int n)
{
    if (n == 1) {
        w->counter1 = XCB_NONE;
        w->counter2 = ctr[0];
        logmsg("window %u: one counter, treated as the extended form (fault single-counter-extended)", w->id);
    } else {
        w->counter1 = ctr[0];
        w->counter2 = ctr[1];
    }
}

/* "last value seen", the base of the first request: what QueryCounter returned (rval), unless a
 * fault is about not seeing it */
static void initial_value_seen(struct win *w, int64_t rval)
{
    if (FAULT(NO_QUERY_INITIAL)) {
        w->seen_for_request = 0;
        logmsg("window %u: taking 0 as the initial value instead of %lld (fault no-query-initial)", w->id,
               (long long)rval);
    } else if (FAULT(IGNORE_SPONTANEOUS) && w->have_requested) {
        w->seen_for_request = w->last_requested;
    } else {
        w->seen_for_request = rval;
    }
}

/* extended form: the second counter is read and followed, never set (unless fault reset-extended);
 * the requests are about it (or, fault use-first-counter, about the first) */
static void manage_extended(struct win *w, const xcb_sync_counter_t ctr[2], int n)
{
    extended_counters(w, ctr, n);
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
    initial_value_seen(w, rval);
    if (req != upd)
        logmsg("window %u: managed, form=extended counter=%u value=%lld; requests use the first counter %u "
               "value=%lld (fault use-first-counter)",
               w->id, upd, (long long)uval, req, (long long)rval);
    else
        logmsg("window %u: managed, form=extended counter=%u value=%lld%s; first counter %u left alone", w->id,
               upd, (long long)uval, w->odd ? " (odd: update in progress)" : "", w->counter1);
}

void sync_manage(struct win *w)
{
    w->form = FORM_NONE;
    w->req_counter = XCB_NONE;
    w->counter1 = w->counter2 = XCB_NONE;
    w->waiting = false;
    w->queued = false;
    w->map_after_wait = false;
    w->unready = false;
    w->interactive_fresh = false;
    w->unsynced = w->unsynced_for_good = w->unwaited = false;

    if (FAULT(UNSYNCED_AFTER_UNMAP) && w->forgotten) {
        logmsg("window %u: managed, form=none: it was unmapped while its sync request was unanswered and is "
               "forgotten (fault unsynced-after-unmap)",
               w->id);
        return;
    }

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
    if (extended_form_available() && (n == 2 || FAULT(SINGLE_COUNTER_EXTENDED)))
        manage_extended(w, ctr, n);
    else
        manage_basic(w, ctr, n);
}

void sync_unmanage(struct win *w)
{
    hostile_window_gone(w);
    w->map_after_wait = false; /* withdrawn or destroyed before its map: nothing to map */
    w->unready = false;
    w->unanswered_at_unmap = w->waiting && !w->destroyed;
    if (w->waiting) {
        /* the wait ends with the management it was part of: a new map is synced afresh */
        alarm_destroy(w->wait_alarm);
        w->wait_alarm = XCB_NONE;
        w->waiting = false;
        w->forgotten = !w->destroyed; /* fault unsynced-after-unmap: never synced again */
    }
    follow_stop(&w->fupd);
    follow_stop(&w->freq);
    if (w->queued && !w->destroyed) {
        /* the window is no longer managed: what it asked for is applied as it is, unless its client
         * has put it into another window meanwhile (the unmap of its ReparentWindow is what ended the
         * management): there the geometry, in root coordinates, is no longer the WM's to give */
        w->queued = false;
        if (wm_on_root(w->id))
            wm_apply_configure(w, &w->queue);
        else
            logmsg("window %u: the resize queued behind its request is dropped: the window is no longer a child of "
                   "the root (its client reparented it)",
                   w->id);
    }
    w->queued = false;
    w->configure_held = false; /* the WM's own resize of a window it no longer manages: dropped */
    w->form = FORM_NONE;
    w->req_counter = XCB_NONE;
}
