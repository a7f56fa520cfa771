/* The state the whole of fake-wm shares, and only that: the options (set by options.c from the
 * command line, read-only once the start-up is over) and the X state (the two connections, the
 * screen, the atoms, the latest server time seen).  Everything else a part keeps is its own
 * (static in its file, or in struct win for what belongs to one window: win.h).
 *
 * One process, one thread, two X connections:
 *   X.c  - the window manager connection: WM_S0, SubstructureRedirect, MapRequest /
 *          ConfigureRequest, the sync request protocol, counters and alarms (wm*.c, sync*.c);
 *   X.pc - the compositor connection: _NET_WM_CM_S0, Composite redirection, DAMAGE, XRender
 *          painting into the overlay window, SYNC fences (comp*.c and the parts below it).  Fence
 *          waits (AwaitFence) block only this connection, so the WM keeps working while the
 *          compositor waits, as glWaitSync would block only the GPU. */
#ifndef FAKEWM_STATE_H
#define FAKEWM_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>

#include "terms.h"

/* ---- options (options.c parses them) ---- */
struct options {
    enum profile profile;
    int refresh_hz;
    int sync_timeout_ms;  /* sync request answers and fence waits */
    int hold_timeout_ms;  /* how long a window in the middle of an update is held */
    bool compress;
    bool composite;
    bool verbose;
    bool replace;         /* --replace: take the manager selections from the running manager */
    /* benchmark injections (injections.c), 0 = off */
    int paint_delay_ms;
    int drawn_delay_ms;
    int compress_every;
    int show_before_paint; /* every N-th synced resize is shown before the client painted it */
    int resize_lag_ms;     /* a pointer resize follows the pointer MS ms late */
    int configure_drop;    /* every K-th pointer resize step is dropped */
    int configure_before_answer; /* every N-th synced pointer resize step is not waited for */
    int input_first_ms;    /* input at once, the WM connection's other events MS ms late (inputfirst.h) */
};
extern struct options opt;

/* the profile has an extended form (two counters, delimited updates, drawn messages) */
static inline bool profile_extended(void) { return opt.profile != PROFILE_EWMH15; }

/* ---- X state ---- */
enum atom_id {
    A_WM_PROTOCOLS, A_WM_S0, A_MANAGER, A_WM_STATE, A_UTF8_STRING,
    A_NET_SUPPORTED, A_NET_SUPPORTING_WM_CHECK, A_NET_WM_NAME,
    A_NET_WM_SYNC_REQUEST, A_NET_WM_SYNC_REQUEST_COUNTER,
    A_NET_WM_SYNC_DRAWN, A_NET_WM_SYNC_FENCES,
    A_NET_WM_FRAME_DRAWN, A_NET_WM_FRAME_TIMINGS, A_NET_WM_MOVERESIZE, A_NET_WM_FULLSCREEN_MONITORS,
    A_XWAYLAND_ALLOW_COMMITS,
    A_NET_WM_CM_S0, A_FAKE_WM_TIMESTAMP, A_FAKE_WM_PAINT_STAMP, A_FRAMESYNC_WM_CONTROL, A_FRAMESYNC_WM_NOTE,
    A_COUNT
};

struct xstate {
    xcb_connection_t *c;   /* window manager connection */
    xcb_connection_t *pc;  /* compositor connection (NULL with --no-composite) */
    xcb_screen_t *screen;  /* of c */
    xcb_window_t root;
    xcb_atom_t atom[A_COUNT];
    xcb_window_t check_win;   /* _NET_SUPPORTING_WM_CHECK and WM_S0 owner (on c); with cm-only
                               * only the window of the start-up timestamp */
    uint8_t sync_event_base;  /* on c */
    xcb_timestamp_t last_time; /* server time of the latest event seen (never 0 after start) */
};
extern struct xstate X;

/* opens the WM connection (DISPLAY), its screen and the atoms; false (logged) when it cannot */
bool xstate_connect(void);
static inline xcb_atom_t atom(enum atom_id a) { return X.atom[a]; }
const char *atom_name(enum atom_id a);
void note_time(xcb_timestamp_t t); /* an event's server time: the latest one seen */
void x_flush(void);                /* both connections */
bool connection_ok(void);          /* neither connection has broken */

#endif
