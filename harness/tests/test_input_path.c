/* Unit tests for the input path's first line and its check against the X root
 * (harness/input-path.c): the helper's `ready`, its own error, and what the harness refuses; the
 * kinds of barrier before its events (common/input-barrier.c) and --input-barrier (options.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <getopt.h>
#include <string.h>

#include "../input-path.h"
#include "../options.h"
#include "input-barrier.h"

static void test_ready_line(void **state)
{
    (void)state;
    struct input_path ip;
    char err[512] = "";
    memset(&ip, 0, sizeof ip);
    assert_int_equal(input_path_parse_ready("ready x=0 y=0 width=1024 height=768", &ip, err, sizeof err), 0);
    assert_int_equal(ip.x, 0);
    assert_int_equal(ip.width, 1024);
    assert_int_equal(ip.height, 768);
    /* fields added later are ignored */
    assert_int_equal(input_path_parse_ready("ready x=5 y=6 width=7 height=8 stream=/a", &ip, err, sizeof err), 0);
    assert_int_equal(ip.y, 6);
}

static void test_ready_line_errors(void **state)
{
    (void)state;
    struct input_path ip;
    char err[512] = "";
    memset(&ip, 0, sizeof ip);
    assert_int_equal(input_path_parse_ready("error msg=no session bus: nope", &ip, err, sizeof err), -1);
    assert_string_equal(err, "no session bus: nope");
    assert_int_equal(input_path_parse_ready("hello", &ip, err, sizeof err), -1);
    assert_string_equal(err, "its first line is `hello`, not `ready x=X y=Y width=W height=H`");
    assert_int_equal(input_path_parse_ready("ready x=0 y=0 width=10 height=10x", &ip, err, sizeof err), -1);
    assert_int_equal(input_path_parse_ready("ready x=0 y=0 width=0 height=10", &ip, err, sizeof err), -1);
    assert_string_equal(err, "it reports an empty monitor (0x10)");
}

static void test_geometry(void **state)
{
    (void)state;
    struct input_path ip = {.x = 0, .y = 0, .width = 1024, .height = 768};
    char err[512] = "";
    assert_int_equal(input_path_check_geometry(&ip, 1024, 768, err, sizeof err), 0);
    assert_int_equal(input_path_check_geometry(&ip, 1280, 1024, err, sizeof err), -1);
    assert_non_null(strstr(err, "its monitor is 1024x768 at 0,0 on the stage, but the X root is 1280x1024"));
    ip.x = 10;
    assert_int_equal(input_path_check_geometry(&ip, 1024, 768, err, sizeof err), -1);
}

/* The kinds by name and back; nothing else is one (a prefix, another case, empty, NULL). */
static void test_barrier_kinds(void **state)
{
    (void)state;
    assert_int_equal(input_barrier_parse("none"), INPUT_BARRIER_NONE);
    assert_int_equal(input_barrier_parse("fullscreen-monitors"), INPUT_BARRIER_FULLSCREEN_MONITORS);
    assert_string_equal(input_barrier_name(INPUT_BARRIER_FULLSCREEN_MONITORS), "fullscreen-monitors");
    assert_string_equal(input_barrier_name(INPUT_BARRIER_NONE), "none");
    assert_string_equal(input_barrier_name(-1), "none");
    assert_string_equal(input_barrier_name(INPUT_BARRIER_COUNT), "none");
    const char *not_kinds[] = {"fullscreen", "fullscreen-monitors ", "Fullscreen-Monitors", "", "net-wm-state"};
    for (size_t i = 0; i < sizeof not_kinds / sizeof not_kinds[0]; i++)
        assert_int_equal(input_barrier_parse(not_kinds[i]), -1);
    assert_int_equal(input_barrier_parse(NULL), -1);
}

/* options_parse on the words given (getopt restarted); its result */
static int parse_options(struct options *o, char **words, int n)
{
    char *argv[16] = {"framesync"};
    for (int i = 0; i < n && i < 14; i++)
        argv[i + 1] = words[i];
    optind = 0;
    return options_parse(n + 1, argv, o);
}

/* --input-barrier: a kind, with an input path; none is the default; a wrong kind, or a barrier
 * with no input path to order, is a usage error. */
static void test_barrier_option(void **state)
{
    (void)state;
    struct options o;
    assert_int_equal(parse_options(&o, (char *[]){"--input", "seat", "--input-barrier", "fullscreen-monitors"}, 4), 0);
    assert_int_equal(o.input_barrier, INPUT_BARRIER_FULLSCREEN_MONITORS);
    assert_int_equal(parse_options(&o, (char *[]){"--input", "seat"}, 2), 0);
    assert_int_equal(o.input_barrier, INPUT_BARRIER_NONE);
    assert_int_equal(parse_options(&o, (char *[]){"--input-barrier", "none"}, 2), 0);
    assert_int_equal(parse_options(&o, (char *[]){"--input", "seat", "--input-barrier", "demands-attention"}, 4), -1);
    assert_int_equal(parse_options(&o, (char *[]){"--input-barrier", "fullscreen-monitors"}, 2), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ready_line),
        cmocka_unit_test(test_ready_line_errors),
        cmocka_unit_test(test_geometry),
        cmocka_unit_test(test_barrier_kinds),
        cmocka_unit_test(test_barrier_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
