/* kwin-input: keyboard and pointer input through KWin's own seat, one command a line.
 *
 * The input path of compositors/kwin_wayland.conf (`input:`, harness/input-path.h), speaking the
 * lines of tools/mutter-input.c.  Under kwin_wayland the X server is a rootless Xwayland, and
 * XTEST input goes into Xwayland only: KWin's interactive resize of an X window reads KWin's own
 * seat (X11Window grabs X input only in X11 mode).  KWin 5.27 takes input from a client through
 * the Wayland protocol org_kde_kwin_fake_input (plasma-wayland-protocols' fake-input.xml, version
 * 4: absolute motion since 3, keys since 4).  It offers that global only to a client it trusts
 * (KWinDisplay::allowInterface, src/wayland_server.cpp: an executable whose desktop file lists it
 * in X-KDE-Wayland-Interfaces), or to any client when it runs with
 * KWIN_WAYLAND_NO_PERMISSION_CHECKS=1, which the conf sets for the test session it starts; the
 * `authenticate` request is then granted without asking (// TODO: make secure, in KWin's fake
 * input backend).  Each event is a request followed by a round trip (wl_display.sync): KWin
 * handles requests in order, so when the round trip returns the event is in its seat.
 *
 *   start-up              ready x=X y=Y width=W height=H   (the first wl_output: where it is in
 *                         the compositor's space, its current mode) or `error msg=...`, exit 1
 *   motion X Y            the pointer to X Y (global compositor coordinates = the X root's)
 *   motion-relative DX DY the pointer by DX DY
 *   button N press|release   X button N (1 left, 2 middle, 3 right)
 *   key KEYSYM press|release the arrows, Return and Shift_L by X keysym (fake input takes evdev codes)
 *   keycode CODE press|release  a key by evdev code
 *   quit                  exits 0 (so does the end of standard input)
 *
 * Each command is answered `done cmd=WORD` or `error cmd=WORD msg=WHAT`.  A lost connection ends
 * the helper with exit status 1 after its `error`. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

#include "input-proto.h"

#include "fake-input-client-protocol.h"

#define FAKE_INPUT_VERSION 4 /* keyboard_key */

/* linux/input-event-codes.h */
#define BTN_LEFT 0x110
#define BTN_RIGHT 0x111
#define BTN_MIDDLE 0x112

struct seat {
    struct wl_display *display;
    struct org_kde_kwin_fake_input *fake;
    uint32_t fake_version;
    struct wl_output *output;
    int x, y, width, height;
    bool have_mode;
};

static void output_geometry(void *data, struct wl_output *o, int32_t x, int32_t y, int32_t pw, int32_t ph,
                            int32_t subpixel, const char *make, const char *model, int32_t transform)
{
    (void)o, (void)pw, (void)ph, (void)subpixel, (void)make, (void)model, (void)transform;
    struct seat *s = data;
    s->x = x;
    s->y = y;
}

static void output_mode(void *data, struct wl_output *o, uint32_t flags, int32_t w, int32_t h, int32_t refresh)
{
    (void)o, (void)refresh;
    struct seat *s = data;
    if (flags & WL_OUTPUT_MODE_CURRENT) {
        s->width = w;
        s->height = h;
        s->have_mode = true;
    }
}

static void output_done(void *data, struct wl_output *o)
{
    (void)data, (void)o;
}

static void output_scale(void *data, struct wl_output *o, int32_t factor)
{
    (void)data, (void)o, (void)factor;
}

static const struct wl_output_listener output_listener = {
    .geometry = output_geometry, .mode = output_mode, .done = output_done, .scale = output_scale};

static void global(void *data, struct wl_registry *reg, uint32_t name, const char *iface, uint32_t version)
{
    struct seat *s = data;
    if (!strcmp(iface, org_kde_kwin_fake_input_interface.name) && !s->fake) {
        s->fake_version = version < FAKE_INPUT_VERSION ? version : FAKE_INPUT_VERSION;
        s->fake = wl_registry_bind(reg, name, &org_kde_kwin_fake_input_interface, s->fake_version);
    } else if (!strcmp(iface, wl_output_interface.name) && !s->output) {
        s->output = wl_registry_bind(reg, name, &wl_output_interface, version < 2 ? version : 2);
        wl_output_add_listener(s->output, &output_listener, s);
    }
}

static void global_remove(void *data, struct wl_registry *reg, uint32_t name)
{
    (void)data, (void)reg, (void)name;
}

static const struct wl_registry_listener registry_listener = {global, global_remove};

/* The fake input global, authenticated, and the output's place; 0, or -1 with msg. */
static int open_seat(struct seat *s, char *msg, size_t len)
{
    s->display = wl_display_connect(NULL);
    if (!s->display) {
        snprintf(msg, len, "cannot connect to the Wayland display WAYLAND_DISPLAY=%s (XDG_RUNTIME_DIR=%s)",
                 getenv("WAYLAND_DISPLAY") ? getenv("WAYLAND_DISPLAY") : "", getenv("XDG_RUNTIME_DIR") ? getenv("XDG_RUNTIME_DIR") : "");
        return -1;
    }
    struct wl_registry *reg = wl_display_get_registry(s->display);
    wl_registry_add_listener(reg, &registry_listener, s);
    if (wl_display_roundtrip(s->display) < 0 || wl_display_roundtrip(s->display) < 0) {
        snprintf(msg, len, "the Wayland connection failed: %s", strerror(errno));
        return -1;
    }
    if (!s->fake) {
        snprintf(msg, len, "KWin offers no org_kde_kwin_fake_input to this client: it needs "
                           "KWIN_WAYLAND_NO_PERMISSION_CHECKS=1 in KWin's environment, or a desktop file of this "
                           "program with X-KDE-Wayland-Interfaces=org_kde_kwin_fake_input");
        return -1;
    }
    if (s->fake_version < FAKE_INPUT_VERSION) {
        snprintf(msg, len, "KWin's org_kde_kwin_fake_input is version %u; keys need version %d", s->fake_version,
                 FAKE_INPUT_VERSION);
        return -1;
    }
    if (!s->output || !s->have_mode) {
        snprintf(msg, len, "no wl_output with a current mode: where the pointer goes is unknown");
        return -1;
    }
    org_kde_kwin_fake_input_authenticate(s->fake, "framesync", "drives the interactive resizes of a conformance test");
    if (wl_display_roundtrip(s->display) < 0) {
        snprintf(msg, len, "the Wayland connection failed: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* Makes the request of one command line; false with msg when the line is wrong. */
static bool command_request(struct seat *s, char **w, int n, char *msg, size_t len)
{
    long a, b;
    bool pressed;
    if (!strcmp(w[0], "motion") || !strcmp(w[0], "motion-relative")) {
        bool rel = w[0][6] == '-';
        if (n != 3 || !ipr_int(w[1], -32768, 32767, &a) || !ipr_int(w[2], -32768, 32767, &b)) {
            snprintf(msg, len, "expected `%s %s` with integers -32768..32767", w[0], rel ? "DX DY" : "X Y");
            return false;
        }
        if (rel)
            org_kde_kwin_fake_input_pointer_motion(s->fake, wl_fixed_from_int((int)a), wl_fixed_from_int((int)b));
        else
            org_kde_kwin_fake_input_pointer_motion_absolute(s->fake, wl_fixed_from_int((int)a), wl_fixed_from_int((int)b));
    } else if (!strcmp(w[0], "button")) {
        static const uint32_t codes[] = {0, BTN_LEFT, BTN_MIDDLE, BTN_RIGHT};
        if (n != 3 || !ipr_int(w[1], 1, 3, &a) || !ipr_state(w[2], &pressed)) {
            snprintf(msg, len, "expected `button N press|release` with N 1 (left), 2 (middle) or 3 (right)");
            return false;
        }
        org_kde_kwin_fake_input_button(s->fake, codes[a], pressed ? WL_POINTER_BUTTON_STATE_PRESSED
                                                                  : WL_POINTER_BUTTON_STATE_RELEASED);
    } else if (!strcmp(w[0], "key") || !strcmp(w[0], "keycode")) {
        bool sym = !strcmp(w[0], "key");
        if (n != 3 || !ipr_int(w[1], 1, sym ? 0x1ffffff : 0xffff, &a) || !ipr_state(w[2], &pressed)) {
            snprintf(msg, len, "expected `%s` then press or release", sym ? "key KEYSYM (0xff53 or decimal)" : "keycode EVDEV-CODE");
            return false;
        }
        uint32_t code = sym ? ipr_evdev_of_keysym(a) : (uint32_t)a;
        if (!code) {
            snprintf(msg, len, "no evdev code known for keysym %s (the arrows, Return and Shift_L are; `keycode CODE` "
                               "takes any)", w[1]);
            return false;
        }
        org_kde_kwin_fake_input_keyboard_key(s->fake, code, pressed ? WL_KEYBOARD_KEY_STATE_PRESSED
                                                                    : WL_KEYBOARD_KEY_STATE_RELEASED);
    } else {
        snprintf(msg, len, "unknown command (motion, motion-relative, button, key, keycode, quit)");
        return false;
    }
    return true;
}

/* One command (tools/input-proto.h): its request, then a round trip, after which KWin has handled it. */
static int run_command(void *ctx, char **w, int n, char *msg, size_t len)
{
    struct seat *s = ctx;
    if (!command_request(s, w, n, msg, len))
        return 0;
    if (wl_display_roundtrip(s->display) < 0) {
        snprintf(msg, len, "the Wayland connection to KWin failed: %s", strerror(errno));
        return -1;
    }
    return 1;
}

int main(int argc, char **argv)
{
    (void)argv;
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc != 1) {
        fprintf(stderr, "usage: kwin-input (commands on standard input; see tools/kwin-input.c)\n");
        return 2;
    }
    struct seat s = {0};
    char msg[512];
    if (open_seat(&s, msg, sizeof msg) < 0) {
        printf("error msg=%s\n", msg);
        return 1;
    }
    printf("ready x=%d y=%d width=%d height=%d\n", s.x, s.y, s.width, s.height);
    ipr_serve(run_command, &s);
    bool lost = wl_display_get_error(s.display) != 0;
    wl_display_disconnect(s.display);
    return lost ? 1 : 0;
}
