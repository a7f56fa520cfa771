/* The WM connection's other events (wmint.h): its selection taken away or asked for, client
 * messages to the root (_NET_WM_MOVERESIZE, the control channel), and the keyboard and pointer
 * events of a running interactive resize. */
#include "wmint.h"

#include "control.h"
#include "keyresize.h"
#include "log.h"
#include "moveresize.h"
#include "pointerresize.h"
#include "replace.h"
#include "selection.h"
#include "state.h"

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

void wm_on_client_message(const xcb_client_message_event_t *e)
{
    if (replace_zombie())
        return; /* replaced: the messages to the root are the new WM's */
    if (e->type == atom(A_NET_WM_MOVERESIZE)) {
        moveresize_client_message(e);
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
