/* Decoding of the XID-list properties a client sets for the compositor (_NET_WM_SYNC_REQUEST_COUNTER,
 * _NET_WM_SYNC_FENCES): pure, no X connection, so that it can be fuzzed (fuzz/fuzz_propdecode.c). */
#ifndef FAKEWM_PROPDECODE_H
#define FAKEWM_PROPDECODE_H

#include <stddef.h>
#include <stdint.h>

enum prop_verdict {
    PROP_ABSENT,     /* no such property (type None) */
    PROP_WRONG_TYPE, /* not CARDINAL of format 32 */
    PROP_EMPTY,      /* CARDINAL/32 with no items */
    PROP_OK,
};

/* type/format/value/len_bytes as GetProperty returned them (len_bytes: xcb_get_property_value_length).
 * On PROP_OK, *items is the number of items the property has and the first min(*items, max) are
 * copied to out.  value may be unaligned. */
enum prop_verdict prop_decode_xids(uint32_t type, uint8_t format, const void *value, size_t len_bytes,
                                   uint32_t *out, int max, int *items);

#endif
