/* The compositor's start-up (comp.h): its own connection and extensions, its own window (the
 * _NET_WM_CM_S0 owner, whose property stamps the paints), the redirection of the root's children
 * (manual) and the overlay window, the pictures, the windows already there, a first paint, then
 * _NET_WM_CM_S0 announced with MANAGER. */
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

/* the root's children redirected (manual), and the overlay window, which never takes input */
static xcb_window_t redirect_to_overlay(void)
{
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

void comp_start(void (*wm_catch_up)(void))
{
    compwin_start(open_connection());
    outputs_start();
    xcb_window_t stamp_win = create_stamp_window();
    stamps_start(stamp_win);
    xcb_window_t overlay = redirect_to_overlay();
    pictures_start();
    paint_start(overlay, wm_catch_up);
    fences_start();
    take_existing_windows();
    comp_schedule();
    paint(clock_now_us());

    selection_take(X.pc, stamp_win, A_NET_WM_CM_S0, X.last_time);
    logmsg("owns _NET_WM_CM_S0 (window %u); compositing into overlay %u at most %d times a second", stamp_win,
           overlay, opt.refresh_hz);
}
