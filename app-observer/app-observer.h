/* app-observer: observes a real application (the client under test) for the client side of the
 * suite, and reports what it does in the fake client's record language (scripted-client/PROTOCOL.md
 * "Records"), so that cases read it with `wait A KIND ...` like any fake client's records.
 * See app-observer/README.md. */
#ifndef FRAMESYNC_WATCH_H
#define FRAMESYNC_WATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>

/* ---- output (main.c): one record a line on stdout, `t=` first ---- */
void out_record(const char *kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void logw(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- the atoms the decoder names ---- */
enum watch_atom {
    WA_WM_PROTOCOLS, WA_SYNC_REQUEST, WA_SYNC_REQUEST_COUNTER, WA_SYNC_FENCES, WA_SYNC_DRAWN,
    WA_FRAME_DRAWN, WA_FRAME_TIMINGS, WA_CONTROL, WA_COUNT
};

struct watch {
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
};
extern struct watch W;

/* ---- RECORD (recorder.c) ---- */
/* Creates the context on rc: future clients, i.e. the application (started later) and ctl
 * (connected after this, for its damage events); -1 with a message on stderr. */
int recorder_create(void);
/* Enables it on the data connection and waits for the start of data. */
int recorder_enable(void);
/* Takes every RECORD reply that has arrived and hands its elements to the decoder. */
void recorder_take(void);

/* ---- decoding and state (decode.c) ---- */
void decode_request(uint32_t base, const uint8_t *req, size_t len);
void decode_event(uint32_t base, const uint8_t *ev);
/* An atom's name (cached); "" when unknown. */
const char *atom_text(xcb_atom_t a);

/* ---- commands from the harness (commands.c) ---- */
/* Runs one command line; prints `done` or `error`. */
void command_run(char *line);
/* What an earlier case asked of fake-wm's control channel is undone before the application starts. */
void commands_reset_compositor(void);

#endif
