/* The barrier before an event that goes through the compositor's own seat (common/input-barrier.h;
 * PROTOCOL.md, "Input through the compositor's seat").
 *
 * Through the seat, a key reaches the compositor on another connection than this client's X
 * requests.  KWin under Wayland handles a key of its fake input device at once, in its Wayland
 * dispatch, while its X events wait in Xwayland's socket until it reads them: a key sent right
 * after this client's answer to a sync request may be handled before the alarm of that answer
 * (X11Window::isWaitingForInteractiveMoveResizeSync still true), and the step is dropped.  The
 * barrier orders them: a request of this client that the WM answers with an X change the client
 * sees, waited for before the seat's event goes out.  The X server delivers the alarm (made when
 * it ran the answer's SetCounter) and then the barrier's message on the WM's one connection in
 * order; the WM handles its X events in order (Xwayland::dispatchEvents, one at a time through the
 * native event filter, SyncAlarmX11Filter -> X11Window::handleSync clearing the wait at once), so
 * its answer to the barrier proves that the alarm was handled.
 *
 * fullscreen-monitors: the EWMH message _NET_WM_FULLSCREEN_MONITORS for the window (monitors
 * 0 0 0 0, source 1), to the root; the WM answers it by writing the window's property of that name
 * (EWMH: it MUST keep the list updated), and the client sees the PropertyNotify.  KWin writes it
 * at every such message, the same value each time (WinInfo::changeFullscreenMonitors ->
 * X11Window::updateFullscreenMonitors -> NETWinInfo::setFullscreenMonitors), also during an
 * interactive resize; nothing else of the window changes unless it is fullscreen.  Two counts
 * tell the answers apart: a barrier is passed once a write came after its message and there have
 * been as many writes as messages (a late write of a barrier that timed out is not taken for
 * the next one's).  Events that arrive meanwhile are handled as the main loop handles them (sync
 * requests answered, also when the answer's 50 ms are up); an answer made while a barrier waits came after its message, so another
 * barrier follows (kwin_wayland: the request of the manage came, and was answered, during the
 * barrier of the first key, which KWin then took before that answer's alarm).  No answer within
 * BARRIER_WAIT_MS in all: the event is not sent, and the command fails (the harness: UNRESOLVED,
 * the suite's path into the seat broke). */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "input-barrier.h"
#include "scripted-client.h"

#define BARRIER_WAIT_MS 2000

static int kind = -2; /* -2: not read yet; -1: FRAMESYNC_INPUT_BARRIER names no kind */
static const char *kind_text = "";

int barrier_kind(void)
{
    if (kind == -2) {
        const char *v = getenv("FRAMESYNC_INPUT_BARRIER");
        kind_text = v ? v : "";
        kind = v && *v ? input_barrier_parse(v) : INPUT_BARRIER_NONE;
    }
    return kind;
}

/* The message to the root that the WM answers with a write of the window's property. */
static void send_fullscreen_monitors(struct client *cl)
{
    xcb_client_message_event_t ev;
    memset(&ev, 0, sizeof ev);
    ev.response_type = XCB_CLIENT_MESSAGE;
    ev.window = cl->win;
    ev.format = 32;
    ev.type = cl->atoms.net_wm_fullscreen_monitors;
    ev.data.data32[4] = 1; /* top, bottom, left, right: monitor 0; source indication: an application */
    xcb_send_event(cl->c, 0, cl->screen->root,
                   XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY, (const char *)&ev);
    cl->nbarriers++;
    xcb_flush(cl->c);
}

static bool answered(const struct client *cl, uint64_t before)
{
    return cl->nbarrier_writes > before && cl->nbarrier_writes >= cl->nbarriers;
}

/* Handles the X events (and the answer's timer, as the main loop does) until the barrier is
 * answered or deadline_us; true when it was. */
static bool await_answer(struct client *cl, uint64_t before, int64_t deadline_us)
{
    for (;;) {
        xcb_generic_event_t *ev;
        while ((ev = xcb_poll_for_event(cl->c))) {
            events_dispatch(cl, ev);
            free(ev);
        }
        xcb_flush(cl->c); /* an answer made meanwhile goes out */
        if (answered(cl, before))
            return true;
        int64_t left_us = deadline_us - clock_now_us();
        if (left_us <= 0 || xcb_connection_has_error(cl->c))
            return false;
        struct pollfd p[2] = {{.fd = xcb_get_file_descriptor(cl->c), .events = POLLIN},
                              {.fd = cl->timerfd, .events = POLLIN}};
        poll(p, 2, (int)((left_us + 999) / 1000));
        if (p[1].revents & POLLIN)
            answer_on_timer(cl); /* an answer due now is made now, and needs a barrier of its own */
    }
}

bool barrier_before_input(struct client *cl, const char *event, int64_t *took_us, char *err, size_t len)
{
    *took_us = -1;
    int k = barrier_kind();
    if (k == INPUT_BARRIER_NONE)
        return true;
    if (k < 0) {
        snprintf(err, len, "FRAMESYNC_INPUT_BARRIER is `%s`, not %s: `%s` was not sent", kind_text,
                 INPUT_BARRIER_KINDS, event);
        return false;
    }
    if (!cl->win) { /* destroyed under an open resize: no step of it is left to order (its end) */
        logmsg(cl, "input: no window for the input barrier %s: `%s` sent without one", input_barrier_name(k), event);
        return true;
    }
    int64_t start = clock_now_us();
    bool answered_in_time;
    uint64_t sets;
    do { /* again while the client wrote a counter (answered) during the wait: that came after */
        sets = cl->ncounter_sets;
        uint64_t before = cl->nbarrier_writes;
        send_fullscreen_monitors(cl);
        answered_in_time = await_answer(cl, before, start + (int64_t)BARRIER_WAIT_MS * 1000);
    } while (answered_in_time && cl->ncounter_sets != sets);
    if (!answered_in_time) {
        snprintf(err, len, "the input barrier %s got no answer within %d ms: the WM did not write "
                 "_NET_WM_FULLSCREEN_MONITORS of window %u after the client's _NET_WM_FULLSCREEN_MONITORS message "
                 "(%llu writes for %llu messages), so `%s` was not sent", input_barrier_name(k), BARRIER_WAIT_MS,
                 cl->win, (unsigned long long)cl->nbarrier_writes, (unsigned long long)cl->nbarriers, event);
        logmsg(cl, "input: %s", err);
        return false;
    }
    *took_us = clock_now_us() - start;
    return true;
}
