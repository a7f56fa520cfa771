/* The resize cell's capture on a compositor that brings its X server and has no screen stream, only
 * pictures (`screen-capture:` of its conf, harness/capture.h: tools/kwin-screenshot for KWin, whose
 * screencast records nothing on its virtual backend): the lines' area is pictured again and again,
 * one picture under way at a time, and each picture's row and column are decoded as root lines
 * are, with the window's geometry asked of the X server when the picture came.
 *
 * A sampler sees some frames, not every one (a picture takes 30-300 ms): the glitched share of its
 * pictures estimates the share of the time the window looked wrong, but the steps it sees and their
 * lag are not the compositor's, and the `resize` row says `capture_via: sampled` so that the report
 * gives neither.  The pictures are taken from the cell's own thread (resize_client_turn polls the
 * one under way): the harness's process handling, which runs them, is not shared between threads. */
#include "resize.h"
#include "capture.h"
#include "clock.h"

#include <stdlib.h>
#include <string.h>

static void begin_next(struct resize_capture *cp)
{
    char err[256];
    cp->job_running = capture_begin(cp->sampler, 0, cp->left0 - PAD, cp->top0 - PAD, LINE_W, LINE_H, &cp->job, err,
                                    sizeof err) == 0;
    if (!cp->job_running)
        cp->sample_failures++;
}

/* the picture's row and column (LINE_W x LINE_H from PAD before the corner), decoded */
static void take_picture(struct resize_capture *cp, const struct image *im)
{
    int k = atomic_load(&cp->n);
    if (k >= MAX_CAPTURES || im->w != LINE_W || im->h != LINE_H)
        return;
    uint32_t row[LINE_W], col[LINE_H];
    resize_picture_lines(im->rgb, row, col);
    struct capture_rec *r = &cp->recs[k];
    r->damage_us = cp->job.t_begin; /* the screen at some time between the picture's start and end */
    r->sample_us = cp->job.t_end;
    if (!resize_read_geometry(cp, r))
        return;
    if (!cp->stream_frames++)
        cp->stream_first_us = r->sample_us;
    cp->stream_last_us = r->sample_us;
    atomic_store(&cp->corner_rgb, row[PAD + INSET]);
    free(cp->latest.rgb);
    cp->latest = *im; /* kept for a picture of a glitched frame (resize_sampled_crop) */
    r->row = resize_decode_line(cp, row, LINE_W);
    r->col = resize_decode_line(cp, col, LINE_H);
    resize_capture_keep(cp, k);
}

int resize_sampler_fd(const struct resize_capture *cp)
{
    return cp->sampler && cp->job_running ? cp->job.fd : -1;
}

void resize_sampler_turn(struct resize_capture *cp)
{
    if (!cp->sampler || !cp->started)
        return;
    if (!cp->job_running) {
        begin_next(cp);
        return;
    }
    int r = capture_read(&cp->job);
    if (r == 0 && clock_now_us() < cp->job.t_begin + (int64_t)cp->sampler->timeout_ms * 1000)
        return;
    struct image im = {0};
    char err[256];
    if (r == 1 && capture_end(&cp->job, &im, err, sizeof err) == 0) {
        take_picture(cp, &im);
        if (cp->latest.rgb != im.rgb)
            image_free(&im);
    } else {
        capture_cancel(&cp->job);
        cp->sample_failures++;
    }
    cp->job_running = false;
    begin_next(cp);
}

uint8_t *resize_sampled_crop(const struct resize_capture *cp)
{
    if (!cp->latest.rgb)
        return NULL;
    size_t n = (size_t)LINE_W * LINE_H * 3;
    uint8_t *copy = malloc(n);
    memcpy(copy, cp->latest.rgb, n);
    return copy;
}

int resize_capture_start_sampled(struct resize_capture *cp, const struct capture *sampler, xcb_window_t win,
                                 int left0, int top0, char *err, size_t errlen)
{
    if (resize_capture_init(cp, win, left0, top0, err, errlen) < 0)
        return -1;
    cp->sampler = sampler;
    cp->started = true; /* no thread: the cell's turns take the pictures */
    begin_next(cp);
    return 0;
}

void resize_sampler_stop(struct resize_capture *cp)
{
    if (cp->job_running)
        capture_cancel(&cp->job);
    cp->job_running = false;
    image_free(&cp->latest);
}
