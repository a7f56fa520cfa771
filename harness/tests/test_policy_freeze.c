/* Unit tests for harness/policy-freeze.c: under a policy that leaves out a drawn message, a case's
 * FAIL on an application that began no update since that message becomes a SKIP naming it (the
 * freeze is client/policy/drawn-missed-stall's one finding); it stays a FAIL when the application
 * updated after it, when the policy sends every message, when the case is the one that measures the
 * freeze, and when the failure is the application's crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../app-exit.h"
#include "../featureset.h"
#include "../policy-freeze.h"

static struct features fs;
static struct session s;

static void table(bool misses)
{
    features_init(&fs, "fake-wm --policy drawn-missed-once");
    features_set(&fs, "policy-misses-drawn", misses ? FEATURE_PRESENT : FEATURE_ABSENT, "declared",
                 misses ? "policy drawn-missed-once: one update's drawn message never comes" : "reference");
}

/* The application's records: its updates (odd then even) and fake-wm's note, as `lines` says. */
static void timeline(const char *const *lines)
{
    memset(&s, 0, sizeof s);
    timeline_init(&s.tl, 1000000);
    for (int i = 0; lines[i]; i++)
        timeline_add(&s.tl, record_parse("A", lines[i]));
}

static struct result failed(const char *clause)
{
    struct result r = {.verdict = VERDICT_FAIL, .clause = clause};
    snprintf(r.reason, sizeof r.reason, "no A set-counter within 1000 ms");
    return r;
}

/* as casesteps.c parses `require policy-misses-drawn` */
static char *require_tokens[] = {"require", "policy-misses-drawn"};
static struct step stall_steps[] = {{.kind = STEP_REQUIRE, .tokens = require_tokens, .ntokens = 2}};
static struct testcase answer_case = {.id = "client/answer-same-size/animating"};
static struct testcase stall_case = {.id = "client/policy/drawn-missed-stall", .steps = stall_steps, .nsteps = 1};

static const char *const frozen[] = {
    "set-counter t=1100000 index=2 value=63 parity=odd", "set-counter t=1110000 index=2 value=64 parity=even",
    "wm-note t=1500000 what=drawn-missed value=64 window=7", NULL};
static const char *const recovered[] = {
    "wm-note t=1500000 what=drawn-missed value=64 window=7", "set-counter t=2500000 index=2 value=65 parity=odd",
    NULL};

static void test_frozen_failure_is_the_freeze(void **state)
{
    (void)state;
    table(true);
    timeline(frozen);
    struct result r = failed("ewmh-1.5/basic/client-answer");
    assert_true(policy_freeze_explains(&answer_case, &fs, &s, &r));
    assert_int_equal(r.verdict, VERDICT_SKIP);
    assert_null(r.clause);
    assert_non_null(strstr(r.reason, "drawn message of update 64 at +500 ms"));
    assert_non_null(strstr(r.reason, "no A set-counter within 1000 ms"));
}

static void test_update_after_the_miss_keeps_the_fail(void **state)
{
    (void)state;
    table(true);
    timeline(recovered);
    struct result r = failed("ewmh-1.5/basic/client-answer");
    assert_false(policy_freeze_explains(&answer_case, &fs, &s, &r));
    assert_int_equal(r.verdict, VERDICT_FAIL);
}

static void test_policy_sending_every_message_keeps_the_fail(void **state)
{
    (void)state;
    table(false);
    timeline(frozen);
    struct result r = failed("ewmh-1.5/basic/client-answer");
    assert_false(policy_freeze_explains(&answer_case, &fs, &s, &r));
}

static void test_the_stall_case_keeps_its_verdict(void **state)
{
    (void)state;
    table(true);
    timeline(frozen);
    struct result r = failed("draft-2011/delimited/client-wait-drawn");
    assert_false(policy_freeze_explains(&stall_case, &fs, &s, &r));
}

static void test_a_crash_stays_a_crash(void **state)
{
    (void)state;
    table(true);
    timeline(frozen);
    struct result r = failed(CLIENT_CRASH_CLAUSE);
    assert_false(policy_freeze_explains(&answer_case, &fs, &s, &r));
    assert_int_equal(r.verdict, VERDICT_FAIL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frozen_failure_is_the_freeze),
        cmocka_unit_test(test_update_after_the_miss_keeps_the_fail),
        cmocka_unit_test(test_policy_sending_every_message_keeps_the_fail),
        cmocka_unit_test(test_the_stall_case_keeps_its_verdict),
        cmocka_unit_test(test_a_crash_stays_a_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
