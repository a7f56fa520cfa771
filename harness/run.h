/* Runs one case against the compositor under test and decides its verdict:
 * PASS (every declared check ran and held), FAIL (the compositor broke the clause),
 * SKIP (does not apply; the reason says why), UNRESOLVED (the suite itself could not decide). */
#ifndef FRAMESYNC_RUN_H
#define FRAMESYNC_RUN_H

#include "capture.h"
#include "caseparse.h"
#include "compositor.h"
#include "featureset.h"
#include "input-path.h"
#include "session.h"
#include "xserver.h"

/* What became of a `replace-wm` step (a new instance of the compositor replacing the running one,
 * ICCCM 2.8): filled by the replacer (lifecycle.c). */
enum replace_result {
    REPLACED,           /* the new one is ready: it is the compositor under test from now on */
    REPLACE_NEW_ENDED,  /* the new one ended before it was ready */
    REPLACE_NOT_READY,  /* the new one did not take the roles (or manage a window) in time */
    REPLACE_NOT_RUN,    /* its command could not be run (not found, not executable): an input error */
};
struct replace_outcome {
    enum replace_result result;
    char command[2048];      /* the new instance's command line */
    char why[3000];          /* not replaced: what the new one did, with the tail of its output */
    double ready_ms;         /* replaced: from its launch to its readiness */
    int pid;
    bool old_ended;          /* the old one exited (reaped) within the bound, or had already */
    char old_how[160];       /* "exited with status 0", or "still running N ms after ..." */
    double old_end_ms;       /* from the new one's readiness to the old one's end (<0: before it) */
    char check[160];         /* replaced: what the root's _NET_SUPPORTING_WM_CHECK names once the old one
                                ended (EWMH: the WM's own window), for the log */
};

/* The compositor under test replaced by a new instance of itself mid-case (the `replace-wm` step). */
struct wm_replacer {
    /* Launches the new instance, waits up to within_ms (0: as long as for a start, --wm-timeout; never
     * more than cap_ms) for it to be ready (as at a start: its roles, then a window managed), then up
     * to a bound for the old one to exit, and makes the new one the
     * compositor under test (env->wm).  The old one, if it still runs, is left for settle. */
    void (*replace)(void *ctx, int within_ms, int cap_ms, struct replace_outcome *out);
    /* After a run of a case: the old instances still running are stopped (the new one stays the
     * compositor until the run ends; the next case gets a fresh start). */
    void (*settle)(void *ctx);
    void *ctx;
};

struct app_keep; /* app-keep.h: the application kept running between cases */

struct run_env {
    struct xserver *x;
    struct compositor *wm;
    const char *client_binary;
    const char *observer_binary; /* the observer of the application under test (--client), or NULL */
    double timeout_scale;     /* multiplies every `within` / `for` of the cases */
    struct oracle **oracles;  /* attached to every case's session */
    int noracles;
    int case_timeout_ms;      /* the watchdog: no case runs longer (0: no bound) */
    const struct features *features; /* what the compositor implements (probed); NULL: nothing known */
    const char *no_screen;    /* why nothing can see the screen here (rootless Xwayland), or NULL */
    const struct capture *capture; /* the screen is seen through this command (capture.h), or NULL: the root */
    const char *no_xtest;     /* why XTEST input does not reach the compositor (a Wayland compositor's
                                 own seat), or NULL: the cases that drive input through it SKIP */
    const struct input_path *input; /* the compositor's own seat (input-path.h) for the input of
                                 interactive resizes, or NULL: XTEST */
    const char *input_broken; /* the conf names an input path that did not start: why (those cases
                                 are UNRESOLVED), or NULL */
    bool *app_ever_mapped;    /* --client: the application under test mapped a window in some run of
                                 this process (it starts); NULL: no application */
    const struct wm_replacer *replacer; /* the `replace-wm` step; NULL: nothing can replace it here */
    struct app_keep *keep;    /* --client: the application kept for the shared cases; NULL: none */
};

struct result {
    enum verdict verdict;
    char reason[2048];        /* one paragraph: why FAIL/SKIP/UNRESOLVED */
    char expected[512];
    char observed[2048];
    const struct step *step;  /* the step that decided it, or NULL */
    const char *clause;       /* FAIL: the clause of the check that failed (a finding is filed under
                                 it); NULL otherwise */
    int mark_seq;             /* the timeline record the diagnostic points at */
    bool setup_failed;        /* UNRESOLVED because the scenario could not be set up (a set-up
                                 step did not hold, a fake client could not do a command): worth
                                 another attempt, unlike a verdict */
    int attempts;             /* runs of the case this verdict took (set-up retries) */
    bool unobservable;        /* SKIP: the case reads what no oracle can see here (no screen oracle) */
    bool app_not_started;     /* the application under test ended before it ever mapped a window:
                                 an input error (the reason says why), not a verdict */
    int checks_run;
    struct figure {
        char name[48];
        char value[48];
    } figures[8];             /* `figure` steps that ran, in order */
    int nfigures;
    int64_t start_us, end_us;
    char log_path[1024];
};

/* Runs tc; the session (with its timeline) is left for the caller to print and free. */
void run_case(const struct testcase *tc, const struct run_env *env, struct session *s,
              struct result *res);

/* Fills a template: each {EXPR} (values and + - * / %, words separated by spaces, e.g.
 * {req.value - 1000}) is replaced by its value from the records the case bound; text outside
 * braces is kept.  -1 when an expression has no value (out then holds the template). */
int run_expand(struct session *s, const struct run_env *env, const char *tmpl, char *out, size_t len);

#endif
