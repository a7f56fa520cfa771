/* XSync counters and alarms on the window manager connection (counters.c), and a counter
 * followed with two alarms, so that every change of it (by anyone) is seen. */
#ifndef FAKEWM_COUNTERS_H
#define FAKEWM_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/sync.h>

bool counter_query(xcb_sync_counter_t c, int64_t *value);   /* false: not a counter */
void counter_set(xcb_sync_counter_t c, int64_t value);
xcb_sync_alarm_t alarm_create(xcb_sync_counter_t c, int64_t value, uint32_t test, int64_t delta);
void alarm_change(xcb_sync_alarm_t a, int64_t value);
void alarm_destroy(xcb_sync_alarm_t a);

/* a counter followed with two alarms (PositiveComparison at v+1, NegativeComparison at v-1) */
struct follow {
    xcb_sync_counter_t counter;
    xcb_sync_alarm_t up, down;
    int64_t value;
    bool active;
};
void follow_start(struct follow *f, xcb_sync_counter_t c, int64_t value);
void follow_stop(struct follow *f);
void follow_rearm(struct follow *f);

#endif
