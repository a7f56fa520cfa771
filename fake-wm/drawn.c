/* Drawn notifications: _NET_WM_SYNC_DRAWN (draft-2011) or _NET_WM_FRAME_DRAWN followed by
 * _NET_WM_FRAME_TIMINGS (de-facto), sent by the compositor after the server has processed the
 * paint that first shows a completed update, and once after the first paint of a newly mapped
 * extended-form window.  Only windows using the extended form get them. */
#include "drawn.h"

#include "compint.h"
#include "faults.h"
#include "features.h"
#include "log.h"
#include "outputs.h"
#include "policies.h"
#include "policynotes.h"
#include "state.h"

#include "clock.h"

#include <stdlib.h>
#include <string.h>

struct shown {
    xcb_window_t win;
    int64_t value;
    int output;                 /* the output whose paint showed it */
    xcb_timestamp_t replayed;   /* fault drawn-per-output-count: the earlier paint's time (0: this paint's) */
    int hold_ms;                /* fault compress-to-first: the message held this long after the paint */
};
#define MAX_SHOWN 4096
static struct shown shown[MAX_SHOWN];
static int nshown;

bool drawn_enabled_for(const struct win *w)
{
    return drawn_supported() && w->form == FORM_EXTENDED && !FAULT(ADVERTISED_NOT_SENT);
}

static void push_pending(struct win *w, int64_t v)
{
    if (w->npending > 0 && w->pending[w->npending - 1] == v)
        return;
    if (w->npending == MAX_PENDING_DRAWN) {
        memmove(&w->pending[0], &w->pending[1], (MAX_PENDING_DRAWN - 1) * sizeof w->pending[0]);
        w->npending--;
    }
    w->pending[w->npending++] = v;
}

static void send_client_message(xcb_window_t win, xcb_atom_t type, const uint32_t l[5])
{
    xcb_client_message_event_t m;
    memset(&m, 0, sizeof m);
    m.response_type = XCB_CLIENT_MESSAGE;
    m.format = 32;
    m.window = win;
    m.type = type;
    memcpy(m.data.data32, l, 5 * sizeof l[0]);
    xcb_send_event(X.pc, 0, win, XCB_EVENT_MASK_NO_EVENT, (const char *)&m);
}

static void send_drawn(xcb_window_t win, int64_t value, xcb_timestamp_t server_time, int output, const char *when)
{
    int64_t v = FAULT(DRAWN_WRONG_VALUE) ? value + 2 : value;
    uint32_t lo = (uint32_t)((uint64_t)v & 0xffffffffu), hi = (uint32_t)((uint64_t)v >> 32);
    int copies = FAULT(DRAWN_DUPLICATE) ? 2 : 1;
    if (opt.profile == PROFILE_DRAFT2011) {
        uint32_t l[5] = {atom(A_NET_WM_SYNC_DRAWN), lo, hi, FAULT(DRAWN_TAIL_NONZERO) ? 1u : 0u, 0};
        for (int i = 0; i < copies; i++)
            send_client_message(win, atom(A_WM_PROTOCOLS), l);
        logmsg("window %u: sent _NET_WM_SYNC_DRAWN value=%lld%s (%s)", win, (long long)v,
               copies > 1 ? " twice" : "", when);
        return;
    }
    uint64_t t = FAULT(DRAWN_MILLISECONDS) ? (uint64_t)server_time : (uint64_t)server_time * 1000u;
    uint32_t l[5] = {lo, hi, (uint32_t)(t & 0xffffffffu), (uint32_t)(t >> 32), FAULT(FRAME_DRAWN_TAIL_NONZERO) ? 1u : 0u};
    for (int i = 0; i < copies; i++)
        send_client_message(win, atom(A_NET_WM_FRAME_DRAWN), l);
    logmsg("window %u: sent _NET_WM_FRAME_DRAWN value=%lld drawn=%llu%s (%s)", win, (long long)v,
           (unsigned long long)t, copies > 1 ? " twice" : "", when);
    if (FAULT(NO_FRAME_TIMINGS) || !timings_supported())
        return;
    int64_t tv = FAULT(TIMINGS_WRONG_VALUE) ? value + 2 : value;
    uint32_t lt[5] = {(uint32_t)((uint64_t)tv & 0xffffffffu), (uint32_t)((uint64_t)tv >> 32), 0,
                      (uint32_t)outputs_get(output)->interval_us, 0};
    send_client_message(win, atom(A_NET_WM_FRAME_TIMINGS), lt);
    logmsg("window %u: sent _NET_WM_FRAME_TIMINGS value=%lld refresh_interval=%u", win, (long long)tv, lt[3]);
}

void drawn_before_map(struct win *w)
{
    w->first_drawn_early = false;
    if (!FAULT(FIRST_DRAWN_BEFORE_MAP) || !drawn_enabled_for(w) || in_update(w))
        return;
    w->first_drawn_early = true;
    send_drawn(w->id, w->fupd.value, X.last_time, 0, "at the MapRequest, before mapping the window: fault first-drawn-before-map");
    /* the message goes on the compositor's connection and the map on the WM's: without this round
     * trip the server may take the map first (it did under stress-ng --cpu 2), and the client sees
     * its MapNotify before the message the fault means to send before it */
    xcb_flush(X.pc);
    free(xcb_get_input_focus_reply(X.pc, xcb_get_input_focus(X.pc), NULL));
}

void drawn_window_mapped(struct win *w, int64_t value, bool odd)
{
    w->npending = 0;
    w->drawn_output_known = false;
    memset(w->output_reported, 0, sizeof w->output_reported);
    w->first_drawn_needed = drawn_enabled_for(w) && !w->first_drawn_early;
    w->first_drawn_early = false;
    if (!w->first_drawn_needed)
        return;
    if (odd)
        return; /* the first message is the one for the update that ends the map */
    if (FAULT(NO_FIRST_DRAWN)) {
        logmsg("window %u: no drawn message for the first paint (fault no-first-drawn)", w->id);
        return;
    }
    if (FAULT(FIRST_DRAWN_AT_MAP)) {
        w->first_drawn_needed = false;
        send_drawn(w->id, value, X.last_time, 0, "at the map, before compositing the window: fault first-drawn-at-map");
        xcb_flush(X.pc);
        /* and the window is first composited 50 ms later, so the message is early beyond doubt
         * (at the next refresh it could reach the client as the screen changes) */
        w->first_show_after = clock_now_us() + 50000;
        return;
    }
    push_pending(w, value);
}

/* policy drawn-missed-once: is this the update whose message never comes? */
static bool missed_by_policy(struct win *w)
{
    if (!POLICY(DRAWN_MISSED_ONCE) || w->drawn_missed || !w->first_shown_at || w->first_drawn_needed ||
        clock_now_us() - w->first_shown_at < (int64_t)DRAWN_MISSED_AFTER_MS * 1000)
        return false;
    w->drawn_missed = true;
    return true;
}

void drawn_update_completed(struct win *w, int64_t value)
{
    if (!drawn_enabled_for(w) || !w->mapped)
        return;
    if (missed_by_policy(w)) {
        note_drawn_missed(w, value);
        return;
    }
    if (FAULT(NO_DRAWN) && !w->first_drawn_needed) {
        logv("window %u: no drawn message for update %lld (fault no-drawn)", w->id, (long long)value);
        return;
    }
    if (FAULT(DRAWN_BEFORE_PAINT)) {
        w->first_drawn_needed = false;
        send_drawn(w->id, value, X.last_time, outputs_of(w), "when the counter went even, before the repaint: fault drawn-before-paint");
        return;
    }
    push_pending(w, value);
}

/* Fault drawn-per-output-count: w is painted on `output`; when it comes back there from another
 * output, the frame that output last reported of it is reported again, before anything newer. */
static void replay_on_return(struct win *w, int output)
{
    bool moved = w->drawn_output_known && w->drawn_output != output;
    int from = w->drawn_output;
    w->drawn_output_known = true;
    w->drawn_output = output;
    if (!FAULT(DRAWN_PER_OUTPUT_COUNT) || !moved || !w->output_reported[output] || nshown == MAX_SHOWN)
        return;
    shown[nshown++] = (struct shown){.win = w->id, .value = w->output_value[output], .output = output,
                                     .replayed = w->output_time[output]};
    logmsg("window %u: back on output %d from output %d: its frame %lld of that output reported again (fault "
           "drawn-per-output-count)", w->id, output, from, (long long)w->output_value[output]);
}

static bool held_for(xcb_window_t win);

/* Fault compress-to-first: the first update a paint shows opens a sequence; its message is held
 * COMPRESS_HOLD_MS after the paint, and every update shown meanwhile is compressed into it, so the
 * message names the sequence's first update, not its last.  Told by time, not by what one repaint
 * shows: beside stress-ng --cpu 2 the three back-to-back updates of drawn/compress-last fell into
 * three repaints, and a fault that compressed per repaint reported all three (uncaught).  Cases that
 * wait for each drawn message before the next update only see it 150 ms late. */
#define COMPRESS_HOLD_MS 150
static void compress_to_first(struct win *w, int output, bool first_paint)
{
    int from = 0;
    if (first_paint && w->npending > 0 && nshown < MAX_SHOWN) /* the map's own message: no update */
        shown[nshown++] = (struct shown){.win = w->id, .value = w->pending[from++], .output = output};
    bool open = held_for(w->id);
    for (int i = 0; i < nshown && !open; i++)
        open = shown[i].win == w->id && shown[i].hold_ms;
    int first = open ? from : from + 1;
    if (w->npending > first)
        logmsg("window %u: update%s %lld..%lld compressed into the sequence's first, whose message is held %d ms "
               "(fault compress-to-first)", w->id, w->npending - first > 1 ? "s" : "", (long long)w->pending[first],
               (long long)w->pending[w->npending - 1], COMPRESS_HOLD_MS);
    if (!open && w->npending > from && nshown < MAX_SHOWN)
        shown[nshown++] =
            (struct shown){.win = w->id, .value = w->pending[from], .output = output, .hold_ms = COMPRESS_HOLD_MS};
    w->npending = 0;
}

void drawn_collect(struct win *w, int output)
{
    if (!drawn_enabled_for(w)) {
        w->npending = 0;
        return;
    }
    replay_on_return(w, output);
    bool first_paint = w->first_drawn_needed;
    w->first_drawn_needed = false;
    if (FAULT(COMPRESS_TO_FIRST)) {
        compress_to_first(w, output, first_paint);
        return;
    }
    int from = opt.compress && w->npending > 0 ? w->npending - 1 : 0, to = w->npending;
    for (int i = from; i < to; i++) {
        if (nshown == MAX_SHOWN)
            break;
        shown[nshown++] = (struct shown){.win = w->id, .value = w->pending[i], .output = output};
    }
    w->npending = 0;
}

/* Drawn messages held back after their paint: by --inject drawn-delay=MS (the benchmark's known
 * delay) and by the control channel's `drawn delay MS` (client cases). The drawn time in them stays
 * the paint's: only the message is late, the pixels are not. One FIFO, so they go out in order. */
struct delayed {
    xcb_window_t win;
    int64_t value;
    xcb_timestamp_t server_time;
    int output;
    int64_t due;
};
static struct delayed delayed[MAX_SHOWN];
static int delayed_head, ndelayed;

/* whether a drawn message of win is held back */
static bool held_for(xcb_window_t win)
{
    for (int i = 0; i < ndelayed; i++)
        if (delayed[(delayed_head + i) % MAX_SHOWN].win == win)
            return true;
    return false;
}

static void delay_drawn(xcb_window_t win, int64_t value, xcb_timestamp_t server_time, int output, int delay_ms)
{
    if (ndelayed == MAX_SHOWN) {
        logmsg("window %u: too many drawn messages held back: value %lld sent at once", win, (long long)value);
        send_drawn(win, value, server_time, output, "after the paint");
        return;
    }
    delayed[(delayed_head + ndelayed) % MAX_SHOWN] =
        (struct delayed){.win = win, .value = value, .server_time = server_time, .output = output,
                         .due = clock_now_us() + (int64_t)delay_ms * 1000};
    ndelayed++;
    logmsg("window %u: drawn message for %lld held back %d ms after the paint (inject drawn-delay=%d, control, "
           "fault compress-to-first)", win, (long long)value, delay_ms, opt.drawn_delay_ms);
}

void drawn_tick(int64_t now)
{
    while (ndelayed > 0 && now >= delayed[delayed_head].due) {
        struct delayed d = delayed[delayed_head];
        delayed_head = (delayed_head + 1) % MAX_SHOWN;
        ndelayed--;
        struct win *w = win_find(d.win);
        if (w && !w->destroyed)
            send_drawn(d.win, d.value, d.server_time, d.output, "after the paint and the drawn delay");
    }
}

void drawn_release_delayed(void)
{
    drawn_tick(INT64_MAX);
}

int64_t drawn_next_deadline(void)
{
    return ndelayed > 0 ? delayed[delayed_head].due : -1;
}

/* the control channel's mode (control.c, client cases) */
static enum drawn_control control_mode;
static int control_ms;

void drawn_set_control(enum drawn_control mode, int delay_ms)
{
    control_mode = mode;
    control_ms = delay_ms;
    if (mode == DRAWN_AS_USUAL)
        drawn_release_delayed(); /* the delayed ones go now */
}

/* before each drawn message: -1 withheld, else the delay in ms the control channel adds (0: none) */
static int control_delay_ms(xcb_window_t win, int64_t value)
{
    if (control_mode == DRAWN_AS_USUAL)
        return 0;
    if (control_mode == DRAWN_WITHHELD) {
        logmsg("window %u: drawn message for %lld withheld (control)", win, (long long)value);
        return -1;
    }
    return control_ms;
}

/* what w reported on an output: the frame the fault drawn-per-output-count reports again there */
static void note_reported(xcb_window_t win, int output, int64_t value, xcb_timestamp_t at)
{
    struct win *w = win_find(win);
    if (!w || output < 0 || output >= OUTPUTS_MAX)
        return;
    w->output_reported[output] = true;
    w->output_value[output] = value;
    w->output_time[output] = at;
}

void drawn_paint_done(xcb_timestamp_t server_time)
{
    for (int i = 0; i < nshown; i++) {
        struct win *w = win_find(shown[i].win);
        if (!w || w->destroyed)
            continue;
        int delay_ms = control_delay_ms(shown[i].win, shown[i].value);
        if (delay_ms < 0)
            continue; /* withheld by the control channel (client cases) */
        xcb_timestamp_t at = shown[i].replayed ? shown[i].replayed : server_time;
        if (!shown[i].replayed)
            note_reported(shown[i].win, shown[i].output, shown[i].value, at);
        delay_ms += opt.drawn_delay_ms + shown[i].hold_ms;
        if (delay_ms > 0)
            delay_drawn(shown[i].win, shown[i].value, at, shown[i].output, delay_ms);
        else
            send_drawn(shown[i].win, shown[i].value, at, shown[i].output,
                       shown[i].replayed ? "again, at the window's first paint back on that output (fault "
                                           "drawn-per-output-count)"
                                         : "after the paint");
    }
    nshown = 0;
}

void drawn_forget(struct win *w)
{
    /* updates not shown yet are dropped; a paint already in flight still reports what it showed
     * (drawn_paint_done skips windows that are gone) */
    w->npending = 0;
    w->first_drawn_needed = false;
}
