/* The compositor's own picture of the screen, through a command (`screen-capture:` in
 * compositors/NAME.conf): for a compositor whose X server does not show the composited screen on
 * its root (a rootless Xwayland), the only way to see what it shows.  The command (/bin/sh -c)
 * writes a binary PPM (P6, maxval 255) of the region {x} {y} {w} {h} (root coordinates, which are
 * the output's for the compositors that use it: see compositors/README.md) to its standard output:
 * `grim -t ppm -g "{x},{y} {w}x{h}" -` for a wlroots compositor, tools/kwin-screenshot for KWin.
 * It runs with the compositor's session variables (WAYLAND_DISPLAY, XDG_RUNTIME_DIR,
 * DBUS_SESSION_BUS_ADDRESS as its {report} saw them) and the conf's env:.
 *
 * A capture is a process (tens to hundreds of ms): capture_begin starts one without waiting,
 * capture_read takes what it wrote as it comes (poll its fd), capture_end waits for its exit and
 * decodes the picture.  capture_region does all three for the callers that may wait. */
#ifndef FRAMESYNC_CAPTURE_H
#define FRAMESYNC_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "proc.h"

#define CAPTURE_MAX_ENV 32

struct stream;

struct capture {
    char command[2048];       /* the template: {x} {y} {w} {h}; {tmpdir} and {root} already replaced */
    char *env[CAPTURE_MAX_ENV + 1]; /* NAME=VALUE added to its environment, NULL-terminated */
    int width, height;        /* the screen: regions are clipped to it */
    int log_fd;               /* its stderr (the compositor's log), or -1 */
    int timeout_ms;           /* a capture that takes longer is stopped and failed */
    char stream_command[2048]; /* `screen-stream:` ("": none), {tmpdir} and {root} replaced */
    struct stream *stream;    /* while the stream oracle runs: capture_region reads its latest frame */
};

/* A picture: w x h pixels, 8-bit RGB rows. */
struct image {
    int w, h;
    uint8_t *rgb;
};

struct capture_job {
    struct proc *proc;
    int fd;                   /* its stdout: poll it, then capture_read; -1 when done */
    uint8_t *buf;
    size_t len, cap;
    int x, y, w, h;           /* the region asked for (after clipping) */
    int64_t t_begin, t_end;   /* clock_now_us() when it was started, when its output ended */
};

/* ---- pure parts ---- */

/* Decodes a binary PPM (P6, maxval 1..255, comments allowed in the header).  0, or -1 with err. */
int ppm_decode(const uint8_t *data, size_t len, struct image *out, char *err, size_t errlen);
/* The command for a region: the template with {x} {y} {w} {h} and {window} replaced (the X window
 * whose region it is, 0 for a region of the screen as such). */
void capture_command_for(const char *tmpl, uint32_t window, int x, int y, int w, int h, char *out, size_t len);
/* A template with {window}: the compositor shows windows where their X coordinates do not say
 * (weston), so its pictures are of one window at a time (oracle-capture.c samples them in turn). */
bool capture_per_window(const struct capture *c);
/* 0x00RRGGBB of the pixel at (x, y) of the image, or -1 when outside. */
int64_t image_pixel(const struct image *im, int x, int y);
void image_free(struct image *im);

/* ---- running it ---- */

/* Clips the region to the screen and starts the command (window: the X window the region is of, for
 * {window}; 0 for the screen as such).  -1 with err (an empty region, no process). */
int capture_begin(const struct capture *c, uint32_t window, int x, int y, int w, int h, struct capture_job *job,
                  char *err, size_t errlen);
/* Takes what is readable on job->fd now.  1: the output is complete (EOF), 0: more to come, -1: a
 * read error. */
int capture_read(struct capture_job *job);
/* Waits for the process (it has ended its output: capture_read returned 1) and decodes the
 * picture: 0, or -1 with err (it failed, or its output is no PPM of the region's size). */
int capture_end(struct capture_job *job, struct image *out, char *err, size_t errlen);
/* Stops a capture that is still running, without a picture. */
void capture_cancel(struct capture_job *job);
/* All of the above, waiting (up to c->timeout_ms); from the stream's latest frame when there is
 * one (stream.h).  0, or -1 with err. */
int capture_region(const struct capture *c, uint32_t window, int x, int y, int w, int h, struct image *out,
                   char *err, size_t errlen);

#endif
