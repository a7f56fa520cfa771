/* RECORD of the application: its requests and the events the server delivers to it, plus the
 * DamageNotify events of our own damage objects on its windows, in one stream in the order the
 * server processed them.  That order is the point: "painted at the new size before the answer"
 * is a DamageNotify between the application's ConfigureNotify and its SetCounter, which no two
 * separate connections could order. */
#include "app-observer.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/record.h>
#include <xcb/xcbext.h>
#include <xcb/damage.h>
#include <xcb/sync.h>

enum { CAT_FROM_SERVER = 0, CAT_FROM_CLIENT = 1, CAT_START_OF_DATA = 4 };

static uint16_t get16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }

static xcb_window_t selection_owner(const struct observer *ob, const char *name)
{
    xcb_intern_atom_reply_t *a =
        xcb_intern_atom_reply(ob->rc, xcb_intern_atom(ob->rc, 1, (uint16_t)strlen(name), name), NULL);
    xcb_window_t w = XCB_NONE;
    if (a && a->atom) {
        xcb_get_selection_owner_reply_t *o =
            xcb_get_selection_owner_reply(ob->rc, xcb_get_selection_owner(ob->rc, a->atom), NULL);
        w = o ? o->owner : XCB_NONE;
        free(o);
    }
    free(a);
    return w;
}

int recorder_create(struct observer *ob)
{
    const xcb_query_extension_reply_t *rec = xcb_get_extension_data(ob->rc, &xcb_record_id);
    if (!rec || !rec->present) {
        fprintf(stderr, "app-observer: the X server has no RECORD extension\n");
        return -1;
    }
    free(xcb_record_query_version_reply(ob->rc, xcb_record_query_version(ob->rc, 1, 13), NULL));
    xcb_record_range_t r[3];
    memset(r, 0, sizeof r);
    /* every request but PutImage (72: its image data would be copied to us, and its damage
     * follows an earlier request of the application anyway), the events an application sees
     * about its windows (Expose 12 .. ClientMessage 33) and DamageNotify */
    r[0].core_requests = (xcb_record_range_8_t){1, 71};
    r[0].delivered_events = (xcb_record_range_8_t){XCB_EXPOSE, XCB_CLIENT_MESSAGE};
    r[1].core_requests = (xcb_record_range_8_t){73, 127};
    r[1].delivered_events = (xcb_record_range_8_t){ob->damage_event, ob->damage_event};
    r[2].ext_requests.major = (xcb_record_range_8_t){128, 255};
    r[2].ext_requests.minor = (xcb_record_range_16_t){0, 65535};
    /* the application (a future client) and the compositor's connections (their SendEvents) */
    xcb_record_client_spec_t spec[3] = {XCB_RECORD_CS_FUTURE_CLIENTS};
    uint32_t nspec = 1;
    static const char *const owners[2] = {"WM_S0", "_NET_WM_CM_S0"};
    for (int i = 0; i < 2; i++) {
        xcb_window_t w = selection_owner(ob, owners[i]);
        ob->wm_base[i] = w ? (w & ~ob->id_mask) : 0;
        if (w && (i == 0 || ob->wm_base[1] != ob->wm_base[0]))
            spec[nspec++] = w;
    }
    ob->record_ctx = xcb_generate_id(ob->rc);
    xcb_generic_error_t *e =
        xcb_request_check(ob->rc, xcb_record_create_context_checked(ob->rc, ob->record_ctx, 0, nspec, 3, spec, r));
    if (e) {
        fprintf(stderr, "app-observer: RECORD CreateContext failed (X error %u)\n", e->error_code);
        free(e);
        return -1;
    }
    return 0;
}

int recorder_enable(struct observer *ob)
{
    ob->enable_seq = xcb_record_enable_context(ob->data, ob->record_ctx).sequence;
    xcb_flush(ob->data);
    for (;;) { /* start of data: recording runs */
        xcb_generic_error_t *err = NULL;
        xcb_record_enable_context_reply_t *rep =
            xcb_record_enable_context_reply(ob->data, (xcb_record_enable_context_cookie_t){ob->enable_seq}, &err); /* the first reply comes at once */
        if (!rep) {
            fprintf(stderr, "app-observer: RECORD EnableContext failed\n");
            free(err);
            return -1;
        }
        uint8_t cat = rep->category;
        free(rep);
        if (cat == CAT_START_OF_DATA)
            return 0;
    }
}

static void split_requests(struct observer *ob, uint32_t base, const uint8_t *d, size_t len)
{
    size_t off = 0;
    while (off + 4 <= len) {
        size_t total = (size_t)get16(d + off + 2) * 4;
        if (total == 0) { /* BIG-REQUESTS */
            if (off + 8 > len)
                return;
            total = (size_t)get32(d + off + 4) * 4;
            if (total < 8 || total > len - off)
                return;
            /* drop the extended length word: decode sees a normal layout */
            uint8_t *copy = malloc(total - 4);
            memcpy(copy, d + off, 4);
            memcpy(copy + 4, d + off + 8, total - 8);
            decode_request(ob, base, copy, total - 4);
            free(copy);
            off += total;
            continue;
        }
        if (total > len - off)
            return;
        decode_request(ob, base, d + off, total);
        off += total;
    }
}

static void take_one(struct observer *ob, xcb_record_enable_context_reply_t *r)
{
    const uint8_t *d = xcb_record_enable_context_data(r);
    size_t len = (size_t)xcb_record_enable_context_data_length(r);
    if (r->client_swapped) {
        logw(ob, "a client of the other byte order: its elements are not decoded");
        return;
    }
    if (r->category == CAT_FROM_CLIENT)
        split_requests(ob, r->xid_base, d, len);
    else if (r->category == CAT_FROM_SERVER)
        for (size_t off = 0; off + 32 <= len; off += 32)
            decode_event(ob, r->xid_base, d + off);
}

void recorder_take(struct observer *ob)
{
    for (;;) {
        void *reply = NULL;
        xcb_generic_error_t *e = NULL;
        if (!xcb_poll_for_reply(ob->data, ob->enable_seq, &reply, &e) || e || !reply) {
            free(e);
            return;
        }
        take_one(ob, reply);
        free(reply);
    }
}
