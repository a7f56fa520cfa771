/* mutter-input: keyboard and pointer input through mutter's own seat, one command a line.
 *
 * The input path of compositors/mutter-wayland.conf (`input:`, harness/input-path.h).  Under
 * mutter --wayland the X server is a rootless Xwayland, and XTEST input goes into Xwayland only:
 * mutter's interactive resize of an X window reads mutter's seat (meta_display_begin_grab_op,
 * src/core/display.c; the button state it checks after _NET_WM_MOVERESIZE is its cursor
 * tracker's, query_pressed_buttons, src/x11/window-x11.c).  mutter 43 lets a client put input into
 * its seat through org.gnome.Mutter.RemoteDesktop on the session bus
 * (src/backends/meta-remote-desktop-session.c): CreateSession, then Session.Start creates virtual
 * devices on its first Notify* call.  Absolute pointer motion is given in the coordinates of a
 * screen-cast stream of the same session (NotifyPointerMotionAbsolute takes a stream path), so a
 * ScreenCast session is created with "remote-desktop-session-id" and records the primary monitor
 * (RecordMonitor with connector ""; org.gnome.Mutter.ScreenCast.xml); its Parameters say where the
 * monitor is on the stage, and a root coordinate is turned into the stream's by taking that
 * position off.  The session lives as long as this process's bus connection (mutter closes a
 * session whose peer left, meta-dbus-session-watcher.c), so this is a long-lived process: it
 * reads commands on standard input and answers each with one line on standard output once mutter
 * has answered the D-Bus call (the event is then in mutter's seat; its effect comes later).
 *
 *   start-up              ready x=X y=Y width=W height=H   (the monitor on the stage: the X root
 *                         of a rootless Xwayland maps 1:1 onto it) or `error msg=...`, exit 1
 *   motion X Y            the pointer to root (stage) coordinates X Y
 *   motion-relative DX DY the pointer by DX DY
 *   button N press|release   X button N (1 left, 2 middle, 3 right)
 *   key KEYSYM press|release a key by X keysym (0xff53 or decimal)
 *   keycode CODE press|release  a key by evdev code (an X keycode minus 8)
 *   quit                  stops the session and exits 0 (so does the end of standard input)
 *
 * Each command is answered `done cmd=WORD` or `error cmd=WORD msg=WHAT` (a bad line, or mutter's
 * D-Bus error).  A session that mutter closed (signal Closed) ends the helper with exit status 1
 * after `error cmd=WORD msg=the session was closed by mutter`. */
#include <dbus/dbus.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input-proto.h"
#include "mutter-dbus.h"

#define RD "org.gnome.Mutter.RemoteDesktop"
#define SC "org.gnome.Mutter.ScreenCast"
#define TIMEOUT_MS 5000

/* linux/input-event-codes.h */
#define BTN_LEFT 0x110
#define BTN_RIGHT 0x111
#define BTN_MIDDLE 0x112

struct seat {
    DBusConnection *bus;
    char rd_session[256];
    char stream[256];
    int x, y, width, height; /* the recorded monitor on the stage */
    bool closed;
};

/* Sends m (taking it) and waits for the reply; NULL with err set. */
static DBusMessage *call(struct seat *s, DBusMessage *m, DBusError *err)
{
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(s->bus, m, TIMEOUT_MS, err);
    dbus_message_unref(m);
    return reply;
}

static int call_for_path(struct seat *s, DBusMessage *m, char *out, size_t len, DBusError *err)
{
    return md_call_for_path(s->bus, m, out, len, err);
}

static int call_void(struct seat *s, DBusMessage *m, DBusError *err)
{
    DBusMessage *reply = call(s, m, err);
    if (!reply)
        return -1;
    dbus_message_unref(reply);
    return 0;
}

/* org.freedesktop.DBus.Properties.Get: the reply, its iterator inside the variant. */
static DBusMessage *get_property(struct seat *s, const char *service, const char *path, const char *iface,
                                 const char *name, DBusMessageIter *value, DBusError *err)
{
    DBusMessage *m = dbus_message_new_method_call(service, path, "org.freedesktop.DBus.Properties", "Get");
    dbus_message_append_args(m, DBUS_TYPE_STRING, &iface, DBUS_TYPE_STRING, &name, DBUS_TYPE_INVALID);
    DBusMessage *reply = call(s, m, err);
    if (!reply)
        return NULL;
    DBusMessageIter it;
    if (!dbus_message_iter_init(reply, &it) || dbus_message_iter_get_arg_type(&it) != DBUS_TYPE_VARIANT) {
        dbus_set_error(err, DBUS_ERROR_INVALID_SIGNATURE, "%s.%s is not a variant", iface, name);
        dbus_message_unref(reply);
        return NULL;
    }
    dbus_message_iter_recurse(&it, value);
    return reply;
}

/* One (ii) entry of an a{sv}: 0, or -1 when it is not there. */
static int dict_pair(DBusMessageIter *dict, const char *key, int *a, int *b)
{
    DBusMessageIter arr = *dict;
    for (; dbus_message_iter_get_arg_type(&arr) == DBUS_TYPE_DICT_ENTRY; dbus_message_iter_next(&arr)) {
        DBusMessageIter entry, var, st;
        const char *k;
        dbus_message_iter_recurse(&arr, &entry);
        dbus_message_iter_get_basic(&entry, &k);
        if (strcmp(k, key) || !dbus_message_iter_next(&entry))
            continue;
        dbus_message_iter_recurse(&entry, &var);
        if (dbus_message_iter_get_arg_type(&var) != DBUS_TYPE_STRUCT)
            return -1;
        dbus_message_iter_recurse(&var, &st);
        int32_t v[2];
        for (int i = 0; i < 2; i++) {
            if (dbus_message_iter_get_arg_type(&st) != DBUS_TYPE_INT32)
                return -1;
            dbus_message_iter_get_basic(&st, &v[i]);
            dbus_message_iter_next(&st);
        }
        *a = v[0];
        *b = v[1];
        return 0;
    }
    return -1;
}

/* The stream's "position" and "size" on the stage (Stream.Parameters, set once the session
 * started). */
static int read_stream_geometry(struct seat *s, DBusError *err)
{
    DBusMessageIter value, dict;
    DBusMessage *reply = get_property(s, SC, s->stream, SC ".Stream", "Parameters", &value, err);
    if (!reply)
        return -1;
    int rc = -1;
    if (dbus_message_iter_get_arg_type(&value) == DBUS_TYPE_ARRAY) {
        dbus_message_iter_recurse(&value, &dict);
        rc = dict_pair(&dict, "position", &s->x, &s->y) == 0 && dict_pair(&dict, "size", &s->width, &s->height) == 0
                 ? 0
                 : -1;
    }
    if (rc < 0)
        dbus_set_error(err, DBUS_ERROR_FAILED, "the stream's Parameters have no position and size");
    dbus_message_unref(reply);
    return rc;
}

/* The session's virtual keyboard and pointer, made now by a Shift press and release and a null
 * motion (ensure_virtual_device, meta-remote-desktop-session.c, makes them on the first event).
 * A headless mutter has no keyboard until then, so its seat gains the keyboard capability only
 * with the virtual one, and Xwayland binds its wl_keyboard only after that: a key sent before
 * (measured: the first one) is lost to the X clients, and when the keyboard first appeared during
 * an interactive resize (the Wayland keyboard focus then nowhere) no key reached an X window after
 * it either.  With the devices made at start-up, they are there before any case. */
static int create_devices(struct seat *s, DBusError *err)
{
    for (int i = 0; i < 2; i++) {
        uint32_t shift_l = 0xffe1;
        dbus_bool_t pressed = i == 0;
        DBusMessage *m = dbus_message_new_method_call(RD, s->rd_session, RD ".Session", "NotifyKeyboardKeysym");
        dbus_message_append_args(m, DBUS_TYPE_UINT32, &shift_l, DBUS_TYPE_BOOLEAN, &pressed, DBUS_TYPE_INVALID);
        if (call_void(s, m, err) < 0)
            return -1;
    }
    double zero = 0;
    DBusMessage *m = dbus_message_new_method_call(RD, s->rd_session, RD ".Session", "NotifyPointerMotionRelative");
    dbus_message_append_args(m, DBUS_TYPE_DOUBLE, &zero, DBUS_TYPE_DOUBLE, &zero, DBUS_TYPE_INVALID);
    return call_void(s, m, err);
}

/* A RemoteDesktop session, a ScreenCast session tied to it that records the primary monitor,
 * both started; 0, or -1 with err. */
static int open_seat(struct seat *s, DBusError *err)
{
    char sc_session[256], session_id[128];
    if (call_for_path(s, dbus_message_new_method_call(RD, "/org/gnome/Mutter/RemoteDesktop", RD, "CreateSession"),
                      s->rd_session, sizeof s->rd_session, err) < 0)
        return -1;
    DBusMessageIter value;
    DBusMessage *reply = get_property(s, RD, s->rd_session, RD ".Session", "SessionId", &value, err);
    if (!reply)
        return -1;
    const char *id = "";
    if (dbus_message_iter_get_arg_type(&value) == DBUS_TYPE_STRING)
        dbus_message_iter_get_basic(&value, &id);
    snprintf(session_id, sizeof session_id, "%s", id);
    dbus_message_unref(reply);

    DBusMessage *m = dbus_message_new_method_call(SC, "/org/gnome/Mutter/ScreenCast", SC, "CreateSession");
    DBusMessageIter it, dict, entry, var;
    const char *key = "remote-desktop-session-id", *idp = session_id;
    dbus_message_iter_init_append(m, &it);
    dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict);
    dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, DBUS_TYPE_STRING_AS_STRING, &var);
    dbus_message_iter_append_basic(&var, DBUS_TYPE_STRING, &idp);
    dbus_message_iter_close_container(&entry, &var);
    dbus_message_iter_close_container(&dict, &entry);
    dbus_message_iter_close_container(&it, &dict);
    if (call_for_path(s, m, sc_session, sizeof sc_session, err) < 0)
        return -1;

    m = dbus_message_new_method_call(SC, sc_session, SC ".Session", "RecordMonitor");
    const char *primary = ""; /* meta_monitor_manager_get_primary_monitor: the virtual monitor */
    dbus_message_iter_init_append(m, &it);
    dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &primary);
    md_empty_dict(&it);
    if (call_for_path(s, m, s->stream, sizeof s->stream, err) < 0)
        return -1;

    char rule[512];
    snprintf(rule, sizeof rule, "type='signal',interface='" RD ".Session',member='Closed',path='%s'", s->rd_session);
    dbus_bus_add_match(s->bus, rule, NULL);
    if (call_void(s, dbus_message_new_method_call(RD, s->rd_session, RD ".Session", "Start"), err) < 0)
        return -1;
    if (read_stream_geometry(s, err) < 0)
        return -1;
    return create_devices(s, err);
}

/* Whether mutter has closed the session meanwhile (its Closed signal is queued). */
static bool session_closed(struct seat *s)
{
    dbus_connection_read_write(s->bus, 0);
    DBusMessage *msg;
    while ((msg = dbus_connection_pop_message(s->bus))) {
        if (dbus_message_is_signal(msg, RD ".Session", "Closed"))
            s->closed = true;
        dbus_message_unref(msg);
    }
    return s->closed;
}

static bool parse_state(const char *word, dbus_bool_t *pressed)
{
    bool p;
    if (!ipr_state(word, &p))
        return false;
    *pressed = p ? TRUE : FALSE;
    return true;
}

static DBusMessage *notify(struct seat *s, const char *method)
{
    return dbus_message_new_method_call(RD, s->rd_session, RD ".Session", method);
}

/* Builds the D-Bus call of one command line; NULL with msg when the line is wrong. */
static DBusMessage *command_call(struct seat *s, char **w, int n, char *msg, size_t len)
{
    long a, b;
    dbus_bool_t pressed;
    DBusMessage *m = NULL;
    if (!strcmp(w[0], "motion") || !strcmp(w[0], "motion-relative")) {
        bool rel = w[0][6] == '-';
        if (n != 3 || !ipr_int(w[1], -32768, 32767, &a) || !ipr_int(w[2], -32768, 32767, &b)) {
            snprintf(msg, len, "expected `%s %s` with integers -32768..32767", w[0], rel ? "DX DY" : "X Y");
            return NULL;
        }
        if (rel) {
            double dx = (double)a, dy = (double)b;
            m = notify(s, "NotifyPointerMotionRelative");
            dbus_message_append_args(m, DBUS_TYPE_DOUBLE, &dx, DBUS_TYPE_DOUBLE, &dy, DBUS_TYPE_INVALID);
        } else {
            /* root coordinates -> the stream's: the monitor's position on the stage taken off */
            double x = (double)(a - s->x), y = (double)(b - s->y);
            const char *stream = s->stream;
            m = notify(s, "NotifyPointerMotionAbsolute");
            dbus_message_append_args(m, DBUS_TYPE_STRING, &stream, DBUS_TYPE_DOUBLE, &x, DBUS_TYPE_DOUBLE, &y,
                                     DBUS_TYPE_INVALID);
        }
    } else if (!strcmp(w[0], "button")) {
        static const int32_t codes[] = {0, BTN_LEFT, BTN_MIDDLE, BTN_RIGHT};
        if (n != 3 || !ipr_int(w[1], 1, 3, &a) || !parse_state(w[2], &pressed)) {
            snprintf(msg, len, "expected `button N press|release` with N 1 (left), 2 (middle) or 3 (right)");
            return NULL;
        }
        int32_t code = codes[a];
        m = notify(s, "NotifyPointerButton");
        dbus_message_append_args(m, DBUS_TYPE_INT32, &code, DBUS_TYPE_BOOLEAN, &pressed, DBUS_TYPE_INVALID);
    } else if (!strcmp(w[0], "key") || !strcmp(w[0], "keycode")) {
        bool sym = !strcmp(w[0], "key");
        if (n != 3 || !ipr_int(w[1], 1, sym ? 0x1ffffff : 0xffff, &a) || !parse_state(w[2], &pressed)) {
            snprintf(msg, len, "expected `%s` then press or release", sym ? "key KEYSYM (0xff53 or decimal)" : "keycode EVDEV-CODE");
            return NULL;
        }
        uint32_t v = (uint32_t)a;
        m = notify(s, sym ? "NotifyKeyboardKeysym" : "NotifyKeyboardKeycode");
        dbus_message_append_args(m, DBUS_TYPE_UINT32, &v, DBUS_TYPE_BOOLEAN, &pressed, DBUS_TYPE_INVALID);
    } else {
        snprintf(msg, len, "unknown command (motion, motion-relative, button, key, keycode, quit)");
    }
    return m;
}

/* One command (tools/input-proto.h): its D-Bus call, whose reply comes once mutter handled it. */
static int run_command(void *ctx, char **w, int n, char *msg, size_t len)
{
    struct seat *s = ctx;
    DBusMessage *m = command_call(s, w, n, msg, len);
    if (!m)
        return 0;
    DBusError err;
    dbus_error_init(&err);
    int rc = call_void(s, m, &err);
    if (session_closed(s)) {
        snprintf(msg, len, "the session was closed by mutter");
        dbus_error_free(&err);
        return -1;
    }
    if (rc < 0) {
        snprintf(msg, len, "%s: %s", err.name ? err.name : "D-Bus", err.message ? err.message : "no reply");
        /* no reply at all: mutter is gone or hung, and so is the session */
        bool alive = !dbus_error_has_name(&err, DBUS_ERROR_NO_REPLY) && dbus_connection_get_is_connected(s->bus);
        dbus_error_free(&err);
        return alive ? 0 : -1;
    }
    return 1;
}

int main(int argc, char **argv)
{
    (void)argv;
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc != 1) {
        fprintf(stderr, "usage: mutter-input (commands on standard input; see tools/mutter-input.c)\n");
        return 2;
    }
    struct seat s = {0};
    DBusError err;
    dbus_error_init(&err);
    s.bus = dbus_bus_get(DBUS_BUS_SESSION, &err);
    if (!s.bus) {
        printf("error msg=no session bus: %s\n", err.message);
        return 1;
    }
    if (open_seat(&s, &err) < 0) {
        printf("error msg=mutter's RemoteDesktop session could not start (%s: %s); is mutter running on this "
               "session bus, with PipeWire for the ScreenCast stream?\n",
               err.name ? err.name : "D-Bus", err.message ? err.message : "no reply");
        return 1;
    }
    printf("ready x=%d y=%d width=%d height=%d\n", s.x, s.y, s.width, s.height);
    ipr_serve(run_command, &s);
    if (!s.closed && dbus_connection_get_is_connected(s.bus)) {
        DBusError stop_err;
        dbus_error_init(&stop_err);
        call_void(&s, dbus_message_new_method_call(RD, s.rd_session, RD ".Session", "Stop"), &stop_err);
        dbus_error_free(&stop_err);
    }
    return s.closed ? 1 : 0;
}
