/* The harness's commands: each answered by one `done cmd=WORD` or `error cmd=WORD msg=...`.
 *   wm-resize W H [gap MS]  fake-wm resizes the application's toplevel (a sync request, then the
 *                      configure; with `gap MS`, the configure MS milliseconds after the request);
 *                      when its WM_NORMAL_HINTS allow one size only (minimum = maximum on both
 *                      axes), no WM resizes it (ICCCM 4.1.2.3): a `size-fixed` record instead, and
 *                      fake-wm is not asked
 *   wm-move DX DY      fake-wm moves it without resizing (a sync request, the configure, ICCCM's
 *                      synthetic ConfigureNotify)
 *   wm-drawn on|off|delay MS   fake-wm sends its drawn messages as usual, never, or MS late
 *   wm-settle          fake-wm stops waiting for an unanswered request of the toplevel now, as at
 *                      its timeout (the harness, between two cases sharing the application)
 *   sync               a round trip
 *   state idle|animating  (done at once) then a `state` record when the application is in that
 *                      state, or cannot be brought there: idle = it has not drawn into its
 *                      toplevel for STATE_QUIET_MS (within STATE_IDLE_WITHIN_MS; still drawing
 *                      after STATE_UNFOCUS_MS, it loses the input focus, as when another window
 *                      takes it: a text cursor blinks only in a focused window); animating = it
 *                      drew by itself at least STATE_DRAWS times over at least STATE_SPAN_MS
 *                      (within STATE_ANIMATING_WITHIN_MS; the focus given back first).  Found,
 *                      never declared: the `animates:` of clients/NAME.conf is only a hint
 *   quit               stops the application and exits
 * The wm-* commands are ClientMessages of fake-wm's control channel (fake-wm/control.c). */
#include "app-observer.h"
#include "clock.h"
#include "xhelpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void control(struct observer *ob, uint32_t op, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    xcb_client_message_event_t m;
    memset(&m, 0, sizeof m);
    m.response_type = XCB_CLIENT_MESSAGE;
    m.format = 32;
    m.window = ob->toplevel;
    m.type = ob->atoms[WA_CONTROL];
    m.data.data32[0] = op;
    m.data.data32[1] = a;
    m.data.data32[2] = b;
    m.data.data32[3] = c;
    m.data.data32[4] = d;
    xcb_send_event(ob->ctl, 0, ob->root, XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY,
                   (const char *)&m);
    xh_round_trip(ob->ctl);
}

static bool number(const char *s, long min, long max, long *out)
{
    char *end;
    if (!s)
        return false;
    *out = strtol(s, &end, 10);
    return !*end && *out >= min && *out <= max;
}

void commands_reset_compositor(struct observer *ob)
{
    control(ob, 3, 0, 0, 0, 0); /* drawn messages as usual: an earlier case may have withheld them */
}

#define STATE_QUIET_MS 1000
#define STATE_IDLE_WITHIN_MS 8000
#define STATE_DRAWS 3
#define STATE_SPAN_MS 500
#define STATE_ANIMATING_WITHIN_MS 2500
#define STATE_UNFOCUS_MS 3000

static const char *const state_names[] = {"", "idle", "animating"};

/* What became of the input focus while the state was sought, in words a report can print: taken
 * away (a still-drawing application lost it after STATE_UNFOCUS_MS), kept (it had it throughout),
 * or never the application's (nothing to take away: focus taking found nothing to try). */
static bool app_focused(struct observer *ob);

static const char *focus_words(struct observer *ob)
{
    return ob->focus_taken ? "taken-away" : app_focused(ob) ? "kept" : "never-the-application's";
}

static void state_reached(struct observer *ob, bool reached, const char *why)
{
    int64_t now = clock_now_us();
    out_record("state", "name=%s reached=%d why=%s%s asked_ms=%lld quiet_ms=%lld draws=%d focus=%s",
               state_names[ob->state_goal], reached, why,
               ob->focus_taken && ob->state_goal == 1 ? "-after-its-input-focus-was-taken-away" : "",
               (long long)((now - ob->state_asked_us) / 1000),
               ob->last_app_damage_us ? (long long)((now - ob->last_app_damage_us) / 1000) : -1, ob->state_draws,
               focus_words(ob));
    ob->state_goal = 0;
}

/* Is w the window outer or inside it? */
static bool inside(struct observer *ob, xcb_window_t w, xcb_window_t outer)
{
    for (int depth = 0; w != XCB_NONE && depth < 64; depth++) {
        if (w == outer)
            return true;
        if (w == ob->root)
            return false;
        xcb_query_tree_reply_t *t = xcb_query_tree_reply(ob->ctl, xcb_query_tree(ob->ctl, w), NULL);
        w = t ? t->parent : XCB_NONE;
        free(t);
    }
    return false;
}

/* Does the application have the input focus: its toplevel or a window in it, a WM frame around it,
 * or, with the focus at PointerRoot (or the root), the pointer over it, which toolkits count as
 * focus (GDK's has_pointer_focus)? */
static bool app_focused(struct observer *ob)
{
    xcb_get_input_focus_reply_t *f = xcb_get_input_focus_reply(ob->ctl, xcb_get_input_focus(ob->ctl), NULL);
    xcb_window_t w = f ? f->focus : XCB_NONE;
    free(f);
    if (w == XCB_INPUT_FOCUS_POINTER_ROOT || w == ob->root) {
        xcb_query_pointer_reply_t *q = xcb_query_pointer_reply(ob->ctl, xcb_query_pointer(ob->ctl, ob->root), NULL);
        w = q ? q->child : XCB_NONE;
        free(q);
    }
    return w != XCB_NONE && (inside(ob, w, ob->toplevel) || inside(ob, ob->toplevel, w));
}

/* Another window takes the focus (None: the keyboard goes nowhere), or it comes back. */
static void set_focus(struct observer *ob, bool give)
{
    xcb_set_input_focus(ob->ctl, XCB_INPUT_FOCUS_POINTER_ROOT, give ? XCB_INPUT_FOCUS_POINTER_ROOT : XCB_NONE,
                        XCB_CURRENT_TIME);
    xh_round_trip(ob->ctl);
    ob->focus_taken = !give;
}

void state_app_drew(struct observer *ob, int64_t t_us)
{
    ob->last_app_damage_us = t_us;
    if (ob->state_goal == 2 && ob->state_draws++ == 0)
        ob->state_first_draw_us = t_us;
}

void state_tick(struct observer *ob)
{
    if (!ob->state_goal)
        return;
    int64_t now = clock_now_us(), asked_ms = (now - ob->state_asked_us) / 1000;
    if (ob->state_goal == 1) {
        if (now - ob->last_app_damage_us >= STATE_QUIET_MS * 1000LL)
            state_reached(ob, true, "no-drawing-for-1000-ms");
        else if (asked_ms >= STATE_IDLE_WITHIN_MS)
            state_reached(ob, false, "it-drew-by-itself-within-every-1000-ms-for-8000-ms");
        else if (asked_ms >= STATE_UNFOCUS_MS && !ob->focus_taken && app_focused(ob))
            set_focus(ob, false);
    } else {
        if (ob->state_draws >= STATE_DRAWS && ob->last_app_damage_us - ob->state_first_draw_us >= STATE_SPAN_MS * 1000LL)
            state_reached(ob, true, "it-draws-by-itself");
        else if (asked_ms >= STATE_ANIMATING_WITHIN_MS)
            state_reached(ob, false, "it-did-not-draw-by-itself-3-times-over-500-ms-within-2500-ms");
    }
}

/* Do the toplevel's WM_NORMAL_HINTS, as the server has them now, allow one size only (the rule
 * fake-wm resizes by)?  Read at the request, not at the map: GTK 4 makes a window non-resizable
 * after mapping it. */
static bool size_fixed(struct observer *ob, uint32_t *w, uint32_t *h)
{
    struct xh_axis_range rw, rh;
    xh_size_ranges(ob->ctl, ob->toplevel, &rw, &rh);
    *w = rw.lo;
    *h = rh.lo;
    return rw.lo == rw.hi && rh.lo == rh.hi;
}

void command_run(struct observer *ob, char *line)
{
    char *save = NULL, *word = strtok_r(line, " ", &save);
    if (!word || word[0] == '#')
        return;
    char *a1 = strtok_r(NULL, " ", &save), *a2 = strtok_r(NULL, " ", &save);
    char *a3 = strtok_r(NULL, " ", &save), *a4 = strtok_r(NULL, " ", &save);
    long x, y, gap = 0;
    if (!strcmp(word, "sync")) {
        xh_round_trip(ob->ctl);
    } else if (!strcmp(word, "quit")) {
        out_record("done", "cmd=quit");
        out_record("bye", "reason=quit");
        exit(0);
    } else if (!strcmp(word, "state")) {
        int goal = a1 && !strcmp(a1, "idle") ? 1 : a1 && !strcmp(a1, "animating") ? 2 : 0;
        if (!goal || !ob->toplevel) {
            out_record("error", "cmd=state msg=%s", goal ? "the application has mapped no toplevel yet"
                                                         : "expected idle or animating");
            return;
        }
        if (goal == 2 && ob->focus_taken) /* an earlier idle took it: a cursor blinks again */
            set_focus(ob, true);
        ob->state_goal = goal;
        ob->state_asked_us = clock_now_us();
        ob->state_draws = 0;
    } else if (!strncmp(word, "wm-", 3) && !ob->toplevel) {
        out_record("error", "cmd=%s msg=the application has mapped no toplevel yet", word);
        return;
    } else if (!strcmp(word, "wm-resize") || !strcmp(word, "wm-move")) {
        bool resize = word[3] == 'r';
        bool gap_ok = !a3 || (resize && !strcmp(a3, "gap") && number(a4, 1, 60000, &gap));
        if (!number(a1, resize ? 1 : -32768, 32767, &x) || !number(a2, resize ? 1 : -32768, 32767, &y) || !gap_ok) {
            out_record("error", "cmd=%s msg=expected %s", word, resize ? "W H (1..32767) [gap MS (1..60000)]" : "DX DY");
            return;
        }
        uint32_t fw, fh;
        if (resize && size_fixed(ob, &fw, &fh))
            out_record("size-fixed",
                       "window=%u width=%u height=%u "
                       "why=its-WM_NORMAL_HINTS-fix-its-size-(minimum=maximum):no-WM-resizes-it-(ICCCM-4.1.2.3)",
                       ob->toplevel, fw, fh);
        else
            control(ob, resize ? 1 : 2, ob->toplevel, (uint32_t)x, (uint32_t)y, (uint32_t)gap);
    } else if (!strcmp(word, "wm-settle")) {
        control(ob, 4, ob->toplevel, 0, 0, 0);
    } else if (!strcmp(word, "wm-drawn")) {
        int mode = a1 && !strcmp(a1, "on") ? 0 : a1 && !strcmp(a1, "off") ? 1 : a1 && !strcmp(a1, "delay") ? 2 : -1;
        if (mode < 0 || (mode == 2 && !number(a2, 0, 600000, &x))) {
            out_record("error", "cmd=wm-drawn msg=expected on, off or delay MS");
            return;
        }
        control(ob, 3, (uint32_t)mode, mode == 2 ? (uint32_t)x : 0, 0, 0);
    } else {
        out_record("error", "cmd=%s msg=unknown command", word);
        return;
    }
    out_record("done", "cmd=%s", word);
}
