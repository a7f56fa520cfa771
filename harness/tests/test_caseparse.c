/* Unit tests for the case parser (harness/caseparse.c): a valid case with every step kind, and
 * every error path with its FILE:LINE and a message that names what was expected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse-helpers.h"

static const char *valid_case =
    "# a comment before the headers\n"                                           /* 1 */
    "case:        unit/every-step\n"                                             /* 2 */
    "clause:      c/one c/two\n"                                                 /* 3 */
    "profiles:    ewmh-1.5 de-facto\n"                                           /* 4 */
    "description: a case that uses every kind of step\n"                         /* 5 */
    "why:         the parser must keep every piece\n"                            /* 6 */
    "checks:      6\n"                                                           /* 7 */
    "\n"                                                                         /* 8 */
    "require compositing\n"                                                      /* 9 */
    "require supported _NET_WM_FRAME_DRAWN\n"                                    /* 10 */
    "client A\n"                                                                 /* 11 */
    "A create 200 150\n"                                                         /* 12 */
    "A counters 2 0 10 as ctr\n"                                                 /* 13 */
    "\tA   map    # trailing comment\n"                                          /* 14 */
    "wait A map-notify within 2000\n"                                            /* 15 */
    "check c/one\n"                                                              /* 16 */
    "wait A sync-request value=ctr.value l0=_NET_WM_SYNC_REQUEST within 1500ms as req\n" /* 17 */
    "wait wm frame-drawn within 100 as drawn\n"                                  /* 18 */
    "none A configure-notify width!=320 after=req for 300\n"                     /* 19 */
    "expect req.value + 240 % 2 == 0\n"                                          /* 20 */
    "check c/two\n"                                                              /* 21 */
    "expect req.value >= ctr.value + 100\n"                                      /* 22 */
    "expect req before drawn\n"                                                  /* 23 */
    "mark later\n"                                                               /* 24 */
    "when trigger-map A resize 320 240 hold via driven within 500\n"             /* 25 */
    "unless hold wait A configure-notify width>=320 after=later within 100\n";   /* 26 */

static void test_valid_case(void **state)
{
    (void)state;
    struct testcase *tc = parse(valid_case);
    if (!tc)
        fail_msg("parse failed: %s", err);
    assert_string_equal(tc->path, "t.case");
    assert_string_equal(tc->id, "unit/every-step");
    assert_int_equal(tc->nclauses, 2);
    assert_string_equal(tc->clauses[0], "c/one");
    assert_string_equal(tc->clauses[1], "c/two");
    assert_int_equal(tc->profiles, PROFILE_EWMH15 | PROFILE_DEFACTO);
    assert_string_equal(tc->description, "a case that uses every kind of step");
    assert_string_equal(tc->why, "the parser must keep every piece");
    assert_int_equal(tc->checks, 6);
    assert_int_equal(case_count_checks(tc), 6);
    assert_int_equal(tc->nsteps, 18);

    case_free(tc);
}

/* The set-up steps of the valid case: requires, client, commands, a set-up wait. */
static void test_valid_case_setup_steps(void **state)
{
    (void)state;
    struct testcase *tc = parse(valid_case);
    assert_non_null(tc);
    const struct step *s = tc->steps;
    assert_int_equal(s[0].kind, STEP_REQUIRE);
    assert_int_equal(s[0].line, 9);
    assert_int_equal(s[0].ntokens, 2);
    assert_string_equal(s[0].tokens[1], "compositing");

    assert_int_equal(s[1].kind, STEP_REQUIRE);
    assert_int_equal(s[1].ntokens, 3);
    assert_string_equal(s[1].tokens[1], "supported");
    assert_string_equal(s[1].tokens[2], "_NET_WM_FRAME_DRAWN");

    assert_int_equal(s[2].kind, STEP_CLIENT);
    assert_int_equal(s[2].line, 11);
    assert_string_equal(s[2].source, "A");
    assert_string_equal(s[2].text, "client A");

    assert_int_equal(s[3].kind, STEP_COMMAND);
    assert_string_equal(s[3].source, "A");
    assert_string_equal(s[3].command, "create 200 150");
    assert_null(s[3].as);

    assert_int_equal(s[4].kind, STEP_COMMAND);
    assert_int_equal(s[4].line, 13);
    assert_string_equal(s[4].command, "counters 2 0 10");
    assert_string_equal(s[4].as, "ctr");

    /* leading tab, runs of spaces and a trailing comment */
    assert_int_equal(s[5].kind, STEP_COMMAND);
    assert_int_equal(s[5].line, 14);
    assert_string_equal(s[5].command, "map");
    assert_string_equal(s[5].text, "A map");

    /* before the first `check`: set-up, not a check */
    assert_int_equal(s[6].kind, STEP_WAIT);
    assert_string_equal(s[6].source, "A");
    assert_string_equal(s[6].event, "map-notify");
    assert_int_equal(s[6].nfilters, 0);
    assert_int_equal(s[6].ms, 2000);
    assert_null(s[6].as);
    assert_true(s[6].setup);
    assert_null(s[6].clause);

    assert_int_equal(s[7].kind, STEP_CHECK);
    assert_string_equal(s[7].source, "c/one");

    case_free(tc);
}

/* The checks of the valid case: waits, none, expects, marks, when/unless. */
static void test_valid_case_check_steps(void **state)
{
    (void)state;
    struct testcase *tc = parse(valid_case);
    assert_non_null(tc);
    const struct step *s = tc->steps;
    assert_int_equal(s[8].kind, STEP_WAIT);
    assert_int_equal(s[8].line, 17);
    assert_false(s[8].setup);
    assert_string_equal(s[8].clause, "c/one");
    assert_string_equal(s[8].event, "sync-request");
    assert_int_equal(s[8].nfilters, 2);
    assert_string_equal(s[8].filters[0].key, "value");
    assert_string_equal(s[8].filters[0].value, "ctr.value");
    assert_int_equal(s[8].filters[0].op, FILTER_EQ);
    assert_string_equal(s[8].filters[1].key, "l0");
    assert_string_equal(s[8].filters[1].value, "_NET_WM_SYNC_REQUEST");
    assert_int_equal(s[8].ms, 1500);
    assert_string_equal(s[8].as, "req");

    assert_int_equal(s[9].kind, STEP_WAIT);
    assert_string_equal(s[9].source, "wm");
    assert_string_equal(s[9].as, "drawn");

    assert_int_equal(s[10].kind, STEP_NONE);
    assert_string_equal(s[10].event, "configure-notify");
    assert_int_equal(s[10].nfilters, 2);
    assert_string_equal(s[10].filters[0].key, "width");
    assert_int_equal(s[10].filters[0].op, FILTER_NE);
    assert_string_equal(s[10].filters[0].value, "320");
    assert_string_equal(s[10].filters[1].key, "after");
    assert_string_equal(s[10].filters[1].value, "req");
    assert_int_equal(s[10].ms, 300);
    assert_null(s[10].as);

    assert_int_equal(s[11].kind, STEP_EXPECT);
    assert_int_equal(s[11].line, 20);
    assert_int_equal(s[11].ntokens, 7);
    const char *want11[] = {"req.value", "+", "240", "%", "2", "==", "0"};
    for (int i = 0; i < 7; i++)
        assert_string_equal(s[11].tokens[i], want11[i]);
    assert_string_equal(s[11].clause, "c/one");

    assert_int_equal(s[12].kind, STEP_CHECK);
    assert_int_equal(s[13].kind, STEP_EXPECT);
    assert_int_equal(s[13].ntokens, 5);
    assert_string_equal(s[13].tokens[2], "ctr.value");
    assert_string_equal(s[13].clause, "c/two");

    assert_int_equal(s[14].kind, STEP_EXPECT);
    assert_int_equal(s[14].line, 23);
    assert_int_equal(s[14].ntokens, 3);
    assert_string_equal(s[14].tokens[0], "req");
    assert_string_equal(s[14].tokens[1], "before");
    assert_string_equal(s[14].tokens[2], "drawn");

    assert_int_equal(s[15].kind, STEP_MARK);
    assert_string_equal(s[15].as, "later");

    /* when/unless: a step for some compositors only; a wait under it is never a check */
    assert_int_equal(s[16].kind, STEP_COMMAND);
    assert_string_equal(s[16].when, "trigger-map");
    assert_false(s[16].unless);
    assert_string_equal(s[16].command, "resize 320 240 hold via driven within 500");
    assert_int_equal(s[17].kind, STEP_WAIT);
    assert_string_equal(s[17].when, "hold");
    assert_true(s[17].unless);
    assert_true(s[17].setup);
    assert_int_equal(s[17].filters[0].op, FILTER_GE);
    case_free(tc);
}

/* A probe (*.probe): `feature:` and `absent:` instead of `case:`, `clause:` and `profiles:`;
 * `check` alone. */
static void test_valid_probe(void **state)
{
    (void)state;
    const char *text = "feature: hold-update\ndescription: holds\nabsent: it does not hold\n"
                       "detail: value {req.value - 1}\nchecks: 1\nrequire compositing\nclient A\n"
                       "check\nnone A x for 1\n";
    struct testcase *tc = case_parse_buffer("t.probe", text, NULL, err, sizeof err);
    if (!tc)
        fail_msg("parse failed: %s", err);
    assert_string_equal(tc->feature, "hold-update");
    assert_string_equal(tc->id, "probe/hold-update");
    assert_string_equal(tc->absent, "it does not hold");
    assert_string_equal(tc->detail, "value {req.value - 1}");
    assert_int_equal(tc->profiles, ALL_PROFILES);
    assert_int_equal(tc->attempts, 0);
    case_free(tc);
    tc = case_parse_buffer("t.probe", "feature: f\ndescription: d\nabsent: a\nattempts: 2\nchecks: 1\nclient A\n"
                                      "check\nnone A x for 1\n", NULL, err, sizeof err);
    if (!tc)
        fail_msg("parse failed: %s", err);
    assert_int_equal(tc->attempts, 2);
    case_free(tc);
    expect_error_known_path("t.probe", "feature: x\nattempts: 9\n", 2, "`attempts:` takes a number from 1 to 5");
    expect_error("case: a\nattempts: 2\n", 2, "`attempts:` is for probes");
    expect_error_known_path("t.probe", "feature: x\ncase: y\n", 2, "`case:` is for cases");
    expect_error_known_path("t.probe", "feature: x\ndescription: d\nchecks: 1\nclient A\ncheck\nnone A x for 1\n",
                            6, "missing header `absent:`");
    expect_error_known_path("t.probe", "feature: x\ndescription: d\nabsent: a\nchecks: 1\nclient A\ncheck c/one\n",
                            6, "expected `check` alone");
    expect_error("case: a\nfeature: x\n", 2, "`feature:` is for probes");
    expect_error("case: a\nabsent: b\n", 2, "`absent:` is for probes");
}

static void test_valid_crlf_and_no_final_newline(void **state)
{
    (void)state;
    struct testcase *tc = parse("case: unit/crlf\r\nclause: c/one\r\nprofiles: draft-2011\r\n"
                                "description: d\r\nchecks: 1\r\n\r\nclient A\r\ncheck c/one\r\n"
                                "wait A map-notify within 10");
    if (!tc)
        fail_msg("parse failed: %s", err);
    assert_string_equal(tc->id, "unit/crlf");
    assert_int_equal(tc->profiles, PROFILE_DRAFT2011);
    assert_int_equal(tc->nsteps, 3);
    assert_int_equal(tc->steps[2].line, 9);
    assert_int_equal(tc->steps[2].ms, 10);
    case_free(tc);
}

static void test_basic_cases_parse(void **state)
{
    (void)state;
    /* the shipped examples are valid; run from the repository root (make unit) */
    const char *files[] = {"cases/basic/request-layout.case", "cases/basic/value-increases.case",
                           "cases/basic/request-before-configure.case"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        if (access(files[i], R_OK) != 0)
            continue;
        struct testcase *tc = case_parse_file(files[i], NULL, err, sizeof err);
        if (!tc)
            fail_msg("%s", err);
        assert_int_equal(case_count_checks(tc), tc->checks);
        case_free(tc);
    }
}

static void test_profiles(void **state)
{
    (void)state;
    assert_int_equal(profile_parse("ewmh-1.5"), PROFILE_EWMH15);
    assert_int_equal(profile_parse("draft-2011"), PROFILE_DRAFT2011);
    assert_int_equal(profile_parse("de-facto"), PROFILE_DEFACTO);
    assert_int_equal(profile_parse("ewmh-1.6"), 0);
    assert_string_equal(profile_name(PROFILE_EWMH15), "ewmh-1.5");
    assert_string_equal(profile_name(PROFILE_DRAFT2011), "draft-2011");
    assert_string_equal(profile_name(PROFILE_DEFACTO), "de-facto");
}

static void test_err_unknown_header(void **state)
{
    (void)state;
    expect_error("case: unit/x\nbogus: 1\n", 2,
                 "unknown header `bogus:` (expected case, clause, profiles, description, why, checks, start)");
    expect_error_known_path("t.probe", "feature: x\nbogus: 1\n", 2,
                            "unknown header `bogus:` (expected feature, description, absent, detail, why, checks, start)");
}

static void test_err_missing_header(void **state)
{
    (void)state;
    static const char *lines[] = {"case: unit/x\n", "clause: c/one\n", "profiles: ewmh-1.5\n",
                                  "description: d\n", "checks: 1\n"};
    static const char *names[] = {"case", "clause", "profiles", "description", "checks"};
    for (int skip = 0; skip < 5; skip++) {
        char text[512] = "";
        for (int i = 0; i < 5; i++)
            if (i != skip)
                strcat(text, lines[i]);
        strcat(text, "client A\nwait A map-notify within 100\n");
        char want[64];
        snprintf(want, sizeof want, "missing header `%s:`", names[skip]);
        /* 6 lines: the error points at the last line, not past the end of the file */
        expect_error(text, 6, want);
    }
}

static void test_err_no_steps(void **state)
{
    (void)state;
    expect_error(HDR1, 5, "a case needs steps");
    expect_error(HDR1 "\n# only a comment\n", 7, "a case needs steps");
}

static void test_err_empty_file(void **state)
{
    (void)state;
    expect_error("", 1, "missing header `case:`");
}

static void test_err_header_after_steps(void **state)
{
    (void)state;
    expect_error(HDR1 "client A\nwhy: too late\nwait A map-notify within 10\n", 7,
                 "header line `why: too late` after the first step: headers come first");
}

static void test_err_header_value_and_twice(void **state)
{
    (void)state;
    expect_error("case:\n", 1, "`case:` needs a value");
    expect_error("case: a\ncase: b\n", 2, "`case:` given twice");
    expect_error("case: a b\n", 1, "a case id has letters, digits and - _ . /, found `a b`");
    expect_error("case: a\nclause: c1 c2 c3 c4 c5\n", 2, "expected 1 to 4 clause IDs");
    expect_error("case: a\nchecks: 0\n", 2, "expected a number of checks (1-1000), found `0`");
    expect_error("case: a\nchecks: 3x\n", 2, "expected a number of checks (1-1000), found `3x`");
}

/* A second `clause:` line used to append past clauses[MAX_CLAUSES] (over nclauses and profiles);
 * other repeated headers silently replaced (and leaked) the first value. */
static void test_err_repeated_headers(void **state)
{
    (void)state;
    expect_error("case: a\nclause: c1 c2 c3 c4\nclause: c5\n", 3, "`clause:` given twice");
    expect_error("case: a\nprofiles: ewmh-1.5\nprofiles: de-facto\n", 3, "`profiles:` given twice");
    expect_error("case: a\ndescription: one\ndescription: two\n", 3, "`description:` given twice");
    expect_error("case: a\nwhy: one\nwhy: two\n", 3, "`why:` given twice");
    expect_error("case: a\nchecks: 1\nchecks: 2\n", 3, "`checks:` given twice");
}

static void test_err_checks_mismatch(void **state)
{
    (void)state;
    /* the error is at the line of the checks: header, not where the file ends */
    expect_error("case: unit/x\nclause: c/one\nprofiles: ewmh-1.5\nchecks: 3\ndescription: d\n\n"
                 "client A\nwait A map-notify within 100\ncheck c/one\nwait A map-notify within 100\n"
                 "expect 1 == 1\nrequire compositing\n",
                 4, "`checks: 3` but the case has 2 check steps (wait, none, expect after `check`)");
}

static void test_err_unknown_profile(void **state)
{
    (void)state;
    expect_error("case: unit/x\nclause: c/one\nprofiles: ewmh-1.5 ewmh-1.6\n", 3,
                 "unknown profile `ewmh-1.6` (expected ewmh-1.5, draft-2011 or de-facto)");
}

static bool only_c_one(const char *id)
{
    return !strcmp(id, "c/one");
}

static void test_err_unknown_clause(void **state)
{
    (void)state;
    expect_error_known("case: unit/x\nclause: c/one c/two\n", only_c_one, 2,
                       "unknown clause `c/two` (clause IDs are listed in cases/clauses.txt)");
    /* the same case parses when the callback knows the clause, and with no callback at all */
    const char *text = HDR1 "client A\ncheck c/one\nwait A map-notify within 100\n";
    struct testcase *tc = case_parse_buffer("t.case", text, only_c_one, err, sizeof err);
    if (!tc)
        fail_msg("%s", err);
    case_free(tc);
    tc = case_parse_buffer("t.case", "case: unit/x\nclause: any/thing\nprofiles: de-facto\n"
                                      "description: d\nchecks: 1\nclient A\ncheck any/thing\nwait A x within 1\n",
                           NULL, err, sizeof err);
    if (!tc)
        fail_msg("%s", err);
    case_free(tc);
}

static void test_err_control_characters(void **state)
{
    (void)state;
    expect_error("case: unit/x\nclause: c/one\nprofiles: ewmh-1.5\ndescription: a\x01z\n", 4,
                 "control character 0x01 in the line");
    expect_error(HDR1 "client A\nA fill \x1b[31m\n", 7, "control character 0x1b in the line");
    /* in a comment line too: the file is not text */
    expect_error(HDR1 "# bell \a\n", 6, "control character 0x07");
}

static void test_err_line_numbers_count_blank_and_comment_lines(void **state)
{
    (void)state;
    expect_error("\n# c\ncase: unit/x\n\n\n# c\nclause: c/one\nprofiles: ewmh-1.5\n"
                 "description: d\nchecks: 1\n\n\n\nclient A\n# c\n\nwait Z x within 1\n",
                 17, "`Z` is not a client");
}

static void test_parse_file(void **state)
{
    (void)state;
    char path[] = "/tmp/framesync-test-caseXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *text = HDR1 "client A\ncheck c/one\nwait A map-notify within 100\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    struct testcase *tc = case_parse_file(path, NULL, err, sizeof err);
    if (!tc)
        fail_msg("%s", err);
    assert_string_equal(tc->path, path);
    assert_int_equal(tc->nsteps, 3);
    case_free(tc);

    /* a NUL byte: not text */
    fd = open(path, O_WRONLY | O_TRUNC);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "case: a\0b\n", 10), 10);
    close(fd);
    assert_null(case_parse_file(path, NULL, err, sizeof err));
    char want[128];
    snprintf(want, sizeof want, "%s:1: a case file is text; found a NUL byte", path);
    assert_string_equal(err, want);
    unlink(path);

    assert_null(case_parse_file(path, NULL, err, sizeof err));
    snprintf(want, sizeof want, "%s: cannot read: ", path);
    assert_true(!strncmp(err, want, strlen(want)));
}

static void test_error_message_truncates(void **state)
{
    (void)state;
    char small[16];
    memset(small, 'x', sizeof small);
    assert_null(case_parse_buffer("a-long-path.case", "bogus: 1\n", NULL, small, sizeof small));
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_true(!strncmp(small, "a-long-path.cas", 15));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_case),
        cmocka_unit_test(test_valid_case_setup_steps),
        cmocka_unit_test(test_valid_case_check_steps),
        cmocka_unit_test(test_valid_probe),
        cmocka_unit_test(test_valid_crlf_and_no_final_newline),
        cmocka_unit_test(test_basic_cases_parse),
        cmocka_unit_test(test_profiles),
        cmocka_unit_test(test_err_unknown_header),
        cmocka_unit_test(test_err_missing_header),
        cmocka_unit_test(test_err_no_steps),
        cmocka_unit_test(test_err_empty_file),
        cmocka_unit_test(test_err_header_after_steps),
        cmocka_unit_test(test_err_header_value_and_twice),
        cmocka_unit_test(test_err_repeated_headers),
        cmocka_unit_test(test_err_checks_mismatch),
        cmocka_unit_test(test_err_unknown_profile),
        cmocka_unit_test(test_err_unknown_clause),
        cmocka_unit_test(test_err_control_characters),
        cmocka_unit_test(test_err_line_numbers_count_blank_and_comment_lines),
        cmocka_unit_test(test_parse_file),
        cmocka_unit_test(test_error_message_truncates),
    };
    return cmocka_run_group_tests_name("caseparse", tests, NULL, NULL);
}
