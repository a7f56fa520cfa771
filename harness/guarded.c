#include "guarded.h"
#include "app-exit.h"
#include "app-keep.h"
#include "caselog.h"
#include "clock.h"
#include "policy-freeze.h"

#include <stdio.h>
#include <string.h>

void guarded_crash_verdict(struct result *res, const char *what, const char *during)
{
    char before[sizeof res->reason];
    bool own = res->verdict == VERDICT_FAIL && res->clause && !strcmp(res->clause, CRASH_CLAUSE);
    snprintf(before, sizeof before, "%s", own || res->verdict == VERDICT_PASS ? "" : res->reason);
    res->verdict = VERDICT_FAIL;
    res->clause = CRASH_CLAUSE;
    res->setup_failed = false;
    if (own) /* run_case saw the crash itself: its reason already says when and where */
        return;
    snprintf(res->reason, sizeof res->reason, "the compositor under test %s during %s%s%s", what, during,
             before[0] ? "; what the run had seen before: " : "", before);
    snprintf(res->observed, sizeof res->observed, "compositor %s", what);
    res->expected[0] = 0;
}

static const char *health_words(enum liveness h)
{
    switch (h) {
    case LIVE_EXITED: return "exited";
    case LIVE_STOPPED: return "was stopped";
    case LIVE_NO_MAP:
    case LIVE_NO_PAINT: return "stopped answering";
    case LIVE_NO_SERVER: return "lost its X server";
    case LIVE_OK: break;
    }
    return "";
}

/* Did the compositor survive the run?  The barrier only where the verdict could hide a crash:
 * after a run that did not pass, or after every run when the guard says so. */
static enum liveness health_after(const struct guard *g, const struct session *s, const struct result *res, char *why,
                                  size_t len)
{
    if (res->verdict == VERDICT_FAIL && res->clause && !strcmp(res->clause, CRASH_CLAUSE)) {
        snprintf(why, len, "%s", res->observed);
        return LIVE_EXITED; /* run_case saw it die or stop */
    }
    if ((res->verdict == VERDICT_PASS && !g->check_always) || s->nclients == 0 || proc_interrupted())
        return LIVE_OK; /* a pass, a run that asked nothing of the compositor (a `require`), or the
                           run is stopping: the barrier would only delay the exit */
    return liveness_check(g->env, g->liveness_ms, why, len);
}

/* The application under test, after the run: one that mapped a window has started (for good: a
 * later end is a crash); one that ended before it ever did cannot start (an input error, which
 * the caller reports and stops the run for); one that started and ended by itself crashed, however
 * the run noticed it (a step, or the last look before its clients were stopped). */
static void judge_application(const struct guard *g, const struct session *s, struct result *res, const char *during)
{
    bool *ever = g->env->app_ever_mapped;
    if (!s->app_exit)
        return;
    if (ever && !*ever) {
        res->verdict = VERDICT_UNRESOLVED;
        res->clause = NULL;
        res->setup_failed = false;
        res->app_not_started = true;
        app_not_started_reason(s, res->reason, sizeof res->reason);
        return;
    }
    if (!app_is_crash(res))
        app_crash_verdict(res, s, during);
}

/* An earlier attempt's logs and screenshot: PREFIX.attempt-K.log / .png */
static void keep_attempt(const char *prefix, int k)
{
    static const char *const ext[] = {".log", ".png"};
    for (int i = 0; i < 2; i++) {
        char from[4200], to[4300];
        snprintf(from, sizeof from, "%s%s", prefix, ext[i]);
        snprintf(to, sizeof to, "%s.attempt-%d%s", prefix, k, ext[i]);
        rename(from, to);
    }
}

enum liveness guarded_run(const struct testcase *tc, const struct guard *g, enum profile p, const char *prefix,
                          struct session *s, struct result *res, off_t *log_from)
{
    int attempts = g->setup_attempts > 0 ? g->setup_attempts : 1;
    char first_reason[sizeof res->reason] = "";
    int64_t first_start = 0;
    bool fresh_again = false; /* run once more on a fresh start (a state the kept application missed) */
    for (int a = 1;; a++) {
        memset(res, 0, sizeof *res);
        session_init(s, g->client_binary, prefix); /* times count from here */
        *log_from = compositor_log_offset(g->env->wm);
        run_case(tc, g->env, s, res);
        res->attempts = a;
        /* a compositor the case replaced (`replace-wm`): the instance it replaced goes with the run
         * that replaced it, before the barrier asks the new one */
        if (g->env->replacer && g->env->replacer->settle)
            g->env->replacer->settle(g->env->replacer->ctx);
        if (a == 1) {
            first_start = res->start_us;
            snprintf(first_reason, sizeof first_reason, "%s", res->reason);
        }
        /* the case's clients end before the barrier: the barrier's window must be the newest
         * and topmost, and a client still running may raise its own over it (GTK 4 presents a
         * window with XRaiseWindow where the WM lists no _NET_ACTIVE_WINDOW, a few ms after
         * the map that ends a probe) and hide it for as long as it runs */
        if (!proc_interrupted())
            session_drain(s); /* an application that ended just now: its observer has said so */
        unsigned missed = s->app_reused ? app_keep_states_unreached(s) : 0;
        if (g->env->keep) /* it may serve the next case (app-keep.h) */
            app_keep_after_case(g->env->keep, tc, s, res);
        /* after the keep's choice, which starts a frozen application anew for the next case */
        policy_freeze_explains(tc, g->env->features, s, res);
        session_stop_clients(s);
        if (s->app_mapped && g->env->app_ever_mapped)
            *g->env->app_ever_mapped = true;
        char why[512] = "";
        enum liveness h = health_after(g, s, res, why, sizeof why);
        if (h != LIVE_OK && g->env->keep && g->env->keep->held) { /* its window may hide the barrier's */
            app_keep_stop(g->env->keep);
            h = health_after(g, s, res, why, sizeof why);
        }
        if (h != LIVE_OK) { /* the compositor's end comes first: the application may have ended with it */
            char what[700];
            snprintf(what, sizeof what, "%s (%s)", health_words(h), why);
            guarded_crash_verdict(res, what, tc->feature ? "its probe" : "this case");
        } else {
            judge_application(g, s, res, tc->feature ? "its probe" : "this case");
        }
        snprintf(res->log_path, sizeof res->log_path, "%s.log", prefix);
        /* (not a probe's: the probes ask it of the application their first one just started) */
        if (h == LIVE_OK && missed && res->verdict == VERDICT_SKIP && !tc->feature && !fresh_again &&
            !proc_interrupted()) {
            fresh_again = true; /* the kept application did not reach the state: a fresh start may */
            app_keep_fresh_for(g->env->keep, missed);
            write_case_log(res->log_path, tc, p, res, s, g->env->wm, *log_from);
            keep_attempt(prefix, a);
            session_free(s);
            continue;
        }
        if (h != LIVE_OK || !res->setup_failed || a >= attempts || proc_interrupted() || res->app_not_started) {
            if (a > 1 && res->verdict != VERDICT_UNRESOLVED) /* say why it took more than one run */
                snprintf(res->observed + strlen(res->observed), sizeof res->observed - strlen(res->observed),
                         "%s(run %d of %d; the first could not set up: %.300s)", res->observed[0] ? " " : "", a,
                         attempts, first_reason);
            res->start_us = first_start;
            return h;
        }
        write_case_log(res->log_path, tc, p, res, s, g->env->wm, *log_from);
        keep_attempt(prefix, a);
        session_free(s);
    }
}
