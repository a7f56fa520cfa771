/* libFuzzer target: app-observer's decoder (app-observer/decode.c) of what RECORD brings about the
 * application under test: its requests, the compositor's, the events delivered to it and the
 * DamageNotify events of the observer's own connection.  The X connection is not there: the few
 * xcb calls the decoder makes (its damage objects, atom names) are stubs here, and its records
 * are formatted into a buffer instead of stdout.
 * Input: elements, each byte 0 = who (bits 0-1: 0 the application's request, 1 the compositor's
 * request, 2 an event delivered to the application, 3 a DamageNotify of the observer's
 * connection), bytes 1-2 = the length (little endian), then that many bytes (an event: 32). */
#include "../app-observer/app-observer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/damage.h>
#include <xcb/xcb.h>

/* ---- stubs of what decode.c calls outside itself ---- */
void out_record(const char *kind, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap); /* formats every field, as the real one does */
    va_end(ap);
    (void)kind;
}

void state_app_drew(struct observer *ob, int64_t t_us)
{
    ob->last_app_damage_us = t_us;
}

uint32_t xcb_generate_id(xcb_connection_t *c)
{
    (void)c;
    return 0x00600001;
}

int xcb_flush(xcb_connection_t *c)
{
    (void)c;
    return 1;
}

xcb_void_cookie_t xcb_damage_create(xcb_connection_t *c, xcb_damage_damage_t damage, xcb_drawable_t drawable,
                                    uint8_t level)
{
    (void)c, (void)damage, (void)drawable, (void)level;
    return (xcb_void_cookie_t){0};
}

xcb_get_atom_name_cookie_t xcb_get_atom_name(xcb_connection_t *c, xcb_atom_t atom)
{
    (void)c;
    return (xcb_get_atom_name_cookie_t){atom};
}

xcb_get_atom_name_reply_t *xcb_get_atom_name_reply(xcb_connection_t *c, xcb_get_atom_name_cookie_t cookie,
                                                   xcb_generic_error_t **e)
{
    (void)c, (void)e;
    /* a reply with the name "A<number>" after it, as the server lays it out */
    char name[16];
    int n = snprintf(name, sizeof name, "A%u", cookie.sequence);
    xcb_get_atom_name_reply_t *r = calloc(1, sizeof *r + (size_t)n);
    r->name_len = (uint16_t)n;
    memcpy(r + 1, name, (size_t)n);
    return r;
}

char *xcb_get_atom_name_name(const xcb_get_atom_name_reply_t *r)
{
    return (char *)(r + 1);
}

int xcb_get_atom_name_name_length(const xcb_get_atom_name_reply_t *r)
{
    return r->name_len;
}

/* ---- the target ---- */
#define SYNC_MAJOR 130
#define DAMAGE_EVENT 91
#define WM_BASE 0x00400000u
#define OWN_BASE 0x00600000u
#define APP_BASE 0x00800000u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct observer ob = {.name = "fuzz", .root = 0x1ff, .id_mask = 0x1fffff, .own_base = OWN_BASE,
                          .wm_base = {WM_BASE, 0}, .sync_major = SYNC_MAJOR, .damage_event = DAMAGE_EVENT};
    for (int i = 0; i < WA_COUNT; i++)
        ob.atoms[i] = (xcb_atom_t)(300 + i);
    decode_reset();
    size_t at = 0;
    while (at + 3 <= size) {
        int who = data[at] & 3;
        size_t len = (size_t)data[at + 1] | (size_t)data[at + 2] << 8;
        at += 3;
        if (len > size - at)
            len = size - at;
        /* an exact-size copy, so that ASan sees any read past it (an event is always 32 bytes) */
        size_t n = who >= 2 ? 32 : len;
        uint8_t *el = calloc(1, n ? n : 1);
        memcpy(el, data + at, len < n ? len : n);
        at += len;
        if (who == 0)
            decode_request(&ob, APP_BASE, el, n);
        else if (who == 1)
            decode_request(&ob, WM_BASE, el, n);
        else if (who == 2)
            decode_event(&ob, APP_BASE, el);
        else {
            el[0] = DAMAGE_EVENT;
            decode_event(&ob, OWN_BASE, el);
        }
        free(el);
    }
    return 0;
}
