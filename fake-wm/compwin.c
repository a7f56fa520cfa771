/* The compositor's side of the windows' lives (comp.h): what the WM side reports (created, mapped,
 * unmapped, configured, destroyed) and the compositor connection's own events (DAMAGE, the stamps'
 * PropertyNotify, its selection). */
#include "comp.h"
#include "compint.h"

#include "compsched.h"
#include "drawn.h"
#include "fade.h"
#include "faults.h"
#include "log.h"
#include "outputs.h"
#include "pictures.h"
#include "selection.h"
#include "stage.h"
#include "state.h"

#include "clock.h"

#include <stdlib.h>
#include <xcb/damage.h>

static uint8_t damage_event_base;

void compwin_start(uint8_t base) { damage_event_base = base; }

/* ---- window events from the WM side ---- */
static void ensure_damage(struct win *w)
{
    if (w->damage || !w->attrs_known || w->input_only)
        return;
    w->damage = xcb_generate_id(X.pc);
    xcb_damage_create(X.pc, w->damage, w->id, XCB_DAMAGE_REPORT_LEVEL_NON_EMPTY);
    xcb_flush(X.pc); /* before the map it will be asked for, so the first drawing is reported */
}

void comp_window_created(struct win *w)
{
    learn_attrs(w);
    ensure_damage(w);
}

void comp_window_mapped(struct win *w)
{
    learn_attrs(w);
    if (!w->attrs_known || w->input_only)
        return;
    ensure_damage(w);
    name_live(w);
    free_saved(w);
    w->dirty = true;
    /* not shown before it has drawn (a window's contents are undefined until its Expose
     * repaint), unless that takes longer than FIRST_SHOW_GRACE_US; damage that arrived before
     * this MapNotify (the two connections are not ordered) counts */
    w->mapped_at = clock_now_us();
    w->first_shown_at = 0; /* a new map: its first showing is noted again */
    w->await_first = !w->drew;
    fade_window_mapped(w);
    if (in_update(w)) {
        /* mapped in the middle of an update: map + first paint are one update */
        update_began(w);
        w->odd_from_map = true;
        w->odd_since = clock_now_us();
        w->hold_expired = false;
    } else {
        w->odd_from_map = false;
    }
    drawn_window_mapped(w, w->fupd.value, in_update(w));
    comp_schedule();
}

void comp_window_unmapped(struct win *w)
{
    stamps_release_fences_of(w, "unmapped");
    /* the picture frozen for a resize belongs to its request, and the unmap ends that request
     * (the WM unmanages the window): the next map starts unfrozen */
    if (w->resize_frozen && FAULT(FREEZE_KEPT_ACROSS_UNMAP))
        logmsg("window %u: unmapped while its resize waits for the answer: its picture stays frozen (fault "
               "freeze-kept-across-unmap)",
               w->id);
    else
        w->resize_frozen = false;
    /* damage left from before the unmap would keep the NonEmpty level from reporting the first
     * drawing after the next map */
    if (w->damage)
        xcb_damage_subtract(X.pc, w->damage, XCB_NONE, XCB_NONE);
    w->drew = false;
    w->await_first = false;
    w->first_show_after = 0;
    w->defer_until = 0;
    fade_window_unmapped(w);
    stage_forget(w);
    w->show_released = false;
    free_live(w);
    free_saved(w);
    drawn_forget(w);
    comp_schedule();
}

void comp_window_configured(struct win *w, bool resized, bool moved_or_restacked)
{
    if (!paintable(w))
        return;
    if (resized) {
        name_live(w); /* the old pixmap keeps the old size and contents */
        w->dirty = true;
        w->defer_until = 0; /* a new size is not damage: shown at once */
    }
    if (resized || moved_or_restacked)
        comp_schedule();
}

void comp_window_destroyed(struct win *w)
{
    hold_gone_with(w);
    stage_forget(w);
    free_live(w);
    free_saved(w);
    if (w->damage && !w->destroyed)
        xcb_damage_destroy(X.pc, w->damage); /* a destroyed window took its damage with it */
    w->damage = XCB_NONE;
    stamps_release_fences_of(w, "destroyed");
    stamps_forget_window(w->id);
    drawn_forget(w);
    comp_schedule();
}

/* ---- events on the compositor connection ---- */
static bool cm_lost;

bool comp_selection_lost(void)
{
    bool lost = cm_lost;
    cm_lost = false;
    return lost;
}

void comp_handle_event(xcb_generic_event_t *ev)
{
    uint8_t type = ev->response_type & 0x7f;
    if (type == damage_event_base + XCB_DAMAGE_NOTIFY) {
        xcb_damage_notify_event_t *d = (xcb_damage_notify_event_t *)ev;
        note_time(d->timestamp);
        struct win *w = win_find(d->drawable);
        if (!w)
            return;
        w->drew = true; /* also before we have seen its MapNotify */
        w->await_first = false;
        if (!paintable(w))
            return;
        w->dirty = true;
        if (kept(w))
            return; /* damage while held is part of the update: shown when it ends */
        if (delay_damage(w, clock_now_us()))
            return; /* comp_tick schedules the paint when the delay has passed */
        comp_schedule();
        return;
    }
    switch (type) {
    case XCB_PROPERTY_NOTIFY: {
        xcb_property_notify_event_t *p = (xcb_property_notify_event_t *)ev;
        note_time(p->time);
        stamps_property_notify(p);
        return;
    }
    case XCB_CONFIGURE_NOTIFY: /* of the root: a RandR monitor set or deleted (outputs.c) */
        if (((xcb_configure_notify_event_t *)ev)->window == X.root) {
            outputs_root_configured();
            comp_schedule();
        }
        return;
    case XCB_SELECTION_CLEAR: {
        xcb_selection_clear_event_t *e = (xcb_selection_clear_event_t *)ev;
        if (e->selection == atom(A_NET_WM_CM_S0))
            cm_lost = true; /* the top hands it to replace.c, a layer above */
        return;
    }
    case XCB_SELECTION_REQUEST: {
        selection_refuse(X.pc, (xcb_selection_request_event_t *)ev);
        return;
    }
    default:
        return;
    }
}
