#include "executor.h"
#include "caselog.h"
#include "clock.h"
#include "grabwatch.h"
#include "guarded.h"
#include "lifecycle.h"
#include "outdir.h"
#include "probe.h"
#include "run-verdict.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_USAGE 2

/* The run cannot go on: `Bail out!` on the TAP, the reason in results.json and on stderr. */
static int bail_out(struct run *r, const char *why, int status)
{
    tap_bail_out(&r->tap, why);
    results_finish(r->results, why);
    fprintf(stderr, "framesync: %s\n", why);
    return status;
}

/* SIGINT/SIGTERM/SIGHUP: TAP ends with `Bail out!`, results.json says so; exit 128 + signal. */
static int interrupted(struct run *r)
{
    char why[64];
    snprintf(why, sizeof why, "interrupted by %s", strsignal(proc_interrupted()));
    tap_bail_out(&r->tap, why);
    results_finish(r->results, why);
    return 128 + proc_interrupted();
}

/* The grab watch killed an X server that answered nobody (grabwatch.h): nothing after it can be
 * judged. */
static int server_stuck(struct run *r)
{
    char why[256];
    snprintf(why, sizeof why, "the X server answered nobody for %lld ms, also after the compositor was stopped "
             "(stuck in a request); the watch stopped it, so no later case can be judged",
             (long long)grabwatch_server_killed_ms());
    return bail_out(r, why, EXIT_USAGE);
}

/* OUT/features.tsv: the feature tables this run used (a --probe run's product; any run's, so
 * that re-runs of its cases judge by the same table with --features). */
static int write_features(struct run *r)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/features.tsv", r->o->out_dir);
    FILE *f = fopen(path, "we");
    if (!f) {
        fprintf(stderr, "framesync: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    for (int i = 0; i < r->ntables; i++)
        features_write_tsv(r->tables[i], f);
    fclose(f);
    return 0;
}

/* Our Xvfb with its oracles and grab watch; a compositor that brings its own X server gets them at
 * each of its starts (lifecycle.c). */
static int start_server(struct run *r)
{
    char err[3000];
    const struct options *o = r->o;
    if (!o->own_xserver) {
        if (xserver_start(&r->x, r->tmp_dir, 10000, err, sizeof err) < 0)
            return proc_interrupted() ? interrupted(r) : bail_out(r, err, EXIT_USAGE);
    }
    const char *client_cmd = getenv("FRAMESYNC_CLIENT_COMMAND");
    if (o->client) {
        results_client(r->results, o->client_named ? o->client_profile.name : "", client_cmd, o->policy);
        tap_comment(&r->tap, "client under test: %s%s%s", o->client_named ? o->client_profile.name : "",
                    o->client_named ? ": " : "", client_cmd);
    }
    tap_comment(&r->tap, "private home and session bus of the run's processes (each compositor start has its own): %s%s%s",
                r->home.dir, r->home.no_bus[0] ? "; no session bus: " : "", r->home.no_bus);
    if (o->own_xserver)
        return 0;
    tap_comment(&r->tap, "X server Xvfb %s ready after %.0f ms (no TCP, private auth cookie)", r->x.display_name,
                (double)(r->x.ready_us - r->x.start_us) / 1000.0);
    if (lifecycle_attach_observers(r, err, sizeof err) < 0)
        return bail_out(r, err, EXIT_USAGE);
    return 0;
}

/* The application's states are what it does by itself: under a policy that disturbs it (a drawn
 * message left out freezes an application that waits for it) they are found first under the
 * reference policy, where nothing disturbs it, and the policy's probe pass takes them. */
static bool needs_states_pass(const struct run *r)
{
    return r->observer_binary[0] && r->o->policy && strcmp(r->o->policy, "reference") && !probe_states_known();
}

static int states_pass(struct run *r, unsigned profiles)
{
    int p = PROFILE_FIRST;
    while (p <= PROFILE_LAST && !(profiles & (unsigned)p))
        p <<= 1;
    char why[3000], ended[256];
    tap_comment(&r->tap, "finding the application's states under the reference policy first");
    r->states_pass = true;
    enum wm_state st = lifecycle_ensure(r, (enum profile)p, ended, sizeof ended, why, sizeof why);
    lifecycle_stop(r);
    r->states_pass = false;
    if (st == WM_NOT_STARTED)
        return proc_interrupted() ? interrupted(r) : bail_out(r, why, EXIT_USAGE);
    if (proc_interrupted())
        return interrupted(r);
    return r->app_not_started[0] ? bail_out(r, r->app_not_started, EXIT_USAGE) : 0;
}

/* Every profile's compositor, started and probed before the plan: a crash while probing is a
 * result of its own, and the plan must count it.  (A worker given --features probes nothing.) */
static int probe_phase(struct run *r, unsigned profiles)
{
    int rc = needs_states_pass(r) ? states_pass(r, profiles) : 0;
    if (rc)
        return rc;
    for (int p = PROFILE_FIRST; p <= PROFILE_LAST; p <<= 1) {
        if (!(profiles & (unsigned)p))
            continue;
        char why[3000], ended[256];
        if (lifecycle_ensure(r, (enum profile)p, ended, sizeof ended, why, sizeof why) == WM_NOT_STARTED)
            /* the command never started at all: a usage error, not a verdict */
            return proc_interrupted() ? interrupted(r) : bail_out(r, why, EXIT_USAGE);
        if (proc_interrupted())
            return interrupted(r);
        if (r->app_not_started[0]) /* the application under test does not start: the same */
            return bail_out(r, r->app_not_started, EXIT_USAGE);
        if (grabwatch_server_killed_ms())
            return server_stuck(r);
    }
    return 0;
}

static void report_incidents(struct run *r)
{
    for (int i = 0; i < r->nincidents; i++) {
        struct incident *in = &r->incidents[i];
        tap_result(&r->tap, in->probe, in->p, &in->res, &r->cat, NULL, r->wm.command);
        results_add(r->results, in->probe, in->p, &in->res);
    }
}

/* The compositor had ended between two cases: the case that was to run is its crash's result
 * (the case itself runs in a later run: nothing about it was seen). */
static void ended_before(struct result *res, const char *ended)
{
    res->verdict = VERDICT_FAIL;
    res->clause = CRASH_CLAUSE;
    snprintf(res->reason, sizeof res->reason,
             "the compositor under test had ended before this case began (%s); it was restarted, and this case "
             "was not run", ended);
    snprintf(res->observed, sizeof res->observed, "compositor %s", ended);
    res->start_us = res->end_us = clock_now_us();
}

/* One item: the compositor made ready, the case run under the guard, its log and results. */
static int run_item(struct run *r, const struct item *it)
{
    struct result res = {0};
    struct session s;
    char prefix[PATH_MAX], why[3000], ended[256] = "", broken[800] = "";
    case_log_prefix(r->o->out_dir, it->tc, it->p, prefix, sizeof prefix);
    off_t log_from = 0;
    bool started_before = r->wm_ever_ready;
    enum wm_state st = lifecycle_ensure(r, it->p, ended, sizeof ended, why, sizeof why);
    if (proc_interrupted())
        return interrupted(r);
    if (st == WM_NOT_STARTED && !started_before) /* the command never started at all: a usage error */
        return bail_out(r, why, EXIT_USAGE);
    if (r->app_not_started[0]) /* it probed, and the application under test did not start */
        return bail_out(r, r->app_not_started, EXIT_USAGE);
    if (st == WM_READY) {
        struct run_env env = lifecycle_env(r);
        struct guard g = {.env = &env, .client_binary = r->client_binary, .setup_attempts = CASE_SETUP_ATTEMPTS,
                          .liveness_ms = lifecycle_liveness_ms(r)};
        if (guarded_run(it->tc, &g, it->p, prefix, &s, &res, &log_from) != LIVE_OK) /* the next case gets a fresh one */
            snprintf(broken, sizeof broken, "it %s in %s [%s]", res.observed + strlen("compositor "), it->tc->id,
                     profile_name(it->p));
    } else {
        session_init(&s, r->client_binary, prefix);
        snprintf(res.log_path, sizeof res.log_path, "%s.log", prefix);
        if (st == WM_HAD_ENDED)
            ended_before(&res, ended);
        else {
            res.verdict = VERDICT_FAIL;
            snprintf(res.reason, sizeof res.reason, "the compositor could not be (re)started: %s", why);
            res.start_us = res.end_us = clock_now_us();
        }
    }
    if (proc_interrupted()) {
        session_free(&s);
        return interrupted(r);
    }
    if (res.app_not_started) { /* in its first case (a worker given --features): a usage error */
        session_free(&s);
        return bail_out(r, res.reason, EXIT_USAGE);
    }
    if (grabwatch_server_killed_ms()) {
        session_free(&s);
        return server_stuck(r);
    }
    write_case_log(res.log_path, it->tc, it->p, &res, &s, &r->wm, log_from);
    tap_result(&r->tap, it->tc, it->p, &res, &r->cat, &s, r->wm.command);
    results_add(r->results, it->tc, it->p, &res);
    session_free(&s); /* before a stop: the session holds the oracles a stop of an own X server frees */
    if (broken[0])
        lifecycle_stop_broken(r, broken);
    return 0;
}

/* The profiles the items need compositors for (with --probe: every selected profile). */
static unsigned profiles_of(const struct run *r, const struct item *items, int nitems)
{
    if (r->o->action == ACTION_PROBE)
        return r->o->profiles;
    unsigned ps = 0;
    for (int i = 0; i < nitems; i++)
        ps |= (unsigned)items[i].p;
    return ps;
}

static int finish(struct run *r, int nitems)
{
    write_features(r);
    struct run_verdict v;
    run_verdict_decide(&v, r, nitems);
    if (v.reason[0])
        tap_comment(&r->tap, "run: %s%s%s%s", v.accepted ? "accepted by " : "UNRESOLVED: ",
                    v.accepted ? v.accepted_by : "", v.accepted ? ": " : "", v.reason);
    tap_summary(&r->tap);
    results_run_verdict(r->results, v.accepted || !v.reason[0] ? "complete" : "UNRESOLVED", v.reason,
                        v.exit_status);
    results_finish(r->results, "complete");
    return v.exit_status;
}

int executor_run(struct run *r, const struct item *items, int nitems)
{
    bool probe_only = r->o->action == ACTION_PROBE;
    int rc = start_server(r);
    if (rc)
        return rc;
    if (!r->o->features_file && (rc = probe_phase(r, profiles_of(r, items, nitems))))
        return rc;
    tap_plan(&r->tap, (probe_only ? 0 : nitems) + r->nincidents);
    report_incidents(r);
    if (probe_only) {
        if (write_features(r) < 0)
            return EXIT_USAGE;
        tap_summary(&r->tap);
        results_finish(r->results, "complete");
        return r->nincidents ? 1 : 0;
    }
    for (int i = 0; i < nitems; i++)
        if ((rc = run_item(r, &items[i])))
            return rc;
    return finish(r, nitems);
}

void executor_cleanup(struct run *r)
{
    /* the compositor first: a server grab it holds would block the oracles' last round trips */
    lifecycle_stop(r);
    oracles_destroy(r->oracles, r->noracles);
    r->noracles = 0;
    grabwatch_stop();
    xserver_stop(&r->x);
    isolation_close(&r->home);
    proc_kill_all();
    if (r->tmp_dir[0])
        remove_tree(r->tmp_dir);
    /* the feature tables and the probes' incidents: the run's verdict has been decided */
    for (int i = 0; i < r->ntables; i++)
        free(r->tables[i]);
    free(r->tables);
    free(r->incidents);
    r->tables = NULL;
    r->ntables = 0;
    r->features = NULL;
    r->incidents = NULL;
    r->nincidents = 0;
}
