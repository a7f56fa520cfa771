/* A resize cell, resize-TRIGGER-FORM-PAINTMS[-slow] (bench/README.md, "Resize cells"): one window
 * is resized along a fixed path, driven the way a user drives it, and every frame the compositor
 * shows is captured and later classified (runner/reports/bench_resize.py).
 *
 * Three parts, each on its own connection:
 *   the client (this thread): a window whose every paint tells its size: the whole window in the
 *     colour of its paint number k (common/frame-colour.h), with EDGE_PX strips at its right and
 *     bottom edges in k's edge colour (the same red and green, blue byte EDGE_MARKER).  It paints
 *     the latest size after each batch of events (ConfigureNotify, Expose), the paint costs
 *     paint_ms, and it answers a sync request after painting the size that followed it, in its
 *     form: basic (its one counter to the value), draft (both counters: the draft's l[4] does not
 *     tell the forms apart), defacto (an extended request, l[4] = 1: the second counter odd at
 *     value + 1 before the paint, even at value + 2 after it; a basic one: the first counter, as
 *     GTK does), none (no counter listed: the control);
 *   the driver (a thread): _NET_WM_MOVERESIZE SIZE_BOTTOMRIGHT after an XTEST button press at the
 *     window's corner, then XTEST motion at HZ along the path (grow right, grow down, shrink
 *     diagonally), then the release; or, for cfgHZ, the client's own ConfigureRequests at HZ;
 *   the capture (a thread): woken by root DAMAGE over its two lines, under a server grab it reads
 *     one row and one column of the ROOT (the composited screen) through the window's fixed
 *     top-left corner, and the window's geometry from the server, in the same instant.  Each line
 *     is decoded at once (paint number, where the interior ends, where the edge marker ends, how
 *     far the window's pixels reach, where the backdrop under them is next seen) and kept in
 *     memory.
 * Every wait is an event or a deadline.  The rows (cell, one `resize` row with the traces,
 * cell-end) are written when the cell ends.
 *
 * Files: resize.c (the cell: placing the window, the backdrop, the phases, the clean-up),
 * resize-client.c (the client), resize-input.c (the driver), resize-capture.c (the capture),
 * resize-rows.c (the rows).  This header is what they share: the geometry, the records and the
 * three parts' state; each part's own constants stay in its file. */
#ifndef FRAMESYNC_BENCH_RESIZE_H
#define FRAMESYNC_BENCH_RESIZE_H

#include "bench.h"
#include "capture.h"
#include "frame-colour.h"

#include <pthread.h>
#include <stdatomic.h>
#include <xcb/xcb.h>

#define W0 320                 /* the start size, at a user-given position */
#define H0 200
#define X0 100
#define Y0 100
#define GROW_W 200             /* the path's reach */
#define GROW_H 120
#define EDGE_PX 4              /* the edge markers' width */
#define EDGE_MARKER 0xA5u      /* blue byte of an edge colour (frame colours have 0x5A) */
#define BG_RGB 0x203040u       /* the window's background: what the server fills unpainted area with */
#define DESK_RGB 0x3C6E1Eu     /* the backdrop behind the window: neither a paint, a marker nor BG_RGB */
#define PAD 8                  /* the lines start this far before the window's corner */
#define LINE_W (PAD + W0 + GROW_W + 40)
#define LINE_H (PAD + H0 + GROW_H + 40)
#define INSET 4                /* the row and the column run this far inside the top and left edges */
#define MAX_PAINTS 16000       /* < 2^14: a paint number is never ambiguous within a cell */
#define MAX_MOTIONS 20000
#define MAX_CAPTURES 20000
#define THUMBS 3               /* the worst-looking frames of a cell kept as pictures (PNG crops) */

static inline uint32_t edge_colour(uint32_t k) { return (frame_colour(k) & 0xFFFF00u) | EDGE_MARKER; }

/* a pass of the path takes PATH_MS whatever the cell's time (resize-input.c); the drive is as many
 * passes as fit --cell-ms, at least one */
#define PATH_MS 2700

/* ---- what the capture decodes of one line ---- */
struct line_info {
    int16_t start;        /* first window pixel, from the window's start corner (0: where it was) */
    int16_t frame;        /* the paint number there (-1: not a paint: unpainted or foreign) */
    int16_t interior_end; /* where that paint's interior colour ends */
    int16_t marker_end;   /* where its edge marker ends right after (-1: no marker there) */
    int16_t extent;       /* where the window's pixels (paint, marker, background) end */
    int16_t other;        /* another paint number seen on the line (-1: none) */
    int16_t bare;         /* the first backdrop pixel from the extent on (-1: none): what lies between
                           * is neither the window's paint nor what is behind it (a decoration, or
                           * black or garbage where the window has no paint) */
};

struct capture_rec {
    int64_t damage_us, sample_us;
    int16_t gx, gy;
    uint16_t gw, gh;
    struct line_info row, col;
};

struct motion_rec {
    int64_t t_us;
    int16_t w, h; /* the size the pointer (or the request) asks for */
};

struct paint_rec {
    int64_t start_us, end_us;
    int16_t w, h;
    bool answers; /* it answered a request */
};

/* a picture of a frame: the capture's lines' area (LINE_W x LINE_H), 8-bit RGB */
struct thumb {
    int index;  /* the capture it shows (-1: none) */
    long score; /* glitch_score */
    uint8_t *rgb;
};

/* ---- the capture thread ---- */
struct resize_capture {
    pthread_t thread;
    bool started;
    xcb_connection_t *c;
    xcb_window_t root, win;
    uint8_t damage_event;
    int left0, top0;
    int stop[2];
    bool msb_first;
    int bpp;
    struct capture_rec *recs;
    atomic_int n;
    atomic_bool shown; /* a capture saw a paint at the window's corner */
    atomic_bool no_backdrop; /* the backdrop was taken away (it covered the window): bare is -2 */
    struct thumb thumbs[THUMBS];
    int fetches;
    int deco_row, deco_col; /* the decoration's width past the markers, settled (-1: not seen yet) */
    /* fed by the compositor's screen stream (resize-stream.c) instead of root DAMAGE: its frames,
     * those after a gap (frames may be missing before them) and the gaps' time, the first and last
     * frame's time, the output's refresh, and whether a frame's time is its recording after the
     * paint (mutter) rather than its commit */
    struct stream *stream;
    atomic_uint corner_rgb;  /* the latest frame's pixel INSET inside the window's corner */
    bool watch_answered;     /* a `still` came since the capture began: later frame lines are not an earlier
                              * cell's */
    int stream_frames, stream_gaps;
    int64_t stream_gap_us, stream_first_us, stream_last_us;
    int refresh_mhz;
    bool recorded_times;
    /* ... or by pictures of the compositor's own (resize-sampled.c): the command, the picture under
     * way, the latest picture, the pictures that failed (stream_frames counts those taken) */
    const struct capture *sampler;
    struct capture_job job;
    bool job_running;
    struct image latest;
    int sample_failures;
};

/* ---- the driver thread: the user ---- */
struct driver {
    pthread_t thread;
    bool started;
    xcb_connection_t *c;
    xcb_window_t root, win;
    xcb_atom_t moveresize;
    const struct resize_spec *rs;
    int corner_x, corner_y; /* the window's bottom-right pixel on the root when it began */
    int64_t duration_us;
    int stop[2];
    struct motion_rec *recs;
    int n;
    int64_t t0_us;           /* when the motion began (set before the thread's first motion) */
    int64_t ran_us;          /* how long it drove: duration_us, or less when stopped (interrupted) */
    bool grabbed;            /* the WM took the pointer (keyboard) grab after _NET_WM_MOVERESIZE */
    atomic_bool done;
    /* kbdHZ: the window's size from its ConfigureNotify; what a key last changed on each axis; the
     * axis of the last key; the last key press, and whether its change is still to come */
    int cw, ch, step_w, step_h;
    bool last_wide, key_pending;
    int keys;
    int64_t key_at;
    xcb_get_keyboard_mapping_reply_t *keymap;
    uint8_t keymap_min;
    /* input through the compositor's own seat (its conf's `input:`, harness/input-path.h) instead of
     * XTEST: the helper's socket (-1: XTEST) and its first error */
    int seat_fd;
    char seat_error[256];
};


/* ---- the client (resize-client.c) ---- */
enum { A_WM_PROTOCOLS, A_WM_DELETE_WINDOW, A_SYNC_REQUEST, A_SYNC_REQUEST_COUNTER, A_MOVERESIZE, A_NET_WM_NAME,
       A_UTF8_STRING, A_FRAME_DRAWN, A_SYNC_DRAWN, A_COUNT };

struct rcell {
    const struct cellspec *spec;
    const struct resize_spec *rs;
    const struct cell_env *env;
    xcb_connection_t *c;
    xcb_screen_t *scr;
    xcb_window_t win;
    xcb_window_t backdrop;    /* DESK_RGB behind the lines: what shows where the window is not */
    xcb_gcontext_t gc;
    xcb_atom_t atom[A_COUNT];
    xcb_sync_counter_t basic, ext;
    int64_t basic_value, ext_value;
    int w, h;                 /* the size of the last ConfigureNotify */
    int left0, top0;
    bool need_paint, mapped;
    bool req_pending, req_configured; /* a request not answered yet; a ConfigureNotify came after it */
    int64_t req_value, req_at_us;
    bool req_extended;        /* defacto: the request's l[4] = 1 (an extended request) */
    bool answer_due;          /* slow: the answer of the last paint is due at answer_at_us */
    int64_t answer_at_us;
    int64_t answer_value;
    bool answer_extended;
    int configures, size_changes, requests, answered, superseded, exposes, drawn;
    struct paint_rec *paints;
    int npaints;
    struct resize_capture cap;
    struct driver drv;
    int64_t t0_us;            /* the cell's clock: when the window was created */
};

/* ms on the cell's clock */
static inline double rcell_ms(const struct rcell *rc, int64_t us) { return (double)(us - rc->t0_us) / 1000.0; }

/* what every capture starts with: its own connection, the window and its corner; -1 with err */
int resize_capture_init(struct resize_capture *cp, xcb_window_t win, int left0, int top0, char *err, size_t errlen);
/* the capture (resize-capture.c): starts its thread on its own connection; -1 with err */
int resize_capture_start(struct resize_capture *cp, xcb_window_t win, int left0, int top0, char *err, size_t errlen);
void resize_capture_stop(struct resize_capture *cp);
/* ... or fed by the compositor's screen stream (resize-stream.c): each frame's row and column */
int resize_capture_start_stream(struct resize_capture *cp, struct stream *s, xcb_window_t win, int left0, int top0,
                                char *err, size_t errlen);
/* ... or by pictures taken one after another (resize-sampled.c), from the cell's own thread: each
 * turn of the cell polls resize_sampler_fd (-1: none under way) and calls resize_sampler_turn */
int resize_capture_start_sampled(struct resize_capture *cp, const struct capture *sampler, xcb_window_t win,
                                 int left0, int top0, char *err, size_t errlen);
int resize_sampler_fd(const struct resize_capture *cp);
void resize_sampler_turn(struct resize_capture *cp);
void resize_sampler_stop(struct resize_capture *cp);
uint8_t *resize_sampled_crop(const struct resize_capture *cp);
/* the window's place and size on the server now, into r; false when the server did not answer */
bool resize_read_geometry(const struct resize_capture *cp, struct capture_rec *r);
/* the pixel i of a line read off the root, as 0xRRGGBB */
uint32_t resize_capture_px(const struct resize_capture *cp, const uint8_t *d, int i);
/* the capture's row and column out of a picture of the lines' area (LINE_W x LINE_H, 8-bit RGB) */
void resize_picture_lines(const uint8_t *rgb, uint32_t *row, uint32_t *col);
/* a line of n 0xRRGGBB pixels from PAD before the corner, decoded */
struct line_info resize_decode_line(const struct resize_capture *cp, const uint32_t *px, int n);
/* recs[k] is complete: counted, and a picture taken if it is among the worst-looking */
void resize_capture_keep(struct resize_capture *cp, int k);
/* the area of the lines from the stream's latest frame, 8-bit RGB (malloc'd), or NULL */
uint8_t *resize_stream_crop(struct resize_capture *cp);

/* the driver (resize-input.c): its thread, once the window is shown and its corner known; -1 if
 * it cannot start.  resize_driver_stop ends it early (a stop) or joins it. */
int resize_driver_start(struct driver *d);
void resize_driver_stop(struct driver *d);

/* the client (resize-client.c) */
void resize_client_init(struct rcell *rc);       /* screen, SYNC, atoms */
void resize_client_create_window(struct rcell *rc);
int resize_client_pump(struct rcell *rc);        /* the events read: how many */
/* one turn: events, the paint they call for, the answers due, then a wait up to `until`; why the
 * cell must stop, or NULL */
const char *resize_client_turn(struct rcell *rc, int64_t until);

/* the rows (resize-rows.c): cell, resize (the traces, the pictures), cell-end */
void resize_write_rows(struct rcell *rc, const char *ended_by, double wall_ms, struct cell_result *res);

#endif
