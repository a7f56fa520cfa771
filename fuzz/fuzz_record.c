/* libFuzzer target: the record-line parser (harness/timeline.c) on what a fake client (or a
 * broken one) could write: arbitrary bytes, split into lines as the session does. */
#include "timeline.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1);
    memcpy(buf, data, size);
    buf[size] = 0;
    struct timeline tl;
    timeline_init(&tl, 0);
    static FILE *sink;
    if (!sink)
        sink = fopen("/dev/null", "w");
    for (char *line = buf, *nl; line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        struct record *r = record_parse("A", line);
        if (!r)
            continue;
        if (!r->kind || !r->line)
            abort();
        for (int i = 0; i < r->nfields; i++)
            if (record_get(r, r->fields[i].key) == NULL)
                abort();
        record_get(r, "t");
        record_get(r, "msg");
        timeline_add(&tl, r);
    }
    timeline_print(&tl, sink, "  ", tl.n);
    timeline_free(&tl);
    free(buf);
    return 0;
}
