/* `resize W H TRIGGER [hold] [within MS]` and `resize-end`: one size change of the window, made
 * the way the compositor under test sends sync requests for it (PROTOCOL.md).  Window managers
 * differ in which resizes they synchronise: some every ConfigureRequest (compiz), most only their
 * own interactive resizes, with the keyboard (mutter, metacity, marco, openbox, xfwm4) or the
 * pointer (KWin), some at map.  The harness probes which one works and names it here:
 *
 *   configure  a ConfigureRequest of the client for W x H
 *   keyboard   _NET_WM_MOVERESIZE SIZE_KEYBOARD, then XTEST arrow keys towards W x H
 *   pointer    XTEST button press at the window's bottom-right corner, _NET_WM_MOVERESIZE
 *              SIZE_BOTTOMRIGHT (what a toolkit sends on a press in its resize grip), then an
 *              XTEST pointer motion to where the corner of a W x H window would be
 *   map        withdraw the window, ConfigureWindow W x H, map it again (a WM that syncs at map)
 *
 * Where XTEST does not reach the WM (a Wayland compositor's X window manager reads the compositor's
 * seat), the keys, motions and button go through the compositor's input helper (input.c), and
 * the WM's grab, which is then no X grab, is not looked for: a keyboard resize makes its steps
 * right after _NET_WM_MOVERESIZE (the first-press retries below cover a WM that starts it late);
 * a pointer resize first waits until Xwayland shows the pointer at the corner and then the button
 * down (the compositor handled both, so its own button state, which mutter reads when
 * _NET_WM_MOVERESIZE comes, has it), at most SEAT_WAIT_MS each; and the end of the resize is seen
 * when a key (Shift) sent after Return or the release reaches the window: the compositor gives
 * its keyboard focus back to Xwayland only once its resize is over.
 *
 * A step is one reaction of the WM: the command is `done` once the WM sent a sync request or
 * changed the window's size (for `map`: a sync request or the MapNotify), or after MS without
 * either (reacted=none: the harness decides what that means).  With `request` (the harness says it
 * when the WM is known to sync this kind of resize), a step the WM answers with a new size but no
 * sync request is followed by another (a user keeps dragging), up to MAX_UNSYNCED times: mutter
 * applies a key press that comes while its last request is unanswered without a new request
 * (meta_window_x11_move_resize_internal sends one only when sync_request_timeout_id == 0); the
 * `done` record counts them (unsynced=N).  Without `hold` the resize is then
 * finished as a user finishes it (Return, button release) once the client has answered the
 * request (its answer policy permitting); with `hold` it stays open and the next `resize`
 * continues it (one more key press or motion, no new _NET_WM_MOVERESIZE) until a `resize` without
 * `hold` or `resize-end` ends it.  Everything is driven by the main loop (events and one timerfd),
 * so the client answers sync requests while a resize runs; nothing here sleeps. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>
#include <xcb/xtest.h>

#include "clock.h"
#include "scripted-client.h"

#define MSG_LEN 512
#define DEFAULT_WITHIN_MS 1000
#define GRAB_WAIT_MS 2000     /* for the WM's grab after _NET_WM_MOVERESIZE */
#define GRAB_PROBE_US 5000    /* how often the grab is looked for meanwhile */
#define PRESS_RETRY_MS 250    /* a first key press the WM ignores (mutter: it picks the edge) */
#define MAX_FIRST_PRESSES 4
#define SETTLE_MS 1000        /* at most this long for the client's answer before finishing */
#define MAX_UNSYNCED 3        /* `request`: steps answered by a bare new size before giving up */
/* After Return or the button release, at most this long for the WM to let its grab go: until it
 * does, its resize is not over, and a _NET_WM_MOVERESIZE sent meanwhile is refused ("operation
 * already in effect": mutter handles the client message before the key that ended the last
 * resize, which goes through another queue). */
#define RELEASE_WAIT_MS 1000
#define SEAT_WAIT_MS 500      /* seat path: for Xwayland to show the pointer's motion, its button */

#define XK_Left 0xff51
#define XK_Up 0xff52
#define XK_Right 0xff53
#define XK_Down 0xff54
#define XK_Return 0xff0d
#define XK_Shift_L 0xffe1

#define MOVERESIZE_SIZE_BOTTOMRIGHT 4
#define MOVERESIZE_SIZE_KEYBOARD 9

static const char *const trigger_names[] = {"configure", "keyboard", "pointer", "map"};

static void set_timer(struct client *cl, int64_t due_us)
{
    struct resize *r = &cl->resize;
    r->due_us = due_us;
    struct itimerspec its;
    memset(&its, 0, sizeof its);
    if (due_us > 0) {
        its.it_value.tv_sec = due_us / 1000000;
        its.it_value.tv_nsec = (due_us % 1000000) * 1000;
    }
    if (timerfd_settime(cl->resize_timerfd, TFD_TIMER_ABSTIME, &its, NULL) < 0)
        logmsg(cl, "timerfd_settime: %s", strerror(errno));
}

static void enter(struct client *cl, enum resize_phase phase, int64_t due_us)
{
    cl->resize.phase = phase;
    set_timer(cl, due_us);
}

/* Does another client hold the keyboard (pointer) grab: the WM in its resize mode
 * (common/xhelpers.h says how it is probed) */
static bool grabbed_by_other(struct client *cl, bool pointer)
{
    return xh_grabbed_by_other(cl->c, cl->screen->root, pointer);
}

static void send_moveresize(struct client *cl, int x_root, int y_root, uint32_t direction, uint32_t button)
{
    xcb_client_message_event_t ev;
    memset(&ev, 0, sizeof ev);
    ev.response_type = XCB_CLIENT_MESSAGE;
    ev.window = cl->win;
    ev.format = 32;
    ev.type = intern(cl, "_NET_WM_MOVERESIZE", false);
    ev.data.data32[0] = (uint32_t)x_root;
    ev.data.data32[1] = (uint32_t)y_root;
    ev.data.data32[2] = direction;
    ev.data.data32[3] = button;
    ev.data.data32[4] = 1; /* source indication: a normal application */
    xcb_send_event(cl->c, 0, cl->screen->root,
                   XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY, (const char *)&ev);
    xcb_flush(cl->c);
}

/* The window's bottom-right pixel in root coordinates (it may be reparented into a frame). */
static bool corner_on_root(struct client *cl, int *x, int *y)
{
    xcb_translate_coordinates_reply_t *t = xcb_translate_coordinates_reply(
        cl->c, xcb_translate_coordinates(cl->c, cl->win, cl->screen->root, (int16_t)(cl->win_w - 1),
                                         (int16_t)(cl->win_h - 1)),
        NULL);
    if (!t)
        return false;
    *x = t->dst_x;
    *y = t->dst_y;
    free(t);
    return true;
}

/* Where the pointer goes for a W x H window: the start corner plus the size change. */
static void pointer_target(const struct resize *r, int *x, int *y)
{
    *x = r->corner_x + (r->target_w - r->start_w);
    *y = r->corner_y + (r->target_h - r->start_h);
}

/* One key towards the target size: width first, then height. */
static uint32_t key_towards(struct client *cl)
{
    const struct resize *r = &cl->resize;
    return r->target_w > cl->win_w ? XK_Right : r->target_w < cl->win_w ? XK_Left
           : r->target_h > cl->win_h ? XK_Down : r->target_h < cl->win_h ? XK_Up : XK_Right;
}

/* The WM reacted to this step: a sync request, a new size (or, for `map`, the MapNotify). */
static bool reacted(const struct client *cl, const char **how)
{
    const struct resize *r = &cl->resize;
    if (cl->nrequests != r->requests_before) {
        *how = "request";
        return true;
    }
    if (r->trigger == TRIGGER_MAP ? cl->nmapped != r->mapped_before : cl->nresized != r->resized_before) {
        *how = r->trigger == TRIGGER_MAP ? "map" : "resize";
        return true;
    }
    return false;
}

static void finish(struct client *cl, const char *how)
{
    struct resize *r = &cl->resize;
    bool open = r->open;
    enter(cl, RESIZE_IDLE, 0);
    r->active = false;
    xh_round_trip(cl->c);
    events_drain_queued(cl);
    if (!strcmp(r->word, "resize-end")) {
        record("done", "cmd=resize-end ended=%d trigger=%s released=%d", r->ended_open ? 1 : 0,
               r->ended_open ? trigger_names[r->open_trigger] : "none", r->released ? 1 : 0);
        return;
    }
    record("done", "cmd=%s trigger=%s reacted=%s presses=%d unsynced=%d grab_ms=%lld ms=%lld open=%d released=%d",
           r->word, trigger_names[r->trigger], how, r->presses, r->unsynced, (long long)r->grab_ms,
           (long long)((clock_now_us() - r->began_us) / 1000), open ? 1 : 0, r->released ? 1 : 0);
}

/* The compositor's input helper refused an event or did not answer: the command fails (the
 * harness makes the case UNRESOLVED: the suite, not the compositor, broke). */
static void input_failed(struct client *cl)
{
    struct resize *r = &cl->resize;
    enter(cl, RESIZE_IDLE, 0);
    r->active = false;
    r->open = false;
    record("error", "cmd=%s msg=%s", r->word, input_error());
}

/* End an open interactive resize as a user does: Return, or releasing the button; true when it
 * was open (then the WM's grab is to go). */
static bool end_interactive(struct client *cl)
{
    struct resize *r = &cl->resize;
    if (!r->open)
        return false;
    r->open = false;
    r->release_pointer = r->open_trigger == TRIGGER_POINTER;
    bool sent = r->open_trigger == TRIGGER_KEYBOARD ? input_key(cl, XK_Return) : input_button(cl, false);
    /* seat path: a key after it, seen by the window once the compositor's resize is over */
    r->keypresses_before = cl->nkeypresses;
    r->input_ok = sent && (!input_via_seat() || input_key(cl, XK_Shift_L));
    return true;
}

/* Has the WM let its grab go: no more X grab, or (seat path) the key sent after the end reached
 * the window. */
static bool resize_released(struct client *cl)
{
    const struct resize *r = &cl->resize;
    return input_via_seat() ? cl->nkeypresses != r->keypresses_before : !grabbed_by_other(cl, r->release_pointer);
}

/* The resize is over for the WM only once it lets its grab go (looked for every GRAB_PROBE_US,
 * as the grab itself was): then the command is done. */
static void await_release(struct client *cl)
{
    struct resize *r = &cl->resize;
    if (!r->input_ok) {
        input_failed(cl);
        return;
    }
    r->release_deadline_us = clock_now_us() + (int64_t)RELEASE_WAIT_MS * 1000;
    enter(cl, RESIZE_WAIT_RELEASE, clock_now_us() + GRAB_PROBE_US);
    resize_poll(cl);
}

/* The step made its effect (or timed out): finish, hold, or first let the client answer. */
static void step_over(struct client *cl, const char *how)
{
    struct resize *r = &cl->resize;
    snprintf(r->how, sizeof r->how, "%s", how);
    if (r->hold) {
        finish(cl, how);
        return;
    }
    enter(cl, RESIZE_SETTLE, clock_now_us() + (int64_t)SETTLE_MS * 1000);
    resize_poll(cl);
}

/* The step itself: the ConfigureRequest, the key press or the motion. */
static void make_step(struct client *cl)
{
    struct resize *r = &cl->resize;
    r->requests_before = cl->nrequests;
    r->resized_before = cl->nresized;
    r->mapped_before = cl->nmapped;
    switch (r->trigger) {
    case TRIGGER_CONFIGURE: {
        uint32_t values[] = {(uint32_t)r->target_w, (uint32_t)r->target_h};
        xcb_configure_window(cl->c, cl->win, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, values);
        xcb_flush(cl->c);
        break;
    }
    case TRIGGER_KEYBOARD:
        if (!input_key(cl, key_towards(cl))) {
            input_failed(cl);
            return;
        }
        r->presses++;
        break;
    case TRIGGER_POINTER: {
        int x, y;
        pointer_target(r, &x, &y);
        if (!input_motion(cl, x + r->jiggle, y)) {
            input_failed(cl);
            return;
        }
        r->jiggle = !r->jiggle; /* a repeated step must still be a motion */
        r->presses++;
        break;
    }
    case TRIGGER_MAP: {
        uint32_t values[] = {(uint32_t)r->target_w, (uint32_t)r->target_h};
        xcb_configure_window(cl->c, cl->win, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, values);
        xcb_map_window(cl->c, cl->win);
        xcb_flush(cl->c);
        break;
    }
    }
    int64_t now = clock_now_us();
    r->step_deadline_us += input_barrier_spent_us(); /* the WM's time to react starts with the step */
    /* A WM that has not reacted to anything in this resize yet may have ignored a first key
     * press (mutter's first arrow picks the edge): press again after PRESS_RETRY_MS. */
    bool retry = r->trigger != TRIGGER_CONFIGURE && r->trigger != TRIGGER_MAP && !r->reacted_once &&
                 r->presses < MAX_FIRST_PRESSES;
    enter(cl, RESIZE_WAIT_REACTION, retry ? now + PRESS_RETRY_MS * 1000 : r->step_deadline_us);
    if (retry && r->due_us > r->step_deadline_us)
        set_timer(cl, r->step_deadline_us);
}

/* The interactive resize is started (or continues): make the first step. */
static void start_steps(struct client *cl)
{
    struct resize *r = &cl->resize;
    r->grab_ms = (clock_now_us() - r->began_us) / 1000;
    r->open = true;
    r->open_trigger = r->trigger;
    make_step(cl);
}

static void begin_keyboard(struct client *cl)
{
    struct resize *r = &cl->resize;
    if (r->open && r->open_trigger == TRIGGER_KEYBOARD && (input_via_seat() || grabbed_by_other(cl, false))) {
        r->continued = true;
        start_steps(cl);
        return;
    }
    r->open = false;
    r->reacted_once = false;
    send_moveresize(cl, 0, 0, MOVERESIZE_SIZE_KEYBOARD, 0);
    if (input_via_seat()) { /* the seat's grab is no X grab: the steps follow the message */
        xh_round_trip(cl->c);
        start_steps(cl);
        return;
    }
    enter(cl, RESIZE_WAIT_GRAB, clock_now_us() + GRAB_PROBE_US);
}

/* Seat path, the start of a pointer resize: the pointer to the corner (down: the button
 * pressed there), then RESIZE_WAIT_SEAT until Xwayland shows it (seat_poll). */
static void seat_press_at_corner(struct client *cl, bool down)
{
    struct resize *r = &cl->resize;
    if (!(down ? input_button(cl, true) : input_motion(cl, r->corner_x, r->corner_y))) {
        input_failed(cl);
        return;
    }
    r->seat_button_down = down;
    r->seat_deadline_us = clock_now_us() + (int64_t)SEAT_WAIT_MS * 1000;
    enter(cl, RESIZE_WAIT_SEAT, clock_now_us() + GRAB_PROBE_US);
}

/* RESIZE_WAIT_SEAT: once Xwayland shows the motion, press; once it shows the button down,
 * _NET_WM_MOVERESIZE and the steps.  Not shown in SEAT_WAIT_MS (the pointer over no window of
 * Xwayland's): logged, and gone on with. */
static void seat_poll(struct client *cl, int64_t now)
{
    struct resize *r = &cl->resize;
    int seen_x, seen_y;
    bool shown = input_pointer_shows(cl, r->corner_x, r->corner_y, r->seat_button_down, &seen_x, &seen_y);
    if (!shown && now < r->seat_deadline_us) {
        if (now >= r->due_us)
            set_timer(cl, now + GRAB_PROBE_US);
        return;
    }
    if (!shown) /* over no window of Xwayland's, or root coordinates that are not the seat's */
        logmsg(cl, "resize: Xwayland did not show the pointer %s (%d,%d) within %d ms (it shows it at %d,%d); going "
               "on", r->seat_button_down ? "button down at the corner" : "at the corner", r->corner_x, r->corner_y,
               SEAT_WAIT_MS, seen_x, seen_y);
    if (!r->seat_button_down) {
        seat_press_at_corner(cl, true);
        return;
    }
    send_moveresize(cl, r->corner_x, r->corner_y, MOVERESIZE_SIZE_BOTTOMRIGHT, 1);
    xh_round_trip(cl->c);
    start_steps(cl);
}

static void begin_pointer(struct client *cl)
{
    struct resize *r = &cl->resize;
    if (r->open && r->open_trigger == TRIGGER_POINTER) {
        r->continued = true;
        start_steps(cl);
        return;
    }
    r->open = false;
    r->reacted_once = false;
    if (!corner_on_root(cl, &r->corner_x, &r->corner_y)) {
        r->corner_x = cl->win_w - 1;
        r->corner_y = cl->win_h - 1;
    }
    r->start_w = cl->win_w;
    r->start_h = cl->win_h;
    if (input_via_seat()) {
        seat_press_at_corner(cl, false);
        return;
    }
    input_motion(cl, r->corner_x, r->corner_y);
    input_button(cl, true);
    xh_round_trip(cl->c);
    /* The press may have given a frame window of the WM an implicit grab: then a grab seen now
     * says nothing about the resize, and the steps are simply repeated until the WM reacts. */
    r->grab_before = grabbed_by_other(cl, true);
    send_moveresize(cl, r->corner_x, r->corner_y, MOVERESIZE_SIZE_BOTTOMRIGHT, 1);
    if (r->grab_before) {
        start_steps(cl);
        return;
    }
    enter(cl, RESIZE_WAIT_GRAB, clock_now_us() + GRAB_PROBE_US);
}

static void begin_map(struct client *cl)
{
    struct resize *r = &cl->resize;
    r->unmapped_before = cl->nunmapped;
    withdraw_window(cl, NULL);
    enter(cl, RESIZE_WAIT_UNMAP, r->step_deadline_us);
}

bool resize_parse_trigger(const char *s, enum resize_trigger *out)
{
    for (int i = 0; i < (int)(sizeof trigger_names / sizeof trigger_names[0]); i++)
        if (!strcmp(s, trigger_names[i])) {
            *out = (enum resize_trigger)i;
            return true;
        }
    return false;
}

bool resize_begin(struct client *cl, const char *word, int w, int h, enum resize_trigger trigger, bool hold,
                  bool want_request, int within_ms, char *msg)
{
    struct resize *r = &cl->resize;
    const xcb_query_extension_reply_t *xt = xcb_get_extension_data(cl->c, &xcb_test_id);
    if ((trigger == TRIGGER_KEYBOARD || trigger == TRIGGER_POINTER) && !input_via_seat() && (!xt || !xt->present)) {
        snprintf(msg, MSG_LEN, "no XTEST extension on the server");
        return false;
    }
    if (trigger == TRIGGER_KEYBOARD && !(input_keycode(cl, XK_Right) && input_keycode(cl, XK_Return))) {
        snprintf(msg, MSG_LEN, "the keyboard map has no arrow or Return key");
        return false;
    }
    if (r->open && r->open_trigger != trigger) {
        snprintf(msg, MSG_LEN, "a %s resize is open (end it with resize-end first)", trigger_names[r->open_trigger]);
        return false;
    }
    snprintf(r->word, sizeof r->word, "%s", word);
    r->active = true;
    r->trigger = trigger;
    r->hold = hold;
    r->want_request = want_request;
    r->unsynced = 0;
    r->target_w = w;
    r->target_h = h;
    r->presses = 0;
    r->grab_ms = 0;
    r->released = false;
    r->continued = false;
    r->began_us = clock_now_us();
    input_barrier_spent_us(); /* what earlier commands spent in barriers is not this one's */
    r->step_deadline_us = r->began_us + (int64_t)within_ms * 1000;
    r->grab_deadline_us = r->began_us + (int64_t)GRAB_WAIT_MS * 1000;
    switch (trigger) {
    case TRIGGER_CONFIGURE: make_step(cl); break;
    case TRIGGER_KEYBOARD: begin_keyboard(cl); break;
    case TRIGGER_POINTER: begin_pointer(cl); break;
    case TRIGGER_MAP: begin_map(cl); break;
    }
    return true;
}

void resize_end(struct client *cl)
{
    struct resize *r = &cl->resize;
    snprintf(r->word, sizeof r->word, "resize-end");
    r->active = true;
    r->released = false;
    r->ended_open = end_interactive(cl);
    if (r->ended_open)
        await_release(cl);
    else
        finish(cl, "none");
}

bool resize_active(const struct client *cl)
{
    return cl->resize.active;
}

/* RESIZE_WAIT_RELEASE: done once the WM let its grab go, or RELEASE_WAIT_MS after the end. */
static void poll_release(struct client *cl, int64_t now)
{
    struct resize *r = &cl->resize;
    if (resize_released(cl)) {
        r->released = true;
        finish(cl, r->how);
    } else if (now >= r->release_deadline_us) {
        if (input_via_seat())
            logmsg(cl, "resize: no key reached the window %d ms after the resize ended: the compositor may "
                   "still hold its keyboard focus", RELEASE_WAIT_MS);
        else
            logmsg(cl, "resize: the WM still holds its %s grab %d ms after the resize ended",
                   r->release_pointer ? "pointer" : "keyboard", RELEASE_WAIT_MS);
        finish(cl, r->how);
    } else if (now >= r->due_us) {
        set_timer(cl, now + GRAB_PROBE_US);
    }
}

/* After every batch of events and on the timer: move the state machine on. */
void resize_poll(struct client *cl)
{
    struct resize *r = &cl->resize;
    if (!r->active)
        return;
    int64_t now = clock_now_us();
    const char *how;
    switch (r->phase) {
    case RESIZE_IDLE:
        return;
    case RESIZE_WAIT_GRAB:
        if (grabbed_by_other(cl, r->trigger == TRIGGER_POINTER)) {
            start_steps(cl);
            return;
        }
        if (now >= r->grab_deadline_us || now >= r->step_deadline_us) {
            logmsg(cl, "resize: the WM took no %s grab within %lld ms of _NET_WM_MOVERESIZE",
                   r->trigger == TRIGGER_POINTER ? "pointer" : "keyboard", (long long)((now - r->began_us) / 1000));
            if (r->trigger == TRIGGER_POINTER)
                input_button(cl, false);
            finish(cl, "no-grab");
            return;
        }
        if (now >= r->due_us)
            set_timer(cl, now + GRAB_PROBE_US);
        return;
    case RESIZE_WAIT_SEAT:
        seat_poll(cl, now);
        return;
    case RESIZE_WAIT_UNMAP:
        if (cl->nunmapped != r->unmapped_before) {
            make_step(cl);
            return;
        }
        if (now >= r->step_deadline_us)
            finish(cl, "no-unmap");
        return;
    case RESIZE_WAIT_REACTION:
        if (reacted(cl, &how)) {
            r->reacted_once = true;
            bool interactive = r->trigger == TRIGGER_KEYBOARD || r->trigger == TRIGGER_POINTER;
            if (r->want_request && interactive && !strcmp(how, "resize") && r->unsynced < MAX_UNSYNCED &&
                now < r->step_deadline_us) {
                r->unsynced++;
                logmsg(cl, "resize: the WM changed the size without a sync request (%d); one more step", r->unsynced);
                make_step(cl);
                return;
            }
            step_over(cl, how);
            return;
        }
        if (now >= r->step_deadline_us) {
            step_over(cl, "none");
            return;
        }
        if (now >= r->due_us) /* the retry of a first key press or motion */
            make_step(cl);
        return;
    case RESIZE_SETTLE:
        /* finish once the client has answered (or will not), then end the interactive resize */
        if (cl->answer.state != ANSWER_IDLE && now < r->due_us)
            return;
        if (end_interactive(cl))
            await_release(cl);
        else
            finish(cl, r->how);
        return;
    case RESIZE_WAIT_RELEASE:
        poll_release(cl, now);
        return;
    }
}

void resize_on_timer(struct client *cl)
{
    uint64_t expirations;
    if (read(cl->resize_timerfd, &expirations, sizeof expirations) < 0 && errno != EAGAIN)
        logmsg(cl, "timerfd read: %s", strerror(errno));
    resize_poll(cl);
}
