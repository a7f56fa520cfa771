/* The handlers wmevents.c dispatches the WM connection's events to, by type. */
#ifndef FAKEWM_WMINT_H
#define FAKEWM_WMINT_H

#include <xcb/xcb.h>

/* wmwindows.c: the toplevels come, go, map, unmap, configure, restack */
void wm_on_create_notify(const xcb_create_notify_event_t *e);
void wm_on_destroy_notify(const xcb_destroy_notify_event_t *e);
void wm_on_reparent_notify(const xcb_reparent_notify_event_t *e);
void wm_on_map_request(const xcb_map_request_event_t *e);
void wm_on_map_notify(const xcb_map_notify_event_t *e);
void wm_on_unmap_notify(const xcb_unmap_notify_event_t *e);
void wm_on_configure_request(const xcb_configure_request_event_t *e);
void wm_on_configure_notify(const xcb_configure_notify_event_t *e);
void wm_on_circulate_request(const xcb_circulate_request_event_t *e);
void wm_on_circulate_notify(const xcb_circulate_notify_event_t *e);

/* wminput.c: selections, client messages, the keyboard and the pointer */
void wm_on_selection_clear(const xcb_selection_clear_event_t *e);
void wm_on_selection_request(const xcb_selection_request_event_t *e);
void wm_on_client_message(const xcb_client_message_event_t *e);
void wm_on_key_press(const xcb_key_press_event_t *e);
void wm_on_motion_notify(const xcb_motion_notify_event_t *e);
void wm_on_button_release(const xcb_button_release_event_t *e);

#endif
