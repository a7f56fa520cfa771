/* scripted-client: one scripted X client playing the application side of frame synchronization.
 * The line protocol it speaks is scripted-client/PROTOCOL.md; this header is the state the parts
 * share.  Everything is single-threaded: one poll() loop in scripted-client.c drives it all. */
#ifndef FRAMESYNC_SCRIPTED_CLIENT_H
#define FRAMESYNC_SCRIPTED_CLIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>
#include <xcb/sync.h>

#include "monitors.h"
#include "xhelpers.h"

#define FC_MAX_COUNTERS 2
#define FC_MAX_FENCES 64
#define FC_MAX_TRACKED 256 /* checked requests one command may make */

/* One XSync counter we created, and the two alarms that report every change of it. */
struct counter {
    xcb_sync_counter_t id;   /* 0: never created */
    bool alive;              /* false after destroy-counter (the XID is kept for hostile use) */
    xcb_sync_alarm_t up;     /* PositiveComparison at value+1 */
    xcb_sync_alarm_t down;   /* NegativeComparison at value-1 */
    int64_t reported;        /* last value reported in counter-change (dedupe) */
    int64_t last_set;        /* the last value this client set (counter-change self=1) */
    bool has_set;
};

enum answer_policy { ANSWER_CORRECT, ANSWER_NEVER, ANSWER_WRONG, ANSWER_LATE };

enum answer_state {
    ANSWER_IDLE,           /* no request outstanding */
    ANSWER_WAIT_CONFIGURE, /* request seen, waiting for its ConfigureNotify (or 50 ms) */
    ANSWER_WAIT_LATE,      /* would have answered; policy late delays it to due_us */
};

struct answer {
    enum answer_policy policy;
    int64_t late_ms;
    enum answer_state state;
    int64_t value;  /* the last requested value (several requests: answered once, the last) */
    int64_t missed;   /* the first request policy never left unanswered since the last answer-missed */
    bool have_missed;
    int64_t due_us; /* CLOCK_MONOTONIC µs deadline of the current state, 0 when none */
};

/* resize.c: one size change made the way the WM under test synchronises it (PROTOCOL.md). */
enum resize_trigger { TRIGGER_CONFIGURE, TRIGGER_KEYBOARD, TRIGGER_POINTER, TRIGGER_MAP };

enum resize_phase {
    RESIZE_IDLE,
    RESIZE_WAIT_GRAB,     /* _NET_WM_MOVERESIZE sent: until the WM holds the keyboard/pointer */
    RESIZE_WAIT_SEAT,     /* seat path, pointer: until Xwayland shows the motion, then the button */
    RESIZE_WAIT_UNMAP,    /* trigger map: until the window is withdrawn */
    RESIZE_WAIT_REACTION, /* the step made: until a sync request or a new size */
    RESIZE_SETTLE,        /* not held: until the client answered, then the resize is ended */
    RESIZE_WAIT_RELEASE,  /* the resize ended (Return, button release): until the WM lets its grab go */
};

struct resize {
    bool active;                   /* a `resize` command runs: its `done` is still to come */
    char word[24];
    enum resize_trigger trigger;
    enum resize_phase phase;
    bool hold;
    bool want_request;             /* `request`: a new size without a sync request is not the end */
    int unsynced;                  /* steps the WM answered with a new size but no sync request */
    bool open;                     /* an interactive resize is open (the WM holds its grab) */
    enum resize_trigger open_trigger;
    bool reacted_once;             /* the WM reacted to a step of the open resize */
    bool continued, grab_before;
    int target_w, target_h;
    int start_w, start_h;          /* pointer: the size and corner when the press was made */
    int corner_x, corner_y;
    int jiggle;
    int presses;
    int64_t grab_ms;
    int64_t began_us, due_us, step_deadline_us, grab_deadline_us;
    uint64_t requests_before, resized_before, mapped_before, unmapped_before;
    char how[16];
    bool release_pointer;          /* RESIZE_WAIT_RELEASE: which grab */
    bool released;                 /* ... and whether the WM let it go in time */
    bool ended_open;               /* resize-end: an interactive resize was open */
    int64_t release_deadline_us;
    bool seat_button_down;         /* RESIZE_WAIT_SEAT: the press was sent (else the motion) */
    int64_t seat_deadline_us;
    uint64_t keypresses_before;    /* seat path: the key sent after the end of a resize */
    bool input_ok;                 /* the end's input was taken */
};

/* Interned once at start-up. */
struct atoms {
    xcb_atom_t wm_protocols, wm_delete_window, wm_take_focus, wm_name, wm_class;
    xcb_atom_t net_wm_name, utf8_string, net_wm_pid;
    xcb_atom_t net_wm_ping, net_wm_sync_request, net_wm_sync_request_counter;
    xcb_atom_t net_wm_sync_drawn, net_wm_frame_drawn, net_wm_frame_timings;
    xcb_atom_t net_wm_sync_fences, net_wm_fullscreen_monitors;
};

struct client {
    xcb_connection_t *c;
    xcb_screen_t *screen;
    xcb_visualtype_t *visual; /* the root visual, to turn 0xRRGGBB into a pixel */
    const char *name;
    uint8_t sync_first_event, sync_major;
    struct atoms atoms;
    int timerfd;

    xcb_window_t win; /* 0: none (not created yet, or destroyed) */
    int win_w, win_h; /* last known size, to see resizes */
    xcb_gcontext_t gc;
    bool painted;     /* a fill happened: a resize repaints `colour` */
    uint32_t colour;  /* 0xRRGGBB of the current frame (or of the last `fill`) */

    struct counter counters[FC_MAX_COUNTERS];
    int ncounters; /* 1 = basic form, 2 = extended form */
    xcb_sync_fence_t fences[FC_MAX_FENCES];
    int nfences;
    int alarm_rearms; /* ChangeAlarms sent since command_run last looked */

    struct answer answer;

    /* what the WM did to the window, counted for resize.c */
    uint64_t nrequests;   /* _NET_WM_SYNC_REQUEST messages */
    uint64_t nresized;    /* ConfigureNotify events that changed the size */
    uint64_t nmapped, nunmapped;
    uint64_t nkeypresses; /* KeyPress events of the window (selected on the seat path only) */
    /* barrier.c: the input barrier's messages sent, and the WM's writes that answer them; counter
     * writes of this client (an answer made while a barrier waits needs a barrier of its own) */
    uint64_t nbarriers, nbarrier_writes, ncounter_sets;
    int resize_timerfd;
    struct resize resize;

    /* monitors.c: the two monitors of the last `monitors two` (left to right), and whether this
     * client made them (then it deletes them again: `monitors remove`, and at every exit it makes) */
    struct monitor_rect monitors[2];
    int nmonitors;
    bool made_monitors;

    bool quit_requested; /* `quit`: the main loop ends after this command */
};

/* A command in progress: the checked requests it made, so that X errors on them are reported as
 * its `error` and not as asynchronous `x-error` records. */
struct cmd {
    const char *word;
    bool deferred; /* the handler answers later itself (resize) */
    xcb_void_cookie_t cookies[FC_MAX_TRACKED];
    int ncookies;
};

/* record.c: output records, atom names, X error text */
void record(const char *kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void logmsg(struct client *cl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *atom_name(struct client *cl, xcb_atom_t atom); /* "" when none / not an atom */
void x_error_text(char *buf, size_t len, const xcb_generic_error_t *e);
void record_x_error(const xcb_generic_error_t *e);

/* xutil.c: checked requests, painting, properties (round trips: xhelpers.h) */
void cmd_track(struct cmd *cmd, xcb_void_cookie_t cookie);
bool cmd_check(struct client *cl, struct cmd *cmd, char *msg, size_t len);
xcb_atom_t intern(struct client *cl, const char *name, bool only_if_exists);
uint32_t rgb_to_pixel(const struct client *cl, uint32_t rgb);
xcb_void_cookie_t paint(struct client *cl, uint32_t rgb, bool checked);
void repaint_current(struct client *cl);
/* ICCCM 4.1.4: UnmapWindow and the synthetic UnmapNotify to the root that tells the WM the window
 * is withdrawn (cmd: a command's checked requests, or NULL) */
void withdraw_window(struct client *cl, struct cmd *cmd);

/* counters.c */
void counters_destroy_all(struct client *cl, struct cmd *cmd);
bool counter_create(struct client *cl, struct cmd *cmd, int index, int64_t init);
void counter_set(struct client *cl, struct cmd *cmd, int index, int64_t value, const char *reason);
bool counter_query(struct client *cl, int index, int64_t *value, char *msg, size_t len);
void counter_destroy(struct client *cl, struct cmd *cmd, int index);
int update_counter_index(const struct client *cl);
void counters_on_alarm(struct client *cl, const xcb_sync_alarm_notify_event_t *ev);

bool resize_parse_trigger(const char *s, enum resize_trigger *out);
/* Starts a resize step; its `done cmd=WORD ...` is recorded when it is over. */
bool resize_begin(struct client *cl, const char *word, int w, int h, enum resize_trigger trigger, bool hold,
                  bool want_request, int within_ms, char *msg);
/* Ends an open interactive resize (Return / button release); extra gets the done fields. */
/* Ends an open interactive resize (deferred: its `done` comes once the WM let its grab go). */
void resize_end(struct client *cl);
bool resize_active(const struct client *cl);
void resize_poll(struct client *cl);     /* after every batch of events */
void resize_on_timer(struct client *cl);

/* input.c: the input of an interactive resize, through XTEST or the compositor's own seat (the
 * helper FRAMESYNC_INPUT_FD names); false when the seat's helper refused or did not answer */
bool input_via_seat(void);
bool input_key(struct client *cl, uint32_t keysym);                     /* press and release */
xcb_keycode_t input_keycode(struct client *cl, uint32_t keysym);        /* in the X keymap; 0: none */
bool input_motion(struct client *cl, int x, int y);                    /* root coordinates */
bool input_button(struct client *cl, bool down);                       /* button 1 */
/* Xwayland shows the pointer at x y (and, with button1, button 1 down): QueryPointer; where it
 * shows it goes to seen_x, seen_y */
bool input_pointer_shows(struct client *cl, int x, int y, bool button1, int *seen_x, int *seen_y);
const char *input_error(void); /* why the last input_* call failed */
int64_t input_barrier_spent_us(void); /* time spent in input barriers since the last call */

/* barrier.c: the barrier before an event through the seat (common/input-barrier.h), of the kind
 * FRAMESYNC_INPUT_BARRIER names (-1: none of them; unset: none).  True once the WM answered it
 * (took_us: how long that took; -1 when there is no barrier), or at once without one; false with
 * err when it did not answer in time (event: what was not sent, for the message). */
int barrier_kind(void);
bool barrier_before_input(struct client *cl, const char *event, int64_t *took_us, char *err, size_t len);

/* messages.c */
void messages_on_client_message(struct client *cl, const xcb_client_message_event_t *ev);

/* events.c */
void events_dispatch(struct client *cl, xcb_generic_event_t *ev);
void events_drain_queued(struct client *cl);

/* answer.c */
void answer_on_request(struct client *cl, int64_t value);
void answer_on_configure(struct client *cl);
void answer_on_timer(struct client *cl);
bool answer_set_policy(struct client *cl, const char *policy, const char *arg, char *msg, size_t len);
/* `answer-missed`: answers now the first request that policy never left unanswered */
bool answer_missed(struct client *cl, struct cmd *cmd, char *extra, size_t extra_len, char *msg, size_t len);
void timer_rearm(struct client *cl);

/* monitors.c: deletes the monitors this client made (at exit; nothing when it made none) */
void monitors_remove_own(struct client *cl, struct cmd *cmd);

/* commands.c: runs one command line; its `done` or `error` is recorded (resize: later) */
void command_run(struct client *cl, char *line);

#endif
