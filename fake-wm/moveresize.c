/* `_NET_WM_MOVERESIZE`: the one entry point of interactive resizes.  It checks the message
 * (format, window, source indication, direction), routes keyboard resizes (9, SIZE_KEYBOARD) to
 * keyresize.c and pointer-driven ones (0..7, SIZE_TOPLEFT..SIZE_LEFT) to pointerresize.c, ends
 * the running one on CANCEL (11), and ignores moves (8 and 10) with a log line.
 *
 * Starting one takes a device grab.  Another client may hold that device for an instant (a
 * client's probe grab): the grab is then retried on the main loop's timer, 2 ms apart, a few
 * times, and the resize is given up (logged) if it never succeeds.  At most one interactive
 * resize runs (or is starting) at a time, as in real WMs (one grab operation at a time).
 *
 * Each step of either kind is a ConfigureRequest made by the WM itself and goes through
 * sync_configure_request, exactly like a client's own resize. */
#include "moveresize.h"

#include "features.h"
#include "keyresize.h"
#include "log.h"
#include "pointerresize.h"
#include "state.h"
#include "sync.h"
#include "variants.h"

#include "clock.h"

#include <stdlib.h>

#define MOVERESIZE_SIZE_TOPLEFT 0
#define MOVERESIZE_SIZE_LEFT 7
#define MOVERESIZE_MOVE 8
#define MOVERESIZE_SIZE_KEYBOARD 9
#define MOVERESIZE_MOVE_KEYBOARD 10
#define MOVERESIZE_CANCEL 11

#define GRAB_ATTEMPTS 10
#define GRAB_RETRY_US 2000

/* a resize accepted but whose grab has not succeeded yet */
static struct {
    bool active;
    enum resize_origin kind; /* ORIGIN_KEYBOARD or ORIGIN_POINTER */
    xcb_window_t win;
    int attempts;
    int64_t next_try;
    struct ptr_start ptr; /* pointer: where and how it began */
    uint32_t source;
} starting;

static const char *kind_name(enum resize_origin k) { return k == ORIGIN_POINTER ? "pointer" : "keyboard"; }

static bool resize_running(xcb_window_t *which)
{
    if (starting.active) {
        *which = starting.win;
        return true;
    }
    return kbd_resize_running(which) || ptr_resize_running(which);
}

static void give_up_start(const char *why)
{
    logmsg("window %u: %s resize not started: %s", starting.win, kind_name(starting.kind), why);
    starting.active = false;
}

/* one grab attempt for the resize being started; on success the resize begins */
static void try_start(void)
{
    struct win *w = win_find(starting.win);
    if (!w || !w->managed || w->destroyed) {
        give_up_start("the window is no longer managed");
        return;
    }
    starting.attempts++;
    uint8_t status = starting.kind == ORIGIN_POINTER ? ptr_resize_grab() : kbd_resize_grab();
    if (status == XCB_GRAB_STATUS_SUCCESS) {
        starting.active = false;
        sync_interactive_started(w);
        if (starting.kind == ORIGIN_POINTER)
            ptr_resize_begin(w, &starting.ptr, starting.source);
        else
            kbd_resize_begin(w, starting.source);
        return;
    }
    bool again = starting.attempts < GRAB_ATTEMPTS;
    logmsg("%s resize: Grab%s failed (status %u)%s", kind_name(starting.kind),
           starting.kind == ORIGIN_POINTER ? "Pointer" : "Keyboard", status, again ? ", retrying in 2 ms" : "");
    if (!again) {
        give_up_start(starting.kind == ORIGIN_POINTER ? "the pointer could not be grabbed"
                                                      : "the keyboard could not be grabbed");
        return;
    }
    starting.next_try = clock_now_us() + GRAB_RETRY_US;
}

static void start(enum resize_origin kind, struct win *w, uint32_t source, const struct ptr_start *p)
{
    starting.active = true;
    starting.kind = kind;
    starting.win = w->id;
    starting.attempts = 0;
    starting.source = source;
    if (p)
        starting.ptr = *p;
    try_start();
}

static void cancel(xcb_window_t id)
{
    xcb_window_t running = XCB_NONE;
    if (starting.active && starting.win == id) {
        logmsg("window %u: %s resize cancelled (_NET_WM_MOVERESIZE_CANCEL) before its grab succeeded", id,
               kind_name(starting.kind));
        starting.active = false;
    } else if (kbd_resize_running(&running) && running == id) {
        kbd_resize_end("_NET_WM_MOVERESIZE_CANCEL");
    } else if (ptr_resize_running(&running) && running == id) {
        ptr_resize_end("_NET_WM_MOVERESIZE_CANCEL");
    } else {
        logmsg("window %u: _NET_WM_MOVERESIZE_CANCEL without a resize of it: ignored", id);
    }
}

/* the variant, if any, under which this kind of interactive resize is not done at all */
static const char *variant_refusing(enum resize_origin kind)
{
    if (kind == ORIGIN_POINTER && VARIANT(KEYBOARD_ONLY))
        return "keyboard-only: keyboard resizes only";
    if (kind == ORIGIN_KEYBOARD && VARIANT(POINTER_ONLY))
        return "pointer-only: pointer-driven resizes only";
    return NULL;
}

void moveresize_client_message(const xcb_client_message_event_t *e)
{
    if (!is_wm()) {
        /* it selects SubstructureNotify on the root, so it sees the message meant for a WM */
        logmsg("window %u: _NET_WM_MOVERESIZE ignored (variant cm-only: no window manager)", e->window);
        return;
    }
    if (e->format != 32) {
        logmsg("window %u: _NET_WM_MOVERESIZE with format %u, not 32: ignored", e->window, e->format);
        return;
    }
    uint32_t dir = e->data.data32[2], source = e->data.data32[4];
    if (dir == MOVERESIZE_CANCEL) {
        cancel(e->window);
        return;
    }
    bool pointer = dir <= MOVERESIZE_SIZE_LEFT;
    if (!pointer && dir != MOVERESIZE_SIZE_KEYBOARD) {
        logmsg("window %u: _NET_WM_MOVERESIZE direction %u ignored (%s)", e->window, dir,
               dir == MOVERESIZE_MOVE || dir == MOVERESIZE_MOVE_KEYBOARD
                   ? "moves are not implemented, only resizes"
                   : "not a direction of the spec");
        return;
    }
    struct win *w = win_find(e->window);
    if (!w || !w->managed || w->own || w->destroyed) {
        logmsg("window %u: _NET_WM_MOVERESIZE for a window that is not managed: ignored", e->window);
        return;
    }
    if (source > 2) {
        logmsg("window %u: _NET_WM_MOVERESIZE with source indication %u (not 0, 1 or 2): ignored", e->window,
               source);
        return;
    }
    const char *refused = variant_refusing(pointer ? ORIGIN_POINTER : ORIGIN_KEYBOARD);
    if (refused) {
        logmsg("window %u: %s resize (_NET_WM_MOVERESIZE direction %u) ignored (variant %s)", e->window,
               pointer ? "pointer" : "keyboard", dir, refused);
        return;
    }
    xcb_window_t running;
    if (resize_running(&running)) {
        logmsg("window %u: _NET_WM_MOVERESIZE while an interactive resize of window %u runs: ignored", e->window,
               running);
        return;
    }
    if (!pointer) {
        start(ORIGIN_KEYBOARD, w, source, NULL);
        return;
    }
    struct ptr_start p = {
        .dir = dir,
        .root_x = (int16_t)(int32_t)e->data.data32[0],
        .root_y = (int16_t)(int32_t)e->data.data32[1],
        .button = e->data.data32[3],
    };
    /* the client sends this while the button is held (a press on its own decoration); a stale
     * message after the release would leave a grab nobody ends */
    if (!ptr_resize_button_down()) {
        logmsg("window %u: _NET_WM_MOVERESIZE direction %u with no pointer button down: ignored", e->window, dir);
        return;
    }
    start(ORIGIN_POINTER, w, source, &p);
}

void moveresize_window_gone(struct win *w)
{
    if (starting.active && starting.win == w->id)
        give_up_start("the window is no longer managed");
    kbd_resize_window_gone(w);
    ptr_resize_window_gone(w);
}

void moveresize_check_timers(int64_t now)
{
    if (starting.active && now >= starting.next_try)
        try_start();
    ptr_resize_flush_motion();
}

int64_t moveresize_next_deadline(void)
{
    int64_t due = ptr_resize_next_due(); /* 0: a motion read while painting: apply it now */
    int64_t start = starting.active ? starting.next_try : -1;
    return due < 0 ? start : start < 0 || due < start ? due : start;
}
