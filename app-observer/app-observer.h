/* app-observer: observes a real application (the client under test) for the client side of the
 * suite, and reports what it does in the scripted client's record language (fake-clients/scripted-client/PROTOCOL.md
 * "Records"), so that cases read it with `wait A KIND ...` like any scripted client's records.
 * See app-observer/README.md. */
#ifndef FRAMESYNC_APP_OBSERVER_H
#define FRAMESYNC_APP_OBSERVER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <xcb/xcb.h>

/* ---- the atoms the decoder names ---- */
enum observer_atom {
    WA_WM_PROTOCOLS, WA_SYNC_REQUEST, WA_SYNC_REQUEST_COUNTER, WA_SYNC_FENCES, WA_SYNC_DRAWN,
    WA_FRAME_DRAWN, WA_FRAME_TIMINGS, WA_CONTROL, WA_NOTE, WA_COUNT
};

/* The observer's state: made in main() and passed down to every part (no part reaches into
 * another's globals).  The decoder's tables of the application's windows and counters are
 * decode.c's own. */
struct observer {
    const char *name;          /* --name: the case's source name, in log lines */
    pid_t app_pid;             /* the application (this process's child), or 0 */
    xcb_connection_t *rc;      /* RECORD's control connection: creates the context, names atoms */
    xcb_connection_t *ctl;     /* opened after the context (so its DamageNotify events are
                                * recorded): the damage objects, commands to fake-wm */
    xcb_connection_t *data;    /* only RECORD EnableContext replies */
    xcb_window_t root;
    uint32_t id_mask;
    uint32_t own_base;         /* ctl's XID base: its requests are not the application's */
    uint32_t wm_base[2];       /* the owners of WM_S0 and _NET_WM_CM_S0: their SendEvents recorded */
    uint8_t sync_major, damage_event, damage_major;
    xcb_atom_t atoms[WA_COUNT];
    xcb_window_t toplevel;     /* the application's first mapped toplevel, or 0 */
    uint32_t record_ctx;       /* the RECORD context (recorder.c) */
    unsigned int enable_seq;   /* the sequence number of its EnableContext: every reply's */
    /* the client's state (commands.c, `state idle|animating`): its drawing by itself */
    int64_t last_app_damage_us; /* its last DamageNotify of the toplevel with cause=app, or 0 */
    int state_goal;            /* 0: none asked; 1: idle; 2: animating */
    int64_t state_asked_us;
    int state_draws;           /* animating: its draws since it was asked */
    int64_t state_first_draw_us;
    bool focus_taken;          /* idle: the input focus was taken from it (a text cursor blinks only
                                  in a focused window); `state animating` gives it back */
};

/* ---- output (output.c): one record a line on stdout, `t=` first (clock_now_us); log lines on
 * stderr, named after the observer ---- */
void out_record(const char *kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void logw(const struct observer *ob, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- RECORD (recorder.c) ---- */
/* Creates the context on rc: future clients, i.e. the application (started later) and ctl
 * (connected after this, for its damage events); -1 with a message on stderr. */
int recorder_create(struct observer *ob);
/* Enables it on the data connection and waits for the start of data. */
int recorder_enable(struct observer *ob);
/* Takes every RECORD reply that has arrived and hands its elements to the decoder. */
void recorder_take(struct observer *ob);

/* ---- decoding and state (decode.c) ---- */
void decode_request(struct observer *ob, uint32_t base, const uint8_t *req, size_t len);
void decode_event(struct observer *ob, uint32_t base, const uint8_t *ev);
/* Forgets every window, counter and fence (the fuzz target decodes one stream per input). */
void decode_reset(void);
/* An atom's name (cached); "" when unknown. */
const char *atom_text(const struct observer *ob, xcb_atom_t a);

/* ---- commands from the harness (commands.c) ---- */
/* Runs one command line; prints `done` or `error`. */
void command_run(struct observer *ob, char *line);
/* What an earlier case asked of fake-wm's control channel is undone before the application starts. */
void commands_reset_compositor(struct observer *ob);
/* The application drew into its toplevel (a DamageNotify with cause=app), at t_us. */
void state_app_drew(struct observer *ob, int64_t t_us);
/* The `state` record once the state asked for is reached, or cannot be (called every pass of
 * the main loop, at least every 100 ms). */
void state_tick(struct observer *ob);

#endif
