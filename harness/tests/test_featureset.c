/* Unit tests for the derived client feature `client-basic-form` (harness/featureset.c): from the
 * client probes' client-counter and client-extended, with the reason a case that needs it SKIPs
 * with, and an undecided input passed on as it is (its source too: an application that crashed in
 * its probe makes the case the crash's FAIL, harness/run-features.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../featureset.h"

static struct features fs;

/* A client run's table after its probes: client-counter and client-extended as given. */
static const struct feature *derived(enum feature_state counter, const char *counter_source,
                                     enum feature_state extended)
{
    features_init(&fs, "app");
    features_set(&fs, "client-counter", counter, counter_source,
                 counter == FEATURE_ABSENT ? "names no counter it created before the map" : "counter 7 named");
    features_set(&fs, "client-extended", extended, "probe",
                 extended == FEATURE_PRESENT ? "two counters: 7 (basic), 8 (extended)" : "basic form only");
    features_derive(&fs);
    return features_find(&fs, "client-basic-form");
}

static void test_one_counter_is_basic_form(void **state)
{
    (void)state;
    const struct feature *f = derived(FEATURE_PRESENT, "probe", FEATURE_ABSENT);
    assert_non_null(f);
    assert_int_equal(f->state, FEATURE_PRESENT);
    assert_string_equal(f->detail, "one counter: counter 7 named");
}

static void test_two_counters_are_not(void **state)
{
    (void)state;
    const struct feature *f = derived(FEATURE_PRESENT, "probe", FEATURE_PRESENT);
    assert_int_equal(f->state, FEATURE_ABSENT);
    assert_string_equal(f->detail, "extended form (two counters: 7 (basic), 8 (extended)): a compositor of the "
                                   "later texts sends it the extended request");
}

/* no counter: the reason of `require client-counter`, word for word (the same SKIP as before) */
static void test_no_counter_says_why(void **state)
{
    (void)state;
    const struct feature *f = derived(FEATURE_ABSENT, "probe", FEATURE_ABSENT);
    assert_int_equal(f->state, FEATURE_ABSENT);
    assert_string_equal(f->detail, "names no counter it created before the map");
}

static void test_undecided_input_is_passed_on(void **state)
{
    (void)state;
    const struct feature *f = derived(FEATURE_UNKNOWN, "client-crash", FEATURE_UNKNOWN);
    assert_int_equal(f->state, FEATURE_UNKNOWN);
    assert_string_equal(f->source, "client-crash");
    f = derived(FEATURE_PRESENT, "probe", FEATURE_UNKNOWN);
    assert_int_equal(f->state, FEATURE_UNKNOWN);
    assert_string_equal(f->detail, "basic form only");
}

/* a compositor run has no client probes: nothing to derive */
static void test_not_in_a_compositor_run(void **state)
{
    (void)state;
    features_init(&fs, "wm");
    features_set(&fs, "trigger-configure", FEATURE_PRESENT, "probe", "yes");
    features_derive(&fs);
    assert_null(features_find(&fs, "client-basic-form"));
    assert_true(features_known("client-basic-form"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_counter_is_basic_form),
        cmocka_unit_test(test_two_counters_are_not),
        cmocka_unit_test(test_no_counter_says_why),
        cmocka_unit_test(test_undecided_input_is_passed_on),
        cmocka_unit_test(test_not_in_a_compositor_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
