/* Unit tests for records and the timeline (harness/timeline.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../timeline.h"

static void test_parse_fields(void **state)
{
    (void)state;
    struct record *r = record_parse("A", "sync-request t=1234567 value=5 l0=301 window=0x200001");
    assert_non_null(r);
    assert_string_equal(r->source, "A");
    assert_string_equal(r->kind, "sync-request");
    assert_true(r->t_us == 1234567);
    assert_int_equal(r->seq, 0); /* not in a timeline yet */
    assert_int_equal(r->nfields, 3); /* t is not a field */
    assert_string_equal(r->fields[0].key, "value");
    assert_string_equal(r->fields[0].value, "5");
    assert_string_equal(record_get(r, "l0"), "301");
    assert_string_equal(record_get(r, "window"), "0x200001");
    assert_null(record_get(r, "t"));
    assert_null(record_get(r, "missing"));
    assert_string_equal(r->line, "sync-request t=1234567 value=5 l0=301 window=0x200001");
    record_free(r);
}

static void test_parse_spacing_and_empty_values(void **state)
{
    (void)state;
    struct record *r = record_parse("screen", "   frame   t=0    colour=red   empty= ");
    assert_non_null(r);
    assert_string_equal(r->kind, "frame");
    assert_true(r->t_us == 0);
    assert_int_equal(r->nfields, 2);
    assert_string_equal(record_get(r, "colour"), "red");
    assert_string_equal(record_get(r, "empty"), "");
    assert_string_equal(r->line, "frame   t=0    colour=red   empty= "); /* leading spaces dropped */
    record_free(r);

    /* a kind alone has no time */
    assert_null(record_parse("A", "ready"));
}

static void test_parse_msg_takes_rest(void **state)
{
    (void)state;
    struct record *r = record_parse("A", "error t=10 cmd=map msg=no such window: 0x1 value=3  end");
    assert_non_null(r);
    assert_int_equal(r->nfields, 2);
    assert_string_equal(record_get(r, "cmd"), "map");
    assert_string_equal(record_get(r, "msg"), "no such window: 0x1 value=3  end");
    assert_null(record_get(r, "value"));
    record_free(r);

    /* only the key `msg` does that */
    r = record_parse("A", "note t=10 msgs=a b=c");
    assert_non_null(r);
    assert_string_equal(record_get(r, "msgs"), "a");
    assert_string_equal(record_get(r, "b"), "c");
    record_free(r);

    /* t after msg= is part of the message */
    assert_null(record_parse("A", "note msg=hello t=5"));
}

static void test_parse_source_truncated(void **state)
{
    (void)state;
    struct record *r = record_parse("a-source-name-that-is-longer-than-31-bytes", "x t=1");
    assert_non_null(r);
    assert_int_equal(strlen(r->source), sizeof r->source - 1);
    record_free(r);
}

static void test_parse_malformed(void **state)
{
    (void)state;
    assert_null(record_parse("A", "sync-request value=5"));        /* no t */
    assert_null(record_parse("A", ""));
    assert_null(record_parse("A", "    "));
    assert_null(record_parse("A", "sync-request t=5 value"));      /* a token without = */
    assert_null(record_parse("A", "sync-request t=5 =5"));         /* no key */
    assert_null(record_parse("A", "sync-request bare t=5 a=b"));
    assert_null(record_parse("A", "sync-request t=-1"));           /* time before the clock */
    /* a t that is not a number is malformed, not time 0 */
    assert_null(record_parse("A", "sync-request t=abc value=5"));
    assert_null(record_parse("A", "sync-request t= value=5"));
    assert_null(record_parse("A", "sync-request t=12x value=5"));
}

static void test_parse_too_many_fields(void **state)
{
    (void)state;
    char line[1024] = "many t=1";
    for (int i = 0; i < RECORD_MAX_FIELDS + 6; i++)
        snprintf(line + strlen(line), sizeof line - strlen(line), " k%d=%d", i, i);
    struct record *r = record_parse("A", line);
    assert_non_null(r);
    assert_int_equal(r->nfields, RECORD_MAX_FIELDS); /* the rest is dropped from matching */
    assert_string_equal(record_get(r, "k0"), "0");
    assert_null(record_get(r, "k25"));
    assert_string_equal(r->line, line); /* ... and kept in the line */
    record_free(r);
}

static void test_record_make(void **state)
{
    (void)state;
    struct record *r = record_make("harness", 5000, "step n=%d msg=%s", 3, "wait A map-notify within 2000");
    assert_non_null(r);
    assert_string_equal(r->source, "harness");
    assert_string_equal(r->kind, "step");
    assert_true(r->t_us == 5000);
    assert_string_equal(record_get(r, "n"), "3");
    assert_string_equal(record_get(r, "msg"), "wait A map-notify within 2000");
    assert_string_equal(r->line, "step t=5000 n=3 msg=wait A map-notify within 2000");
    record_free(r);

    r = record_make("harness", 42, "case-begin");
    assert_non_null(r);
    assert_string_equal(r->kind, "case-begin");
    assert_int_equal(r->nfields, 0);
    assert_string_equal(r->line, "case-begin t=42");
    record_free(r);

    r = record_make("harness", 9000000000LL, "x");
    assert_non_null(r);
    assert_true(r->t_us == 9000000000LL);
    record_free(r);

    record_free(NULL);
}

static void test_timeline_add_seq(void **state)
{
    (void)state;
    struct timeline tl;
    timeline_init(&tl, 1000);
    assert_int_equal(tl.n, 0);
    assert_true(tl.start_us == 1000);
    for (int i = 0; i < 200; i++) { /* past the first allocation */
        struct record *r = record_make("A", 1000 + i, "rec i=%d", i);
        assert_ptr_equal(timeline_add(&tl, r), r);
        assert_int_equal(r->seq, i + 1);
    }
    assert_int_equal(tl.n, 200);
    assert_int_equal(tl.recs[0]->seq, 1);
    assert_int_equal(tl.recs[199]->seq, 200);
    assert_string_equal(record_get(tl.recs[63], "i"), "63");
    assert_string_equal(record_get(tl.recs[64], "i"), "64");
    timeline_free(&tl);
    assert_int_equal(tl.n, 0);
    assert_null(tl.recs);
    timeline_free(&tl); /* twice is harmless */
}

static char *print_timeline(const struct timeline *tl, const char *prefix, int mark)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    timeline_print(tl, f, prefix, mark);
    fclose(f);
    return text;
}

static void test_timeline_print(void **state)
{
    (void)state;
    struct timeline tl;
    timeline_init(&tl, 1000000);
    timeline_add(&tl, record_parse("harness", "step t=999000 n=1"));
    timeline_add(&tl, record_parse("A", "map-notify t=1000000"));
    timeline_add(&tl, record_parse("A", "sync-request t=1012345 value=5 l0=301"));
    timeline_add(&tl, record_parse("wm", "error t=1234567890 msg=two words"));

    char *text = print_timeline(&tl, "    ", 3);
    assert_string_equal(text,
                        "       -1.000 ms  harness  step n=1\n"
                        "       +0.000 ms  A        map-notify\n"
                        "      +12.345 ms  A        sync-request value=5 l0=301   <-- here\n"
                        "    +1233567.890 ms  wm       error msg=two words\n");
    free(text);

    /* no mark, no prefix */
    text = print_timeline(&tl, "", 0);
    assert_null(strstr(text, "<-- here"));
    assert_true(!strncmp(text, "   -1.000 ms  harness  step n=1\n", 32));
    free(text);

    /* a mark past the end marks nothing */
    text = print_timeline(&tl, "", 99);
    assert_null(strstr(text, "<-- here"));
    free(text);

    /* record_print: one record, no newline */
    char *one = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&one, &len);
    record_print(&tl, tl.recs[1], f);
    fclose(f);
    assert_string_equal(one, "   +0.000 ms  A        map-notify");
    free(one);

    timeline_free(&tl);

    /* an empty timeline prints nothing */
    timeline_init(&tl, 0);
    text = print_timeline(&tl, "    ", 1);
    assert_string_equal(text, "");
    free(text);
    timeline_free(&tl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_fields),
        cmocka_unit_test(test_parse_spacing_and_empty_values),
        cmocka_unit_test(test_parse_msg_takes_rest),
        cmocka_unit_test(test_parse_source_truncated),
        cmocka_unit_test(test_parse_malformed),
        cmocka_unit_test(test_parse_too_many_fields),
        cmocka_unit_test(test_record_make),
        cmocka_unit_test(test_timeline_add_seq),
        cmocka_unit_test(test_timeline_print),
    };
    return cmocka_run_group_tests_name("timeline", tests, NULL, NULL);
}
