/* What the request oracle reads, decoded: RECORD data split into requests, and each request the
 * oracle reports formatted as a record line.  Bytes in, text out: no X connection here, so the
 * unit tests and the fuzzers (fuzz/fuzz_rec_split.c, fuzz_record) drive it directly. */
#include "record-decode.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <xcb/record.h>
#include <xcb/sync.h>
#include <xcb/xproto.h>

static uint16_t get16(const uint8_t *p, bool swapped)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return swapped ? (uint16_t)((v >> 8) | (v << 8)) : v;
}

static uint32_t get32(const uint8_t *p, bool swapped)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return swapped ? __builtin_bswap32(v) : v;
}

/* XSync INT64 on the wire: hi (INT32) then lo (CARD32). */
static int64_t get64(const uint8_t *p, bool swapped)
{
    uint64_t hi = get32(p, swapped), lo = get32(p + 4, swapped);
    return (int64_t)((hi << 32) | lo);
}

int rec_split_requests(const uint8_t *data, size_t len, uint8_t element_header, bool client_swapped,
                       uint32_t reply_time, rec_request_fn fn, void *ctx)
{
    size_t off = 0;
    int n = 0;
    while (off < len) {
        uint32_t t = reply_time;
        if (element_header & XCB_RECORD_H_TYPE_FROM_CLIENT_TIME) {
            if (off + 4 > len)
                return -1;
            t = get32(data + off, false); /* the recording client's (our) byte order */
            off += 4;
        }
        if (element_header & XCB_RECORD_H_TYPE_FROM_CLIENT_SEQUENCE) {
            if (off + 4 > len)
                return -1;
            off += 4;
        }
        if (off + 4 > len)
            return -1;
        const uint8_t *req = data + off;
        size_t total = (size_t)get16(req + 2, client_swapped) * 4;
        if (total == 0) { /* BIG-REQUESTS: the extended length follows the header */
            if (off + 8 > len)
                return -1;
            total = (size_t)get32(req + 4, client_swapped) * 4;
            if (total < 8)
                return -1;
        }
        if (total > len - off)
            return -1;
        fn(ctx, t, req, total);
        n++;
        off += total;
    }
    return n;
}

struct out {
    char *buf;
    size_t len, o;
};

static void put(struct out *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *w, const char *fmt, ...)
{
    if (w->o >= w->len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(w->buf + w->o, w->len - w->o, fmt, ap);
    va_end(ap);
    if (n > 0)
        w->o += (size_t)n;
}

/* An atom's name as a field value: empty when it has none, spaces as '_' (like the clients). */
static void put_atom(struct out *w, const char *key, uint32_t a, rec_atom_name_fn name, void *actx)
{
    const char *s = (a && name) ? name(actx, a) : NULL;
    put(w, " %s=", key);
    for (; s && *s; s++)
        put(w, "%c", *s == ' ' ? '_' : *s);
}

static const char *test_type_name(uint32_t t)
{
    static const char *names[] = {"positive-transition", "negative-transition", "positive-comparison",
                                  "negative-comparison"};
    return t < 4 ? names[t] : "unknown";
}

static const char *event_name(uint8_t code)
{
    switch (code) {
    case XCB_CLIENT_MESSAGE: return "ClientMessage";
    case XCB_CONFIGURE_NOTIFY: return "ConfigureNotify";
    case XCB_EXPOSE: return "Expose";
    case XCB_MAP_NOTIFY: return "MapNotify";
    case XCB_UNMAP_NOTIFY: return "UnmapNotify";
    case XCB_PROPERTY_NOTIFY: return "PropertyNotify";
    case XCB_SELECTION_NOTIFY: return "SelectionNotify";
    }
    return NULL;
}

static int format_send_event(const uint8_t *req, size_t len, bool sw, rec_atom_name_fn name, void *actx,
                             struct out *w)
{
    if (len < 44)
        return -1;
    const uint8_t *ev = req + 12;
    uint8_t code = ev[0] & 0x7F;
    const char *en = event_name(code);
    put(w, "send-event destination=%" PRIu32 " mask=%" PRIu32 " propagate=%u", get32(req + 4, sw),
        get32(req + 8, sw), req[1]);
    if (en)
        put(w, " event=%s", en);
    else
        put(w, " event=%u", code);
    if (code == XCB_CLIENT_MESSAGE) {
        uint32_t window = get32(ev + 4, sw), type = get32(ev + 8, sw), l[5];
        for (int i = 0; i < 5; i++)
            l[i] = get32(ev + 12 + 4 * i, sw);
        put(w, " window=%" PRIu32 " type=%" PRIu32, window, type);
        put_atom(w, "typename", type, name, actx);
        put(w, " format=%u", ev[1]);
        for (int i = 0; i < 5; i++)
            put(w, " l%d=%" PRIu32, i, l[i]);
        const char *tn = name && type ? name(actx, type) : NULL;
        const char *l0n = name && l[0] && ev[1] == 32 ? name(actx, l[0]) : NULL;
        put_atom(w, "l0name", ev[1] == 32 ? l[0] : 0, name, actx);
        tn = tn ? tn : "";
        l0n = l0n ? l0n : "";
        /* what the message is about, whatever its layout: a sync request sent with the wrong
         * message_type is still the WM's attempt at one (about=sync-request) */
        const char *about = !strcmp(tn, "_NET_WM_SYNC_REQUEST") || !strcmp(l0n, "_NET_WM_SYNC_REQUEST") ? "sync-request"
                            : !strcmp(l0n, "_NET_WM_SYNC_DRAWN") ? "sync-drawn"
                            : !strcmp(tn, "_NET_WM_FRAME_DRAWN") ? "frame-drawn"
                            : !strcmp(tn, "_NET_WM_FRAME_TIMINGS") ? "frame-timings" : "other";
        put(w, " about=%s", about);
        /* the value each known message carries, as the fake clients report it */
        if (!strcmp(tn, "WM_PROTOCOLS") && !strcmp(l0n, "_NET_WM_SYNC_REQUEST"))
            put(w, " value=%" PRId64, (int64_t)(((uint64_t)l[3] << 32) | l[2]));
        else if (!strcmp(tn, "WM_PROTOCOLS") && !strcmp(l0n, "_NET_WM_SYNC_DRAWN"))
            put(w, " value=%" PRId64, (int64_t)(((uint64_t)l[2] << 32) | l[1]));
        else if (!strcmp(tn, "_NET_WM_FRAME_DRAWN"))
            put(w, " value=%" PRId64 " drawn_us=%" PRIu64, (int64_t)(((uint64_t)l[1] << 32) | l[0]),
                ((uint64_t)l[3] << 32) | l[2]);
        else if (!strcmp(tn, "_NET_WM_FRAME_TIMINGS"))
            put(w, " value=%" PRId64 " presentation_offset=%" PRId32 " refresh_interval=%" PRIu32
                   " frame_delay=%" PRIu32,
                (int64_t)(((uint64_t)l[1] << 32) | l[0]), (int32_t)l[2], l[3], l[4]);
    } else if (code == XCB_CONFIGURE_NOTIFY) {
        put(w, " window=%" PRIu32 " x=%d y=%d width=%u height=%u border=%u above=%" PRIu32 " override=%u",
            get32(ev + 8, sw), (int16_t)get16(ev + 16, sw), (int16_t)get16(ev + 18, sw), get16(ev + 20, sw),
            get16(ev + 22, sw), get16(ev + 24, sw), get32(ev + 12, sw), ev[26]);
    } else {
        put(w, " window=%" PRIu32, get32(ev + 4, sw));
    }
    return 0;
}

static int format_configure_window(const uint8_t *req, size_t len, bool sw, struct out *w)
{
    if (len < 12)
        return -1;
    uint16_t mask = get16(req + 8, sw);
    put(w, "configure-window window=%" PRIu32, get32(req + 4, sw));
    static const char *names[] = {"x", "y", "width", "height", "border", "sibling", "stack_mode"};
    size_t off = 12;
    for (int bit = 0; bit < 7; bit++) {
        if (!(mask & (1u << bit)))
            continue;
        if (off + 4 > len)
            return -1;
        uint32_t v = get32(req + off, sw);
        off += 4;
        if (bit < 2)
            put(w, " %s=%d", names[bit], (int16_t)v);
        else
            put(w, " %s=%" PRIu32, names[bit], v);
    }
    return 0;
}

/* CreateAlarm / ChangeAlarm: id, value-mask, then the values in mask order. */
static int format_alarm(const char *kind, const uint8_t *req, size_t len, bool sw, struct out *w)
{
    if (len < 12)
        return -1;
    uint32_t mask = get32(req + 8, sw);
    put(w, "%s alarm=%" PRIu32, kind, get32(req + 4, sw));
    size_t off = 12;
    for (int bit = 0; bit < 6; bit++) {
        if (!(mask & (1u << bit)))
            continue;
        size_t size = (bit == 2 || bit == 4) ? 8 : 4;
        if (off + size > len)
            return -1;
        const uint8_t *v = req + off;
        off += size;
        switch (bit) {
        case 0: put(w, " counter=%" PRIu32, get32(v, sw)); break;
        case 1: put(w, " value_type=%s", get32(v, sw) ? "relative" : "absolute"); break;
        case 2: put(w, " value=%" PRId64, get64(v, sw)); break;
        case 3: put(w, " test=%s", test_type_name(get32(v, sw))); break;
        case 4: put(w, " delta=%" PRId64, get64(v, sw)); break;
        case 5: put(w, " events=%" PRIu32, get32(v, sw)); break;
        }
    }
    return 0;
}

static int format_sync(const uint8_t *req, size_t len, bool sw, struct out *w)
{
    switch (req[1]) {
    case XCB_SYNC_SET_COUNTER:
    case XCB_SYNC_CHANGE_COUNTER:
        if (len < 16)
            return -1;
        put(w, "%s counter=%" PRIu32 " %s=%" PRId64, req[1] == XCB_SYNC_SET_COUNTER ? "set-counter" : "change-counter",
            get32(req + 4, sw), req[1] == XCB_SYNC_SET_COUNTER ? "value" : "amount", get64(req + 8, sw));
        return 0;
    case XCB_SYNC_AWAIT: {
        size_t n = (len - 4) / 28;
        if (n == 0)
            return -1;
        /* the first condition in full, the others by counter */
        const uint8_t *c = req + 4;
        put(w, "await counter=%" PRIu32 " value_type=%s value=%" PRId64 " test=%s conditions=%zu",
            get32(c, sw), get32(c + 4, sw) ? "relative" : "absolute", get64(c + 8, sw),
            test_type_name(get32(c + 16, sw)), n);
        for (size_t i = 1; i < n && i < 8; i++)
            put(w, " counter%zu=%" PRIu32, i, get32(req + 4 + 28 * i, sw));
        return 0;
    }
    case XCB_SYNC_CREATE_ALARM: return format_alarm("create-alarm", req, len, sw, w);
    case XCB_SYNC_CHANGE_ALARM: return format_alarm("change-alarm", req, len, sw, w);
    case XCB_SYNC_CREATE_FENCE:
        if (len < 16)
            return -1;
        put(w, "create-fence fence=%" PRIu32 " drawable=%" PRIu32 " triggered=%u", get32(req + 8, sw),
            get32(req + 4, sw), req[12]);
        return 0;
    case XCB_SYNC_TRIGGER_FENCE:
    case XCB_SYNC_RESET_FENCE:
        if (len < 8)
            return -1;
        put(w, "%s fence=%" PRIu32, req[1] == XCB_SYNC_TRIGGER_FENCE ? "trigger-fence" : "reset-fence",
            get32(req + 4, sw));
        return 0;
    case XCB_SYNC_AWAIT_FENCE: {
        size_t n = (len - 4) / 4;
        if (n == 0)
            return -1;
        put(w, "await-fence fence=%" PRIu32 " fences=%zu", get32(req + 4, sw), n);
        for (size_t i = 1; i < n && i < 8; i++)
            put(w, " fence%zu=%" PRIu32, i, get32(req + 4 + 4 * i, sw));
        return 0;
    }
    }
    return -1;
}

/* ChangeProperty of _XWAYLAND_ALLOW_COMMITS only: the Xwayland commit freeze a WM sets on a frame
 * (0: Xwayland holds the window's commits, 1: it lets them through).  Every other property a client
 * sets is not the oracle's business (-1). */
static int format_change_property(const uint8_t *req, size_t len, bool sw, rec_atom_name_fn name, void *actx,
                                  struct out *w)
{
    if (len < 24)
        return -1;
    uint32_t prop = get32(req + 8, sw);
    const char *pn = name ? name(actx, prop) : NULL;
    if (!pn || strcmp(pn, "_XWAYLAND_ALLOW_COMMITS"))
        return -1;
    uint8_t format = req[16];
    uint32_t n = get32(req + 20, sw);
    put(w, "change-property window=%" PRIu32, get32(req + 4, sw));
    put_atom(w, "atomname", prop, name, actx);
    put(w, " mode=%s format=%u", req[1] == XCB_PROP_MODE_REPLACE ? "replace" : "append", format);
    if (format == 32 && n >= 1 && len >= 28)
        put(w, " value=%" PRIu32, get32(req + 24, sw));
    return 0;
}

int rec_format_request(const uint8_t *req, size_t len, bool swapped, uint8_t sync_major,
                       rec_atom_name_fn atom_name, void *actx, char *out, size_t outlen)
{
    struct out w = {out, outlen, 0};
    if (outlen)
        out[0] = 0;
    if (len < 4)
        return -1;
    if (get16(req + 2, swapped) == 0) { /* BIG-REQUESTS: drop the extended length word */
        static uint8_t copy[65536];
        if (len < 8 || len - 4 > sizeof copy)
            return -1;
        memcpy(copy, req, 4);
        memcpy(copy + 4, req + 8, len - 8);
        req = copy;
        len -= 4;
    }
    int r;
    if (req[0] == XCB_SEND_EVENT)
        r = format_send_event(req, len, swapped, atom_name, actx, &w);
    else if (req[0] == XCB_CONFIGURE_WINDOW)
        r = format_configure_window(req, len, swapped, &w);
    else if (req[0] == XCB_CHANGE_PROPERTY)
        r = format_change_property(req, len, swapped, atom_name, actx, &w);
    else if (sync_major && req[0] == sync_major)
        r = format_sync(req, len, swapped, &w);
    else
        r = -1;
    if (r < 0 || w.o >= outlen) {
        if (outlen)
            out[0] = 0;
        return -1;
    }
    return 0;
}
