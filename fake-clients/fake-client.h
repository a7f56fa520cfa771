/* fake-client: one scripted X client playing the application side of frame synchronization.
 * The line protocol it speaks is fake-clients/PROTOCOL.md; this header is the state the parts
 * share.  Everything is single-threaded: one poll() loop in fake-client.c drives it all. */
#ifndef FAKE_CLIENT_H
#define FAKE_CLIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>
#include <xcb/sync.h>

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
    int64_t due_us; /* CLOCK_MONOTONIC µs deadline of the current state, 0 when none */
};

/* Interned once at start-up. */
struct atoms {
    xcb_atom_t wm_protocols, wm_delete_window, wm_take_focus, wm_name, wm_class;
    xcb_atom_t net_wm_name, utf8_string, net_wm_pid;
    xcb_atom_t net_wm_ping, net_wm_sync_request, net_wm_sync_request_counter;
    xcb_atom_t net_wm_sync_drawn, net_wm_frame_drawn, net_wm_frame_timings;
    xcb_atom_t net_wm_sync_fences;
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
};

/* A command in progress: the checked requests it made, so that X errors on them are reported as
 * its `error` and not as asynchronous `x-error` records. */
struct cmd {
    const char *word;
    xcb_void_cookie_t cookies[FC_MAX_TRACKED];
    int ncookies;
};

/* record.c: output records, atom names, X error text */
void record(const char *kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void logmsg(struct client *cl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *atom_name(struct client *cl, xcb_atom_t atom); /* "" when none / not an atom */
void x_error_text(char *buf, size_t len, const xcb_generic_error_t *e);
void record_x_error(const xcb_generic_error_t *e);

/* xutil.c: round trips, checked requests, painting, properties */
bool round_trip(struct client *cl);
void cmd_track(struct cmd *cmd, xcb_void_cookie_t cookie);
bool cmd_check(struct client *cl, struct cmd *cmd, char *msg, size_t len);
xcb_atom_t intern(struct client *cl, const char *name, bool only_if_exists);
uint32_t rgb_to_pixel(const struct client *cl, uint32_t rgb);
xcb_void_cookie_t paint(struct client *cl, uint32_t rgb, bool checked);
void repaint_current(struct client *cl);
int64_t sync_value(xcb_sync_int64_t v);
xcb_sync_int64_t sync_int64(int64_t v);

/* counters.c */
void counters_destroy_all(struct client *cl, struct cmd *cmd);
bool counter_create(struct client *cl, struct cmd *cmd, int index, int64_t init);
void counter_set(struct client *cl, struct cmd *cmd, int index, int64_t value, const char *reason);
bool counter_query(struct client *cl, int index, int64_t *value, char *msg, size_t len);
void counter_destroy(struct client *cl, struct cmd *cmd, int index);
int update_counter_index(const struct client *cl);
void counters_on_alarm(struct client *cl, const xcb_sync_alarm_notify_event_t *ev);

/* interactive.c: the `interactive-resize` command (a handler of commands.c's table) */
bool cmd_interactive_resize(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                            char *msg);

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
void timer_rearm(struct client *cl);

/* commands.c */
void command_run(struct client *cl, char *line);
extern bool quit_requested;

#endif
