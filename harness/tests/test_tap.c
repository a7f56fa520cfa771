/* Unit tests for the TAP writer (harness/tap.c): exact lines for each verdict, the YAML
 * diagnostic under failures, the plan, Bail out!, and YAML escaping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tap.h"

/* ---- a memory stream ---- */

static char *buf;
static size_t buflen;
static FILE *mem;
static struct tap T;
static size_t taken;

static int setup(void **state)
{
    (void)state;
    buf = NULL;
    buflen = 0;
    taken = 0;
    mem = open_memstream(&buf, &buflen);
    tap_open(&T, mem, NULL);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    fclose(mem);
    free(buf);
    return 0;
}

/* What was written since the last call. */
static const char *output(void)
{
    static char *copy;
    fflush(mem);
    free(copy);
    if (taken > buflen)
        taken = 0;
    copy = strdup(buf ? buf + taken : "");
    taken = buflen;
    return copy;
}

static void reset_output(void)
{
    fflush(mem);
    taken = buflen;
}

/* ---- a case, a catalog, a result ---- */

static struct step STEP = {.kind = STEP_EXPECT, .line = 12, .text = "expect req.value != 0"};

static struct testcase TC = {
    .path = "cases/basic/value-nonzero.case",
    .id = "basic/value-nonzero",
    .clauses = {"ewmh-1.5/basic/value-nonzero"},
    .nclauses = 1,
    .profiles = ALL_PROFILES,
    .description = "the value of the first request is not \"0\"",
    .checks = 3,
};

static struct clause CLAUSE = {
    .id = "ewmh-1.5/basic/value-nonzero",
    .wording = "The value MUST NOT be 0",
    .keyword = "MUST NOT",
};
static struct catalog CAT = {.clauses = &CLAUSE, .n = 1};
static struct catalog EMPTY_CAT = {.clauses = NULL, .n = 0};

static struct result result(enum verdict v, const char *reason)
{
    struct result r;
    memset(&r, 0, sizeof r);
    r.verdict = v;
    snprintf(r.reason, sizeof r.reason, "%s", reason);
    return r;
}

static void assert_text(const char *got, const char *want)
{
    if (strcmp(got, want) != 0)
        fail_msg("got:\n%s\nwanted:\n%s", got, want);
}

/* ---- tests ---- */

static void test_plan(void **state)
{
    (void)state;
    tap_plan(&T, 5);
    assert_text(output(), "TAP version 13\n1..5\n");
    tap_plan(&T, 0);
    assert_text(output(), "TAP version 13\n1..0\n");
}

static void test_pass(void **state)
{
    (void)state;
    struct result r = result(VERDICT_PASS, "");
    tap_result(&T, &TC, PROFILE_EWMH15, &r, &CAT, NULL, "fake-wm");
    tap_result(&T, &TC, PROFILE_DEFACTO, &r, &CAT, NULL, "fake-wm");
    assert_text(output(), "ok 1 - basic/value-nonzero [ewmh-1.5]\n"
                          "ok 2 - basic/value-nonzero [de-facto]\n");
    assert_int_equal(T.n, 2);
    assert_int_equal(T.counts[VERDICT_PASS], 2);
}

static void test_skip(void **state)
{
    (void)state;
    struct result r = result(VERDICT_SKIP, "the compositor does not list _NET_WM_FRAME_DRAWN in _NET_SUPPORTED");
    tap_result(&T, &TC, PROFILE_DRAFT2011, &r, &CAT, NULL, "fake-wm");
    assert_text(output(), "ok 1 - basic/value-nonzero [draft-2011] # SKIP the compositor does not "
                          "list _NET_WM_FRAME_DRAWN in _NET_SUPPORTED\n");
    /* a reason stays on the one line and adds no directive */
    r = result(VERDICT_SKIP, "two\nlines # TODO not a directive");
    tap_result(&T, &TC, PROFILE_DRAFT2011, &r, &CAT, NULL, "fake-wm");
    assert_text(output(), "ok 2 - basic/value-nonzero [draft-2011] # SKIP two; lines   TODO not a directive\n");
    assert_int_equal(T.counts[VERDICT_SKIP], 2);
}

static void test_fail_full(void **state)
{
    (void)state;
    struct session s;
    session_init(&s, "scripted-client/scripted-client", "logs/x");
    s.tl.start_us = 1000000;
    timeline_add(&s.tl, record_parse("harness", "step t=1000000 n=1"));
    timeline_add(&s.tl, record_parse("A", "sync-request t=1012345 value=0 l0=301"));
    timeline_add(&s.tl, record_parse("harness", "step t=1020000 n=2 msg=expect req.value != 0"));

    struct result r = result(VERDICT_FAIL, "the WM sent a sync request with value 0");
    r.step = &STEP;
    snprintf(r.expected, sizeof r.expected, "req.value != 0");
    snprintf(r.observed, sizeof r.observed, "req.value = 0; wanted req.value != 0");
    r.mark_seq = 2;
    r.checks_run = 3;
    r.start_us = 1000000;
    r.end_us = 1021500;
    snprintf(r.log_path, sizeof r.log_path, "logs/ewmh-1.5/basic-value-nonzero.log");

    tap_result(&T, &TC, PROFILE_EWMH15, &r, &CAT, &s, "fake-wm --fault value-zero");
    assert_text(output(),
                "not ok 1 - basic/value-nonzero [ewmh-1.5]\n"
                "  ---\n"
                "  verdict: FAIL\n"
                "  clause: ewmh-1.5/basic/value-nonzero\n"
                "  level: MUST\n"
                "  wording: \"The value MUST NOT be 0\"\n"
                "  description: \"the value of the first request is not \\\"0\\\"\"\n"
                "  file: \"cases/basic/value-nonzero.case:12\"\n"
                "  step: \"expect req.value != 0\"\n"
                "  reason: \"the WM sent a sync request with value 0\"\n"
                "  expected: \"req.value != 0\"\n"
                "  observed: \"req.value = 0; wanted req.value != 0\"\n"
                "  compositor: \"fake-wm --fault value-zero\"\n"
                "  checks: \"3 of 3 ran\"\n"
                "  duration_ms: 21.5\n"
                "  log: \"logs/ewmh-1.5/basic-value-nonzero.log\"\n"
                "  timeline: |\n"
                "       +0.000 ms  harness  step n=1\n"
                "      +12.345 ms  A        sync-request value=0 l0=301   <-- here\n"
                "      +20.000 ms  harness  step n=2 msg=expect req.value != 0\n"
                "  ...\n");
    assert_int_equal(T.counts[VERDICT_FAIL], 1);
    session_free(&s);
}

static void test_fail_minimal(void **state)
{
    (void)state;
    /* no session, no step, no expected/observed/log, a clause the catalog does not have */
    struct result r = result(VERDICT_FAIL, "line one\nline two");
    r.checks_run = 1;
    tap_result(&T, &TC, PROFILE_DEFACTO, &r, &EMPTY_CAT, NULL, "mutter --replace");
    assert_text(output(),
                "not ok 1 - basic/value-nonzero [de-facto]\n"
                "  ---\n"
                "  verdict: FAIL\n"
                "  clause: ewmh-1.5/basic/value-nonzero\n"
                "  level: implied\n"
                "  description: \"the value of the first request is not \\\"0\\\"\"\n"
                "  file: \"cases/basic/value-nonzero.case:1\"\n"
                "  reason: \"line one\\nline two\"\n"
                "  compositor: \"mutter --replace\"\n"
                "  checks: \"1 of 3 ran\"\n"
                "  duration_ms: 0.0\n"
                "  ...\n");

    /* a session with an empty timeline prints no timeline either */
    struct session s;
    session_init(&s, "scripted-client", "logs/y");
    tap_result(&T, &TC, PROFILE_DEFACTO, &r, &CAT, &s, "x");
    const char *o = output();
    assert_null(strstr(o, "timeline:"));
    assert_non_null(strstr(o, "  wording: \"The value MUST NOT be 0\"\n"));
    session_free(&s);
}

static void test_unresolved(void **state)
{
    (void)state;
    struct result r = result(VERDICT_UNRESOLVED, "fake client A exited (signal 9)\nsee its log # 3");
    tap_result(&T, &TC, PROFILE_DRAFT2011, &r, &CAT, NULL, "fake-wm");
    const char *o = output();
    const char *first = "not ok 1 - basic/value-nonzero [draft-2011] # UNRESOLVED: fake client A "
                        "exited (signal 9); see its log   3\n";
    if (strncmp(o, first, strlen(first)) != 0)
        fail_msg("got:\n%s", o);
    const char *yaml = o + strlen(first);
    assert_true(!strncmp(yaml, "  ---\n  verdict: UNRESOLVED\n", 28));
    assert_non_null(strstr(yaml, "  reason: \"fake client A exited (signal 9)\\nsee its log # 3\"\n"));
    assert_true(strlen(yaml) >= 6 && !strcmp(yaml + strlen(yaml) - 6, "  ...\n"));
    assert_int_equal(T.counts[VERDICT_UNRESOLVED], 1);
}

static void test_bail_out_and_comment(void **state)
{
    (void)state;
    tap_bail_out(&T, "Xvfb did not start\nsee logs/xvfb.log # 1");
    assert_text(output(), "Bail out! Xvfb did not start; see logs/xvfb.log   1\n");
    tap_comment(&T, "profile %s: %d cases", "ewmh-1.5", 7);
    assert_text(output(), "# profile ewmh-1.5: 7 cases\n");
    tap_comment(&T, "two\nlines\n");
    assert_text(output(), "# two\n# lines\n");
}

static void test_summary(void **state)
{
    (void)state;
    enum verdict vs[] = {VERDICT_PASS, VERDICT_PASS, VERDICT_FAIL, VERDICT_SKIP, VERDICT_UNRESOLVED,
                         VERDICT_SKIP, VERDICT_PASS};
    for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++) {
        struct result r = result(vs[i], "r");
        tap_result(&T, &TC, PROFILE_EWMH15, &r, &CAT, NULL, "c");
    }
    reset_output();
    assert_int_equal(T.n, 7);
    tap_summary(&T);
    assert_text(output(), "# findings: 1 clause broken (each FAIL is filed under the clause of the check that failed)\n"
                          "#   ewmh-1.5/basic/value-nonzero (MUST): basic/value-nonzero [ewmh-1.5]\n"
                          "# framesync: 3 passed, 1 failed, 2 skipped, 1 unresolved\n");
}

/* A FAIL is filed under the clause of the check that failed: the diagnostic names it, and the
 * findings list each clause once with every case and profile that shows it. */
static void test_findings_by_failed_clause(void **state)
{
    (void)state;
    struct result r = result(VERDICT_FAIL, "no");
    r.clause = "ewmh-1.5/basic/value-increases";
    tap_result(&T, &TC, PROFILE_EWMH15, &r, &CAT, NULL, "c");
    assert_non_null(strstr(output(), "  clause: ewmh-1.5/basic/value-increases\n"));
    tap_result(&T, &TC, PROFILE_DEFACTO, &r, &CAT, NULL, "c");
    reset_output();
    tap_summary(&T);
    assert_text(output(), "# findings: 1 clause broken (each FAIL is filed under the clause of the check that failed)\n"
                          "#   ewmh-1.5/basic/value-increases (implied: stated without a keyword): basic/value-nonzero [ewmh-1.5]; "
                          "basic/value-nonzero [de-facto]\n"
                          "# framesync: 0 passed, 2 failed, 0 skipped, 0 unresolved\n");
}

static void test_two_outputs(void **state)
{
    (void)state;
    char *b2 = NULL;
    size_t l2 = 0;
    FILE *m2 = open_memstream(&b2, &l2);
    struct tap t;
    tap_open(&t, mem, m2);
    assert_int_equal(t.nout, 2);
    tap_plan(&t, 1);
    struct result r = result(VERDICT_FAIL, "broken");
    tap_result(&t, &TC, PROFILE_EWMH15, &r, &CAT, NULL, "c");
    tap_bail_out(&t, "stop");
    fflush(m2);
    const char *o = output();
    assert_text(b2, o);
    assert_true(!strncmp(o, "TAP version 13\n1..1\nnot ok 1 - ", 31));
    fclose(m2);
    free(b2);

    tap_open(&t, NULL, NULL);
    assert_int_equal(t.nout, 0);
    tap_plan(&t, 3); /* writes nowhere, does not crash */
}

static char *quoted(const char *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    yaml_quoted(f, s);
    fclose(f);
    return text;
}

static void test_yaml_quoted(void **state)
{
    (void)state;
    struct { const char *in, *out; } cases[] = {
        {"plain text", "\"plain text\""},
        {"", "\"\""},
        {"say \"hi\"", "\"say \\\"hi\\\"\""},
        {"back\\slash", "\"back\\\\slash\""},
        {"two\nlines", "\"two\\nlines\""},
        {"tab\there", "\"tab\\x09here\""},
        {"cr\r", "\"cr\\x0d\""},
        {"bell\a esc\x1b", "\"bell\\x07 esc\\x1b\""},
        {"del\x7f", "\"del\\x7f\""},          /* DEL is not printable in YAML either */
        {"# not a comment: [x]", "\"# not a comment: [x]\""},
        {"caf\xc3\xa9", "\"caf\xc3\xa9\""},    /* UTF-8 passes through */
        {"\\\"\n", "\"\\\\\\\"\\n\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *q = quoted(cases[i].in);
        if (strcmp(q, cases[i].out) != 0)
            fail_msg("yaml_quoted(%zu): got %s, wanted %s", i, q, cases[i].out);
        free(q);
    }
    char *q = quoted(NULL);
    assert_string_equal(q, "\"\"");
    free(q);
}

/* The file: line is a YAML scalar like the others: a path with a quote or a backslash must not
 * break the block. */
static void test_file_path_escaped(void **state)
{
    (void)state;
    struct testcase tc = TC;
    tc.path = "cases/we\"ird\\dir/x.case";
    struct result r = result(VERDICT_FAIL, "broken");
    r.step = &STEP;
    tap_result(&T, &tc, PROFILE_EWMH15, &r, &CAT, NULL, "c");
    const char *o = output();
    if (!strstr(o, "  file: \"cases/we\\\"ird\\\\dir/x.case:12\"\n"))
        fail_msg("got:\n%s", o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_plan, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pass, setup, teardown),
        cmocka_unit_test_setup_teardown(test_skip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fail_full, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fail_minimal, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unresolved, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bail_out_and_comment, setup, teardown),
        cmocka_unit_test_setup_teardown(test_summary, setup, teardown),
        cmocka_unit_test_setup_teardown(test_findings_by_failed_clause, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_outputs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_yaml_quoted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_file_path_escaped, setup, teardown),
    };
    return cmocka_run_group_tests_name("tap", tests, NULL, NULL);
}
