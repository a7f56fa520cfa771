/* Keyboard resizing: `_NET_WM_MOVERESIZE` with direction 9 (`_NET_WM_MOVERESIZE_SIZE_KEYBOARD`)
 * starts it (moveresize.c checks the message and takes the grab with kbd_resize_grab: GrabKeyboard
 * on the root), Right/Left/Down/Up change the width or height by 10 px, Return ends it, Escape
 * ends it and restores the size from before, `_NET_WM_MOVERESIZE_CANCEL` (11) ends it.  Each step
 * is a ConfigureRequest made by the WM itself and goes through sync_configure_request, exactly
 * like a client's own resize: the same request values, the same wait and queueing, the same
 * faults.  At most one keyboard resize at a time (one keyboard). */
#include "keyresize.h"

#include "log.h"
#include "state.h"
#include "sync.h"

#include <stdlib.h>

#define KEY_STEP 10
#define MAX_SIZE 32767

#define XK_Left 0xff51
#define XK_Up 0xff52
#define XK_Right 0xff53
#define XK_Down 0xff54
#define XK_Return 0xff0d
#define XK_KP_Enter 0xff8d
#define XK_Escape 0xff1b

static struct {
    bool active;
    xcb_window_t win;
    uint16_t orig_w, orig_h; /* the size fake-wm had given it when the resize began */
} kr;

/* the keyboard map (GetKeyboardMapping), read when first needed and after each MappingNotify */
static xcb_get_keyboard_mapping_reply_t *keymap;
static uint8_t keymap_min;

static void keymap_load(void)
{
    free(keymap);
    keymap = NULL;
    const xcb_setup_t *setup = xcb_get_setup(X.c);
    keymap_min = setup->min_keycode;
    keymap = xcb_get_keyboard_mapping_reply(
        X.c, xcb_get_keyboard_mapping(X.c, setup->min_keycode,
                                      (uint8_t)(setup->max_keycode - setup->min_keycode + 1)),
        NULL);
    if (!keymap)
        logmsg("keyboard resize: GetKeyboardMapping failed: keys will not be recognised");
}

void kbd_resize_mapping_changed(void)
{
    if (keymap) {
        keymap_load();
        logv("keyboard map re-read (MappingNotify)");
    }
}

/* does keycode k carry keysym s (in any column: modifiers are ignored)? */
static bool key_is(xcb_keycode_t k, xcb_keysym_t s)
{
    if (!keymap || k < keymap_min)
        return false;
    int per = keymap->keysyms_per_keycode;
    int n = xcb_get_keyboard_mapping_keysyms_length(keymap);
    const xcb_keysym_t *syms = xcb_get_keyboard_mapping_keysyms(keymap);
    int base = (k - keymap_min) * per;
    for (int j = 0; j < per && base + j < n; j++)
        if (syms[base + j] == s)
            return true;
    return false;
}

void kbd_resize_end(const char *why)
{
    if (!kr.active)
        return;
    xcb_ungrab_keyboard(X.c, XCB_CURRENT_TIME);
    xcb_flush(X.c);
    logmsg("window %u: keyboard resize ended (%s), keyboard ungrabbed", kr.win, why);
    kr.active = false;
    kr.win = XCB_NONE;
}

bool kbd_resize_running(xcb_window_t *which)
{
    if (kr.active)
        *which = kr.win;
    return kr.active;
}

void kbd_resize_window_gone(struct win *w)
{
    if (kr.active && kr.win == w->id)
        kbd_resize_end("the window is no longer managed");
}

uint8_t kbd_resize_grab(void)
{
    /* CurrentTime: the message carries no timestamp, and an older time than the last grab would
     * be refused (InvalidTime) */
    xcb_grab_keyboard_reply_t *r = xcb_grab_keyboard_reply(
        X.c,
        xcb_grab_keyboard(X.c, 0 /* owner_events */, X.root, XCB_CURRENT_TIME, XCB_GRAB_MODE_ASYNC,
                          XCB_GRAB_MODE_ASYNC),
        NULL);
    uint8_t status = r ? r->status : 0xff;
    free(r);
    return status;
}

void kbd_resize_begin(struct win *w, uint32_t source)
{
    if (!keymap)
        keymap_load();
    kr.active = true;
    kr.win = w->id;
    kr.orig_w = w->wm_w;
    kr.orig_h = w->wm_h;
    logmsg("window %u: keyboard resize started (source %u, size %ux%u), keyboard grabbed", w->id, source,
           w->wm_w, w->wm_h);
}

static uint16_t stepped(uint16_t v, int d)
{
    int n = (int)v + d;
    return (uint16_t)(n < 1 ? 1 : n > MAX_SIZE ? MAX_SIZE : n);
}

/* a size change made as if the client had sent a ConfigureRequest for it */
static void request_size(struct win *w, uint16_t wd, uint16_t ht)
{
    struct configure_req r = {
        .mask = XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT,
        .width = wd,
        .height = ht,
    };
    sync_configure_request(w, &r, ORIGIN_KEYBOARD);
}

void kbd_resize_key_press(const xcb_key_press_event_t *e)
{
    if (!kr.active)
        return;
    struct win *w = win_find(kr.win);
    if (!w || !w->managed) {
        kbd_resize_end("the window is gone");
        return;
    }
    xcb_keycode_t k = e->detail;
    if (key_is(k, XK_Return) || key_is(k, XK_KP_Enter)) {
        kbd_resize_end("Return: size kept");
        return;
    }
    if (key_is(k, XK_Escape)) {
        logmsg("window %u: keyboard resize: Escape: restoring %ux%u", w->id, kr.orig_w, kr.orig_h);
        request_size(w, kr.orig_w, kr.orig_h);
        kbd_resize_end("Escape: size restored");
        return;
    }
    int dw = 0, dh = 0;
    const char *name;
    if (key_is(k, XK_Right)) {
        dw = KEY_STEP;
        name = "Right";
    } else if (key_is(k, XK_Left)) {
        dw = -KEY_STEP;
        name = "Left";
    } else if (key_is(k, XK_Down)) {
        dh = KEY_STEP;
        name = "Down";
    } else if (key_is(k, XK_Up)) {
        dh = -KEY_STEP;
        name = "Up";
    } else {
        logv("window %u: keyboard resize: key %u ignored", w->id, k);
        return;
    }
    /* from the size it is going to have: a size still queued behind an unanswered request counts */
    int16_t cx, cy;
    uint16_t cw, ch;
    sync_target_geometry(w, &cx, &cy, &cw, &ch);
    uint16_t nw = stepped(cw, dw), nh = stepped(ch, dh);
    logmsg("window %u: keyboard resize: %s: %ux%u -> %ux%u", w->id, name, cw, ch, nw, nh);
    if (nw != cw || nh != ch)
        request_size(w, nw, nh);
}
