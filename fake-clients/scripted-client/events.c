/* X events into records.  Every record decoded from an event carries sendevent=1|0 (the 0x80 bit
 * of response_type): the harness tells a WM's synthetic ConfigureNotify from the server's. */
#include <stdio.h>
#include <stdlib.h>

#include "scripted-client.h"

static int sendevent(const xcb_generic_event_t *ev)
{
    return (ev->response_type & 0x80) ? 1 : 0;
}

static void on_configure(struct client *cl, const xcb_configure_notify_event_t *ev)
{
    record("configure-notify",
           "window=%u x=%d y=%d width=%u height=%u border=%u above=%u override=%u sendevent=%d",
           ev->window, ev->x, ev->y, ev->width, ev->height, ev->border_width, ev->above_sibling,
           ev->override_redirect, sendevent((const xcb_generic_event_t *)ev));
    if (ev->window != cl->win)
        return;
    bool resized = ev->width != cl->win_w || ev->height != cl->win_h;
    if (resized)
        cl->nresized++;
    cl->win_w = ev->width;
    cl->win_h = ev->height;
    if (cl->answer.state == ANSWER_WAIT_CONFIGURE)
        answer_on_configure(cl); /* repaints, round trip, answers */
    else if (resized)
        repaint_current(cl); /* a resize shows the current frame at the new size */
}

static void on_property(struct client *cl, const xcb_property_notify_event_t *ev)
{
    record("property-notify", "window=%u atom=%u atomname=%s state=%s sendevent=%d", ev->window,
           ev->atom, atom_name(cl, ev->atom),
           ev->state == XCB_PROPERTY_NEW_VALUE ? "new" : "deleted",
           sendevent((const xcb_generic_event_t *)ev));
    /* the WM's answer to an input barrier (barrier.c) */
    if (ev->window == cl->win && ev->atom == cl->atoms.net_wm_fullscreen_monitors &&
        ev->state == XCB_PROPERTY_NEW_VALUE)
        cl->nbarrier_writes++;
}

static void on_error(const xcb_generic_event_t *ev)
{
    /* Errors of a command's requests are checked by the command (checked cookies) and never
     * arrive here; what does is a request made on our own account (an answer, a re-arm). */
    record_x_error((const xcb_generic_error_t *)ev);
}

void events_dispatch(struct client *cl, xcb_generic_event_t *ev)
{
    uint8_t type = ev->response_type & 0x7F;
    int se = sendevent(ev);

    if (type == 0) {
        on_error(ev);
        return;
    }
    if (type == cl->sync_first_event + XCB_SYNC_ALARM_NOTIFY) {
        counters_on_alarm(cl, (const xcb_sync_alarm_notify_event_t *)ev);
        return;
    }
    switch (type) {
    case XCB_CONFIGURE_NOTIFY:
        on_configure(cl, (const xcb_configure_notify_event_t *)ev);
        break;
    case XCB_MAP_NOTIFY:
        record("map-notify", "window=%u sendevent=%d", ((xcb_map_notify_event_t *)ev)->window, se);
        if (((xcb_map_notify_event_t *)ev)->window == cl->win)
            cl->nmapped++;
        break;
    case XCB_UNMAP_NOTIFY:
        record("unmap-notify", "window=%u sendevent=%d", ((xcb_unmap_notify_event_t *)ev)->window,
               se);
        if (((xcb_unmap_notify_event_t *)ev)->window == cl->win)
            cl->nunmapped++;
        break;
    case XCB_REPARENT_NOTIFY: {
        const xcb_reparent_notify_event_t *r = (const xcb_reparent_notify_event_t *)ev;
        record("reparent-notify", "window=%u parent=%u x=%d y=%d sendevent=%d", r->window,
               r->parent, r->x, r->y, se);
        break;
    }
    case XCB_EXPOSE: {
        const xcb_expose_event_t *x = (const xcb_expose_event_t *)ev;
        record("expose", "window=%u x=%u y=%u width=%u height=%u count=%u sendevent=%d", x->window,
               x->x, x->y, x->width, x->height, x->count, se);
        /* An unmapped window keeps no pixels, so a fill before `map` is lost; like any real
         * client, repaint the current frame when the server says the contents are gone. */
        if (x->window == cl->win && x->count == 0)
            repaint_current(cl);
        break;
    }
    case XCB_PROPERTY_NOTIFY:
        on_property(cl, (const xcb_property_notify_event_t *)ev);
        break;
    case XCB_CLIENT_MESSAGE:
        messages_on_client_message(cl, (const xcb_client_message_event_t *)ev);
        break;
    case XCB_KEY_PRESS: /* selected on the seat path only: resize.c counts them */
        cl->nkeypresses++;
        break;
    case XCB_MAPPING_NOTIFY: /* the keymap of a compositor's virtual keyboard: keys are looked up anew */
        break;
    case XCB_DESTROY_NOTIFY:
        logmsg(cl, "DestroyNotify window %u", ((xcb_destroy_notify_event_t *)ev)->window);
        break;
    default:
        logmsg(cl, "event %u ignored", type);
        break;
    }
}

void events_drain_queued(struct client *cl)
{
    /* After any call that waited for a reply, xcb may hold events it read meanwhile; poll() on
     * the socket would not wake for them. */
    xcb_generic_event_t *ev;
    while ((ev = xcb_poll_for_queued_event(cl->c))) {
        events_dispatch(cl, ev);
        free(ev);
    }
}
