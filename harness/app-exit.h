/* The application under test (--client) ending by itself, as its observer reports it
 * (app-observer's `app-exit status signal` record, app-observer/README.md):
 * - once it has mapped a window in this run it had started: its end during a case or a probe is
 *   a finding of its own, a FAIL under client/crash (level defect, like compositor/crash), that
 *   says what it did (exit status or signal), when, during what, and the last lines it printed;
 *   never an UNRESOLVED of the harness, nor a feature it lacks;
 * - before it ever mapped a window it did not start (not found, not executable, exited at once):
 *   an input error, like a compositor that ends before it is ready (exit status 2). */
#ifndef FRAMESYNC_APP_EXIT_H
#define FRAMESYNC_APP_EXIT_H

#include "run.h"
#include "session.h"

#define CLIENT_CRASH_CLAUSE "client/crash"
/* The source of a feature left unknown because the application crashed in each run of its probe
 * (or of the probe of a feature it needs); its detail names that probe.  A case that needs it is
 * the crash's FAIL, whose reason is APP_NOT_RUN and the detail. */
#define APP_CRASH_SOURCE "client-crash"
#define APP_NOT_RUN "not run: "
/* How many of its last output lines a message quotes. */
#define APP_TAIL_LINES 8

/* "exited with status 3", "killed by signal 11 (Segmentation fault)"; /bin/sh's 126 and 127 (the
 * command line runs in it) are said in words. */
void app_exit_describe(const struct record *app_exit, char *buf, size_t len);
/* The last max_lines lines the application printed: its observer's log (where its stdout and
 * stderr go) less the observer's own lines; "" when it printed nothing. */
void app_output_tail(const char *log_path, int max_lines, char *out, size_t len);
/* Is res already the application's crash? */
bool app_is_crash(const struct result *res);
/* Turns res into the application's crash (s->app_exit set): a FAIL under client/crash with what it
 * did, when, `during` what ("`wait A toplevel ...`", "its probe"), its last lines, and what the
 * run had seen before. */
void app_crash_verdict(struct result *res, const struct session *s, const char *during);
/* The message for an application that ended before it ever mapped a window (s->app_exit set). */
void app_not_started_reason(const struct session *s, char *out, size_t len);

#endif
