/* `reparent XID X Y` (PROTOCOL.md): the toplevel goes into another client's window, as an
 * application embeds a window it made (a web view's toplevel put into the host's window).
 *
 * ICCCM 4.1.4: "Clients that want to re-use a client window (e.g., by mapping it again or
 * reparenting it elsewhere) after withdrawing it must wait for the withdrawal to be complete before
 * proceeding."  A reparenting WM completes it by giving the window back to the root, after or
 * about the time it changes WM_STATE (the case waits for that change); a ReparentWindow sent before
 * the WM's own would be undone by it.  So the command first waits until the window is a child of
 * the root, woken by the window's events (handled meanwhile as the main loop handles them), at most
 * ON_ROOT_WAIT_MS; a window the WM still holds then is an error (the case cannot be set up). */
#include <poll.h>
#include <stdlib.h>

#include "clock.h"
#include "commands.h"

#define ON_ROOT_WAIT_MS 1000

/* the window's parent now (a round trip), 0 when it cannot be had (the window is gone) */
static xcb_window_t current_parent(struct client *cl)
{
    xcb_query_tree_reply_t *t = xcb_query_tree_reply(cl->c, xcb_query_tree(cl->c, cl->win), NULL);
    xcb_window_t parent = t ? t->parent : 0;
    free(t);
    events_drain_queued(cl); /* what came in with the reply */
    return parent;
}

/* waits until the window is a child of the root, or deadline_us; returns its parent then */
static xcb_window_t await_on_root(struct client *cl, int64_t deadline_us)
{
    xcb_window_t parent;
    while ((parent = current_parent(cl)) && parent != cl->screen->root) {
        int64_t left_us = deadline_us - clock_now_us();
        if (left_us <= 0)
            break;
        struct pollfd pfd = {xcb_get_file_descriptor(cl->c), POLLIN, 0};
        poll(&pfd, 1, (int)((left_us + 999) / 1000));
        xcb_generic_event_t *ev;
        while ((ev = xcb_poll_for_event(cl->c))) {
            events_dispatch(cl, ev);
            free(ev);
        }
        if (xcb_connection_has_error(cl->c))
            return 0;
    }
    return parent;
}

bool cmd_reparent(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra, char *msg)
{
    int64_t into, x, y;
    if (argc != 4 || !parse_range(argv[1], 1, UINT32_MAX, &into) || !parse_range(argv[2], -32768, 32767, &x) ||
        !parse_range(argv[3], -32768, 32767, &y))
        return arg_bad(msg, "usage: reparent XID X Y (XID: another client's window; X Y -32768..32767)%s", "");
    int64_t start = clock_now_us();
    xcb_window_t from = await_on_root(cl, start + (int64_t)ON_ROOT_WAIT_MS * 1000);
    if (!from)
        return arg_bad(msg, "the window's parent cannot be read (is the window gone?)%s", "");
    if (from != cl->screen->root) {
        snprintf(msg, MSG_LEN, "the window is still a child of %u, not of the root, %d ms after the command: the WM "
                 "has not let it go (ICCCM 4.1.4: withdraw it and wait for WM_STATE first)",
                 from, ON_ROOT_WAIT_MS);
        return false;
    }
    cmd_track(cmd, xcb_reparent_window_checked(cl->c, cl->win, (xcb_window_t)into, (int16_t)x, (int16_t)y));
    snprintf(extra, EXTRA_LEN, "from=%u waited_ms=%lld", from, (long long)((clock_now_us() - start) / 1000));
    return true;
}
