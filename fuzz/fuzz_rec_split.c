/* libFuzzer target: the request oracle's decoding of RECORD data (harness/oracle-record.c), the
 * bytes of requests the compositor under test sent: split into requests, then each formatted.
 * Input: byte 0 = the element header bits (FROM_CLIENT_TIME 2, FROM_CLIENT_SEQUENCE 4, ...),
 * byte 1 bit 0 = the client's byte order is swapped, byte 2 = SYNC's major opcode, rest = data. */
#include "oracle-record.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct ctx {
    bool swapped;
    uint8_t sync_major;
};

static const char *atom_name(void *ctx, uint32_t atom)
{
    (void)ctx;
    static const char *names[] = {"", "PRIMARY", "WM_PROTOCOLS", "_NET_WM_SYNC_REQUEST", "A_NAME_WITH SPACES"};
    return atom < 5 ? names[atom] : NULL;
}

static void each(void *p, uint32_t server_time, const uint8_t *req, size_t len)
{
    (void)server_time;
    struct ctx *c = p;
    /* the oracle hands the formatter a copy of exactly len bytes: make overreads visible */
    uint8_t *copy = malloc(len ? len : 1);
    memcpy(copy, req, len);
    char out[900];
    if (rec_format_request(copy, len, c->swapped, c->sync_major, atom_name, NULL, out, sizeof out) == 0 &&
        !memchr(out, 0, sizeof out))
        abort();
    free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    struct ctx c = {.swapped = data[1] & 1, .sync_major = data[2]};
    /* the data as a heap block of its own size, so ASan sees a read past its end */
    size_t n = size - 3;
    uint8_t *d = malloc(n ? n : 1);
    memcpy(d, data + 3, n);
    rec_split_requests(d, n, data[0], c.swapped, 12345, each, &c);
    free(d);
    return 0;
}
