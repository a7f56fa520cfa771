/* The compositor's start-up (comp.h): its own connection and extensions, its own window (the
 * _NET_WM_CM_S0 owner, whose property stamps the paints), the redirection of the root's children
 * (manual) and the overlay window, the pictures, the windows already there, a first paint, then
 * _NET_WM_CM_S0 announced with MANAGER; with --replace, _NET_WM_CM_S0 taken from the old compositor
 * first (selection_take_over), and the rest deferred while that one still redirects. */
#include "comp.h"
#include "compint.h"

#include "compsched.h"
#include "fences.h"
#include "log.h"
#include "outputs.h"
#include "pictures.h"
#include "selection.h"
#include "state.h"

#include "clock.h"
#include "xhelpers.h"

#include <stdlib.h>
#include <xcb/composite.h>
#include <xcb/damage.h>
#include <xcb/shape.h>
#include <xcb/sync.h>
#include <xcb/xfixes.h>

static void need_ext(xcb_extension_t *ext, const char *name)
{
    const xcb_query_extension_reply_t *r = xcb_get_extension_data(X.pc, ext);
    if (!r || !r->present) {
        logmsg("the X server has no %s extension: cannot composite (try --no-composite)", name);
        exit(1);
    }
}

/* the compositor connection, with the extensions it needs; returns DAMAGE's first event */
static uint8_t open_connection(void)
{
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
    return xcb_get_extension_data(X.pc, &xcb_damage_id)->first_event;
}

/* our own window: _NET_WM_CM_S0 owner and paint stamps */
static xcb_window_t create_stamp_window(void)
{
    xcb_window_t stamp_win = xcb_generate_id(X.pc);
    win_note_own(stamp_win);
    uint32_t vals[2] = {1, XCB_EVENT_MASK_PROPERTY_CHANGE};
    xcb_create_window(X.pc, XCB_COPY_FROM_PARENT, stamp_win, X.root, -100, -100, 1, 1, 0,
                      XCB_WINDOW_CLASS_INPUT_ONLY, XCB_COPY_FROM_PARENT, XCB_CW_OVERRIDE_REDIRECT | XCB_CW_EVENT_MASK,
                      vals);
    return stamp_win;
}

/* the root's children redirected (manual); false when another client holds that */
static bool redirect(void)
{
    xcb_generic_error_t *err =
        xcb_request_check(X.pc, xcb_composite_redirect_subwindows_checked(X.pc, X.root, XCB_COMPOSITE_REDIRECT_MANUAL));
    free(err);
    return err == NULL;
}

/* the overlay window, which never takes input */
static xcb_window_t take_overlay(void)
{
    xcb_composite_get_overlay_window_reply_t *ow =
        xcb_composite_get_overlay_window_reply(X.pc, xcb_composite_get_overlay_window(X.pc, X.root), NULL);
    if (!ow) {
        logmsg("cannot get the composite overlay window");
        exit(1);
    }
    xcb_window_t overlay = ow->overlay_win;
    free(ow);
    win_note_own(overlay);
    /* the overlay never takes input */
    xcb_xfixes_region_t empty = xcb_generate_id(X.pc);
    xcb_xfixes_create_region(X.pc, empty, 0, NULL);
    xcb_xfixes_set_window_shape_region(X.pc, overlay, XCB_SHAPE_SK_INPUT, 0, 0, empty);
    xcb_xfixes_destroy_region(X.pc, empty);
    return overlay;
}

/* windows that were there before us */
static void take_existing_windows(void)
{
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
}

/* ---- the start, possibly deferred (--replace) ---- */
#define REDIRECT_RETRY_MS 100

static xcb_window_t stamp_win;
static void (*catch_up)(void);
static bool live;
static int64_t retry_at = -1;

bool comp_live(void) { return live; }
int64_t comp_retry_deadline(void) { return live ? -1 : retry_at; }

/* what the WM side did not tell a compositor that was not live yet: the update counters' parity
 * (comp_counter_changed), the fences of the windows it managed meanwhile */
static void catch_up_windows(void)
{
    for (int i = 0; i < nstack; i++) {
        struct win *w = stack[i];
        if (w->own)
            continue;
        if (w->fupd.active)
            w->odd = (w->fupd.value & 1) != 0, w->odd_since = clock_now_us();
        if (w->managed)
            fences_read(w);
    }
}

/* redirected: the overlay, the pictures, the windows as they are now, a first paint, then
 * _NET_WM_CM_S0 announced with MANAGER (with --replace it was taken before the redirection) */
static void go_live(void)
{
    xcb_window_t overlay = take_overlay();
    pictures_start();
    paint_start(overlay, catch_up);
    fences_start();
    if (retry_at >= 0)
        catch_up_windows();
    live = true;
    take_existing_windows();
    comp_schedule();
    paint(clock_now_us());

    selection_take(X.pc, stamp_win, A_NET_WM_CM_S0, X.last_time);
    logmsg("owns _NET_WM_CM_S0 (window %u); compositing into overlay %u at most %d times a second", stamp_win,
           overlay, opt.refresh_hz);
}

void comp_retry_start(int64_t now)
{
    if (live || retry_at < 0 || now < retry_at)
        return;
    if (redirect()) {
        logmsg("--replace: the root's subwindows are redirected now: compositing starts");
        go_live();
    } else {
        retry_at = now + REDIRECT_RETRY_MS * 1000;
    }
}

void comp_start(void (*wm_catch_up)(void))
{
    compwin_start(open_connection());
    outputs_start();
    stamp_win = create_stamp_window();
    stamps_start(stamp_win);
    catch_up = wm_catch_up;
    if (opt.replace)
        selection_take_over(X.pc, stamp_win, A_NET_WM_CM_S0, X.last_time);
    if (redirect()) {
        go_live();
        return;
    }
    if (!opt.replace) {
        logmsg("cannot redirect the root's subwindows (another compositor is running?)");
        exit(1);
    }
    /* the old compositor did not release its redirection before its window went (or never
     * destroyed it): the WM runs, the compositing waits */
    logmsg("--replace: cannot redirect the root's subwindows yet (the old compositor still does): trying again every "
           "%d ms",
           REDIRECT_RETRY_MS);
    retry_at = clock_now_us() + REDIRECT_RETRY_MS * 1000;
}

void comp_release(void)
{
    if (!X.pc)
        return;
    if (live) {
        xcb_composite_unredirect_subwindows(X.pc, X.root, XCB_COMPOSITE_REDIRECT_MANUAL);
        xcb_composite_release_overlay_window(X.pc, X.root);
    }
    xcb_destroy_window(X.pc, stamp_win);
    xh_round_trip(X.pc);
}
