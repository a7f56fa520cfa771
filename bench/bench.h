/* framesync-bench: measures a compositor's path from a client's finished frame to the screen,
 * through the frame-synchronization protocol.  One process: it starts Xvfb and the compositor
 * (the harness's own code), then runs cells one after another; each frame is a delimited update
 * (extended form) of a window in a colour that encodes its frame number, so one pixel read off
 * the root tells which frame is on screen.  Rows go to a JSON-lines file, one per frame, written
 * as soon as the frame is settled (bench/README.md).
 *
 * Parts: main.c (options), session.c (Xvfb and the compositor), cellspec.c (what a cell is),
 * client.c (windows, counters, messages), paint-core.c / paint-gl.c (how a frame is drawn),
 * screen.c (the pixel oracle thread), cell.c (pacing and settling frames), rows.c (JSON output),
 * load.c (stress-ng), resize.c (the resize cells; their own client, driver, capture and rows in
 * resize-client.c, resize-input.c, resize-capture.c, resize-rows.c: resize.h).  No globals cross
 * parts: main() makes the settings, the session and the rows' sink, and passes them down. */
#ifndef FRAMESYNC_BENCH_H
#define FRAMESYNC_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <xcb/xcb.h>
#include <xcb/sync.h>

#define BENCH_MAX_WINDOWS 16

/* ---- what a cell is (cellspec.c) ---- */
enum render { RENDER_CORE, RENDER_GL };
/* drawn: the next frame when the drawn message of the last one arrives (on the pixel when the
 * compositor sends none); timer60: a frame every 1/60 s whatever happens; pixel: the next frame
 * when the last one is seen on screen */
enum pacing { PACING_DRAWN, PACING_TIMER60, PACING_PIXEL };
enum load { LOAD_IDLE, LOAD_STRESS };

/* a resize cell, resize-TRIGGER-FORM-PAINTMS[-slow] (resize.c): how the resize is driven, how the
 * client takes part, what a paint costs it */
enum resize_trigger { RT_POINTER, RT_CONFIGURE, RT_KEYBOARD };
enum resize_form { RF_BASIC, RF_DRAFT, RF_DEFACTO, RF_NONE };
struct resize_spec {
    enum resize_trigger trigger;
    int hz;                   /* pointer motions (ConfigureRequests, key presses at most) per second */
    enum resize_form form;
    int paint_ms;             /* what one paint costs the client */
    bool slow;                /* the answer comes SLOW_ANSWER_MS after the paint */
};
const char *resize_form_name(enum resize_form f);

struct cellspec {
    char name[96];            /* e.g. 4x256-core-drawn-idle: the same on every machine */
    bool is_resize;           /* resize-...: the fields below are unused but windows (1) */
    struct resize_spec rs;
    int windows;
    int width, height;
    enum render render;
    enum pacing pacing;
    enum load load;
};

/* "WINDOWSxSIZE-RENDER-PACING-LOAD", SIZE is N (square) or WxH; 0 or -1 with err. */
int cellspec_parse(const char *name, struct cellspec *c, char *err, size_t errlen);
const char *render_name(enum render r);
const char *pacing_name(enum pacing p);
const char *load_name(enum load l);

/* ---- run-wide settings (main.c parses them; every cell gets them) ---- */
struct bench_opts {
    double cell_ms;           /* measured time of a cell, after the warm-up */
    double warmup_ms;
    double frame_timeout_ms;  /* a frame not seen/drawn by then no longer holds the next one back */
    double settle_ms;         /* after the cell's deadline: how long outstanding frames may take */
    double late_ms;           /* even->pixel above this: shown late (one 60 Hz refresh) */
    const char *run_id;       /* written into every row, so rows of many runs join */
};

/* ---- the session (session.c): a private temp dir, Xvfb and the compositor ---- */
struct compositor_profile;
struct session_spec {
    const char *root;         /* the framesync folder */
    const char *command;      /* the compositor's shell command line */
    const char *ready;        /* --ready: wm, cm, wm+cm or auto; NULL: auto */
    const struct compositor_profile *profile; /* a named compositor's conf (its env), or NULL */
    const char *wm_log;       /* the compositor's output; NULL: discarded */
    int wm_timeout_ms;
};
struct bench_session;
struct stream;
struct capture;
struct input_path;
struct row_sink;
struct bench_session *bench_session_new(void);
/* Starts Xvfb and the compositor; -1 with err (bench_session_end still cleans up). */
int bench_session_start(struct bench_session *s, const struct session_spec *spec, char *err, size_t errlen);
/* why the run must stop now ("interrupted", "compositor exited"), or NULL */
const char *bench_session_should_stop(struct bench_session *s);
/* the `session` row: the compositor as given, its command, name, whether it composites, ... */
void bench_session_write_row(const struct bench_session *s, const struct row_sink *rows, const char *given);
/* A compositor that brings its X server (`xserver: own`): its screen stream (NULL: none), its input
 * path (NULL: none), and why its pointer and keyboard cannot be driven without one (its conf's
 * `no-xtest:`; "": XTEST reaches it, as the WM of a rootful Xwayland) */
bool bench_session_own_xserver(const struct bench_session *s);
struct stream *bench_session_stream(struct bench_session *s);
const struct capture *bench_session_capture(const struct bench_session *s); /* its pictures, where no stream */
const struct input_path *bench_session_input(const struct bench_session *s);
const char *bench_session_no_input(const struct bench_session *s);
/* Stops the compositor, Xvfb and every process started, removes the temp dir, frees s. */
void bench_session_end(struct bench_session *s);

/* ---- the client (client.c): one connection, the cell's windows ---- */
struct bench_window {
    xcb_window_t id;
    xcb_sync_counter_t basic, extended; /* _NET_WM_SYNC_REQUEST_COUNTER: basic, then extended */
    int64_t value;                      /* the extended counter's value (even between frames) */
    int x, y, w, h;                     /* where it is on the root (client area) */
    bool mapped;
    int64_t requested;                  /* a sync request's value still to be reached, or -1 */
};

struct drawn_msg {
    int win;
    int64_t value;
    int64_t at_us;           /* when it was read */
    int64_t stamp_us;        /* the time it carries (server clock, µs), or -1 */
};

struct timings_msg {
    int win;
    int64_t value;
    int64_t at_us;
    int32_t presentation_offset_us, refresh_interval_us, delay_us;
};

struct client;
struct client *client_open(char *err, size_t errlen);
void client_close(struct client *cl);
xcb_connection_t *client_conn(struct client *cl);
int client_fd(struct client *cl);
/* the compositor lists one of the drawn messages in _NET_SUPPORTED */
bool client_drawn_advertised(struct client *cl);
/* creates and maps n windows of w x h in a grid, waits until each is mapped and placed; -1 with err */
int client_create_windows(struct client *cl, int n, int w, int h, int64_t deadline_us, char *err, size_t errlen);
void client_destroy_windows(struct client *cl);
struct bench_window *client_window(struct client *cl, int i);
int client_nwindows(struct client *cl);
/* server time (ms) minus CLOCK_MONOTONIC (ms), measured with a property round trip */
int client_server_offset_ms(struct client *cl, double *offset_ms);
/* begins an update: counter odd; returns the value the update will end with */
int64_t client_begin_update(struct client *cl, int i);
void client_end_update(struct client *cl, int i, int64_t value);
/* reads what arrived; calls back for drawn and timings messages; answers sync requests */
struct client_events {
    void (*drawn)(void *ctx, const struct drawn_msg *m);
    void (*timings)(void *ctx, const struct timings_msg *m);
    void *ctx;
};
int client_pump(struct client *cl, const struct client_events *ev); /* events handled */
bool client_broken(struct client *cl);

/* ---- painting (paint-core.c, paint-gl.c) ---- */
struct painter {
    const char *name;
    void (*paint)(struct painter *p, int win, uint32_t rgb); /* the whole window in one colour */
    void (*destroy)(struct painter *p);
};
struct painter *painter_core(struct client *cl, char *err, size_t errlen);
struct painter *painter_gl(struct client *cl, char *err, size_t errlen);

/* ---- the pixel oracle (screen.c): its own connection and thread ---- */
struct pixel_event {
    int win;
    int32_t frame;           /* decoded from the colour, modulo 2^14; -1: not a frame colour */
    int64_t seen_us;         /* the root damage that woke the sample (or the sample, when polled) */
    int64_t sampled_us;      /* when the GetImage was sent */
    uint32_t damage_server_ms; /* the DAMAGE event's timestamp (0 when polled) */
    bool polled;
};
struct screen;
struct screen *screen_start(const struct bench_window *wins, int n, char *err, size_t errlen);
int screen_fd(struct screen *s);           /* readable: pixel events to read */
int screen_read(struct screen *s, struct pixel_event *out, int max);
void screen_stop(struct screen *s);

/* ---- load (load.c) ---- */
struct proc;
struct proc *load_start(enum load l, char *err, size_t errlen);
void load_stop(struct proc *p);

/* ---- one cell (cell.c) ---- */
struct cell_result {
    int frames;               /* settled frames written (warm-up included) */
    double wall_ms;           /* from the first frame to the last row */
    const char *ended_by;     /* "deadline", "interrupted", "compositor exited", "x-error", "windows never shown" */
    const char *paced_on;     /* drawn, pixel or timer */
};
/* what every cell of a session shares */
struct cell_env {
    const struct bench_opts *opt;
    struct client *cl;
    const struct row_sink *rows;
    struct bench_session *session; /* asked whether to stop */
};
int cell_run(const struct cellspec *spec, const struct cell_env *env, struct cell_result *res, char *err,
             size_t errlen);
/* a resize cell (resize.c): called by cell_run */
int resize_cell_run(const struct cellspec *spec, const struct cell_env *env, struct cell_result *res, char *err,
                    size_t errlen);

/* ---- JSON rows (rows.c) ---- */
/* where rows go, and the run id every row carries */
struct row_sink {
    FILE *f;
    const char *run_id;
    const char *dir; /* the rows file's folder: files a row names (thumbnails) are relative to it */
};
struct row {
    FILE *f;
    bool first;
};
void row_begin(struct row *r, const struct row_sink *out, const char *kind);
void row_str(struct row *r, const char *key, const char *value);
void row_int(struct row *r, const char *key, int64_t value);
void row_num(struct row *r, const char *key, double value); /* 3 decimals */
void row_opt_ms(struct row *r, const char *key, int64_t us, int64_t origin_us); /* -1 us: null */
void row_bool(struct row *r, const char *key, bool value);
void row_null(struct row *r, const char *key);
void row_raw(struct row *r, const char *key, const char *json);
void row_key(struct row *r, const char *key); /* the key: the caller writes the value to r->f */
void row_end(struct row *r); /* newline and flush: a row is on disk when the frame is settled */

#endif
