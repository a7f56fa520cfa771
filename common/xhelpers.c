#include "xhelpers.h"

#include <stdlib.h>
#include <string.h>
#include <xcb/xcb_icccm.h>

bool xh_round_trip(xcb_connection_t *c)
{
    xcb_get_input_focus_reply_t *r = xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL);
    if (!r)
        return false;
    free(r);
    return true;
}

void xh_intern_atoms(xcb_connection_t *c, const char *const *names, int n, xcb_atom_t *out)
{
    xcb_intern_atom_cookie_t ck[n > 0 ? n : 1];
    for (int i = 0; i < n; i++)
        ck[i] = xcb_intern_atom(c, 0, (uint16_t)strlen(names[i]), names[i]);
    for (int i = 0; i < n; i++) {
        xcb_intern_atom_reply_t *r = xcb_intern_atom_reply(c, ck[i], NULL);
        out[i] = r ? r->atom : XCB_ATOM_NONE;
        free(r);
    }
}

bool xh_grabbed_by_other(xcb_connection_t *c, xcb_window_t root, bool pointer)
{
    uint8_t status;
    if (pointer) {
        xcb_grab_pointer_cookie_t ck =
            xcb_grab_pointer(c, 0, root, 0, XCB_GRAB_MODE_ASYNC, XCB_GRAB_MODE_ASYNC, XCB_NONE, XCB_NONE, 1);
        xcb_ungrab_pointer(c, XCB_CURRENT_TIME);
        xcb_grab_pointer_reply_t *r = xcb_grab_pointer_reply(c, ck, NULL);
        status = r ? r->status : XCB_GRAB_STATUS_INVALID_TIME;
        free(r);
    } else {
        xcb_grab_keyboard_cookie_t ck = xcb_grab_keyboard(c, 0, root, 1, XCB_GRAB_MODE_ASYNC, XCB_GRAB_MODE_ASYNC);
        xcb_ungrab_keyboard(c, XCB_CURRENT_TIME);
        xcb_grab_keyboard_reply_t *r = xcb_grab_keyboard_reply(c, ck, NULL);
        status = r ? r->status : XCB_GRAB_STATUS_INVALID_TIME;
        free(r);
    }
    return status == XCB_GRAB_STATUS_ALREADY_GRABBED || status == XCB_GRAB_STATUS_FROZEN;
}

void xh_size_ranges(xcb_connection_t *c, xcb_window_t win, struct xh_axis_range *rw, struct xh_axis_range *rh)
{
    *rw = *rh = (struct xh_axis_range){1, 32767};
    xcb_size_hints_t h;
    if (!xcb_icccm_get_wm_normal_hints_reply(c, xcb_icccm_get_wm_normal_hints(c, win), &h, NULL))
        return;
    if (h.flags & XCB_ICCCM_SIZE_HINT_P_MAX_SIZE) {
        if (h.max_width > 0 && h.max_width < 32767)
            rw->hi = (uint32_t)h.max_width;
        if (h.max_height > 0 && h.max_height < 32767)
            rh->hi = (uint32_t)h.max_height;
    }
    if (h.flags & XCB_ICCCM_SIZE_HINT_P_MIN_SIZE) {
        if (h.min_width > 0 && (uint32_t)h.min_width <= rw->hi)
            rw->lo = (uint32_t)h.min_width;
        if (h.min_height > 0 && (uint32_t)h.min_height <= rh->hi)
            rh->lo = (uint32_t)h.min_height;
    }
}
