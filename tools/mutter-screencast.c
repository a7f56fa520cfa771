/* mutter-screencast X Y W H: the region of mutter's screen as a binary PPM on standard output.
 *
 * The screen-capture command of compositors/mutter-wayland.conf (harness/capture.h): under mutter
 * --wayland the X server is a rootless Xwayland whose root shows nothing, and mutter 43 offers its
 * picture only as a PipeWire stream, through org.gnome.Mutter.ScreenCast on the session bus
 * (src/backends/meta-screen-cast*.c): CreateSession, Session.RecordArea(x, y, w, h), Session.Start;
 * the stream object then says its PipeWire node (PipeWireStreamAdded), and one buffer of it is taken
 * with GStreamer's pipewiresrc (gst-launch-1.0, converted to packed RGB), then Session.Stop.  It
 * needs a PipeWire daemon and a session manager (wireplumber) in mutter's session, which the conf
 * starts before mutter.  One picture takes 0.15 to 0.4 s here (a session, a stream and a GStreamer
 * pipeline each time).
 *
 * Exit status 0 with the PPM, 1 with a message on stderr. */
#include <dbus/dbus.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SC "org.gnome.Mutter.ScreenCast"
#define TIMEOUT_MS 5000

static int fail(const char *what, const char *detail)
{
    fprintf(stderr, "mutter-screencast: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    return 1;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A method call whose reply is one object path (copied into out). */
static int call_for_path(DBusConnection *bus, DBusMessage *m, char *out, size_t len, DBusError *err)
{
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(bus, m, TIMEOUT_MS, err);
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

static void empty_dict(DBusMessageIter *it)
{
    DBusMessageIter dict;
    dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{sv}", &dict);
    dbus_message_iter_close_container(it, &dict);
}

static void call_void(DBusConnection *bus, const char *path, const char *iface, const char *method)
{
    DBusMessage *m = dbus_message_new_method_call(SC, path, iface, method);
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(bus, m, TIMEOUT_MS, NULL);
    dbus_message_unref(m);
    if (reply)
        dbus_message_unref(reply);
}

/* Waits for the stream's PipeWireStreamAdded signal: its node id, or -1. */
static int64_t await_node(DBusConnection *bus, const char *stream_path)
{
    int64_t deadline = now_ms() + TIMEOUT_MS;
    while (now_ms() < deadline) {
        dbus_connection_read_write(bus, 100);
        DBusMessage *msg;
        while ((msg = dbus_connection_pop_message(bus))) {
            uint32_t node;
            if (dbus_message_is_signal(msg, SC ".Stream", "PipeWireStreamAdded") &&
                !strcmp(dbus_message_get_path(msg) ? dbus_message_get_path(msg) : "", stream_path) &&
                dbus_message_get_args(msg, NULL, DBUS_TYPE_UINT32, &node, DBUS_TYPE_INVALID)) {
                dbus_message_unref(msg);
                return node;
            }
            dbus_message_unref(msg);
        }
    }
    return -1;
}

/* One buffer of the node as packed RGB rows (GStreamer pads each row to 4 bytes): into buf. */
static int take_buffer(int64_t node, uint8_t *buf, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "path=%lld", (long long)node);
    int p[2];
    if (pipe(p) < 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(p[1], 1);
        close(p[0]);
        close(p[1]);
        execlp("gst-launch-1.0", "gst-launch-1.0", "-q", "pipewiresrc", path, "num-buffers=1", "always-copy=true", "!",
               "videoconvert", "!", "video/x-raw,format=RGB", "!", "fdsink", "fd=1", (char *)NULL);
        _exit(127);
    }
    close(p[1]);
    if (pid < 0) {
        close(p[0]);
        return -1;
    }
    size_t got = 0;
    int64_t deadline = now_ms() + TIMEOUT_MS;
    while (got < size && now_ms() < deadline) {
        struct pollfd pfd = {.fd = p[0], .events = POLLIN};
        if (poll(&pfd, 1, 100) <= 0)
            continue;
        ssize_t n = read(p[0], buf + got, size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(p[0]);
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    return got == size ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 5)
        return fail("usage: mutter-screencast X Y W H (writes a binary PPM of that region to stdout)", NULL);
    int32_t x = atoi(argv[1]), y = atoi(argv[2]), w = atoi(argv[3]), h = atoi(argv[4]);
    if (w <= 0 || h <= 0 || w > 16384 || h > 16384)
        return fail("an empty or too large region", argv[3]);
    DBusError err;
    dbus_error_init(&err);
    DBusConnection *bus = dbus_bus_get(DBUS_BUS_SESSION, &err);
    if (!bus)
        return fail("no session bus", err.message);
    char session[512], stream[512];
    DBusMessage *m = dbus_message_new_method_call(SC, "/org/gnome/Mutter/ScreenCast", SC, "CreateSession");
    DBusMessageIter it;
    dbus_message_iter_init_append(m, &it);
    empty_dict(&it);
    if (call_for_path(bus, m, session, sizeof session, &err) < 0)
        return fail("CreateSession failed", err.message);
    m = dbus_message_new_method_call(SC, session, SC ".Session", "RecordArea");
    dbus_message_iter_init_append(m, &it);
    dbus_message_iter_append_basic(&it, DBUS_TYPE_INT32, &x);
    dbus_message_iter_append_basic(&it, DBUS_TYPE_INT32, &y);
    dbus_message_iter_append_basic(&it, DBUS_TYPE_INT32, &w);
    dbus_message_iter_append_basic(&it, DBUS_TYPE_INT32, &h);
    DBusMessageIter dict, entry, var;
    const char *key = "cursor-mode";
    uint32_t hidden = 0; /* META_SCREEN_CAST_CURSOR_MODE_HIDDEN */
    dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict);
    dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, DBUS_TYPE_UINT32_AS_STRING, &var);
    dbus_message_iter_append_basic(&var, DBUS_TYPE_UINT32, &hidden);
    dbus_message_iter_close_container(&entry, &var);
    dbus_message_iter_close_container(&dict, &entry);
    dbus_message_iter_close_container(&it, &dict);
    if (call_for_path(bus, m, stream, sizeof stream, &err) < 0) {
        call_void(bus, session, SC ".Session", "Stop");
        return fail("RecordArea failed", err.message);
    }
    char rule[700];
    snprintf(rule, sizeof rule, "type='signal',interface='" SC ".Stream',member='PipeWireStreamAdded',path='%s'", stream);
    dbus_bus_add_match(bus, rule, NULL);
    call_void(bus, session, SC ".Session", "Start");
    int64_t node = await_node(bus, stream);
    size_t stride = ((size_t)w * 3 + 3) & ~(size_t)3, size = stride * (size_t)h;
    uint8_t *buf = malloc(size);
    int rc = node < 0 ? -1 : take_buffer(node, buf, size);
    call_void(bus, session, SC ".Session", "Stop");
    if (node < 0)
        return fail("no PipeWireStreamAdded within 5 s (is a PipeWire daemon with a session manager running in "
                    "mutter's session?)", NULL);
    if (rc < 0)
        return fail("no buffer of the expected size from gst-launch-1.0 pipewiresrc", NULL);
    printf("P6\n%d %d\n255\n", w, h);
    for (int32_t j = 0; j < h; j++)
        fwrite(buf + (size_t)j * stride, 3, (size_t)w, stdout);
    free(buf);
    return fflush(stdout) == 0 ? 0 : 1;
}
