/* Unit tests for `vary:` (harness/casevary.c): one case file for several profiles whose texts
 * differ only in words, each profile's case the file with {NAME} replaced; and its errors, each
 * with the FILE:LINE of the line as written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "parse-helpers.h"

#define VARIED "case: drawn/x\n"                                             \
               "clause: c/one\n"                                             \
               "profiles: draft-2011 de-facto\n"                             \
               "vary: draft-2011 drawn=sync-drawn atom=_NET_WM_SYNC_DRAWN\n" \
               "vary: de-facto frame=1 drawn=frame-drawn\n"

static void test_one_case_per_profile(void **state)
{
    (void)state;
    struct testcase *tc = parse("case: drawn/x\n"
                                "clause: c/one\n"
                                "profiles: draft-2011 de-facto\n"
                                "vary: draft-2011 drawn=sync-drawn atom=_NET_WM_SYNC_DRAWN\n"
                                "vary: de-facto   drawn=frame-drawn atom=_NET_WM_FRAME_DRAWN\n"
                                "description: sends {atom} (not {other})\n"
                                "checks: 1\n"
                                "client A\n"
                                "check c/one\n"
                                "wait A {drawn} within 100\n");
    if (!tc)
        fail_msg("%s", err);
    assert_string_equal(tc->id, "drawn/x");
    assert_int_equal(tc->profiles, PROFILE_DRAFT2011);
    assert_string_equal(tc->description, "sends _NET_WM_SYNC_DRAWN (not {other})");
    assert_string_equal(tc->steps[2].event, "sync-drawn");
    assert_int_equal(tc->steps[2].line, 10); /* the vary lines still count */
    const struct testcase *v = tc->next_variant;
    assert_non_null(v);
    assert_string_equal(v->id, "drawn/x");
    assert_int_equal(v->profiles, PROFILE_DEFACTO);
    assert_string_equal(v->description, "sends _NET_WM_FRAME_DRAWN (not {other})");
    assert_string_equal(v->steps[2].event, "frame-drawn");
    assert_null(v->next_variant);
    case_free(tc);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("case: x\nvary: nowhere a=b\n", 2, "unknown profile `nowhere`");
    expect_error("case: x\nvary: de-facto\n", 2, "expected `vary: PROFILE NAME=VALUE...`");
    expect_error("case: x\nvary: de-facto a\n", 2, "expected NAME=VALUE");
    expect_error("case: x\nvary: de-facto 9a=b\n", 2, "a name in `vary:`");
    expect_error("case: x\nvary: de-facto a=b\nvary: de-facto a=c\n", 3, "profile de-facto varies twice");
    expect_error(VARIED "description: d\nchecks: 1\nclient A\ncheck c/one\nwait A x within 1\n", 5,
                 "every `vary:` line names the same words in the same order (as line 4)");
    expect_error("case: drawn/{id}\nclause: c/one\nprofiles: draft-2011 de-facto\n"
                 "vary: draft-2011 id=a\nvary: de-facto id=b\n"
                 "description: d\nchecks: 1\nclient A\ncheck c/one\nwait A x within 1\n",
                 5, "the case id cannot vary");
    expect_error("case: drawn/x\nclause: c/one\nprofiles: ewmh-1.5 draft-2011 de-facto\n"
                 "vary: draft-2011 k=a\nvary: de-facto k=b\n"
                 "description: d\nchecks: 1\nclient A\ncheck c/one\nwait A x within 1\n",
                 4, "`vary:` lines must cover exactly the profiles of `profiles:`");
    /* an error in the varied text names its line as written */
    expect_error("case: drawn/x\nclause: c/one\nprofiles: draft-2011 de-facto\n"
                 "vary: draft-2011 k=within\nvary: de-facto k=within\n"
                 "description: d\nchecks: 1\nclient A\ncheck c/one\nwait A x {k} soon\n",
                 10, "expected a duration in milliseconds");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_case_per_profile),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
