/* The interface tables of wlr-virtual-pointer-unstable-v1 (version 1) and
 * virtual-keyboard-unstable-v1 (see wlr-virtual-input.h): each message's name, signature and
 * argument interfaces. */
#include "wlr-virtual-input.h"

#include <stddef.h>

static const struct wl_interface *create_pointer_types[] = {&wl_seat_interface, &zwlr_virtual_pointer_v1_interface};
static const struct wl_interface *create_keyboard_types[] = {&wl_seat_interface, &zwp_virtual_keyboard_v1_interface};
static const struct wl_interface *no_types[] = {NULL, NULL, NULL, NULL, NULL};

static const struct wl_message pointer_manager_requests[] = {
    {"create_virtual_pointer", "?on", create_pointer_types},
    {"destroy", "", no_types},
};

static const struct wl_message pointer_requests[] = {
    {"motion", "uff", no_types},        {"motion_absolute", "uuuuu", no_types},
    {"button", "uuu", no_types},        {"axis", "uuf", no_types},
    {"frame", "", no_types},            {"axis_source", "u", no_types},
    {"axis_stop", "uu", no_types},      {"axis_discrete", "uufi", no_types},
    {"destroy", "", no_types},
};

static const struct wl_message keyboard_manager_requests[] = {
    {"create_virtual_keyboard", "on", create_keyboard_types},
};

static const struct wl_message keyboard_requests[] = {
    {"keymap", "uhu", no_types},
    {"key", "uuu", no_types},
    {"modifiers", "uuuu", no_types},
    {"destroy", "", no_types},
};

const struct wl_interface zwlr_virtual_pointer_manager_v1_interface = {
    "zwlr_virtual_pointer_manager_v1", 1, 2, pointer_manager_requests, 0, NULL,
};

const struct wl_interface zwlr_virtual_pointer_v1_interface = {
    "zwlr_virtual_pointer_v1", 1, 9, pointer_requests, 0, NULL,
};

const struct wl_interface zwp_virtual_keyboard_manager_v1_interface = {
    "zwp_virtual_keyboard_manager_v1", 1, 1, keyboard_manager_requests, 0, NULL,
};

const struct wl_interface zwp_virtual_keyboard_v1_interface = {
    "zwp_virtual_keyboard_v1", 1, 4, keyboard_requests, 0, NULL,
};
