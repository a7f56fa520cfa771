/* Painting (compint.h, comp.h): with XRender into the Composite Overlay Window, bottom to top on
 * black, through a back buffer (one CopyArea-like Composite per frame, so a GetImage of the root
 * never sees a half-painted frame), at most once per refresh interval; and the compositor's timers.
 * Every window is painted from its own saved copy (pictures.c), refreshed from its live contents
 * when it was damaged and is not kept (comphold.c). */
#include "comp.h"
#include "compint.h"

#include "compsched.h"
#include "drawn.h"
#include "embedded.h"
#include "fade.h"
#include "faults.h"
#include "fences.h"
#include "log.h"
#include "outputs.h"
#include "pictures.h"
#include "policies.h"
#include "policynotes.h"
#include "stage.h"
#include "state.h"
#include "variants.h"

#include "clock.h"
#include "xhelpers.h"

#include <xcb/composite.h>

static xcb_pixmap_t back_pix;
static xcb_render_picture_t overlay_pic, back_pic;
static int64_t last_paint = -1000000000;
static int64_t interval_us;
/* the main loop's: handle every event of the WM connection the server sent before now */
static void (*catch_up)(void);

void paint_start(xcb_window_t overlay, void (*wm_catch_up)(void))
{
    catch_up = wm_catch_up;
    interval_us = 1000000 / opt.refresh_hz;
    xcb_render_pictformat_t root_format = pictures_root_format();
    overlay_pic = xcb_generate_id(X.pc);
    xcb_render_create_picture(X.pc, overlay_pic, overlay, root_format, 0, NULL);
    back_pix = xcb_generate_id(X.pc);
    xcb_create_pixmap(X.pc, X.screen->root_depth, back_pix, X.root, X.screen->width_in_pixels,
                      X.screen->height_in_pixels);
    back_pic = xcb_generate_id(X.pc);
    xcb_render_create_picture(X.pc, back_pic, back_pix, root_format, 0, NULL);
}

/* a paint is wanted and may be issued now or at the next refresh */
static bool paint_wanted(void)
{
    return comp_scheduled() && stamps_paints_in_flight() == 0 && !screen_frozen();
}

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

static bool forced; /* comp_show_before_paint: called from the WM's handlers, no catch-up */

/* per-output-clock with two outputs or more: each output is painted at its own refresh */
static bool clock_per_output(void) { return VARIANT(PER_OUTPUT_CLOCK) && outputs_count() > 1; }

static int64_t last_paint_on[OUTPUTS_MAX] = {-1000000000, -1000000000, -1000000000, -1000000000};

/* w is refreshed, and its updates reported, by the paints of `output` (-1: the whole screen) */
static bool shown_by(const struct win *w, int output) { return output < 0 || outputs_of(w) == output; }

/* A paint of the whole screen (output -1) or of one output: the back buffer is drawn whole, the
 * windows the output shows are refreshed from their contents and their updates collected for the
 * drawn messages, and only the output's rectangle is copied to the overlay (the other outputs keep
 * what their own last paint put there). */
/* not painted at all yet: newly mapped and not drawn (FIRST_SHOW_GRACE_US), fault first-drawn-at-map's
 * wait, or policy show-after-first-answer's request at manage unanswered */
static bool not_yet_shown(const struct win *w) { return w->await_first || w->first_show_after || w->unready; }

/* when the next paint may be: --refresh-hz after the last one; policy frame-clock-drawn: the next
 * tick of a clock that runs whether or not anything is painted (mutter's frame clock), so an
 * update's paint and drawn message wait for it */
static int64_t next_paint_at(void)
{
    if (!POLICY(FRAME_CLOCK_DRAWN) || last_paint < 0)
        return last_paint + interval_us;
    return (last_paint / interval_us + 1) * interval_us;
}

/* what a paint of `output` copies to the overlay (-1: all of it) */
static xcb_rectangle_t area_of(int output, xcb_rectangle_t all)
{
    if (output < 0)
        return all;
    const struct output *o = outputs_get(output);
    return (xcb_rectangle_t){(int16_t)o->x, (int16_t)o->y, (uint16_t)o->w, (uint16_t)o->h};
}

/* w was refreshed by the paint of `output`: the other outputs that show part of it repaint too
 * (they draw it from what this paint took; one that painted just before keeps the old part) */
static void schedule_others_showing(const struct win *w, int output)
{
    for (int j = 0; output >= 0 && j < outputs_count(); j++)
        if (j != output && outputs_touch(w, j))
            comp_schedule_on(j);
}

static void paint_on(int64_t now, int output)
{
    /* learn every counter change the server processed before now */
    if (!forced)
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
        if (paintable(w) && shown_by(w, output) && !not_yet_shown(w) && !kept(w) &&
            !w->show_released && !w->defer_until && (w->dirty || !w->shown))
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
        if (!paintable(w) || not_yet_shown(w))
            continue;
        if (!shown_by(w, output)) {
            if (w->shown && w->saved_pic) /* its part on this output, as its own output last showed it */
                draw_window(w, fade_alpha(w, now));
            continue;
        }
        if (kept(w)) {
            if (!w->shown)
                continue; /* mapped in the middle of an update: not shown at all yet */
        } else if (!w->show_released && ((w->dirty && !w->defer_until) || !w->shown)) {
            copy_live(w);
            schedule_others_showing(w, output);
        }
        if (!w->saved_pic)
            continue;
        draw_window(w, fade_alpha(w, now));
        if (!w->first_shown_at) {
            w->first_shown_at = now ? now : 1;
            note_first_shown(w);
        }
        drawn_collect(w, outputs_of(w));
        if (fade_running(w))
            again = true; /* a fade-in goes on with the next refresh */
        if (w->show_released) {
            w->show_released = false;
            if (w->dirty)
                again = true; /* what it drew since that update: in the next paint */
        }
    }
    xcb_rectangle_t area = area_of(output, all);
    xcb_render_composite(X.pc, XCB_RENDER_PICT_OP_SRC, back_pic, XCB_NONE, overlay_pic, area.x, area.y, 0, 0, area.x,
                         area.y, area.width, area.height);
    stamps_paint_issued();
    if (output < 0) {
        comp_schedule_settle(again);
        for (int i = 0; i < OUTPUTS_MAX; i++)
            last_paint_on[i] = now;
    } else {
        comp_schedule_settle_on(output, again);
        last_paint_on[output] = now;

    }
    last_paint = now;
    xcb_flush(X.pc);
}

void paint(int64_t now) { paint_on(now, -1); }

/* per-output-clock: the output whose refresh is due first among those to be repainted, or -1 */
static int next_output(int64_t *due)
{
    int best = -1;
    for (int i = 0; i < outputs_count(); i++) {
        int64_t d = last_paint_on[i] + outputs_get(i)->interval_us;
        if (comp_scheduled_on(i) && (best < 0 || d < *due)) {
            best = i;
            *due = d;
        }
    }
    return best;
}

void comp_tick(int64_t now)
{
    if (!X.pc)
        return;
    if (!comp_live()) {
        comp_retry_start(now); /* --replace: the old compositor still redirects */
        return;
    }
    check_holds(now);
    embedded_check(now);
    stamps_check_fences(now);
    end_expired_delays(now);
    stage_release_due(now);
    drawn_tick(now);
    if (!paint_wanted())
        return;
    if (!clock_per_output()) {
        if (now >= next_paint_at())
            paint(now);
        return;
    }
    int64_t due = 0;
    int output = next_output(&due);
    if (output >= 0 && now >= due)
        paint_on(now, output);
}

int64_t comp_next_deadline(void)
{
    if (!comp_live())
        return comp_retry_deadline();
    int64_t d = -1;
#define CONSIDER(t)                                                                                               \
    do {                                                                                                          \
        int64_t t_ = (t);                                                                                         \
        if (d < 0 || t_ < d)                                                                                      \
            d = t_;                                                                                               \
    } while (0)
    int64_t due = 0;
    if (paint_wanted() && !clock_per_output())
        CONSIDER(next_paint_at());
    else if (paint_wanted() && next_output(&due) >= 0)
        CONSIDER(due);
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
        if (w->first_show_after)
            CONSIDER(w->first_show_after);
    }
    if (stamps_next_deadline() >= 0)
        CONSIDER(stamps_next_deadline());
    if (embedded_next_deadline() >= 0)
        CONSIDER(embedded_next_deadline());
#undef CONSIDER
    return d;
}

void comp_resize_answered(struct win *w)
{
    if (!X.pc || !w->resize_frozen)
        return;
    w->resize_frozen = false;
    if (paintable(w) && !kept(w)) {
        uint16_t old_w = w->saved_w, old_h = w->saved_h;
        copy_live(w); /* what the client answered with, before the WM applies its next resize */
        if (FAULT(NEW_BUFFER_IN_OLD_GEOMETRY) && old_w && (old_w != w->saved_w || old_h != w->saved_h)) {
            w->saved_w = old_w; /* drawn at the old size until the next copy_live (its next damage) */
            w->saved_h = old_h;
            logmsg("window %u: the answered contents shown at the old size %ux%u (fault new-buffer-in-old-geometry)",
                   w->id, old_w, old_h);
        }
        comp_schedule();
    }
    /* the compositor's requests are buffered until its next paint: its NameWindowPixmap of the
     * answered size and this copy must reach the server before the WM's next configure (sent on
     * the other connection right after this), or they name and copy the next size's pixmap (seen:
     * one frame of the next paint cropped to the answered size, about one cell in ten) */
    xh_round_trip(X.pc);
}

void comp_ready_for_painting(struct win *w)
{
    w->dirty = true;
    comp_schedule();
}

void comp_show_before_paint(struct win *w, const char *why)
{
    /* on the WM connection, inside the grab syncrequest.c began before the configure: the
     * window's new pixmap (old contents by bit gravity, background elsewhere) copied as it is */
    uint16_t ow = (uint16_t)(w->wm_w + 2 * w->bw), oh = (uint16_t)(w->wm_h + 2 * w->bw);
    xcb_pixmap_t named = xcb_generate_id(X.c), copy = xcb_generate_id(X.c);
    xcb_gcontext_t gc = xcb_generate_id(X.c);
    xcb_composite_name_window_pixmap(X.c, w->id, named);
    xcb_create_pixmap(X.c, w->depth, copy, X.root, ow, oh);
    xcb_create_gc(X.c, gc, copy, 0, NULL);
    xcb_copy_area(X.c, named, copy, gc, 0, 0, 0, 0, ow, oh);
    xcb_free_gc(X.c, gc);
    xcb_free_pixmap(X.c, named);
    xcb_ungrab_server(X.c);
    xh_round_trip(X.c);
    if (!X.pc || !paintable(w) || forced) {
        xcb_free_pixmap(X.c, copy);
        return;
    }
    /* that copy is the saved copy: shown now, and until the client's answer */
    free_saved(w);
    w->saved_pix = copy;
    w->saved_pic = xcb_generate_id(X.pc);
    xcb_render_create_picture(X.pc, w->saved_pic, copy, w->format, 0, NULL);
    w->saved_w = ow;
    w->saved_h = oh;
    w->shown = true;
    forced = true;
    paint(clock_now_us());
    forced = false;
    logmsg("window %u: shown at %ux%u before the client painted it (inject %s)", w->id, w->wm_w, w->wm_h, why);
}
