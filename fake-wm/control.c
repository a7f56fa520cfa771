/* The control channel: what a test asks fake-wm to do to a client window, for the client side of
 * the suite (`--client`, cases/client/).  There a real application is under test and fake-wm plays
 * its compositor, so fake-wm itself must start the resizes and moves a compositor makes (a sync
 * request, then the configure) and be able to hold back its drawn messages.
 *
 * A command is a ClientMessage sent to the root window with SubstructureRedirect (as
 * _NET_WM_MOVERESIZE is), message_type _FRAMESYNC_WM_CONTROL, format 32:
 *   l[0] = 1 resize: l[1] window, l[2] width, l[3] height (a sync request, then the configure);
 *                    l[4] a gap in milliseconds between the two (0: none, the configure at once)
 *   l[0] = 2 move:   l[1] window, l[2] dx, l[3] dy (signed): a sync request, then a configure that
 *                    changes the position only, and the synthetic ConfigureNotify ICCCM asks for
 *   l[0] = 3 drawn:  l[1] 0 send drawn messages as usual, 1 never send them, 2 delay them by
 *                    l[2] milliseconds
 *   l[0] = 4 settle: l[1] window: a wait for its unanswered sync request (and a configure held back
 *                    for it) ends now, as at the timeout: between two cases that share one
 *                    application (harness/app-keep.c), the next must not begin with the last
 *                    one's request pending (GTK 3 answers the draft's request on its first counter
 *                    only, and fake-wm waits for the second)
 * An X message, not a pipe: any client of the run's server (the harness's observer) can send it
 * without knowing how fake-wm was started, and a real compositor simply ignores it. */
#include "control.h"

#include "drawn.h"
#include "log.h"
#include "policies.h"
#include "state.h"
#include "sync.h"
#include "win.h"
#include "xhelpers.h"

#include <string.h>

enum { CONTROL_RESIZE = 1, CONTROL_MOVE = 2, CONTROL_DRAWN = 3, CONTROL_SETTLE = 4 };
/* the longest gap a resize may leave between its request and its configure */
#define MAX_GAP_MS 60000

static uint32_t clamp_axis(uint32_t v, struct xh_axis_range r)
{
    return v < r.lo ? r.lo : v > r.hi ? r.hi : v;
}

/* A size on one axis other than `now`, within r: `now` + STEP if allowed, else `now` - STEP, else
 * the far end of r; `now` when r holds no other size. */
static uint32_t other_on_axis(uint32_t now, struct xh_axis_range r)
{
    enum { STEP = 40 };
    if (now + STEP <= r.hi)
        return now + STEP;
    if (now >= r.lo + STEP)
        return now - STEP;
    return now != r.hi ? r.hi : now != r.lo ? r.lo : now;
}

/* The control resize is what a user's resize would be: the asked size, kept within the window's
 * minimum and maximum (ICCCM 4.1.2.3; ignoring them deadlocked GTK 3: Firefox asks for its minimum
 * again at once and freezes its frame clock until that request's ConfigureNotify, while fake-wm
 * queued the request behind its own sync request, whose answer the frozen clock never ends).  When the size kept is
 * the one it has (GTK's widget factory sets its minimum to its size), the resize must still
 * change the size, or no request would be made: another size the hints allow. */
static void control_resize(struct win *w, uint32_t wd, uint32_t ht, uint32_t gap_ms)
{
    if (wd < 1 || ht < 1 || wd > 32767 || ht > 32767) {
        logmsg("window %u: control resize to %ux%u refused (size out of range)", w->id, wd, ht);
        return;
    }
    if (gap_ms > MAX_GAP_MS) {
        logmsg("window %u: control resize with a gap of %u ms refused (at most %d)", w->id, gap_ms, MAX_GAP_MS);
        return;
    }
    uint32_t asked_w = wd, asked_h = ht;
    if (POLICY(OTHER_SIZE)) { /* the WM's constraints give another size than the one asked */
        wd = wd > OTHER_SIZE_STEP ? wd - OTHER_SIZE_STEP : wd + OTHER_SIZE_STEP;
        ht = ht > OTHER_SIZE_STEP ? ht - OTHER_SIZE_STEP : ht + OTHER_SIZE_STEP;
    }
    struct xh_axis_range rw, rh;
    xh_size_ranges(X.c, w->id, &rw, &rh);
    wd = clamp_axis(wd, rw);
    ht = clamp_axis(ht, rh);
    if (wd == w->wm_w && ht == w->wm_h) {
        wd = other_on_axis(wd, rw);
        ht = other_on_axis(ht, rh);
    }
    if (wd == w->wm_w && ht == w->wm_h) {
        logmsg("window %u: control: no resize (asked %ux%u): WM_NORMAL_HINTS allow only its size %ux%u", w->id,
               asked_w, asked_h, wd, ht);
        return;
    }
    struct configure_req r = {.mask = XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT,
                              .width = (uint16_t)wd, .height = (uint16_t)ht};
    if (wd != asked_w || ht != asked_h)
        logmsg("window %u: control: resize to %ux%u (asked %ux%u; WM_NORMAL_HINTS allow %u..%u x %u..%u)", w->id, wd,
               ht, asked_w, asked_h, rw.lo, rw.hi, rh.lo, rh.hi);
    else
        logmsg("window %u: control: resize to %ux%u", w->id, wd, ht);
    if (gap_ms)
        sync_configure_after_gap(w, &r, (int)gap_ms);
    else
        sync_configure_request(w, &r, ORIGIN_KEYBOARD);
}

static void control_move(struct win *w, int32_t dx, int32_t dy)
{
    struct configure_req r = {.mask = XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y,
                              .x = (int16_t)(w->wm_x + dx), .y = (int16_t)(w->wm_y + dy)};
    logmsg("window %u: control: move by %d,%d (size kept), with a sync request", w->id, dx, dy);
    sync_forced_configure(w, &r);
    /* ICCCM 4.1.5: a move without a resize gets a synthetic ConfigureNotify */
    xcb_configure_notify_event_t e;
    memset(&e, 0, sizeof e);
    e.response_type = XCB_CONFIGURE_NOTIFY;
    e.event = e.window = w->id;
    e.x = r.x;
    e.y = r.y;
    e.width = w->wm_w;
    e.height = w->wm_h;
    e.border_width = w->bw;
    xcb_send_event(X.c, 0, w->id, XCB_EVENT_MASK_STRUCTURE_NOTIFY, (const char *)&e);
}

bool control_client_message(const xcb_client_message_event_t *e)
{
    if (e->type != atom(A_FRAMESYNC_WM_CONTROL) || e->format != 32)
        return false;
    const uint32_t *l = e->data.data32;
    if (l[0] == CONTROL_DRAWN) {
        enum drawn_control mode = l[1] <= 2 ? (enum drawn_control)l[1] : DRAWN_AS_USUAL;
        logmsg("control: drawn messages %s", mode == DRAWN_AS_USUAL ? "sent as usual"
                                             : mode == DRAWN_WITHHELD ? "withheld (never sent)" : "delayed");
        drawn_set_control(mode, (int)l[2]); /* as usual: the delayed ones go now */
        return true;
    }
    struct win *w = win_find(l[1]);
    if (!w || !w->managed) {
        logmsg("control: window %u is not managed, command %u ignored", l[1], l[0]);
        return true;
    }
    if (l[0] == CONTROL_RESIZE)
        control_resize(w, l[2], l[3], l[4]);
    else if (l[0] == CONTROL_MOVE)
        control_move(w, (int32_t)l[2], (int32_t)l[3]);
    else if (l[0] == CONTROL_SETTLE)
        sync_settle(w);
    else
        logmsg("control: unknown command %u ignored", l[0]);
    return true;
}
