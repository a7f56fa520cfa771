/* RECORD data decoded (record-decode.c): the pure part of the request oracle, exposed for the
 * unit tests and the fuzzers. */
#ifndef FRAMESYNC_RECORD_DECODE_H
#define FRAMESYNC_RECORD_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
