#include "mutter-dbus.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define CALL_TIMEOUT_MS 5000

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int md_call_for_path(DBusConnection *bus, DBusMessage *m, char *out, size_t len, DBusError *err)
{
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(bus, m, CALL_TIMEOUT_MS, err);
    dbus_message_unref(m);
    if (!reply)
        return -1;
    const char *path = NULL;
    int ok = dbus_message_get_args(reply, err, DBUS_TYPE_OBJECT_PATH, &path, DBUS_TYPE_INVALID);
    if (ok)
        snprintf(out, len, "%s", path);
    dbus_message_unref(reply);
    return ok ? 0 : -1;
}

void md_empty_dict(DBusMessageIter *it)
{
    DBusMessageIter dict;
    dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{sv}", &dict);
    dbus_message_iter_close_container(it, &dict);
}

static void call_void(DBusConnection *bus, const char *path, const char *iface, const char *method)
{
    DBusMessage *m = dbus_message_new_method_call(MD_SC, path, iface, method);
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(bus, m, CALL_TIMEOUT_MS, NULL);
    dbus_message_unref(m);
    if (reply)
        dbus_message_unref(reply);
}

/* {"cursor-mode": uint32 0}: META_SCREEN_CAST_CURSOR_MODE_HIDDEN, the suite's cursor is not shown */
static void cursor_hidden(DBusMessageIter *it)
{
    DBusMessageIter dict, entry, var;
    const char *key = "cursor-mode";
    uint32_t hidden = 0;
    dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{sv}", &dict);
    dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, DBUS_TYPE_UINT32_AS_STRING, &var);
    dbus_message_iter_append_basic(&var, DBUS_TYPE_UINT32, &hidden);
    dbus_message_iter_close_container(&entry, &var);
    dbus_message_iter_close_container(&dict, &entry);
    dbus_message_iter_close_container(it, &dict);
}

/* Waits for the stream's PipeWireStreamAdded signal: its node id, or -1. */
static int64_t await_node(DBusConnection *bus, const char *stream_path, int timeout_ms)
{
    int64_t deadline = now_ms() + timeout_ms;
    while (now_ms() < deadline) {
        dbus_connection_read_write(bus, 100);
        DBusMessage *msg;
        while ((msg = dbus_connection_pop_message(bus))) {
            uint32_t node;
            const char *path = dbus_message_get_path(msg);
            if (dbus_message_is_signal(msg, MD_SC ".Stream", "PipeWireStreamAdded") && path &&
                !strcmp(path, stream_path) &&
                dbus_message_get_args(msg, NULL, DBUS_TYPE_UINT32, &node, DBUS_TYPE_INVALID)) {
                dbus_message_unref(msg);
                return node;
            }
            dbus_message_unref(msg);
        }
    }
    return -1;
}

int md_cast_start(struct md_cast *c, int32_t x, int32_t y, int32_t w, int32_t h, int timeout_ms, char *err,
                  size_t len)
{
    memset(c, 0, sizeof *c);
    c->node = -1;
    DBusError e;
    dbus_error_init(&e);
    if (!(c->bus = dbus_bus_get(DBUS_BUS_SESSION, &e))) {
        snprintf(err, len, "no session bus: %s", e.message);
        dbus_error_free(&e);
        return -1;
    }
    DBusMessage *m = dbus_message_new_method_call(MD_SC, "/org/gnome/Mutter/ScreenCast", MD_SC, "CreateSession");
    DBusMessageIter it;
    dbus_message_iter_init_append(m, &it);
    md_empty_dict(&it);
    if (md_call_for_path(c->bus, m, c->session, sizeof c->session, &e) < 0) {
        snprintf(err, len, "CreateSession failed: %s", e.message);
        dbus_error_free(&e);
        return -1;
    }
    m = dbus_message_new_method_call(MD_SC, c->session, MD_SC ".Session", w ? "RecordArea" : "RecordMonitor");
    dbus_message_iter_init_append(m, &it);
    if (w) {
        dbus_message_iter_append_basic(&it, DBUS_TYPE_INT32, &x);
        dbus_message_iter_append_basic(&it, DBUS_TYPE_INT32, &y);
        dbus_message_iter_append_basic(&it, DBUS_TYPE_INT32, &w);
        dbus_message_iter_append_basic(&it, DBUS_TYPE_INT32, &h);
    } else {
        const char *primary = ""; /* handle_record_monitor: "" is the primary monitor */
        dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &primary);
    }
    cursor_hidden(&it);
    if (md_call_for_path(c->bus, m, c->stream, sizeof c->stream, &e) < 0) {
        snprintf(err, len, "%s failed: %s", w ? "RecordArea" : "RecordMonitor", e.message);
        dbus_error_free(&e);
        md_cast_stop(c);
        return -1;
    }
    char rule[700];
    snprintf(rule, sizeof rule, "type='signal',interface='" MD_SC ".Stream',member='PipeWireStreamAdded',path='%s'",
             c->stream);
    dbus_bus_add_match(c->bus, rule, NULL);
    call_void(c->bus, c->session, MD_SC ".Session", "Start");
    if ((c->node = await_node(c->bus, c->stream, timeout_ms)) < 0) {
        snprintf(err, len, "no PipeWireStreamAdded within %d ms (is a PipeWire daemon with a session manager "
                 "running in mutter's session?)", timeout_ms);
        md_cast_stop(c);
        return -1;
    }
    return 0;
}

void md_cast_stop(struct md_cast *c)
{
    if (c->bus && c->session[0])
        call_void(c->bus, c->session, MD_SC ".Session", "Stop");
    c->session[0] = 0;
}
