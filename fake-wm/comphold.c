/* Delimited updates in the compositor (compint.h, comp.h): while a window's followed second counter
 * is odd, the compositor keeps showing its last complete frame (its saved copy is not refreshed:
 * that is the hold), up to --hold-timeout-ms; when the counter goes even, the snapshot of the
 * completed update is taken (after its fence) and shown by the next paint, or staged (stage.c).
 * And the variant delayed-others: while a window is held, other windows' damage waits. */
#include "comp.h"
#include "compint.h"

#include "compsched.h"
#include "drawn.h"
#include "embedded.h"
#include "fade.h"
#include "faults.h"
#include "fences.h"
#include "log.h"
#include "pictures.h"
#include "stage.h"
#include "state.h"
#include "variants.h"

#include "clock.h"

/* fault holds-whole-screen: an update began somewhere, and the screen is never repainted again */
static bool frozen;

/* w's second counter is followed (the extended form, or basic-only's window with two counters;
 * a window with one counter never) and odd */
bool in_update(const struct win *w)
{
    return w->fupd.active && w->odd;
}

/* the compositor keeps showing the last complete frame of w (or nothing, if it has none) */
bool held(const struct win *w)
{
    if (w->hold_left)
        return true; /* fault replaced-keeps-hold: the zombie's hold never ends */
    if (!in_update(w) || w->hold_expired || FAULT(NO_HOLD))
        return false;
    if (w->odd_from_map)
        return !FAULT(PAINT_ODD_MAP);
    return !FAULT(PAINT_WHILE_ODD);
}

/* w's saved copy is what is shown: held, or a staged frame is still to come (stage.c) */
bool kept(const struct win *w)
{
    return held(w) || stage_holding(w) || w->resize_frozen || w->freeze_left || embedded_holds(w);
}

/* the replaced zombie of the faults replaced-keeps-* runs no hold timeout */
static bool no_hold_timeout;

void comp_no_hold_timeout(void) { no_hold_timeout = true; }

/* a hold that ends by itself after --hold-timeout-ms (a frozen screen's hold never does, nor a
 * replaced zombie's: it runs none of its timers, so it shows only what the counter says) */
bool hold_may_expire(const struct win *w)
{
    return in_update(w) && !w->hold_expired && !w->hold_left && !no_hold_timeout && !FAULT(BLOCK_FOREVER) && w->mapped && !FAULT(NO_HOLD) &&
           !frozen;
}

/* fault holds-whole-screen: the first update of any window holds the whole screen, for ever; the
 * WM side (managing, requests, counters) goes on, only painting stops */
void update_began(const struct win *w)
{
    if (!FAULT(HOLDS_WHOLE_SCREEN) || frozen)
        return;
    frozen = true;
    logmsg("window %u: its extended counter is odd: the screen is never repainted from now on (fault "
           "holds-whole-screen)",
           w->id);
}

bool screen_frozen(void) { return frozen; }

/* ---- fault destroyed-hold-lingers: the hold of a window destroyed in the middle of an update
 * outlives it by the hold timeout, and the damage of the windows shown at that moment waits for
 * its end (the liveness barrier's new windows are not held back) ---- */
static int64_t linger_from, linger_until;

void hold_gone_with(const struct win *w)
{
    /* follow_stop at the unmanage left w->odd as it was: the update it was in */
    if (!FAULT(DESTROYED_HOLD_LINGERS) || !w->odd || w->hold_expired || FAULT(NO_HOLD))
        return;
    linger_from = clock_now_us();
    linger_until = linger_from + (int64_t)opt.hold_timeout_ms * 1000;
    logmsg("window %u: destroyed in the middle of an update: its hold lingers for %d ms, and the damage of the "
           "windows shown now waits for it (fault destroyed-hold-lingers)",
           w->id, opt.hold_timeout_ms);
}

static bool held_back_by_lingering_hold(struct win *w, int64_t now)
{
    if (now >= linger_until || w->mapped_at >= linger_from)
        return false;
    w->defer_until = linger_until;
    logmsg("window %u: damage shown only when the lingering hold ends, in %lld ms (fault destroyed-hold-lingers)",
           w->id, (long long)((linger_until - now) / 1000));
    return true;
}

/* ---- delayed-others: while a window is held, other windows' damage waits DELAY_OTHERS_US ---- */
#define DELAY_OTHERS_US 200000

static const struct win *held_window_other_than(const struct win *w)
{
    for (int i = 0; i < nstack; i++)
        if (stack[i] != w && paintable(stack[i]) && held(stack[i]))
            return stack[i];
    return NULL;
}

/* the draft: "the compositing manager may either update it immediately or wait for a short timeout
 * before updating".  Returns true when w's damage is to be shown only once w->defer_until has
 * passed (comp_tick then schedules the paint).  Only windows already shown wait: a new window's
 * first frame is a map, not an update of other contents. */
bool delay_damage(struct win *w, int64_t now)
{
    if (w->defer_until)
        return true; /* already waiting: the earlier damage's delay covers this one */
    if (!w->shown)
        return false;
    if (held_back_by_lingering_hold(w, now))
        return true;
    if (!VARIANT(DELAYED_OTHERS))
        return false;
    const struct win *h = held_window_other_than(w);
    if (!h)
        return false;
    w->defer_until = now + DELAY_OTHERS_US;
    logmsg("window %u: damage shown %d ms late (window %u is held; variant delayed-others)", w->id,
           DELAY_OTHERS_US / 1000, h->id);
    return true;
}

void end_expired_delays(int64_t now)
{
    for (int i = 0; i < nstack; i++) {
        struct win *w = stack[i];
        if (w->defer_until && now >= w->defer_until) {
            w->defer_until = 0;
            comp_schedule();
        }
    }
}

/* ---- the update counter's changes ---- */
void comp_counter_changed(struct win *w, int64_t old, int64_t value)
{
    (void)old;
    if (w->hold_left || w->freeze_left)
        return; /* the zombie's picture of it is never refreshed (faults replaced-keeps-*) */
    if (value & 1) {
        update_began(w);
        if (!w->odd) {
            w->odd = true;
            w->odd_since = clock_now_us();
            w->hold_expired = false;
            w->odd_from_map = w->mapped && !w->shown;
            logv("window %u: update %lld begins", w->id, (long long)value);
        }
        return;
    }
    /* even: an update completed (from odd, or a jump to a new even value: an answered request) */
    bool expired = w->odd && w->hold_expired;
    w->drew = true;
    w->await_first = false;
    w->odd = false;
    w->odd_from_map = false;
    w->hold_expired = false;
    logv("window %u: update %lld complete%s", w->id, (long long)value, expired ? " (after the timeout)" : "");
    bool staged = false;
    /* an update that ends while a resize waits for its answer was drawn for the size before it:
     * the picture stays frozen (the answer's contents are taken then, comp_resize_answered) */
    if (paintable(w)) {
        xcb_sync_fence_t f = fences_before_update(w, value);
        /* the snapshot of the completed update: the saved copy, or a frame shown later */
        if (!w->resize_frozen) {
            staged = stage_update(w, value, clock_now_us());
            if (!staged)
                copy_live(w);
        }
        if (f != XCB_NONE) {
            fences_after_update(f);
            stamps_fence_issued(f, w->id);
        }
    }
    if (staged)
        return; /* stage.c reports it when it releases the frame */
    drawn_update_completed(w, value);
    fade_update_completed(w);
    comp_schedule();
}

void comp_counter_gone(struct win *w)
{
    w->odd = false;
    w->hold_expired = false;
    w->odd_from_map = false;
    drawn_forget(w);
    w->dirty = true;
    comp_schedule();
}

void check_holds(int64_t now)
{
    for (int i = 0; i < nstack; i++) {
        struct win *w = stack[i];
        if (w->first_show_after && now >= w->first_show_after) {
            w->first_show_after = 0;
            comp_schedule();
        }
        if (w->await_first && now >= w->mapped_at + FIRST_SHOW_GRACE_US) {
            w->await_first = false;
            logv("window %u: has not drawn %d ms after its map, showing it anyway", w->id,
                 FIRST_SHOW_GRACE_US / 1000);
            comp_schedule();
        }
        if (!hold_may_expire(w))
            continue;
        if (now >= w->odd_since + (int64_t)opt.hold_timeout_ms * 1000) {
            w->hold_expired = true;
            w->dirty = true;
            logmsg("window %u: update not finished after %d ms, drawing anyway", w->id, opt.hold_timeout_ms);
            comp_schedule();
        }
    }
}
