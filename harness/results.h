/* results.json: the machine-readable record of a run (per case and profile: verdict, clauses,
 * times, diagnostics), rewritten whole after every case so an interrupted run still leaves a
 * complete document.  The Python reports (JUnit, HTML, matrix, self-test) read this file. */
#ifndef FRAMESYNC_RESULTS_H
#define FRAMESYNC_RESULTS_H

#include "caseparse.h"
#include "catalog.h"
#include "compositor.h"
#include "featureset.h"
#include "run.h"
#include "stream.h"

struct results;

/* cat gives each finding its level (the keyword of its clause). */
struct results *results_open(const char *path, const struct catalog *cat);
/* The compositor as it was when ready (claims), for the report header. */
void results_compositor(struct results *r, const struct compositor *c, enum profile p);
/* What the screen stream saw in one start of the compositor (on X display `display`): an entry of
 * "captures", {profile, display, frames, seconds, fps, refresh_hz, gaps, gap_ms, failed}. */
void results_capture(struct results *r, enum profile p, const char *display, const struct stream_stats *st);
/* --client: the application under test (its name in clients/, or "", and its command line). */
void results_client(struct results *r, const char *name, const char *command, const char *policy);
/* The feature table of one compositor command (after its probes). */
void results_features(struct results *r, const struct features *fs);
/* A FAIL also counts as a finding of the clause its failed check checks (res->clause). */
void results_add(struct results *r, const struct testcase *tc, enum profile p, const struct result *res);
/* The verdict of the whole run (run-verdict.h): "complete" or "UNRESOLVED", why the run tested
 * nothing (or ""), and its exit status. */
void results_run_verdict(struct results *r, const char *verdict, const char *reason, int exit_status);
/* Marks the run as ended ("complete", or e.g. "interrupted by Interrupt") and writes it. */
void results_finish(struct results *r, const char *status);
void results_close(struct results *r);

#endif
