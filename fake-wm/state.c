/* The state the whole of fake-wm shares (state.h): the options and the X state. */
#include "state.h"

#include "log.h"

#include <stdlib.h>
#include <string.h>

struct options opt = {
    .profile = PROFILE_EWMH15,
    .refresh_hz = 60,
    .sync_timeout_ms = 1000,
    .hold_timeout_ms = 2000,
    .compress = false,
    .composite = true,
    .verbose = false,
};
struct xstate X;


static const char *const atom_names[A_COUNT] = {
    [A_WM_PROTOCOLS] = "WM_PROTOCOLS",
    [A_WM_S0] = "WM_S0",
    [A_MANAGER] = "MANAGER",
    [A_WM_STATE] = "WM_STATE",
    [A_UTF8_STRING] = "UTF8_STRING",
    [A_NET_SUPPORTED] = "_NET_SUPPORTED",
    [A_NET_SUPPORTING_WM_CHECK] = "_NET_SUPPORTING_WM_CHECK",
    [A_NET_WM_NAME] = "_NET_WM_NAME",
    [A_NET_WM_SYNC_REQUEST] = "_NET_WM_SYNC_REQUEST",
    [A_NET_WM_SYNC_REQUEST_COUNTER] = "_NET_WM_SYNC_REQUEST_COUNTER",
    [A_NET_WM_SYNC_DRAWN] = "_NET_WM_SYNC_DRAWN",
    [A_NET_WM_SYNC_FENCES] = "_NET_WM_SYNC_FENCES",
    [A_NET_WM_FRAME_DRAWN] = "_NET_WM_FRAME_DRAWN",
    [A_NET_WM_FRAME_TIMINGS] = "_NET_WM_FRAME_TIMINGS",
    [A_NET_WM_MOVERESIZE] = "_NET_WM_MOVERESIZE",
    [A_NET_WM_FULLSCREEN_MONITORS] = "_NET_WM_FULLSCREEN_MONITORS",
    [A_XWAYLAND_ALLOW_COMMITS] = "_XWAYLAND_ALLOW_COMMITS",
    [A_NET_WM_CM_S0] = "_NET_WM_CM_S0",
    [A_FAKE_WM_TIMESTAMP] = "_FAKE_WM_TIMESTAMP",
    [A_FAKE_WM_PAINT_STAMP] = "_FAKE_WM_PAINT_STAMP",
    [A_FRAMESYNC_WM_CONTROL] = "_FRAMESYNC_WM_CONTROL",
    [A_FRAMESYNC_WM_NOTE] = "_FRAMESYNC_WM_NOTE",
};

const char *atom_name(enum atom_id a) { return atom_names[a]; }

void note_time(xcb_timestamp_t t)
{
    /* server time is 32-bit milliseconds and wraps; take the latest one seen */
    if (t != XCB_CURRENT_TIME)
        X.last_time = t;
}

void x_flush(void)
{
    xcb_flush(X.c);
    if (X.pc)
        xcb_flush(X.pc);
}

bool connection_ok(void)
{
    return !xcb_connection_has_error(X.c) && (!X.pc || !xcb_connection_has_error(X.pc));
}

static void intern_atoms(void)
{
    xcb_intern_atom_cookie_t ck[A_COUNT];
    for (int i = 0; i < A_COUNT; i++)
        ck[i] = xcb_intern_atom(X.c, 0, (uint16_t)strlen(atom_names[i]), atom_names[i]);
    for (int i = 0; i < A_COUNT; i++) {
        xcb_intern_atom_reply_t *r = xcb_intern_atom_reply(X.c, ck[i], NULL);
        if (!r) {
            logmsg("cannot intern atom %s", atom_names[i]);
            exit(1);
        }
        X.atom[i] = r->atom;
        free(r);
    }
}

bool xstate_connect(void)
{
    int screen_num = 0;
    X.c = xcb_connect(NULL, &screen_num);
    if (xcb_connection_has_error(X.c)) {
        logmsg("cannot connect to the X server (DISPLAY=%s)", getenv("DISPLAY") ? getenv("DISPLAY") : "");
        return false;
    }
    xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(X.c));
    for (int i = 0; i < screen_num && it.rem; i++)
        xcb_screen_next(&it);
    X.screen = it.data;
    X.root = X.screen->root;
    intern_atoms();
    return true;
}
