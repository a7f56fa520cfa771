/* A case file: read whole (text, no NUL byte), then parsed as one case, or as one case per
 * profile when it has `vary:` lines (casevary.c).  The top of the case parser: it calls
 * caseparse.c and casevary.c, nothing calls it back. */
#include "caseparse-internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct testcase *case_parse_buffer(const char *path, const char *text, clause_known_fn known,
                                   char *err, size_t errlen)
{
    bool varies;
    struct testcase *tc = case_parse_variants(path, text, known, err, errlen, &varies);
    return varies ? tc : case_parse_one(path, text, known, err, errlen);
}

struct testcase *case_parse_file(const char *path, clause_known_fn known, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return NULL;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, n, m);
    fclose(f);
    fclose(m);
    if (memchr(text, 0, len)) {
        snprintf(err, errlen, "%s:1: a case file is text; found a NUL byte", path);
        free(text);
        return NULL;
    }
    struct testcase *tc = case_parse_buffer(path, text, known, err, errlen);
    free(text);
    return tc;
}
