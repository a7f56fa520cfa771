#include "oracle-record.h"
#include "clock.h"
#include "session.h"
#include "xutil.h"

#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/record.h>
#include <xcb/xcbext.h>
#include <xcb/sync.h>

/* ---- pure parts: bytes in, text out ---- */

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

/* ---- the oracle ---- */

#define MAX_BASES 16
#define ATOM_CACHE 512

struct rec_state {
    struct oracle o;
    struct xserver *x;
    xcb_connection_t *ctl, *data;
    uint32_t id_mask;
    uint8_t sync_major;
    xcb_record_context_t ctx;
    unsigned int enable_seq;
    bool started, broken;
    uint32_t wm_base, cm_base;
    struct { uint32_t base; char name[16]; } clients[MAX_BASES];
    int nclients;
    struct { uint32_t atom; char *name; } atoms[ATOM_CACHE];
    int natoms;
    struct session *s;        /* the case being run, while one runs */
    int dropped;              /* malformed replies, for the log */
};

static const char *atom_name_cached(void *p, uint32_t atom)
{
    struct rec_state *st = p;
    for (int i = 0; i < st->natoms; i++)
        if (st->atoms[i].atom == atom)
            return st->atoms[i].name;
    char buf[256];
    const char *name = xu_atom_name(st->ctl, atom, buf, sizeof buf) == 0 ? buf : "";
    if (st->natoms == ATOM_CACHE) { /* full: forget the oldest half */
        for (int i = 0; i < ATOM_CACHE / 2; i++)
            free(st->atoms[i].name);
        memmove(st->atoms, st->atoms + ATOM_CACHE / 2, sizeof st->atoms[0] * (ATOM_CACHE / 2));
        st->natoms = ATOM_CACHE / 2;
    }
    st->atoms[st->natoms].atom = atom;
    st->atoms[st->natoms].name = strdup(name);
    return st->atoms[st->natoms++].name;
}

static uint32_t owner_base(struct rec_state *st, const char *selection)
{
    xcb_window_t w = xu_selection_owner(st->x->conn, selection);
    return w ? (w & ~st->id_mask) : 0;
}

struct deliver_ctx {
    struct rec_state *st;
    uint32_t base;
    bool swapped;
    int64_t t;
};

static void deliver(void *p, uint32_t server_time, const uint8_t *req, size_t len)
{
    struct deliver_ctx *d = p;
    struct rec_state *st = d->st;
    char line[900];
    if (rec_format_request(req, len, d->swapped, st->sync_major, atom_name_cached, st, line, sizeof line) < 0)
        return;
    const char *by = "other", *from = NULL;
    if (d->base && (d->base == st->wm_base || d->base == st->cm_base))
        by = "wm";
    else
        for (int i = 0; i < st->nclients; i++)
            if (st->clients[i].base == d->base) {
                by = "client";
                from = st->clients[i].name;
            }
    struct record *r = record_make("wm", d->t, "%s by=%s%s%s base=%" PRIu32 " server_time=%" PRIu32, line, by,
                                   from ? " from=" : "", from ? from : "", d->base, server_time);
    if (r && st->s)
        session_add_record(st->s, r);
    else
        record_free(r);
}

/* Takes every reply that has arrived; records them into the case when one runs. */
static void take_replies(struct rec_state *st)
{
    if (!st->started || st->broken)
        return;
    for (;;) {
        void *reply = NULL;
        xcb_generic_error_t *e = NULL;
        if (!xcb_poll_for_reply(st->data, st->enable_seq, &reply, &e)) {
            if (xcb_connection_has_error(st->data) && !st->broken) {
                st->broken = true;
                fprintf(stderr, "framesync: the request oracle lost its X connection\n");
            }
            return;
        }
        if (e) {
            fprintf(stderr, "framesync: RECORD EnableContext failed (X error %u)\n", e->error_code);
            free(e);
            st->broken = true;
            return;
        }
        if (!reply)
            return;
        xcb_record_enable_context_reply_t *r = reply;
        if (r->category == REC_FROM_CLIENT && st->s) {
            struct deliver_ctx d = {st, r->xid_base, r->client_swapped != 0, clock_now_us()};
            if (rec_split_requests(xcb_record_enable_context_data(r),
                                   (size_t)xcb_record_enable_context_data_length(r), r->element_header,
                                   d.swapped, r->server_time, deliver, &d) < 0)
                st->dropped++;
        }
        free(reply);
    }
}

static void rec_readable(struct oracle *o, struct session *s)
{
    struct rec_state *st = o->state;
    st->s = s;
    take_replies(st);
}

static void rec_observe(struct oracle *o, struct session *s, const struct record *r)
{
    (void)s;
    struct rec_state *st = o->state;
    const char *cmd = record_get(r, "cmd"), *win = record_get(r, "window");
    if (strcmp(r->kind, "done") || !cmd || strcmp(cmd, "create") || !win)
        return;
    uint32_t base = (uint32_t)strtoul(win, NULL, 10) & ~st->id_mask;
    for (int i = 0; i < st->nclients; i++)
        if (!strcmp(st->clients[i].name, r->source)) {
            st->clients[i].base = base;
            return;
        }
    if (st->nclients < MAX_BASES) {
        st->clients[st->nclients].base = base;
        snprintf(st->clients[st->nclients].name, sizeof st->clients[0].name, "%s", r->source);
        st->nclients++;
    }
}

static void rec_case_begin(struct oracle *o, struct session *s)
{
    struct rec_state *st = o->state;
    st->s = NULL;
    take_replies(st); /* what happened between cases belongs to no case */
    st->s = s;
    st->nclients = 0;
    st->wm_base = owner_base(st, "WM_S0");
    st->cm_base = owner_base(st, "_NET_WM_CM_S0");
}

static void rec_case_end(struct oracle *o, struct session *s)
{
    struct rec_state *st = o->state;
    st->s = s;
    take_replies(st);
    st->s = NULL;
    if (st->dropped) {
        fprintf(stderr, "framesync: the request oracle could not parse %d RECORD replies\n", st->dropped);
        st->dropped = 0;
    }
}

static xcb_connection_t *connect_to(struct xserver *x)
{
    xcb_connection_t *c = xcb_connect(x->display_name, NULL);
    if (xcb_connection_has_error(c)) {
        xcb_disconnect(c);
        return NULL;
    }
    return c;
}

struct oracle *oracle_record_create(struct xserver *x, char *err, size_t errlen)
{
    struct rec_state *st = calloc(1, sizeof *st);
    st->x = x;
    st->ctl = connect_to(x);
    st->data = connect_to(x);
    if (!st->ctl || !st->data) {
        snprintf(err, errlen, "cannot open the request oracle's connections to %s", x->display_name);
        goto fail;
    }
    const xcb_query_extension_reply_t *rec = xcb_get_extension_data(st->ctl, &xcb_record_id);
    const xcb_query_extension_reply_t *sync = xcb_get_extension_data(st->ctl, &xcb_sync_id);
    if (!rec || !rec->present) {
        snprintf(err, errlen, "the X server has no RECORD extension");
        goto fail;
    }
    if (sync && sync->present)
        st->sync_major = sync->major_opcode;
    xcb_record_query_version_reply_t *v =
        xcb_record_query_version_reply(st->ctl, xcb_record_query_version(st->ctl, 1, 13), NULL);
    if (!v) {
        snprintf(err, errlen, "RECORD QueryVersion failed");
        goto fail;
    }
    free(v);
    st->id_mask = xcb_get_setup(st->ctl)->resource_id_mask;

    /* ranges: SendEvent and ConfigureWindow, and the SYNC requests that set or wait */
    xcb_record_range_t ranges[6];
    memset(ranges, 0, sizeof ranges);
    int nr = 0;
    ranges[nr++].core_requests = (xcb_record_range_8_t){XCB_SEND_EVENT, XCB_SEND_EVENT};
    ranges[nr++].core_requests = (xcb_record_range_8_t){XCB_CONFIGURE_WINDOW, XCB_CONFIGURE_WINDOW};
    if (st->sync_major) {
        static const uint16_t minors[][2] = {{XCB_SYNC_SET_COUNTER, XCB_SYNC_CHANGE_COUNTER},
                                             {XCB_SYNC_AWAIT, XCB_SYNC_CHANGE_ALARM},
                                             {XCB_SYNC_CREATE_FENCE, XCB_SYNC_RESET_FENCE},
                                             {XCB_SYNC_AWAIT_FENCE, XCB_SYNC_AWAIT_FENCE}};
        for (int i = 0; i < 4; i++) {
            ranges[nr].ext_requests.major = (xcb_record_range_8_t){st->sync_major, st->sync_major};
            ranges[nr].ext_requests.minor = (xcb_record_range_16_t){minors[i][0], minors[i][1]};
            nr++;
        }
    }
    xcb_record_client_spec_t spec = XCB_RECORD_CS_ALL_CLIENTS;
    st->ctx = xcb_generate_id(st->ctl);
    xcb_generic_error_t *e = xcb_request_check(
        st->ctl, xcb_record_create_context_checked(
                     st->ctl, st->ctx, XCB_RECORD_H_TYPE_FROM_SERVER_TIME | XCB_RECORD_H_TYPE_FROM_CLIENT_TIME,
                     1, (uint32_t)nr, &spec, ranges));
    if (e) {
        snprintf(err, errlen, "RECORD CreateContext failed (X error %u)", e->error_code);
        free(e);
        goto fail;
    }
    /* the data connection only ever waits for this request's replies */
    st->enable_seq = xcb_record_enable_context(st->data, st->ctx).sequence;
    xcb_flush(st->data);
    /* the first reply (start of data) says recording runs: wait for it, with a deadline */
    int64_t deadline = clock_now_us() + 2000000;
    for (;;) {
        void *reply = NULL;
        e = NULL;
        if (xcb_poll_for_reply(st->data, st->enable_seq, &reply, &e)) {
            if (e || !reply) {
                snprintf(err, errlen, "RECORD EnableContext failed%s", e ? " (X error)" : "");
                free(e);
                goto fail;
            }
            uint8_t cat = ((xcb_record_enable_context_reply_t *)reply)->category;
            free(reply);
            if (cat == REC_START_OF_DATA)
                break;
            continue;
        }
        if (xcb_connection_has_error(st->data) || clock_now_us() > deadline) {
            snprintf(err, errlen, "RECORD EnableContext gave no start-of-data reply");
            goto fail;
        }
        struct pollfd pfd = {.fd = xcb_get_file_descriptor(st->data), .events = POLLIN};
        poll(&pfd, 1, 50); /* wait for the socket, no busy loop */
    }
    st->started = true;
    st->o = (struct oracle){.name = "wm", .fd = xcb_get_file_descriptor(st->data), .readable = rec_readable,
                            .observe = rec_observe, .case_begin = rec_case_begin, .case_end = rec_case_end,
                            .state = st};
    return &st->o;
fail:
    if (st->ctl)
        xcb_disconnect(st->ctl);
    if (st->data)
        xcb_disconnect(st->data);
    free(st);
    return NULL;
}

void oracle_record_destroy(struct oracle *o)
{
    if (!o)
        return;
    struct rec_state *st = o->state;
    if (st->started && !xcb_connection_has_error(st->ctl)) {
        xcb_record_disable_context(st->ctl, st->ctx);
        xcb_record_free_context(st->ctl, st->ctx);
        free(xcb_get_input_focus_reply(st->ctl, xcb_get_input_focus(st->ctl), NULL));
    }
    xcb_disconnect(st->data);
    xcb_disconnect(st->ctl);
    for (int i = 0; i < st->natoms; i++)
        free(st->atoms[i].name);
    free(st);
}
