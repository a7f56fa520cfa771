/* libFuzzer target: the case-file parser (harness/caseparse.c) on arbitrary text.  Seeded from
 * cases/ (make fuzz).  Every input must give a case or an error message, never a crash, a leak
 * or undefined behaviour; a case that parses must count its checks consistently. */
#include "caseparse.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Clause IDs: accept those with a slash, so both the known and the unknown path run. */
static bool known(const char *id) { return strchr(id, '/') != NULL; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    char err[1024];
    err[0] = 0;
    struct testcase *tc = case_parse_buffer("fuzz.case", text, size && data[0] & 1 ? known : NULL, err, sizeof err);
    if (tc) {
        if (case_count_checks(tc) != tc->checks)
            abort(); /* the parser promises: declared == counted, or an error */
        case_free(tc);
    } else if (!err[0] || !memchr(err, 0, sizeof err)) {
        abort(); /* an error must say what */
    }
    free(text);
    return 0;
}
