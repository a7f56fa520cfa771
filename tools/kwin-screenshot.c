/* kwin-screenshot X Y W H: the region of KWin's screen as a binary PPM on standard output.
 *
 * The screen-capture command of compositors/kwin_wayland.conf (harness/capture.h): under
 * kwin_wayland the X server is a rootless Xwayland whose root shows nothing, so what KWin shows is
 * asked of KWin itself, through org.kde.KWin.ScreenShot2.CaptureArea on the session bus
 * (KWin 5.27: src/effects/screenshot/screenshotdbusinterface2.cpp).  KWin takes the picture at
 * its next composited frame and writes the raw QImage into the pipe it is given after the reply
 * (which says its format, size and stride).  It answers only callers it trusts: a desktop file
 * listing X-KDE-DBUS-Restricted-Interfaces=org.kde.KWin.ScreenShot2, or any caller when KWin runs
 * with KWIN_SCREENSHOT_NO_PERMISSION_CHECKS=1 (ScreenShotDBusInterface2::checkPermissions), which
 * the conf sets for the test session it starts.  The screenshot effect exists only when KWin
 * composites with OpenGL (llvmpipe here).
 *
 * Exit status 0 with the PPM, 1 with a message on stderr. */
#include <dbus/dbus.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TIMEOUT_MS 5000

/* QImage::Format values KWin may answer with (qimage.h): 32-bit pixels, 0xAARRGGBB in native order */
#define QIMAGE_RGB32 4
#define QIMAGE_ARGB32 5
#define QIMAGE_ARGB32_PREMULTIPLIED 6

static int fail(const char *fmt, const char *detail)
{
    fprintf(stderr, "kwin-screenshot: ");
    fprintf(stderr, fmt, detail);
    fputc('\n', stderr);
    return 1;
}

/* One uint32 entry of the reply's a{sv}; -1 when it is not there. */
static int64_t reply_u32(DBusMessage *reply, const char *key)
{
    DBusMessageIter it, dict, entry, var;
    if (!dbus_message_iter_init(reply, &it) || dbus_message_iter_get_arg_type(&it) != DBUS_TYPE_ARRAY)
        return -1;
    for (dbus_message_iter_recurse(&it, &dict); dbus_message_iter_get_arg_type(&dict) == DBUS_TYPE_DICT_ENTRY;
         dbus_message_iter_next(&dict)) {
        const char *name;
        dbus_message_iter_recurse(&dict, &entry);
        dbus_message_iter_get_basic(&entry, &name);
        dbus_message_iter_next(&entry);
        dbus_message_iter_recurse(&entry, &var);
        if (strcmp(name, key) || dbus_message_iter_get_arg_type(&var) != DBUS_TYPE_UINT32)
            continue;
        uint32_t v;
        dbus_message_iter_get_basic(&var, &v);
        return v;
    }
    return -1;
}

static void add_bool_option(DBusMessageIter *dict, const char *key, dbus_bool_t value)
{
    DBusMessageIter entry, var;
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, DBUS_TYPE_BOOLEAN_AS_STRING, &var);
    dbus_message_iter_append_basic(&var, DBUS_TYPE_BOOLEAN, &value);
    dbus_message_iter_close_container(&entry, &var);
    dbus_message_iter_close_container(dict, &entry);
}

int main(int argc, char **argv)
{
    if (argc != 5)
        return fail("usage: kwin-screenshot X Y W H (writes a binary PPM of that region to stdout)%s", "");
    int32_t x = atoi(argv[1]), y = atoi(argv[2]);
    uint32_t w = (uint32_t)atoi(argv[3]), h = (uint32_t)atoi(argv[4]);
    if (w == 0 || h == 0 || w > 16384 || h > 16384)
        return fail("an empty or too large region: %s", argv[3]);
    DBusError err;
    dbus_error_init(&err);
    DBusConnection *bus = dbus_bus_get(DBUS_BUS_SESSION, &err);
    if (!bus)
        return fail("no session bus: %s", err.message);
    int p[2];
    if (pipe(p) < 0)
        return fail("pipe: %s", strerror(errno));
    DBusMessage *m = dbus_message_new_method_call("org.kde.KWin.ScreenShot2", "/org/kde/KWin/ScreenShot2",
                                                  "org.kde.KWin.ScreenShot2", "CaptureArea");
    DBusMessageIter it, dict;
    dbus_message_iter_init_append(m, &it);
    dbus_message_iter_append_basic(&it, DBUS_TYPE_INT32, &x);
    dbus_message_iter_append_basic(&it, DBUS_TYPE_INT32, &y);
    dbus_message_iter_append_basic(&it, DBUS_TYPE_UINT32, &w);
    dbus_message_iter_append_basic(&it, DBUS_TYPE_UINT32, &h);
    dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict);
    add_bool_option(&dict, "include-cursor", FALSE);
    add_bool_option(&dict, "include-decoration", TRUE);
    add_bool_option(&dict, "native-resolution", TRUE); /* device pixels: no scaling of the colours */
    dbus_message_iter_close_container(&it, &dict);
    dbus_message_iter_append_basic(&it, DBUS_TYPE_UNIX_FD, &p[1]); /* libdbus sends a duplicate */
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(bus, m, TIMEOUT_MS, &err);
    dbus_message_unref(m);
    close(p[1]); /* KWin holds the only write end now: EOF when it is done */
    if (!reply)
        return fail("CaptureArea failed: %s", err.message);
    int64_t format = reply_u32(reply, "format"), rw = reply_u32(reply, "width"), rh = reply_u32(reply, "height"),
            stride = reply_u32(reply, "stride");
    dbus_message_unref(reply);
    if (format != QIMAGE_RGB32 && format != QIMAGE_ARGB32 && format != QIMAGE_ARGB32_PREMULTIPLIED)
        return fail("KWin answered with a QImage format this tool does not read (%s)", format < 0 ? "none" : "other");
    if (rw <= 0 || rh <= 0 || stride < rw * 4)
        return fail("KWin's answer has no usable width, height and stride%s", "");
    size_t size = (size_t)stride * (size_t)rh, got = 0;
    uint8_t *buf = malloc(size);
    while (got < size) {
        ssize_t n = read(p[0], buf + got, size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    if (got < size)
        return fail("KWin wrote fewer pixels than it announced%s", "");
    printf("P6\n%d %d\n255\n", (int)rw, (int)rh);
    uint8_t *row = malloc((size_t)rw * 3);
    for (int64_t j = 0; j < rh; j++) {
        const uint8_t *s = buf + j * stride;
        for (int64_t i = 0; i < rw; i++) {
            uint32_t px;
            memcpy(&px, s + 4 * i, 4); /* 0xAARRGGBB in native byte order */
            row[3 * i] = (uint8_t)(px >> 16);
            row[3 * i + 1] = (uint8_t)(px >> 8);
            row[3 * i + 2] = (uint8_t)px;
        }
        fwrite(row, 3, (size_t)rw, stdout);
    }
    free(row);
    free(buf);
    return fflush(stdout) == 0 ? 0 : 1;
}
