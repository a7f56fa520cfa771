/* --inject input-first=MS: seat input before the X events already there (inputfirst.h).
 *
 * KWin under Wayland reads its seat (a key of the fake input device, org_kde_kwin_fake_input) in
 * its Wayland dispatch and handles it at once (FakeInputDevice -> InputRedirection), while the X
 * events Xwayland sent it wait in the socket until its event loop reads them (Xwayland::dispatchEvents).
 * So a key can be handled before an X event the server sent earlier: the alarm of a client's answer
 * (X11Window::handleSync), and the step is dropped.  Here the events of the WM connection other
 * than KeyPress, KeyRelease, ButtonPress, ButtonRelease and MotionNotify (which tests/xtest-seat's
 * XTEST makes, the seat's input) wait MS ms each, in a queue in the order they came; the input
 * events are handled at once.  With the variant drop-steps a step of an interactive resize that
 * comes before the alarm of the last answer is dropped, as KWin drops it
 * (Window::handleInteractiveMoveResize returns while isWaitingForInteractiveMoveResizeSync). */
#include "inputfirst.h"

#include "clock.h"
#include "log.h"
#include "state.h"

#include <stdlib.h>
#include <string.h>

struct kept {
    struct kept *next;
    int64_t due_us;
    xcb_generic_event_t *ev;
};

static struct kept *head, *tail;

static bool is_input(uint8_t type)
{
    return type == XCB_KEY_PRESS || type == XCB_KEY_RELEASE || type == XCB_BUTTON_PRESS ||
           type == XCB_BUTTON_RELEASE || type == XCB_MOTION_NOTIFY;
}

/* a copy of ev: 32 bytes and xcb's full_sequence, and a generic event's extra length */
static xcb_generic_event_t *copy_event(const xcb_generic_event_t *ev)
{
    size_t size = sizeof *ev;
    if ((ev->response_type & 0x7f) == XCB_GE_GENERIC)
        size += (size_t)((const xcb_ge_generic_event_t *)ev)->length * 4;
    xcb_generic_event_t *copy = malloc(size);
    if (copy)
        memcpy(copy, ev, size);
    return copy;
}

bool inputfirst_defer(const xcb_generic_event_t *ev)
{
    if (opt.input_first_ms <= 0 || is_input(ev->response_type & 0x7f))
        return false;
    struct kept *k = malloc(sizeof *k);
    xcb_generic_event_t *copy = k ? copy_event(ev) : NULL;
    if (!copy) {
        free(k);
        logmsg("input-first: out of memory: event %u handled at once", ev->response_type & 0x7f);
        return false;
    }
    *k = (struct kept){.due_us = clock_now_us() + (int64_t)opt.input_first_ms * 1000, .ev = copy};
    if (tail)
        tail->next = k;
    else
        head = k;
    tail = k;
    return true;
}

void inputfirst_check(int64_t now, void (*handle)(xcb_generic_event_t *ev))
{
    while (head && head->due_us <= now) {
        struct kept *k = head;
        head = k->next;
        if (!head)
            tail = NULL;
        handle(k->ev); /* may keep new events: they go behind */
        free(k->ev);
        free(k);
    }
}

int64_t inputfirst_next_deadline(void)
{
    return head ? head->due_us : -1;
}
