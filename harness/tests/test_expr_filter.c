/* Unit tests for the filters of harness/expr.c (expr_filter_matches): the KEY=VALUE, KEY<VALUE...
 * conditions of a case's wait and expect steps, numbers, atoms, text and timeline order. */
#include "expr-fixture.h"

static void test_filter_matches(void **state)
{
    (void)state;
    struct record *first = add("first", "sync-request t=1000000 value=16 l0=301");
    struct record *r = add(NULL, "counter-set t=1000000 index=1 value=0x10 state=visible big=18446744073709551855");
    assert_true(expr_filter_matches(&ENV, r, "value", FILTER_EQ, "16"));        /* numeric: 0x10 == 16 */
    assert_true(expr_filter_matches(&ENV, r, "value", FILTER_EQ, "0x10"));
    assert_true(expr_filter_matches(&ENV, r, "value", FILTER_EQ, "016"));
    assert_false(expr_filter_matches(&ENV, r, "value", FILTER_EQ, "17"));
    assert_true(expr_filter_matches(&ENV, r, "value", FILTER_EQ, "first.value")); /* NAME.FIELD */
    assert_false(expr_filter_matches(&ENV, r, "index", FILTER_EQ, "first.value"));
    assert_true(expr_filter_matches(&ENV, first, "l0", FILTER_EQ, "_NET_WM_SYNC_REQUEST")); /* atom */
    assert_false(expr_filter_matches(&ENV, first, "l0", FILTER_EQ, "WM_PROTOCOLS"));
    assert_true(expr_filter_matches(&ENV, r, "big", FILTER_EQ, "18446744073709551855"));
    /* strings: exact text */
    assert_true(expr_filter_matches(&ENV, r, "state", FILTER_EQ, "visible"));
    assert_false(expr_filter_matches(&ENV, r, "state", FILTER_EQ, "Visible"));
    assert_false(expr_filter_matches(&ENV, r, "state", FILTER_EQ, "hidden"));
    /* a number against a term with no value: compared as text, so no match */
    assert_false(expr_filter_matches(&ENV, r, "value", FILTER_EQ, "sixteen"));
    assert_false(expr_filter_matches(&ENV, r, "value", FILTER_EQ, "nobody.value"));
    /* a missing key never matches */
    assert_false(expr_filter_matches(&ENV, r, "width", FILTER_EQ, "16"));
    assert_false(expr_filter_matches(&ENV, r, "width", FILTER_EQ, "visible"));
}

/* != < <= > >= compare numbers; on text only = and != mean anything */
static void test_filter_operators(void **state)
{
    (void)state;
    struct record *r = add(NULL, "configure-notify t=1000000 width=210 rgb=80815A");
    assert_true(expr_filter_matches(&ENV, r, "width", FILTER_NE, "200"));
    assert_false(expr_filter_matches(&ENV, r, "width", FILTER_NE, "210"));
    assert_true(expr_filter_matches(&ENV, r, "width", FILTER_GT, "200"));
    assert_true(expr_filter_matches(&ENV, r, "width", FILTER_GE, "210"));
    assert_false(expr_filter_matches(&ENV, r, "width", FILTER_LT, "210"));
    assert_true(expr_filter_matches(&ENV, r, "width", FILTER_LE, "210"));
    assert_true(expr_filter_matches(&ENV, r, "rgb", FILTER_NE, "000000"));
    assert_false(expr_filter_matches(&ENV, r, "rgb", FILTER_LT, "FFFFFF"));
}

/* a VAR.FIELD term stands for the field's text when it is no number (rgb=80815A) */
static void test_filter_text_of_bound_field(void **state)
{
    (void)state;
    add("before", "shows t=1000000 rgb=000000");
    struct record *same = add(NULL, "shows t=1000001 rgb=000000");
    struct record *other = add(NULL, "shows t=1000002 rgb=80815A");
    add("painted", "shows t=1000003 rgb=80815A");
    assert_false(expr_filter_matches(&ENV, same, "rgb", FILTER_NE, "before.rgb"));
    assert_true(expr_filter_matches(&ENV, other, "rgb", FILTER_NE, "before.rgb"));
    assert_true(expr_filter_matches(&ENV, other, "rgb", FILTER_EQ, "painted.rgb"));
}

/* after=VAR / before=VAR: the record's place in the timeline against the named record */
static void test_filter_order(void **state)
{
    (void)state;
    struct record *a = add(NULL, "sync-request t=1000000 value=1");
    add("mid", "sync-request t=1000001 value=2");
    struct record *c = add(NULL, "sync-request t=1000002 value=3");
    assert_false(expr_filter_matches(&ENV, a, "after", FILTER_EQ, "mid"));
    assert_true(expr_filter_matches(&ENV, c, "after", FILTER_EQ, "mid"));
    assert_true(expr_filter_matches(&ENV, a, "before", FILTER_EQ, "mid"));
    assert_false(expr_filter_matches(&ENV, c, "before", FILTER_EQ, "mid"));
    assert_false(expr_filter_matches(&ENV, c, "after", FILTER_EQ, "nobody"));
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_filter_matches, setup, teardown),
        cmocka_unit_test_setup_teardown(test_filter_operators, setup, teardown),
        cmocka_unit_test_setup_teardown(test_filter_text_of_bound_field, setup, teardown),
        cmocka_unit_test_setup_teardown(test_filter_order, setup, teardown),
    };
    return cmocka_run_group_tests_name("expr-filter", tests, NULL, NULL);
}
