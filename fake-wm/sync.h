/* The _NET_WM_SYNC_REQUEST protocol on the WM side (sync*.c), in three parts:
 *   syncmanage.c  - at manage: which form a window uses, setting the basic counter, reading and
 *                   following the extended one (and basic-only's second counter);
 *   syncrequest.c - a size change: the request value, the request before the configure, the wait
 *                   with an alarm and a timeout, the queue of resizes meanwhile;
 *   syncanswer.c  - the alarms: the counter reaching the value (or not, or going away), spontaneous
 *                   changes of a followed counter, the timeouts.
 * A counter change of a window's update counter is handed to the compositor (comp.h). */
#ifndef FAKEWM_SYNC_H
#define FAKEWM_SYNC_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/sync.h>

#include "win.h"

/* syncmanage.c */
void sync_manage(struct win *w);                 /* read properties, choose form, set counter */
void sync_unmanage(struct win *w);               /* free alarms; a queued configure is applied */

/* syncrequest.c */
void sync_configure_request(struct win *w, const struct configure_req *r, enum resize_origin o);
/* a sync request, then the configure, also when the size does not change (control.c's move) */
void sync_forced_configure(struct win *w, const struct configure_req *r);
/* a resize whose configure comes gap_ms after its sync request (control.c), or as usual when it
 * cannot be held (no counter, a request unanswered, no size change) */
void sync_configure_after_gap(struct win *w, const struct configure_req *r, int gap_ms);
/* the geometry w is going to have: what is queued behind an unanswered request counts */
void sync_target_geometry(const struct win *w, int16_t *x, int16_t *y, uint16_t *wd, uint16_t *ht);
void sync_interactive_started(struct win *w);     /* a keyboard or pointer resize of w begins */
bool sync_request_at_map(struct win *w);         /* sync-at-map: true when the map waits */
void sync_request_before_show(struct win *w);    /* policy show-after-first-answer: not shown until answered */

/* syncanswer.c */
bool sync_handle_alarm(const xcb_sync_alarm_notify_event_t *ev);
void sync_check_timers(int64_t now);
/* The control channel's settle: a wait for an unanswered request (and a configure held back for it)
 * ends now, as at its timeout (the harness's reset of a kept application between two cases). */
void sync_settle(struct win *w);
int64_t sync_next_deadline(void);

#endif
