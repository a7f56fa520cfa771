/* Unit tests for the screen stream's lines (harness/stream.c): frame and still lines, the stats
 * answer, taking lines out of the buffer (a picture's bytes left for stream_region), the log's
 * sentence, and an answer read before the wait is taken at once (not after the helper's next
 * line: on an idle screen that is the deadline, which made each probe wait seconds). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "../stream.h"

static void test_frame_line(void **state)
{
    (void)state;
    struct stream_frame f;
    assert_int_equal(stream_parse_frame("frame seq=7 t_us=25096571665 gap_us=0 damage=0,0,10,10 "
                                        "px=640,360:80815A px=10,20:FF000000", &f), 1);
    assert_false(f.still);
    assert_int_equal(f.seq, 7);
    assert_int_equal(f.t_us, 25096571665LL);
    assert_int_equal(f.gap_us, 0);
    assert_int_equal(f.npx, 2);
    assert_int_equal(f.px_x[0], 640);
    assert_int_equal(f.px_y[0], 360);
    assert_int_equal(f.px_rgb[0], 0x80815A);
    assert_int_equal(f.px_rgb[1], 0x000000); /* only the 24 bits of a colour */
    assert_int_equal(stream_parse_frame("frame seq=8 t_us=100 gap_us=6600", &f), 1);
    assert_int_equal(f.gap_us, 6600);
    assert_int_equal(f.npx, 0);
}

static void test_still_line(void **state)
{
    (void)state;
    struct stream_frame f;
    assert_int_equal(stream_parse_frame("still seq=7 t_us=25096664046 px=200,175:000000", &f), 1);
    assert_true(f.still);
    assert_int_equal(f.seq, 7);
    assert_int_equal(f.npx, 1);
}

static void test_frame_errors(void **state)
{
    (void)state;
    struct stream_frame f;
    assert_int_equal(stream_parse_frame("stats frames=1 span_us=2", &f), 0); /* another kind of line */
    assert_int_equal(stream_parse_frame("ready width=1280 height=720 refresh_mhz=60000", &f), 0);
    assert_int_equal(stream_parse_frame("frame seq=1 gap_us=0", &f), -1);            /* no time */
    assert_int_equal(stream_parse_frame("frame seq=1 t_us=0 gap_us=0", &f), -1);     /* no real time */
    assert_int_equal(stream_parse_frame("frame seq=1 t_us=5", &f), -1);              /* a frame says its gap */
    assert_int_equal(stream_parse_frame("frame seq=1 t_us=5 gap_us=0 px=1,2", &f), -1); /* no colour */
    char many[STREAM_MAX_POINTS * 24 + 64] = "frame seq=1 t_us=5 gap_us=0";
    for (int i = 0; i <= STREAM_MAX_POINTS; i++)
        snprintf(many + strlen(many), sizeof many - strlen(many), " px=%d,1:000000", i);
    assert_int_equal(stream_parse_frame(many, &f), -1); /* more points than were watched */
}

static void test_stats_line(void **state)
{
    (void)state;
    struct stream_stats st;
    assert_int_equal(stream_parse_stats("stats frames=62 span_us=5222000 gaps=1 gap_us=10233 failed=0 "
                                        "refresh_mhz=60000", &st), 0);
    assert_int_equal(st.frames, 62);
    assert_int_equal(st.span_us, 5222000);
    assert_int_equal(st.gaps, 1);
    assert_int_equal(st.gap_us, 10233);
    assert_int_equal(st.failed, 0);
    assert_int_equal(st.refresh_mhz, 60000);
    assert_int_equal(stream_parse_stats("stats frames=62 span_us=5 gaps=1 gap_us=1 refresh_mhz=60000", &st), -1);
    assert_int_equal(stream_parse_stats("frame frames=62 span_us=5 gaps=1 gap_us=1 failed=0 refresh_mhz=1", &st),
                     -1);
    char said[512];
    stream_describe(&(struct stream_stats){.frames = 65, .span_us = 5900000, .gaps = 1, .gap_us = 6600,
                                           .refresh_mhz = 60000}, said, sizeof said);
    assert_string_equal(said, "65 frames in 5.9 s (11.0 frames/s; the output refreshes at 60.000 Hz), 1 gaps "
                              "(6.6 ms in all) in which frames may be missing, 0 failed copies");
}

static void fill(struct stream *s, const char *bytes, size_t n)
{
    s->buf = realloc(s->buf, s->len + n);
    memcpy(s->buf + s->len, bytes, n);
    s->len += n;
    s->cap = s->len;
}

static void test_take_line(void **state)
{
    (void)state;
    struct stream s = {.fd = -1};
    char line[128];
    assert_false(stream_take_line(&s, line, sizeof line)); /* nothing yet */
    const char text[] = "frame seq=1 t_us=5 gap_us=0\nstill seq=1 t_us=6\nframe seq=2";
    fill(&s, text, strlen(text));
    assert_true(stream_take_line(&s, line, sizeof line));
    assert_string_equal(line, "frame seq=1 t_us=5 gap_us=0");
    assert_true(stream_take_line(&s, line, sizeof line));
    assert_string_equal(line, "still seq=1 t_us=6");
    assert_false(stream_take_line(&s, line, sizeof line)); /* a line not ended yet stays */
    assert_int_equal(s.len, strlen("frame seq=2"));
    s.len = 0;
    const char picture[] = "ppm len=4\nP6\n\nframe seq=3 t_us=7 gap_us=0\n";
    fill(&s, picture, strlen(picture));
    assert_false(stream_take_line(&s, line, sizeof line)); /* a picture's header and bytes: stream_region's */
    free(s.buf);
}

/* The answer is in the socket before the harness asks: taken at once, not at the deadline. */
static void test_answer_already_there(void **state)
{
    (void)state;
    int sv[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    const char answer[] = "stats frames=3 span_us=10 gaps=0 gap_us=0 failed=0 refresh_mhz=60000\n";
    assert_int_equal(write(sv[1], answer, strlen(answer)), (ssize_t)strlen(answer));
    struct stream s = {.fd = sv[0]};
    fcntl(s.fd, F_SETFL, fcntl(s.fd, F_GETFL) | O_NONBLOCK);
    struct stream_stats st;
    int64_t t0 = clock_now_us();
    assert_int_equal(stream_stats(&s, 3000, &st), 0);
    int64_t took_ms = (clock_now_us() - t0) / 1000;
    assert_int_equal(st.frames, 3);
    if (took_ms > 1000)
        fail_msg("the answer already read waited %lld ms for more", (long long)took_ms);
    stream_stop(&s); /* closes sv[0] */
    close(sv[1]);
}

/* a frame's row, run-length coded by the helper (tools/stream-proto.h), back to its pixels */
static void test_runs(void **state)
{
    (void)state;
    uint32_t px[8];
    const char *line = "frame seq=3 t_us=9 gap_us=0 row=3C6E1Ex2,-,0102A5x4,FFFFFF col=000000x8";
    assert_int_equal(stream_parse_runs(line, "row", px, 8), 0);
    assert_int_equal(px[0], 0x3C6E1E);
    assert_int_equal(px[1], 0x3C6E1E);
    assert_int_equal(px[2], STREAM_OUTSIDE);
    assert_int_equal(px[3], 0x0102A5);
    assert_int_equal(px[6], 0x0102A5);
    assert_int_equal(px[7], 0xFFFFFF);
    assert_int_equal(stream_parse_runs(line, "col", px, 8), 0);
    assert_int_equal(px[7], 0);
    assert_int_equal(stream_parse_runs(line, "col", px, 7), -1);  /* longer than asked */
    assert_int_equal(stream_parse_runs(line, "row", px, 9), -1);  /* shorter */
    assert_int_equal(stream_parse_runs("frame seq=1 t_us=2 gap_us=0", "row", px, 8), -1);
    assert_int_equal(stream_parse_runs("frame row=12345x8", "row", px, 8), -1);   /* 5 hex digits */
    assert_int_equal(stream_parse_runs("frame row=123456x1,123456x7", "row", px, 8), -1); /* x1 */
    assert_int_equal(stream_parse_runs("frame row=123456;123456x7", "row", px, 8), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frame_line),   cmocka_unit_test(test_still_line),
        cmocka_unit_test(test_frame_errors), cmocka_unit_test(test_stats_line),
        cmocka_unit_test(test_take_line),    cmocka_unit_test(test_answer_already_there),
        cmocka_unit_test(test_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
