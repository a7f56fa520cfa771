/* sway-input: keyboard and pointer input through sway's own seat, one command a line.
 *
 * The input path of compositors/sway.conf (`input:`, harness/input-path.h), speaking the lines of
 * tools/mutter-input.c.  Under sway the X server is a rootless Xwayland, and XTEST input goes into
 * Xwayland only: wlroots' XWM hands _NET_WM_MOVERESIZE to sway (xwm_handle_net_wm_moveresize_message,
 * xwayland/xwm.c, emits request_resize), whose handle_request_resize (sway/desktop/xwayland.c)
 * starts seatop_begin_resize_floating on its own seat, and that seatop follows the seat's pointer.
 *
 * sway's IPC (i3 IPC: "i3-ipc", length, type, payload) says where the output is: GET_OUTPUTS (3),
 * the first active output's rect, and the union of the active ones, which is the box an absolute
 * motion is mapped onto.  It cannot drive a resize: `seat seat0 cursor set|move` (seat_cmd_cursor,
 * sway/commands/seat/cursor.c) warps the cursor and calls cursor_rebase, i.e. seatop_rebase, which
 * the floating-resize seatop has no handler for (only pointer_motion, seatop_resize_floating.c), so
 * an ongoing resize does not follow it; `cursor press` dispatches without counting the button
 * (pressed_button_count is counted in handle_pointer_button only); and with no input device (the
 * headless backend, WLR_LIBINPUT_NO_DEVICES=1) the seat has no pointer capability
 * (seat_update_capabilities), so Xwayland gets no wl_pointer and never sees the pointer or button.
 * The events therefore go in as a device: a wlr-virtual-pointer-unstable-v1 pointer and a
 * virtual-keyboard-unstable-v1 keyboard on the seat (handle_virtual_pointer, handle_virtual_keyboard,
 * sway/input/input-manager.c).  Their events take the path of a real device's (handle_pointer_motion_absolute,
 * handle_pointer_button, sway/input/cursor.c: seatop_pointer_motion and seatop_button), so the
 * seatop's resize follows the motion and ends at the release.  Keys only make the Shift press by which
 * the scripted client sees a pointer resize end (the keyboard focus is Xwayland's again); wlroots' XWM
 * has no keyboard resize (xwm_handle_net_wm_moveresize_message ignores SIZE_KEYBOARD), so arrow keys
 * reach the window as plain keys.  Each event is a request and a frame followed by a round trip
 * (wl_display.sync): sway handles requests in order, so when the round trip returns the event is in
 * its seat.
 *
 *   start-up              ready x=X y=Y width=W height=H   (the first active output in sway's layout)
 *                         or `error msg=...`, exit 1
 *   motion X Y            the pointer to X Y (layout coordinates = the X root's)
 *   motion-relative DX DY the pointer by DX DY
 *   button N press|release   X button N (1 left, 2 middle, 3 right)
 *   key KEYSYM press|release the arrows, Return and Shift_L by X keysym (the keyboard takes evdev codes)
 *   keycode CODE press|release  a key by evdev code
 *   quit                  exits 0 (so does the end of standard input)
 *
 * Each command is answered `done cmd=WORD` or `error cmd=WORD msg=WHAT`.  A lost connection ends
 * the helper with exit status 1 after its `error`. */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

#include "input-proto.h"

#include "wlr-virtual-input.h"

#define IPC_MAGIC "i3-ipc"
#define IPC_GET_OUTPUTS 3
#define IPC_MAX_REPLY (4 << 20)

/* linux/input-event-codes.h */
#define BTN_LEFT 0x110
#define BTN_RIGHT 0x111
#define BTN_MIDDLE 0x112

struct rect {
    int x, y, width, height;
};

struct seat {
    struct wl_display *display;
    struct wl_seat *wl_seat;
    struct zwlr_virtual_pointer_manager_v1 *pointer_manager;
    struct zwp_virtual_keyboard_manager_v1 *keyboard_manager;
    struct zwlr_virtual_pointer_v1 *pointer;
    struct zwp_virtual_keyboard_v1 *keyboard;
    struct rect output; /* what `ready` says */
    struct rect layout; /* the box absolute motion is mapped onto (wlr_cursor_absolute_to_layout_coords) */
};

/* ---- sway's IPC: where the output is ---- */

/* $SWAYSOCK, else the newest sway-ipc.*.sock in $XDG_RUNTIME_DIR (the harness gives the helper
 * the session's, which is private to the run); 0, or -1 with msg. */
static int ipc_socket_path(char *out, size_t len, char *msg, size_t mlen)
{
    const char *env = getenv("SWAYSOCK"), *dir = getenv("XDG_RUNTIME_DIR");
    if (env && *env) {
        snprintf(out, len, "%s", env);
        return 0;
    }
    DIR *d = dir && *dir ? opendir(dir) : NULL;
    if (!d) {
        snprintf(msg, mlen, "no SWAYSOCK and no XDG_RUNTIME_DIR to look for sway's IPC socket in (%s)",
                 dir ? strerror(errno) : "unset");
        return -1;
    }
    time_t newest = 0;
    out[0] = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        struct stat st;
        char path[4096];
        if (strncmp(e->d_name, "sway-ipc.", 9) || n < 5 || strcmp(e->d_name + n - 5, ".sock"))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) == 0 && S_ISSOCK(st.st_mode) && (!out[0] || st.st_mtime >= newest)) {
            newest = st.st_mtime;
            snprintf(out, len, "%s", path);
        }
    }
    closedir(d);
    if (!out[0])
        snprintf(msg, mlen, "no SWAYSOCK and no sway-ipc.*.sock in XDG_RUNTIME_DIR=%s", dir);
    return out[0] ? 0 : -1;
}

static bool io_all(int fd, void *buf, size_t n, bool writing)
{
    for (size_t done = 0; done < n;) {
        ssize_t r = writing ? write(fd, (char *)buf + done, n - done) : read(fd, (char *)buf + done, n - done);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        done += (size_t)r;
    }
    return true;
}

/* One request of the i3 IPC and its reply's payload (malloc'd, NUL-terminated); NULL with msg. */
static char *ipc_request(const char *path, uint32_t type, const char *payload, char *msg, size_t mlen)
{
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
        snprintf(msg, mlen, "cannot connect to sway's IPC socket %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    char head[14];
    uint32_t words[2] = {(uint32_t)strlen(payload), type};
    memcpy(head, IPC_MAGIC, 6);
    memcpy(head + 6, words, sizeof words); /* the i3 IPC's integers are in the host's byte order */
    char *reply = NULL;
    if (io_all(fd, head, sizeof head, true) && io_all(fd, (void *)payload, words[0], true) &&
        io_all(fd, head, sizeof head, false) && !memcmp(head, IPC_MAGIC, 6)) {
        memcpy(words, head + 6, sizeof words);
        reply = words[0] < IPC_MAX_REPLY ? malloc(words[0] + 1) : NULL;
        if (reply && io_all(fd, reply, words[0], false))
            reply[words[0]] = 0;
        else
            free(reply), reply = NULL;
    }
    if (!reply)
        snprintf(msg, mlen, "sway's IPC (%s) gave no reply to message type %u", path, type);
    close(fd);
    return reply;
}

/* ---- just enough JSON for GET_OUTPUTS: an array of objects with "active" and "rect" ---- */

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return p;
}

static const char *skip_string(const char *p) /* p at the opening quote */
{
    for (p++; *p && *p != '"'; p++)
        if (*p == '\\' && p[1])
            p++;
    return *p ? p + 1 : p;
}

/* Past one value (object, array, string, number, literal); the end of the text when it is cut. */
static const char *skip_value(const char *p)
{
    p = skip_ws(p);
    if (*p == '"')
        return skip_string(p);
    if (*p != '{' && *p != '[') {
        while (*p && !strchr(",}] \t\r\n", *p))
            p++;
        return p;
    }
    int depth = 0;
    do {
        if (*p == '"') {
            p = skip_string(p);
            continue;
        }
        depth += (*p == '{' || *p == '[') - (*p == '}' || *p == ']');
        p++;
    } while (*p && depth > 0);
    return p;
}

/* The value of member key of the object at obj, or NULL. */
static const char *json_member(const char *obj, const char *key)
{
    const char *p = skip_ws(obj);
    if (*p != '{')
        return NULL;
    for (p = skip_ws(p + 1); *p == '"'; p = skip_ws(p + 1)) {
        const char *name = p + 1, *end = skip_string(p);
        bool match = (size_t)(end - 1 - name) == strlen(key) && !strncmp(name, key, strlen(key));
        p = skip_ws(end);
        if (*p != ':')
            return NULL;
        if (match)
            return skip_ws(p + 1);
        p = skip_ws(skip_value(p + 1));
        if (*p != ',')
            return NULL;
    }
    return NULL;
}

static bool json_rect(const char *obj, struct rect *r)
{
    const char *keys[] = {"x", "y", "width", "height"};
    int *out[] = {&r->x, &r->y, &r->width, &r->height};
    for (int i = 0; i < 4; i++) {
        const char *v = obj ? json_member(obj, keys[i]) : NULL;
        char *end;
        long n = v ? strtol(v, &end, 10) : 0;
        if (!v || end == v)
            return false;
        *out[i] = (int)n;
    }
    return true;
}

/* The first active output's rect and the union of the active ones, from GET_OUTPUTS' reply. */
static bool parse_outputs(const char *json, struct rect *first, struct rect *layout)
{
    const char *p = skip_ws(json);
    int n = 0, x1 = 0, y1 = 0;
    if (*p != '[')
        return false;
    for (p = skip_ws(p + 1); *p == '{'; p = skip_ws(p + 1)) {
        const char *active = json_member(p, "active");
        struct rect r;
        if (active && !strncmp(active, "true", 4) && json_rect(json_member(p, "rect"), &r)) {
            if (n++ == 0)
                *first = *layout = r, x1 = r.x + r.width, y1 = r.y + r.height;
            layout->x = r.x < layout->x ? r.x : layout->x;
            layout->y = r.y < layout->y ? r.y : layout->y;
            x1 = r.x + r.width > x1 ? r.x + r.width : x1;
            y1 = r.y + r.height > y1 ? r.y + r.height : y1;
        }
        p = skip_ws(skip_value(p));
        if (*p != ',')
            break;
    }
    layout->width = x1 - layout->x;
    layout->height = y1 - layout->y;
    return n > 0 && first->width > 0 && first->height > 0;
}

static int read_outputs(struct seat *s, char *msg, size_t len)
{
    char path[4096];
    if (ipc_socket_path(path, sizeof path, msg, len) < 0)
        return -1;
    char *json = ipc_request(path, IPC_GET_OUTPUTS, "", msg, len);
    if (!json)
        return -1;
    bool ok = parse_outputs(json, &s->output, &s->layout);
    if (!ok)
        snprintf(msg, len, "sway's GET_OUTPUTS names no active output with a rect: %.200s", json);
    free(json);
    return ok ? 0 : -1;
}

/* ---- the virtual devices ---- */

static void global(void *data, struct wl_registry *reg, uint32_t name, const char *iface, uint32_t version)
{
    (void)version;
    struct seat *s = data;
    if (!strcmp(iface, wl_seat_interface.name) && !s->wl_seat)
        s->wl_seat = wl_registry_bind(reg, name, &wl_seat_interface, 1);
    else if (!strcmp(iface, zwlr_virtual_pointer_manager_v1_interface.name) && !s->pointer_manager)
        s->pointer_manager = wl_registry_bind(reg, name, &zwlr_virtual_pointer_manager_v1_interface, 1);
    else if (!strcmp(iface, zwp_virtual_keyboard_manager_v1_interface.name) && !s->keyboard_manager)
        s->keyboard_manager = wl_registry_bind(reg, name, &zwp_virtual_keyboard_manager_v1_interface, 1);
}

static void global_remove(void *data, struct wl_registry *reg, uint32_t name)
{
    (void)data, (void)reg, (void)name;
}

static const struct wl_registry_listener registry_listener = {global, global_remove};

/* The virtual keyboard takes no key before a keymap (wlroots posts no_keymap); sway 1.7 compiles
 * its own for it anyway (sway_keyboard_configure), so this is xkeyboard-config's evdev "us", whose
 * codes are evdev's plus 8 like that one's. */
static int send_keymap(struct seat *s, char *msg, size_t len)
{
    static const char keymap[] = "xkb_keymap {\n"
                                 "  xkb_keycodes { include \"evdev+aliases(qwerty)\" };\n"
                                 "  xkb_types { include \"complete\" };\n"
                                 "  xkb_compat { include \"complete\" };\n"
                                 "  xkb_symbols { include \"pc+us+inet(evdev)\" };\n"
                                 "};\n";
    int fd = memfd_create("framesync-keymap", MFD_CLOEXEC);
    if (fd < 0 || !io_all(fd, (void *)keymap, sizeof keymap, true)) { /* with its NUL: wlroots maps it as a string */
        snprintf(msg, len, "cannot make the keymap's file: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    zwp_virtual_keyboard_v1_keymap(s->keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1_, fd, sizeof keymap);
    close(fd); /* the request carries a copy */
    return 0;
}

/* The seat's two virtual devices; 0, or -1 with msg. */
static int open_seat(struct seat *s, char *msg, size_t len)
{
    s->display = wl_display_connect(NULL);
    if (!s->display) {
        snprintf(msg, len, "cannot connect to the Wayland display WAYLAND_DISPLAY=%s (XDG_RUNTIME_DIR=%s)",
                 getenv("WAYLAND_DISPLAY") ? getenv("WAYLAND_DISPLAY") : "",
                 getenv("XDG_RUNTIME_DIR") ? getenv("XDG_RUNTIME_DIR") : "");
        return -1;
    }
    struct wl_registry *reg = wl_display_get_registry(s->display);
    wl_registry_add_listener(reg, &registry_listener, s);
    if (wl_display_roundtrip(s->display) < 0) {
        snprintf(msg, len, "the Wayland connection failed: %s", strerror(errno));
        return -1;
    }
    if (!s->wl_seat || !s->pointer_manager || !s->keyboard_manager) {
        snprintf(msg, len, "the compositor offers no %s", !s->wl_seat ? "wl_seat" : !s->pointer_manager
                 ? "zwlr_virtual_pointer_manager_v1" : "zwp_virtual_keyboard_manager_v1");
        return -1;
    }
    s->pointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(s->pointer_manager, s->wl_seat);
    s->keyboard = zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(s->keyboard_manager, s->wl_seat);
    if (send_keymap(s, msg, len) < 0)
        return -1;
    if (wl_display_roundtrip(s->display) < 0) {
        snprintf(msg, len, "the Wayland connection failed: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* ---- the commands ---- */

static uint32_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint32_t)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

static uint32_t clamp_extent(long v, int extent)
{
    return v < 0 ? 0 : v > extent ? (uint32_t)extent : (uint32_t)v;
}

/* motion and motion-relative: absolute positions are a fraction of the layout's box (wlroots'
 * virtual_pointer_motion_absolute divides by the extent), exact with the box's own size. */
static bool motion_request(struct seat *s, char **w, int n, char *msg, size_t len)
{
    long a, b;
    bool rel = w[0][6] == '-';
    if (n != 3 || !ipr_int(w[1], -32768, 32767, &a) || !ipr_int(w[2], -32768, 32767, &b)) {
        snprintf(msg, len, "expected `%s %s` with integers -32768..32767", w[0], rel ? "DX DY" : "X Y");
        return false;
    }
    if (rel)
        zwlr_virtual_pointer_v1_motion(s->pointer, now_ms(), wl_fixed_from_int((int)a), wl_fixed_from_int((int)b));
    else
        zwlr_virtual_pointer_v1_motion_absolute(s->pointer, now_ms(), clamp_extent(a - s->layout.x, s->layout.width),
                                                clamp_extent(b - s->layout.y, s->layout.height),
                                                (uint32_t)s->layout.width, (uint32_t)s->layout.height);
    zwlr_virtual_pointer_v1_frame(s->pointer); /* sway passes a frame on to the focused client */
    return true;
}

static bool button_request(struct seat *s, char **w, int n, char *msg, size_t len)
{
    static const uint32_t codes[] = {0, BTN_LEFT, BTN_MIDDLE, BTN_RIGHT};
    long a;
    bool pressed;
    if (n != 3 || !ipr_int(w[1], 1, 3, &a) || !ipr_state(w[2], &pressed)) {
        snprintf(msg, len, "expected `button N press|release` with N 1 (left), 2 (middle) or 3 (right)");
        return false;
    }
    zwlr_virtual_pointer_v1_button(s->pointer, now_ms(), codes[a], pressed ? WL_POINTER_BUTTON_STATE_PRESSED
                                                                           : WL_POINTER_BUTTON_STATE_RELEASED);
    zwlr_virtual_pointer_v1_frame(s->pointer);
    return true;
}

static bool key_request(struct seat *s, char **w, int n, char *msg, size_t len)
{
    long a;
    bool pressed, sym = !strcmp(w[0], "key");
    if (n != 3 || !ipr_int(w[1], 1, sym ? 0x1ffffff : 0xffff, &a) || !ipr_state(w[2], &pressed)) {
        snprintf(msg, len, "expected `%s` then press or release",
                 sym ? "key KEYSYM (0xff53 or decimal)" : "keycode EVDEV-CODE");
        return false;
    }
    uint32_t code = sym ? ipr_evdev_of_keysym(a) : (uint32_t)a;
    if (!code) {
        snprintf(msg, len, "no evdev code known for keysym %s (the arrows, Return and Shift_L are; `keycode CODE` "
                           "takes any)", w[1]);
        return false;
    }
    zwp_virtual_keyboard_v1_key(s->keyboard, now_ms(), code, pressed ? WL_KEYBOARD_KEY_STATE_PRESSED
                                                                     : WL_KEYBOARD_KEY_STATE_RELEASED);
    return true;
}

/* Makes the request of one command line; false with msg when the line is wrong. */
static bool command_request(struct seat *s, char **w, int n, char *msg, size_t len)
{
    if (!strcmp(w[0], "motion") || !strcmp(w[0], "motion-relative"))
        return motion_request(s, w, n, msg, len);
    if (!strcmp(w[0], "button"))
        return button_request(s, w, n, msg, len);
    if (!strcmp(w[0], "key") || !strcmp(w[0], "keycode"))
        return key_request(s, w, n, msg, len);
    snprintf(msg, len, "unknown command (motion, motion-relative, button, key, keycode, quit)");
    return false;
}

/* One command (tools/input-proto.h): its request, then a round trip, after which sway has handled it. */
static int run_command(void *ctx, char **w, int n, char *msg, size_t len)
{
    struct seat *s = ctx;
    if (!command_request(s, w, n, msg, len))
        return 0;
    if (wl_display_roundtrip(s->display) < 0) {
        snprintf(msg, len, "the Wayland connection to sway failed: %s", strerror(errno));
        return -1;
    }
    return 1;
}

int main(int argc, char **argv)
{
    (void)argv;
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc != 1) {
        fprintf(stderr, "usage: sway-input (commands on standard input; see tools/sway-input.c)\n");
        return 2;
    }
    struct seat s = {0};
    char msg[512];
    if (read_outputs(&s, msg, sizeof msg) < 0 || open_seat(&s, msg, sizeof msg) < 0) {
        printf("error msg=%s\n", msg);
        return 1;
    }
    printf("ready x=%d y=%d width=%d height=%d\n", s.output.x, s.output.y, s.output.width, s.output.height);
    ipr_serve(run_command, &s);
    bool lost = wl_display_get_error(s.display) != 0;
    wl_display_disconnect(s.display);
    return lost ? 1 : 0;
}
