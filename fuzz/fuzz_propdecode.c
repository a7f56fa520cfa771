/* libFuzzer target: fake-wm's decoding of the XID lists clients put in _NET_WM_SYNC_REQUEST_COUNTER
 * and _NET_WM_SYNC_FENCES (fake-wm/propdecode.c), as GetProperty returns them.
 * Input: byte 0 = the property type (0 None, 1 CARDINAL, other: that atom), byte 1 = the format,
 * byte 2 = how many XIDs the caller takes (0-63), the rest = the value. */
#include "../fake-wm/propdecode.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    uint32_t type = data[0] == 1 ? 6u : data[0];
    uint8_t format = data[1];
    int max = data[2] % 64;
    size_t len = size - 3;
    /* exact-size copies, so that ASan sees any read or write past them */
    uint8_t *value = malloc(len ? len : 1);
    memcpy(value, data + 3, len);
    uint32_t *out = malloc(max ? (size_t)max * 4 : 1);
    int items = -1;
    enum prop_verdict v = prop_decode_xids(type, format, len ? value : NULL, len, out, max, &items);
    if (v == PROP_OK) {
        if (items != (int)(len / 4) || items == 0 || type != 6u || format != 32)
            abort();
        for (int i = 0; i < items && i < max; i++)
            if (memcmp(&out[i], value + 4 * i, 4))
                abort();
    } else if (items != 0) {
        abort();
    }
    free(out);
    free(value);
    return 0;
}
