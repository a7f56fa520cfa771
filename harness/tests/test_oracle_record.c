/* Unit tests for the pure parts of the request oracle: splitting RECORD data into requests and
 * formatting them as records.  The bytes are built here as a client would send them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/record.h>
#include <xcb/sync.h>
#include <xcb/xproto.h>

#include "../oracle-record.h"
#include "../timeline.h"

#define SYNC_MAJOR 134

/* a little builder: values in little-endian (swapped = false on x86) or big-endian */
struct buf {
    uint8_t b[512];
    size_t n;
    bool be;
};

static void u8(struct buf *w, uint8_t v) { w->b[w->n++] = v; }
static void u16(struct buf *w, uint16_t v)
{
    if (w->be) { u8(w, (uint8_t)(v >> 8)); u8(w, (uint8_t)v); }
    else { u8(w, (uint8_t)v); u8(w, (uint8_t)(v >> 8)); }
}
static void u32(struct buf *w, uint32_t v)
{
    if (w->be) { u16(w, (uint16_t)(v >> 16)); u16(w, (uint16_t)v); }
    else { u16(w, (uint16_t)v); u16(w, (uint16_t)(v >> 16)); }
}
static void native32(struct buf *w, uint32_t v) { memcpy(w->b + w->n, &v, 4); w->n += 4; }
static void i64(struct buf *w, int64_t v) { u32(w, (uint32_t)((uint64_t)v >> 32)); u32(w, (uint32_t)v); }

/* atoms of a pretend server */
static const char *names(void *ctx, uint32_t a)
{
    (void)ctx;
    switch (a) {
    case 240: return "WM_PROTOCOLS";
    case 246: return "_NET_WM_SYNC_REQUEST";
    case 248: return "_NET_WM_SYNC_DRAWN";
    case 300: return "_NET_WM_FRAME_DRAWN";
    case 301: return "_NET_WM_FRAME_TIMINGS";
    case 302: return "WITH SPACE";
    case 303: return "_XWAYLAND_ALLOW_COMMITS";
    case 304: return "WM_NAME";
    }
    return "";
}

static void client_message(struct buf *w, uint32_t dest, uint32_t window, uint32_t type, const uint32_t l[5])
{
    u8(w, XCB_SEND_EVENT); u8(w, 0); u16(w, 11);
    u32(w, dest); u32(w, 0);                    /* destination, event mask 0 */
    u8(w, XCB_CLIENT_MESSAGE); u8(w, 32); u16(w, 0);
    u32(w, window); u32(w, type);
    for (int i = 0; i < 5; i++)
        u32(w, l[i]);
}

static void set_counter(struct buf *w, uint32_t counter, int64_t v)
{
    u8(w, SYNC_MAJOR); u8(w, XCB_SYNC_SET_COUNTER); u16(w, 4);
    u32(w, counter); i64(w, v);
}

static char *fmt(const struct buf *w, bool swapped)
{
    static char out[1024];
    if (rec_format_request(w->b, w->n, swapped, SYNC_MAJOR, names, NULL, out, sizeof out) < 0)
        return NULL;
    return out;
}

static void test_sync_request_message(void **state)
{
    (void)state;
    struct buf w = {0};
    const uint32_t l[5] = {246, 1561568, 102, 1, 0};
    client_message(&w, 14680065, 14680065, 240, l);
    assert_int_equal(w.n, 44);
    assert_string_equal(fmt(&w, false),
                        "send-event destination=14680065 mask=0 propagate=0 event=ClientMessage window=14680065 "
                        "type=240 typename=WM_PROTOCOLS format=32 l0=246 l1=1561568 l2=102 l3=1 l4=0 "
                        "l0name=_NET_WM_SYNC_REQUEST about=sync-request value=4294967398");
    /* a request sent with the wrong message_type is still about a sync request */
    w.n = 0;
    client_message(&w, 5, 5, 246, l);
    assert_non_null(strstr(fmt(&w, false), " typename=_NET_WM_SYNC_REQUEST "));
    assert_non_null(strstr(fmt(&w, false), " about=sync-request"));
}

static void test_drawn_messages(void **state)
{
    (void)state;
    struct buf w = {0};
    const uint32_t sd[5] = {248, 2, 0, 0, 0};
    client_message(&w, 5, 5, 240, sd);
    assert_non_null(strstr(fmt(&w, false), " l0name=_NET_WM_SYNC_DRAWN about=sync-drawn value=2"));

    w.n = 0;
    const uint32_t fd[5] = {1001, 0, 2000000, 1, 0};
    client_message(&w, 5, 5, 300, fd);
    char *s = fmt(&w, false);
    assert_non_null(strstr(s, " typename=_NET_WM_FRAME_DRAWN "));
    assert_non_null(strstr(s, " l0name= about=frame-drawn value=1001 drawn_us=4296967296")); /* l0 is no atom */

    w.n = 0;
    const uint32_t ft[5] = {1001, 0, (uint32_t)-5, 16666, 0};
    client_message(&w, 5, 5, 301, ft);
    assert_non_null(strstr(fmt(&w, false), " value=1001 presentation_offset=-5 refresh_interval=16666 frame_delay=0"));

    w.n = 0;
    const uint32_t sp[5] = {302, 0, 0, 0, 0};
    client_message(&w, 5, 5, 302, sp);
    assert_non_null(strstr(fmt(&w, false), " typename=WITH_SPACE "));
}

static void test_synthetic_configure_notify(void **state)
{
    (void)state;
    struct buf w = {0};
    u8(&w, XCB_SEND_EVENT); u8(&w, 0); u16(&w, 11);
    u32(&w, 77); u32(&w, XCB_EVENT_MASK_STRUCTURE_NOTIFY);
    u8(&w, XCB_CONFIGURE_NOTIFY); u8(&w, 0); u16(&w, 0);
    u32(&w, 77); u32(&w, 77); u32(&w, 0);            /* event, window, above */
    u16(&w, (uint16_t)-10); u16(&w, 20); u16(&w, 320); u16(&w, 240); u16(&w, 0);
    u8(&w, 0); u8(&w, 0);
    while (w.n < 44)
        u8(&w, 0);
    assert_string_equal(fmt(&w, false), "send-event destination=77 mask=131072 propagate=0 event=ConfigureNotify "
                                        "window=77 x=-10 y=20 width=320 height=240 border=0 above=0 override=0");
}

static void test_sync_requests(void **state)
{
    (void)state;
    struct buf w = {0};
    set_counter(&w, 99, -3);
    assert_string_equal(fmt(&w, false), "set-counter counter=99 value=-3");
    w.n = 0;
    set_counter(&w, 99, INT64_MAX);
    assert_string_equal(fmt(&w, false), "set-counter counter=99 value=9223372036854775807");

    w.n = 0;
    u8(&w, SYNC_MAJOR); u8(&w, XCB_SYNC_CHANGE_COUNTER); u16(&w, 4); u32(&w, 99); i64(&w, 2);
    assert_string_equal(fmt(&w, false), "change-counter counter=99 amount=2");

    w.n = 0; /* CreateAlarm with counter, value, test type, events */
    u8(&w, SYNC_MAJOR); u8(&w, XCB_SYNC_CREATE_ALARM); u16(&w, 8);
    u32(&w, 500); u32(&w, XCB_SYNC_CA_COUNTER | XCB_SYNC_CA_VALUE | XCB_SYNC_CA_TEST_TYPE | XCB_SYNC_CA_EVENTS);
    u32(&w, 99); i64(&w, 102); u32(&w, XCB_SYNC_TESTTYPE_POSITIVE_COMPARISON); u32(&w, 1);
    assert_string_equal(fmt(&w, false),
                        "create-alarm alarm=500 counter=99 value=102 test=positive-comparison events=1");

    w.n = 0;
    u8(&w, SYNC_MAJOR); u8(&w, XCB_SYNC_CHANGE_ALARM); u16(&w, 5);
    u32(&w, 500); u32(&w, XCB_SYNC_CA_VALUE); i64(&w, 104);
    assert_string_equal(fmt(&w, false), "change-alarm alarm=500 value=104");

    w.n = 0; /* Await with two conditions */
    u8(&w, SYNC_MAJOR); u8(&w, XCB_SYNC_AWAIT); u16(&w, 1 + 14);
    for (int i = 0; i < 2; i++) {
        u32(&w, 99 + (uint32_t)i); u32(&w, 0); i64(&w, 6); u32(&w, 2); i64(&w, 0);
    }
    assert_string_equal(fmt(&w, false),
                        "await counter=99 value_type=absolute value=6 test=positive-comparison conditions=2 counter1=100");

    w.n = 0;
    u8(&w, SYNC_MAJOR); u8(&w, XCB_SYNC_AWAIT_FENCE); u16(&w, 3); u32(&w, 7); u32(&w, 8);
    assert_string_equal(fmt(&w, false), "await-fence fence=7 fences=2 fence1=8");

    w.n = 0;
    u8(&w, SYNC_MAJOR); u8(&w, XCB_SYNC_TRIGGER_FENCE); u16(&w, 2); u32(&w, 7);
    assert_string_equal(fmt(&w, false), "trigger-fence fence=7");

    w.n = 0;
    u8(&w, SYNC_MAJOR); u8(&w, XCB_SYNC_CREATE_FENCE); u16(&w, 4); u32(&w, 1); u32(&w, 7); u8(&w, 1);
    u8(&w, 0); u8(&w, 0); u8(&w, 0);
    assert_string_equal(fmt(&w, false), "create-fence fence=7 drawable=1 triggered=1");

    w.n = 0; /* QueryCounter is not reported */
    u8(&w, SYNC_MAJOR); u8(&w, XCB_SYNC_QUERY_COUNTER); u16(&w, 2); u32(&w, 99);
    assert_null(fmt(&w, false));
}

static void test_configure_window(void **state)
{
    (void)state;
    struct buf w = {0};
    u8(&w, XCB_CONFIGURE_WINDOW); u8(&w, 0); u16(&w, 3 + 3);
    u32(&w, 42); u16(&w, XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT); u16(&w, 0);
    u32(&w, (uint32_t)-5); u32(&w, 320); u32(&w, 240);
    assert_string_equal(fmt(&w, false), "configure-window window=42 x=-5 width=320 height=240");
    w.n -= 4; /* a value missing */
    assert_null(fmt(&w, false));
}

static void change_property(struct buf *w, uint32_t window, uint32_t prop, uint32_t value)
{
    u8(w, XCB_CHANGE_PROPERTY); u8(w, XCB_PROP_MODE_REPLACE); u16(w, 7);
    u32(w, window); u32(w, prop); u32(w, XCB_ATOM_CARDINAL); u8(w, 32); u8(w, 0); u16(w, 0);
    u32(w, 1); u32(w, value);
}

/* the Xwayland commit freeze is reported; the other properties clients set are not */
static void test_change_property(void **state)
{
    (void)state;
    struct buf w = {0};
    change_property(&w, 77, 303, 0);
    assert_string_equal(fmt(&w, false),
                        "change-property window=77 atomname=_XWAYLAND_ALLOW_COMMITS mode=replace format=32 value=0");
    struct buf b = {.be = true};
    change_property(&b, 77, 303, 1);
    assert_string_equal(fmt(&b, true),
                        "change-property window=77 atomname=_XWAYLAND_ALLOW_COMMITS mode=replace format=32 value=1");
    struct buf o = {0};
    change_property(&o, 77, 304, 5);
    assert_null(fmt(&o, false));
    o.n = 20; /* truncated */
    assert_null(fmt(&o, false));
}

static void test_swapped_client(void **state)
{
    (void)state;
    struct buf w = {.be = true};
    set_counter(&w, 0x01020304, 258);
    assert_string_equal(fmt(&w, true), "set-counter counter=16909060 value=258");
}

static void test_other_and_truncated(void **state)
{
    (void)state;
    struct buf w = {0};
    u8(&w, XCB_MAP_WINDOW); u8(&w, 0); u16(&w, 2); u32(&w, 42);
    assert_null(fmt(&w, false));
    w.n = 0;
    const uint32_t l[5] = {0};
    client_message(&w, 1, 1, 240, l);
    w.n = 40;
    assert_null(fmt(&w, false));
    assert_int_equal(rec_format_request(w.b, 3, false, SYNC_MAJOR, names, NULL, (char[64]){0}, 64), -1);
}

/* ---- splitting ---- */

struct got {
    int n;
    uint32_t times[8];
    char text[8][256];
};

static void collect(void *ctx, uint32_t t, const uint8_t *req, size_t len)
{
    struct got *g = ctx;
    g->times[g->n] = t;
    if (rec_format_request(req, len, false, SYNC_MAJOR, names, NULL, g->text[g->n], sizeof g->text[0]) < 0)
        snprintf(g->text[g->n], sizeof g->text[0], "(opcode %u, %zu bytes)", req[0], len);
    g->n++;
}

static void test_split_with_times(void **state)
{
    (void)state;
    struct buf w = {0};
    native32(&w, 1000);
    set_counter(&w, 1, 5);
    native32(&w, 1001);
    u8(&w, XCB_MAP_WINDOW); u8(&w, 0); u16(&w, 2); u32(&w, 42);
    native32(&w, 1002);
    set_counter(&w, 2, 6);
    struct got g = {0};
    uint8_t hdr = XCB_RECORD_H_TYPE_FROM_SERVER_TIME | XCB_RECORD_H_TYPE_FROM_CLIENT_TIME;
    assert_int_equal(rec_split_requests(w.b, w.n, hdr, false, 7, collect, &g), 3);
    assert_int_equal(g.times[0], 1000);
    assert_int_equal(g.times[2], 1002);
    assert_string_equal(g.text[0], "set-counter counter=1 value=5");
    assert_string_equal(g.text[1], "(opcode 8, 8 bytes)");
    assert_string_equal(g.text[2], "set-counter counter=2 value=6");
}

static void test_split_without_times(void **state)
{
    (void)state;
    struct buf w = {0};
    set_counter(&w, 1, 5);
    set_counter(&w, 2, 6);
    struct got g = {0};
    assert_int_equal(rec_split_requests(w.b, w.n, 0, false, 77, collect, &g), 2);
    assert_int_equal(g.times[1], 77); /* the reply's time when elements carry none */
    /* the same bytes read as if they had time headers: misparsed, reported as malformed or as
     * something else, never as the right requests */
    struct got h = {0};
    int n = rec_split_requests(w.b, w.n, XCB_RECORD_H_TYPE_FROM_CLIENT_TIME, false, 0, collect, &h);
    assert_true(n < 0 || strcmp(h.text[0], "set-counter counter=1 value=5"));
}

static void test_split_with_sequence(void **state)
{
    (void)state;
    struct buf w = {0};
    native32(&w, 1000);
    native32(&w, 55); /* sequence */
    set_counter(&w, 1, 5);
    struct got g = {0};
    uint8_t hdr = XCB_RECORD_H_TYPE_FROM_CLIENT_TIME | XCB_RECORD_H_TYPE_FROM_CLIENT_SEQUENCE;
    assert_int_equal(rec_split_requests(w.b, w.n, hdr, false, 0, collect, &g), 1);
    assert_string_equal(g.text[0], "set-counter counter=1 value=5");
}

static void test_split_big_request(void **state)
{
    (void)state;
    struct buf w = {0};
    u8(&w, SYNC_MAJOR); u8(&w, XCB_SYNC_SET_COUNTER); u16(&w, 0); /* BIG-REQUESTS form */
    u32(&w, 5);                                                     /* length in words */
    u32(&w, 9); i64(&w, 12);
    struct got g = {0};
    assert_int_equal(rec_split_requests(w.b, w.n, 0, false, 0, collect, &g), 1);
    assert_string_equal(g.text[0], "set-counter counter=9 value=12");
}

static void test_split_malformed(void **state)
{
    (void)state;
    struct buf w = {0};
    set_counter(&w, 1, 5);
    u8(&w, SYNC_MAJOR); u8(&w, XCB_SYNC_SET_COUNTER); u16(&w, 4); u32(&w, 2); /* 8 of 16 bytes */
    struct got g = {0};
    assert_int_equal(rec_split_requests(w.b, w.n, 0, false, 0, collect, &g), -1);
    assert_int_equal(g.n, 1); /* the complete one before still counts */
    w.n = 0;
    u8(&w, 1); u8(&w, 0); u16(&w, 0); u32(&w, 1); /* big length 1 word: shorter than its header */
    g.n = 0;
    assert_int_equal(rec_split_requests(w.b, w.n, 0, false, 0, collect, &g), -1);
    assert_int_equal(g.n, 0);
    assert_int_equal(rec_split_requests(w.b, 2, 0, false, 0, collect, &g), -1);
    assert_int_equal(rec_split_requests(w.b, 0, 0, false, 0, collect, &g), 0);
}

static void test_line_is_a_record(void **state)
{
    (void)state;
    struct buf w = {0};
    const uint32_t l[5] = {248, 2, 0, 0, 0};
    client_message(&w, 5, 5, 240, l);
    struct record *r = record_make("wm", 99, "%s by=wm base=123 server_time=5", fmt(&w, false));
    assert_non_null(r);
    assert_string_equal(r->kind, "send-event");
    assert_string_equal(record_get(r, "l0name"), "_NET_WM_SYNC_DRAWN");
    assert_string_equal(record_get(r, "value"), "2");
    assert_string_equal(record_get(r, "by"), "wm");
    record_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sync_request_message), cmocka_unit_test(test_drawn_messages),
        cmocka_unit_test(test_synthetic_configure_notify), cmocka_unit_test(test_sync_requests),
        cmocka_unit_test(test_configure_window),     cmocka_unit_test(test_change_property),
        cmocka_unit_test(test_swapped_client),
        cmocka_unit_test(test_other_and_truncated),  cmocka_unit_test(test_split_with_times),
        cmocka_unit_test(test_split_without_times),  cmocka_unit_test(test_split_with_sequence),
        cmocka_unit_test(test_split_big_request),    cmocka_unit_test(test_split_malformed),
        cmocka_unit_test(test_line_is_a_record),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
