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
    uint32_t old_wm_base, old_cm_base; /* the instance a `replace-wm` replaced: still the compositor's */
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
    if (d->base && (d->base == st->wm_base || d->base == st->cm_base || d->base == st->old_wm_base ||
                    d->base == st->old_cm_base))
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
    if (!strcmp(r->source, "harness") && !strcmp(r->kind, "wm-replaced")) {
        /* a new instance of the compositor took over: its requests are the compositor's too (also
         * those already made, not yet read: it adopted the windows before it was ready) */
        st->old_wm_base = st->wm_base, st->old_cm_base = st->cm_base;
        st->wm_base = owner_base(st, "WM_S0");
        st->cm_base = owner_base(st, "_NET_WM_CM_S0");
        take_replies(st);
        return;
    }
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
    st->old_wm_base = st->old_cm_base = 0;
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
        xu_disconnect(c);
        return NULL;
    }
    return c;
}

/* The ranges recorded: SendEvent, ConfigureWindow and ChangeProperty, and the SYNC requests that set
 * or wait. */
static int record_ranges(const struct rec_state *st, xcb_record_range_t *ranges)
{
    int nr = 0;
    memset(ranges, 0, 7 * sizeof *ranges);
    ranges[nr++].core_requests = (xcb_record_range_8_t){XCB_SEND_EVENT, XCB_SEND_EVENT};
    ranges[nr++].core_requests = (xcb_record_range_8_t){XCB_CONFIGURE_WINDOW, XCB_CONFIGURE_WINDOW};
    /* for _XWAYLAND_ALLOW_COMMITS alone (record-decode.c drops every other property) */
    ranges[nr++].core_requests = (xcb_record_range_8_t){XCB_CHANGE_PROPERTY, XCB_CHANGE_PROPERTY};
    if (!st->sync_major)
        return nr;
    static const uint16_t minors[][2] = {{XCB_SYNC_SET_COUNTER, XCB_SYNC_CHANGE_COUNTER},
                                         {XCB_SYNC_AWAIT, XCB_SYNC_CHANGE_ALARM},
                                         {XCB_SYNC_CREATE_FENCE, XCB_SYNC_RESET_FENCE},
                                         {XCB_SYNC_AWAIT_FENCE, XCB_SYNC_AWAIT_FENCE}};
    for (int i = 0; i < 4; i++) {
        ranges[nr].ext_requests.major = (xcb_record_range_8_t){st->sync_major, st->sync_major};
        ranges[nr].ext_requests.minor = (xcb_record_range_16_t){minors[i][0], minors[i][1]};
        nr++;
    }
    return nr;
}

/* The extensions it needs: RECORD (required), SYNC (its requests are recorded when present). */
static int check_extensions(struct rec_state *st, char *err, size_t errlen)
{
    const xcb_query_extension_reply_t *rec = xcb_get_extension_data(st->ctl, &xcb_record_id);
    const xcb_query_extension_reply_t *sync = xcb_get_extension_data(st->ctl, &xcb_sync_id);
    if (!rec || !rec->present) {
        snprintf(err, errlen, "the X server has no RECORD extension");
        return -1;
    }
    if (sync && sync->present)
        st->sync_major = sync->major_opcode;
    xcb_record_query_version_reply_t *v =
        xcb_record_query_version_reply(st->ctl, xcb_record_query_version(st->ctl, 1, 13), NULL);
    if (!v) {
        snprintf(err, errlen, "RECORD QueryVersion failed");
        return -1;
    }
    free(v);
    st->id_mask = xcb_get_setup(st->ctl)->resource_id_mask;
    return 0;
}

static int create_context(struct rec_state *st, char *err, size_t errlen)
{
    xcb_record_range_t ranges[7];
    int nr = record_ranges(st, ranges);
    xcb_record_client_spec_t spec = XCB_RECORD_CS_ALL_CLIENTS;
    st->ctx = xcb_generate_id(st->ctl);
    xcb_generic_error_t *e = xcb_request_check(
        st->ctl, xcb_record_create_context_checked(
                     st->ctl, st->ctx, XCB_RECORD_H_TYPE_FROM_SERVER_TIME | XCB_RECORD_H_TYPE_FROM_CLIENT_TIME,
                     1, (uint32_t)nr, &spec, ranges));
    if (e) {
        snprintf(err, errlen, "RECORD CreateContext failed (X error %u)", e->error_code);
        free(e);
        return -1;
    }
    return 0;
}

/* Enables the context on the data connection, which only ever waits for this request's replies;
 * the first reply (start of data) says recording runs: waited for, with a deadline. */
static int enable_context(struct rec_state *st, char *err, size_t errlen)
{
    st->enable_seq = xcb_record_enable_context(st->data, st->ctx).sequence;
    xcb_flush(st->data);
    int64_t deadline = clock_now_us() + 2000000;
    for (;;) {
        void *reply = NULL;
        xcb_generic_error_t *e = NULL;
        if (xcb_poll_for_reply(st->data, st->enable_seq, &reply, &e)) {
            if (e || !reply) {
                snprintf(err, errlen, "RECORD EnableContext failed%s", e ? " (X error)" : "");
                free(e);
                return -1;
            }
            uint8_t cat = ((xcb_record_enable_context_reply_t *)reply)->category;
            free(reply);
            if (cat == REC_START_OF_DATA)
                return 0;
            continue;
        }
        if (xcb_connection_has_error(st->data) || clock_now_us() > deadline) {
            snprintf(err, errlen, "RECORD EnableContext gave no start-of-data reply");
            return -1;
        }
        struct pollfd pfd = {.fd = xcb_get_file_descriptor(st->data), .events = POLLIN};
        poll(&pfd, 1, 50); /* wait for the socket, no busy loop */
    }
}

struct oracle *oracle_record_create(struct xserver *x, char *err, size_t errlen)
{
    struct rec_state *st = calloc(1, sizeof *st);
    st->x = x;
    st->ctl = connect_to(x);
    st->data = connect_to(x);
    if (!st->ctl || !st->data)
        snprintf(err, errlen, "cannot open the request oracle's connections to %s", x->display_name);
    else if (check_extensions(st, err, errlen) == 0 && create_context(st, err, errlen) == 0 &&
             enable_context(st, err, errlen) == 0) {
        st->started = true;
        st->o = (struct oracle){.name = "wm", .fd = xcb_get_file_descriptor(st->data), .readable = rec_readable,
                                .observe = rec_observe, .case_begin = rec_case_begin, .case_end = rec_case_end,
                                .destroy = oracle_record_destroy, .state = st};
        return &st->o;
    }
    if (st->ctl)
        xu_disconnect(st->ctl);
    if (st->data)
        xu_disconnect(st->data);
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
    xu_disconnect(st->data);
    xu_disconnect(st->ctl);
    for (int i = 0; i < st->natoms; i++)
        free(st->atoms[i].name);
    free(st);
}
