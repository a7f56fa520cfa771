/* The request oracle (source "wm"): what every client, the compositor above all, asked of the X
 * server, seen through the RECORD extension on two connections of its own (control + data).
 *
 * Captured requests (not delivered events: see shared/notes/observing-x11.md): core SendEvent
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
 * The pure parts (splitting RECORD data, formatting a request) are exposed for the unit tests. */
#ifndef FRAMESYNC_ORACLE_RECORD_H
#define FRAMESYNC_ORACLE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "oracle.h"
#include "xserver.h"

/* Makes the oracle, or NULL with a reason in err (RECORD or SYNC missing, connection failed). */
struct oracle *oracle_record_create(struct xserver *x, char *err, size_t errlen);
void oracle_record_destroy(struct oracle *o);

/* ---- pure parts ---- */

/* RECORD reply categories (the protocol's numbers; xcb does not name them). */
enum { REC_FROM_SERVER = 0, REC_FROM_CLIENT = 1, REC_CLIENT_STARTED = 2, REC_CLIENT_DIED = 3,
       REC_START_OF_DATA = 4, REC_END_OF_DATA = 5 };

/* One intercepted request: its bytes in the sending client's byte order. */
typedef void (*rec_request_fn)(void *ctx, uint32_t server_time, const uint8_t *req, size_t len);

/* Splits the data of one FromClient reply into requests.  element_header is the context's
 * (XCB_RECORD_H_TYPE_* bits: with FROM_CLIENT_TIME each request is preceded by a CARD32 server
 * time, with FROM_CLIENT_SEQUENCE by a CARD32 sequence number, both in the recording client's
 * byte order, here native); client_swapped says the requests are in the other byte order.
 * Returns the number of requests, or -1 when the data is malformed (a length running past the
 * end, a zero length without BIG-REQUESTS' extended length); the requests before are delivered. */
int rec_split_requests(const uint8_t *data, size_t len, uint8_t element_header, bool client_swapped,
                       uint32_t reply_time, rec_request_fn fn, void *ctx);

/* Looks up an atom's name; returns NULL (or "") when it has none. */
typedef const char *(*rec_atom_name_fn)(void *ctx, uint32_t atom);

/* Formats one request as "kind key=value ..." (no t, no `by`), or returns -1 when the oracle
 * does not report it (another request, a truncated one).  sync_major is SYNC's major opcode
 * (0: unknown). */
int rec_format_request(const uint8_t *req, size_t len, bool swapped, uint8_t sync_major,
                       rec_atom_name_fn atom_name, void *actx, char *out, size_t outlen);

#endif
