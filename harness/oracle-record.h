/* The request oracle (source "wm"): what every client, the compositor above all, asked of the X
 * server, seen through the RECORD extension on two connections of its own (control + data).
 *
 * Captured requests (not delivered events: see docs/observing-x11.md): core SendEvent
 * (with the event decoded; ClientMessage: window, type name, format, l0..l4), core
 * ConfigureWindow, and SYNC SetCounter, ChangeCounter, Await, CreateAlarm, ChangeAlarm,
 * CreateFence, TriggerFence, ResetFence, AwaitFence.  Each becomes one record, e.g.
 *
 *   set-counter counter=XID value=V by=wm base=B server_time=MS
 *   send-event destination=XID mask=0 event=ClientMessage window=XID type=A typename=WM_PROTOCOLS
 *              format=32 l0=.. l1=.. l2=.. l3=.. l4=.. l0name=_NET_WM_SYNC_DRAWN about=sync-drawn value=V by=wm ...
 *   (about: sync-request when the type or l0 is _NET_WM_SYNC_REQUEST, whatever the layout, else
 *   sync-drawn, frame-drawn, frame-timings or other)
 *   configure-window window=XID width=W height=H by=wm ...
 *
 * `by` says whose request it was, by the client-id base of the connection that sent it
 * (XID & ~resource_id_mask): `wm` when it is the base of the WM_S0 owner window or of the
 * _NET_WM_CM_S0 owner window (both re-read at each case start), `client` when it is the base of a
 * window a fake client of the case created (then also `from=NAME`), `other` otherwise.
 * `server_time` is the X server's time (ms) when it processed the request; the record's t is
 * when the harness read it (the server flushes recorded data at the end of each dispatch cycle,
 * so that is normally well under a millisecond later).
 *
 * The pure parts (splitting RECORD data, formatting a request) are record-decode.c. */
#ifndef FRAMESYNC_ORACLE_RECORD_H
#define FRAMESYNC_ORACLE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "oracle.h"
#include "record-decode.h"
#include "xserver.h"

/* Makes the oracle, or NULL with a reason in err (RECORD or SYNC missing, connection failed). */
struct oracle *oracle_record_create(struct xserver *x, char *err, size_t errlen);
void oracle_record_destroy(struct oracle *o);

#endif
