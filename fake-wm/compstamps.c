/* What is in flight on the compositor connection (compint.h): paints and fence waits.  After each
 * a zero-length property append on our own window makes the server send a PropertyNotify once it
 * has processed it: for a paint, that is the round trip after which the drawn messages go out, and
 * its time is the paint's server time. */
#include "compint.h"

#include "drawn.h"
#include "fences.h"
#include "log.h"
#include "state.h"

#include "clock.h"

/* what is in flight on the compositor connection, in order */
enum stamp_kind { ST_PAINT, ST_FENCE };
struct stamp {
    enum stamp_kind kind;
    int64_t issued;
    xcb_sync_fence_t fence;
    xcb_window_t win;
    bool timed_out;
};
#define MAX_STAMPS 1024
static struct stamp stamps[MAX_STAMPS];
static int st_head, st_count;
static int paints_in_flight;
static xcb_window_t stamp_win;

static void push_stamp(enum stamp_kind k, xcb_sync_fence_t f, xcb_window_t win)
{
    if (st_count == MAX_STAMPS) {
        logmsg("too many requests in flight on the compositor connection");
        return;
    }
    struct stamp *s = &stamps[(st_head + st_count) % MAX_STAMPS];
    *s = (struct stamp){.kind = k, .issued = clock_now_us(), .fence = f, .win = win};
    st_count++;
    xcb_change_property(X.pc, XCB_PROP_MODE_APPEND, stamp_win, atom(A_FAKE_WM_PAINT_STAMP), XCB_ATOM_CARDINAL,
                        32, 0, NULL);
}

static void stamp_returned(xcb_timestamp_t t)
{
    if (st_count == 0)
        return;
    struct stamp s = stamps[st_head];
    st_head = (st_head + 1) % MAX_STAMPS;
    st_count--;
    if (s.kind == ST_PAINT) {
        paints_in_flight--;
        drawn_paint_done(t);
        logv("paint processed by the server at %u", t);
    } else {
        logv("fence %u passed (window %u)", s.fence, s.win);
    }
}

void stamps_start(xcb_window_t win) { stamp_win = win; }

void stamps_paint_issued(void)
{
    push_stamp(ST_PAINT, XCB_NONE, XCB_NONE);
    paints_in_flight++;
}

int stamps_paints_in_flight(void) { return paints_in_flight; }

void stamps_fence_issued(xcb_sync_fence_t f, xcb_window_t win) { push_stamp(ST_FENCE, f, win); }

bool stamps_property_notify(const xcb_property_notify_event_t *p)
{
    if (p->window != stamp_win || p->atom != atom(A_FAKE_WM_PAINT_STAMP))
        return false;
    stamp_returned(p->time);
    return true;
}

void stamps_release_fences_of(struct win *w, const char *why)
{
    for (int i = 0; i < st_count; i++) {
        struct stamp *s = &stamps[(st_head + i) % MAX_STAMPS];
        if (s->kind == ST_FENCE && s->win == w->id && !s->timed_out) {
            s->timed_out = true;
            logmsg("window %u: %s while the compositor waits on its fence %u: triggering it to carry on", w->id,
                   why, s->fence);
            xcb_sync_trigger_fence(X.c, s->fence);
        }
    }
}

void stamps_forget_window(xcb_window_t id)
{
    for (int i = 0; i < st_count; i++) {
        struct stamp *s = &stamps[(st_head + i) % MAX_STAMPS];
        if (s->win == id)
            s->win = XCB_NONE;
    }
}

void stamps_check_fences(int64_t now)
{
    for (int i = 0; i < st_count; i++) {
        struct stamp *s = &stamps[(st_head + i) % MAX_STAMPS];
        if (s->kind == ST_FENCE && !s->timed_out && now >= s->issued + (int64_t)opt.sync_timeout_ms * 1000) {
            s->timed_out = true;
            fences_timeout(s->fence, win_find(s->win));
        }
    }
}

int64_t stamps_next_deadline(void)
{
    int64_t d = -1;
    for (int i = 0; i < st_count; i++) {
        struct stamp *s = &stamps[(st_head + i) % MAX_STAMPS];
        int64_t t = s->issued + (int64_t)opt.sync_timeout_ms * 1000;
        if (s->kind == ST_FENCE && !s->timed_out && (d < 0 || t < d))
            d = t;
    }
    return d;
}
