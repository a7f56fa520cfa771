/* A resize cell, resize-TRIGGER-FORM-PAINTMS[-slow] (bench/README.md, "Resize cells"; resize.h:
 * its parts): the window placed where its path fits, a backdrop behind the capture's lines, the
 * capture started, the window shown and warmed up, the driver's drive and the settling, then the
 * rows and the clean-up. */
#include "resize.h"
#include "input-path.h"
#include "clock.h"
#include "xhelpers.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xcb/xtest.h>

#define SHOW_WAIT_US 15000000
#define WARMUP_US 300000
#define SHOW_AGAIN_US 5000000  /* the window shown again once the backdrop is taken away */
#define BACKDROP_CHECK_US 1000000 /* a window not shown by then: is the backdrop above it? */
#define SETTLE_US 500000
#define PLACE_WAIT_US 2000000

static void read_corner(struct rcell *rc)
{
    xcb_translate_coordinates_reply_t *t = xcb_translate_coordinates_reply(
        rc->c, xcb_translate_coordinates(rc->c, rc->win, rc->scr->root, 0, 0), NULL);
    if (t) {
        rc->left0 = t->dst_x;
        rc->top0 = t->dst_y;
    }
    free(t);
}

/* A window of a known colour under the capture's lines, at the bottom of the stack (override-
 * redirect: no WM manages or decorates it; every compositor paints it).  Where the window is not,
 * the lines show it: a compositor that shows the window at its old size while the server has it
 * larger (holding the last answered frame: right) shows the backdrop past the old edge, one that
 * shows the new size with black or garbage in the new area (wrong) does not.  A desktop that is
 * black, as fake-wm's is, could not tell the two apart. */
static void create_backdrop(struct rcell *rc)
{
    rc->backdrop = xcb_generate_id(rc->c);
    uint32_t values[2] = {DESK_RGB, 1};
    xcb_create_window(rc->c, XCB_COPY_FROM_PARENT, rc->backdrop, rc->scr->root, (int16_t)(rc->left0 - PAD),
                      (int16_t)(rc->top0 - PAD), LINE_W, LINE_H, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                      rc->scr->root_visual, XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT, values);
    uint32_t below = XCB_STACK_MODE_BELOW; /* no sibling: the bottom of the stack, under every frame */
    xcb_configure_window(rc->c, rc->backdrop, XCB_CONFIG_WINDOW_STACK_MODE, &below);
    xcb_map_window(rc->c, rc->backdrop);
    xcb_flush(rc->c);
}

/* the lines of the capture fit on the screen from where the window is */
static bool fits(const struct rcell *rc)
{
    return rc->left0 >= PAD && rc->top0 >= PAD && rc->left0 + LINE_W <= rc->scr->width_in_pixels &&
           rc->top0 + LINE_H <= rc->scr->height_in_pixels;
}

static const char *warm_up(struct rcell *rc)
{
    int64_t warm = clock_now_us() + WARMUP_US;
    while (clock_now_us() < warm) {
        const char *why = resize_client_turn(rc, warm);
        if (why)
            return why;
    }
    return NULL;
}

/* Is the backdrop's colour where the window's paint should be (inside its corner)? */
static bool backdrop_covers_window(struct rcell *rc)
{
    if (rc->cap.stream || rc->cap.sampler) /* a Wayland compositor's Xwayland: the screen is its own picture */
        return atomic_load(&rc->cap.corner_rgb) == DESK_RGB;
    xcb_get_image_reply_t *img = xcb_get_image_reply(
        rc->c,
        xcb_get_image(rc->c, XCB_IMAGE_FORMAT_Z_PIXMAP, rc->scr->root, (int16_t)(rc->left0 + INSET),
                      (int16_t)(rc->top0 + INSET), 1, 1, ~0u),
        NULL);
    bool covered = img && xcb_get_image_data_length(img) >= rc->cap.bpp / 8 &&
                   resize_capture_px(&rc->cap, xcb_get_image_data(img), 0) == DESK_RGB;
    free(img);
    return covered;
}

/* mutter, KWin and metacity stack override-redirect windows above managed ones, whatever the X
 * stacking says: without the backdrop the lines see the window again, and a frame held at an
 * older size can no longer be told from a black strip (bench/README.md, "Limits") */
static void take_backdrop_away(struct rcell *rc)
{
    atomic_store(&rc->cap.no_backdrop, true);
    atomic_store(&rc->cap.shown, false);
    xcb_unmap_window(rc->c, rc->backdrop);
    xcb_flush(rc->c);
}

static int start_capture(struct rcell *rc, char *err, size_t errlen)
{
    struct stream *stream = bench_session_stream(rc->env->session);
    const struct capture *sampler = bench_session_capture(rc->env->session);
    if (stream)
        return resize_capture_start_stream(&rc->cap, stream, rc->win, rc->left0, rc->top0, err, errlen);
    if (sampler)
        return resize_capture_start_sampled(&rc->cap, sampler, rc->win, rc->left0, rc->top0, err, errlen);
    return resize_capture_start(&rc->cap, rc->win, rc->left0, rc->top0, err, errlen);
}

/* A WM that moves the window once it is shown (sway centres a floating window at its first commit,
 * after the user position was honoured): before anything is measured, the capture's lines and the
 * backdrop follow it, and what was captured at the old place is dropped.  NULL, or why not. */
static const char *follow_window(struct rcell *rc)
{
    int left = rc->left0, top = rc->top0;
    read_corner(rc);
    if (left == rc->left0 && top == rc->top0)
        return NULL;
    if (!fits(rc))
        return "windows never shown"; /* moved where its path does not fit */
    resize_capture_stop(&rc->cap);
    bool no_backdrop = atomic_load(&rc->cap.no_backdrop);
    struct capture_rec *recs = rc->cap.recs;
    memset(recs, 0, MAX_CAPTURES * sizeof *recs);
    for (int i = 0; i < THUMBS; i++)
        free(rc->cap.thumbs[i].rgb);
    memset(&rc->cap, 0, sizeof rc->cap);
    rc->cap.recs = recs;
    atomic_store(&rc->cap.no_backdrop, no_backdrop);
    int32_t xy[2] = {rc->left0 - PAD, rc->top0 - PAD};
    xcb_configure_window(rc->c, rc->backdrop, XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y, (const uint32_t *)xy);
    xcb_flush(rc->c);
    char err[256];
    return start_capture(rc, err, sizeof err) < 0 ? "x-error" : NULL;
}

/* Until a capture sees the window's paint at its corner (following it where the WM moves it);
 * once BACKDROP_CHECK_US has gone by without, the backdrop is looked at once: when it is what shows
 * there, it is taken away. */
static const char *wait_shown(struct rcell *rc, int64_t by)
{
    int64_t check_at = clock_now_us() + BACKDROP_CHECK_US;
    while (!atomic_load(&rc->cap.shown)) {
        const char *why = resize_client_turn(rc, clock_now_us() + 20000);
        if (!why)
            why = follow_window(rc);
        if (why)
            return why;
        if (!atomic_load(&rc->cap.no_backdrop) && clock_now_us() >= check_at && backdrop_covers_window(rc))
            take_backdrop_away(rc);
        if (clock_now_us() >= by)
            return "windows never shown";
    }
    return NULL;
}

static const char *run(struct rcell *rc, char *err, size_t errlen)
{
    int64_t show_by = rc->t0_us + SHOW_WAIT_US;
    while (!rc->mapped) {
        const char *why = resize_client_turn(rc, show_by);
        if (why)
            return why;
        if (clock_now_us() >= show_by)
            return "windows never shown";
    }
    xh_round_trip(rc->c);
    resize_client_pump(rc);
    read_corner(rc);
    if (!fits(rc)) {
        /* KWin's smart placement ignores USPosition: ask for it as a client move, and wait for the
         * WM to carry it out (bench/client.c does the same for its grid) */
        uint32_t xy[2] = {X0, Y0};
        xcb_configure_window(rc->c, rc->win, XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y, xy);
        xcb_flush(rc->c);
        int64_t until = clock_now_us() + PLACE_WAIT_US;
        while (!fits(rc) && clock_now_us() < until) {
            const char *why = resize_client_turn(rc, clock_now_us() + 20000);
            if (why)
                return why;
            read_corner(rc);
        }
    }
    if (!fits(rc)) {
        snprintf(err, errlen, "the window was placed at %d,%d: its path does not fit on the screen", rc->left0,
                 rc->top0);
        return NULL;
    }
    create_backdrop(rc);
    if (start_capture(rc, err, errlen) < 0)
        return NULL;
    rc->need_paint = true;
    const char *shown = wait_shown(rc, show_by);
    if (shown)
        return shown;
    const char *why = warm_up(rc);
    if (why)
        return why;
    if (!atomic_load(&rc->cap.no_backdrop) && backdrop_covers_window(rc)) {
        take_backdrop_away(rc);
        why = wait_shown(rc, clock_now_us() + SHOW_AGAIN_US);
        if (!why)
            why = warm_up(rc);
        if (why)
            return why;
    }
    /* the corner may have moved meanwhile (a WM placing late): the drive starts where it is */
    read_corner(rc);
    rc->drv.corner_x = rc->left0 + rc->w - 1;
    rc->drv.corner_y = rc->top0 + rc->h - 1;
    if (resize_driver_start(&rc->drv) < 0) {
        snprintf(err, errlen, "cannot start the driver thread");
        return NULL;
    }
    while (!atomic_load(&rc->drv.done)) {
        const char *why = resize_client_turn(rc, clock_now_us() + 10000);
        if (why)
            return why;
    }
    int64_t settle = clock_now_us() + SETTLE_US;
    while (clock_now_us() < settle) {
        const char *why = resize_client_turn(rc, settle);
        if (why)
            return why;
    }
    return "deadline";
}

/* What sees the screen and what drives the pointer and keys.  On an X server of the suite: root
 * DAMAGE and XTEST.  On a compositor that brings its X server (a Wayland compositor's Xwayland,
 * whose root shows nothing composited and whose XTEST does not reach the compositor's seat): its
 * screen stream, and its input helper; without them the cell cannot run, and says why. */
static int choose_paths(struct rcell *rc, char *err, size_t errlen)
{
    struct bench_session *session = rc->env->session;
    bool own = bench_session_own_xserver(session);
    if (own && !bench_session_stream(session) && !bench_session_capture(session)) {
        snprintf(err, errlen, "the compositor brings its X server, whose root shows nothing it composites, and its "
                              "conf names no screen stream or capture (`screen-stream:`, `screen-capture:`): the "
                              "resize cell cannot see its frames");
        return -1;
    }
    if (rc->rs->trigger == RT_CONFIGURE)
        return 0; /* the client's own ConfigureRequests: no input */
    const struct input_path *ip = bench_session_input(session);
    if (ip && ip->barrier && rc->rs->trigger == RT_KEYBOARD) {
        /* a key taken before the alarm of the client's last answer is a step dropped (KWin); a pointer
         * motion dropped so is replaced by the next, so the pointer cells need no barrier */
        snprintf(err, errlen, "the compositor's input path needs an input barrier (`input-barrier:`) before each "
                              "key, which the bench's driver does not make: its keyboard cells cannot run here");
        return -1;
    }
    if (ip) {
        rc->drv.seat_fd = ip->fd;
        return 0;
    }
    if (own && bench_session_no_input(session)[0]) {
        snprintf(err, errlen, "cannot be driven here: %s", bench_session_no_input(session));
        return -1;
    }
    const xcb_query_extension_reply_t *xt = xcb_get_extension_data(rc->drv.c, &xcb_test_id);
    if (!xt || !xt->present) {
        snprintf(err, errlen, "the X server has no XTEST extension");
        return -1;
    }
    return 0;
}

/* the cell's allocations and its two connections (the client's, the driver's); -1 with err */
static int cell_open(struct rcell *rc, char *err, size_t errlen)
{
    rc->paints = calloc(MAX_PAINTS, sizeof *rc->paints);
    rc->cap.recs = calloc(MAX_CAPTURES, sizeof *rc->cap.recs);
    rc->cap.stop[0] = rc->cap.stop[1] = rc->drv.stop[0] = rc->drv.stop[1] = -1;
    rc->drv.seat_fd = -1;
    rc->drv.recs = calloc(MAX_MOTIONS, sizeof *rc->drv.recs);
    rc->drv.rs = rc->rs;
    int passes = (int)(rc->env->opt->cell_ms / PATH_MS + 0.5);
    rc->drv.duration_us = (int64_t)(passes < 1 ? 1 : passes) * PATH_MS * 1000;
    rc->c = xcb_connect(NULL, NULL);
    rc->drv.c = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(rc->c) || xcb_connection_has_error(rc->drv.c)) {
        snprintf(err, errlen, "the resize client cannot connect to the X server");
        return -1;
    }
    if (choose_paths(rc, err, errlen) < 0)
        return -1;
    if (pipe2(rc->drv.stop, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    resize_client_init(rc);
    rc->drv.root = rc->scr->root;
    rc->drv.moveresize = rc->atom[A_MOVERESIZE];
    return 0;
}

/* every thread stopped, every window and counter destroyed, every connection closed, rc freed */
static void cell_close(struct rcell *rc)
{
    resize_driver_stop(&rc->drv);
    resize_capture_stop(&rc->cap);
    for (int i = 0; i < 2; i++)
        if (rc->drv.stop[i] >= 0)
            close(rc->drv.stop[i]);
    if (rc->c) {
        if (!xcb_connection_has_error(rc->c) && rc->win) {
            xcb_destroy_window(rc->c, rc->win);
            if (rc->backdrop)
                xcb_destroy_window(rc->c, rc->backdrop);
            if (rc->basic)
                xcb_sync_destroy_counter(rc->c, rc->basic);
            if (rc->ext)
                xcb_sync_destroy_counter(rc->c, rc->ext);
            xh_round_trip(rc->c);
        }
        xcb_disconnect(rc->c);
    }
    if (rc->drv.c)
        xcb_disconnect(rc->drv.c);
    free(rc->paints);
    free(rc->cap.recs);
    for (int i = 0; i < THUMBS; i++)
        free(rc->cap.thumbs[i].rgb);
    free(rc->drv.recs);
    free(rc->drv.keymap);
    free(rc);
}

int resize_cell_run(const struct cellspec *spec, const struct cell_env *env, struct cell_result *res, char *err,
                    size_t errlen)
{
    struct rcell *rc = calloc(1, sizeof *rc);
    rc->spec = spec;
    rc->rs = &spec->rs;
    rc->env = env;
    int rcode = -1;
    if (cell_open(rc, err, errlen) < 0)
        goto out;
    rc->t0_us = clock_now_us();
    resize_client_create_window(rc);
    rc->drv.win = rc->win;
    err[0] = 0;
    const char *ended_by = run(rc, err, errlen);
    if (!ended_by && err[0])
        goto out;
    resize_driver_stop(&rc->drv);
    resize_capture_stop(&rc->cap);
    resize_write_rows(rc, ended_by ? ended_by : "deadline", rcell_ms(rc, clock_now_us()), res);
    rcode = 0;
    if (rc->drv.seat_error[0]) { /* what it measured is kept, and the run says its input failed */
        snprintf(err, errlen, "the compositor's input path failed: %s", rc->drv.seat_error);
        rcode = -1;
    }
out:
    cell_close(rc);
    return rcode;
}
