/* The sync request protocol for a size change (sync.h): the request value, the request before the
 * configure (so the ConfigureNotify comes after the message), the wait for the counter with an
 * alarm (and a timeout: syncanswer.c), and the queue of resizes meanwhile. */
#include "sync.h"
#include "syncint.h"

#include "comp.h"
#include "counters.h"
#include "embedded.h"
#include "faults.h"
#include "log.h"
#include "sizelimits.h"
#include "state.h"
#include "policies.h"
#include "xwcommits.h"
#include "variants.h"
#include "winops.h"

#include "clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the request ---- */
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
    xcb_window_t wedged_by = hostile_wedged_by();
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
    embedded_request_sent(w);
}

/* v was asked for */
static void note_requested(struct win *w, int64_t v)
{
    w->nrequests++;
    w->last_requested = v;
    w->have_requested = true;
    if (w->form == FORM_EXTENDED && FAULT(IGNORE_SPONTANEOUS))
        w->seen_for_request = v;
}

/* the request, then the configure (so the ConfigureNotify comes after the message); asked: what
 * was asked before WM_NORMAL_HINTS' limits changed it (NULL: they did not) */
static void request_and_configure(struct win *w, const struct configure_req *r, int64_t v,
                                  const struct configure_req *asked)
{
    if (FAULT(REQUEST_AFTER_CONFIGURE)) {
        wm_apply_configure(w, r);
        send_request(w, v);
        logmsg("window %u: configured before the request (fault request-after-configure)", w->id);
    } else if (asked && FAULT(CONSTRAINED_CONFIGURED_TWICE)) {
        send_request(w, v);
        wm_apply_configure(w, asked);
        logmsg("window %u: configured at the size asked, %ux%u, before the size WM_NORMAL_HINTS allow (fault "
               "constrained-configured-twice)",
               w->id, w->wm_w, w->wm_h);
        wm_apply_configure(w, r);
    } else {
        send_request(w, v);
        wm_apply_configure(w, r);
    }
    note_requested(w, v);
    logmsg("window %u: resized to %ux%u", w->id, w->wm_w, w->wm_h);
}

/* the compositor keeps showing the last answered picture until the answer (comp_resize_answered);
 * with inject show-before-paint, every N-th such resize is painted at once instead */
static void freeze_picture(struct win *w, bool show_now)
{
    if (w->waiting && compositing())
        w->resize_frozen = true;
    if (show_now) {
        char why[48];
        if (FAULT(SHOWN_WHILE_HELD))
            snprintf(why, sizeof why, "fault shown-while-held");
        else
            snprintf(why, sizeof why, "show-before-paint=%d", opt.show_before_paint);
        comp_show_before_paint(w, why); /* ends the server grab show_before_configure began */
    }
}

/* inject show-before-paint: is this the N-th synced resize?  Then the server is grabbed from
 * before the configure until the compositor has taken the window's new picture, so that the
 * client cannot paint in between (comp_show_before_paint); fault shown-while-held does it to every one */
static bool show_before_configure(struct win *w)
{
    int every = FAULT(SHOWN_WHILE_HELD) ? 1 : opt.show_before_paint; /* the fault: every synced resize */
    if (!compositing() || !every || w->req_counter == XCB_NONE || ++w->synced_resizes % every != 0)
        return false;
    xcb_grab_server(X.c);
    return true;
}

/* inject configure-before-answer: is this the N-th synced step of a pointer resize?  Then the WM
 * does not wait for its answer (the next step is configured as soon as the pointer moves), and the
 * compositor shows the new size at once, as one that ignores the hold would: the server is grabbed
 * from before the configure until the window's new pixmap is taken (comp_show_before_paint), so
 * the frame shown is always the one painted for the old size, whatever the machine's load */
static bool configure_before_answer(struct win *w, enum resize_origin o)
{
    if (!opt.configure_before_answer || o != ORIGIN_POINTER || w->req_counter == XCB_NONE ||
        ++w->synced_pointer_steps % opt.configure_before_answer != 0)
        return false;
    if (compositing())
        xcb_grab_server(X.c);
    return true;
}

/* the step configure_before_answer chose: shown now, never waited for */
static void show_unanswered(struct win *w, int64_t v)
{
    logmsg("window %u: not waiting for request %lld (inject configure-before-answer=%d)", w->id, (long long)v,
           opt.configure_before_answer);
    if (!compositing())
        return;
    char why[48];
    snprintf(why, sizeof why, "configure-before-answer=%d", opt.configure_before_answer);
    comp_show_before_paint(w, why); /* ends the server grab configure_before_answer began */
}

static void start_wait(struct win *w, int64_t v)
{
    if (w->req_counter == XCB_NONE)
        return; /* sync-to-all without a counter: nothing to wait for */
    if (FAULT(NO_WAIT)) {
        logmsg("window %u: not waiting for counter %u (fault no-wait)", w->id, w->req_counter);
        return;
    }
    if (w->unwaited) {
        logmsg("window %u: not waiting for counter %u to reach %lld: a request timed out before (fault "
               "unwaited-after-timeout)",
               w->id, w->req_counter, (long long)v);
        return;
    }
    w->waiting = true;
    w->wait_value = v;
    w->wait_deadline = clock_now_us() + (int64_t)opt.sync_timeout_ms * 1000;
    xwc_wait_started(w);
    int64_t now;
    if (FAULT(WAIT_ANY_CHANGE) && counter_query(w->req_counter, &now) && now < INT64_MAX) {
        /* xfwm4's alarm: any increase of the counter, whatever the value asked */
        w->wait_alarm = alarm_create(w->req_counter, now + 1, XCB_SYNC_TESTTYPE_POSITIVE_COMPARISON, 0);
        return;
    }
    w->wait_alarm = alarm_create(w->req_counter, v, XCB_SYNC_TESTTYPE_POSITIVE_COMPARISON, 0);
}

/* ---- the configure that needs one, or not ---- */
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

/* faults unsynced-after-timeout and unsynced-after-late-answer: is w's sync off since one of its
 * requests timed out?  The first turns it on again once the counter has moved since (mutter's
 * disable_sync, cleared by meta_window_x11_update_sync_request_counter); the second never does. */
static bool sync_turned_off(struct win *w)
{
    if (!w->unsynced)
        return false;
    int64_t now;
    if (!w->unsynced_for_good && w->req_counter != XCB_NONE && counter_query(w->req_counter, &now) &&
        now != w->unsynced_value) {
        w->unsynced = false;
        logmsg("window %u: counter %u moved from %lld to %lld since the timeout: sync requests again (fault "
               "unsynced-after-timeout)",
               w->id, w->req_counter, (long long)w->unsynced_value, (long long)now);
        return false;
    }
    return true;
}

/* why a resize of w from o gets no sync request (it is applied at once), or NULL: WMs that send
 * requests only in interactive resizes, and the faults of one that claims the protocol and sends
 * none, or stops sending them */
static const char *why_no_request(struct win *w, enum resize_origin o)
{
    if (FAULT(ADVERTISES_SYNC_SENDS_NONE))
        return "fault advertises-sync-sends-none: no requests at all";
    if (w->adopted_unsynced)
        return "fault adopted-unsynced: no requests to a window it adopted at start-up";
    if (sync_turned_off(w))
        return w->unsynced_for_good ? "fault unsynced-after-late-answer: no requests since one timed out"
                                    : "fault unsynced-after-timeout: no requests since one timed out, until the "
                                      "counter moves";
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

/* fault request-without-configure: a step that WM_NORMAL_HINTS keep at w's size still gets a request,
 * waited for, and no configure follows it */
static bool lone_request(struct win *w, const struct configure_req *asked, enum resize_origin o)
{
    if (!FAULT(REQUEST_WITHOUT_CONFIGURE) || !asked || w->form == FORM_NONE || w->waiting || !is_resize(w, asked) ||
        why_no_request(w, o))
        return false;
    int64_t v = next_value(w);
    send_request(w, v);
    note_requested(w, v);
    start_wait(w, v);
    logmsg("window %u: resize kept at %ux%u by WM_NORMAL_HINTS: sync request %lld without a configure (fault "
           "request-without-configure)",
           w->id, w->wm_w, w->wm_h, (long long)v);
    return true;
}

/* variant drop-steps (xfwm4): a step of an interactive resize made while a request is unanswered is
 * dropped, not queued; a client's own ConfigureRequest is always queued (it is the client's wish) */
static bool drops_step(const struct win *w, const struct configure_req *r, enum resize_origin o)
{
    if (!VARIANT(DROP_STEPS) || o == ORIGIN_CLIENT)
        return false;
    logmsg("window %u: %s resize step to %ux%u dropped: request %lld is unanswered (variant drop-steps)", w->id,
           origin_name(o), (r->mask & XCB_CONFIG_WINDOW_WIDTH) ? r->width : w->wm_w,
           (r->mask & XCB_CONFIG_WINDOW_HEIGHT) ? r->height : w->wm_h, (long long)w->wait_value);
    return true;
}

void sync_configure(struct win *w, const struct configure_req *r, enum resize_origin o, bool from_queue,
                    const struct configure_req *asked)
{
    if (w->form == FORM_NONE || !is_resize(w, r)) {
        if (lone_request(w, asked, o))
            return;
        wm_apply_configure(w, r);
        if (w->form != FORM_NONE)
            logv("window %u: ConfigureRequest without a size change applied at once", w->id);
        return;
    }
    const char *without = why_no_request(w, o);
    if (without) {
        wm_apply_configure(w, r);
        logmsg("window %u: resize to %ux%u applied at once without a sync request (%s)", w->id, w->wm_w, w->wm_h,
               without);
        return;
    }
    /* a client's own resize is not serialised behind the answers: applied at once, never waited for */
    bool unserialised = o == ORIGIN_CLIENT && VARIANT(CONFIGURE_UNSERIALISED);
    if (w->waiting && !unserialised) {
        if (!drops_step(w, r, o))
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
    bool unwaited = !unserialised && configure_before_answer(w, o);
    bool show_now = !unserialised && !unwaited && show_before_configure(w);
    request_and_configure(w, r, v, asked);
    if (unserialised) {
        logmsg("window %u: not waiting for request %lld (variant configure-unserialised)", w->id, (long long)v);
        return;
    }
    if (unwaited) {
        show_unanswered(w, v);
        return;
    }
    start_wait(w, v);
    freeze_picture(w, show_now);
}

void sync_configure_request(struct win *w, const struct configure_req *r, enum resize_origin o)
{
    struct configure_req given = *r;
    bool constrained = size_limits_apply(w, &given, o);
    sync_configure(w, &given, o, false, constrained ? r : NULL);
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
    bool show_now = show_before_configure(w);
    request_and_configure(w, r, v, NULL);
    start_wait(w, v);
    freeze_picture(w, show_now);
}

/* A resize with a gap (control.c): the request now, its configure gap_ms later.  The texts fix
 * the order ("preceding a ConfigureNotify event sent to a client by a client message"), not the
 * time between, so a client must wait for the ConfigureNotify whenever it comes: one that answers
 * when the request arrives answers in the gap, where the server's order shows it (request and
 * configure sent together reach a client in one read, so its early answer would still follow the
 * ConfigureNotify there).  The wait for the answer starts with the request, as ever. */
void sync_configure_after_gap(struct win *w, const struct configure_req *r, int gap_ms)
{
    const char *why = w->form == FORM_NONE       ? "no counter"
                      : w->waiting               ? "a request is unanswered"
                      : w->configure_held        ? "a configure is held already"
                      : !is_resize(w, r)         ? "the size does not change"
                      : why_no_request(w, ORIGIN_KEYBOARD);
    if (why) {
        logmsg("window %u: control: resize without the gap (%s)", w->id, why);
        sync_configure(w, r, ORIGIN_KEYBOARD, false, NULL);
        return;
    }
    int64_t v = next_value(w);
    send_request(w, v);
    note_requested(w, v);
    start_wait(w, v);
    w->held = *r;
    w->configure_held = true;
    w->held_until = clock_now_us() + (int64_t)gap_ms * 1000;
    logmsg("window %u: configure to %ux%u held back %d ms after request %lld (control resize with a gap)", w->id,
           r->width, r->height, gap_ms, (long long)v);
}

void sync_apply_held(struct win *w)
{
    w->configure_held = false;
    wm_apply_configure(w, &w->held);
    logmsg("window %u: resized to %ux%u, the configure held back since its request%s", w->id, w->wm_w, w->wm_h,
           w->waiting ? "" : " (answered already)");
    freeze_picture(w, false);
    if (!w->waiting)
        sync_apply_queue(w);
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
    if (FAULT(MAP_UNSYNCED_AFTER_UNMAP) && w->unanswered_at_unmap) {
        logmsg("window %u: mapped without a sync request: its last unmap came while a request was unanswered "
               "(fault map-unsynced-after-unmap)",
               w->id);
        return false;
    }
    int64_t v = next_value(w);
    send_request(w, v);
    note_requested(w, v);
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

/* policy show-after-first-answer (KWin's X11Window::manage): a sync request at the MapRequest of a
 * window with a counter, in its form; the window is mapped at once but not painted (w->unready)
 * until the counter reaches the request or FIRST_ANSWER_TIMEOUT_MS pass (sync_wait_done). */
void sync_request_before_show(struct win *w)
{
    if (w->req_counter == XCB_NONE)
        return; /* no counter: KWin's request is not sent (m_syncRequest.enabled is false) */
    int64_t v = next_value(w);
    send_request(w, v);
    /* the pair the text answers: KWin's manage sends the synthetic ConfigureNotify of the window's
     * geometry when it sets the mapping state, right after this request.  The geometry is the
     * server's: a client that resized its window just before the map (EFL: 1x1, then 320x320) has
     * its ConfigureNotify still queued behind this MapRequest, and the size fake-wm tracks would
     * tell it it is 1x1 (ecore_evas then renders at 1x1, and its animation draws nothing) */
    xcb_configure_notify_event_t e;
    memset(&e, 0, sizeof e);
    e.response_type = XCB_CONFIGURE_NOTIFY;
    e.event = e.window = w->id;
    e.x = w->x;
    e.y = w->y;
    e.width = w->w;
    e.height = w->h;
    e.border_width = w->bw;
    xcb_get_geometry_reply_t *g = xcb_get_geometry_reply(X.c, xcb_get_geometry(X.c, w->id), NULL);
    if (g) {
        e.x = g->x;
        e.y = g->y;
        e.width = g->width;
        e.height = g->height;
        e.border_width = g->border_width;
        free(g);
    }
    xcb_send_event(X.c, 0, w->id, XCB_EVENT_MASK_STRUCTURE_NOTIFY, (const char *)&e);
    note_requested(w, v);
    start_wait(w, v);
    if (!w->waiting)
        return;
    w->wait_deadline = clock_now_us() + (int64_t)FIRST_ANSWER_TIMEOUT_MS * 1000;
    w->unready = compositing();
    logmsg("window %u: sync request %lld at manage: not shown until counter %u reaches it or %d ms pass (policy "
           "show-after-first-answer)", w->id, (long long)v, w->req_counter, FIRST_ANSWER_TIMEOUT_MS);
}
