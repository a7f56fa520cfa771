/* Unit tests for the value rules (harness/expr.c): terms, 128-bit left-to-right arithmetic,
 * comparisons, before/after, explanations (filters: test_expr_filter.c), and the protocol's value rules written as
 * the expressions cases use. */
#include "expr-fixture.h"
/* ---- terms ---- */

static void test_parse_integer(void **state)
{
    (void)state;
    value_t v;
    assert_true(parse_integer("0", &v) && v == 0);
    assert_true(parse_integer("42", &v) && v == 42);
    assert_true(parse_integer("+42", &v) && v == 42);
    assert_true(parse_integer("-7", &v) && v == -7);
    assert_true(parse_integer("007", &v) && v == 7); /* decimal, not octal */
    assert_true(parse_integer("0x1F", &v) && v == 31);
    assert_true(parse_integer("0XfF", &v) && v == 255);
    assert_true(parse_integer("-0x10", &v) && v == -16);
    assert_true(parse_integer("9223372036854775807", &v) && v == INT64_MAX);
    assert_true(parse_integer("-9223372036854775808", &v) && v == INT64_MIN);
    assert_true(parse_integer("18446744073709551615", &v) && v == (value_t)UINT64_MAX);
    assert_true(parse_integer("0xffffffffffffffffff", &v) && v == ((value_t)UINT64_MAX << 8 | 0xff));

    v = 99;
    assert_false(parse_integer("", &v));
    assert_false(parse_integer("-", &v));
    assert_false(parse_integer("0x", &v));
    assert_false(parse_integer("12a", &v));
    assert_false(parse_integer("0x1g", &v));
    assert_false(parse_integer("--5", &v));
    assert_false(parse_integer(" 5", &v));
    assert_false(parse_integer("1.5", &v));
    assert_false(parse_integer("abc", &v));
    /* far beyond 128 bits: rejected, not wrapped */
    assert_false(parse_integer("99999999999999999999999999999999999999999999", &v));
    assert_true(v == 99);
}

static void test_term_numbers_and_atoms(void **state)
{
    (void)state;
    assert_true(term("12") == 12);
    assert_true(term("-3") == -3);
    assert_true(term("0x100") == 256);
    assert_true(term("WM_PROTOCOLS") == 300);
    assert_true(term("_NET_WM_SYNC_REQUEST") == 301);

    value_t v;
    char err[256];
    assert_int_equal(expr_term(&ENV, "_NET_NO_SUCH_ATOM", &v, err, sizeof err), -1);
    assert_string_equal(err, "cannot intern the atom _NET_NO_SUCH_ATOM");
    assert_int_equal(expr_term(&ENV, "lowercase", &v, err, sizeof err), -1);
    assert_string_equal(err, "`lowercase` is not a number, an atom name or NAME.FIELD");
    assert_int_equal(expr_term(&ENV, "Mixed_Case", &v, err, sizeof err), -1);
    assert_string_equal(err, "`Mixed_Case` is not a number, an atom name or NAME.FIELD");
}

static void test_term_fields(void **state)
{
    (void)state;
    add(NULL, "step t=1000000 n=1");
    add("req", "sync-request t=1005000 value=0x20 l0=301 state=visible");
    add("cn", "configure-notify t=1007500 width=320");
    assert_true(term("req.value") == 32);
    assert_true(term("req.l0") == 301);
    assert_true(term("req.t") == 5000);   /* relative to t0 */
    assert_true(term("cn.t") == 7500);
    assert_true(term("req.seq") == 2);
    assert_true(term("cn.seq") == 3);
    ENV.t0_us = 1006000;
    assert_true(term("req.t") == -1000); /* before t0: negative, not wrapped */

    value_t v;
    char err[256];
    assert_int_equal(expr_term(&ENV, "req.bogus", &v, err, sizeof err), -1);
    assert_string_equal(err, "the sync-request record has no field `bogus`");
    assert_int_equal(expr_term(&ENV, "req.state", &v, err, sizeof err), -1);
    assert_string_equal(err, "req.state = `visible` is not a number");
    assert_int_equal(expr_term(&ENV, "nobody.value", &v, err, sizeof err), -1);
    assert_string_equal(err, "`nobody` names no record (its wait did not run)");
}

/* ---- arithmetic ---- */

static void test_arithmetic_left_to_right(void **state)
{
    (void)state;
    assert_eval("1 + 2 == 3", EXPR_TRUE);
    assert_eval("2 + 3 * 4 == 20", EXPR_TRUE); /* (2 + 3) * 4, not 2 + 12 */
    assert_eval("2 + 3 * 4 == 14", EXPR_FALSE);
    assert_eval("10 - 2 - 3 == 5", EXPR_TRUE);
    assert_eval("1 + 5 % 2 == 0", EXPR_TRUE); /* (1 + 5) % 2 */
    assert_eval("7 / 2 == 3", EXPR_TRUE);
    assert_eval("-7 / 2 == -3", EXPR_TRUE);   /* truncation toward zero */
    assert_eval("-7 % 2 == -1", EXPR_TRUE);
    assert_eval("0x10 + 0x10 == 32", EXPR_TRUE);
    assert_eval("3 - 5 == -2", EXPR_TRUE);
    assert_eval("0 - 1 < 0", EXPR_TRUE);      /* signed, not unsigned */
    assert_eval("6 == 2 * 3", EXPR_TRUE);     /* arithmetic on the right side too */
    assert_eval("1 + 1 == 4 / 2", EXPR_TRUE);
}

static void test_64bit_no_overflow(void **state)
{
    (void)state;
    assert_eval("9223372036854775807 + 240 > 9223372036854775807", EXPR_TRUE);
    assert_eval("9223372036854775807 + 240 == 9223372036854776047", EXPR_TRUE);
    assert_eval("18446744073709551615 + 240 == 18446744073709551855", EXPR_TRUE);
    assert_eval("18446744073709551615 * 2 / 2 == 18446744073709551615", EXPR_TRUE);
    assert_eval("-9223372036854775808 - 1 < -9223372036854775808", EXPR_TRUE);
    add("last", "counter-set t=1000000 value=9223372036854775800");
    assert_eval("last.value + 240 > last.value", EXPR_TRUE);
    assert_eval("last.value + 240 == 9223372036854776040", EXPR_TRUE);
    assert_true(term("last.value") == (value_t)INT64_MAX - 7);
}

static void test_division_by_zero(void **state)
{
    (void)state;
    assert_eval("1 / 0 == 0", EXPR_ERROR);
    assert_explain_has("division by zero in `0`");
    assert_eval("5 % 0 == 0", EXPR_ERROR);
    assert_explain_has("division by zero");
    add("r", "counter-set t=1000000 zero=0 value=10");
    assert_eval("r.value % r.zero == 0", EXPR_ERROR);
    assert_explain_has("division by zero in `r.zero`");
    assert_eval("1 == r.value / r.zero", EXPR_ERROR);
    assert_explain_has("division by zero");
    assert_eval("0 * 5 == 0", EXPR_TRUE);
}

/* ---- comparisons ---- */

static void test_comparisons(void **state)
{
    (void)state;
    assert_eval("3 == 3", EXPR_TRUE);
    assert_eval("3 == 4", EXPR_FALSE);
    assert_eval("3 != 4", EXPR_TRUE);
    assert_eval("3 != 3", EXPR_FALSE);
    assert_eval("3 < 4", EXPR_TRUE);
    assert_eval("4 < 4", EXPR_FALSE);
    assert_eval("4 <= 4", EXPR_TRUE);
    assert_eval("5 <= 4", EXPR_FALSE);
    assert_eval("5 > 4", EXPR_TRUE);
    assert_eval("4 > 4", EXPR_FALSE);
    assert_eval("4 >= 4", EXPR_TRUE);
    assert_eval("3 >= 4", EXPR_FALSE);
    assert_eval("-1 < 1", EXPR_TRUE);
    assert_eval("0x10 == 16", EXPR_TRUE);
}

static void test_malformed(void **state)
{
    (void)state;
    assert_eval("3 4", EXPR_ERROR);
    assert_explain_has("malformed expression");
    assert_eval("== 3", EXPR_ERROR);
    assert_eval("3 ==", EXPR_ERROR);
    assert_eval("3 == nonsense", EXPR_ERROR);
    assert_explain_has("`nonsense` is not a number, an atom name or NAME.FIELD");
}

static void test_before_after(void **state)
{
    (void)state;
    add("req", "sync-request t=1001000 value=2");
    add(NULL, "step t=1001500 n=2");
    add("cn", "configure-notify t=1002000 width=320");
    assert_eval("req before cn", EXPR_TRUE);
    assert_eval("cn after req", EXPR_TRUE);
    assert_eval("cn before req", EXPR_FALSE);
    assert_explain_has("cn is record #3 and req is record #1 of the timeline: wanted cn before req");
    assert_eval("req after cn", EXPR_FALSE);
    assert_explain_has("req is record #1 and cn is record #3 of the timeline: wanted req after cn");
    assert_eval("req before req", EXPR_FALSE); /* strictly */
    assert_eval("req before missing", EXPR_ERROR);
    assert_explain_has("`missing` names no record");
    assert_eval("missing after req", EXPR_ERROR);
    assert_explain_has("`missing` names no record");
}

static void test_atoms_in_expressions(void **state)
{
    (void)state;
    add("req", "client-message t=1000000 type=300 l0=301 l4=0");
    assert_eval("req.type == WM_PROTOCOLS", EXPR_TRUE);
    assert_eval("req.l0 == _NET_WM_SYNC_REQUEST", EXPR_TRUE);
    assert_eval("req.l0 == _NET_WM_FRAME_DRAWN", EXPR_FALSE);
    assert_explain_has("req.l0 = 301");
    assert_eval("req.l0 == _NO_SUCH_ATOM", EXPR_ERROR);
    assert_explain_has("cannot intern the atom _NO_SUCH_ATOM");
    assert_true(F.atom_calls > 0);
}

/* A screen record of a sampling oracle (since_us=) is ordered against another only when its span
 * (after since_us, no later than t) does not overlap the other's moment: never guessed. */
static void test_before_after_sampled(void **state)
{
    (void)state;
    add("early", "frame-drawn t=1010000 value=2");   /* +10 ms */
    add("shown", "shows t=1200000 frame=2 since_us=50000"); /* on screen after +50 ms, by +200 ms */
    add("mid", "frame-drawn t=1120000 value=2");     /* +120 ms: inside the span */
    add("late", "frame-drawn t=1250000 value=2");    /* +250 ms */
    assert_eval("late after shown", EXPR_TRUE);
    assert_eval("shown before late", EXPR_TRUE);
    assert_eval("early before shown", EXPR_TRUE);
    assert_eval("early after shown", EXPR_FALSE);
    assert_explain_has("early (at +10.000 ms) came before shown (shown no later than +200.000 ms)");
    assert_eval("shown after late", EXPR_FALSE);
    assert_eval("mid after shown", EXPR_ERROR);
    assert_explain_has("the screen oracle knows only a span of time");
    assert_explain_has("shown between +50.000 and +200.000 ms");
    assert_eval("shown before mid", EXPR_ERROR);
}

static void test_field_lookups_in_expressions(void **state)
{
    (void)state;
    add("a", "map-notify t=1002000 x=1");
    add("b", "sync-request t=1012000 value=5");
    assert_eval("b.t - a.t == 10000", EXPR_TRUE);
    assert_eval("a.t == 2000", EXPR_TRUE);
    assert_eval("b.seq == a.seq + 1", EXPR_TRUE);
    assert_eval("b.width == 320", EXPR_ERROR);
    assert_explain_has("the sync-request record has no field `width`");
    assert_eval("320 == b.height", EXPR_ERROR);
    assert_explain_has("no field `height`");
    assert_eval("zz.value == 1", EXPR_ERROR);
    assert_explain_has("`zz` names no record");
}

/* ---- explanations ---- */

static void test_explain_false(void **state)
{
    (void)state;
    add("req", "sync-request t=1000000 value=0");
    assert_eval("req.value != 0", EXPR_FALSE);
    assert_explain_has("req.value = 0");
    assert_explain_has("wanted req.value != 0");

    add("first", "sync-request t=1000000 value=7");
    add("second", "sync-request t=1000000 value=5");
    assert_eval("second.value > first.value", EXPR_FALSE);
    assert_explain_has("second.value = 5");
    assert_explain_has("first.value = 7");
    assert_explain_has("wanted second.value > first.value");

    /* arithmetic: the named terms and the side's total */
    assert_eval("req.value + 1 == 5", EXPR_FALSE);
    assert_explain_has("req.value = 0");
    assert_explain_has("req.value + 1 = 1");

    /* numbers only: both values */
    assert_eval("4 == 5", EXPR_FALSE);
    assert_string_equal(explain, "4 vs 5; wanted 4 == 5");
    assert_eval("2 + 2 == 5", EXPR_FALSE);
    assert_explain_has("2 + 2 = 4");

    /* TRUE writes nothing */
    explain[0] = 0;
    assert_eval("first.value == 7", EXPR_TRUE);
    assert_string_equal(explain, "");
}

static void test_explain_exact(void **state)
{
    (void)state;
    add("last", "sync-request t=1000000 value=1000");
    add("req", "sync-request t=1000000 value=1050");
    assert_eval("req.value >= last.value + 100", EXPR_FALSE);
    assert_string_equal(explain, "req.value = 1050, last.value = 1000, last.value + 100 = 1100; "
                                 "wanted req.value >= last.value + 100");
}

static void test_explain_truncates(void **state)
{
    (void)state;
    add("req", "sync-request t=1000000 value=0");
    char small[12];
    char *tok[] = {"req.value", "!=", "0"};
    memset(small, 'x', sizeof small);
    assert_int_equal(expr_eval(&ENV, tok, 3, small, sizeof small), EXPR_FALSE);
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_string_equal(small, "req.value =");
}

/* expr_value: arithmetic only, for the probes' detail templates */
static void test_expr_value(void **state)
{
    (void)state;
    add("req", "sync-request t=1000000 value=1099511628016");
    char *tok[] = {"req.value", "-", "1099511627776"};
    value_t v;
    char err[128];
    assert_int_equal(expr_value(&ENV, tok, 3, &v, err, sizeof err), 0);
    assert_true(v == 240);
    char *bad[] = {"req.value", "=="};
    assert_int_equal(expr_value(&ENV, bad, 2, &v, err, sizeof err), -1);
    char *unbound[] = {"nobody.value"};
    assert_int_equal(expr_value(&ENV, unbound, 1, &v, err, sizeof err), -1);
}

/* ---- value_str ---- */

static void test_value_str(void **state)
{
    (void)state;
    assert_string_equal(str(0), "0");
    assert_string_equal(str(7), "7");
    assert_string_equal(str(-1), "-1");
    assert_string_equal(str(-240), "-240");
    assert_string_equal(str(INT64_MAX), "9223372036854775807");
    assert_string_equal(str(INT64_MIN), "-9223372036854775808");
    assert_string_equal(str((value_t)UINT64_MAX), "18446744073709551615");
    assert_string_equal(str((value_t)UINT64_MAX + 240), "18446744073709551855");
    assert_string_equal(str(((value_t)1 << 64) + 5), "18446744073709551621");
    assert_string_equal(str(-((value_t)1 << 64)), "-18446744073709551616");
    /* the extremes of 128 bits */
    value_t max = (value_t)(((unsigned __int128)1 << 127) - 1);
    assert_string_equal(str(max), "170141183460469231731687303715884105727");
    assert_string_equal(str(-max - 1), "-170141183460469231731687303715884105728");

    char small[4];
    assert_string_equal(value_str(12345, small, sizeof small), "123");
    assert_string_equal(value_str(-12345, small, sizeof small), "-12");
    char one[1];
    assert_string_equal(value_str(9, one, sizeof one), "");
}

/* ---- the protocol's value rules as cases write them ---- */

/* draft-2011 extended form: the WM picks an EVEN value at least 100 above the last value seen. */
static void test_rule_even_and_plus_100(void **state)
{
    (void)state;
    add("last", "counter-set t=1000000 index=2 value=1000");
    add("good", "sync-request t=1001000 value=1100 l2=1100 l3=0 l4=1");
    add("odd", "sync-request t=1001000 value=1101");
    add("near", "sync-request t=1001000 value=1098");
    add("far", "sync-request t=1001000 value=5000");
    char e[128];
    struct { const char *name; bool even, plus; } want[] = {
        {"good", true, true}, {"odd", false, true}, {"near", true, false}, {"far", true, true},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        snprintf(e, sizeof e, "%s.value %% 2 == 0", want[i].name);
        assert_eval(e, want[i].even ? EXPR_TRUE : EXPR_FALSE);
        snprintf(e, sizeof e, "%s.value >= last.value + 100", want[i].name);
        assert_eval(e, want[i].plus ? EXPR_TRUE : EXPR_FALSE);
    }
    assert_eval("odd.value % 2 == 0", EXPR_FALSE);
    assert_explain_has("odd.value = 1101");
    assert_explain_has("odd.value % 2 = 1");
    assert_eval("near.value >= last.value + 100", EXPR_FALSE);
    assert_explain_has("near.value = 1098");
    assert_explain_has("last.value + 100 = 1100");
    /* the value is the 64-bit number l[2] (low) and l[3] (high); left to right, high first */
    assert_eval("good.l3 * 4294967296 + good.l2 == good.value", EXPR_TRUE);
    assert_eval("good.l4 == 1", EXPR_TRUE);
}

/* de-facto: even and at least 240 above the last value, near the top of the 64-bit range. */
static void test_rule_plus_240_near_int64_max(void **state)
{
    (void)state;
    add("last", "counter-set t=1000000 value=9223372036854775566");  /* INT64_MAX - 241 */
    add("req", "sync-request t=1001000 value=9223372036854775806 l2=4294967294 l3=2147483647");
    add("wrapped", "sync-request t=1001000 value=-9223372036854775570");
    assert_eval("req.value % 2 == 0", EXPR_TRUE);
    assert_eval("req.value - last.value >= 240", EXPR_TRUE);
    assert_eval("req.value >= last.value + 240", EXPR_TRUE);
    assert_eval("req.l3 * 4294967296 + req.l2 == req.value", EXPR_TRUE);
    /* written low first it means (l2 + l3) * 2^32: left to right, no precedence */
    assert_eval("req.l2 + req.l3 * 4294967296 == req.value", EXPR_FALSE);
    /* a value that wrapped around is not "240 above" */
    assert_eval("wrapped.value >= last.value + 240", EXPR_FALSE);
    assert_explain_has("wrapped.value = -9223372036854775570");
    assert_explain_has("last.value + 240 = 9223372036854775806");
    /* basic form: nonzero, and the answer is the received value */
    add("set", "counter-set t=1002000 index=1 value=9223372036854775806");
    assert_eval("set.value == req.value", EXPR_TRUE);
    assert_eval("req.value != 0", EXPR_TRUE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_parse_integer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_term_numbers_and_atoms, setup, teardown),
        cmocka_unit_test_setup_teardown(test_term_fields, setup, teardown),
        cmocka_unit_test_setup_teardown(test_arithmetic_left_to_right, setup, teardown),
        cmocka_unit_test_setup_teardown(test_64bit_no_overflow, setup, teardown),
        cmocka_unit_test_setup_teardown(test_division_by_zero, setup, teardown),
        cmocka_unit_test_setup_teardown(test_comparisons, setup, teardown),
        cmocka_unit_test_setup_teardown(test_malformed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_before_after, setup, teardown),
        cmocka_unit_test_setup_teardown(test_before_after_sampled, setup, teardown),
        cmocka_unit_test_setup_teardown(test_atoms_in_expressions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_field_lookups_in_expressions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_explain_false, setup, teardown),
        cmocka_unit_test_setup_teardown(test_explain_exact, setup, teardown),
        cmocka_unit_test_setup_teardown(test_explain_truncates, setup, teardown),
        cmocka_unit_test_setup_teardown(test_expr_value, setup, teardown),
        cmocka_unit_test_setup_teardown(test_value_str, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rule_even_and_plus_100, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rule_plus_240_near_int64_max, setup, teardown),
    };
    return cmocka_run_group_tests_name("expr", tests, NULL, NULL);
}
