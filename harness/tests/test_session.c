/* Unit tests for the cursors of `wait`/`none` (harness/session.c): which record a step takes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../session.h"

static void add(struct session *s, const char *source, const char *line)
{
    struct record *r = record_parse(source, line);
    assert_non_null(r);
    session_add_record(s, r);
}

static bool client_is(void *ctx, const struct record *r)
{
    const char *c = record_get(r, "client");
    return c && !strcmp(c, (const char *)ctx);
}

/* The compositor painted B before A; the case waits for A, then for B. */
static void test_screen_cursor_per_client(void **state)
{
    (void)state;
    struct session s;
    session_init(&s, "unused", "unused");
    add(&s, "screen", "shows t=10 client=B frame=11");
    add(&s, "screen", "shows t=20 client=A frame=1");
    const struct record *a = session_find_about(&s, "screen", "shows", "A", client_is, "A", true);
    assert_non_null(a);
    assert_string_equal(record_get(a, "frame"), "1");
    const struct record *b = session_find_about(&s, "screen", "shows", "B", client_is, "B", true);
    assert_non_null(b);
    assert_string_equal(record_get(b, "frame"), "11");
    /* taken: a second wait for B needs a later record */
    assert_null(session_find_about(&s, "screen", "shows", "B", client_is, "B", true));
    add(&s, "screen", "shows t=30 client=B frame=12");
    b = session_find_about(&s, "screen", "shows", "B", client_is, "B", true);
    assert_non_null(b);
    assert_string_equal(record_get(b, "frame"), "12");
    session_free(&s);
}

/* Without a subject the cursor is shared by the kind: the next record after the last taken. */
static void test_cursor_per_kind(void **state)
{
    (void)state;
    struct session s;
    session_init(&s, "unused", "unused");
    add(&s, "A", "sync-request t=10 value=2");
    add(&s, "A", "sync-request t=20 value=4");
    const struct record *r = session_find(&s, "A", "sync-request", NULL, NULL, true);
    assert_string_equal(record_get(r, "value"), "2");
    r = session_find(&s, "A", "sync-request", NULL, NULL, false); /* a look, not a take */
    assert_string_equal(record_get(r, "value"), "4");
    r = session_find(&s, "A", "sync-request", NULL, NULL, true);
    assert_string_equal(record_get(r, "value"), "4");
    assert_null(session_find(&s, "A", "sync-request", NULL, NULL, true));
    session_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_screen_cursor_per_client),
        cmocka_unit_test(test_cursor_per_kind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
