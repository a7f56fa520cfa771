/* What the case parser's unit tests share (test_caseparse.c, test_casesteps.c, test_casevary.c):
 * parsing a text as t.case, and an error expected at a FILE:LINE with a message that names what
 * was expected. */
#ifndef FRAMESYNC_TEST_PARSE_HELPERS_H
#define FRAMESYNC_TEST_PARSE_HELPERS_H

#include <stdio.h>
#include <string.h>

#include "../caseparse.h"

/* Lines 1-5: the five required headers, one check. */
#define HDR1 "case: unit/x\n"               \
             "clause: c/one\n"              \
             "profiles: ewmh-1.5\n"         \
             "description: d\n"             \
             "checks: 1\n"

static char err[1024];

static inline struct testcase *parse(const char *text)
{
    err[0] = 0;
    return case_parse_buffer("t.case", text, NULL, err, sizeof err);
}

/* The parse fails with "t.case:LINE: ..." and the message contains `want`. */
static inline void expect_error_known(const char *text, clause_known_fn known, int line, const char *want)
{
    err[0] = 0;
    struct testcase *tc = case_parse_buffer("t.case", text, known, err, sizeof err);
    if (tc) {
        case_free(tc);
        fail_msg("parsed, wanted an error at line %d containing \"%s\"", line, want);
    }
    char prefix[64];
    snprintf(prefix, sizeof prefix, "t.case:%d: ", line);
    if (strncmp(err, prefix, strlen(prefix)) != 0)
        fail_msg("error \"%s\" does not start with \"%s\"", err, prefix);
    if (!strstr(err, want))
        fail_msg("error \"%s\" does not contain \"%s\"", err, want);
}

static inline void expect_error(const char *text, int line, const char *want)
{
    expect_error_known(text, NULL, line, want);
}

/* The same for another file name (a .probe parses a probe). */
static inline void expect_error_known_path(const char *path, const char *text, int line, const char *want)
{
    err[0] = 0;
    struct testcase *tc = case_parse_buffer(path, text, NULL, err, sizeof err);
    if (tc) {
        case_free(tc);
        fail_msg("parsed, wanted an error at line %d containing \"%s\"", line, want);
    }
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
    if (strncmp(err, prefix, strlen(prefix)) != 0)
        fail_msg("error \"%s\" does not start with \"%s\"", err, prefix);
    if (!strstr(err, want))
        fail_msg("error \"%s\" does not contain \"%s\"", err, want);
}

#endif
