#include "run.h"
#include "oracle-screen.h"
#include "clock.h"
#include "expr.h"
#include "grabwatch.h"
#include "xutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* How long a fake client may take to answer a command: it only talks to the X server. */
#define CLIENT_COMMAND_MS 5000
/* A stall of the X server this long (times --timeout-scale) in a case that did not pass is
 * reported as the compositor's server grab (see grabwatch.h). */
#define GRAB_REPORT_MS 1000

const char *verdict_name(enum verdict v)
{
    static const char *names[] = {"PASS", "FAIL", "SKIP", "UNRESOLVED"};
    return names[v];
}

struct ctx {
    const struct testcase *tc;
    const struct run_env *env;
    struct session *s;
    struct result *res;
    struct expr_env xenv;
    int64_t case_deadline_us;   /* the watchdog (--case-timeout); INT64_MAX: none */
};

static const struct record *lookup(void *p, const char *name, size_t len)
{
    return session_lookup(((struct ctx *)p)->s, name, len);
}

static uint32_t atom(void *p, const char *name)
{
    return xu_atom(((struct ctx *)p)->env->x->conn, name);
}

static void decide(struct ctx *c, enum verdict v, const struct step *st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void decide(struct ctx *c, enum verdict v, const struct step *st, const char *fmt, ...)
{
    c->res->verdict = v;
    c->res->step = st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->res->reason, sizeof c->res->reason, fmt, ap);
    va_end(ap);
}

static int scaled(const struct ctx *c, int ms)
{
    return (int)(ms * c->env->timeout_scale + 0.5);
}

/* The watchdog: a step's deadline never goes past the case's. */
static int64_t bounded(const struct ctx *c, int64_t deadline_us)
{
    return deadline_us < c->case_deadline_us ? deadline_us : c->case_deadline_us;
}

static int bounded_ms(const struct ctx *c, int ms)
{
    int64_t left = (c->case_deadline_us - clock_now_us()) / 1000;
    return left < ms ? (int)(left > 0 ? left : 0) : ms;
}

static bool watchdog_fired(struct ctx *c, const struct step *st)
{
    if (clock_now_us() < c->case_deadline_us)
        return false;
    decide(c, VERDICT_UNRESOLVED, st, "the case did not finish within --case-timeout %d ms (the watchdog stopped "
           "it during `%s`)", c->env->case_timeout_ms, st->text);
    return true;
}

/* The compositor crashing or exiting during a case is the compositor's failure. */
static bool compositor_gone(struct ctx *c, const struct step *st)
{
    if (compositor_alive(c->env->wm))
        return false;
    char how[128];
    proc_describe_exit(c->env->wm->proc, how, sizeof how);
    decide(c, VERDICT_FAIL, st, "the compositor under test %s at %+.1f ms (during `%s`)", how,
           (double)(c->env->wm->proc->exit_us - c->s->tl.start_us) / 1000.0, st->text);
    snprintf(c->res->observed, sizeof c->res->observed, "compositor %s", how);
    return true;
}

static bool filters_match(void *p, const struct record *r)
{
    void **pair = p;
    struct ctx *c = pair[0];
    const struct step *st = pair[1];
    for (int i = 0; i < st->nfilters; i++)
        if (!expr_filter_matches(&c->xenv, r, st->filters[i].key, st->filters[i].value))
            return false;
    return true;
}

static void describe_wanted(const struct step *st, char *buf, size_t len)
{
    int o = snprintf(buf, len, "%s %s", st->source, st->event);
    for (int i = 0; i < st->nfilters && o > 0 && (size_t)o < len; i++)
        o += snprintf(buf + o, len - (size_t)o, " %s=%s", st->filters[i].key, st->filters[i].value);
}

static const char *source_state(struct ctx *c, const char *source)
{
    struct client *cl = session_client(c->s, source);
    return cl && cl->eof ? "exited" : NULL;
}

/* wait: the next matching record within the deadline.  none: no matching record for the time. */
static bool step_wait(struct ctx *c, const struct step *st, bool want_none)
{
    void *pair[2] = {c, (void *)st};
    int ms = scaled(c, st->ms);
    int64_t begin = clock_now_us(), own_deadline = begin + (int64_t)ms * 1000;
    int64_t deadline = bounded(c, own_deadline);
    char wanted[512];
    describe_wanted(st, wanted, sizeof wanted);
    const char *subject = NULL; /* screen records: one cursor per client window */
    for (int i = 0; i < st->nfilters; i++)
        if (!strcmp(st->filters[i].key, "client"))
            subject = st->filters[i].value;
    if (!st->precondition)
        c->res->checks_run++;
    /* a precondition that does not hold: the case does not apply to this compositor */
    enum verdict broken = st->precondition ? VERDICT_SKIP : VERDICT_FAIL;
    const char *prefix = st->precondition ? "does not apply: " : "";
    for (;;) {
        const struct record *r = session_find_about(c->s, st->source, st->event, subject, filters_match, pair,
                                                    !want_none);
        if (r && !want_none) {
            if (st->as)
                session_bind(c->s, st->as, r);
            return true;
        }
        if (r && want_none) {
            c->res->mark_seq = r->seq;
            snprintf(c->res->expected, sizeof c->res->expected, "no %s for %d ms", wanted, ms);
            snprintf(c->res->observed, sizeof c->res->observed, "%s at %+.3f ms (%.3f ms after the step began)",
                     r->line, (double)(r->t_us - c->s->tl.start_us) / 1000.0,
                     (double)(r->t_us - begin) / 1000.0);
            if (st->precondition)
                decide(c, broken, st, "%s%s %s at %+.3f ms (`%s` does not hold)", prefix, r->source, r->line,
                       (double)(r->t_us - c->s->tl.start_us) / 1000.0, st->text);
            else
                decide(c, VERDICT_FAIL, st, "unexpected %s", r->kind);
            return false;
        }
        if (compositor_gone(c, st))
            return false;
        if (proc_interrupted()) {
            decide(c, VERDICT_UNRESOLVED, st, "interrupted");
            return false;
        }
        if (clock_now_us() >= deadline && deadline < own_deadline && watchdog_fired(c, st))
            return false;
        if (clock_now_us() >= deadline) {
            if (want_none)
                return true;
            snprintf(c->res->expected, sizeof c->res->expected, "%s within %d ms", wanted, ms);
            snprintf(c->res->observed, sizeof c->res->observed, "none in %.1f ms%s",
                     (double)(clock_now_us() - begin) / 1000.0,
                     proc_is_stopped(c->env->wm->proc) ? " (the compositor process is stopped: it runs no more)" : "");
            decide(c, broken, st, "%sno %s within %d ms", prefix, wanted, ms);
            return false;
        }
        const char *gone = source_state(c, st->source);
        if (gone && !want_none) {
            decide(c, VERDICT_UNRESOLVED, st, "fake client %s %s while the case waited for %s",
                   st->source, gone, wanted);
            return false;
        }
        session_pump(c->s, deadline, -1);
    }
}

static bool expect_supported(struct ctx *c, const struct step *st)
{
    bool want = !strcmp(st->tokens[0], "supported");
    if (compositor_supports(c->env->wm, st->tokens[1]) == want)
        return true;
    snprintf(c->res->expected, sizeof c->res->expected, "%s %s in _NET_SUPPORTED", st->tokens[1],
             want ? "listed" : "not listed");
    snprintf(c->res->observed, sizeof c->res->observed, "_NET_SUPPORTED %s %s (%d atoms)",
             want ? "does not list" : "lists", st->tokens[1], c->env->wm->nsupported);
    decide(c, VERDICT_FAIL, st, "the compositor %s %s in _NET_SUPPORTED", want ? "does not list" : "lists",
           st->tokens[1]);
    return false;
}

static bool step_expect(struct ctx *c, const struct step *st)
{
    char explain[1024];
    c->res->checks_run++;
    if (!strcmp(st->tokens[0], "supported") || !strcmp(st->tokens[0], "unsupported"))
        return expect_supported(c, st);
    switch (expr_eval(&c->xenv, st->tokens, st->ntokens, explain, sizeof explain)) {
    case EXPR_TRUE:
        return true;
    case EXPR_FALSE:
        snprintf(c->res->expected, sizeof c->res->expected, "%s", st->text + strlen("expect "));
        snprintf(c->res->observed, sizeof c->res->observed, "%s", explain);
        decide(c, VERDICT_FAIL, st, "%s", explain);
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
    decide(c, VERDICT_UNRESOLVED, st, "cannot evaluate `%s`: %s", st->text, explain);
    return false;
}

static bool step_require(struct ctx *c, const struct step *st)
{
    const char *what = st->tokens[1];
    if (!strcmp(what, "compositing")) {
        if (xu_selection_owner(c->env->x->conn, "_NET_WM_CM_S0"))
            return true;
        decide(c, VERDICT_SKIP, st, "the compositor under test does not composite (no owner of _NET_WM_CM_S0)");
        return false;
    }
    bool listed = compositor_supports(c->env->wm, st->tokens[2]);
    bool want = !strcmp(what, "supported");
    if (listed == want)
        return true;
    decide(c, VERDICT_SKIP, st, "the compositor %s %s in _NET_SUPPORTED", listed ? "lists" : "does not list",
           st->tokens[2]);
    return false;
}

static bool step_command(struct ctx *c, const struct step *st)
{
    struct client *cl = session_client(c->s, st->source);
    char err[1024];
    const struct record *r = session_command(c->s, cl, st->command, bounded_ms(c, CLIENT_COMMAND_MS), err, sizeof err);
    if (r && !strcmp(r->kind, "done")) {
        if (st->as)
            session_bind(c->s, st->as, r);
        return true;
    }
    if (compositor_gone(c, st))
        return false;
    if (!r && watchdog_fired(c, st))
        return false;
    if (r)
        decide(c, VERDICT_UNRESOLVED, st, "fake client %s could not `%s`: %s", st->source, st->command,
               record_get(r, "msg") ? record_get(r, "msg") : r->line);
    else
        decide(c, VERDICT_UNRESOLVED, st, "%s", err);
    return false;
}

static bool run_step(struct ctx *c, const struct step *st)
{
    if (watchdog_fired(c, st))
        return false;
    session_note(c->s, "step line=%d msg=%s", st->line, st->text);
    char err[1024];
    switch (st->kind) {
    case STEP_CLIENT:
        if (session_add_client(c->s, st->source, bounded_ms(c, CLIENT_COMMAND_MS), err, sizeof err) == 0)
            return true;
        if (watchdog_fired(c, st))
            return false;
        decide(c, VERDICT_UNRESOLVED, st, "%s", err);
        return false;
    case STEP_COMMAND: return step_command(c, st);
    case STEP_WAIT: return step_wait(c, st, false);
    case STEP_NONE: return step_wait(c, st, true);
    case STEP_EXPECT: return step_expect(c, st);
    case STEP_REQUIRE: return step_require(c, st);
    }
    return false;
}

/* A case that did not pass while the X server answered nobody but the compositor (a server
 * grab, seen by the grab watch): the grab is the compositor's failure, whatever step noticed it. */
static void check_grab(struct ctx *c)
{
    int min_ms = scaled(c, GRAB_REPORT_MS);
    if (grabwatch_stall_ms() >= min_ms)
        grabwatch_end_stall(2000); /* still grabbed: stop the compositor, the next case needs the server */
    struct grab_report g;
    if (!grabwatch_take(min_ms, &g))
        return;
    if (c->res->verdict == VERDICT_PASS && !g.killed)
        return; /* a long grab that broke nothing */
    if (c->res->verdict == VERDICT_SKIP)
        return;
    char before[sizeof c->res->reason];
    snprintf(before, sizeof before, "%s", c->res->reason);
    c->res->verdict = VERDICT_FAIL;
    snprintf(c->res->reason, sizeof c->res->reason,
             "the compositor grabbed the server for %s%.0f ms (from %+.1f ms the X server answered no other "
             "client%s)", g.ongoing ? "at least " : "", (double)(g.end_us - g.start_us) / 1000.0,
             (double)(g.start_us - c->s->tl.start_us) / 1000.0,
             g.killed ? "; the harness stopped the compositor to end it" : "");
    snprintf(c->res->observed, sizeof c->res->observed, "server grab of %.0f ms%s%s", (double)(g.end_us - g.start_us) / 1000.0,
             before[0] ? "; then: " : "", before);
}

/* The screen at the verdict, next to the case's log (<log prefix>.png), for the HTML report: what
 * was on screen instead of the awaited frame, or just after the frame that should not be there. */
static void screenshot(struct ctx *c)
{
    if (!c->s->log_prefix)
        return;
    for (int i = 0; i < c->env->noracles; i++) {
        if (strcmp(c->env->oracles[i]->name, "screen"))
            continue;
        char path[4096], err[256];
        snprintf(path, sizeof path, "%s.png", c->s->log_prefix);
        if (oracle_screen_snapshot(c->env->oracles[i], path, err, sizeof err) == 0)
            session_note(c->s, "screenshot path=%s msg=the whole screen at the verdict", path);
        else
            session_note(c->s, "screenshot msg=no screenshot: %s", err);
    }
}

void run_case(const struct testcase *tc, const struct run_env *env, struct session *s, struct result *res)
{
    struct ctx c = {.tc = tc, .env = env, .s = s, .res = res};
    c.case_deadline_us = env->case_timeout_ms > 0 ? s->tl.start_us + (int64_t)env->case_timeout_ms * 1000 : INT64_MAX;
    c.xenv = (struct expr_env){.lookup = lookup, .atom = atom, .ctx = &c, .t0_us = s->tl.start_us};
    res->start_us = s->tl.start_us;
    res->verdict = VERDICT_PASS;
    for (int i = 0; i < env->noracles; i++)
        session_attach_oracle(s, env->oracles[i]);
    bool ok = true;
    for (int i = 0; i < tc->nsteps && ok; i++)
        ok = run_step(&c, &tc->steps[i]);
    /* the compositor may have died after the last check: still its failure */
    if (ok && compositor_gone(&c, &tc->steps[tc->nsteps - 1]))
        ok = false;
    if (ok && res->checks_run != tc->checks)
        decide(&c, VERDICT_UNRESOLVED, NULL, "ran %d of the %d declared checks", res->checks_run, tc->checks);
    check_grab(&c);
    if (res->verdict == VERDICT_FAIL)
        screenshot(&c);
    res->end_us = clock_now_us();
}
