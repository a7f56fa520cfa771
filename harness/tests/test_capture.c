/* Unit tests for the pure parts of the screen capture (harness/capture.c): the PPM a
 * screen-capture command writes, the command for a region, the pixel lookup. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../capture.h"

static void test_ppm_decode(void **state)
{
    (void)state;
    const uint8_t data[] = "P6\n# made by a test\n2 1\n255\n\x80\x81\x5a\x01\x02\x03";
    struct image im;
    char err[256];
    assert_int_equal(ppm_decode(data, sizeof data - 1, &im, err, sizeof err), 0);
    assert_int_equal(im.w, 2);
    assert_int_equal(im.h, 1);
    assert_int_equal(image_pixel(&im, 0, 0), 0x80815A);
    assert_int_equal(image_pixel(&im, 1, 0), 0x010203);
    assert_int_equal(image_pixel(&im, 2, 0), -1);
    assert_int_equal(image_pixel(&im, 0, -1), -1);
    image_free(&im);
}

static void test_ppm_maxval_scaled(void **state)
{
    (void)state;
    const uint8_t data[] = "P6 1 1 15\n\x0f\x00\x07";
    struct image im;
    char err[256];
    assert_int_equal(ppm_decode(data, sizeof data - 1, &im, err, sizeof err), 0);
    assert_int_equal(image_pixel(&im, 0, 0), 0xFF0077);
    image_free(&im);
}

static void test_ppm_refused(void **state)
{
    (void)state;
    struct image im;
    char err[256];
    assert_int_equal(ppm_decode((const uint8_t *)"P3\n1 1\n255\n0 0 0\n", 16, &im, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a binary PPM"));
    assert_int_equal(ppm_decode((const uint8_t *)"P6\n2 2\n255\nabc", 14, &im, err, sizeof err), -1);
    assert_non_null(strstr(err, "3 of its 12 bytes"));
    assert_int_equal(ppm_decode((const uint8_t *)"P6\n1 1\n65535\nabcdef", 19, &im, err, sizeof err), -1);
    assert_non_null(strstr(err, "8-bit only"));
    assert_int_equal(ppm_decode((const uint8_t *)"", 0, &im, err, sizeof err), -1);
}

static void test_command_for(void **state)
{
    (void)state;
    char out[256];
    capture_command_for("grim -t ppm -g \"{x},{y} {w}x{h}\" -", 0, 10, 20, 30, 40, out, sizeof out);
    assert_string_equal(out, "grim -t ppm -g \"10,20 30x40\" -");
    capture_command_for("shot {x} {x}", 0, 1, 2, 3, 4, out, sizeof out);
    assert_string_equal(out, "shot 1 1");
    capture_command_for("weston-capture {window} {x} {y} {w} {h}", 0x40000a, 1, 2, 3, 4, out, sizeof out);
    assert_string_equal(out, "weston-capture 4194314 1 2 3 4");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ppm_decode),
        cmocka_unit_test(test_ppm_maxval_scaled),
        cmocka_unit_test(test_ppm_refused),
        cmocka_unit_test(test_command_for),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
