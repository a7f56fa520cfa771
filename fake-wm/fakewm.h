/* fake-wm: shared state and the interfaces between its parts.
 *
 * One process, one thread, two X connections:
 *   wm.c   - the window manager connection `X.c`: WM_S0, SubstructureRedirect, MapRequest /
 *            ConfigureRequest, the sync request protocol, counters and alarms.
 *   composite.c - the compositor connection `X.pc`: _NET_WM_CM_S0, Composite redirection,
 *            DAMAGE, XRender painting into the overlay window, SYNC fences.  Fence waits
 *            (AwaitFence) block only this connection, so the WM keeps working while the
 *            compositor waits, as glWaitSync would block only the GPU.
 *   moveresize.c - _NET_WM_MOVERESIZE: checks it, starts keyboard (keyresize.c) or pointer
 *            (pointerresize.c) resizing with a grab retried on a timer; their steps go through
 *            the same ConfigureRequest path (syncreq.c) as a client's own resize.
 * See README.md for the behaviour; this header only describes the code.
 */
#ifndef FAKEWM_H
#define FAKEWM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <xcb/xcb.h>
#include <xcb/sync.h>
#include <xcb/render.h>
#include <xcb/damage.h>

#include "clock.h"
#include "terms.h"
#include "xhelpers.h"

/* ---- options (main.c) ---- */
struct options {
    enum profile profile;
    int refresh_hz;
    int sync_timeout_ms;  /* sync request answers and fence waits */
    int hold_timeout_ms;  /* how long a window in the middle of an update is held */
    bool compress;
    bool composite;
    bool verbose;
    /* benchmark injections (injections.c), 0 = off */
    int paint_delay_ms;
    int drawn_delay_ms;
    int compress_every;
};
extern struct options opt;

/* the profile has an extended form (two counters, delimited updates, drawn messages) */
static inline bool profile_extended(void) { return opt.profile != PROFILE_EWMH15; }

/* ---- faults (faults.c): the single table of names, clauses and descriptions ---- */
enum fault_id {
    F_SYNC_TO_ALL,
    F_WRONG_MESSAGE_TYPE,
    F_L4_NONZERO_BASIC,
    F_NO_TIMESTAMP,
    F_REQUEST_AFTER_CONFIGURE,
    F_VALUE_ZERO,
    F_VALUE_NOT_INCREASING,
    F_NO_SET_AT_MANAGE,
    F_NO_WAIT,
    F_SINGLE_COUNTER_EXTENDED,
    F_USE_FIRST_COUNTER,
    F_RESET_EXTENDED,
    F_NO_QUERY_INITIAL,
    F_IGNORE_SPONTANEOUS,
    F_ODD_VALUE,
    F_SMALL_INCREMENT,
    F_INCREMENT_100_DEFACTO,
    F_NO_L4_MARKER,
    F_PAINT_WHILE_ODD,
    F_PAINT_ODD_MAP,
    F_BLOCK_FOREVER,
    F_BLOCK_ALL,
    F_NO_DRAWN,
    F_DRAWN_BEFORE_PAINT,
    F_DRAWN_WRONG_VALUE,
    F_NO_FIRST_DRAWN,
    F_DRAWN_DUPLICATE,
    F_DRAWN_MILLISECONDS,
    F_NO_FRAME_TIMINGS,
    F_NOT_ADVERTISED,
    F_ADVERTISED_NOT_SENT,
    F_WRONG_FENCE,
    F_NO_FENCE_WAIT,
    F_NO_OWN_FENCE,
    F_SYNC_NOT_ADVERTISED,
    F_DRAWN_TAIL_NONZERO,
    F_FRAME_DRAWN_TAIL_NONZERO,
    F_TIMINGS_WRONG_VALUE,
    F_COMPRESS_TO_FIRST,
    F_FENCES_NOT_ADVERTISED,
    F_L4_MARKER_DRAFT,
    F_HOSTILE_WEDGES,
    F_NO_HOLD,
    F_HOLD_TIMEOUT_5MS,
    F_ADVERTISES_SYNC_SENDS_NONE,
    F_HOLDS_WHOLE_SCREEN,
    F_CRASH_DURING_PROBE,
    F_HANG_DURING_PROBE,
    F_COUNT
};
struct fault_desc {
    enum fault_id id;
    const char *name;
    const char *clause;
    const char *what;
};
extern const struct fault_desc fault_table[F_COUNT];
extern bool fault_on[F_COUNT];
#define FAULT(x) (fault_on[F_##x])
int fault_lookup(const char *name); /* index or -1 */
void faults_list(void);             /* --list-faults */
void faults_describe(char *buf, size_t n); /* "a,b" or "none" */

/* ---- benchmark injections (injections.c): --inject NAME=VALUE, not clause faults ---- */
bool injection_parse(const char *arg);          /* false: not one of them; exits 2 on a bad value */
void injections_describe(char *buf, size_t n);  /* "paint-delay=50,..." or "none" */
void injections_help(FILE *f);

/* ---- variants (variants.c): the single table of allowed behaviours fake-wm can switch on ---- */
enum variant_id {
    V_KEYBOARD_ONLY,
    V_POINTER_ONLY,
    V_INTERACTIVE_ONLY,
    V_CONFIGURE_UNSERIALISED,
    V_RESTART_COUNTER,
    V_SYNC_AT_MAP,
    V_BASIC_ONLY,
    V_WM_ONLY,
    V_CM_ONLY,
    V_COMPRESS,
    V_FADE_IN,
    V_HOLD_1S,
    V_HOLD_4S,
    V_DELAYED_OTHERS,
    V_SLOW_REFRESH,
    V_NO_DRAWN,
    V_NO_FENCES,
    V_NO_TIMINGS,
    V_COUNT
};
struct variant_desc {
    enum variant_id id;
    const char *name;
    const char *what; /* what fake-wm then does differently */
    const char *like; /* the real compositors that behave like this */
};
extern const struct variant_desc variant_table[V_COUNT];
extern bool variant_on[V_COUNT];
#define VARIANT(x) (variant_on[V_##x])
int variant_lookup(const char *name);         /* index or -1 */
void variants_list(void);                     /* --list-variants */
void variants_names(char *buf, size_t n);     /* "a, b, ..." (all of them, for messages) */
void variants_describe(char *buf, size_t n);  /* the ones on: "a,b" or "none" */
void variants_check_conflicts(void);          /* exits 2 on a combination that cannot be */

/* ---- what fake-wm does, from the profile and the variants (faults aside) ---- */
/* a window manager (WM_S0, SubstructureRedirect, sync requests); cm-only is a compositor alone */
static inline bool is_wm(void) { return !VARIANT(CM_ONLY); }
/* windows with two counters use the extended form */
static inline bool extended_form_available(void) { return profile_extended() && !VARIANT(BASIC_ONLY); }
/* drawn messages (_NET_WM_SYNC_DRAWN / _NET_WM_FRAME_DRAWN) are sent and listed */
static inline bool drawn_supported(void)
{
    /* cm-only cannot advertise them (no _NET_SUPPORTED), and clients wait only for what is listed */
    return opt.composite && is_wm() && extended_form_available() && !VARIANT(NO_DRAWN);
}
/* _NET_WM_FRAME_TIMINGS follows each _NET_WM_FRAME_DRAWN, and is listed */
static inline bool timings_supported(void)
{
    return drawn_supported() && opt.profile == PROFILE_DEFACTO && !VARIANT(NO_TIMINGS);
}
/* client fences are awaited, the own fence used, _NET_WM_SYNC_FENCES listed */
static inline bool fences_supported(void)
{
    return opt.composite && is_wm() && opt.profile == PROFILE_DRAFT2011 && extended_form_available() &&
           !VARIANT(NO_FENCES);
}

/* ---- the control channel (control.c): resizes, moves and drawn messages a test asks for ---- */
bool control_client_message(const xcb_client_message_event_t *e);
int control_drawn_delay_ms(xcb_window_t win, int64_t value);
/* drawn.c: a drawn message the control channel delayed */
void drawn_release_delayed(void);

/* ---- logging (log.c) ---- */
void logmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void logv(const char *fmt, ...) __attribute__((format(printf, 1, 2))); /* only with --verbose */
void log_x_error(const char *conn, const xcb_generic_error_t *e);

/* ---- X state (main.c) ---- */
enum atom_id {
    A_WM_PROTOCOLS, A_WM_S0, A_MANAGER, A_WM_STATE, A_UTF8_STRING,
    A_NET_SUPPORTED, A_NET_SUPPORTING_WM_CHECK, A_NET_WM_NAME,
    A_NET_WM_SYNC_REQUEST, A_NET_WM_SYNC_REQUEST_COUNTER,
    A_NET_WM_SYNC_DRAWN, A_NET_WM_SYNC_FENCES,
    A_NET_WM_FRAME_DRAWN, A_NET_WM_FRAME_TIMINGS, A_NET_WM_MOVERESIZE,
    A_NET_WM_CM_S0, A_FAKE_WM_TIMESTAMP, A_FAKE_WM_PAINT_STAMP, A_FRAMESYNC_WM_CONTROL,
    A_COUNT
};

struct xstate {
    xcb_connection_t *c;   /* window manager connection */
    xcb_connection_t *pc;  /* compositor connection (NULL with --no-composite) */
    xcb_screen_t *screen;  /* of c */
    xcb_window_t root;
    xcb_atom_t atom[A_COUNT];
    xcb_window_t check_win;   /* _NET_SUPPORTING_WM_CHECK and WM_S0 owner (on c); with cm-only
                               * only the window of the start-up timestamp */
    uint8_t sync_event_base;  /* on c */
    xcb_timestamp_t last_time; /* server time of the latest event seen (never 0 after start) */
};
extern struct xstate X;
static inline xcb_atom_t atom(enum atom_id a) { return X.atom[a]; }
const char *atom_name(enum atom_id a);
void note_time(xcb_timestamp_t t);

/* ---- windows (wm.c) ---- */
enum form { FORM_NONE, FORM_BASIC, FORM_EXTENDED };
const char *form_name(enum form f);

/* where a size change comes from: a client's own ConfigureRequest, or a step of an interactive
 * resize the WM runs (each step is handed to the same path as a client's request) */
enum resize_origin { ORIGIN_CLIENT, ORIGIN_KEYBOARD, ORIGIN_POINTER };
const char *origin_name(enum resize_origin o);

/* a counter followed with two alarms (PositiveComparison at v+1, NegativeComparison at v-1) */
struct follow {
    xcb_sync_counter_t counter;
    xcb_sync_alarm_t up, down;
    int64_t value;
    bool active;
};

#define MAX_PENDING_DRAWN 64
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

struct configure_req {
    uint16_t mask;
    int16_t x, y;
    uint16_t width, height, border_width;
    xcb_window_t sibling;
    uint8_t stack_mode;
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

    /* sync request protocol (syncreq.c) */
    enum form form;
    xcb_sync_counter_t counter1, counter2; /* as read from the property */
    xcb_sync_counter_t req_counter;  /* the one the requests are about */
    int64_t basic_value;      /* basic form: the WM's current value (0 at first) */
    int nrequests;
    int64_t last_requested;
    bool have_requested;
    int64_t seen_for_request; /* extended: "last value seen", base of the next request */
    bool waiting;
    int64_t wait_value;
    int64_t wait_deadline;    /* clock_now_us() */
    xcb_sync_alarm_t wait_alarm;
    bool queued;
    struct configure_req queue;
    enum resize_origin queue_origin; /* of the latest queued resize */
    bool interactive_fresh;   /* an interactive resize began and has sent no request yet */
    bool map_after_wait;      /* sync-at-map: MapWindow once the wait ends */
    struct follow freq;       /* extended: follows req_counter */
    struct follow fupd;       /* extended: follows the update counter (counter2) */

    /* delimited updates (composite.c) */
    bool odd;
    int64_t odd_since;
    bool hold_expired;
    bool odd_from_map;        /* this odd period began before the window was first shown */
    int64_t defer_until;      /* delayed-others: its damage is shown from then on (0: not delayed) */
    int counter_changes;      /* fault hostile-wedges: changes of its counters seen */
    int queued_configures;    /* fault hostile-wedges: resizes queued behind its requests */

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
    int64_t pending[MAX_PENDING_DRAWN]; /* completed updates not yet shown */
    int npending;

    /* fences (fences.c) */
    xcb_sync_fence_t fences[MAX_FENCES];
    int nfences;

    /* compositing (composite.c) */
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
    int64_t mapped_at;
    bool shown;       /* has a saved copy (was painted since it was mapped) */
};

/* all toplevels (children of the root), bottom to top */
extern struct win **stack;
extern int nstack;
struct win *win_find(xcb_window_t id);

void wm_start(void);                    /* selections, check window, redirect */
void wm_note_own_window(xcb_window_t id); /* not a client: never managed or painted */
void wm_handle_event(xcb_generic_event_t *ev);
void wm_apply_configure(struct win *w, const struct configure_req *r);
void wm_map(struct win *w);
void wm_check_timers(int64_t now);
int64_t wm_next_deadline(void);

/* ---- interactive resizes (moveresize.c): _NET_WM_MOVERESIZE, the grab, one at a time ---- */
void moveresize_client_message(const xcb_client_message_event_t *e);
void moveresize_window_gone(struct win *w);             /* unmanaged: end or forget its resize */
void moveresize_check_timers(int64_t now);              /* grab retries, compressed motion */
int64_t moveresize_next_deadline(void);
void interactive_configure(struct win *w, enum resize_origin o, const struct configure_req *r);

/* ---- keyboard resizing (keyresize.c): SIZE_KEYBOARD + arrow keys ---- */
uint8_t kbd_resize_grab(void);                          /* one GrabKeyboard attempt: its status */
void kbd_resize_begin(struct win *w, uint32_t source);  /* the keyboard is grabbed */
bool kbd_resize_running(xcb_window_t *which);
void kbd_resize_end(const char *why);
void kbd_resize_key_press(const xcb_key_press_event_t *e);
void kbd_resize_mapping_changed(void);                  /* MappingNotify: re-read the keymap */
void kbd_resize_window_gone(struct win *w);             /* unmanaged: end its resize */

/* ---- pointer resizing (pointerresize.c): SIZE_TOPLEFT..SIZE_LEFT + the held button ---- */
struct ptr_start {
    uint32_t dir;           /* 0..7 */
    int16_t root_x, root_y; /* the pointer when the client sent the message */
    uint32_t button;        /* l[3]: the button held (0: any) */
};
bool ptr_resize_button_down(void);                      /* QueryPointer: is any button held? */
uint8_t ptr_resize_grab(void);                          /* one GrabPointer attempt: its status */
void ptr_resize_begin(struct win *w, const struct ptr_start *start, uint32_t source);
bool ptr_resize_running(xcb_window_t *which);
void ptr_resize_end(const char *why);
void ptr_resize_motion(const xcb_motion_notify_event_t *e);
void ptr_resize_button_release(const xcb_button_release_event_t *e);
bool ptr_resize_motion_pending(void);
void ptr_resize_flush_motion(void);                     /* apply the latest motion seen */
void ptr_resize_window_gone(struct win *w);

/* ---- sync request protocol (syncreq.c) ---- */
void sync_manage(struct win *w);                 /* read properties, choose form, set counter */
void sync_unmanage(struct win *w);               /* free alarms */
void sync_configure_request(struct win *w, const struct configure_req *r, enum resize_origin o);
/* a sync request, then the configure, also when the size does not change (control.c's move) */
void sync_forced_configure(struct win *w, const struct configure_req *r);
/* the geometry w is going to have: what is queued behind an unanswered request counts */
void sync_target_geometry(const struct win *w, int16_t *x, int16_t *y, uint16_t *wd, uint16_t *ht);
void sync_wait_done(struct win *w, const char *why);
void sync_interactive_started(struct win *w);     /* a keyboard or pointer resize of w begins */
bool sync_request_at_map(struct win *w);         /* sync-at-map: true when the map waits */
bool sync_handle_alarm(const xcb_sync_alarm_notify_event_t *ev);
void sync_check_timers(int64_t now);
int64_t sync_next_deadline(void);

/* ---- counters and alarms (counters.c) ---- */
bool counter_query(xcb_sync_counter_t c, int64_t *value);   /* false: not a counter */
void counter_set(xcb_sync_counter_t c, int64_t value);
xcb_sync_alarm_t alarm_create(xcb_sync_counter_t c, int64_t value, uint32_t test, int64_t delta);
void alarm_change(xcb_sync_alarm_t a, int64_t value);
void alarm_destroy(xcb_sync_alarm_t a);
void follow_start(struct follow *f, xcb_sync_counter_t c, int64_t value);
void follow_stop(struct follow *f);
void follow_rearm(struct follow *f);

/* ---- compositing (composite.c) ---- */
void comp_start(void);
void comp_handle_event(xcb_generic_event_t *ev);
void comp_window_created(struct win *w);  /* a new toplevel: its DAMAGE object, before any map */
void comp_window_mapped(struct win *w);
void comp_window_unmapped(struct win *w);
void comp_window_configured(struct win *w, bool resized, bool moved_or_restacked);
void comp_window_destroyed(struct win *w);
void comp_counter_changed(struct win *w, int64_t old, int64_t value); /* update counter */
void comp_counter_gone(struct win *w);
void comp_schedule(void);            /* something changed: repaint at the next refresh */
void comp_tick(int64_t now);         /* paint if due */
int64_t comp_next_deadline(void);
int comp_fd(void);

/* the snapshot of w's live contents into a new frame (the caller took care of fences) */
bool comp_snapshot(struct win *w, struct frame *f);
void comp_free_frame(struct frame *f);
void comp_show_frame(struct win *w, struct frame *f); /* f becomes the saved copy (w owns it) */

/* ---- staged frames (stage.c): paint-delay and compress-every ---- */
bool stage_update(struct win *w, int64_t value, int64_t now); /* true: staged, shown later */
bool stage_holding(const struct win *w);
void stage_release_due(int64_t now);
int64_t stage_next_deadline(void);
void stage_forget(struct win *w);

/* ---- fade-in (fade.c): the variant's opacity ramp of newly mapped windows ---- */
void fade_window_mapped(struct win *w);
void fade_window_unmapped(struct win *w);
void fade_update_completed(struct win *w);       /* later updates: full opacity */
uint16_t fade_alpha(struct win *w, int64_t now); /* painting w now: its opacity, 0..0xffff */
bool fade_running(const struct win *w);

/* ---- drawn messages (drawn.c) ---- */
bool drawn_enabled_for(const struct win *w);   /* extended window, compositing, profile */
void drawn_window_mapped(struct win *w, int64_t value, bool odd);
void drawn_update_completed(struct win *w, int64_t value);
/* a paint is being issued and shows w: collect the updates it shows */
void drawn_collect(struct win *w);
/* the server has processed that paint (at server_time): send the messages */
void drawn_paint_done(xcb_timestamp_t server_time);
void drawn_tick(int64_t now);                   /* drawn-delay: send the messages that are due */
int64_t drawn_next_deadline(void);
void drawn_forget(struct win *w);

/* ---- fences (fences.c) ---- */
void fences_read(struct win *w);                 /* at map */
void fences_start(void);                         /* own fence (compositor connection) */
/* before snapshotting update N of w: AwaitFence on the client fence or own fence;
 * returns the client fence awaited (for the timeout) or XCB_NONE */
xcb_sync_fence_t fences_before_update(struct win *w, int64_t n);
void fences_after_update(xcb_sync_fence_t f);
void fences_own_before_paint(void);              /* damage outside updates */
void fences_timeout(xcb_sync_fence_t f, const struct win *w);

/* ---- helpers (main.c) ---- */
void wm_sync_events(void); /* round trip on the WM connection and handle what it brought */
void x_flush(void);
bool connection_ok(void);
#endif
