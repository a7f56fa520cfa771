/* The client side of the two protocols through which a client puts input into a wlroots compositor's
 * seat: wlr-virtual-pointer-unstable-v1 (version 1: zwlr_virtual_pointer_manager_v1,
 * zwlr_virtual_pointer_v1) and virtual-keyboard-unstable-v1 (zwp_virtual_keyboard_manager_v1,
 * zwp_virtual_keyboard_v1), written from the protocols' message signatures.  Debian 12 ships no XML
 * of either (wlr-protocols is not packaged, wlroots' development package installs none), so the
 * interface tables are here (tools/wlr-virtual-input.c), as for tools/wlr-screencopy.h; the names
 * match what wayland-scanner would make. */
#ifndef FRAMESYNC_WLR_VIRTUAL_INPUT_H
#define FRAMESYNC_WLR_VIRTUAL_INPUT_H

#include <stdint.h>
#include <wayland-client.h>

struct zwlr_virtual_pointer_manager_v1;
struct zwlr_virtual_pointer_v1;
struct zwp_virtual_keyboard_manager_v1;
struct zwp_virtual_keyboard_v1;

extern const struct wl_interface zwlr_virtual_pointer_manager_v1_interface;
extern const struct wl_interface zwlr_virtual_pointer_v1_interface;
extern const struct wl_interface zwp_virtual_keyboard_manager_v1_interface;
extern const struct wl_interface zwp_virtual_keyboard_v1_interface;

#define WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1_ 1 /* wl_keyboard.keymap_format.xkb_v1 */

/* pointer manager requests: create_virtual_pointer (0), destroy (1) */
static inline struct zwlr_virtual_pointer_v1 *
zwlr_virtual_pointer_manager_v1_create_virtual_pointer(struct zwlr_virtual_pointer_manager_v1 *m, struct wl_seat *seat)
{
    struct wl_proxy *p = (struct wl_proxy *)m;
    return (struct zwlr_virtual_pointer_v1 *)wl_proxy_marshal_flags(
        p, 0, &zwlr_virtual_pointer_v1_interface, wl_proxy_get_version(p), 0, seat, NULL);
}

/* pointer requests: motion (0), motion_absolute (1), button (2), axis (3), frame (4), ... destroy (8) */
static inline void zwlr_virtual_pointer_v1_motion(struct zwlr_virtual_pointer_v1 *v, uint32_t time, wl_fixed_t dx,
                                                  wl_fixed_t dy)
{
    struct wl_proxy *p = (struct wl_proxy *)v;
    wl_proxy_marshal_flags(p, 0, NULL, wl_proxy_get_version(p), 0, time, dx, dy);
}

static inline void zwlr_virtual_pointer_v1_motion_absolute(struct zwlr_virtual_pointer_v1 *v, uint32_t time,
                                                           uint32_t x, uint32_t y, uint32_t x_extent,
                                                           uint32_t y_extent)
{
    struct wl_proxy *p = (struct wl_proxy *)v;
    wl_proxy_marshal_flags(p, 1, NULL, wl_proxy_get_version(p), 0, time, x, y, x_extent, y_extent);
}

static inline void zwlr_virtual_pointer_v1_button(struct zwlr_virtual_pointer_v1 *v, uint32_t time, uint32_t button,
                                                  uint32_t state)
{
    struct wl_proxy *p = (struct wl_proxy *)v;
    wl_proxy_marshal_flags(p, 2, NULL, wl_proxy_get_version(p), 0, time, button, state);
}

static inline void zwlr_virtual_pointer_v1_frame(struct zwlr_virtual_pointer_v1 *v)
{
    struct wl_proxy *p = (struct wl_proxy *)v;
    wl_proxy_marshal_flags(p, 4, NULL, wl_proxy_get_version(p), 0);
}

/* keyboard manager request: create_virtual_keyboard (0) */
static inline struct zwp_virtual_keyboard_v1 *
zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(struct zwp_virtual_keyboard_manager_v1 *m,
                                                        struct wl_seat *seat)
{
    struct wl_proxy *p = (struct wl_proxy *)m;
    return (struct zwp_virtual_keyboard_v1 *)wl_proxy_marshal_flags(
        p, 0, &zwp_virtual_keyboard_v1_interface, wl_proxy_get_version(p), 0, seat, NULL);
}

/* keyboard requests: keymap (0), key (1), modifiers (2), destroy (3) */
static inline void zwp_virtual_keyboard_v1_keymap(struct zwp_virtual_keyboard_v1 *k, uint32_t format, int32_t fd,
                                                  uint32_t size)
{
    struct wl_proxy *p = (struct wl_proxy *)k;
    wl_proxy_marshal_flags(p, 0, NULL, wl_proxy_get_version(p), 0, format, fd, size);
}

static inline void zwp_virtual_keyboard_v1_key(struct zwp_virtual_keyboard_v1 *k, uint32_t time, uint32_t key,
                                               uint32_t state)
{
    struct wl_proxy *p = (struct wl_proxy *)k;
    wl_proxy_marshal_flags(p, 1, NULL, wl_proxy_get_version(p), 0, time, key, state);
}

static inline void zwp_virtual_keyboard_v1_modifiers(struct zwp_virtual_keyboard_v1 *k, uint32_t depressed,
                                                     uint32_t latched, uint32_t locked, uint32_t group)
{
    struct wl_proxy *p = (struct wl_proxy *)k;
    wl_proxy_marshal_flags(p, 2, NULL, wl_proxy_get_version(p), 0, depressed, latched, locked, group);
}

#endif
