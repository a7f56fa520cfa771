/* Unit tests for the input path's first line and its check against the X root
 * (harness/input-path.c): the helper's `ready`, its own error, and what the harness refuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../input-path.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ready_line),
        cmocka_unit_test(test_ready_line_errors),
        cmocka_unit_test(test_geometry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
