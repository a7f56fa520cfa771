/* The compositor's every frame, through a helper that streams them (`screen-stream:` in
 * compositors/NAME.conf: tools/wlr-capture for wlroots' screencopy).  Where `screen-capture:`
 * samples the screen with one process per picture, a stream helper runs for the whole start of
 * the compositor and writes a line for every frame the compositor composited, with the frame's
 * time (the compositor's commit, CLOCK_MONOTONIC: the suite's clock) and the pixels at the points
 * the harness watches; a frame line whose gap_us is above 0 says that no copy was pending for that
 * long before it, so frames shown only then may be missing (never hidden: see tools/wlr-capture.c).
 *
 *   ready width=W height=H refresh_mhz=R ...          its first line (or `error msg=...`); with
 *                                                    ` timing=recorded` a frame's time is when the
 *                                                    compositor recorded it after its paint, so the
 *                                                    paint lies after the previous frame's time
 *                                                    (tools/mutter-stream), not at the frame's own
 *   frame seq=N t_us=T gap_us=G damage=... px=X,Y:RRGGBB ...   each frame
 *   still seq=N t_us=T px=...                        the answer to `watch`: the screen at T
 *   ... row=RUNS col=RUNS                            a frame's or still's row and column of pixels,
 *                                                    where `watch` named them (the bench's resize
 *                                                    capture: tools/stream-proto.h)
 *   ppm len=L + L bytes                              the answer to `ppm X Y W H` (latest frame)
 *   stats frames=N span_us=S gaps=G gap_us=U failed=F refresh_mhz=R   the answer to `stats`
 *
 * It runs (/bin/sh -c) with the compositor's session variables, on a socket pair, and is stopped
 * with the compositor's oracles. */
#ifndef FRAMESYNC_STREAM_H
#define FRAMESYNC_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "capture.h"
#include "proc.h"

#define STREAM_MAX_POINTS 64

struct stream {
    struct proc *proc;
    int fd;                   /* the harness's end: poll it, then stream_fill; -1 when stopped */
    char *buf;                /* what it wrote and nobody took yet */
    size_t len, cap;
    int width, height, refresh_mhz;
    bool recorded_times;      /* `timing=recorded`: a frame was painted between the previous frame's
                               * time and its own */
};

/* One frame or still line, parsed. */
struct stream_frame {
    bool still;               /* a `still` (the answer to watch), not a new frame */
    uint64_t seq;
    int64_t t_us, gap_us;
    int npx;
    int px_x[STREAM_MAX_POINTS], px_y[STREAM_MAX_POINTS];
    uint32_t px_rgb[STREAM_MAX_POINTS];
};

struct stream_stats {
    uint64_t frames, gaps, failed;
    int64_t span_us, gap_us;
    int refresh_mhz;
};

/* ---- pure parts ---- */

/* A `frame` or `still` line: 1, 0 for another kind of line, -1 for a malformed one. */
int stream_parse_frame(const char *line, struct stream_frame *f);
/* A `stats` line: 0, or -1. */
int stream_parse_stats(const char *line, struct stream_stats *st);
/* The `key=RUNS` field of a frame line (row or col: tools/stream-proto.h) as n 0xRRGGBB pixels
 * (STREAM_OUTSIDE for `-`, a pixel outside the frame): 0, or -1 when it is missing, malformed or
 * not n pixels long. */
#define STREAM_OUTSIDE 0x1000000u
int stream_parse_runs(const char *line, const char *key, uint32_t *px, int n);
/* Takes the first complete text line out of the buffer (without its newline): true, or false
 * when there is none yet.  A `ppm` answer in the buffer is left for stream_region. */
bool stream_take_line(struct stream *s, char *line, size_t len);

/* ---- running it ---- */

/* Starts the helper and waits (up to timeout_ms) for its `ready` line.  0, or -1 with err. */
int stream_start(struct stream *s, const char *command, char *const *env, int log_fd, int timeout_ms, char *err,
                 size_t errlen);
/* Reads what is there now (non-blocking).  0, or -1 when the helper ended its output. */
int stream_fill(struct stream *s);
/* The points frame lines report from now on (`watch`); -1 when the helper is gone. */
int stream_watch(struct stream *s, const int *xs, const int *ys, int n);
/* A row of rlen pixels from (rx, ry) and a column of clen from (cx, cy) that frame lines carry from now
 * on, in place of points (answered by a `still` line with them); -1 when the helper is gone. */
int stream_watch_lines(struct stream *s, int rx, int ry, int rlen, int cx, int cy, int clen);
/* A picture of the region from the latest frame, waiting up to timeout_ms; the frame lines that
 * arrive meanwhile stay in the buffer.  0, or -1 with err. */
int stream_region(struct stream *s, int x, int y, int w, int h, int timeout_ms, struct image *out, char *err,
                  size_t errlen);
/* Its counts so far, waiting up to timeout_ms.  0, or -1. */
int stream_stats(struct stream *s, int timeout_ms, struct stream_stats *out);
/* Its counts as a sentence for the run's log ("N frames in S s (F frames/s; ...), G gaps ..."). */
void stream_describe(const struct stream_stats *st, char *out, size_t len);
void stream_stop(struct stream *s);

#endif
