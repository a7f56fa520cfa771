/* Pointer-driven resizing: `_NET_WM_MOVERESIZE` with a direction 0..7 (SIZE_TOPLEFT ..
 * SIZE_LEFT), sent by a client while a pointer button is held on its own decoration (GTK's
 * gtk_window_begin_resize_drag).  moveresize.c checks the message and takes the grab with
 * ptr_resize_grab (GrabPointer on the root, owner_events false, ButtonRelease | PointerMotion,
 * asynchronous), then ptr_resize_begin remembers where the pointer and the window started.
 *
 * Each MotionNotify moves the dragged edges by the pointer's offset from the start: the new
 * geometry is the start geometry plus that offset (the left and top edges also move x / y, so the
 * opposite edge stays put; the size is clamped to 1..32767).  Only the latest motion of a batch
 * of queued events is used (the motion is applied after the events read so far are handled), as
 * real WMs compress motion.  The geometry goes through sync_configure_request, exactly like a
 * client's own resize.  The release of the button ends it, as do _NET_WM_MOVERESIZE_CANCEL and
 * the window being unmanaged.
 *
 * Benchmark injections (injections.c): resize-lag=MS applies each pointer position only MS ms
 * after it was reached (the positions wait in a queue); configure-drop=K drops every K-th step
 * (the geometry is not configured; the next position is compared with the last one applied). */
#include "pointerresize.h"

#include "log.h"
#include "clock.h"
#include "state.h"
#include "sync.h"

#include <stdio.h>
#include <stdlib.h>

#define MAX_SIZE 32767
#define LAG_QUEUE 256
#define ANY_BUTTON_MASK                                                                                          \
    (XCB_KEY_BUT_MASK_BUTTON_1 | XCB_KEY_BUT_MASK_BUTTON_2 | XCB_KEY_BUT_MASK_BUTTON_3 |                          \
     XCB_KEY_BUT_MASK_BUTTON_4 | XCB_KEY_BUT_MASK_BUTTON_5)

static struct {
    bool active;
    xcb_window_t win;
    struct ptr_start start;
    int16_t x0, y0;     /* the geometry the window had (or was going to have) when it began */
    uint16_t w0, h0;
    int16_t x, y;       /* the geometry last asked for */
    uint16_t w, h;
    bool motion_pending; /* a pointer position not applied yet */
    int16_t px, py;
    struct { int64_t at; int16_t x, y; } lagq[LAG_QUEUE]; /* resize-lag: positions not due yet */
    int nlag;
    int64_t steps;       /* configure-drop counts them */
} pr;

/* which edges a direction drags */
static bool drags_left(uint32_t d) { return d == 0 || d == 6 || d == 7; }
static bool drags_right(uint32_t d) { return d == 2 || d == 3 || d == 4; }
static bool drags_top(uint32_t d) { return d == 0 || d == 1 || d == 2; }
static bool drags_bottom(uint32_t d) { return d == 4 || d == 5 || d == 6; }

static const char *const dir_names[8] = {"SIZE_TOPLEFT", "SIZE_TOP",         "SIZE_TOPRIGHT", "SIZE_RIGHT",
                                         "SIZE_BOTTOMRIGHT", "SIZE_BOTTOM", "SIZE_BOTTOMLEFT", "SIZE_LEFT"};

static bool query_pointer(int16_t *x, int16_t *y, uint16_t *mask)
{
    xcb_query_pointer_reply_t *r = xcb_query_pointer_reply(X.c, xcb_query_pointer(X.c, X.root), NULL);
    if (!r)
        return false;
    *x = r->root_x;
    *y = r->root_y;
    *mask = r->mask;
    free(r);
    return true;
}

bool ptr_resize_button_down(void)
{
    int16_t x, y;
    uint16_t mask;
    return query_pointer(&x, &y, &mask) && (mask & ANY_BUTTON_MASK);
}

uint8_t ptr_resize_grab(void)
{
    /* CurrentTime for the same reason as the keyboard grab: the message carries no timestamp */
    xcb_grab_pointer_reply_t *r = xcb_grab_pointer_reply(
        X.c,
        xcb_grab_pointer(X.c, 0 /* owner_events */, X.root,
                         XCB_EVENT_MASK_BUTTON_RELEASE | XCB_EVENT_MASK_POINTER_MOTION, XCB_GRAB_MODE_ASYNC,
                         XCB_GRAB_MODE_ASYNC, XCB_NONE, XCB_NONE, XCB_CURRENT_TIME),
        NULL);
    uint8_t status = r ? r->status : 0xff;
    free(r);
    return status;
}

bool ptr_resize_running(xcb_window_t *which)
{
    if (pr.active)
        *which = pr.win;
    return pr.active;
}

void ptr_resize_end(const char *why)
{
    if (!pr.active)
        return;
    xcb_ungrab_pointer(X.c, XCB_CURRENT_TIME);
    xcb_flush(X.c);
    logmsg("window %u: pointer resize ended (%s), pointer ungrabbed", pr.win, why);
    pr.active = false;
    pr.motion_pending = false;
    pr.nlag = 0;
    pr.win = XCB_NONE;
}

void ptr_resize_window_gone(struct win *w)
{
    if (pr.active && pr.win == w->id)
        ptr_resize_end("the window is no longer managed");
}

static uint16_t clamp_size(int v) { return (uint16_t)(v < 1 ? 1 : v > MAX_SIZE ? MAX_SIZE : v); }
static int16_t clamp_pos(int v) { return (int16_t)(v < INT16_MIN ? INT16_MIN : v > INT16_MAX ? INT16_MAX : v); }

/* the start geometry with the dragged edges moved by the pointer's offset from the start */
static struct configure_req geometry_at(int16_t px, int16_t py)
{
    uint32_t d = pr.start.dir;
    int dx = px - pr.start.root_x, dy = py - pr.start.root_y;
    struct configure_req r = {.mask = XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT};
    r.width = clamp_size(pr.w0 + (drags_right(d) ? dx : drags_left(d) ? -dx : 0));
    r.height = clamp_size(pr.h0 + (drags_bottom(d) ? dy : drags_top(d) ? -dy : 0));
    if (drags_left(d)) {
        /* the right edge stays where it was */
        r.mask |= XCB_CONFIG_WINDOW_X;
        r.x = clamp_pos(pr.x0 + pr.w0 - r.width);
    }
    if (drags_top(d)) {
        r.mask |= XCB_CONFIG_WINDOW_Y;
        r.y = clamp_pos(pr.y0 + pr.h0 - r.height);
    }
    return r;
}

static void apply_motion(struct win *w)
{
    pr.motion_pending = false;
    struct configure_req r = geometry_at(pr.px, pr.py);
    int16_t nx = (r.mask & XCB_CONFIG_WINDOW_X) ? r.x : pr.x, ny = (r.mask & XCB_CONFIG_WINDOW_Y) ? r.y : pr.y;
    if (r.width == pr.w && r.height == pr.h && nx == pr.x && ny == pr.y)
        return;
    if (r.mask & (XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y))
        logmsg("window %u: pointer resize: %ux%u -> %ux%u (position %d,%d -> %d,%d)", w->id, pr.w, pr.h, r.width,
               r.height, pr.x, pr.y, nx, ny);
    else
        logmsg("window %u: pointer resize: %ux%u -> %ux%u", w->id, pr.w, pr.h, r.width, r.height);
    if (opt.configure_drop && ++pr.steps % opt.configure_drop == 0) {
        logmsg("window %u: pointer resize step to %ux%u dropped (inject configure-drop=%d)", w->id, r.width,
               r.height, opt.configure_drop);
        return;
    }
    pr.w = r.width;
    pr.h = r.height;
    pr.x = nx;
    pr.y = ny;
    sync_configure_request(w, &r, ORIGIN_POINTER);
}

/* resize-lag: the latest queued position that is due becomes the pending one */
static void take_due_positions(int64_t now)
{
    int due = 0;
    while (due < pr.nlag && now >= pr.lagq[due].at + (int64_t)opt.resize_lag_ms * 1000)
        due++;
    if (!due)
        return;
    pr.px = pr.lagq[due - 1].x;
    pr.py = pr.lagq[due - 1].y;
    pr.motion_pending = true;
    for (int i = due; i < pr.nlag; i++)
        pr.lagq[i - due] = pr.lagq[i];
    pr.nlag -= due;
}

int64_t ptr_resize_next_due(void)
{
    if (!pr.active)
        return -1;
    if (pr.motion_pending)
        return 0;
    return pr.nlag ? pr.lagq[0].at + (int64_t)opt.resize_lag_ms * 1000 : -1;
}

void ptr_resize_flush_motion(void)
{
    if (pr.active && pr.nlag)
        take_due_positions(clock_now_us());
    if (!pr.active || !pr.motion_pending)
        return;
    struct win *w = win_find(pr.win);
    if (!w || !w->managed) {
        ptr_resize_end("the window is gone");
        return;
    }
    apply_motion(w);
}

bool ptr_resize_motion_pending(void) { return pr.active && pr.motion_pending; }

void ptr_resize_begin(struct win *w, const struct ptr_start *start, uint32_t source)
{
    pr.active = true;
    pr.win = w->id;
    pr.start = *start;
    sync_target_geometry(w, &pr.x0, &pr.y0, &pr.w0, &pr.h0);
    pr.x = pr.x0;
    pr.y = pr.y0;
    pr.w = pr.w0;
    pr.h = pr.h0;
    pr.motion_pending = false;
    pr.nlag = 0;
    pr.steps = 0;
    logmsg("window %u: pointer resize started (%s, button %u, source %u, pointer %d,%d, geometry %ux%u+%d+%d), "
           "pointer grabbed",
           w->id, dir_names[start->dir], start->button, source, start->root_x, start->root_y, pr.w0, pr.h0, pr.x0,
           pr.y0);
    /* the button may have been released, or the pointer moved, between the message and the grab:
     * those events went to the client, not to us */
    int16_t px, py;
    uint16_t mask;
    if (!query_pointer(&px, &py, &mask) || !(mask & ANY_BUTTON_MASK)) {
        ptr_resize_end("the button was released before the grab");
        return;
    }
    if (px != start->root_x || py != start->root_y) {
        pr.px = px;
        pr.py = py;
        pr.motion_pending = true;
    }
}

void ptr_resize_motion(const xcb_motion_notify_event_t *e)
{
    if (!pr.active)
        return;
    if (opt.resize_lag_ms) {
        if (pr.nlag == LAG_QUEUE)
            take_due_positions(INT64_MAX); /* full: the oldest is applied late rather than lost */
        pr.lagq[pr.nlag].at = clock_now_us();
        pr.lagq[pr.nlag].x = e->root_x;
        pr.lagq[pr.nlag].y = e->root_y;
        pr.nlag++;
        return;
    }
    pr.px = e->root_x;
    pr.py = e->root_y;
    pr.motion_pending = true;
}

void ptr_resize_button_release(const xcb_button_release_event_t *e)
{
    if (!pr.active)
        return;
    if (pr.start.button >= 1 && pr.start.button <= 5 && e->detail != pr.start.button) {
        logmsg("window %u: pointer resize: release of button %u ignored (the resize follows button %u)", pr.win,
               e->detail, pr.start.button);
        return;
    }
    /* the release position is where the drag ends (positions still queued by resize-lag: passed) */
    pr.nlag = 0;
    pr.px = e->root_x;
    pr.py = e->root_y;
    pr.motion_pending = true;
    ptr_resize_flush_motion();
    char why[64];
    snprintf(why, sizeof why, "button %u released", e->detail);
    ptr_resize_end(why);
}
