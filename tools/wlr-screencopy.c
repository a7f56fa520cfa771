/* The interface tables of wlr-screencopy-unstable-v1, version 3 (see wlr-screencopy.h): each
 * message's name, signature (a leading digit: the version it came in) and argument interfaces. */
#include "wlr-screencopy.h"

#include <stddef.h>

static const struct wl_interface *capture_output_types[] = {
    &zwlr_screencopy_frame_v1_interface, NULL, &wl_output_interface,
};
static const struct wl_interface *capture_region_types[] = {
    &zwlr_screencopy_frame_v1_interface, NULL, &wl_output_interface, NULL, NULL, NULL, NULL,
};
static const struct wl_interface *buffer_types[] = {&wl_buffer_interface};
static const struct wl_interface *no_types[] = {NULL, NULL, NULL, NULL};

static const struct wl_message manager_requests[] = {
    {"capture_output", "nio", capture_output_types},
    {"capture_output_region", "nioiiii", capture_region_types},
    {"destroy", "", no_types},
};

static const struct wl_message frame_requests[] = {
    {"copy", "o", buffer_types},
    {"destroy", "", no_types},
    {"copy_with_damage", "2o", buffer_types},
};

static const struct wl_message frame_events[] = {
    {"buffer", "uuuu", no_types},
    {"flags", "u", no_types},
    {"ready", "uuu", no_types},
    {"failed", "", no_types},
    {"damage", "2uuuu", no_types},
    {"linux_dmabuf", "3uuu", no_types},
    {"buffer_done", "3", no_types},
};

const struct wl_interface zwlr_screencopy_manager_v1_interface = {
    "zwlr_screencopy_manager_v1", 3, 3, manager_requests, 0, NULL,
};

const struct wl_interface zwlr_screencopy_frame_v1_interface = {
    "zwlr_screencopy_frame_v1", 3, 3, frame_requests, 7, frame_events,
};
