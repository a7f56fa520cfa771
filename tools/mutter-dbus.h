/* mutter's ScreenCast API on the session bus (org.gnome.Mutter.ScreenCast, src/backends/
 * meta-screen-cast*.c in mutter 43): a session that records the screen, and the PipeWire node of
 * its stream.  Shared by tools/mutter-screencast (one picture) and tools/mutter-stream (every
 * frame). */
#ifndef FRAMESYNC_MUTTER_DBUS_H
#define FRAMESYNC_MUTTER_DBUS_H

#include <dbus/dbus.h>
#include <stdint.h>

#define MD_SC "org.gnome.Mutter.ScreenCast"

struct md_cast {
    DBusConnection *bus;
    char session[512], stream[512];
    int64_t node;   /* the stream's PipeWire node, -1 before it was announced */
};

/* A method call whose reply is one object path, copied into out; m is consumed.  0, or -1 with err
 * set (5 s at most). */
int md_call_for_path(DBusConnection *bus, DBusMessage *m, char *out, size_t len, DBusError *err);
/* An empty a{sv} (the options of most ScreenCast and RemoteDesktop methods). */
void md_empty_dict(DBusMessageIter *it);

/* Connects to the session bus, creates a session and a stream of the region (x, y, w, h) of the
 * stage (RecordArea), or of the primary monitor when w is 0 (RecordMonitor ""), with the cursor
 * hidden, starts it and waits (up to timeout_ms) for its node.  0, or -1 with err (the session, if
 * one was made, is stopped). */
int md_cast_start(struct md_cast *c, int32_t x, int32_t y, int32_t w, int32_t h, int timeout_ms, char *err,
                  size_t len);
/* Stops the session (mutter ends its stream). */
void md_cast_stop(struct md_cast *c);

#endif
