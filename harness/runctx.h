/* The parts of harness/run.c's case runner, one file each: the context a running case carries
 * and the helpers every part uses (here; runctx.c), the wait and none steps (run-wait.c), the
 * steps that read the probed features and _NET_SUPPORTED (run-features.c), the fake clients'
 * commands with the resize trigger (run-command.c), and the compositor replaced mid-case
 * (run-replace.c).  run.c calls the steps, the steps call the helpers: no part calls back into
 * run.c.  Internal to those six files. */
#ifndef FRAMESYNC_RUNCTX_H
#define FRAMESYNC_RUNCTX_H

#include "expr.h"
#include "run.h"

#include <stdbool.h>
#include <stdint.h>

/* How long a fake client may take to answer a command: it only talks to the X server. */
#define CLIENT_COMMAND_MS 5000

/* An interactive resize a case keeps open (`resize ... hold`): its client and trigger, so the
 * next `resize` of that client continues it the same way. */
struct open_resize {
    char client[16];
    char trigger[16];
};

struct ctx {
    const struct testcase *tc;
    const struct run_env *env;
    struct session *s;
    struct result *res;
    struct expr_env xenv;
    int64_t case_deadline_us;   /* the watchdog (--case-timeout); INT64_MAX: none */
    struct open_resize open[SESSION_MAX_CLIENTS];
    int nopen;
};

/* Decides the case's verdict at step st (NULL: after the steps) with a reason; a FAIL is filed
 * under st's clause. */
void ctx_decide(struct ctx *c, enum verdict v, const struct step *st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* ms times --timeout-scale. */
int ctx_scaled(const struct ctx *c, int ms);
/* The watchdog: a step's deadline never goes past the case's. */
int64_t ctx_bounded(const struct ctx *c, int64_t deadline_us);
int ctx_bounded_ms(const struct ctx *c, int ms);
/* The case ran past --case-timeout: UNRESOLVED, true. */
bool ctx_watchdog_fired(struct ctx *c, const struct step *st);
/* The compositor under test exited or crashed: FAIL under compositor/crash, true. */
bool ctx_compositor_gone(struct ctx *c, const struct step *st);
/* The application under test ended by itself: FAIL under client/crash, true. */
bool ctx_client_gone(struct ctx *c, const struct step *st);

/* The steps (false: the case stops; its verdict is decided). */
bool run_step_wait(struct ctx *c, const struct step *st, bool want_none);   /* run-wait.c */
bool run_step_expect(struct ctx *c, const struct step *st);                 /* run-features.c */
bool run_step_require(struct ctx *c, const struct step *st);
/* `when`/`unless`: 1 the step runs, 0 it does not, -1 cannot tell (UNRESOLVED decided). */
int run_step_applies(struct ctx *c, const struct step *st);
/* require FEATURE (want) / require no FEATURE: true when it holds, else the SKIP or UNRESOLVED. */
bool run_require_feature(struct ctx *c, const struct step *st, const char *name, bool want);
bool run_step_command(struct ctx *c, const struct step *st);                /* run-command.c */
bool run_step_replace(struct ctx *c, const struct step *st);                /* run-replace.c */

#endif
