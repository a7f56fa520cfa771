/* XSync counters and the alarms that report their changes.
 *
 * Each counter has two alarms: PositiveComparison at value+1 and NegativeComparison at value-1,
 * delta 0, events on.  A comparison alarm with delta 0 goes Inactive after it fires, so after
 * each AlarmNotify both alarms are re-armed around the value the event carries.  ChangeAlarm
 * evaluates the test at once, so a change that happened between the event and the re-arm fires
 * again immediately: no change that persists is missed, whoever made it (us, the WM, anyone). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "scripted-client.h"

#define ALARM_MASK                                                                        \
    (XCB_SYNC_CA_COUNTER | XCB_SYNC_CA_VALUE_TYPE | XCB_SYNC_CA_VALUE | XCB_SYNC_CA_TEST_TYPE | \
     XCB_SYNC_CA_DELTA | XCB_SYNC_CA_EVENTS)

static struct counter *counter_at(struct client *cl, int index)
{
    return &cl->counters[index - 1];
}

/* The test values around `value`.  At the ends of the int64 range there is nothing beyond, so
 * that alarm gets no events (a test at value±1 would wrap around and fire forever). */
static xcb_sync_change_alarm_value_list_t alarm_values(xcb_sync_counter_t counter, int64_t value,
                                                       bool up)
{
    bool at_limit = up ? value == INT64_MAX : value == INT64_MIN;
    xcb_sync_change_alarm_value_list_t v = {0};
    v.counter = counter;
    v.valueType = XCB_SYNC_VALUETYPE_ABSOLUTE;
    v.value = xh_sync_int64(at_limit ? value : up ? value + 1 : value - 1);
    v.testType = up ? XCB_SYNC_TESTTYPE_POSITIVE_COMPARISON : XCB_SYNC_TESTTYPE_NEGATIVE_COMPARISON;
    v.delta = xh_sync_int64(0);
    v.events = !at_limit;
    return v;
}

static xcb_sync_alarm_t alarm_create(struct client *cl, struct cmd *cmd, xcb_sync_counter_t counter,
                                     int64_t value, bool up)
{
    xcb_sync_change_alarm_value_list_t cv = alarm_values(counter, value, up);
    xcb_sync_create_alarm_value_list_t v = {
        .counter = cv.counter, .valueType = cv.valueType, .value = cv.value,
        .testType = cv.testType, .delta = cv.delta, .events = cv.events};
    xcb_sync_alarm_t id = xcb_generate_id(cl->c);
    cmd_track(cmd, xcb_sync_create_alarm_aux_checked(cl->c, id, ALARM_MASK, &v));
    return id;
}

static void alarms_rearm(struct client *cl, struct counter *k, int64_t value)
{
    xcb_sync_change_alarm_value_list_t up = alarm_values(k->id, value, true);
    xcb_sync_change_alarm_value_list_t down = alarm_values(k->id, value, false);
    xcb_sync_change_alarm_aux(cl->c, k->up, ALARM_MASK, &up);
    xcb_sync_change_alarm_aux(cl->c, k->down, ALARM_MASK, &down);
    cl->alarm_rearms++;
}

static void counter_free(struct client *cl, struct cmd *cmd, struct counter *k)
{
    /* Alarms first, so the server never has alarms on a counter that is gone. */
    if (!k->alive)
        return;
    cmd_track(cmd, xcb_sync_destroy_alarm_checked(cl->c, k->up));
    cmd_track(cmd, xcb_sync_destroy_alarm_checked(cl->c, k->down));
    cmd_track(cmd, xcb_sync_destroy_counter_checked(cl->c, k->id));
    k->alive = false;
    k->up = k->down = 0;
}

void counters_destroy_all(struct client *cl, struct cmd *cmd)
{
    for (int i = 0; i < FC_MAX_COUNTERS; i++) {
        counter_free(cl, cmd, &cl->counters[i]);
        cl->counters[i].id = 0;
    }
    cl->ncounters = 0;
}

bool counter_create(struct client *cl, struct cmd *cmd, int index, int64_t init)
{
    struct counter *k = counter_at(cl, index);
    k->id = xcb_generate_id(cl->c);
    cmd_track(cmd, xcb_sync_create_counter_checked(cl->c, k->id, xh_sync_int64(init)));
    k->up = alarm_create(cl, cmd, k->id, init, true);
    k->down = alarm_create(cl, cmd, k->id, init, false);
    k->alive = true;
    k->reported = init; /* creation itself is not a change */
    k->last_set = init; /* the initial value is the client's own too */
    k->has_set = true;
    return true;
}

void counter_set(struct client *cl, struct cmd *cmd, int index, int64_t value, const char *reason)
{
    struct counter *k = counter_at(cl, index);
    if (cmd)
        cmd_track(cmd, xcb_sync_set_counter_checked(cl->c, k->id, xh_sync_int64(value)));
    else
        xcb_sync_set_counter(cl->c, k->id, xh_sync_int64(value));
    k->last_set = value;
    k->has_set = true;
    cl->ncounter_sets++;
    record("counter-set", "index=%d value=%lld reason=%s", index, (long long)value, reason);
}

bool counter_query(struct client *cl, int index, int64_t *value, char *msg, size_t len)
{
    xcb_generic_error_t *e = NULL;
    xcb_sync_query_counter_reply_t *r = xcb_sync_query_counter_reply(
        cl->c, xcb_sync_query_counter(cl->c, counter_at(cl, index)->id), &e);
    if (!r) {
        if (e)
            x_error_text(msg, len, e);
        else
            snprintf(msg, len, "X connection lost");
        free(e);
        return false;
    }
    *value = xh_sync_value(r->counter_value);
    free(r);
    return true;
}

void counter_destroy(struct client *cl, struct cmd *cmd, int index)
{
    struct counter *k = counter_at(cl, index);
    if (k->alive) {
        counter_free(cl, cmd, k);
        return;
    }
    /* Already destroyed: destroy again, so the harness sees the server's Counter error. */
    cmd_track(cmd, xcb_sync_destroy_counter_checked(cl->c, k->id));
}

int update_counter_index(const struct client *cl)
{
    /* Delimited updates use the extended counter when there is one. */
    return cl->ncounters == 2 ? 2 : 1;
}

void counters_on_alarm(struct client *cl, const xcb_sync_alarm_notify_event_t *ev)
{
    for (int i = 0; i < FC_MAX_COUNTERS; i++) {
        struct counter *k = &cl->counters[i];
        if (!k->alive || (ev->alarm != k->up && ev->alarm != k->down))
            continue;
        if (ev->state == XCB_SYNC_ALARMSTATE_DESTROYED)
            return;
        int64_t value = xh_sync_value(ev->counter_value);
        if (value != k->reported) {
            /* self=1: the value this client itself wrote last (its own update or answer), so a
             * case can tell the WM's writes from the client's */
            record("counter-change", "index=%d value=%lld self=%d sendevent=%d", i + 1, (long long)value,
                   k->has_set && k->last_set == value ? 1 : 0, (ev->response_type & 0x80) ? 1 : 0);
            k->reported = value;
        }
        alarms_rearm(cl, k, value);
        return;
    }
}
