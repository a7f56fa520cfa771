/* The line protocol of a screen-stream helper (harness/stream.h), the part every helper speaks the
 * same way whatever the compositor: the watched points, `px=` lists, `ppm` answers and reading the
 * commands of standard input.  tools/wlr-capture.c (wlroots' screencopy) and tools/mutter-stream.c
 * (mutter's ScreenCast through PipeWire) each bring their frames and a pixel function. */
#ifndef FRAMESYNC_STREAM_PROTO_H
#define FRAMESYNC_STREAM_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SP_MAX_POINTS 64

/* 0x00RRGGBB of the pixel at (x, y) of the latest frame, -1 outside it. */
typedef int64_t (*sp_pixel_fn)(void *ctx, int x, int y);

#define SP_MAX_LINE 4096   /* pixels of a watched row or column */

/* A row (rightwards) or column (downwards) of pixels from (x, y), len long; len 0: none. */
struct sp_line {
    int x, y, len;
};

struct sp_points {
    int x[SP_MAX_POINTS], y[SP_MAX_POINTS];
    int n;
    struct sp_line row, col;
};

/* `watch X,Y ... [row=X,Y,LEN] [col=X,Y,LEN]`: the points, and at most one row and one column, each
 * frame line reports from now on (the set is replaced). */
void sp_parse_watch(struct sp_points *pts, const char *args);
/* ` px=X,Y:RRGGBB` for each point, then ` row=RUNS` and ` col=RUNS` for the lines (none before a
 * frame came: pixel NULL).  RUNS is a comma-separated list of `RRGGBB` or `RRGGBBxN` (N >= 2 pixels
 * of that colour), `-` for pixels outside the frame: a resize's lines are a few runs of colour, so
 * every frame's lines fit a text line (the bench's resize capture, bench/resize-capture.c). */
void sp_print_points(const struct sp_points *pts, sp_pixel_fn pixel, void *ctx);
/* `ppm X Y W H`: `ppm len=L` and a binary PPM of that region of the latest frame, or an `error` line
 * (a region outside the width x height output, or no frame yet: pixel NULL). */
void sp_answer_ppm(const char *args, int width, int height, sp_pixel_fn pixel, void *ctx);
/* Takes what fd (standard input) has, and hands each complete line to command; false at its end or
 * when command returns false (`quit`).  buf holds a partial line between calls. */
bool sp_read_commands(int fd, char *buf, size_t *len, size_t cap, bool (*command)(void *ctx, char *line),
                      void *ctx);

#endif
