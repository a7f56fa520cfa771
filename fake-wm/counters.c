/* XSync counters and alarms on the window manager connection. */
#include "counters.h"

#include "state.h"

#include "xhelpers.h"

#include <stdlib.h>

bool counter_query(xcb_sync_counter_t c, int64_t *value)
{
    if (c == XCB_NONE)
        return false;
    xcb_generic_error_t *err = NULL;
    xcb_sync_query_counter_reply_t *r =
        xcb_sync_query_counter_reply(X.c, xcb_sync_query_counter(X.c, c), &err);
    if (!r) {
        free(err);
        return false;
    }
    *value = xh_sync_value(r->counter_value);
    free(r);
    return true;
}

void counter_set(xcb_sync_counter_t c, int64_t value)
{
    xcb_sync_set_counter(X.c, c, xh_sync_int64(value));
}

xcb_sync_alarm_t alarm_create(xcb_sync_counter_t c, int64_t value, uint32_t test, int64_t delta)
{
    xcb_sync_alarm_t a = xcb_generate_id(X.c);
    xcb_sync_create_alarm_value_list_t v = {
        .counter = c,
        .valueType = XCB_SYNC_VALUETYPE_ABSOLUTE,
        .value = xh_sync_int64(value),
        .testType = test,
        .delta = xh_sync_int64(delta),
        .events = 1,
    };
    xcb_sync_create_alarm_aux(X.c, a,
                              XCB_SYNC_CA_COUNTER | XCB_SYNC_CA_VALUE_TYPE | XCB_SYNC_CA_VALUE |
                                  XCB_SYNC_CA_TEST_TYPE | XCB_SYNC_CA_DELTA | XCB_SYNC_CA_EVENTS,
                              &v);
    return a;
}

void alarm_change(xcb_sync_alarm_t a, int64_t value)
{
    xcb_sync_change_alarm_value_list_t v = {
        .valueType = XCB_SYNC_VALUETYPE_ABSOLUTE,
        .value = xh_sync_int64(value),
    };
    xcb_sync_change_alarm_aux(X.c, a, XCB_SYNC_CA_VALUE_TYPE | XCB_SYNC_CA_VALUE, &v);
}

void alarm_destroy(xcb_sync_alarm_t a)
{
    if (a != XCB_NONE)
        xcb_sync_destroy_alarm(X.c, a);
}

/* Follow a counter: an alarm for every increase and one for every decrease, both re-armed
 * around the value after each notification, so every change (by anyone) is seen.  Their delta is
 * 0 (a fired alarm goes Inactive until follow_rearm changes it): with a delta of +-1 the server
 * steps the alarm's value one delta at a time until its test is false again (Xext/sync.c,
 * SyncAlarmTriggerFired), which for a counter that jumps by 2^40 keeps Xvfb busy for hours. */
void follow_start(struct follow *f, xcb_sync_counter_t c, int64_t value)
{
    f->counter = c;
    f->value = value;
    f->up = alarm_create(c, value + 1, XCB_SYNC_TESTTYPE_POSITIVE_COMPARISON, 0);
    f->down = alarm_create(c, value - 1, XCB_SYNC_TESTTYPE_NEGATIVE_COMPARISON, 0);
    f->active = true;
}

void follow_rearm(struct follow *f)
{
    if (!f->active)
        return;
    alarm_change(f->up, f->value + 1);
    alarm_change(f->down, f->value - 1);
}

void follow_stop(struct follow *f)
{
    if (!f->active)
        return;
    alarm_destroy(f->up);
    alarm_destroy(f->down);
    f->up = f->down = XCB_NONE;
    f->active = false;
}
