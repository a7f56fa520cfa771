/* One case's live state: its fake clients (driven over pipes, see fake-clients/scripted-client/PROTOCOL.md),
 * the timeline their reports go into, the records bound by `as`, and the cursors that make each
 * `wait` take the next record of its kind. */
#ifndef FRAMESYNC_SESSION_H
#define FRAMESYNC_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include "proc.h"
#include "oracle.h"
#include "timeline.h"

#define SESSION_MAX_CLIENTS 8
#define SESSION_MAX_ORACLES 4

struct client {
    char name[16];
    struct proc *proc;
    int in_fd, out_fd;
    char buf[65536];
    size_t len;
    bool eof;
    bool under_test;   /* app-observer: it runs the application under test (--client) */
    char stderr_path[512];
};

struct binding {
    char *name;
    const struct record *rec;
};

struct cursor {
    char source[32];
    char kind[48];
    char subject[32]; /* "" or the client a screen record is about: one cursor per window */
    int seq;
};

struct session {
    struct timeline tl;
    struct client clients[SESSION_MAX_CLIENTS];
    int nclients;
    struct binding vars[64];
    int nvars;
    struct cursor cursors[64];
    int ncursors;
    struct oracle *oracles[SESSION_MAX_ORACLES];
    int noracles;
    const char *client_binary;
    int input_fd;                /* the compositor's input path, given to the fake clients
                                    (FRAMESYNC_INPUT_FD), or -1: they use XTEST */
    int input_barrier;           /* ... and the barrier before each of its events (FRAMESYNC_INPUT_BARRIER,
                                    common/input-barrier.h; 0: none) */
    const char *log_prefix;      /* e.g. ".../logs/ewmh-1.5/basic-request-layout" */
    /* the application under test (app-observer's records): whether it mapped a toplevel, and its
     * `app-exit` record when it ended by itself (the observer then ends too) */
    bool app_mapped;
    const struct record *app_exit;
    const struct client *app_exit_client;
    /* a shared application (app-keep.h): it came from an earlier case (kept running), and the
     * timeline's length when the harness first sent it a command (0: not yet), which ends the
     * records of its start that a later case is shown again */
    bool app_reused;
    int app_commanded_at;
};

void session_init(struct session *s, const char *client_binary, const char *log_prefix);
/* Ends every client (and with it what it runs: an application under test); the timeline, the
 * bindings and the count of clients stay, for the case's log. */
void session_stop_clients(struct session *s);
/* Ends every client and frees everything but nothing printed. */
void session_free(struct session *s);

/* Starts fake client NAME and waits for its `ready`; -1 with err on failure. */
int session_add_client(struct session *s, const char *name, int timeout_ms, char *err, size_t len);
/* The same with another program speaking the fake client's line protocol. */
int session_add_client_binary(struct session *s, const char *name, const char *binary, int timeout_ms, char *err,
                              size_t len);
/* The observer of the application under test (app-observer/app-observer, which starts it): its
 * `map-window` and `app-exit` records are noted in app_mapped and app_exit. */
int session_add_app_observer(struct session *s, const char *name, const char *binary, int timeout_ms, char *err,
                             size_t len);
/* Reads what the clients have already written, without waiting (a last look before they are
 * stopped: an application that ended just before shows its `app-exit`). */
void session_drain(struct session *s);
/* A shared application's observer (app-keep.h): taken into the session as its client (the copy's
 * process and pipes are the session's from now on), or let go by it (the session no longer
 * stops it); a record of it put on the timeline as if it had just reported it. */
struct client *session_adopt_client(struct session *s, const struct client *c);
void session_release_client(struct client *c);
void session_take_record(struct session *s, const struct client *c, struct record *r);
struct client *session_client(struct session *s, const char *name);

/* Sends one command line and waits for its done/error record (returned), or NULL with err. */
const struct record *session_command(struct session *s, struct client *c, const char *line,
                                     int timeout_ms, char *err, size_t len);

/* Reads whatever the clients report until deadline_us or until something arrived; returns the
 * number of new records.  extra_fd (or -1) also wakes it. */
int session_pump(struct session *s, int64_t deadline_us, int extra_fd);

/* The first record of (source, kind) after that pair's cursor that passes match(); advances the
 * cursor when take is set. */
typedef bool (*record_match_fn)(void *ctx, const struct record *r);
const struct record *session_find(struct session *s, const char *source, const char *kind,
                                  record_match_fn match, void *ctx, bool take);
/* The same, with the cursor of (source, kind, subject): `wait screen shows client=B` takes the
 * next record about B, whatever was taken about A meanwhile (the compositor paints the two in
 * either order). */
const struct record *session_find_about(struct session *s, const char *source, const char *kind,
                                        const char *subject, record_match_fn match, void *ctx, bool take);

/* The same, searching from the record after after_seq instead of the cursor when after_seq >= 0
 * (a step's `after=VAR`: an explicit anchor overrides the cursor, so `none ... after=d2` also sees
 * records a later `wait` stepped over); the cursor still moves when take is set. */
const struct record *session_find_from(struct session *s, const char *source, const char *kind,
                                       const char *subject, int after_seq, record_match_fn match, void *ctx,
                                       bool take);

/* Adds a record to the timeline and shows it to the oracles (all sources go through here). */
struct record *session_add_record(struct session *s, struct record *r);
/* Oracles take part in the case from here on: polled by session_pump, case_begin called. */
void session_attach_oracle(struct session *s, struct oracle *o);
/* ... and no more (case_end called): before the oracles go with their X server (a compositor
 * that brings its own is stopped while the case's session is still to be logged). */
void session_detach_oracles(struct session *s);

void session_bind(struct session *s, const char *name, const struct record *r);
const struct record *session_lookup(struct session *s, const char *name, size_t len);

/* A note from the harness itself (step markers), on the same timeline. */
void session_note(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
