/* An oracle observes one side of what the compositor did and writes timestamped records into
 * the case's timeline under its own source name ("screen": what is on screen; "wm": what the
 * compositor asked of the X server).  Cases read them with `wait`/`none` like any client's
 * records; the verdict code never talks to an oracle directly. */
#ifndef FRAMESYNC_ORACLE_H
#define FRAMESYNC_ORACLE_H

#include <stddef.h>

struct session;
struct record;

struct oracle {
    const char *name;   /* the source name of its records */
    int fd;             /* polled by session_pump while a case runs; -1: none */
    /* The fd is readable: take what arrived, add records with session_add_record(). */
    void (*readable)(struct oracle *o, struct session *s);
    /* Every record another source added (e.g. a client's `done cmd=create window=...`), so the
     * oracle learns the case's windows and counters. May be NULL. */
    void (*observe)(struct oracle *o, struct session *s, const struct record *r);
    /* Around each case; may be NULL. */
    void (*case_begin)(struct oracle *o, struct session *s);
    void (*case_end)(struct oracle *o, struct session *s);
    /* Writes what it sees of the whole screen to a PNG at path (the picture of a failure for the
     * reports); -1 with err.  May be NULL (an oracle that sees no screen). */
    int (*snapshot)(struct oracle *o, const char *path, char *err, size_t errlen);
    /* Frees it (its connection, its state and o itself). */
    void (*destroy)(struct oracle *o);
    void *state;
};

#endif
