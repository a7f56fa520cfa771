/* The X helpers every program of the suite needs, defined once (harness, fake client, fake-wm,
 * app-observer, model-app, the benchmark): a round trip, and the SYNC extension's 64-bit values. */
#ifndef FRAMESYNC_XHELPERS_H
#define FRAMESYNC_XHELPERS_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/sync.h>
#include <xcb/xcb.h>

/* A GetInputFocus round trip: when it returns, the server has processed every request sent
 * before it (and the events they caused are queued).  false when the connection is gone. */
bool xh_round_trip(xcb_connection_t *c);

/* Interns n atoms in one round trip (the requests pipelined): out[i] is names[i]'s atom, created
 * when missing; XCB_ATOM_NONE when the connection failed. */
void xh_intern_atoms(xcb_connection_t *c, const char *const *names, int n, xcb_atom_t *out);

/* Does another client hold the pointer (pointer true) or keyboard grab, i.e. has the WM entered
 * its move/resize mode?  The probe is a grab with the timestamp 1 (far in the past): AlreadyGrabbed
 * is checked first, and otherwise the server refuses it (InvalidTime) or, before any grab ever
 * happened, grants it at that old time.  A probe at CurrentTime would move the device's last-grab
 * time to now, and a WM that then grabs with the (older) timestamp of the event it handles gets
 * InvalidTime (xfwm4, KWin).  Grab and ungrab go back to back, so a granted probe lasts for no
 * other request. */
bool xh_grabbed_by_other(xcb_connection_t *c, xcb_window_t root, bool pointer);

/* The sizes a window's WM_NORMAL_HINTS allow on one axis (ICCCM 4.1.2.3: a WM keeps it within its
 * minimum and maximum), [lo, hi] within 1..32767; the whole range when it sets none.  One reading
 * for fake-wm, which resizes within it, and app-observer, which tells a window fixed at one size
 * (lo = hi on both axes) that no WM resizes. */
struct xh_axis_range {
    uint32_t lo, hi;
};
void xh_size_ranges(xcb_connection_t *c, xcb_window_t win, struct xh_axis_range *rw, struct xh_axis_range *rh);

/* XSync INT64 <-> int64_t (hi is signed, lo unsigned, as on the wire). */
static inline int64_t xh_sync_value(xcb_sync_int64_t v)
{
    return (int64_t)(((uint64_t)(uint32_t)v.hi << 32) | (uint64_t)v.lo);
}

static inline xcb_sync_int64_t xh_sync_int64(int64_t v)
{
    xcb_sync_int64_t r = {.hi = (int32_t)(uint32_t)((uint64_t)v >> 32), .lo = (uint32_t)((uint64_t)v & 0xFFFFFFFFu)};
    return r;
}

#endif
