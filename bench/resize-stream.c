/* The resize cell's capture on a compositor that brings its X server (resize.h): a Wayland
 * compositor's Xwayland composites nothing to its root, so the capture is fed by the compositor's
 * own screen stream (`screen-stream:` of its conf, harness/stream.h: tools/wlr-capture,
 * tools/mutter-stream) in place of root DAMAGE and GetImage.  The helper reports, with every frame
 * the compositor composites, the same row and column the root capture reads (run-length coded:
 * tools/stream-proto.h); each is decoded as a root line is, with the window's geometry asked of the
 * X server when the frame line arrives (no grab can hold a Wayland compositor's paint still: the
 * geometry is the server's a fraction of a millisecond after the frame, a newer one at worst).
 *
 * A frame's time (damage_us) is the stream's: the compositor's commit for wlr-capture, its
 * recording after the paint for mutter (the paint lies after the frame before).  A frame line with
 * a gap says no copy was pending for that long: frames may be missing there; the cell's `resize`
 * row counts them (capture_gaps), so a capture that drops frames says so. */
#include "resize.h"
#include "clock.h"
#include "stream.h"
#include "xhelpers.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CROP_WAIT_MS 500
#define LINE_TEXT (16 * (LINE_W + LINE_H) + 512) /* a frame line: runs of at most 16 characters */

bool resize_read_geometry(const struct resize_capture *cp, struct capture_rec *r)
{
    xcb_translate_coordinates_cookie_t tc = xcb_translate_coordinates(cp->c, cp->win, cp->root, 0, 0);
    xcb_get_geometry_cookie_t gc = xcb_get_geometry(cp->c, cp->win);
    xcb_translate_coordinates_reply_t *t = xcb_translate_coordinates_reply(cp->c, tc, NULL);
    xcb_get_geometry_reply_t *g = xcb_get_geometry_reply(cp->c, gc, NULL);
    bool ok = t && g;
    if (ok) {
        r->gx = (int16_t)(t->dst_x - cp->left0);
        r->gy = (int16_t)(t->dst_y - cp->top0);
        r->gw = g->width;
        r->gh = g->height;
    }
    free(t);
    free(g);
    return ok;
}

static void count_frame(struct resize_capture *cp, const struct stream_frame *f)
{
    if (f->still)
        return;
    if (!cp->stream_frames++)
        cp->stream_first_us = f->t_us;
    cp->stream_last_us = f->t_us;
    if (f->gap_us > 0) {
        cp->stream_gaps++;
        cp->stream_gap_us += f->gap_us;
    }
}

/* One frame (or the `still` answer to the watch: what was shown when the capture began) */
static void take_frame(struct resize_capture *cp, const char *line, const struct stream_frame *f)
{
    static uint32_t row[LINE_W], col[LINE_H];
    /* a frame line before a `still` may be an earlier cell's, buffered with that cell's lines on it:
     * the answer to an earlier cell's unwatch, or to this cell's watch, comes first (with no lines on
     * it while nothing was composited yet) */
    if (f->still)
        cp->watch_answered = true;
    else if (!cp->watch_answered)
        return;
    int k = atomic_load(&cp->n);
    if (k >= MAX_CAPTURES || stream_parse_runs(line, "row", row, LINE_W) < 0 ||
        stream_parse_runs(line, "col", col, LINE_H) < 0)
        return; /* a line from before the watch (no lines on it), or a full cell */
    count_frame(cp, f);
    atomic_store(&cp->corner_rgb, row[PAD + INSET]);
    struct capture_rec *r = &cp->recs[k];
    r->damage_us = f->t_us;
    r->sample_us = clock_now_us();
    if (!resize_read_geometry(cp, r))
        return;
    r->row = resize_decode_line(cp, row, LINE_W);
    r->col = resize_decode_line(cp, col, LINE_H);
    resize_capture_keep(cp, k);
}

static void *stream_run(void *arg)
{
    struct resize_capture *cp = arg;
    static char line[LINE_TEXT];
    for (;;) {
        struct pollfd p[2] = {{.fd = cp->stream->fd, .events = POLLIN}, {.fd = cp->stop[0], .events = POLLIN}};
        if (poll(p, 2, 1000) < 0 && errno != EINTR)
            break;
        if (p[1].revents || stream_fill(cp->stream) < 0)
            break;
        struct stream_frame f;
        while (stream_take_line(cp->stream, line, sizeof line))
            if (stream_parse_frame(line, &f) == 1)
                take_frame(cp, line, &f);
    }
    return NULL;
}

uint8_t *resize_stream_crop(struct resize_capture *cp)
{
    struct image img = {0};
    char err[256];
    if (stream_region(cp->stream, cp->left0 - PAD, cp->top0 - PAD, LINE_W, LINE_H, CROP_WAIT_MS, &img, err,
                      sizeof err) < 0 || img.w != LINE_W || img.h != LINE_H) {
        free(img.rgb);
        return NULL;
    }
    return img.rgb;
}

int resize_capture_start_stream(struct resize_capture *cp, struct stream *s, xcb_window_t win, int left0, int top0,
                                char *err, size_t errlen)
{
    if (resize_capture_init(cp, win, left0, top0, err, errlen) < 0)
        return -1;
    cp->stream = s;
    cp->refresh_mhz = s->refresh_mhz;
    cp->recorded_times = s->recorded_times;
    if (left0 - PAD < 0 || top0 - PAD < 0 || left0 - PAD + LINE_W > s->width || top0 - PAD + LINE_H > s->height) {
        snprintf(err, errlen, "the capture's lines (%dx%d from %d,%d) do not fit the stream's %dx%d output", LINE_W,
                 LINE_H, left0 - PAD, top0 - PAD, s->width, s->height);
        return -1;
    }
    if (stream_watch_lines(s, left0 - PAD, top0 + INSET, LINE_W, left0 + INSET, top0 - PAD, LINE_H) < 0) {
        snprintf(err, errlen, "the compositor's screen stream has ended");
        return -1;
    }
    if (pipe2(cp->stop, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    if (pthread_create(&cp->thread, NULL, stream_run, cp) != 0) {
        snprintf(err, errlen, "cannot start the capture thread");
        return -1;
    }
    cp->started = true;
    return 0;
}
