/* Unit tests for the steps of a case file (harness/casesteps.c): every error path of a step, with
 * its FILE:LINE and a message that names what was expected, and the observations of `require`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "parse-helpers.h"

static bool only_hold(const char *name)
{
    return !strcmp(name, "hold");
}

/* `replace-wm [within MS] [as VAR]`: a step of its own, whose record a later step may name */
static void test_replace_step(void **state)
{
    (void)state;
    struct testcase *tc = parse(HDR1 "client A\nreplace-wm\nreplace-wm within 4000 as rep\ncheck c/one\n"
                                     "wait A x after=rep within 100\n");
    if (!tc)
        fail_msg("parse failed: %s", err);
    assert_int_equal(tc->steps[1].kind, STEP_REPLACE);
    assert_int_equal(tc->steps[1].ms, 0);
    assert_null(tc->steps[1].as);
    assert_int_equal(tc->steps[2].kind, STEP_REPLACE);
    assert_int_equal(tc->steps[2].ms, 4000);
    assert_string_equal(tc->steps[2].as, "rep");
    assert_int_equal(case_count_checks(tc), 1);
    case_free(tc);
}

/* `require wait|none ...` is an observation that decides whether the case applies, not a check. */
static void test_require_observation(void **state)
{
    (void)state;
    struct testcase *tc = parse(HDR1 "client A\n"
                                     "require none A sync-request for 300\n"
                                     "require wait A map-notify within 2000 as m\n"
                                     "check c/one\n"
                                     "wait A configure-notify width=m.width within 100\n");
    assert_non_null(tc);
    assert_int_equal(tc->nsteps, 5);
    assert_int_equal(tc->steps[1].kind, STEP_NONE);
    assert_true(tc->steps[1].precondition);
    assert_int_equal(tc->steps[1].ms, 300);
    assert_int_equal(tc->steps[2].kind, STEP_WAIT);
    assert_true(tc->steps[2].precondition);
    assert_string_equal(tc->steps[2].as, "m");
    assert_false(tc->steps[4].precondition);
    assert_int_equal(case_count_checks(tc), 1);
    case_free(tc);
    expect_error(HDR1 "client A\nrequire none A sync-request\nwait A map-notify within 1\n", 7, "expected `for MS`");
}

/* `try wait ... as VAR` (set-up whose miss is no error) and `figure NAME EXPR or WORD`: a
 * measurement to a record that may never come */
static void test_try_wait_and_figure_word(void **state)
{
    (void)state;
    struct testcase *tc = parse(HDR1 "client A\nwait A x within 10 as a\ntry wait A y after=a within 500 as b\n"
                                     "figure gap_ms b.t - a.t / 1000 or frozen\nfigure n a.t\ncheck c/one\n"
                                     "wait A z within 100\n");
    if (!tc)
        fail_msg("parse failed: %s", err);
    assert_int_equal(tc->steps[2].kind, STEP_WAIT);
    assert_true(tc->steps[2].optional && tc->steps[2].setup);
    assert_string_equal(tc->steps[2].as, "b");
    assert_int_equal(tc->steps[3].kind, STEP_FIGURE);
    assert_string_equal(tc->steps[3].command, "b.t - a.t / 1000");
    assert_string_equal(tc->steps[3].fallback, "frozen");
    assert_null(tc->steps[4].fallback);
    assert_int_equal(case_count_checks(tc), 1);
    case_free(tc);
    expect_error(HDR1 "client A\ntry wait A y within 500\n", 7, "`try wait` binds what it finds");
    expect_error(HDR1 "client A\nfigure f 1 + 2 or 3x!\n", 7, "expected a word after `or`");
}

static void test_err_check_and_setup(void **state)
{
    (void)state;
    expect_error(HDR1 "client A\nwait A x within 1\n", 7, "no `check` line");
    expect_error(HDR1 "client A\ncheck c/two\n", 7, "`check c/two`: list the clause in `clause:` first");
    expect_error(HDR1 "client A\ncheck\n", 7, "expected `check CLAUSE-ID`");
    expect_error(HDR1 "client A\nexpect 1 == 1\n", 7, "`expect` is a check: put it after a `check CLAUSE-ID` line");
    expect_error("case: unit/x\nclause: c/one c/two\nprofiles: ewmh-1.5\ndescription: d\nchecks: 1\n"
                 "client A\ncheck c/one\nwait A x within 1\n", 1, "`clause:` lists c/two but no `check c/two`");
    expect_error(HDR1 "client A\nwhen\n", 7, "expected `when FEATURE STEP`");
    expect_error(HDR1 "client A\nwhen hold expect 1 == 1\n", 7, "`when` takes a command, a client, a figure, or a wait/none");
    expect_error(HDR1 "client A\nmark\n", 7, "expected `mark NAME`");
    expect_error(HDR1 "client A\nreplace-wm now\n", 7, "expected `replace-wm [within MS] [as NAME]`, found `now` alone");
    expect_error(HDR1 "client A\nreplace-wm as 9\n", 7, "expected a name after `as`");
    expect_error(HDR1 "client A\nreplace-wm within 0\n", 7, "`within 0`: the new instance needs some time");
    expect_error(HDR1 "client A\nreplace-wm within 5 within 6\n", 7, "expected `replace-wm [within MS] [as NAME]`, found `within`");
    expect_error(HDR1 "client A\nwhen hold replace-wm\n", 7, "`when` takes a command, a client, a figure, or a wait/none");
    expect_error(HDR1 "client A\nA resize 10\n", 7, "expected `A resize W H [hold] [via TRIGGER] [within MS]`");
    expect_error(HDR1 "client A\nA resize 10 0\n", 7, "expected a size 1..32767 in `resize`, found `0`");
    expect_error(HDR1 "client A\nA resize 10 10 via sideways\n", 7, "expected `hold`, `within MS` or `via");
    expect_error(HDR1 "client A\nA resize-end now\n", 7, "expected `A resize-end`");
    expect_error(HDR1 "client A\nwait A x after=nobody within 1\n", 7, "`after=` names a record bound earlier");
    expect_error(HDR1 "client A\nwait A x width=!3 within 1\n", 7, "expected KEY=VALUE (or != < <= > >=)");
}

static void test_err_unknown_feature(void **state)
{
    (void)state;
    case_set_feature_check(only_hold);
    expect_error(HDR1 "require telepathy\n", 6, "unknown feature `telepathy`");
    expect_error(HDR1 "client A\nwhen telepathy A map\n", 7, "unknown feature `telepathy`");
    struct testcase *tc = parse(HDR1 "require no hold\nclient A\ncheck c/one\nwait A x within 1\n");
    case_set_feature_check(NULL);
    if (!tc)
        fail_msg("parse failed: %s", err);
    assert_int_equal(tc->steps[0].ntokens, 3);
    assert_string_equal(tc->steps[0].tokens[1], "no");
    case_free(tc);
}

static void test_err_unknown_client(void **state)
{
    (void)state;
    expect_error(HDR1 "client A\nwait B map-notify within 100\n", 7,
                 "`B` is not a client of this case (declare it with `client B` first)");
    expect_error(HDR1 "client A\nnone B map-notify for 100\n", 7, "`B` is not a client of this case");
    /* a command for an undeclared client is not a step at all */
    expect_error(HDR1 "client A\nB map\n", 7,
                 "expected a step (client, wait, try wait, none, expect, check, mark, figure, replace-wm, require, when, unless, or a "
                 "declared client's name and a command), found `B`");
    /* declared later does not count */
    expect_error(HDR1 "wait A map-notify within 100\nclient A\n", 6, "`A` is not a client");
}

static void test_err_client_step(void **state)
{
    (void)state;
    expect_error(HDR1 "client\n", 6, "expected `client NAME`");
    expect_error(HDR1 "client 1A\n", 6, "expected `client NAME`");
    expect_error(HDR1 "client A\nA\n", 7, "expected a command for client `A`");
    expect_error(HDR1 "client A\nA counters 1 0 as 9x\n", 7, "expected a name after `as`");
}

static void test_err_duplicate_client(void **state)
{
    (void)state;
    expect_error(HDR1 "client A\nclient B\nclient A\n", 8, "client `A` is already declared");
}

static void test_err_unbound_in_expect(void **state)
{
    (void)state;
    expect_error(HDR1 "client A\ncheck c/one\nexpect req.value != 0\n", 8,
                 "`req` is not bound: name a record with `as req` in an earlier wait");
    /* on the right-hand side too, after another name that is bound */
    expect_error(HDR1 "client A\ncheck c/one\nwait A sync-request within 10 as req\nexpect req.value > old.value\n",
                 9, "`old` is not bound");
    /* bound by a later wait does not count */
    expect_error(HDR1 "client A\ncheck c/one\nexpect req.value != 0\nwait A sync-request within 10 as req\n", 8,
                 "`req` is not bound");
}

/* `expect A before B` names records directly (no .FIELD); they must be bound too. */
static void test_err_unbound_in_before_after(void **state)
{
    (void)state;
    expect_error(HDR1 "client A\ncheck c/one\nwait A sync-request within 10 as req\nexpect req before cn\n", 9,
                 "`cn` is not bound: name a record with `as cn` in an earlier wait");
    expect_error(HDR1 "client A\ncheck c/one\nwait A sync-request within 10 as req\nexpect other after req\n", 9,
                 "`other` is not bound");
    expect_error(HDR1 "client A\ncheck c/one\nwait A sync-request within 10 as req\nexpect req.value before req\n",
                 9, "`before` compares two named records: expect A before B");
    expect_error(HDR1 "client A\ncheck c/one\nwait A sync-request within 10 as req\nexpect req after req + 1\n", 9,
                 "`after` compares two named records");
}

static void test_err_unbound_in_filter(void **state)
{
    (void)state;
    expect_error(HDR1 "client A\nwait A counter-set value=req.value within 100\n", 7,
                 "`req` is not bound: name a record with `as req` in an earlier wait");
    /* a wait cannot filter on the record it binds itself */
    expect_error(HDR1 "client A\nwait A counter-set value=me.value within 100 as me\n", 7,
                 "`me` is not bound");
    expect_error(HDR1 "client A\nwait A counter-set value= within 100\n", 7,
                 "expected KEY=VALUE (or != < <= > >=), found `value=`");
    expect_error(HDR1 "client A\nwait A counter-set =5 within 100\n", 7, "expected KEY=VALUE (or != < <= > >=), found `=5`");
}

static void test_err_bad_duration(void **state)
{
    (void)state;
    expect_error(HDR1 "client A\nwait A map-notify within abc\n", 7,
                 "expected a duration in milliseconds after `within`, found `abc`");
    expect_error(HDR1 "client A\nwait A map-notify within -5\n", 7,
                 "expected a duration in milliseconds after `within`, found `-5`");
    expect_error(HDR1 "client A\nwait A map-notify within 2s\n", 7,
                 "expected a duration in milliseconds after `within`, found `2s`");
    expect_error(HDR1 "client A\nnone A map-notify for 99999999\n", 7,
                 "expected a duration in milliseconds after `for`, found `99999999`");
    expect_error(HDR1 "client A\nwait A map-notify within\n", 7,
                 "expected a duration in milliseconds after `within`");
}

static void test_err_missing_within(void **state)
{
    (void)state;
    expect_error(HDR1 "client A\nwait A map-notify as x\n", 7,
                 "expected `within MS` after the event, found `as`");
    expect_error(HDR1 "client A\nwait A map-notify\n", 7,
                 "expected `within MS` after the event, found `end of line`");
    expect_error(HDR1 "client A\nwait A configure-notify width=3 height=4\n", 7,
                 "expected `within MS` after the event filters, found `end of line`");
    expect_error(HDR1 "client A\nnone A sync-request within 300\n", 7,
                 "expected `for MS` after the event, found `within`");
    expect_error(HDR1 "client A\nwait A\n", 7, "expected `wait SOURCE EVENT ... within MS`");
}

static void test_err_wait_tail(void **state)
{
    (void)state;
    expect_error(HDR1 "client A\nnone A sync-request for 300 as x\n", 7,
                 "unexpected `as` at the end of `none`");
    expect_error(HDR1 "client A\nwait A sync-request within 300 as\n", 7, "expected a name after `as`");
    expect_error(HDR1 "client A\nwait A sync-request within 300 as req extra\n", 7,
                 "unexpected `extra` at the end of `wait`");
}

static void test_err_expect_shape(void **state)
{
    (void)state;
    expect_error(HDR1 "check c/one\nexpect 1\n", 7,
                 "expected a comparison (== != < <= > >= before after) in `expect`");
    expect_error(HDR1 "check c/one\nexpect 1 == 1 == 1\n", 7, "one comparison per expect, found `==` and `==`");
    expect_error(HDR1 "check c/one\nexpect 1 + + 1 == 1\n", 7, "expected a value (number, atom or NAME.FIELD), found `+`");
    expect_error(HDR1 "check c/one\nexpect 1 + == 1\n", 7, "expected a value on each side of `==`");
    expect_error(HDR1 "check c/one\nexpect 1 2 == 1\n", 7, "expected an operator (+ - * / %) or the comparison, found `2`");
    expect_error(HDR1 "check c/one\nexpect == 1\n", 7, "expected a value on each side of `==`");
    expect_error(HDR1 "check c/one\nexpect 1 + 2 ==\n", 7, "expected a value on each side of `==`");
}

static void test_err_require(void **state)
{
    (void)state;
    expect_error(HDR1 "require supported\n", 6,
                 "expected `require FEATURE`, `require no FEATURE`, `require supported ATOM`, `require unsupported ATOM`, "
                 "`require wait ...` or `require none ...`");
    expect_error(HDR1 "require no\n", 6, "expected `require FEATURE`");
    expect_error(HDR1 "require a b c\n", 6, "expected `require FEATURE`");
}

static void test_err_too_many_words(void **state)
{
    (void)state;
    char text[1024] = HDR1 "client A\nA";
    for (int i = 0; i < 130; i++)
        strcat(text, " w");
    strcat(text, "\n");
    expect_error(text, 7, "too many words (at most 128)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_require_observation),
        cmocka_unit_test(test_try_wait_and_figure_word),
        cmocka_unit_test(test_err_check_and_setup),
        cmocka_unit_test(test_err_unknown_feature),
        cmocka_unit_test(test_err_unknown_client),
        cmocka_unit_test(test_err_client_step),
        cmocka_unit_test(test_err_duplicate_client),
        cmocka_unit_test(test_err_unbound_in_expect),
        cmocka_unit_test(test_err_unbound_in_before_after),
        cmocka_unit_test(test_err_unbound_in_filter),
        cmocka_unit_test(test_err_bad_duration),
        cmocka_unit_test(test_replace_step),
        cmocka_unit_test(test_err_missing_within),
        cmocka_unit_test(test_err_wait_tail),
        cmocka_unit_test(test_err_expect_shape),
        cmocka_unit_test(test_err_require),
        cmocka_unit_test(test_err_too_many_words),
    };
    return cmocka_run_group_tests_name("casesteps", tests, NULL, NULL);
}
