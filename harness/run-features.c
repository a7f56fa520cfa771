/* The steps that read what the compositor implements: expect supported/feature, require, and
 * `when`/`unless`; and expect EXPR, the checks on the records. */
#include "runctx.h"
#include "app-exit.h"
#include "xutil.h"

#include <stdio.h>
#include <string.h>

static bool expect_supported(struct ctx *c, const struct step *st)
{
    bool want = !strcmp(st->tokens[0], "supported");
    if (compositor_supports(c->env->wm, st->tokens[1]) == want)
        return true;
    snprintf(c->res->expected, sizeof c->res->expected, "%s %s in _NET_SUPPORTED", st->tokens[1],
             want ? "listed" : "not listed");
    snprintf(c->res->observed, sizeof c->res->observed, "_NET_SUPPORTED %s %s (%d atoms)",
             want ? "does not list" : "lists", st->tokens[1], c->env->wm->nsupported);
    ctx_decide(c, VERDICT_FAIL, st, "the compositor %s %s in _NET_SUPPORTED", want ? "does not list" : "lists",
           st->tokens[1]);
    return false;
}

static enum feature_state feature_state(struct ctx *c, const char *name, const char **detail);

/* A feature left unknown because the application under test crashed in each run of its probe: a
 * case that needs it is that crash's FAIL (one root cause, one finding), not UNRESOLVED.  True
 * when so (decided). */
static bool crashed_in_probe(struct ctx *c, const struct step *st, const char *name)
{
    const struct feature *f = c->env->features ? features_find(c->env->features, name) : NULL;
    if (!f || f->state != FEATURE_UNKNOWN || strcmp(f->source, APP_CRASH_SOURCE))
        return false;
    ctx_decide(c, VERDICT_FAIL, st, APP_NOT_RUN "%s", f->detail); /* the detail names the probe */
    c->res->clause = CLIENT_CRASH_CLAUSE;
    snprintf(c->res->observed, sizeof c->res->observed, "application crashed when %s was probed", name);
    return true;
}

/* expect feature NAME: the probes saw the compositor do it (their logs: logs/probes/). */
static bool expect_feature(struct ctx *c, const struct step *st)
{
    const char *detail;
    enum feature_state fs = feature_state(c, st->tokens[1], &detail);
    if (fs == FEATURE_PRESENT)
        return true;
    if (fs == FEATURE_UNKNOWN && crashed_in_probe(c, st, st->tokens[1]))
        return false;
    if (fs == FEATURE_UNKNOWN) {
        ctx_decide(c, VERDICT_UNRESOLVED, st, "cannot tell whether the compositor has %s: %s", st->tokens[1], detail);
        return false;
    }
    snprintf(c->res->expected, sizeof c->res->expected, "the probes see the compositor do %s", st->tokens[1]);
    snprintf(c->res->observed, sizeof c->res->observed, "%s (logs/probes/)", detail);
    ctx_decide(c, VERDICT_FAIL, st, "%s", detail);
    return false;
}

bool run_step_expect(struct ctx *c, const struct step *st)
{
    char explain[1024];
    c->res->checks_run++;
    if (!strcmp(st->tokens[0], "supported") || !strcmp(st->tokens[0], "unsupported"))
        return expect_supported(c, st);
    if (!strcmp(st->tokens[0], "feature"))
        return expect_feature(c, st);
    switch (expr_eval(&c->xenv, st->tokens, st->ntokens, explain, sizeof explain)) {
    case EXPR_TRUE:
        return true;
    case EXPR_FALSE:
        snprintf(c->res->expected, sizeof c->res->expected, "%s", st->text + strlen("expect "));
        snprintf(c->res->observed, sizeof c->res->observed, "%s", explain);
        ctx_decide(c, VERDICT_FAIL, st, "%s", explain);
        for (int i = 0; i < st->ntokens; i++) { /* point the timeline at the record it is about */
            const char *dot = strchr(st->tokens[i], '.');
            const struct record *r = dot ? session_lookup(c->s, st->tokens[i], (size_t)(dot - st->tokens[i])) : NULL;
            if (r)
                c->res->mark_seq = r->seq;
        }
        return false;
    case EXPR_ERROR:
        break;
    }
    ctx_decide(c, VERDICT_UNRESOLVED, st, "cannot evaluate `%s`: %s", st->text, explain);
    return false;
}

/* The feature as the probes established it; the built-in `compositing` and `wm` are also read
 * from the selections when no probing ran (a bare harness run with --features of nothing). */
static enum feature_state feature_state(struct ctx *c, const char *name, const char **detail)
{
    const struct feature *f = c->env->features ? features_find(c->env->features, name) : NULL;
    if (f) {
        *detail = f->detail;
        return f->state;
    }
    if (!strcmp(name, "compositing") || !strcmp(name, "wm")) {
        bool cm = !strcmp(name, "compositing");
        bool owned = xu_selection_owner(c->env->x->conn, cm ? "_NET_WM_CM_S0" : "WM_S0");
        *detail = owned ? (cm ? "owns _NET_WM_CM_S0" : "owns WM_S0")
                        : (cm ? "the compositor under test does not composite (no owner of _NET_WM_CM_S0)"
                              : "the compositor under test is not a window manager (no owner of WM_S0)");
        return owned ? FEATURE_PRESENT : FEATURE_ABSENT;
    }
    *detail = "it was not probed";
    return FEATURE_UNKNOWN;
}

/* Is the feature unknown because its probe reads what no oracle can see here (not because it
 * could not decide)? */
static bool feature_unobservable(struct ctx *c, const char *name)
{
    const struct feature *f = c->env->features ? features_find(c->env->features, name) : NULL;
    return f && !strcmp(f->source, "unobservable");
}

/* require FEATURE / require no FEATURE: SKIP with the probe's plain reason when the compositor
 * does not have it (has it); UNRESOLVED when its probe could not decide. */
bool run_require_feature(struct ctx *c, const struct step *st, const char *name, bool want)
{
    const char *detail;
    enum feature_state fs = feature_state(c, name, &detail);
    /* client-* features are the application's (cases/client/probes/), the others the compositor's */
    const char *who = !strncmp(name, "client-", 7) ? "the client" : "the compositor";
    if (fs == FEATURE_UNKNOWN && feature_unobservable(c, name)) {
        ctx_decide(c, VERDICT_SKIP, st, "%s", detail); /* its probe reads what nothing can see here */
        c->res->unobservable = true;
        return false;
    }
    if (fs == FEATURE_UNKNOWN && crashed_in_probe(c, st, name))
        return false;
    if (fs == FEATURE_UNKNOWN) {
        ctx_decide(c, VERDICT_UNRESOLVED, st, "cannot tell whether %s has %s: %s", who, name, detail);
        return false;
    }
    if ((fs == FEATURE_PRESENT) == want)
        return true;
    if (want)
        ctx_decide(c, VERDICT_SKIP, st, "%s", detail);
    else
        ctx_decide(c, VERDICT_SKIP, st, "%s has %s (%s)", who, name, detail);
    return false;
}

bool run_step_require(struct ctx *c, const struct step *st)
{
    const char *what = st->tokens[1];
    if (strcmp(what, "supported") && strcmp(what, "unsupported")) {
        bool negated = !strcmp(what, "no");
        return run_require_feature(c, st, negated ? st->tokens[2] : what, !negated);
    }
    bool listed = compositor_supports(c->env->wm, st->tokens[2]);
    bool want = !strcmp(what, "supported");
    if (listed == want)
        return true;
    ctx_decide(c, VERDICT_SKIP, st, "the compositor %s %s in _NET_SUPPORTED", listed ? "lists" : "does not list",
           st->tokens[2]);
    return false;
}

/* `when FEATURE STEP` / `unless FEATURE STEP`: does STEP run on this compositor?  -1: cannot
 * tell (the case is then UNRESOLVED). */
int run_step_applies(struct ctx *c, const struct step *st)
{
    if (!st->when)
        return 1;
    const char *detail;
    enum feature_state fs = feature_state(c, st->when, &detail);
    if (fs == FEATURE_UNKNOWN && crashed_in_probe(c, st, st->when))
        return -1;
    if (fs == FEATURE_UNKNOWN) {
        ctx_decide(c, VERDICT_UNRESOLVED, st, "cannot tell whether `%s` applies: %s", st->text, detail);
        return -1;
    }
    return (fs == FEATURE_PRESENT) != st->unless;
}
