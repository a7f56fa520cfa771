/* The timeline of one case: every record observed (fake clients' reports, the harness's own
 * step markers, later the oracles'), in arrival order, on one clock (CLOCK_MONOTONIC us).
 * Expectations are checked against it and failures print it. */
#ifndef FRAMESYNC_TIMELINE_H
#define FRAMESYNC_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define RECORD_MAX_FIELDS 24

struct field {
    char *key;
    char *value;
};

struct record {
    int seq;               /* position in the timeline, from 1 */
    int64_t t_us;          /* absolute, CLOCK_MONOTONIC */
    char source[32];       /* "A" (a client), "harness", "screen", "wm" */
    char *kind;            /* "sync-request", "configure-notify", "step" ... */
    int nfields;
    struct field fields[RECORD_MAX_FIELDS];
    char *line;            /* the record as received, for the log */
};

struct timeline {
    struct record **recs;
    int n, cap;
    int64_t start_us;      /* case start: times are printed relative to it */
};

void timeline_init(struct timeline *tl, int64_t start_us);
void timeline_free(struct timeline *tl);

/* Parses "kind t=123 key=value ... msg=free text" (msg takes the rest of the line).
 * Returns NULL on a malformed line. The record is not yet in a timeline. */
struct record *record_parse(const char *source, const char *line);
/* Makes a record from printf-style "kind key=value ..." with t = now (harness notes). */
struct record *record_make(const char *source, int64_t t_us, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void record_free(struct record *r);
const char *record_get(const struct record *r, const char *key);

/* Takes ownership; assigns seq. */
struct record *timeline_add(struct timeline *tl, struct record *r);

/* "  +12.345 ms  A      sync-request value=5 ..." one line per record to f, each line prefixed. */
void timeline_print(const struct timeline *tl, FILE *f, const char *prefix, int mark_seq);
void record_print(const struct timeline *tl, const struct record *r, FILE *f);

#endif
