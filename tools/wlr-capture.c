/* wlr-capture: every frame a wlroots compositor composites, with its time, through
 * wlr-screencopy-unstable-v1's copy_with_damage (tools/wlr-screencopy.h).
 *
 * The screen stream of compositors/sway.conf and cage.conf (`screen-stream:`, harness/stream.h).
 * A one-shot capture (grim) samples the screen; this keeps two copy requests of the first output
 * pending at all times.  wlroots copies a pending frame at the output's next commit whose damage
 * (accumulated for this client since its last copy: screencopy_damage_accumulate, in the output's
 * precommit) is not empty, and sends `ready` with that commit's time (frame_handle_output_commit,
 * types/wlr_screencopy_v1.c, 0.15): so every commit that changed something is copied, with the
 * time it was committed (CLOCK_MONOTONIC, the suite's clock).  The first pending copy takes the
 * commit and clears the damage; the second then waits for the next one, while the first is made
 * again.  Copies are pending on the server from the round trip after the request
 * (wl_display.sync): when a `ready` arrives and no other copy was known to be pending, commits
 * between that frame and the next confirmed request may have been missed, and the next frame line
 * says how long that gap was (gap_us), never hides it.  A pending copy also keeps the compositor
 * from scanning a client's buffer out directly (wlr_output_lock_attach_render): it composites.
 *
 *   start-up            ready width=W height=H refresh_mhz=R version=V   or  error msg=..., exit 1
 *                       (before the first frame comes, `still` has no px= and `ppm` is an error)
 *   every frame         frame seq=N t_us=T gap_us=G damage=X,Y,W,H px=X,Y:RRGGBB...
 *   watch X,Y ... [row=X,Y,LEN] [col=X,Y,LEN]   the points (and a row and a column of pixels,
 *                       run-length coded: tools/stream-proto.h) each frame line reports (replaces
 *                       the set; none: no points),
 *                       answered after a round trip by `still seq=N t_us=NOW px=...`: the latest
 *                       frame is what the screen showed at NOW
 *   ppm X Y W H         `ppm len=L` and L bytes: a binary PPM of that region of the latest frame
 *   stats               stats frames=N span_us=S gaps=G gap_us=U failed=F refresh_mhz=R
 *   end of input        the stats line, exit 0
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

#include "stream-proto.h"
#include "wlr-screencopy.h"

#define SLOTS 2          /* copies pending at once: one always waits while the other is made again */
#define MAX_FAILED 20    /* copies in a row that failed: the output is gone */

struct slot {
    struct cap *cap;
    struct zwlr_screencopy_frame_v1 *frame;
    struct wl_buffer *buffer;
    uint8_t *data;
    bool confirmed;      /* the server has the copy request (its round trip came back) */
    bool y_invert;
    uint32_t dx, dy, dw, dh; /* the damage of its frame */
};

struct cap {
    struct wl_display *display;
    struct wl_shm *shm;
    struct wl_output *output;
    struct zwlr_screencopy_manager_v1 *manager;
    uint32_t version;
    int32_t refresh_mhz;
    uint32_t format, width, height, stride;
    bool have_format;
    struct slot slots[SLOTS];
    uint8_t *latest;     /* the latest frame's pixels (stride x height) */
    bool latest_y_invert;
    int64_t latest_us, first_us;
    uint64_t seq, gaps, failed_in_row, failed;
    int64_t gap_us_total;
    int64_t gap_from_us; /* >0: no copy was known pending since then (the frame that ended it) */
    int64_t pending_gap_us; /* the gap to report on the next frame line */
    struct sp_points points;
    bool started;        /* `ready` was written: frame lines may follow */
};

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void die(const char *msg)
{
    printf("error msg=%s\n", msg);
    fflush(stdout);
    exit(1);
}

/* 0x00RRGGBB at (x, y) of a frame, or -1 outside. */
static int64_t pixel_at(const struct cap *c, const uint8_t *data, bool y_invert, int x, int y)
{
    if (x < 0 || y < 0 || (uint32_t)x >= c->width || (uint32_t)y >= c->height)
        return -1;
    uint32_t row = y_invert ? c->height - 1 - (uint32_t)y : (uint32_t)y;
    uint32_t v;
    memcpy(&v, data + (size_t)row * c->stride + (size_t)x * 4, 4);
    if (c->format == WL_SHM_FORMAT_XBGR8888 || c->format == WL_SHM_FORMAT_ABGR8888)
        v = (v & 0xFF00u) | ((v & 0xFFu) << 16) | ((v >> 16) & 0xFFu);
    return v & 0xFFFFFFu;
}

/* The latest frame's pixel (stream-proto.h's sp_pixel_fn). */
static int64_t latest_pixel(void *ctx, int x, int y)
{
    const struct cap *c = ctx;
    return pixel_at(c, c->latest, c->latest_y_invert, x, y);
}

/* no frame yet: what the screen shows is not known */
static sp_pixel_fn have_latest(const struct cap *c)
{
    return c->seq ? latest_pixel : NULL;
}

static void print_points(struct cap *c)
{
    sp_print_points(&c->points, have_latest(c), c);
}

static void print_stats(const struct cap *c)
{
    printf("stats frames=%llu span_us=%lld gaps=%llu gap_us=%lld failed=%llu refresh_mhz=%d\n",
           (unsigned long long)c->seq, (long long)(c->seq ? c->latest_us - c->first_us : 0),
           (unsigned long long)c->gaps, (long long)c->gap_us_total, (unsigned long long)c->failed, c->refresh_mhz);
    fflush(stdout);
}

/* ---- the copies ---- */

static void slot_arm(struct slot *s);

static bool other_confirmed(const struct cap *c, const struct slot *s)
{
    for (int i = 0; i < SLOTS; i++)
        if (&c->slots[i] != s && c->slots[i].frame && c->slots[i].confirmed)
            return true;
    return false;
}

static void sync_done(void *data, struct wl_callback *cb, uint32_t t)
{
    (void)t;
    struct slot *s = data;
    struct cap *c = s->cap;
    wl_callback_destroy(cb);
    if (!s->frame)
        return;
    s->confirmed = true;
    if (c->gap_from_us > 0) { /* a copy is pending again: the gap is over */
        c->pending_gap_us += now_us() - c->gap_from_us;
        c->gap_from_us = 0;
    }
}

static const struct wl_callback_listener sync_listener = {.done = sync_done};

static void frame_buffer(void *data, struct zwlr_screencopy_frame_v1 *f, uint32_t format, uint32_t w, uint32_t h,
                         uint32_t stride)
{
    (void)f;
    struct cap *c = ((struct slot *)data)->cap;
    if (format != WL_SHM_FORMAT_XRGB8888 && format != WL_SHM_FORMAT_ARGB8888 && format != WL_SHM_FORMAT_XBGR8888 &&
        format != WL_SHM_FORMAT_ABGR8888)
        return; /* another shm format may follow; none we read: `buffer_done` says so */
    if (c->have_format && (w != c->width || h != c->height || stride != c->stride || format != c->format))
        die("the output's size or format changed");
    c->format = format, c->width = w, c->height = h, c->stride = stride;
    c->have_format = true;
}

static void frame_flags(void *data, struct zwlr_screencopy_frame_v1 *f, uint32_t flags)
{
    (void)f;
    ((struct slot *)data)->y_invert = flags & ZWLR_SCREENCOPY_FRAME_V1_FLAGS_Y_INVERT;
}

static void frame_damage(void *data, struct zwlr_screencopy_frame_v1 *f, uint32_t x, uint32_t y, uint32_t w,
                         uint32_t h)
{
    (void)f;
    struct slot *s = data;
    s->dx = x, s->dy = y, s->dw = w, s->dh = h;
}

/* A frame was copied: its line, then the copy is made again. */
static void frame_ready(void *data, struct zwlr_screencopy_frame_v1 *f, uint32_t sec_hi, uint32_t sec_lo,
                        uint32_t nsec)
{
    (void)f;
    struct slot *s = data;
    struct cap *c = s->cap;
    int64_t t = (int64_t)(((uint64_t)sec_hi << 32) | sec_lo) * 1000000 + nsec / 1000;
    memcpy(c->latest, s->data, (size_t)c->stride * c->height);
    c->latest_y_invert = s->y_invert;
    if (!c->seq++)
        c->first_us = t;
    c->latest_us = t;
    c->failed_in_row = 0;
    if (c->started) {
        printf("frame seq=%llu t_us=%lld gap_us=%lld damage=%u,%u,%u,%u", (unsigned long long)c->seq, (long long)t,
               (long long)c->pending_gap_us, s->dx, s->dy, s->dw, s->dh);
        print_points(c);
        putchar('\n');
        fflush(stdout);
    }
    if (c->pending_gap_us > 0)
        c->gaps++, c->gap_us_total += c->pending_gap_us;
    c->pending_gap_us = 0;
    if (!other_confirmed(c, s) && c->gap_from_us == 0)
        c->gap_from_us = t; /* from this commit on, nothing was known to be pending */
    zwlr_screencopy_frame_v1_destroy(s->frame);
    s->frame = NULL;
    slot_arm(s);
}

static void frame_failed(void *data, struct zwlr_screencopy_frame_v1 *f)
{
    (void)f;
    struct slot *s = data;
    struct cap *c = s->cap;
    c->failed++;
    if (++c->failed_in_row > MAX_FAILED)
        die("the compositor failed every copy (the output is gone?)");
    if (!other_confirmed(c, s) && c->gap_from_us == 0)
        c->gap_from_us = now_us();
    zwlr_screencopy_frame_v1_destroy(s->frame);
    s->frame = NULL;
    slot_arm(s);
}

/* The buffer is described: the copy is asked for, and confirmed by a round trip. */
static void frame_buffer_done(void *data, struct zwlr_screencopy_frame_v1 *f)
{
    struct slot *s = data;
    struct cap *c = s->cap;
    if (!c->have_format)
        die("the compositor offers no 32-bit RGB shm format for its output");
    if (!s->buffer) {
        int fd = memfd_create("wlr-capture", MFD_CLOEXEC);
        size_t size = (size_t)c->stride * c->height;
        if (fd < 0 || ftruncate(fd, (off_t)size) < 0)
            die("cannot make the shared memory of a frame");
        s->data = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (s->data == MAP_FAILED)
            die("cannot map the shared memory of a frame");
        struct wl_shm_pool *pool = wl_shm_create_pool(c->shm, fd, (int32_t)size);
        s->buffer = wl_shm_pool_create_buffer(pool, 0, (int32_t)c->width, (int32_t)c->height, (int32_t)c->stride,
                                              c->format);
        wl_shm_pool_destroy(pool);
        close(fd);
        if (!c->latest && !(c->latest = calloc(1, size)))
            die("out of memory");
    }
    zwlr_screencopy_frame_v1_copy_with_damage(f, s->buffer);
    wl_callback_add_listener(wl_display_sync(c->display), &sync_listener, s);
}

static void frame_linux_dmabuf(void *data, struct zwlr_screencopy_frame_v1 *f, uint32_t format, uint32_t w,
                               uint32_t h)
{
    (void)data, (void)f, (void)format, (void)w, (void)h;
}

static const struct zwlr_screencopy_frame_v1_listener frame_listener = {
    .buffer = frame_buffer, .flags = frame_flags, .ready = frame_ready, .failed = frame_failed,
    .damage = frame_damage, .linux_dmabuf = frame_linux_dmabuf, .buffer_done = frame_buffer_done,
};

static void slot_arm(struct slot *s)
{
    s->confirmed = false;
    s->y_invert = false;
    s->dx = s->dy = s->dw = s->dh = 0;
    s->frame = zwlr_screencopy_manager_v1_capture_output(s->cap->manager, 0, s->cap->output);
    zwlr_screencopy_frame_v1_add_listener(s->frame, &frame_listener, s);
}

/* ---- the globals ---- */

static void output_geometry(void *d, struct wl_output *o, int32_t x, int32_t y, int32_t pw, int32_t ph, int32_t sp,
                            const char *make, const char *model, int32_t tr)
{
    (void)d, (void)o, (void)x, (void)y, (void)pw, (void)ph, (void)sp, (void)make, (void)model, (void)tr;
}

static void output_mode(void *data, struct wl_output *o, uint32_t flags, int32_t w, int32_t h, int32_t refresh)
{
    (void)o, (void)w, (void)h;
    if (flags & WL_OUTPUT_MODE_CURRENT)
        ((struct cap *)data)->refresh_mhz = refresh;
}

static void output_done(void *d, struct wl_output *o) { (void)d, (void)o; }
static void output_scale(void *d, struct wl_output *o, int32_t f) { (void)d, (void)o, (void)f; }

static const struct wl_output_listener output_listener = {
    .geometry = output_geometry, .mode = output_mode, .done = output_done, .scale = output_scale,
};

static void global_add(void *data, struct wl_registry *reg, uint32_t name, const char *iface, uint32_t version)
{
    struct cap *c = data;
    if (!strcmp(iface, wl_shm_interface.name)) {
        c->shm = wl_registry_bind(reg, name, &wl_shm_interface, 1);
    } else if (!strcmp(iface, wl_output_interface.name) && !c->output) {
        c->output = wl_registry_bind(reg, name, &wl_output_interface, version < 2 ? version : 2);
        wl_output_add_listener(c->output, &output_listener, c);
    } else if (!strcmp(iface, zwlr_screencopy_manager_v1_interface.name)) {
        c->version = version < 3 ? version : 3;
        c->manager = wl_registry_bind(reg, name, &zwlr_screencopy_manager_v1_interface, c->version);
    }
}

static void global_remove(void *data, struct wl_registry *reg, uint32_t name)
{
    (void)data, (void)reg, (void)name;
}

static const struct wl_registry_listener registry_listener = {.global = global_add, .global_remove = global_remove};

/* Connects, finds the output and the manager, and asks for the first frames (the whole output is
 * damaged for a new client: the next commit is copied).  Until one came, no pixel is reported. */
static void start(struct cap *c)
{
    if (!(c->display = wl_display_connect(NULL)))
        die("cannot connect to the compositor (WAYLAND_DISPLAY)");
    wl_registry_add_listener(wl_display_get_registry(c->display), &registry_listener, c);
    wl_display_roundtrip(c->display);
    wl_display_roundtrip(c->display); /* the output's mode */
    if (!c->manager)
        die("the compositor offers no zwlr_screencopy_manager_v1");
    if (c->version < 3)
        die("the compositor's zwlr_screencopy_manager_v1 is older than version 3 (no buffer_done)");
    if (!c->output || !c->shm)
        die("the compositor offers no wl_output or no wl_shm");
    for (int i = 0; i < SLOTS; i++) {
        c->slots[i].cap = c;
        slot_arm(&c->slots[i]);
    }
    while (!c->latest) /* the first buffer's format: an idle output may commit no frame for long */
        if (wl_display_dispatch(c->display) < 0)
            die("the connection to the compositor broke before it described its output");
    printf("ready width=%u height=%u refresh_mhz=%d version=%u\n", c->width, c->height, c->refresh_mhz, c->version);
    fflush(stdout);
    c->started = true;
}

/* ---- the commands ---- */

static void still_done(void *data, struct wl_callback *cb, uint32_t t)
{
    (void)t;
    struct cap *c = data;
    wl_callback_destroy(cb);
    printf("still seq=%llu t_us=%lld", (unsigned long long)c->seq, (long long)now_us());
    print_points(c);
    putchar('\n');
    fflush(stdout);
}

static const struct wl_callback_listener still_listener = {.done = still_done};

static void cmd_watch(struct cap *c, const char *args)
{
    sp_parse_watch(&c->points, args);
    /* answered after a round trip: every frame committed before it has been read by then */
    wl_callback_add_listener(wl_display_sync(c->display), &still_listener, c);
}

/* One line of standard input; false at `quit`. */
static bool command(void *ctx, char *line)
{
    struct cap *c = ctx;
    if (!strncmp(line, "watch", 5))
        cmd_watch(c, line + 5);
    else if (!strncmp(line, "ppm ", 4))
        sp_answer_ppm(line + 4, (int)c->width, (int)c->height, have_latest(c), c);
    else if (!strcmp(line, "stats"))
        print_stats(c);
    else if (!strcmp(line, "quit"))
        return false;
    else if (line[0]) {
        printf("error msg=unknown command: %s\n", line);
        fflush(stdout);
    }
    return true;
}

/* Wayland events and standard input until either ends. */
static void loop(struct cap *c)
{
    char buf[4096];
    size_t len = 0;
    for (;;) {
        while (wl_display_prepare_read(c->display) != 0)
            wl_display_dispatch_pending(c->display);
        wl_display_flush(c->display);
        struct pollfd p[2] = {{.fd = wl_display_get_fd(c->display), .events = POLLIN}, {.fd = 0, .events = POLLIN}};
        if (poll(p, 2, -1) < 0 && errno != EINTR) {
            wl_display_cancel_read(c->display);
            die("poll failed");
        }
        if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            if (wl_display_read_events(c->display) < 0)
                die("the connection to the compositor broke");
        } else {
            wl_display_cancel_read(c->display);
        }
        if (wl_display_dispatch_pending(c->display) < 0)
            die("the connection to the compositor broke");
        if ((p[1].revents & (POLLIN | POLLHUP)) && !sp_read_commands(0, buf, &len, sizeof buf, command, c))
            return;
    }
}

int main(void)
{
    static struct cap c;
    start(&c);
    loop(&c);
    print_stats(&c);
    return 0;
}
