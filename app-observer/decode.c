/* What the application did, decoded from its requests and the events delivered to it, and the
 * state that gives the records their meaning: its toplevels and their protocol properties, its
 * counters and their values (so each SetCounter/ChangeCounter is reported with the value before
 * it, which counter of the property it is, and the request it may answer), its fences. */
#include "app-observer.h"
#include "clock.h"
#include "xhelpers.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/damage.h>
#include <xcb/sync.h>

#define MAX_WINDOWS 256
#define MAX_COUNTERS 256
#define MAX_LIST 64

struct wwin {
    xcb_window_t id;
    bool override;
    xcb_atom_t protocols[MAX_LIST];
    int nprotocols;
    uint32_t counters[2];
    int ncounters;
    uint32_t fences[MAX_LIST];
    int nfences;
    bool has_pending;       /* a sync request not answered yet (counters are signed: no value
                             * can mean "none") */
    int64_t pending;        /* that request's value */
    int64_t last_request;   /* the last sync request received, answered or not, or -1 */
    int64_t second_at_request; /* the second counter's value when the request came */
    uint16_t cw, ch;        /* its size in the last ConfigureNotify it was sent */
    bool painted;           /* the application drew its bottom-right pixel at that size since */
};

struct wcounter {
    uint32_t id;
    int64_t value;
};

static void client_message(struct observer *ob, const xcb_client_message_event_t *e, int sent);

static struct wwin wins[MAX_WINDOWS];
static int nwins;
static struct wcounter ctrs[MAX_COUNTERS];
static int nctrs;
static uint32_t created_fences[MAX_COUNTERS]; /* the fences it created (CreateFence), in order */
static int ncreated_fences;
/* Who caused a DamageNotify: the last request in the stream that can draw into the window.  A
 * drawing request of the application means it drew (its PutImage is not recorded, to spare
 * copying the image, but an application makes other requests before it); a request that makes the
 * server paint a window's background means the server painted: the compositor's ConfigureWindow
 * or MapWindow (resizing or mapping the toplevel), and as much the application's own window
 * management (server_paints): when it resizes, maps, unmaps or destroys its child windows after a
 * ConfigureNotify, or clears an area, the server fills the exposed background, which is not the
 * application's drawing at the new size.  The compositor's other requests (its painting of the
 * screen) are not about the window. */
static bool last_was_app_request;

/* A request of the application after which the damage is the server's painting of a background
 * (ClearArea, with or without exposures: the server fills it with the background). */
static bool server_paints(uint8_t opcode)
{
    switch (opcode) {
    case XCB_CONFIGURE_WINDOW:
    case XCB_MAP_WINDOW:
    case XCB_MAP_SUBWINDOWS:
    case XCB_UNMAP_WINDOW:
    case XCB_UNMAP_SUBWINDOWS:
    case XCB_DESTROY_WINDOW:
    case XCB_DESTROY_SUBWINDOWS:
    case XCB_CIRCULATE_WINDOW:
    case XCB_REPARENT_WINDOW:
    case XCB_CLEAR_AREA:
        return true;
    default:
        return false;
    }
}

void decode_reset(void)
{
    nwins = nctrs = ncreated_fences = 0;
    last_was_app_request = false;
}

static uint16_t get16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static int64_t get64(const uint8_t *p) /* XSync INT64: hi (INT32) then lo (CARD32) */
{
    return xh_sync_value((xcb_sync_int64_t){.hi = (int32_t)get32(p), .lo = get32(p + 4)});
}
static const char *parity(int64_t v) { return (v & 1) ? "odd" : "even"; }

static struct wwin *win_get(xcb_window_t id)
{
    for (int i = 0; i < nwins; i++)
        if (wins[i].id == id)
            return &wins[i];
    return NULL;
}

static struct wcounter *counter_get(uint32_t id)
{
    for (int i = 0; i < nctrs; i++)
        if (ctrs[i].id == id)
            return &ctrs[i];
    return NULL;
}

/* Which counter of a window's _NET_WM_SYNC_REQUEST_COUNTER it is (1, 2), the toplevel first. */
static int counter_index(const struct observer *ob, uint32_t id, struct wwin **owner)
{
    struct wwin *top = win_get(ob->toplevel);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < nwins; i++) {
            struct wwin *w = &wins[i];
            if ((pass == 0) != (w == top))
                continue;
            for (int k = 0; k < w->ncounters; k++)
                if (w->counters[k] == id) {
                    *owner = w;
                    return k + 1;
                }
        }
    *owner = NULL;
    return 0;
}

static void create_window(struct observer *ob, const uint8_t *req, size_t len)
{
    if (len < 32 || get32(req + 8) != ob->root || nwins == MAX_WINDOWS)
        return;
    uint32_t mask = get32(req + 28);
    bool override = false;
    if (mask & XCB_CW_OVERRIDE_REDIRECT) {
        size_t at = 32 + 4 * (size_t)__builtin_popcount(mask & (XCB_CW_OVERRIDE_REDIRECT - 1));
        override = at + 4 <= len && get32(req + at) != 0;
    }
    struct wwin *w = &wins[nwins++];
    memset(w, 0, sizeof *w);
    w->id = get32(req + 4);
    w->override = override;
    w->pending = -1;
    w->last_request = -1;
    /* our own damage object on it: its DamageNotify events come in this stream */
    if (!override)
        xcb_damage_create(ob->ctl, xcb_generate_id(ob->ctl), w->id, XCB_DAMAGE_REPORT_LEVEL_RAW_RECTANGLES);
    xcb_flush(ob->ctl);
    out_record("create-window", "window=%u width=%u height=%u override=%d", w->id, get16(req + 16),
               get16(req + 18), override);
}

/* "a,b,c": atom names or decimal XIDs */
static void list_text(const struct observer *ob, char *buf, size_t n, const uint32_t *v, int count, bool atoms)
{
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < count && o < n; i++)
        o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? "," : "", atoms ? atom_text(ob, v[i]) : "");
    if (!atoms) {
        o = 0;
        for (int i = 0; i < count && o < n; i++)
            o += (size_t)snprintf(buf + o, n - o, "%s%u", i ? "," : "", v[i]);
    }
}

static void store_list(uint32_t *dst, int *ndst, int max, const uint8_t *data, uint32_t count, uint8_t mode)
{
    if (mode == XCB_PROP_MODE_REPLACE)
        *ndst = 0;
    for (uint32_t i = 0; i < count && *ndst < max; i++)
        dst[(*ndst)++] = get32(data + 4 * i);
}

static void change_property(struct observer *ob, const uint8_t *req, size_t len)
{
    if (len < 24)
        return;
    struct wwin *w = win_get(get32(req + 4));
    xcb_atom_t prop = get32(req + 8);
    uint8_t mode = req[1], format = req[16];
    uint32_t count = get32(req + 20);
    if (!w || format != 32 || 24 + (size_t)count * 4 > len)
        return;
    const uint8_t *data = req + 24;
    char text[1024];
    if (prop == ob->atoms[WA_WM_PROTOCOLS]) {
        store_list(w->protocols, &w->nprotocols, MAX_LIST, data, count, mode);
        list_text(ob, text, sizeof text, w->protocols, w->nprotocols, true);
    } else if (prop == ob->atoms[WA_SYNC_REQUEST_COUNTER]) {
        uint32_t tmp[MAX_LIST];
        int n = mode == XCB_PROP_MODE_REPLACE ? 0 : w->ncounters;
        memcpy(tmp, w->counters, sizeof w->counters);
        store_list(tmp, &n, MAX_LIST, data, count, mode);
        w->ncounters = n > 2 ? 2 : n;
        memcpy(w->counters, tmp, sizeof w->counters);
        list_text(ob, text, sizeof text, tmp, n, false);
    } else if (prop == ob->atoms[WA_SYNC_FENCES]) {
        store_list(w->fences, &w->nfences, MAX_LIST, data, count, mode);
        list_text(ob, text, sizeof text, w->fences, w->nfences, false);
    } else {
        return;
    }
    out_record("property", "window=%u atom=%s values=%s count=%u", w->id, atom_text(ob, prop), text, count);
}

static bool lists_sync(const struct observer *ob, const struct wwin *w)
{
    for (int i = 0; i < w->nprotocols; i++)
        if (w->protocols[i] == ob->atoms[WA_SYNC_REQUEST])
            return true;
    return false;
}

/* The state at the application's first MapWindow of a toplevel: what the WM reads at manage. */
static void report_toplevel(struct observer *ob, struct wwin *w)
{
    ob->toplevel = w->id;
    char prot[1024];
    list_text(ob, prot, sizeof prot, w->protocols, w->nprotocols, true);
    struct wcounter *c1 = w->ncounters > 0 ? counter_get(w->counters[0]) : NULL;
    struct wcounter *c2 = w->ncounters > 1 ? counter_get(w->counters[1]) : NULL;
    int64_t v2 = c2 ? c2->value : -1;
    int fences_valid = 0; /* how many XIDs of _NET_WM_SYNC_FENCES name a fence it created before this map */
    for (int i = 0; i < w->nfences; i++)
        for (int k = 0; k < ncreated_fences; k++)
            if (created_fences[k] == w->fences[i]) {
                fences_valid++;
                break;
            }
    out_record("toplevel",
               "window=%u protocols=%s sync=%d counters=%d counter1=%u counter2=%u valid1=%d valid2=%d "
               "value1=%" PRId64 " value2=%" PRId64 " parity2=%s fences=%d fences_valid=%d",
               w->id, prot[0] ? prot : "-", lists_sync(ob, w), w->ncounters, w->ncounters > 0 ? w->counters[0] : 0,
               w->ncounters > 1 ? w->counters[1] : 0, c1 != NULL, c2 != NULL, c1 ? c1->value : -1, v2,
               c2 ? parity(v2) : "none", w->nfences, fences_valid);
}

static void map_window(struct observer *ob, const uint8_t *req, size_t len)
{
    if (len < 8)
        return;
    struct wwin *w = win_get(get32(req + 4));
    if (!w)
        return;
    bool first = !ob->toplevel && !w->override;
    out_record("map-window", "window=%u toplevel=%d", w->id, first || w->id == ob->toplevel);
    if (first)
        report_toplevel(ob, w);
}

static void counter_write(struct observer *ob, const uint8_t *req, size_t len, bool set)
{
    if (len < 16)
        return;
    uint32_t id = get32(req + 4);
    struct wcounter *c = counter_get(id);
    int64_t arg = get64(req + 8);
    int64_t prev = c ? c->value : 0;
    int64_t v = set ? arg : (int64_t)((uint64_t)prev + (uint64_t)arg);
    if (c)
        c->value = v;
    struct wwin *owner;
    int index = counter_index(ob, id, &owner);
    bool requested = owner && owner->has_pending;
    int64_t pending = requested ? owner->pending : -1;
    /* an answer to the pending request, whichever form the compositor reads: the first counter
     * at or above the value (basic form), or the second at an even value at or above it, set
     * directly (from an even value) or ending an update begun at or above it (GTK's answering
     * frame: V + 1, then V + 2).  An update begun below the value that happens to end at it is
     * the client's animation passing by, not an answer; and when the second counter was already
     * at or above the value at the request (a basic-form request of an EWMH 1.5 compositor, whose
     * values are small), only the first counter can answer it. */
    bool answer = requested && v >= pending &&
                  (index == 1 || (index == 2 && !(v & 1) && (!(prev & 1) || prev >= pending) &&
                                  owner->second_at_request < pending));
    if (answer && index == owner->ncounters)
        owner->has_pending = false;
    out_record("set-counter",
               "counter=%u index=%d value=%" PRId64 " prev=%" PRId64 " parity=%s prev_parity=%s requested=%d pending=%" PRId64
               " last_request=%" PRId64 " answer=%d painted=%d width=%u height=%u how=%s window=%u",
               id, index, v, prev, parity(v), parity(prev), requested, pending, owner ? owner->last_request : -1, answer,
               owner && owner->painted,
               owner ? owner->cw : 0, owner ? owner->ch : 0, set ? "set" : "change", owner ? owner->id : 0);
}

static void create_counter(const uint8_t *req, size_t len)
{
    if (len < 16 || nctrs == MAX_COUNTERS)
        return;
    ctrs[nctrs] = (struct wcounter){get32(req + 4), get64(req + 8)};
    out_record("create-counter", "counter=%u value=%" PRId64, ctrs[nctrs].id, ctrs[nctrs].value);
    nctrs++;
}

static void create_fence(const uint8_t *req, size_t len)
{
    if (len < 12 || ncreated_fences == MAX_COUNTERS)
        return;
    created_fences[ncreated_fences++] = get32(req + 8); /* CreateFence: drawable, fence, initially_triggered */
}

static void trigger_fence(struct observer *ob, const uint8_t *req, size_t len)
{
    if (len < 8)
        return;
    uint32_t f = get32(req + 4);
    struct wwin *top = win_get(ob->toplevel);
    int index = -1, n = top ? top->nfences : 0;
    for (int i = 0; i < n; i++)
        if (top->fences[i] == f)
            index = i;
    out_record("trigger-fence", "fence=%u index=%d nfences=%d", f, index, n);
}

static void sync_request(struct observer *ob, const uint8_t *req, size_t len)
{
    switch (req[1]) {
    case XCB_SYNC_CREATE_COUNTER: create_counter(req, len); break;
    case XCB_SYNC_SET_COUNTER: counter_write(ob, req, len, true); break;
    case XCB_SYNC_CHANGE_COUNTER: counter_write(ob, req, len, false); break;
    case XCB_SYNC_CREATE_FENCE: create_fence(req, len); break;
    case XCB_SYNC_TRIGGER_FENCE: trigger_fence(ob, req, len); break;
    default: break;
    }
}

static bool is_wm_base(const struct observer *ob, uint32_t base)
{
    return base && (base == ob->wm_base[0] || base == ob->wm_base[1]);
}

/* The compositor's requests: its ConfigureWindow and MapWindow (for the cause of damage), and its
 * SendEvent of a ClientMessage to a window of the application (its sync requests and drawn
 * messages).  (RECORD does not report events sent with SendEvent as delivered events, so the
 * compositor's request is recorded instead; the event reaches the client while the server
 * processes it, at this point of the stream.) */
static void wm_request(struct observer *ob, const uint8_t *req, size_t len)
{
    if (req[0] == XCB_CONFIGURE_WINDOW || req[0] == XCB_MAP_WINDOW)
        last_was_app_request = false;
    if (len < 44 || req[0] != XCB_SEND_EVENT || (req[12] & 0x7f) != XCB_CLIENT_MESSAGE)
        return;
    client_message(ob, (const xcb_client_message_event_t *)(req + 12), 1);
}

void decode_request(struct observer *ob, uint32_t base, const uint8_t *req, size_t len)
{
    if (is_wm_base(ob, base)) {
        wm_request(ob, req, len);
        return;
    }
    if (base == ob->own_base || len < 4)
        return;
    last_was_app_request = !server_paints(req[0]);
    switch (req[0]) {
    case XCB_CREATE_WINDOW: create_window(ob, req, len); break;
    case XCB_MAP_WINDOW: map_window(ob, req, len); break;
    case XCB_CHANGE_PROPERTY: change_property(ob, req, len); break;
    default:
        if (ob->sync_major && req[0] == ob->sync_major)
            sync_request(ob, req, len);
        break;
    }
}

static void client_message(struct observer *ob, const xcb_client_message_event_t *e, int sent)
{
    struct wwin *w = win_get(e->window);
    const uint32_t *l = e->data.data32;
    if (!w || e->format != 32)
        return;
    if (e->type == ob->atoms[WA_WM_PROTOCOLS] && l[0] == ob->atoms[WA_SYNC_REQUEST]) {
        int64_t v = (int64_t)(((uint64_t)l[3] << 32) | l[2]);
        struct wcounter *second = w->ncounters > 1 ? counter_get(w->counters[1]) : NULL;
        w->pending = v;
        w->has_pending = true;
        w->last_request = v;
        w->second_at_request = second ? second->value : INT64_MIN;
        out_record("sync-request", "window=%u value=%" PRId64 " l4=%u sendevent=%d", w->id, v, l[4], sent);
    } else if (e->type == ob->atoms[WA_WM_PROTOCOLS] && l[0] == ob->atoms[WA_SYNC_DRAWN]) {
        out_record("sync-drawn", "window=%u value=%" PRId64 " sendevent=%d", w->id,
                   (int64_t)(((uint64_t)l[2] << 32) | l[1]), sent);
    } else if (e->type == ob->atoms[WA_NOTE] && sent) {
        /* fake-wm under a --policy (fake-wm/policynotes.c): sent to its own window, about this one */
        out_record("wm-note", "window=%u what=%s value=%" PRId64, w->id,
                   l[0] == 1 ? "shown" : l[0] == 2 ? "drawn-missed" : "other", (int64_t)(((uint64_t)l[2] << 32) | l[1]));
    } else if (e->type == ob->atoms[WA_FRAME_DRAWN] || e->type == ob->atoms[WA_FRAME_TIMINGS]) {
        out_record(e->type == ob->atoms[WA_FRAME_DRAWN] ? "frame-drawn" : "frame-timings",
                   "window=%u value=%" PRId64 " sendevent=%d", w->id, (int64_t)(((uint64_t)l[1] << 32) | l[0]), sent);
    }
}

static void damage_notify(struct observer *ob, const xcb_damage_notify_event_t *e)
{
    struct wwin *w = win_get(e->drawable);
    if (!w)
        return;
    if (last_was_app_request && w->id == ob->toplevel)
        state_app_drew(ob, clock_now_us());
    /* "painted at the new size": the application drew the bottom-right pixel of the size the
     * last ConfigureNotify gave it (set-counter records carry it as painted=) */
    if (last_was_app_request && e->geometry.width == w->cw && e->geometry.height == w->ch &&
        e->area.x + e->area.width >= w->cw && e->area.y + e->area.height >= w->ch)
        w->painted = true;
    out_record("damage", "window=%u x=%d y=%d width=%u height=%u right=%d bottom=%d gw=%u gh=%u cause=%s", e->drawable,
               e->area.x, e->area.y, e->area.width, e->area.height, e->area.x + e->area.width,
               e->area.y + e->area.height, e->geometry.width, e->geometry.height,
               last_was_app_request ? "app" : "server");
}

void decode_event(struct observer *ob, uint32_t base, const uint8_t *ev)
{
    uint8_t type = ev[0] & 0x7f;
    int sent = (ev[0] & 0x80) != 0;
    if (base == ob->own_base) {
        if (type == ob->damage_event)
            damage_notify(ob, (const xcb_damage_notify_event_t *)ev);
        return;
    }
    if (type == XCB_CLIENT_MESSAGE) {
        client_message(ob, (const xcb_client_message_event_t *)ev, sent);
    } else if (type == XCB_CONFIGURE_NOTIFY) {
        const xcb_configure_notify_event_t *e = (const xcb_configure_notify_event_t *)ev;
        struct wwin *w = e->event == e->window ? win_get(e->window) : NULL;
        if (w && (e->width != w->cw || e->height != w->ch)) { /* a move needs no repaint */
            w->cw = e->width;
            w->ch = e->height;
            w->painted = false;
        }
        if (w)
            out_record("configure-notify", "window=%u x=%d y=%d width=%u height=%u sendevent=%d", e->window, e->x,
                       e->y, e->width, e->height, sent);
    } else if (type == XCB_MAP_NOTIFY) {
        const xcb_map_notify_event_t *e = (const xcb_map_notify_event_t *)ev;
        if (e->event == e->window && win_get(e->window))
            out_record("map-notify", "window=%u sendevent=%d", e->window, sent);
    }
}

const char *atom_text(const struct observer *ob, xcb_atom_t a)
{
    static struct { xcb_atom_t a; char name[96]; } cache[256];
    static int n;
    for (int i = 0; i < n; i++)
        if (cache[i].a == a)
            return cache[i].name;
    xcb_get_atom_name_reply_t *r = xcb_get_atom_name_reply(ob->ctl, xcb_get_atom_name(ob->ctl, a), NULL);
    int slot = n < 256 ? n++ : 255;
    cache[slot].a = a;
    snprintf(cache[slot].name, sizeof cache[slot].name, "%.*s", r ? xcb_get_atom_name_name_length(r) : 0,
             r ? xcb_get_atom_name_name(r) : "");
    free(r);
    return cache[slot].name;
}
