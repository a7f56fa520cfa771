/* The helpers every part of the case runner uses (runctx.h): a verdict decided, the timeouts
 * scaled and bounded by the case's watchdog, a compositor or an application that ended. */
#include "runctx.h"
#include "app-exit.h"
#include "clock.h"

#include <stdarg.h>
#include <stdio.h>

void ctx_decide(struct ctx *c, enum verdict v, const struct step *st, const char *fmt, ...)
{
    c->res->verdict = v;
    c->res->step = st;
    c->res->setup_failed = false; /* the callers that decide a set-up failure say so after */
    /* a failure is a finding of the clause its check checks (a set-up or a precondition never
     * fails: see run-wait.c); a crash or a server grab is a finding of its own */
    c->res->clause = v != VERDICT_FAIL ? NULL : st && st->clause ? st->clause : c->tc->clauses[0];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->res->reason, sizeof c->res->reason, fmt, ap);
    va_end(ap);
}

int ctx_scaled(const struct ctx *c, int ms)
{
    return (int)(ms * c->env->timeout_scale + 0.5);
}

/* The watchdog: a step's deadline never goes past the case's. */
int64_t ctx_bounded(const struct ctx *c, int64_t deadline_us)
{
    return deadline_us < c->case_deadline_us ? deadline_us : c->case_deadline_us;
}

int ctx_bounded_ms(const struct ctx *c, int ms)
{
    int64_t left = (c->case_deadline_us - clock_now_us()) / 1000;
    return left < ms ? (int)(left > 0 ? left : 0) : ms;
}

bool ctx_watchdog_fired(struct ctx *c, const struct step *st)
{
    if (clock_now_us() < c->case_deadline_us)
        return false;
    ctx_decide(c, VERDICT_UNRESOLVED, st, "the case did not finish within --case-timeout %d ms (the watchdog stopped "
           "it during `%s`)", c->env->case_timeout_ms, st->text);
    return true;
}

/* The compositor crashing or exiting during a case is the compositor's failure. */
bool ctx_compositor_gone(struct ctx *c, const struct step *st)
{
    if (compositor_alive(c->env->wm))
        return false;
    char how[128];
    proc_describe_exit(c->env->wm->proc, how, sizeof how);
    ctx_decide(c, VERDICT_FAIL, st, "the compositor under test %s at %+.1f ms (during `%s`)", how,
           (double)(c->env->wm->proc->exit_us - c->s->tl.start_us) / 1000.0, st->text);
    c->res->clause = "compositor/crash";
    snprintf(c->res->observed, sizeof c->res->observed, "compositor %s", how);
    return true;
}

/* The application under test ending during a case is its failure, whatever step noticed it
 * (guarded.c tells an application that never started from one that crashed). */
bool ctx_client_gone(struct ctx *c, const struct step *st)
{
    if (!c->s->app_exit)
        return false;
    char during[600];
    snprintf(during, sizeof during, "`%.500s`", st->text);
    app_crash_verdict(c->res, c->s, during);
    c->res->step = st;
    return true;
}
