/* Unit tests for the pure parts of the screen oracle: frame colours (common/frame-colour.h),
 * decoding a GetImage pixel, and the `shows` record. No X server needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame-colour.h"
#include "../oracle-screen.h"
#include "../oracle-windows.h"
#include "../timeline.h"

static void test_colour_round_trip(void **state)
{
    (void)state;
    for (uint32_t k = 0; k <= FRAME_COLOUR_MAX_FRAME; k++)
        assert_int_equal(frame_of_colour(frame_colour(k)), (int32_t)k);
    /* frames beyond 14 bits wrap */
    assert_int_equal(frame_of_colour(frame_colour(FRAME_COLOUR_MAX_FRAME + 1)), 0);
    assert_int_equal(frame_of_colour(frame_colour(FRAME_COLOUR_MAX_FRAME + 6)), 5);
}

static void test_colour_known_values(void **state)
{
    (void)state;
    assert_int_equal(frame_colour(0), 0x80805A);
    assert_int_equal(frame_colour(1), 0x80815A);
    assert_int_equal(frame_colour(2), 0x80825A);
    assert_int_equal(frame_colour(128), 0x81805A);
    assert_int_equal(frame_colour(FRAME_COLOUR_MAX_FRAME), 0xFFFF5A);
}

static void test_not_a_frame(void **state)
{
    (void)state;
    assert_int_equal(frame_of_colour(0x000000), -1); /* fake-wm's background */
    assert_int_equal(frame_of_colour(0xFFFFFF), -1);
    assert_int_equal(frame_of_colour(0x80805B), -1); /* marker off by one */
    assert_int_equal(frame_of_colour(0x7F805A), -1); /* red without its top bit */
    assert_int_equal(frame_of_colour(0x807F5A), -1); /* green without its top bit */
    assert_int_equal(frame_of_colour(0x40405A), -1); /* a 50% blend of frame 0 with black */
    /* the top byte (X or alpha) does not matter */
    assert_int_equal(frame_of_colour(0xFF80815A), 1);
}

static const struct pixel_format rgb888_lsb = {32, false, 0xFF0000, 0x00FF00, 0x0000FF};

static void test_decode_32bpp_lsb(void **state)
{
    (void)state;
    const uint8_t px[4] = {0x5A, 0x82, 0x80, 0x00}; /* B G R X, as Xvfb -screen 0 WxHx24 sends */
    uint32_t rgb = 0;
    assert_int_equal(screen_decode_pixel(&rgb888_lsb, px, sizeof px, &rgb), 0);
    assert_int_equal(rgb, 0x80825A);
    assert_int_equal(frame_of_colour(rgb), 2);
}

static void test_decode_32bpp_msb(void **state)
{
    (void)state;
    const struct pixel_format f = {32, true, 0xFF0000, 0x00FF00, 0x0000FF};
    const uint8_t px[4] = {0x00, 0x80, 0x82, 0x5A};
    uint32_t rgb = 0;
    assert_int_equal(screen_decode_pixel(&f, px, sizeof px, &rgb), 0);
    assert_int_equal(rgb, 0x80825A);
}

static void test_decode_24bpp_and_bgr_masks(void **state)
{
    (void)state;
    const struct pixel_format f = {24, false, 0x0000FF, 0x00FF00, 0xFF0000}; /* BGR visual */
    const uint8_t px[3] = {0x80, 0x82, 0x5A};
    uint32_t rgb = 0;
    assert_int_equal(screen_decode_pixel(&f, px, sizeof px, &rgb), 0);
    assert_int_equal(rgb, 0x80825A);
}

static void test_decode_16bpp_scales(void **state)
{
    (void)state;
    const struct pixel_format f = {16, false, 0xF800, 0x07E0, 0x001F}; /* RGB565 */
    const uint8_t white[2] = {0xFF, 0xFF}, red[2] = {0x00, 0xF8};
    uint32_t rgb = 0;
    assert_int_equal(screen_decode_pixel(&f, white, 2, &rgb), 0);
    assert_int_equal(rgb, 0xFFFFFF);
    assert_int_equal(screen_decode_pixel(&f, red, 2, &rgb), 0);
    assert_int_equal(rgb, 0xFF0000);
    /* 565 cannot carry the marker byte exactly: such a screen never decodes a frame */
    assert_int_equal(frame_of_colour(rgb), -1);
}

static void test_decode_rejects(void **state)
{
    (void)state;
    const uint8_t px[4] = {0};
    uint32_t rgb = 0;
    assert_int_equal(screen_decode_pixel(&rgb888_lsb, px, 3, &rgb), -1); /* short */
    const struct pixel_format odd = {12, false, 0xF00, 0x0F0, 0x00F};
    assert_int_equal(screen_decode_pixel(&odd, px, 4, &rgb), -1);
}

static void test_format_shows(void **state)
{
    (void)state;
    char line[512];
    assert_int_equal(screen_format_shows(line, sizeof line, "A", 14680065, frame_colour(2), 200, 175, true,
                                         "damage", 70, 1), 0);
    assert_string_equal(line, "shows client=A window=14680065 frame=2 rgb=80825A x=200 y=175 mapped=1 "
                              "via=damage rtt_us=70 changed=1");
    assert_int_equal(screen_format_shows(line, sizeof line, "B", 1, 0x000000, 0, 0, false, "map", 5, -1), 0);
    assert_string_equal(line, "shows client=B window=1 frame=-1 rgb=000000 x=0 y=0 mapped=0 via=map rtt_us=5 "
                              "changed=unknown");
    /* too small a buffer is an error, not a cut record */
    assert_int_equal(screen_format_shows(line, 20, "A", 1, 0, 0, 0, false, "map", 5, 0), -1);
}

/* What the oracle makes is a record the cases can filter on. */
static void test_shows_is_a_record(void **state)
{
    (void)state;
    char line[512];
    screen_format_shows(line, sizeof line, "A", 7, frame_colour(300), 10, 20, true, "poll", 9, 0);
    struct record *r = record_make("screen", 1234, "%s", line);
    assert_non_null(r);
    assert_string_equal(r->kind, "shows");
    assert_string_equal(record_get(r, "client"), "A");
    assert_string_equal(record_get(r, "frame"), "300");
    assert_string_equal(record_get(r, "mapped"), "1");
    assert_true(r->t_us == 1234);
    record_free(r);
}

/* What was behind a window is what was seen at the same point while it was unmapped: a WM that
 * moves the window at its map (a title bar) makes the old point's colour meaningless, and a frame
 * colour seen before the oracle heard of the map is the window's, not the background's. */
static void test_behind(void **state)
{
    (void)state;
    struct screen_behind b = {0};
    assert_int_equal(screen_behind_changed(&b, 200, 175, 0x123353), -1);
    screen_behind_note(&b, false, 200, 175, 0x123353);
    assert_int_equal(screen_behind_changed(&b, 200, 175, 0x123353), 0);
    assert_int_equal(screen_behind_changed(&b, 200, 175, frame_colour(1)), 1);
    /* reparented 37 px down: nothing known there yet, and the gradient differs there */
    assert_int_equal(screen_behind_changed(&b, 200, 212, 0x133555), -1);
    screen_behind_note(&b, false, 200, 212, 0x133555);
    assert_int_equal(screen_behind_changed(&b, 200, 212, 0x133555), 0);
    /* mapped samples and frame colours never become the background */
    screen_behind_note(&b, true, 200, 212, 0x445566);
    screen_behind_note(&b, false, 200, 212, frame_colour(7));
    assert_int_equal(screen_behind_changed(&b, 200, 212, 0x133555), 0);
    assert_int_equal(screen_behind_changed(&b, 200, 212, 0x140000), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_colour_round_trip),    cmocka_unit_test(test_colour_known_values),
        cmocka_unit_test(test_not_a_frame),          cmocka_unit_test(test_decode_32bpp_lsb),
        cmocka_unit_test(test_decode_32bpp_msb),     cmocka_unit_test(test_decode_24bpp_and_bgr_masks),
        cmocka_unit_test(test_decode_16bpp_scales),  cmocka_unit_test(test_decode_rejects),
        cmocka_unit_test(test_format_shows),         cmocka_unit_test(test_shows_is_a_record),
        cmocka_unit_test(test_behind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
