/* The RandR 1.5 monitors of a screen, read the same way by the scripted client (which splits the
 * screen into two for the cases about outputs) and fake-wm (whose per-output behaviour follows
 * them).  A monitor is a rectangle of the root with a name; a server lists one per active output
 * by itself, and clients may add their own (SetMonitor: `xrandr --setmonitor`), also with no
 * output at all, which is how a case gives an Xvfb with one output two "outputs" to move a window
 * between (Xvfb 21.1 has one output and one CRTC, and RandR cannot create more). */
#ifndef FRAMESYNC_MONITORS_H
#define FRAMESYNC_MONITORS_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/randr.h>
#include <xcb/xcb.h>

/* the prefix of the monitors the suite makes: anything of that name is the suite's to delete */
#define MONITORS_OWN_PREFIX "FRAMESYNC-"
#define MONITORS_MAX 16

struct monitor_rect {
    xcb_atom_t name;
    int x, y, w, h;
    int noutputs;
};

/* RandR 1.5 or later on c's server: true; else false with why (SetMonitor and GetMonitors are 1.5) */
bool monitors_supported(xcb_connection_t *c, char *why, size_t len);

/* The monitors the server lists (active: only those it would show, as GetMonitors get_active),
 * sorted left to right (then top to bottom); at most max.  -1 when the request failed. */
int monitors_read(xcb_connection_t *c, xcb_window_t root, bool active, struct monitor_rect *out, int max);

/* SetMonitor of m (its nOutput must be 0: a monitor with no output), checked.  libxcb 1.15's own
 * xcb_randr_set_monitor closes the connection on its second call in a process (the connection's
 * error becomes XCB_CONN_CLOSED_REQ_LEN_EXCEED), so the request is built here. */
xcb_void_cookie_t monitors_set(xcb_connection_t *c, xcb_window_t root, const xcb_randr_monitor_info_t *m);

/* Is name one of the suite's own monitors (MONITORS_OWN_PREFIX)? */
bool monitors_is_own(xcb_connection_t *c, xcb_atom_t name);

#endif
