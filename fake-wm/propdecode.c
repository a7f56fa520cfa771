#include "propdecode.h"

#include <string.h>

#define ATOM_CARDINAL 6u /* XCB_ATOM_CARDINAL, without pulling in xcb */

enum prop_verdict prop_decode_xids(uint32_t type, uint8_t format, const void *value, size_t len_bytes,
                                   uint32_t *out, int max, int *items)
{
    *items = 0;
    if (type == 0)
        return PROP_ABSENT;
    if (type != ATOM_CARDINAL || format != 32)
        return PROP_WRONG_TYPE;
    size_t n = len_bytes / 4;
    if (n == 0 || !value)
        return PROP_EMPTY;
    *items = n > (size_t)INT32_MAX ? INT32_MAX : (int)n;
    int take = *items < max ? *items : max;
    for (int i = 0; i < take; i++)
        memcpy(&out[i], (const uint8_t *)value + 4 * (size_t)i, 4);
    return PROP_OK;
}
