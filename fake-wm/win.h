/* The windows fake-wm knows (win.c): every toplevel (child of the root) in stacking order, bottom
 * to top, with what each part keeps about it, and fake-wm's own windows (never managed or painted,
 * only kept for the stacking order).  The events code (wmevents.c) keeps the list in step with the
 * server; the other parts find windows in it and walk it. */
#ifndef FAKEWM_WIN_H
#define FAKEWM_WIN_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>
#include <xcb/sync.h>
#include <xcb/render.h>
#include <xcb/damage.h>

#include "counters.h"

enum form { FORM_NONE, FORM_BASIC, FORM_EXTENDED };
const char *form_name(enum form f);

/* where a size change comes from: a client's own ConfigureRequest, or a step of an interactive
 * resize the WM runs (each step is handed to the same path as a client's request) */
enum resize_origin { ORIGIN_CLIENT, ORIGIN_KEYBOARD, ORIGIN_POINTER };
const char *origin_name(enum resize_origin o);

/* a ConfigureRequest's fields, whoever asks (a client, an interactive resize, the control channel) */
struct configure_req {
    uint16_t mask;
    int16_t x, y;
    uint16_t width, height, border_width;
    xcb_window_t sibling;
    uint8_t stack_mode;
};

#define MAX_PENDING_DRAWN 64
#define OUTPUTS_MAX 4 /* outputs the compositor tells apart (outputs.h) */
#define MAX_FENCES 64
#define MAX_STAGED 16

/* a copy of a window's contents on the compositor connection */
struct frame {
    xcb_pixmap_t pix;
    xcb_render_picture_t pic;
    uint16_t w, h;
};

/* a completed update's frame waiting to be shown (stage.c) */
struct staged {
    struct frame frame;
    int64_t value;
    int64_t release_at;
    bool compressed;
};

struct win {
    xcb_window_t id;
    bool own;             /* one of fake-wm's windows: only kept for the stacking order */
    bool override_redirect;
    bool mapped;          /* as the server says (MapNotify / UnmapNotify) */
    bool managed;         /* went through MapRequest (or adopted at start-up) */
    bool destroyed;
    int16_t x, y;         /* geometry from ConfigureNotify */
    uint16_t w, h, bw;
    uint16_t wm_w, wm_h;  /* the size fake-wm last gave it (for "does this request resize?") */
    int16_t wm_x, wm_y;   /* the position fake-wm last gave it (the start of a pointer resize) */
    uint8_t depth;
    xcb_visualid_t visual;
    bool attrs_known;
    bool input_only;

    /* sync request protocol (sync*.c) */
    enum form form;
    xcb_sync_counter_t counter1, counter2; /* as read from the property */
    xcb_sync_counter_t req_counter;  /* the one the requests are about */
    int64_t basic_value;      /* basic form: the WM's current value (0 at first) */
    int nrequests;
    int64_t last_requested;
    bool have_requested;
    int64_t seen_for_request; /* extended: "last value seen", base of the next request */
    bool waiting;
    bool commits_held;        /* _XWAYLAND_ALLOW_COMMITS = 0 set on it (xwcommits.c) */
    int64_t wait_value;
    int64_t wait_deadline;    /* clock_now_us() */
    xcb_sync_alarm_t wait_alarm;
    bool queued;
    struct configure_req queue;
    enum resize_origin queue_origin; /* of the latest queued resize */
    bool configure_held;      /* a control resize with a gap: its configure waits until held_until */
    struct configure_req held;
    int64_t held_until;       /* clock_now_us() */
    bool interactive_fresh;   /* an interactive resize began and has sent no request yet */
    bool map_after_wait;      /* sync-at-map: MapWindow once the wait ends */
    bool forgotten;           /* unmapped while a request was unanswered (fault unsynced-after-unmap) */
    bool unanswered_at_unmap; /* its last unmap came while a request was unanswered (fault map-unsynced-after-unmap) */
    /* faults unsynced-after-timeout / -late-answer: its resizes get no request (until the counter
     * moves off unsynced_value, or for good) */
    bool unsynced;
    bool unsynced_for_good;
    int64_t unsynced_value;
    int64_t stale_timer_at;   /* fault answer-after-resize-ignored: the answered request's timer (0: none) */
    bool unwaited;            /* fault unwaited-after-timeout: its requests are no longer waited for */
    bool adopted_unsynced;    /* fault adopted-unsynced: adopted at start-up, its resizes get no request */
    struct follow freq;       /* extended: follows req_counter */
    struct follow fupd;       /* extended: follows the update counter (counter2) */

    /* delimited updates (comphold.c) */
    bool odd;
    int64_t odd_since;
    bool hold_expired;
    bool odd_from_map;        /* this odd period began before the window was first shown */
    bool hold_left;           /* fault replaced-keeps-hold: held for ever by the replaced zombie */
    bool freeze_left;         /* fault replaced-keeps-freeze: its frozen picture kept for ever, likewise */
    int64_t defer_until;      /* delayed-others: its damage is shown from then on (0: not delayed) */
    int counter_changes;      /* fault hostile-wedges: changes of its counters seen */
    int queued_configures;    /* fault hostile-wedges: resizes queued behind its requests */

    /* a synced resize (syncrequest.c): the compositor keeps showing the last answered picture from
     * the resize's configure until the answer (or the timeout), as mutter freezes its actor */
    bool resize_frozen;
    int64_t synced_resizes;   /* since it was managed: inject show-before-paint counts them */
    int64_t synced_pointer_steps; /* since it was managed: inject configure-before-answer counts them */

    /* faults hold-kept-after-reparent and request-to-reparented (embedded.c): this window keeps the
     * hold of a window its client reparented into it, until embed_alarm fires or embed_until; and
     * that window (embed_ward) gets a request with each of this window's */
    xcb_sync_alarm_t embed_alarm;
    int64_t embed_until;
    xcb_window_t embed_ward;
    int64_t embed_ward_value;

    /* benchmark injections paint-delay, compress-every (stage.c) */
    struct staged staged[MAX_STAGED];
    int nstaged;
    int64_t updates_completed; /* since the map */
    bool show_released;        /* the next paint shows a released frame, not the live contents */

    /* fade-in (fade.c) */
    bool fade_pending;        /* mapped, the fade starts with its first paint */
    int64_t fade_start;       /* fading in since then (0: not fading) */

    /* drawn messages (drawn.c) */
    bool first_drawn_needed;  /* mapped, no message sent yet for the first draw */
    bool first_drawn_early;   /* fault first-drawn-before-map: already sent, before the map */
    int64_t pending[MAX_PENDING_DRAWN]; /* completed updates not yet shown */
    int npending;
    /* fault drawn-per-output-count: the output its last paint was on, and the frame it last
     * reported on each output (value, and the paint's server time) */
    bool drawn_output_known;
    int drawn_output;
    bool output_reported[OUTPUTS_MAX];
    int64_t output_value[OUTPUTS_MAX];
    xcb_timestamp_t output_time[OUTPUTS_MAX];

    /* fences (fences.c) */
    xcb_sync_fence_t fences[MAX_FENCES];
    int nfences;

    /* compositing (comp*.c, pictures.c) */
    xcb_damage_damage_t damage;
    xcb_pixmap_t live_pix;
    xcb_render_picture_t live_pic;
    xcb_pixmap_t saved_pix;
    xcb_render_picture_t saved_pic;
    uint16_t saved_w, saved_h;
    xcb_render_pictformat_t format;
    bool argb;
    bool dirty;       /* damaged since the saved copy was taken */
    bool drew;        /* damaged (or an update completed) since it was last mapped */
    bool await_first; /* newly mapped, not shown until it draws or FIRST_SHOW_GRACE_US pass */
    int64_t first_show_after; /* fault first-drawn-at-map: not shown before this time (0: no such wait) */
    int64_t mapped_at;
    bool shown;       /* has a saved copy (was painted since it was mapped) */
    /* policies (policies.h) */
    bool unready;             /* show-after-first-answer: not painted until its request at manage ends */
    int64_t first_shown_at;   /* its first paint since the map (0: not yet) */
    bool drawn_missed;        /* drawn-missed-once: its one missed drawn message is past */
};

/* all toplevels (children of the root), bottom to top */
extern struct win **stack;
extern int nstack;
struct win *win_find(xcb_window_t id);

/* a new toplevel on top of the list, with its geometry; and its end */
struct win *win_add(xcb_window_t id, int16_t x, int16_t y, uint16_t wd, uint16_t ht, uint16_t bw,
                    bool override_redirect);
void win_free(struct win *w);
/* restacking: w to the top or the bottom; w directly above sibling (XCB_NONE: at the
 * bottom; a sibling not in the list makes it re-read the server's order); true when w moved */
void stack_to_end(struct win *w, bool top);
bool stack_place_above(struct win *w, xcb_window_t sibling);

/* fake-wm's own windows (the check window, the compositor's stamp window and overlay) */
void win_note_own(xcb_window_t id);
bool win_is_own(xcb_window_t id);

#endif
