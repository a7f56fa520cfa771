#include "runctx.h"
#include "app-keep.h"
#include "clock.h"
#include "expr.h"
#include "grabwatch.h"
#include "xutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A stall of the X server this long (times --timeout-scale) in a case that did not pass is
 * reported as the compositor's server grab (see grabwatch.h). */
#define GRAB_REPORT_MS 1000


static const struct record *lookup(void *p, const char *name, size_t len)
{
    return session_lookup(((struct ctx *)p)->s, name, len);
}

static uint32_t atom(void *p, const char *name)
{
    return xu_atom(((struct ctx *)p)->env->x->conn, name);
}

/* figure NAME EXPR: the value goes into the result; an expression of records the case did not bind
 * is the case's error (UNRESOLVED), as an expect's */
static bool run_step_figure(struct ctx *c, const struct step *st)
{
    char tmpl[600], value[600];
    snprintf(tmpl, sizeof tmpl, "{%s}", st->command);
    bool valued = run_expand(c->s, c->env, tmpl, value, sizeof value) >= 0;
    if (!valued && st->fallback) /* `or WORD`: a `try wait` found nothing to measure to */
        snprintf(value, sizeof value, "%s", st->fallback);
    else if (!valued) {
        ctx_decide(c, VERDICT_UNRESOLVED, st, "cannot evaluate the figure `%s`", st->command);
        return false;
    }
    if (c->res->nfigures < (int)(sizeof c->res->figures / sizeof c->res->figures[0])) {
        struct figure *f = &c->res->figures[c->res->nfigures++];
        snprintf(f->name, sizeof f->name, "%s", st->as);
        snprintf(f->value, sizeof f->value, "%s", value);
    }
    session_note(c->s, "figure %s=%s", st->as, value);
    return true;
}

static bool run_step(struct ctx *c, const struct step *st)
{
    if (ctx_watchdog_fired(c, st))
        return false;
    session_note(c->s, "step line=%d msg=%s", st->line, st->text);
    int applies = run_step_applies(c, st);
    if (applies <= 0)
        return applies == 0;
    char err[1024];
    switch (st->kind) {
    case STEP_CHECK: return true; /* the clause is on each check step */
    case STEP_MARK: {
        struct record *m = record_make("harness", clock_now_us(), "mark name=%s", st->as);
        if (m)
            session_bind(c->s, st->as, session_add_record(c->s, m));
        return true;
    }
    case STEP_CLIENT:
        if (st->command && !strcmp(st->command, "under-test") && !c->env->observer_binary) {
            ctx_decide(c, VERDICT_SKIP, st, "no client under test: this case tests an application (run it with --client)");
            return false;
        }
        if (st->command && *st->command && c->env->keep) { /* app-keep.h */
            if (c->tc->start_shared && app_keep_take(c->env->keep, c->tc, c->s, st->source,
                                                     ctx_bounded_ms(c, CLIENT_COMMAND_MS)))
                return !ctx_client_gone(c, st);
            app_keep_stop(c->env->keep); /* one application at a time */
        }
        if ((st->command && *st->command
                 ? session_add_app_observer(c->s, st->source, c->env->observer_binary, ctx_bounded_ms(c, CLIENT_COMMAND_MS),
                                            err, sizeof err)
                 : session_add_client(c->s, st->source, ctx_bounded_ms(c, CLIENT_COMMAND_MS), err, sizeof err)) == 0)
            return true;
        if (ctx_watchdog_fired(c, st))
            return false;
        ctx_decide(c, VERDICT_UNRESOLVED, st, "%s", err);
        c->res->setup_failed = true;
        return false;
    case STEP_COMMAND: return run_step_command(c, st);
    case STEP_WAIT: return run_step_wait(c, st, false);
    case STEP_NONE: return run_step_wait(c, st, true);
    case STEP_EXPECT: return run_step_expect(c, st);
    case STEP_REQUIRE: return run_step_require(c, st);
    case STEP_REPLACE: return run_step_replace(c, st);
    case STEP_FIGURE: return run_step_figure(c, st);
    }
    return false;
}

/* A case that did not pass while the X server answered nobody but the compositor (a server
 * grab, seen by the grab watch): the grab is the compositor's failure, whatever step noticed it. */
static void check_grab(struct ctx *c)
{
    int min_ms = ctx_scaled(c, GRAB_REPORT_MS);
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
    c->res->setup_failed = false;
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
        if (!c->env->oracles[i]->snapshot)
            continue;
        char path[4096], err[512];
        snprintf(path, sizeof path, "%s.png", c->s->log_prefix);
        if (c->env->oracles[i]->snapshot(c->env->oracles[i], path, err, sizeof err) == 0)
            session_note(c->s, "screenshot path=%s msg=the whole screen at the verdict", path);
        else
            session_note(c->s, "screenshot msg=no screenshot: %s", err);
    }
}

/* Does the case read the screen (a wait or none on the screen oracle's records)? */
static bool reads_screen(const struct testcase *tc)
{
    for (int i = 0; i < tc->nsteps; i++)
        if ((tc->steps[i].kind == STEP_WAIT || tc->steps[i].kind == STEP_NONE) && tc->steps[i].source &&
            !strcmp(tc->steps[i].source, "screen"))
            return true;
    return false;
}

void run_case(const struct testcase *tc, const struct run_env *env, struct session *s, struct result *res)
{
    if (env->no_screen && reads_screen(tc)) { /* never decided by guesswork: nothing can see it here */
        res->start_us = res->end_us = s->tl.start_us;
        res->verdict = VERDICT_SKIP;
        res->unobservable = true;
        snprintf(res->reason, sizeof res->reason, "no screen oracle for this compositor (%s)", env->no_screen);
        return;
    }
    struct ctx c = {.tc = tc, .env = env, .s = s, .res = res};
    c.case_deadline_us = env->case_timeout_ms > 0 ? s->tl.start_us + (int64_t)env->case_timeout_ms * 1000 : INT64_MAX;
    c.xenv = (struct expr_env){.lookup = lookup, .atom = atom, .ctx = &c, .t0_us = s->tl.start_us};
    res->start_us = s->tl.start_us;
    res->verdict = VERDICT_PASS;
    for (int i = 0; i < env->noracles; i++)
        session_attach_oracle(s, env->oracles[i]);
    s->input_fd = env->input ? env->input->fd : -1;
    s->input_barrier = env->input ? env->input->barrier : 0;
    bool ok = true;
    for (int i = 0; i < tc->nsteps && ok; i++)
        ok = run_step(&c, &tc->steps[i]);
    /* the compositor or the application may have died after the last check: still its failure */
    if (ok && (ctx_compositor_gone(&c, &tc->steps[tc->nsteps - 1]) || ctx_client_gone(&c, &tc->steps[tc->nsteps - 1])))
        ok = false;
    if (ok && res->checks_run != tc->checks)
        ctx_decide(&c, VERDICT_UNRESOLVED, NULL, "ran %d of the %d declared checks", res->checks_run, tc->checks);
    check_grab(&c);
    if (res->verdict == VERDICT_FAIL)
        screenshot(&c);
    res->end_us = clock_now_us();
}

/* VAR.FIELD whose value is a word, not a number: the word; NULL for anything else. */
static const char *field_text(struct session *s, const char *term)
{
    const char *dot = strchr(term, '.');
    const struct record *r = dot ? session_lookup(s, term, (size_t)(dot - term)) : NULL;
    const char *v = r ? record_get(r, dot + 1) : NULL;
    value_t num;
    return v && !parse_integer(v, &num) ? v : NULL;
}

int run_expand(struct session *s, const struct run_env *env, const char *tmpl, char *out, size_t len)
{
    struct ctx c = {.env = env, .s = s};
    c.xenv = (struct expr_env){.lookup = lookup, .atom = atom, .ctx = &c, .t0_us = s->tl.start_us};
    size_t o = 0;
    int rc = 0;
    out[0] = 0;
    for (const char *p = tmpl; *p && o + 1 < len;) {
        const char *close = *p == '{' ? strchr(p, '}') : NULL;
        if (!close) {
            out[o++] = *p++;
            continue;
        }
        char expr[256], *tok[32], *save = NULL, err[256], num[64];
        int n = 0;
        snprintf(expr, sizeof expr, "%.*s", (int)(close - p - 1), p + 1);
        for (char *t = strtok_r(expr, " ", &save); t && n < 32; t = strtok_r(NULL, " ", &save))
            tok[n++] = t;
        value_t v;
        const char *text = n == 1 ? field_text(s, tok[0]) : NULL;
        if (text) /* a word of a record (a state's why): as it is, its dashes read as spaces */
            for (const char *t = text; *t && o + 1 < len; t++)
                out[o++] = *t == '-' ? ' ' : *t;
        else if (n == 0 || expr_value(&c.xenv, tok, n, &v, err, sizeof err) < 0) {
            rc = -1;
            o += (size_t)snprintf(out + o, len - o, "%.*s", (int)(close - p + 1), p);
        } else {
            o += (size_t)snprintf(out + o, len - o, "%s", value_str(v, num, sizeof num));
        }
        p = close + 1;
    }
    out[o < len ? o : len - 1] = 0;
    return rc;
}
