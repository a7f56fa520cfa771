/* A toplevel that its client reparented into another managed window, the embedder (embedded.h).
 * fake-wm keeps nothing of it: the window is no longer a client window (wmwindows.c unmanages and
 * forgets it), its pixels are part of the embedder's contents, shown and synced as the embedder's
 * own (lifecycle/reparent/... in cases/clauses.txt).  A WebKitGTK toplevel put into an application's
 * window (Uno Platform's and Avalonia's web views) is such a window.  Two faults keep something:
 *   hold-kept-after-reparent - the embedder is held while the embedded window's update or sync
 *                              request is unfinished, up to the hold or sync timeout;
 *   request-to-reparented    - each sync request to the embedder is followed by one to the
 *                              embedded window. */
#include "embedded.h"

#include "comp.h"
#include "compsched.h"
#include "counters.h"
#include "faults.h"
#include "log.h"
#include "state.h"

#include "clock.h"

#include <string.h>

/* ---- fault hold-kept-after-reparent ---- */

/* the counter w's unfinished business is about and the value that finishes it; false when there
 * is none (what fake-wm knew of w when it unmanaged it: its update counter was odd, or it was
 * waiting for the answer to a request) */
static bool unfinished(const struct win *w, xcb_sync_counter_t *c, int64_t *target, int *timeout_ms)
{
    int64_t now_value;
    if (w->odd && w->counter2 && counter_query(w->counter2, &now_value) && (now_value & 1)) {
        *c = w->counter2;
        *target = now_value + 1; /* the even value that ends the update */
        *timeout_ms = opt.hold_timeout_ms;
        return true;
    }
    *c = w->counter2 ? w->counter2 : w->counter1; /* the request counter: the second of two */
    *target = w->wait_value;
    *timeout_ms = opt.sync_timeout_ms;
    return w->forgotten && counter_query(*c, &now_value) && now_value < w->wait_value;
}

static void end_hold(struct win *w, const char *why)
{
    alarm_destroy(w->embed_alarm);
    w->embed_alarm = XCB_NONE;
    w->embed_until = 0;
    w->dirty = true; /* its damage while kept is shown now */
    logmsg("window %u: the hold kept for the window inside it ends (%s) (fault hold-kept-after-reparent)", w->id,
           why);
    comp_schedule();
}

static void keep_hold(struct win *into, const struct win *w)
{
    xcb_sync_counter_t c;
    int64_t target;
    int timeout_ms;
    if (!X.pc || !unfinished(w, &c, &target, &timeout_ms))
        return;
    alarm_destroy(into->embed_alarm);
    into->embed_alarm = alarm_create(c, target, XCB_SYNC_TESTTYPE_POSITIVE_COMPARISON, 0);
    into->embed_until = clock_now_us() + (int64_t)timeout_ms * 1000;
    logmsg("window %u: window %u, reparented into it, has not finished its update: held until counter %u reaches "
           "%lld, at most %d ms (fault hold-kept-after-reparent)",
           into->id, w->id, c, (long long)target, timeout_ms);
}

bool embedded_holds(const struct win *w) { return w->embed_alarm != XCB_NONE; }

bool embedded_alarm(const xcb_sync_alarm_notify_event_t *ev)
{
    for (int i = 0; i < nstack; i++)
        if (stack[i]->embed_alarm != XCB_NONE && stack[i]->embed_alarm == ev->alarm) {
            end_hold(stack[i], ev->state == XCB_SYNC_ALARMSTATE_DESTROYED ? "its counter is gone" : "its counter reached the value");
            return true;
        }
    return false;
}

void embedded_check(int64_t now)
{
    for (int i = 0; i < nstack; i++)
        if (stack[i]->embed_alarm != XCB_NONE && now >= stack[i]->embed_until)
            end_hold(stack[i], "timeout");
}

int64_t embedded_next_deadline(void)
{
    int64_t d = -1;
    for (int i = 0; i < nstack; i++)
        if (stack[i]->embed_alarm != XCB_NONE && (d < 0 || stack[i]->embed_until < d))
            d = stack[i]->embed_until;
    return d;
}

/* ---- fault request-to-reparented ---- */

static void adopt(struct win *into, const struct win *w)
{
    if (!w->counter1 && !w->counter2)
        return; /* it never took part */
    into->embed_ward = w->id;
    into->embed_ward_value = w->have_requested ? w->last_requested : w->basic_value;
    logmsg("window %u: window %u, reparented into it, is synced with it from now on (fault request-to-reparented)",
           into->id, w->id);
}

void embedded_request_sent(struct win *w)
{
    if (!FAULT(REQUEST_TO_REPARENTED) || !w->embed_ward)
        return;
    int64_t v = ++w->embed_ward_value;
    xcb_client_message_event_t m;
    memset(&m, 0, sizeof m);
    m.response_type = XCB_CLIENT_MESSAGE;
    m.format = 32;
    m.window = w->embed_ward;
    m.type = atom(A_WM_PROTOCOLS);
    m.data.data32[0] = atom(A_NET_WM_SYNC_REQUEST);
    m.data.data32[1] = X.last_time;
    m.data.data32[2] = (uint32_t)((uint64_t)v & 0xffffffffu);
    m.data.data32[3] = (uint32_t)((uint64_t)v >> 32);
    xcb_send_event(X.c, 0, w->embed_ward, XCB_EVENT_MASK_NO_EVENT, (const char *)&m);
    logmsg("window %u: sync request value=%lld to window %u inside it (fault request-to-reparented)", w->id,
           (long long)v, w->embed_ward);
}

/* ---- both ---- */

void embedded_reparented(struct win *w, struct win *into)
{
    if (!into || into == w || !into->managed)
        return;
    if (FAULT(HOLD_KEPT_AFTER_REPARENT))
        keep_hold(into, w);
    if (FAULT(REQUEST_TO_REPARENTED))
        adopt(into, w);
}

void embedded_forget(struct win *w)
{
    if (w->embed_alarm != XCB_NONE) {
        alarm_destroy(w->embed_alarm);
        w->embed_alarm = XCB_NONE;
        w->embed_until = 0;
    }
    w->embed_ward = XCB_NONE;
}
