/* The events of the window manager connection, dispatched by type (wmevents.h). */
#include "wmevents.h"
#include "wmint.h"

#include "embedded.h"
#include "inputfirst.h"
#include "keyresize.h"
#include "log.h"
#include "state.h"
#include "sync.h"
#include "xhelpers.h"

#include <stdlib.h>

static void handle_event(xcb_generic_event_t *ev)
{
    uint8_t type = ev->response_type & 0x7f;
    if (type == X.sync_event_base + XCB_SYNC_ALARM_NOTIFY) {
        xcb_sync_alarm_notify_event_t *a = (xcb_sync_alarm_notify_event_t *)ev;
        note_time(a->timestamp);
        if (!embedded_alarm(a))
            sync_handle_alarm(a);
        return;
    }
    switch (type) {
    case XCB_CREATE_NOTIFY: wm_on_create_notify((xcb_create_notify_event_t *)ev); return;
    case XCB_DESTROY_NOTIFY: wm_on_destroy_notify((xcb_destroy_notify_event_t *)ev); return;
    case XCB_REPARENT_NOTIFY: wm_on_reparent_notify((xcb_reparent_notify_event_t *)ev); return;
    case XCB_MAP_REQUEST: wm_on_map_request((xcb_map_request_event_t *)ev); return;
    case XCB_MAP_NOTIFY: wm_on_map_notify((xcb_map_notify_event_t *)ev); return;
    case XCB_UNMAP_NOTIFY: wm_on_unmap_notify((xcb_unmap_notify_event_t *)ev); return;
    case XCB_CONFIGURE_REQUEST: wm_on_configure_request((xcb_configure_request_event_t *)ev); return;
    case XCB_CONFIGURE_NOTIFY: wm_on_configure_notify((xcb_configure_notify_event_t *)ev); return;
    case XCB_CIRCULATE_REQUEST: wm_on_circulate_request((xcb_circulate_request_event_t *)ev); return;
    case XCB_CIRCULATE_NOTIFY: wm_on_circulate_notify((xcb_circulate_notify_event_t *)ev); return;
    case XCB_PROPERTY_NOTIFY: note_time(((xcb_property_notify_event_t *)ev)->time); return;
    case XCB_SELECTION_CLEAR: wm_on_selection_clear((xcb_selection_clear_event_t *)ev); return;
    case XCB_SELECTION_REQUEST: wm_on_selection_request((xcb_selection_request_event_t *)ev); return;
    case XCB_CLIENT_MESSAGE: wm_on_client_message((xcb_client_message_event_t *)ev); return;
    case XCB_KEY_PRESS: wm_on_key_press((xcb_key_press_event_t *)ev); return;
    case XCB_MAPPING_NOTIFY: kbd_resize_mapping_changed(); return;
    case XCB_MOTION_NOTIFY: wm_on_motion_notify((xcb_motion_notify_event_t *)ev); return;
    case XCB_BUTTON_RELEASE: wm_on_button_release((xcb_button_release_event_t *)ev); return;
    case XCB_KEY_RELEASE:
    case XCB_BUTTON_PRESS: note_time(((xcb_key_press_event_t *)ev)->time); return;
    case XCB_ENTER_NOTIFY:
    case XCB_LEAVE_NOTIFY: note_time(((xcb_enter_notify_event_t *)ev)->time); return;
    default: logv("event type %u ignored", type); return;
    }
}

void wm_dispatch(xcb_generic_event_t *ev)
{
    if (ev->response_type == 0) {
        log_x_error("wm", (xcb_generic_error_t *)ev);
        return;
    }
    if (!inputfirst_defer(ev)) /* --inject input-first=MS: later, in wm_check_kept */
        handle_event(ev);
}

void wm_check_kept(int64_t now)
{
    inputfirst_check(now, handle_event);
}

void wm_catch_up(void)
{
    xh_round_trip(X.c);
    xcb_generic_event_t *ev;
    while ((ev = xcb_poll_for_queued_event(X.c))) {
        wm_dispatch(ev);
        free(ev);
    }
}
