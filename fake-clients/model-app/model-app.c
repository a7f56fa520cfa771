/* model-app: an application that takes part in frame synchronization by itself, correctly or with
 * one fault, so that the client cases (cases/client/) are shown to pass on a correct client and
 * to fail on each wrong behaviour (tests/client_selftest.py).  It plays "the client under test":
 * `framesync --client "model-app/model-app --fault answer-early"`.
 *
 *   model-app [--form basic|extended] [--fences N] [--fault F] [--variant V] [--frame-ms MS]
 *             [--animate-ms MS]
 *
 * It creates a 200x150 toplevel, lists WM_DELETE_WINDOW and _NET_WM_SYNC_REQUEST, creates its
 * counters (and fences) before the map, maps it with the second counter odd (its first frame)
 * and then, in the extended form, animates: one delimited update every MS (default 30), each
 * repainting the whole window in another colour; when the compositor lists _NET_WM_SYNC_DRAWN or
 * _NET_WM_FRAME_DRAWN it starts no update before the drawn message of the last one (or 1 s
 * after it, when the message never comes: a robust client does not freeze).  A sync
 * request is answered after the ConfigureNotify that follows it has been handled and the window
 * repainted at its new size, however long the compositor takes to send it (only a request no
 * ConfigureNotify follows for 2 s is answered then: a robust client does not freeze either):
 * counter 1 := V, and in the extended form counter 2 := the next even number >= V (the draft's
 * answer, which de-facto compositors accept too).  Before ending an update at N it triggers fence (N/2) % L.  With
 * --animate-ms it animates only for that long after the map, then stays still (idle), so that
 * the client cases are run in both of their states (cases/client/README.md).
 *
 * Faults (each breaks one client clause):
 *   answer-early       answers when the request arrives, without repainting at the new size
 *   wrong-counter      extended form: answers on counter 1 only (the second stays as it was)
 *   odd-end            ends its updates (and its first frame) at an odd value (+2 instead of +1)
 *   nested-update      begins a second update inside every fourth one (odd V, then odd V + 2), then
 *                      ends it even: the counter goes odd -> odd with no request pending
 *   no-drawn-wait      starts updates without waiting for the drawn message
 *   wrong-fence-index  triggers fence (N/2 + 1) % L instead of (N/2) % L
 *   same-size-unanswered  does not answer a request whose configure keeps the size
 *   late-counter       sets _NET_WM_SYNC_REQUEST_COUNTER only after the map
 *   answer-only-animating  answers a request only while it animates (in a frame of its animation,
 *                      as GTK answers in a frame of its frame clock): idle, it never answers
 *   no-counter         lists _NET_WM_SYNC_REQUEST but sets no _NET_WM_SYNC_REQUEST_COUNTER
 *   child-server-paint has a 1x1 child window; at a new size it resizes the child over the whole
 *                      window (the server paints the child's background) and answers without
 *                      drawing anything itself
 *   crash-on-request   abort()s when a sync request arrives (a toolkit that crashes on a resize):
 *                      the cases that resize it FAIL under the harness's client/crash
 *   crash-on-update    abort()s when it begins its first update after the first frame (a crash in
 *                      its animation): the probe that waits for one (client-animates) crashes, and
 *                      the cases that need that feature are the crash's FAILs, never UNRESOLVED
 *   answer-before-configure  answers a request as soon as it arrives, not waiting for the
 *                      ConfigureNotify: it repaints at the size the server gives the window then
 *                      (GetGeometry) and sets the counter.  When the compositor sends the configure
 *                      with the request it has the new size by then and looks right; when the
 *                      configure comes later it answers with the old picture (the black stripe
 *                      KWin showed under such clients)
 *   extended-after-map names its first counter before the map and both (the extended one added)
 *                      only after it: a WM reads one counter at manage and never knows the second
 *   counter2-after-map names both counters before the map but creates the second, with its initial
 *                      value, only after the MapWindow
 *
 * Variants (behaviours the texts allow: no client case may fail on them):
 *   frame-answer       de-facto only: answers with a frame, as GTK does: second counter V + 1, paint,
 *                      V + 2 (the first counter untouched)
 *   map-even           maps with the second counter even (its first frame is not an update)
 *   plus3              ends its updates 3 above their beginning (a frame drawn for a chosen time)
 *   slow-answer        answers 200 ms after the ConfigureNotify
 *   negative-start     creates its second counter at -1000 (a value of its choosing: any signed
 *                      64-bit value)
 *   raise-over-new     raises its toplevel whenever another top-level window is mapped, as GTK 4
 *                      raises a window it presents (gdk_x11_surface_focus: XRaiseWindow where the
 *                      WM lists no _NET_ACTIVE_WINDOW): a window mapped after its own is hidden
 *                      for as long as it runs (the harness's liveness barrier must not take
 *                      that for a compositor that paints no more)
 *   min-size           480x360 (the size the resize cases ask for) and WM_NORMAL_HINTS' minimum at
 *                      its size, as GTK's widget factory: a WM must resize it to another size
 *   fixed-size         WM_NORMAL_HINTS' minimum = maximum = its size, as Qt's calculator: no WM
 *                      resizes it (ICCCM 4.1.2.3), so the cases that resize it SKIP
 *   one-frame          stops drawing after its first frame: maps with the second counter even, draws
 *                      one delimited update 500 ms after the map and then nothing more by itself
 *                      (it still answers requests and repaints on Expose), as an application with
 *                      nothing more to draw: the drawn message of that update is the last it gets
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <signal.h>
#include <xcb/sync.h>
#include <xcb/xcb_icccm.h>
#include <xcb/xcb.h>

#include "clock.h"
#include "options.h"
#include "xhelpers.h"

enum { A_PROTOCOLS, A_DELETE, A_SYNC, A_COUNTER, A_FENCES, A_SUPPORTED, A_SYNC_DRAWN, A_FRAME_DRAWN, A_COUNT };
static const char *const atom_names[A_COUNT] = {"WM_PROTOCOLS", "WM_DELETE_WINDOW", "_NET_WM_SYNC_REQUEST",
                                                "_NET_WM_SYNC_REQUEST_COUNTER", "_NET_WM_SYNC_FENCES",
                                                "_NET_SUPPORTED", "_NET_WM_SYNC_DRAWN", "_NET_WM_FRAME_DRAWN"};

static struct {
    xcb_connection_t *c;
    xcb_screen_t *screen;
    xcb_window_t win;
    xcb_window_t child;     /* child-server-paint: the child over the whole window */
    xcb_gcontext_t gc;
    xcb_atom_t atom[A_COUNT];
    bool extended;
    enum fault fault;
    enum variant variant;
    int frame_ms;
    xcb_sync_counter_t counter[2];
    int64_t value[2];
    xcb_sync_fence_t fences[8];
    int nfences;
    bool drawn_listed;      /* the compositor lists a drawn message: wait for it */
    bool awaiting;          /* waiting for the drawn message of its last update (counters are
                             * signed: no value of them can mean "none") */
    int64_t awaiting_drawn; /* the end value of that update */
    int64_t drawn_deadline_ms; /* when to give up waiting for it */
    uint16_t width, height;
    uint32_t frame;
    bool request_pending;   /* a request not answered yet */
    int nrequests;          /* received since the start (fault never-answers-first) */
    bool swap_owes;         /* fault answer-on-swap: a request waits for the next swap (update) */
    bool in_swap;
    int64_t first_swap_ms;  /* fault answer-on-swap: nothing to draw before then */
    int64_t request_value;
    int64_t request_deadline_ms;
    bool configured;        /* a ConfigureNotify came since the request */
    bool size_changed;
    int64_t next_frame_ms;
    int64_t animate_until_ms; /* --animate-ms: when it stops animating (0: never) */
    int animate_ms;
    bool drew_its_frame;    /* one-frame: its one update is drawn: it draws no more by itself */
} S = {.width = 200, .height = 150, .frame_ms = 30};

/* how long it waits for a drawn message that does not come before it draws again */
#define DRAWN_TIMEOUT_MS 1000
/* how long it waits for the ConfigureNotify of a request before it answers without one: longer than
 * any gap a compositor leaves between the two (the client cases' `wm-resize ... gap` included) */
#define CONFIGURE_TIMEOUT_MS 2000
/* one-frame: when its one update comes after the map: late enough that a case has set up what
 * it watches (the drawn messages' delay) before it, early enough for the probe of client-animates
 * (an update within 3 s of the map) */
#define ONE_FRAME_AT_MS 500

static int64_t now_ms(void)
{
    return clock_now_us() / 1000;
}

/* Does it animate now (extended form: its updates; --animate-ms: only so long after the map)? */
static bool animating(void)
{
    return S.extended && !S.drew_its_frame && (!S.animate_until_ms || now_ms() < S.animate_until_ms);
}

static void set_counter(int i, int64_t v)
{
    S.value[i] = v;
    xcb_sync_set_counter(S.c, S.counter[i], xh_sync_int64(v));
}

static void paint_at(uint16_t width, uint16_t height)
{
    uint32_t colour = 0x203040u + (S.frame * 0x0a1b2cu & 0x7f7f7fu);
    xcb_change_gc(S.c, S.gc, XCB_GC_FOREGROUND, &colour);
    xcb_rectangle_t r = {0, 0, width, height};
    xcb_poly_fill_rectangle(S.c, S.win, S.gc, 1, &r);
}

static void paint(void)
{
    paint_at(S.width, S.height);
}

/* answer-before-configure: paints at the size the server gives the window now (the new one only
 * if the compositor's configure has been processed already) */
static void paint_server_size(void)
{
    xcb_get_geometry_reply_t *g = xcb_get_geometry_reply(S.c, xcb_get_geometry(S.c, S.win), NULL);
    paint_at(g ? g->width : S.width, g ? g->height : S.height);
    free(g);
}

/* Does _NET_SUPPORTED list the drawn message of the compositor's profile? */
static bool supports_drawn(void)
{
    xcb_get_property_reply_t *r = xcb_get_property_reply(
        S.c, xcb_get_property(S.c, 0, S.screen->root, S.atom[A_SUPPORTED], XCB_ATOM_ATOM, 0, 256), NULL);
    bool found = false;
    if (r && r->format == 32) {
        const xcb_atom_t *a = xcb_get_property_value(r);
        for (int i = 0; i < xcb_get_property_value_length(r) / 4; i++)
            found |= a[i] == S.atom[A_SYNC_DRAWN] || a[i] == S.atom[A_FRAME_DRAWN];
    }
    free(r);
    return found;
}

static void set_counter_property(void)
{
    xcb_change_property(S.c, XCB_PROP_MODE_REPLACE, S.win, S.atom[A_COUNTER], XCB_ATOM_CARDINAL, 32,
                        S.extended ? 2 : 1, S.counter);
}

/* min-size: WM_NORMAL_HINTS' minimum is its size, 480x360 (GTK's widget factory: the size the cases
 * ask for is the one it has, so a WM must pick another); fixed-size: minimum = maximum = its size
 * (Qt's calculator: no WM resizes it, and the resize cases SKIP). */
static void set_size_hints(void)
{
    if (S.variant != V_MIN_SIZE && S.variant != V_FIXED_SIZE)
        return;
    xcb_size_hints_t h;
    memset(&h, 0, sizeof h);
    xcb_icccm_size_hints_set_min_size(&h, S.width, S.height);
    if (S.variant == V_FIXED_SIZE)
        xcb_icccm_size_hints_set_max_size(&h, S.width, S.height);
    xcb_icccm_set_wm_normal_hints(S.c, S.win, &h);
}

static void create_window(int nfences)
{
    S.win = xcb_generate_id(S.c);
    uint32_t values[2] = {XCB_BACK_PIXMAP_NONE,
                          XCB_EVENT_MASK_STRUCTURE_NOTIFY | XCB_EVENT_MASK_EXPOSURE};
    xcb_create_window(S.c, XCB_COPY_FROM_PARENT, S.win, S.screen->root, 0, 0, S.width, S.height, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, S.screen->root_visual, XCB_CW_BACK_PIXMAP | XCB_CW_EVENT_MASK,
                      values);
    xcb_change_property(S.c, XCB_PROP_MODE_REPLACE, S.win, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8, 8, "model-app");
    set_size_hints();
    xcb_atom_t protocols[2] = {S.atom[A_DELETE], S.atom[A_SYNC]};
    xcb_change_property(S.c, XCB_PROP_MODE_REPLACE, S.win, S.atom[A_PROTOCOLS], XCB_ATOM_ATOM, 32, 2, protocols);
    for (int i = 0; i < (S.extended ? 2 : 1); i++) {
        S.counter[i] = xcb_generate_id(S.c);
        S.value[i] = i == 1 && S.variant == V_NEGATIVE_START ? -1000 : 0;
        if (i == 0 || S.fault != F_COUNTER2_AFTER_MAP) /* that one: created after the map (start) */
            xcb_sync_create_counter(S.c, S.counter[i], xh_sync_int64(S.value[i]));
    }
    if (S.fault == F_EXTENDED_AFTER_MAP) /* the first counter only; both after the map (start) */
        xcb_change_property(S.c, XCB_PROP_MODE_REPLACE, S.win, S.atom[A_COUNTER], XCB_ATOM_CARDINAL, 32, 1,
                            S.counter);
    else if (S.fault != F_LATE_COUNTER && S.fault != F_NO_COUNTER)
        set_counter_property();
    S.nfences = nfences;
    for (int i = 0; i < nfences; i++) {
        S.fences[i] = xcb_generate_id(S.c);
        xcb_sync_create_fence(S.c, S.screen->root, S.fences[i], 0);
    }
    if (nfences)
        xcb_change_property(S.c, XCB_PROP_MODE_REPLACE, S.win, S.atom[A_FENCES], XCB_ATOM_CARDINAL, 32,
                            (uint32_t)nfences, S.fences);
    S.gc = xcb_generate_id(S.c);
    xcb_create_gc(S.c, S.gc, S.win, 0, NULL);
    if (S.fault == F_CHILD_SERVER_PAINT) { /* a small child with a background the server paints */
        S.child = xcb_generate_id(S.c);
        uint32_t bg = 0x808080u;
        xcb_create_window(S.c, XCB_COPY_FROM_PARENT, S.child, S.win, 0, 0, 1, 1, 0,
                          XCB_WINDOW_CLASS_INPUT_OUTPUT, S.screen->root_visual, XCB_CW_BACK_PIXEL, &bg);
        xcb_map_window(S.c, S.child);
    }
}

/* The crash faults: SIGABRT, as a toolkit's failed assertion, without a core file (on purpose). */
static void crash(const char *when)
{
    fprintf(stderr, "model-app: crashing %s\n", when);
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none);
    abort();
}

/* Before ending an update at n: trigger fence (n/2) % L (after resetting it: it may be triggered
 * from the last round) */
static void trigger_fence_for(int64_t n)
{
    if (!S.nfences)
        return;
    /* the index modulo L, never negative (a counter may be: negative-start), as fake-wm reads it */
    int64_t i = ((n / 2 + (S.fault == F_WRONG_FENCE ? 1 : 0)) % S.nfences + S.nfences) % S.nfences;
    xcb_sync_reset_fence(S.c, S.fences[i]);
    xcb_sync_trigger_fence(S.c, S.fences[i]);
}

/* One delimited update on the second counter: odd, paint, (fence), even. */
static void answer(void); /* a request, in a swap (fault answer-on-swap) */

static void update(void)
{
    if (S.swap_owes) { /* fault answer-on-swap: this swap is the answer */
        S.swap_owes = false;
        S.in_swap = true;
        answer();
        S.in_swap = false;
        return;
    }
    int64_t begin = S.value[1];
    if (!(begin & 1) && S.fault == F_CRASH_ON_UPDATE)
        crash("as it begins an update (fault crash-on-update)");
    if (!(begin & 1)) /* else: the update the map began (the first frame) ends here */
        set_counter(1, ++begin);
    if (S.variant == V_ONE_FRAME) {
        S.drew_its_frame = true;
        fprintf(stderr, "model-app: update %lld is its last (variant one-frame)\n", (long long)begin);
    }
    S.frame++;
    paint();
    xh_round_trip(S.c); /* the drawing reached the server before the update ends */
    if (S.fault == F_NESTED_UPDATE && S.frame % 4 == 3) { /* an update begun inside this one */
        begin += 2;
        set_counter(1, begin);
    }
    int64_t end = S.fault == F_ODD_END ? begin + 2 : S.variant == V_PLUS3 ? begin + 3 : begin + 1;
    trigger_fence_for(end);
    set_counter(1, end);
    xcb_flush(S.c);
    if (S.drawn_listed && S.fault != F_NO_DRAWN_WAIT) {
        S.awaiting_drawn = end;
        S.awaiting = true;
        S.drawn_deadline_ms = now_ms() + DRAWN_TIMEOUT_MS;
    }
}

/* GTK's answer (gdk_x11_window_begin_frame / end_frame): a frame that begins at the request's
 * value + 1 (odd) and ends one above it. */
static void answer_with_frame(int64_t v)
{
    int64_t begin = (v & 1) ? v : v + 1;
    set_counter(1, begin);
    paint();
    xh_round_trip(S.c);
    set_counter(1, begin + 1);
    xcb_flush(S.c);
    if (S.drawn_listed) {
        S.awaiting_drawn = begin + 1;
        S.awaiting = true;
        S.drawn_deadline_ms = now_ms() + DRAWN_TIMEOUT_MS;
    }
}

static void answer(void)
{
    int64_t v = S.request_value;
    S.request_pending = false;
    if (S.fault == F_NEVER_ANSWERS_FIRST && S.nrequests == 1) {
        fprintf(stderr, "model-app: request %lld not answered (fault never-answers-first)\n", (long long)v);
        return;
    }
    if (S.fault == F_ANSWER_ON_SWAP && !S.in_swap) { /* SDL: only SDL_GL_SwapWindow answers */
        S.swap_owes = true;
        return;
    }
    if (S.fault == F_ANSWER_ONLY_ANIMATING && !animating()) {
        fprintf(stderr, "model-app: request %lld not answered (fault answer-only-animating: idle)\n", (long long)v);
        return;
    }
    if (S.fault == F_CHILD_SERVER_PAINT) { /* the server paints the child at the new size; it draws nothing */
        uint32_t size[2] = {S.width, S.height};
        xcb_configure_window(S.c, S.child, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, size);
        xh_round_trip(S.c);
        set_counter(0, v);
        if (S.extended)
            set_counter(1, (v & 1) ? v + 1 : v);
        xcb_flush(S.c);
        return;
    }
    if (S.fault == F_SAME_SIZE && !S.size_changed) {
        fprintf(stderr, "model-app: request %lld not answered (fault same-size-unanswered)\n", (long long)v);
        return;
    }
    if (S.fault == F_ANSWER_BEFORE_CONFIGURE) {
        paint_server_size();
        xh_round_trip(S.c);
    } else if (S.fault != F_ANSWER_EARLY) {
        paint();
        xh_round_trip(S.c); /* repainted at the new size before the counter moves */
    }
    if (S.variant == V_FRAME_ANSWER && S.extended) {
        answer_with_frame(v);
        return;
    }
    set_counter(0, v);
    if (S.extended && S.fault != F_WRONG_COUNTER)
        set_counter(1, (v & 1) ? v + 1 : v);
    xcb_flush(S.c);
}

static void on_client_message(const xcb_client_message_event_t *e)
{
    const uint32_t *l = e->data.data32;
    if (e->type == S.atom[A_PROTOCOLS] && l[0] == S.atom[A_SYNC]) {
        S.request_value = (int64_t)(((uint64_t)l[3] << 32) | l[2]);
        if (S.fault == F_CRASH_ON_REQUEST)
            crash("on a sync request (fault crash-on-request)");
        S.request_pending = true;
        S.nrequests++;
        S.configured = false;
        S.request_deadline_ms = now_ms() + CONFIGURE_TIMEOUT_MS;
        if (S.fault == F_ANSWER_EARLY || S.fault == F_ANSWER_BEFORE_CONFIGURE)
            answer();
        return;
    }
    int64_t drawn = 0;
    bool got = true;
    if (e->type == S.atom[A_PROTOCOLS] && l[0] == S.atom[A_SYNC_DRAWN])
        drawn = (int64_t)(((uint64_t)l[2] << 32) | l[1]);
    else if (e->type == S.atom[A_FRAME_DRAWN])
        drawn = (int64_t)(((uint64_t)l[1] << 32) | l[0]);
    else
        got = false;
    if (got && S.awaiting && drawn >= S.awaiting_drawn)
        S.awaiting = false;
}

static void on_event(xcb_generic_event_t *ev)
{
    switch (ev->response_type & 0x7f) {
    case XCB_CLIENT_MESSAGE: on_client_message((xcb_client_message_event_t *)ev); break;
    case XCB_CONFIGURE_NOTIFY: {
        xcb_configure_notify_event_t *e = (xcb_configure_notify_event_t *)ev;
        if (e->window != S.win)
            break;
        S.size_changed = e->width != S.width || e->height != S.height;
        S.width = e->width;
        S.height = e->height;
        if (S.request_pending && S.variant == V_SLOW_ANSWER)
            S.request_deadline_ms = now_ms() + 200; /* answered from the main loop */
        else if (S.request_pending)
            answer();
        break;
    }
    case XCB_EXPOSE:
        paint();
        xcb_flush(S.c);
        break;
    case XCB_MAP_NOTIFY: { /* raise-over-new: another top-level (or its WM's frame) was mapped */
        xcb_map_notify_event_t *e = (xcb_map_notify_event_t *)ev;
        if (S.variant != V_RAISE_OVER_NEW || e->event != S.screen->root || e->window == S.win ||
            e->override_redirect)
            break;
        uint32_t above = XCB_STACK_MODE_ABOVE;
        xcb_configure_window(S.c, S.win, XCB_CONFIG_WINDOW_STACK_MODE, &above);
        xcb_flush(S.c);
        fprintf(stderr, "model-app: window 0x%x mapped: raised its own over it (variant raise-over-new)\n", e->window);
        break;
    }
    }
}

/* The index of v in names, or -1: the enums follow their name tables. */
static void start(int nfences)
{
    S.c = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(S.c)) {
        fprintf(stderr, "model-app: cannot connect to the X server\n");
        exit(1);
    }
    S.screen = xcb_setup_roots_iterator(xcb_get_setup(S.c)).data;
    free(xcb_sync_initialize_reply(S.c, xcb_sync_initialize(S.c, 3, 1), NULL));
    xh_intern_atoms(S.c, atom_names, A_COUNT, S.atom);
    S.drawn_listed = S.extended && supports_drawn();
    create_window(nfences);
    if (S.variant == V_RAISE_OVER_NEW) { /* told of every top-level's map */
        uint32_t mask = XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY;
        xcb_change_window_attributes(S.c, S.screen->root, XCB_CW_EVENT_MASK, &mask);
    }
    bool create_late = S.extended && S.fault == F_COUNTER2_AFTER_MAP;
    /* the first frame: mapped odd, ended once painted (one-frame's first frame is its one update) */
    if (S.extended && S.variant != V_MAP_EVEN && S.variant != V_ONE_FRAME) {
        if (create_late)
            S.value[1]++; /* its initial value, given it after the map */
        else
            set_counter(1, S.value[1] + 1);
    }
    xcb_map_window(S.c, S.win);
    if (create_late)
        xcb_sync_create_counter(S.c, S.counter[1], xh_sync_int64(S.value[1]));
    if (S.fault == F_LATE_COUNTER || S.fault == F_EXTENDED_AFTER_MAP)
        set_counter_property();
    xcb_flush(S.c);
    S.next_frame_ms = now_ms() + (S.variant == V_ONE_FRAME ? ONE_FRAME_AT_MS : S.frame_ms);
    if (S.animate_ms)
        S.animate_until_ms = now_ms() + S.animate_ms;
    S.first_swap_ms = now_ms() + (S.fault == F_ANSWER_ON_SWAP ? 1200 : 0);
}

int main(int argc, char **argv)
{
    struct model_options o;
    model_options_parse(argc, argv, &o);
    S.extended = o.extended;
    S.fault = o.fault;
    S.variant = o.variant;
    S.frame_ms = o.frame_ms;
    S.animate_ms = o.animate_ms;
    if (S.variant == V_MIN_SIZE) { /* the size the resize cases ask for */
        S.width = 480;
        S.height = 360;
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    start(o.nfences);
    for (;;) {
        xcb_generic_event_t *ev;
        while ((ev = xcb_poll_for_event(S.c))) {
            on_event(ev);
            free(ev);
        }
        if (xcb_connection_has_error(S.c))
            return 0;
        int64_t now = now_ms();
        if (S.request_pending && now >= S.request_deadline_ms)
            answer();
        if (S.awaiting && now >= S.drawn_deadline_ms && S.fault != F_FROZEN_WITHOUT_DRAWN) {
            fprintf(stderr, "model-app: no drawn message for %lld after %d ms, drawing on\n",
                    (long long)S.awaiting_drawn, DRAWN_TIMEOUT_MS);
            S.awaiting = false;
        }
        bool may_draw = animating() && !S.request_pending && !S.awaiting && now >= S.first_swap_ms;
        if (may_draw && now >= S.next_frame_ms) {
            update();
            S.next_frame_ms = now + S.frame_ms;
        }
        xcb_flush(S.c);
        int64_t wake = S.request_pending ? S.request_deadline_ms
                       : may_draw              ? S.next_frame_ms
                       : S.awaiting           ? S.drawn_deadline_ms
                                               : now + 1000;
        struct pollfd p = {.fd = xcb_get_file_descriptor(S.c), .events = POLLIN};
        int timeout = wake > now ? (int)(wake - now) : 0;
        if (poll(&p, 1, timeout) < 0 && errno != EINTR)
            return 1;
    }
}
