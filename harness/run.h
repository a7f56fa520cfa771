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
