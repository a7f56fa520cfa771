/* The `replace-wm` step: a new instance of the compositor under test replaces the running one (ICCCM
 * 2.8 manager selections, `mutter --replace`), the way a user restarts a WM mid-session.  The
 * replacer (lifecycle.c) launches it and waits until it is ready as at a start; this file turns what
 * happened into the case's verdict or its `wm-replaced` record. */
#include "runctx.h"
#include "clock.h"
#include "guarded.h"
#include "liveness.h"

#include <stdio.h>
#include <string.h>

/* How long the new instance has to answer the barrier once it took over (as between cases) */
#define BARRIER_MS 3000

/* The old instance's fate, for a reason: "the old instance exited with status 0" */
static void describe_old(const struct replace_outcome *o, char *out, size_t len)
{
    snprintf(out, len, "the old instance %s", o->old_how[0] ? o->old_how : "was not looked at");
}

/* The new instance could not be made ready: its crash (it ended, or never took over) is the
 * compositor's failure, as any crash in a case is; a command that could not run is the suite's input. */
static void replace_failed(struct ctx *c, const struct step *st, const struct replace_outcome *o)
{
    char old[256];
    describe_old(o, old, sizeof old);
    if (o->result == REPLACE_NOT_RUN) {
        ctx_decide(c, VERDICT_UNRESOLVED, st, "the command that replaces the compositor could not run (`%s`): %s",
                   o->command, o->why);
        return;
    }
    ctx_decide(c, VERDICT_FAIL, st, "replacing the compositor failed: its new instance (`%s`) %s: %s; %s",
               o->command, o->result == REPLACE_NEW_ENDED ? "ended before it was ready" : "did not take over in time",
               o->why, old);
    c->res->clause = CRASH_CLAUSE;
    snprintf(c->res->observed, sizeof c->res->observed, "compositor replaced: its new instance %s",
             o->result == REPLACE_NEW_ENDED ? "ended before it was ready" : "did not take over");
}

bool run_step_replace(struct ctx *c, const struct step *st)
{
    if (!c->env->replacer || !c->env->replacer->replace)
        return run_require_feature(c, st, "replace", true);
    const struct feature *f = c->env->features ? features_find(c->env->features, "replace") : NULL;
    if (!f || f->state != FEATURE_PRESENT)
        return run_require_feature(c, st, "replace", true);
    /* the new instance has as long as a start (--wm-timeout) unless the step says, and never past
     * the case's watchdog */
    struct replace_outcome o;
    c->env->replacer->replace(c->env->replacer->ctx, st->ms ? ctx_scaled(c, st->ms) : 0, ctx_bounded_ms(c, 3600000),
                              &o);
    if (o.result != REPLACED) {
        replace_failed(c, st, &o);
        return false;
    }
    /* ready as at a start is a WM that manages; a compositor is ready once it paints: the barrier
     * the harness runs between cases (a new window mapped and shown).  Without it the checks after
     * the step would time the new compositor's first paint (mutter 43.8 under llvmpipe: 240 to 690
     * ms after its WM was ready, the screen showing the old compositor's last picture meanwhile) */
    char why[512];
    enum liveness h = liveness_check(c->env, ctx_bounded_ms(c, ctx_scaled(c, BARRIER_MS)), why, sizeof why);
    if (h != LIVE_OK) {
        ctx_decide(c, VERDICT_FAIL, st, "the compositor's new instance (`%s`) took over but %s; the old instance %s",
                   o.command, why, o.old_how);
        c->res->clause = CRASH_CLAUSE;
        snprintf(c->res->observed, sizeof c->res->observed, "compositor replaced: its new instance %s", why);
        return false;
    }
    /* the record the case binds, and the screen oracle's cue to report every window as it is now */
    struct record *rec = record_make("harness", clock_now_us(),
                                     "wm-replaced pid=%d ready_ms=%.1f old_ended=%d old_end_ms=%.1f check=%s msg=%s; the "
                                     "old instance %s; the root's _NET_SUPPORTING_WM_CHECK: %s",
                                     o.pid, o.ready_ms, o.old_ended ? 1 : 0, o.old_end_ms, o.check, o.command, o.old_how,
                                     !strcmp(o.check, "none") ? "none (EWMH: the WM keeps it naming a window of its own)"
                                     : !strcmp(o.check, "old") ? "still the old instance's window"
                                                               : "the new instance's window");
    if (!rec) {
        ctx_decide(c, VERDICT_UNRESOLVED, st, "out of memory");
        return false;
    }
    const struct record *added = session_add_record(c->s, rec);
    if (st->as)
        session_bind(c->s, st->as, added);
    session_pump(c->s, clock_now_us(), -1); /* what the oracles saw meanwhile, before the next step */
    return !ctx_compositor_gone(c, st);
}
