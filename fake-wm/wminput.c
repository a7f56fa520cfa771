/* The WM connection's other events (wmint.h): its selection taken away or asked for, client
 * messages to the root (_NET_WM_MOVERESIZE, _NET_WM_FULLSCREEN_MONITORS, the control channel), and
 * the keyboard and pointer events of a running interactive resize. */
#include "wmint.h"

#include "control.h"
#include "keyresize.h"
#include "log.h"
#include "moveresize.h"
#include "pointerresize.h"
#include "replace.h"
#include "selection.h"
#include "outputs.h"
#include "state.h"
#include "win.h"

#include <stdlib.h>

void wm_on_selection_clear(const xcb_selection_clear_event_t *e)
{
    note_time(e->time);
    if (e->selection == atom(A_WM_S0))
        replace_lost(A_WM_S0);
}

void wm_on_selection_request(const xcb_selection_request_event_t *e)
{
    note_time(e->time);
    selection_refuse(X.c, e);
}

/* EWMH _NET_WM_FULLSCREEN_MONITORS: the WM MUST keep the window's list of that name updated, so it
 * writes what the message asks at every such message (as KWin does: X11Window::updateFullscreenMonitors),
 * when each index names one of its outputs.  fake-wm has no fullscreen state for the list to act
 * on and does not list the atom in _NET_SUPPORTED; the write is what the scripted client's input
 * barrier waits for (common/input-barrier.h). */
static void fullscreen_monitors(const xcb_client_message_event_t *e)
{
    struct win *w = win_find(e->window);
    if (!w || !w->managed) {
        logmsg("_NET_WM_FULLSCREEN_MONITORS for window %u ignored: not a managed window", e->window);
        return;
    }
    uint32_t list[4];
    for (int i = 0; i < 4; i++) {
        list[i] = e->data.data32[i];
        if (list[i] >= (uint32_t)outputs_count()) {
            logmsg("window %u: _NET_WM_FULLSCREEN_MONITORS ignored: monitor %u of %d", w->id, list[i], outputs_count());
            return;
        }
    }
    xcb_change_property(X.c, XCB_PROP_MODE_REPLACE, w->id, atom(A_NET_WM_FULLSCREEN_MONITORS), XCB_ATOM_CARDINAL, 32,
                        4, list);
    xcb_flush(X.c);
    logv("window %u: _NET_WM_FULLSCREEN_MONITORS %u %u %u %u written", w->id, list[0], list[1], list[2], list[3]);
}

void wm_on_client_message(const xcb_client_message_event_t *e)
{
    if (replace_zombie())
        return; /* replaced: the messages to the root are the new WM's */
    if (e->type == atom(A_NET_WM_MOVERESIZE)) {
        moveresize_client_message(e);
        return;
    }
    if (e->type == atom(A_NET_WM_FULLSCREEN_MONITORS) && e->format == 32) {
        fullscreen_monitors(e);
        return;
    }
    if (control_client_message(e))
        return;
    logmsg("client message type %u to window %u ignored (not implemented)", e->type, e->window);
}

void wm_on_key_press(const xcb_key_press_event_t *e)
{
    note_time(e->time);
    kbd_resize_key_press(e);
}

void wm_on_motion_notify(const xcb_motion_notify_event_t *e)
{
    note_time(e->time);
    ptr_resize_motion(e);
}

void wm_on_button_release(const xcb_button_release_event_t *e)
{
    note_time(e->time);
    ptr_resize_button_release(e);
}
