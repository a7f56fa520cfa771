/* Unit tests for the clause catalog loader (harness/catalog.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../catalog.h"

static char path[64];
static char err[1024];

static void write_file(const char *text)
{
    snprintf(path, sizeof path, "/tmp/framesync-test-catalogXXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

static int teardown(void **state)
{
    (void)state;
    if (path[0])
        unlink(path);
    path[0] = 0;
    catalog_set_current(NULL);
    return 0;
}

/* Loading fails with "PATH:LINE: ..." containing want. */
static void expect_error(const char *text, int line, const char *want)
{
    write_file(text);
    struct catalog cat;
    err[0] = 0;
    if (catalog_load(&cat, path, err, sizeof err) == 0) {
        catalog_free(&cat);
        fail_msg("loaded, wanted an error at line %d containing \"%s\"", line, want);
    }
    assert_int_equal(cat.n, 0); /* freed on error */
    assert_null(cat.clauses);
    char prefix[128];
    snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
    if (strncmp(err, prefix, strlen(prefix)) != 0)
        fail_msg("error \"%s\" does not start with \"%s\"", err, prefix);
    if (!strstr(err, want))
        fail_msg("error \"%s\" does not contain \"%s\"", err, want);
    unlink(path);
    path[0] = 0;
}

#define RECORD(id)                                   \
    "clause:   " id "\n"                             \
    "profiles: ewmh-1.5\n"                           \
    "keyword:  MUST\n"                               \
    "binds:    wm\n"                                 \
    "testable: yes\n"                                \
    "wording:  w\n"

static const char *two_records =
    "# The catalog: a comment\n"                                   /* 1 */
    "#   clause: not a field, a comment\n"                         /* 2 */
    "\n"                                                           /* 3 */
    "clause:   ewmh-1.5/basic/value-nonzero\n"                     /* 4 */
    "profiles: ewmh-1.5 draft-2011 de-facto\n"                     /* 5 */
    "section:  _NET_WM_SYNC_REQUEST, basic form\n"                 /* 6 */
    "keyword:  MUST NOT\n"                                         /* 7 */
    "binds:    wm\n"                                               /* 8 */
    "testable: yes\n"                                              /* 9 */
    "wording:  The value of the request\n"                         /* 10 */
    "          MUST NOT be 0\n"                                    /* 11 */
    "\t  and is generally the previous one plus 1.\n"              /* 12 */
    "note:     a note\n"                                           /* 13 */
    "\n"                                                           /* 14 */
    "\n"                                                           /* 15 */
    "clause:   draft-2011/extended/plus-100\n"                     /* 16 */
    "profiles: draft-2011\n"                                       /* 17 */
    "keyword:  MUST\n"                                             /* 18 */
    "binds:    wm\n"                                               /* 19 */
    "testable: no: the WM's choice cannot be observed\n"           /* 20 */
    "          without a client\n"                                 /* 21 */
    "wording:  an even value at least 100 above the last\n";       /* 22: no final blank line */

static void test_load_two_records(void **state)
{
    (void)state;
    write_file(two_records);
    struct catalog cat;
    if (catalog_load(&cat, path, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(cat.n, 2);

    const struct clause *a = &cat.clauses[0];
    assert_string_equal(a->id, "ewmh-1.5/basic/value-nonzero");
    assert_string_equal(a->profiles, "ewmh-1.5 draft-2011 de-facto");
    assert_string_equal(a->section, "_NET_WM_SYNC_REQUEST, basic form");
    assert_string_equal(a->keyword, "MUST NOT");
    assert_string_equal(a->binds, "wm");
    assert_string_equal(a->testable, "yes");
    assert_string_equal(a->wording,
                        "The value of the request MUST NOT be 0 and is generally the previous one plus 1.");
    assert_string_equal(a->note, "a note");
    assert_int_equal(a->line, 4);

    const struct clause *b = &cat.clauses[1];
    assert_string_equal(b->id, "draft-2011/extended/plus-100");
    assert_null(b->section);
    assert_null(b->note);
    assert_string_equal(b->testable, "no: the WM's choice cannot be observed without a client");
    assert_string_equal(b->wording, "an even value at least 100 above the last");
    assert_int_equal(b->line, 16);

    assert_ptr_equal(catalog_find(&cat, "draft-2011/extended/plus-100"), b);
    assert_ptr_equal(catalog_find(&cat, "ewmh-1.5/basic/value-nonzero"), a);
    assert_null(catalog_find(&cat, "ewmh-1.5/basic/nothing"));
    assert_null(catalog_find(&cat, "ewmh-1.5/basic/value-nonzer"));

    /* the current catalog answers case_parse's clause check */
    assert_false(catalog_current_knows("ewmh-1.5/basic/value-nonzero"));
    catalog_set_current(&cat);
    assert_true(catalog_current_knows("ewmh-1.5/basic/value-nonzero"));
    assert_false(catalog_current_knows("nope"));
    catalog_set_current(NULL);
    assert_false(catalog_current_knows("ewmh-1.5/basic/value-nonzero"));

    catalog_free(&cat);
    assert_int_equal(cat.n, 0);
    assert_null(cat.clauses);
}

static void test_load_empty_and_comments_only(void **state)
{
    (void)state;
    write_file("# nothing but comments\n\n#\n");
    struct catalog cat;
    assert_int_equal(catalog_load(&cat, path, err, sizeof err), 0);
    assert_int_equal(cat.n, 0);
    assert_null(catalog_find(&cat, "x"));
    catalog_free(&cat);
}

static void test_load_project_catalog(void **state)
{
    (void)state;
    /* cases/clauses.txt loads (run from the repository root, as make unit does) */
    if (access("cases/clauses.txt", R_OK) != 0)
        skip();
    struct catalog cat;
    if (catalog_load(&cat, "cases/clauses.txt", err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_true(cat.n > 0);
    assert_non_null(catalog_find(&cat, "ewmh-1.5/basic/value-nonzero"));
    catalog_free(&cat);
}

static void test_err_missing_field(void **state)
{
    (void)state;
    /* the error points at the record's first line */
    expect_error(RECORD("a/one") "\n"
                 "clause:   a/two\nprofiles: ewmh-1.5\nkeyword:  MUST\nbinds:    wm\ntestable: yes\n"
                 "note:     no wording\n",
                 8, "clause record without `wording:`");
    expect_error("profiles: ewmh-1.5\nkeyword: MUST\nbinds: wm\ntestable: yes\nwording: w\n", 1,
                 "clause record without `clause:`");
    expect_error("\n\nclause: a\nprofiles: p\nkeyword: MUST\ntestable: yes\nwording: w\n\n", 3,
                 "clause record without `binds:`");
    expect_error("clause: a\nkeyword: MUST\nbinds: wm\ntestable: yes\nwording: w\n", 1,
                 "clause record without `profiles:`");
}

static void test_err_duplicate_id(void **state)
{
    (void)state;
    expect_error(RECORD("a/one") "\n" RECORD("a/two") "\n" RECORD("a/one"), 15,
                 "clause `a/one` listed twice (first at line 1)");
}

static void test_err_unknown_field(void **state)
{
    (void)state;
    expect_error(RECORD("a/one") "\nclause: a/two\nprofile: ewmh-1.5\n", 9,
                 "unknown field `profile:` (expected clause, profiles, section, keyword, binds, "
                 "testable, wording, note)");
}

static void test_err_field_twice(void **state)
{
    (void)state;
    expect_error("clause: a\nprofiles: p\nprofiles: q\n", 3, "field `profiles:` given twice in one record");
}

static void test_err_indented_without_field(void **state)
{
    (void)state;
    expect_error("   starts indented\n", 1, "indented line without a field before it");
    /* a blank line ends the record: what follows cannot continue it */
    expect_error(RECORD("a/one") "\n          continued after a blank\n", 8,
                 "indented line without a field before it");
    /* an unknown field has nothing to continue either (the error is the unknown field's) */
    expect_error("clause: a\nnotes: x\n   more\n", 2, "unknown field `notes:`");
}

static void test_err_no_colon(void **state)
{
    (void)state;
    expect_error(RECORD("a/one") "\nthis line has no colon\n", 8, "expected `field: value`");
}

static void test_err_cannot_read(void **state)
{
    (void)state;
    struct catalog cat;
    assert_int_equal(catalog_load(&cat, "/nonexistent/clauses.txt", err, sizeof err), -1);
    const char *want = "/nonexistent/clauses.txt: cannot read the clause catalog: ";
    assert_true(!strncmp(err, want, strlen(want)));
    assert_int_equal(cat.n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_load_two_records, teardown),
        cmocka_unit_test_teardown(test_load_empty_and_comments_only, teardown),
        cmocka_unit_test_teardown(test_load_project_catalog, teardown),
        cmocka_unit_test_teardown(test_err_missing_field, teardown),
        cmocka_unit_test_teardown(test_err_duplicate_id, teardown),
        cmocka_unit_test_teardown(test_err_unknown_field, teardown),
        cmocka_unit_test_teardown(test_err_field_twice, teardown),
        cmocka_unit_test_teardown(test_err_indented_without_field, teardown),
        cmocka_unit_test_teardown(test_err_no_colon, teardown),
        cmocka_unit_test_teardown(test_err_cannot_read, teardown),
    };
    return cmocka_run_group_tests_name("catalog", tests, NULL, NULL);
}
