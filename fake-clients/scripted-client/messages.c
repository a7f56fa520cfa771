/* ClientMessages into records.  The WM's messages are SendEvents to our window with event mask
 * 0: only this client can see them, so it reports every one with all its raw fields, and the
 * harness judges them.  The decoding follows PROTOCOL.md exactly:
 *   WM_PROTOCOLS, l0 = _NET_WM_SYNC_REQUEST  -> sync-request (value l2 + l3<<32)
 *   WM_PROTOCOLS, l0 = _NET_WM_SYNC_DRAWN    -> sync-drawn   (value l1 + l2<<32)
 *   type _NET_WM_FRAME_DRAWN                 -> frame-drawn  (value l0 + l1<<32, drawn_us l2 + l3<<32)
 *   type _NET_WM_FRAME_TIMINGS               -> frame-timings
 *   anything else (also type _NET_WM_SYNC_REQUEST itself, a broken WM) -> client-message */
#include <stdio.h>

#include "scripted-client.h"

static int64_t join64(uint32_t lo, uint32_t hi)
{
    return (int64_t)(((uint64_t)hi << 32) | (uint64_t)lo);
}

/* The fields every ClientMessage record starts with, into buf. */
static void common_fields(struct client *cl, const xcb_client_message_event_t *ev, char *buf,
                          size_t len)
{
    const uint32_t *l = ev->data.data32;
    snprintf(buf, len, "window=%u type=%u typename=%s format=%u l0=%u l1=%u l2=%u l3=%u l4=%u",
             ev->window, ev->type, atom_name(cl, ev->type), ev->format, l[0], l[1], l[2], l[3],
             l[4]);
}

static int sendevent(const xcb_client_message_event_t *ev)
{
    return (ev->response_type & 0x80) ? 1 : 0;
}

static void on_sync_request(struct client *cl, const xcb_client_message_event_t *ev,
                            const char *fields)
{
    const uint32_t *l = ev->data.data32;
    int64_t value = join64(l[2], l[3]);
    record("sync-request", "%s l0name=%s value=%lld sendevent=%d", fields, atom_name(cl, l[0]),
           (long long)value, sendevent(ev));
    cl->nrequests++;
    answer_on_request(cl, value);
}

static void on_sync_drawn(struct client *cl, const xcb_client_message_event_t *ev,
                          const char *fields)
{
    const uint32_t *l = ev->data.data32;
    record("sync-drawn", "%s l0name=%s value=%lld sendevent=%d", fields, atom_name(cl, l[0]),
           (long long)join64(l[1], l[2]), sendevent(ev));
}

static void on_frame_drawn(const xcb_client_message_event_t *ev, const char *fields)
{
    const uint32_t *l = ev->data.data32;
    record("frame-drawn", "%s value=%lld drawn_us=%lld sendevent=%d", fields,
           (long long)join64(l[0], l[1]), (long long)join64(l[2], l[3]), sendevent(ev));
}

static void on_frame_timings(const xcb_client_message_event_t *ev, const char *fields)
{
    const uint32_t *l = ev->data.data32;
    record("frame-timings",
           "%s value=%lld presentation_offset=%d refresh_interval=%u frame_delay=%u sendevent=%d",
           fields, (long long)join64(l[0], l[1]), (int32_t)l[2], l[3], l[4], sendevent(ev));
}

static void on_other(struct client *cl, const xcb_client_message_event_t *ev, const char *fields)
{
    record("client-message", "%s l0name=%s sendevent=%d", fields,
           atom_name(cl, ev->data.data32[0]), sendevent(ev));
}

void messages_on_client_message(struct client *cl, const xcb_client_message_event_t *ev)
{
    const struct atoms *a = &cl->atoms;
    char fields[1024];
    common_fields(cl, ev, fields, sizeof fields);
    uint32_t l0 = ev->data.data32[0];

    /* A request sent with message_type _NET_WM_SYNC_REQUEST instead of WM_PROTOCOLS is still
     * taken as one (its fields show the type): request-layout reports the wrong type, and the
     * cases that only need a request go on, so one wrong field is one finding. */
    if ((ev->type == a->wm_protocols && l0 == a->net_wm_sync_request) || ev->type == a->net_wm_sync_request)
        on_sync_request(cl, ev, fields);
    else if (ev->type == a->wm_protocols && l0 == a->net_wm_sync_drawn)
        on_sync_drawn(cl, ev, fields);
    else if (ev->type == a->net_wm_frame_drawn)
        on_frame_drawn(ev, fields);
    else if (ev->type == a->net_wm_frame_timings)
        on_frame_timings(ev, fields);
    else
        on_other(cl, ev, fields);
}
