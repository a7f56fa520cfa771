/* The answers to sync requests (sync.h): the alarm of the counter reaching the value (or of the
 * counter going away), the timeout, and the follow alarms that report every change of a followed
 * counter (the extended form's "last value seen", and delimited updates for the compositor). */
#include "sync.h"
#include "syncint.h"

#include "comp.h"
#include "counters.h"
#include "faults.h"
#include "keyresize.h"
#include "log.h"
#include "pointerresize.h"
#include "state.h"
#include "winops.h"
#include "xhelpers.h"
#include "xwcommits.h"

static void sync_wait_done(struct win *w, const char *why)
{
    if (!w->waiting)
        return;
    alarm_destroy(w->wait_alarm);
    w->wait_alarm = XCB_NONE;
    w->waiting = false;
    xwc_wait_ended(w, why);
    comp_resize_answered(w);
    if (w->unready) {
        w->unready = false;
        logmsg("window %u: ready for painting (%s; policy show-after-first-answer)", w->id, why);
        comp_ready_for_painting(w);
    }
    if (w->map_after_wait) {
        w->map_after_wait = false;
        logmsg("window %u: mapping it after its sync request at map (%s; variant sync-at-map)", w->id, why);
        wm_map(w);
    }
    if (!w->configure_held) /* else the held configure goes first, then the queue (sync_apply_held) */
        sync_apply_queue(w);
}

void sync_apply_queue(struct win *w)
{
    if (!w->queued)
        return;
    struct configure_req q = w->queue;
    w->queued = false;
    logmsg("window %u: applying the queued configure", w->id);
    sync_configure(w, &q, w->queue_origin, true, NULL);
}

static void counter_gone(struct win *w, xcb_sync_counter_t c)
{
    logmsg("window %u: counter %u was destroyed: no sync for this window from now on", w->id, c);
    hostile(w, "its counter was destroyed");
    follow_stop(&w->fupd);
    follow_stop(&w->freq);
    if (compositing())
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
    if (compositing())
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
    if (f == &w->fupd && compositing())
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

static bool resize_running_on(const struct win *w)
{
    xcb_window_t which = XCB_NONE;
    return (ptr_resize_running(&which) || kbd_resize_running(&which)) && which == w->id;
}

/* fault answer-after-resize-ignored: muffin 4.8-5.2 takes an answer as the end of the wait only
 * while the window's resize grab runs; after it, the request's timeout stays and fires */
static void keep_timer_outside_resize(struct win *w)
{
    if (!FAULT(ANSWER_AFTER_RESIZE_IGNORED) || resize_running_on(w))
        return;
    w->stale_timer_at = w->wait_deadline;
    logmsg("window %u: answered after its interactive resize ended: the request's timer keeps running "
           "(fault answer-after-resize-ignored)",
           w->id);
}

bool sync_handle_alarm(const xcb_sync_alarm_notify_event_t *ev)
{
    for (int i = 0; i < nstack; i++) {
        struct win *w = stack[i];
        if (w->waiting && ev->alarm == w->wait_alarm) {
            int64_t v = xh_sync_value(ev->counter_value);
            /* a PositiveComparison alarm fires only at >= the value: a notify below it means the
             * counter was destroyed (fault wait-any-change: its alarm is at any increase) */
            if (ev->state == XCB_SYNC_ALARMSTATE_DESTROYED || (v < w->wait_value && !FAULT(WAIT_ANY_CHANGE))) {
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
            if (FAULT(WAIT_ANY_CHANGE)) {
                logmsg("window %u: counter %u changed to %lld: the wait for %lld ends (fault wait-any-change)", w->id,
                       w->req_counter, (long long)v, (long long)w->wait_value);
                sync_wait_done(w, "any change");
                return true;
            }
            if (v >= w->wait_value && w->form == FORM_EXTENDED && (v & 1) && v < INT64_MAX) {
                /* odd: the client began the update that answers (GTK's begin_frame sets value + 1);
                 * the answer is the even value that ends it (mutter 43.8,
                 * meta_window_x11_update_sync_request_counter) */
                alarm_destroy(w->wait_alarm);
                w->wait_alarm = alarm_create(w->req_counter, v + 1, XCB_SYNC_TESTTYPE_POSITIVE_COMPARISON, 0);
                logmsg("window %u: counter %u at %lld (odd, >= %lld): waiting for the even value that ends the "
                       "update",
                       w->id, w->req_counter, (long long)v, (long long)w->wait_value);
                return true;
            }
            if (v >= w->wait_value) {
                logmsg("window %u: counter %u reached %lld (value %lld)", w->id, w->req_counter,
                       (long long)w->wait_value, (long long)v);
                keep_timer_outside_resize(w);
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

/* faults unsynced-after-timeout and unsynced-after-late-answer: a request timed out, so the
 * window's resizes get no request from now on (syncrequest.c's sync_turned_off); fault
 * unwaited-after-timeout: they get one, never waited for (start_wait) */
static void turn_sync_off(struct win *w)
{
    if (FAULT(UNWAITED_AFTER_TIMEOUT)) {
        w->unwaited = true;
        logmsg("window %u: its requests are no longer waited for (fault unwaited-after-timeout)", w->id);
    }
    if (!FAULT(UNSYNCED_AFTER_TIMEOUT) && !FAULT(UNSYNCED_AFTER_LATE_ANSWER))
        return;
    w->unsynced = true;
    w->unsynced_for_good = FAULT(UNSYNCED_AFTER_LATE_ANSWER);
    if (!counter_query(w->req_counter, &w->unsynced_value))
        w->unsynced_value = 0;
    logmsg("window %u: sync off for this window (fault %s)", w->id,
           w->unsynced_for_good ? "unsynced-after-late-answer: for good"
                                : "unsynced-after-timeout: until its counter moves from its value now");
}

static void stale_timer_fired(struct win *w)
{
    w->stale_timer_at = 0;
    w->unsynced = true;
    w->unsynced_for_good = false;
    if (!counter_query(w->req_counter, &w->unsynced_value))
        w->unsynced_value = 0;
    logmsg("window %u: the answered request's timer passed: sync off for this window until its counter moves "
           "(fault answer-after-resize-ignored)",
           w->id);
}

void sync_check_timers(int64_t now)
{
    for (int i = 0; i < nstack; i++) {
        struct win *w = stack[i];
        if (w->stale_timer_at && now >= w->stale_timer_at)
            stale_timer_fired(w);
        if (w->configure_held && now >= w->held_until)
            sync_apply_held(w);
        if (w->waiting && now >= w->wait_deadline) {
            logmsg("window %u: counter %u did not reach %lld after %d ms, carrying on", w->id, w->req_counter,
                   (long long)w->wait_value, opt.sync_timeout_ms);
            hostile(w, "an unanswered request");
            turn_sync_off(w);
            sync_wait_done(w, "timeout");
        }
    }
}

void sync_settle(struct win *w)
{
    if (!w->waiting && !w->configure_held)
        return;
    logmsg("window %u: control: settle: the wait for counter %u to reach %lld ends now (as at its timeout)", w->id,
           w->req_counter, (long long)w->wait_value);
    if (w->configure_held)
        sync_apply_held(w);
    sync_wait_done(w, "settled (control)");
}

int64_t sync_next_deadline(void)
{
    int64_t d = -1;
    for (int i = 0; i < nstack; i++) {
        struct win *w = stack[i];
        if (w->waiting && (d < 0 || w->wait_deadline < d))
            d = w->wait_deadline;
        if (w->configure_held && (d < 0 || w->held_until < d))
            d = w->held_until;
        if (w->stale_timer_at && (d < 0 || w->stale_timer_at < d))
            d = w->stale_timer_at;
    }
    return d;
}
