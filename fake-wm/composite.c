/* The compositor, on its own connection (X.pc): owns _NET_WM_CM_S0, redirects the root's
 * children (manual), tracks DAMAGE, and paints with XRender into the Composite Overlay Window,
 * bottom to top on black, through a back buffer (one CopyArea-like Composite per frame, so a
 * GetImage of the root never sees a half-painted frame), at most once per refresh interval.
 *
 * Every window is painted from its own saved copy (a pixmap).  The copy is refreshed from the
 * window's Composite-named pixmap when the window was damaged and is not in the middle of an
 * update, and when its update counter goes even (the snapshot of the completed update).  While
 * the counter is odd the copy is not refreshed: that is the hold.
 *
 * After each paint a zero-length property append on our own window makes the server send a
 * PropertyNotify once it has processed the paint: that is the round trip after which the
 * drawn messages go out, and its time is the paint's server time. */
#include "fakewm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/composite.h>
#include <xcb/xfixes.h>
#include <xcb/shape.h>
#include <xcb/xcb_renderutil.h>

static xcb_window_t overlay, stamp_win;
static xcb_pixmap_t back_pix;
static xcb_render_picture_t overlay_pic, back_pic;
static const xcb_render_query_pict_formats_reply_t *formats;
static xcb_render_pictformat_t root_format;
static uint8_t damage_event_base;

/* how long a newly mapped window that has not drawn yet stays unshown */
#define FIRST_SHOW_GRACE_US 100000

/* the main loop's: handle every event of the WM connection the server sent before now */
static void (*catch_up)(void);

static bool paint_needed;
static int64_t last_paint = -1000000000;
static int64_t interval_us;
/* fault holds-whole-screen: an update began somewhere, and the screen is never repainted again */
static bool screen_frozen;

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

/* ---- per-window resources ---- */
static xcb_render_pictformat_t format_for_visual(xcb_visualid_t v, bool *argb)
{
    xcb_render_pictvisual_t *pv = xcb_render_util_find_visual_format(formats, v);
    *argb = false;
    if (!pv)
        return root_format;
    xcb_render_pictforminfo_iterator_t it = xcb_render_query_pict_formats_formats_iterator(formats);
    for (; it.rem; xcb_render_pictforminfo_next(&it))
        if (it.data->id == pv->format)
            *argb = it.data->direct.alpha_mask != 0;
    return pv->format;
}

static void learn_attrs(struct win *w)
{
    if (w->attrs_known)
        return;
    xcb_get_window_attributes_reply_t *a =
        xcb_get_window_attributes_reply(X.c, xcb_get_window_attributes(X.c, w->id), NULL);
    xcb_get_geometry_reply_t *g = xcb_get_geometry_reply(X.c, xcb_get_geometry(X.c, w->id), NULL);
    if (a && g) {
        w->attrs_known = true;
        w->input_only = a->_class == XCB_WINDOW_CLASS_INPUT_ONLY;
        w->visual = a->visual;
        w->depth = g->depth;
        if (!w->input_only)
            w->format = format_for_visual(w->visual, &w->argb);
    }
    free(a);
    free(g);
}

static void free_live(struct win *w)
{
    if (w->live_pic)
        xcb_render_free_picture(X.pc, w->live_pic);
    if (w->live_pix)
        xcb_free_pixmap(X.pc, w->live_pix);
    w->live_pic = w->live_pix = XCB_NONE;
}

static void free_saved(struct win *w)
{
    if (w->saved_pic)
        xcb_render_free_picture(X.pc, w->saved_pic);
    if (w->saved_pix)
        xcb_free_pixmap(X.pc, w->saved_pix);
    w->saved_pic = w->saved_pix = XCB_NONE;
    w->shown = false;
}

static void name_live(struct win *w)
{
    free_live(w);
    w->live_pix = xcb_generate_id(X.pc);
    xcb_composite_name_window_pixmap(X.pc, w->id, w->live_pix);
    w->live_pic = xcb_generate_id(X.pc);
    uint32_t mode = XCB_SUBWINDOW_MODE_INCLUDE_INFERIORS;
    xcb_render_create_picture(X.pc, w->live_pic, w->live_pix, w->format, XCB_RENDER_CP_SUBWINDOW_MODE, &mode);
}

static uint16_t outer_w(const struct win *w) { return (uint16_t)(w->w + 2 * w->bw); }
static uint16_t outer_h(const struct win *w) { return (uint16_t)(w->h + 2 * w->bw); }

/* a pixmap of the window's depth and outer size, with a picture of its format on it */
static void new_picture(const struct win *w, uint16_t ow, uint16_t oh, xcb_pixmap_t *pix, xcb_render_picture_t *pic)
{
    *pix = xcb_generate_id(X.pc);
    xcb_create_pixmap(X.pc, w->depth, *pix, X.root, ow, oh);
    *pic = xcb_generate_id(X.pc);
    xcb_render_create_picture(X.pc, *pic, *pix, w->format, 0, NULL);
}

/* the live contents into dst, damage taken: the window is clean until its next update */
static void take_live(struct win *w, xcb_render_picture_t dst, uint16_t ow, uint16_t oh)
{
    if (w->damage)
        xcb_damage_subtract(X.pc, w->damage, XCB_NONE, XCB_NONE);
    xcb_render_composite(X.pc, XCB_RENDER_PICT_OP_SRC, w->live_pic, XCB_NONE, dst, 0, 0, 0, 0, 0, 0, ow, oh);
    w->dirty = false;
}

/* refresh the saved copy from the live contents (the caller took care of fences) */
static void copy_live(struct win *w)
{
    uint16_t ow = outer_w(w), oh = outer_h(w);
    if (ow == 0 || oh == 0)
        return;
    if (!w->saved_pix || w->saved_w != ow || w->saved_h != oh) {
        bool was_shown = w->shown;
        free_saved(w);
        w->shown = was_shown;
        new_picture(w, ow, oh, &w->saved_pix, &w->saved_pic);
        w->saved_w = ow;
        w->saved_h = oh;
    }
    take_live(w, w->saved_pic, ow, oh);
    w->shown = true;
}

bool comp_snapshot(struct win *w, struct frame *f)
{
    uint16_t ow = outer_w(w), oh = outer_h(w);
    if (ow == 0 || oh == 0 || !w->live_pic)
        return false;
    new_picture(w, ow, oh, &f->pix, &f->pic);
    f->w = ow;
    f->h = oh;
    take_live(w, f->pic, ow, oh);
    return true;
}

void comp_free_frame(struct frame *f)
{
    if (f->pic)
        xcb_render_free_picture(X.pc, f->pic);
    if (f->pix)
        xcb_free_pixmap(X.pc, f->pix);
    f->pic = f->pix = XCB_NONE;
}

void comp_show_frame(struct win *w, struct frame *f)
{
    free_saved(w);
    w->saved_pix = f->pix;
    w->saved_pic = f->pic;
    w->saved_w = f->w;
    w->saved_h = f->h;
    w->shown = true;
    w->show_released = true; /* not overwritten by later damage before a paint has shown it */
    comp_schedule();
}

/* ---- delimited updates ---- */
/* w's second counter is followed (the extended form, or basic-only's window with two counters;
 * a window with one counter never) and odd */
static bool in_update(const struct win *w)
{
    return w->fupd.active && w->odd;
}

/* the compositor keeps showing the last complete frame of w (or nothing, if it has none) */
static bool held(const struct win *w)
{
    if (!in_update(w) || w->hold_expired || FAULT(NO_HOLD))
        return false;
    if (w->odd_from_map)
        return !FAULT(PAINT_ODD_MAP);
    return !FAULT(PAINT_WHILE_ODD);
}

/* w's saved copy is what is shown: held, or a staged frame is still to come (stage.c) */
static bool kept(const struct win *w)
{
    return held(w) || stage_holding(w);
}

/* a hold that ends by itself after --hold-timeout-ms (a frozen screen's hold never does) */
static bool hold_may_expire(const struct win *w)
{
    return in_update(w) && !w->hold_expired && !FAULT(BLOCK_FOREVER) && w->mapped && !FAULT(NO_HOLD) &&
           !screen_frozen;
}

/* fault holds-whole-screen: the first update of any window holds the whole screen, for ever; the
 * WM side (managing, requests, counters) goes on, only painting stops */
static void update_began(const struct win *w)
{
    if (!FAULT(HOLDS_WHOLE_SCREEN) || screen_frozen)
        return;
    screen_frozen = true;
    logmsg("window %u: its extended counter is odd: the screen is never repainted from now on (fault "
           "holds-whole-screen)",
           w->id);
}

/* a paint is wanted and may be issued now or at the next refresh */
static bool paint_wanted(void)
{
    return paint_needed && paints_in_flight == 0 && !screen_frozen;
}

static bool paintable(const struct win *w)
{
    return !w->own && w->mapped && w->attrs_known && !w->input_only && w->live_pic;
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
static bool delay_damage(struct win *w, int64_t now)
{
    if (w->defer_until)
        return true; /* already waiting: the earlier damage's delay covers this one */
    if (!VARIANT(DELAYED_OTHERS) || !w->shown)
        return false;
    const struct win *h = held_window_other_than(w);
    if (!h)
        return false;
    w->defer_until = now + DELAY_OTHERS_US;
    logmsg("window %u: damage shown %d ms late (window %u is held; variant delayed-others)", w->id,
           DELAY_OTHERS_US / 1000, h->id);
    return true;
}

static void end_expired_delays(int64_t now)
{
    for (int i = 0; i < nstack; i++) {
        struct win *w = stack[i];
        if (w->defer_until && now >= w->defer_until) {
            w->defer_until = 0;
            comp_schedule();
        }
    }
}

/* ---- window events from the WM side ---- */
static void ensure_damage(struct win *w)
{
    if (w->damage || !w->attrs_known || w->input_only)
        return;
    w->damage = xcb_generate_id(X.pc);
    xcb_damage_create(X.pc, w->damage, w->id, XCB_DAMAGE_REPORT_LEVEL_NON_EMPTY);
    xcb_flush(X.pc); /* before the map it will be asked for, so the first drawing is reported */
}

void comp_window_created(struct win *w)
{
    learn_attrs(w);
    ensure_damage(w);
}

void comp_window_mapped(struct win *w)
{
    learn_attrs(w);
    if (!w->attrs_known || w->input_only)
        return;
    ensure_damage(w);
    name_live(w);
    free_saved(w);
    w->dirty = true;
    /* not shown before it has drawn (a window's contents are undefined until its Expose
     * repaint), unless that takes longer than FIRST_SHOW_GRACE_US; damage that arrived before
     * this MapNotify (the two connections are not ordered) counts */
    w->mapped_at = clock_now_us();
    w->await_first = !w->drew;
    fade_window_mapped(w);
    if (in_update(w)) {
        /* mapped in the middle of an update: map + first paint are one update */
        update_began(w);
        w->odd_from_map = true;
        w->odd_since = clock_now_us();
        w->hold_expired = false;
    } else {
        w->odd_from_map = false;
    }
    drawn_window_mapped(w, w->fupd.value, in_update(w));
    comp_schedule();
}

/* a window that goes away while the compositor waits on its fence would block painting until
 * the timeout: release that wait at once */
static void release_fences_of(struct win *w, const char *why)
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

void comp_window_unmapped(struct win *w)
{
    release_fences_of(w, "unmapped");
    /* damage left from before the unmap would keep the NonEmpty level from reporting the first
     * drawing after the next map */
    if (w->damage)
        xcb_damage_subtract(X.pc, w->damage, XCB_NONE, XCB_NONE);
    w->drew = false;
    w->await_first = false;
    w->defer_until = 0;
    fade_window_unmapped(w);
    stage_forget(w);
    w->show_released = false;
    free_live(w);
    free_saved(w);
    drawn_forget(w);
    comp_schedule();
}

void comp_window_configured(struct win *w, bool resized, bool moved_or_restacked)
{
    if (!paintable(w))
        return;
    if (resized) {
        name_live(w); /* the old pixmap keeps the old size and contents */
        w->dirty = true;
        w->defer_until = 0; /* a new size is not damage: shown at once */
    }
    if (resized || moved_or_restacked)
        comp_schedule();
}

void comp_window_destroyed(struct win *w)
{
    stage_forget(w);
    free_live(w);
    free_saved(w);
    if (w->damage && !w->destroyed)
        xcb_damage_destroy(X.pc, w->damage); /* a destroyed window took its damage with it */
    w->damage = XCB_NONE;
    release_fences_of(w, "destroyed");
    for (int i = 0; i < st_count; i++) {
        struct stamp *s = &stamps[(st_head + i) % MAX_STAMPS];
        if (s->win == w->id)
            s->win = XCB_NONE;
    }
    drawn_forget(w);
    comp_schedule();
}

void comp_counter_changed(struct win *w, int64_t old, int64_t value)
{
    (void)old;
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
    if (paintable(w)) {
        xcb_sync_fence_t f = fences_before_update(w, value);
        /* the snapshot of the completed update: the saved copy, or a frame shown later */
        staged = stage_update(w, value, clock_now_us());
        if (!staged)
            copy_live(w);
        if (f != XCB_NONE) {
            fences_after_update(f);
            push_stamp(ST_FENCE, f, w->id);
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

void comp_schedule(void) { paint_needed = true; }

/* ---- events on the compositor connection ---- */
void comp_handle_event(xcb_generic_event_t *ev)
{
    uint8_t type = ev->response_type & 0x7f;
    if (type == damage_event_base + XCB_DAMAGE_NOTIFY) {
        xcb_damage_notify_event_t *d = (xcb_damage_notify_event_t *)ev;
        note_time(d->timestamp);
        struct win *w = win_find(d->drawable);
        if (!w)
            return;
        w->drew = true; /* also before we have seen its MapNotify */
        w->await_first = false;
        if (!paintable(w))
            return;
        w->dirty = true;
        if (kept(w))
            return; /* damage while held is part of the update: shown when it ends */
        if (delay_damage(w, clock_now_us()))
            return; /* comp_tick schedules the paint when the delay has passed */
        comp_schedule();
        return;
    }
    switch (type) {
    case XCB_PROPERTY_NOTIFY: {
        xcb_property_notify_event_t *p = (xcb_property_notify_event_t *)ev;
        note_time(p->time);
        if (p->window == stamp_win && p->atom == atom(A_FAKE_WM_PAINT_STAMP))
            stamp_returned(p->time);
        return;
    }
    case XCB_SELECTION_CLEAR: {
        xcb_selection_clear_event_t *e = (xcb_selection_clear_event_t *)ev;
        if (e->selection == atom(A_NET_WM_CM_S0)) {
            logmsg("lost _NET_WM_CM_S0 to another compositor, exiting");
            x_flush();
            exit(0);
        }
        return;
    }
    case XCB_SELECTION_REQUEST: {
        selection_refuse(X.pc, (xcb_selection_request_event_t *)ev);
        return;
    }
    default:
        return;
    }
}

/* ---- painting ---- */
/* w's saved copy into the back buffer, with opacity alpha (0xffff: opaque) */
static void draw_window(const struct win *w, uint16_t alpha)
{
    if (alpha == 0xffff) {
        xcb_render_composite(X.pc, w->argb ? XCB_RENDER_PICT_OP_OVER : XCB_RENDER_PICT_OP_SRC, w->saved_pic,
                             XCB_NONE, back_pic, 0, 0, 0, 0, w->x, w->y, w->saved_w, w->saved_h);
        return;
    }
    xcb_render_picture_t mask = xcb_generate_id(X.pc);
    xcb_render_color_t c = {0, 0, 0, alpha};
    xcb_render_create_solid_fill(X.pc, mask, c);
    xcb_render_composite(X.pc, XCB_RENDER_PICT_OP_OVER, w->saved_pic, mask, back_pic, 0, 0, 0, 0, w->x, w->y,
                         w->saved_w, w->saved_h);
    xcb_render_free_picture(X.pc, mask);
}

static void paint(int64_t now)
{
    /* learn every counter change the server processed before now */
    catch_up();

    bool any_held = false;
    for (int i = 0; i < nstack; i++)
        if (paintable(stack[i]) && held(stack[i]))
            any_held = true;
    if (FAULT(BLOCK_ALL) && any_held) {
        logv("not painting: a window is in the middle of an update (fault block-all)");
        return; /* paint_needed stays set; the hold ends with the update or the timeout */
    }

    /* damage outside updates: the compositor's own fence before reading those contents */
    bool copies = false;
    for (int i = 0; i < nstack; i++) {
        struct win *w = stack[i];
        if (paintable(w) && !w->await_first && !kept(w) && !w->show_released && !w->defer_until &&
            (w->dirty || !w->shown))
            copies = true;
    }
    if (copies)
        fences_own_before_paint();

    bool again = false;
    xcb_render_color_t black = {0, 0, 0, 0xffff};
    xcb_rectangle_t all = {0, 0, X.screen->width_in_pixels, X.screen->height_in_pixels};
    xcb_render_fill_rectangles(X.pc, XCB_RENDER_PICT_OP_SRC, back_pic, black, 1, &all);
    for (int i = 0; i < nstack; i++) {
        struct win *w = stack[i];
        if (!paintable(w) || w->await_first)
            continue;
        if (kept(w)) {
            if (!w->shown)
                continue; /* mapped in the middle of an update: not shown at all yet */
        } else if (!w->show_released && ((w->dirty && !w->defer_until) || !w->shown)) {
            copy_live(w);
        }
        if (!w->saved_pic)
            continue;
        draw_window(w, fade_alpha(w, now));
        drawn_collect(w);
        if (fade_running(w))
            again = true; /* a fade-in goes on with the next refresh */
        if (w->show_released) {
            w->show_released = false;
            if (w->dirty)
                again = true; /* what it drew since that update: in the next paint */
        }
    }
    xcb_render_composite(X.pc, XCB_RENDER_PICT_OP_SRC, back_pic, XCB_NONE, overlay_pic, 0, 0, 0, 0, 0, 0,
                         all.width, all.height);
    push_stamp(ST_PAINT, XCB_NONE, XCB_NONE);
    paints_in_flight++;
    paint_needed = again;
    last_paint = now;
    xcb_flush(X.pc);
}

static void check_holds(int64_t now)
{
    for (int i = 0; i < nstack; i++) {
        struct win *w = stack[i];
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

static void check_fences(int64_t now)
{
    for (int i = 0; i < st_count; i++) {
        struct stamp *s = &stamps[(st_head + i) % MAX_STAMPS];
        if (s->kind == ST_FENCE && !s->timed_out && now >= s->issued + (int64_t)opt.sync_timeout_ms * 1000) {
            s->timed_out = true;
            fences_timeout(s->fence, win_find(s->win));
        }
    }
}

void comp_tick(int64_t now)
{
    if (!X.pc)
        return;
    check_holds(now);
    check_fences(now);
    end_expired_delays(now);
    stage_release_due(now);
    drawn_tick(now);
    if (paint_wanted() && now >= last_paint + interval_us)
        paint(now);
}

int64_t comp_next_deadline(void)
{
    int64_t d = -1;
#define CONSIDER(t)                                                                                               \
    do {                                                                                                          \
        int64_t t_ = (t);                                                                                         \
        if (d < 0 || t_ < d)                                                                                      \
            d = t_;                                                                                               \
    } while (0)
    if (paint_wanted())
        CONSIDER(last_paint + interval_us);
    if (drawn_next_deadline() >= 0)
        CONSIDER(drawn_next_deadline());
    if (stage_next_deadline() >= 0)
        CONSIDER(stage_next_deadline());
    for (int i = 0; i < nstack; i++) {
        struct win *w = stack[i];
        if (w->await_first)
            CONSIDER(w->mapped_at + FIRST_SHOW_GRACE_US);
        if (hold_may_expire(w))
            CONSIDER(w->odd_since + (int64_t)opt.hold_timeout_ms * 1000);
        if (w->defer_until)
            CONSIDER(w->defer_until);
    }
    for (int i = 0; i < st_count; i++) {
        struct stamp *s = &stamps[(st_head + i) % MAX_STAMPS];
        if (s->kind == ST_FENCE && !s->timed_out)
            CONSIDER(s->issued + (int64_t)opt.sync_timeout_ms * 1000);
    }
#undef CONSIDER
    return d;
}

/* ---- start-up ---- */
static void need_ext(xcb_extension_t *ext, const char *name)
{
    const xcb_query_extension_reply_t *r = xcb_get_extension_data(X.pc, ext);
    if (!r || !r->present) {
        logmsg("the X server has no %s extension: cannot composite (try --no-composite)", name);
        exit(1);
    }
}

void comp_start(void (*wm_catch_up)(void))
{
    catch_up = wm_catch_up;
    interval_us = 1000000 / opt.refresh_hz;
    X.pc = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(X.pc)) {
        logmsg("cannot open the compositor connection");
        exit(1);
    }
    need_ext(&xcb_composite_id, "Composite");
    need_ext(&xcb_damage_id, "DAMAGE");
    need_ext(&xcb_xfixes_id, "XFIXES");
    need_ext(&xcb_render_id, "RENDER");
    need_ext(&xcb_sync_id, "SYNC");
    free(xcb_composite_query_version_reply(X.pc, xcb_composite_query_version(X.pc, 0, 4), NULL));
    free(xcb_damage_query_version_reply(X.pc, xcb_damage_query_version(X.pc, 1, 1), NULL));
    free(xcb_xfixes_query_version_reply(X.pc, xcb_xfixes_query_version(X.pc, 5, 0), NULL));
    free(xcb_sync_initialize_reply(X.pc, xcb_sync_initialize(X.pc, 3, 1), NULL));
    damage_event_base = xcb_get_extension_data(X.pc, &xcb_damage_id)->first_event;

    /* our own window: _NET_WM_CM_S0 owner and paint stamps */
    stamp_win = xcb_generate_id(X.pc);
    win_note_own(stamp_win);
    uint32_t vals[2] = {1, XCB_EVENT_MASK_PROPERTY_CHANGE};
    xcb_create_window(X.pc, XCB_COPY_FROM_PARENT, stamp_win, X.root, -100, -100, 1, 1, 0,
                      XCB_WINDOW_CLASS_INPUT_ONLY, XCB_COPY_FROM_PARENT, XCB_CW_OVERRIDE_REDIRECT | XCB_CW_EVENT_MASK,
                      vals);

    xcb_generic_error_t *err =
        xcb_request_check(X.pc, xcb_composite_redirect_subwindows_checked(X.pc, X.root, XCB_COMPOSITE_REDIRECT_MANUAL));
    if (err) {
        logmsg("cannot redirect the root's subwindows (another compositor is running?)");
        free(err);
        exit(1);
    }
    xcb_composite_get_overlay_window_reply_t *ow =
        xcb_composite_get_overlay_window_reply(X.pc, xcb_composite_get_overlay_window(X.pc, X.root), NULL);
    if (!ow) {
        logmsg("cannot get the composite overlay window");
        exit(1);
    }
    overlay = ow->overlay_win;
    free(ow);
    win_note_own(overlay);
    /* the overlay never takes input */
    xcb_xfixes_region_t empty = xcb_generate_id(X.pc);
    xcb_xfixes_create_region(X.pc, empty, 0, NULL);
    xcb_xfixes_set_window_shape_region(X.pc, overlay, XCB_SHAPE_SK_INPUT, 0, 0, empty);
    xcb_xfixes_destroy_region(X.pc, empty);

    formats = xcb_render_util_query_formats(X.pc);
    if (!formats) {
        logmsg("cannot query XRender formats");
        exit(1);
    }
    bool argb;
    root_format = format_for_visual(X.screen->root_visual, &argb);
    overlay_pic = xcb_generate_id(X.pc);
    xcb_render_create_picture(X.pc, overlay_pic, overlay, root_format, 0, NULL);
    back_pix = xcb_generate_id(X.pc);
    xcb_create_pixmap(X.pc, X.screen->root_depth, back_pix, X.root, X.screen->width_in_pixels,
                      X.screen->height_in_pixels);
    back_pic = xcb_generate_id(X.pc);
    xcb_render_create_picture(X.pc, back_pic, back_pix, root_format, 0, NULL);

    fences_start();

    /* windows that were there before us */
    for (int i = 0; i < nstack; i++) {
        if (stack[i]->own)
            continue;
        if (stack[i]->mapped) {
            comp_window_mapped(stack[i]);
            stack[i]->await_first = false; /* it was there before us: its contents are there */
        } else {
            comp_window_created(stack[i]);
        }
    }
    comp_schedule();
    paint(clock_now_us());

    selection_take(X.pc, stamp_win, A_NET_WM_CM_S0, X.last_time);
    logmsg("owns _NET_WM_CM_S0 (window %u); compositing into overlay %u at most %d times a second", stamp_win,
           overlay, opt.refresh_hz);
}
