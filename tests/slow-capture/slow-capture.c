/* slow-capture: a sampling screen capture (`screen-capture:`, harness/capture.h) whose pictures are
 * true but slow, as KWin's screenshot or mutter's ScreenCast are (70-400 ms a picture): the proof
 * that the harness judges what a sampler can and cannot tell (tests/test_sampler.py).  It writes a
 * binary PPM of the region of the X root (GetImage: on an X server whose WM composites, the screen
 * itself), taken in the middle of its run:
 *
 *   slow-capture [--latency-ms N] [--window ID] X Y W H      (N: 60 by default)
 *
 * With --window (a template with {window}) the harness takes one window a picture, in turn, as it
 * does for weston (tools/weston-capture); the region is the root's all the same.
 * N ms pass before the picture is taken and N ms after it, so the harness knows only that the
 * picture shows the screen at some moment of the span of the process, as with a real sampler.  The
 * waits stand in for the latency of a screenshot API; they order nothing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xcb/xcb.h>

static int fail(const char *what)
{
    fprintf(stderr, "slow-capture: %s\n", what);
    return 1;
}

/* The latency a real screenshot API has: until CLOCK_MONOTONIC has moved on by ms. */
static void spend(long ms)
{
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += ms / 1000;
    until.tv_nsec += (ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
        ;
}

/* One pixel of a 24/32-bit ZPixmap (little-endian BGRx, as Xvfb's) as the PPM's R, G, B bytes. */
static void put_rgb(const uint8_t *px)
{
    putchar(px[2]);
    putchar(px[1]);
    putchar(px[0]);
}

int main(int argc, char **argv)
{
    long latency = 60;
    int a = 1;
    for (; a + 1 < argc && !strncmp(argv[a], "--", 2); a += 2) {
        if (!strcmp(argv[a], "--latency-ms"))
            latency = strtol(argv[a + 1], NULL, 10);
        else if (!strcmp(argv[a], "--window")) /* X coordinates are true here: the window changes nothing */
            fprintf(stderr, "slow-capture: a picture of window %s\n", argv[a + 1]); /* the proof's evidence */
        else
            break;
    }
    if (argc - a != 4 || latency < 0 || latency > 5000)
        return fail("usage: slow-capture [--latency-ms N] [--window ID] X Y W H (a binary PPM of that region of the "
                    "root)");
    int x = atoi(argv[a]), y = atoi(argv[a + 1]), w = atoi(argv[a + 2]), h = atoi(argv[a + 3]);
    if (w <= 0 || h <= 0 || w > 16384 || h > 16384)
        return fail("an empty or too large region");
    xcb_connection_t *c = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(c))
        return fail("cannot open the display named by DISPLAY");
    xcb_screen_t *s = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
    if (s->root_depth != 24 && s->root_depth != 32)
        return fail("the root is not 24 or 32 bits deep");
    spend(latency);
    xcb_get_image_reply_t *img = xcb_get_image_reply(
        c, xcb_get_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, s->root, (int16_t)x, (int16_t)y, (uint16_t)w, (uint16_t)h, ~0u),
        NULL);
    if (!img)
        return fail("GetImage of the root failed (is the region on the screen?)");
    const uint8_t *data = xcb_get_image_data(img);
    size_t stride = (size_t)xcb_get_image_data_length(img) / (size_t)h;
    spend(latency);
    printf("P6\n%d %d\n255\n", w, h);
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++)
            put_rgb(data + (size_t)j * stride + (size_t)i * 4);
    free(img);
    xcb_disconnect(c);
    return fflush(stdout) == 0 ? 0 : 1;
}
