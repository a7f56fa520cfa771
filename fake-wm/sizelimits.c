/* The size limits of WM_NORMAL_HINTS (sizelimits.h), read at each resize: a client may change its
 * hints at any time, and one read per step costs a round trip only while something is resized. */
#include "sizelimits.h"

#include "log.h"
#include "state.h"
#include "xhelpers.h"

static uint16_t within(uint16_t v, struct xh_axis_range r)
{
    return (uint16_t)(v < r.lo ? r.lo : v > r.hi ? r.hi : v);
}

bool size_limits_apply(const struct win *w, struct configure_req *r, enum resize_origin o)
{
    if (!(r->mask & (XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT)))
        return false;
    struct xh_axis_range rw, rh;
    xh_size_ranges(X.c, w->id, &rw, &rh);
    uint16_t asked_w = r->width, asked_h = r->height;
    if (r->mask & XCB_CONFIG_WINDOW_WIDTH)
        r->width = within(r->width, rw);
    if (r->mask & XCB_CONFIG_WINDOW_HEIGHT)
        r->height = within(r->height, rh);
    if (r->width == asked_w && r->height == asked_h)
        return false;
    /* a pointer resize computed x (y) from the right (bottom) edge and the size asked: the edge stays */
    if (o == ORIGIN_POINTER && (r->mask & XCB_CONFIG_WINDOW_X))
        r->x = (int16_t)(r->x + (asked_w - r->width));
    if (o == ORIGIN_POINTER && (r->mask & XCB_CONFIG_WINDOW_Y))
        r->y = (int16_t)(r->y + (asked_h - r->height));
    logmsg("window %u: %s resize asked %ux%u; WM_NORMAL_HINTS allow %u..%u x %u..%u: %ux%u", w->id,
           origin_name(o), asked_w, asked_h, rw.lo, rw.hi, rh.lo, rh.hi, r->width, r->height);
    return true;
}
