#include "probe.h"
#include "caselog.h"
#include "clock.h"
#include "guarded.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Does probe tc need the outcome of probe other first?  It does when it requires (or depends with
 * `when`) other's feature or a derived feature standing on it, and a plain `resize` needs the
 * trigger probes (it uses the trigger they find). */
static bool names(const char *need, const char *feature)
{
    if (!strcmp(need, feature))
        return true;
    for (const char *const *in = features_inputs(need); *in; in++)
        if (!strcmp(*in, feature))
            return true;
    return false;
}

static bool needs(const struct testcase *tc, const struct testcase *other)
{
    for (int i = 0; i < tc->nsteps; i++) {
        const struct step *st = &tc->steps[i];
        const char *need = st->when ? st->when
                           : st->kind == STEP_REQUIRE && st->ntokens >= 2 ? st->tokens[st->ntokens - 1] : NULL;
        if (need && names(need, other->feature))
            return true;
        if (st->kind == STEP_COMMAND && !strncmp(st->command, "resize ", 7) && !strstr(st->command, " via ") &&
            names("sync-requests", other->feature))
            return true;
    }
    return false;
}

int probes_order(struct testcase **probes, int n, char *err, size_t errlen)
{
    struct testcase **sorted = calloc((size_t)n + 1, sizeof *sorted);
    bool *placed = calloc((size_t)n + 1, sizeof *placed);
    int done = 0;
    while (done < n) {
        int before = done;
        for (int i = 0; i < n; i++) {
            if (placed[i])
                continue;
            bool ready = true;
            for (int j = 0; j < n && ready; j++)
                if (j != i && !placed[j] && needs(probes[i], probes[j]))
                    ready = false;
            if (ready) {
                sorted[done++] = probes[i];
                placed[i] = true;
            }
        }
        if (done == before) {
            size_t o = (size_t)snprintf(err, errlen, "the probes need each other in a circle:");
            for (int i = 0; i < n && o < errlen; i++)
                if (!placed[i])
                    o += (size_t)snprintf(err + o, errlen - o, " %s", probes[i]->path);
            free(sorted);
            free(placed);
            return -1;
        }
    }
    memcpy(probes, sorted, (size_t)n * sizeof *probes);
    free(sorted);
    free(placed);
    return 0;
}

/* An attempt that is not the last keeps its logs as FEATURE.attempt-N.*, so the feature's own
 * logs are those of the attempt that decided it. */
static void keep_attempt_logs(const char *log_dir, const char *feature, int attempt)
{
    DIR *d = opendir(log_dir);
    if (!d)
        return;
    size_t len = strlen(feature);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, feature, len) || e->d_name[len] != '.' || strstr(e->d_name, ".attempt-") ||
            strstr(e->d_name, ".crashed."))
            continue;
        char from[4096], to[4096];
        snprintf(from, sizeof from, "%s/%s", log_dir, e->d_name);
        snprintf(to, sizeof to, "%s/%s.attempt-%d%s", log_dir, feature, attempt, e->d_name + len);
        rename(from, to);
    }
    closedir(d);
}

struct probe_ctx {
    struct features *fs;
    const char *log_dir;
    const struct probe_hooks *hooks;
    int restarts;
};

static bool restart(struct probe_ctx *pc)
{
    pc->restarts++;
    char why[1024];
    return pc->hooks->restart(pc->hooks->ctx, why, sizeof why) == 0;
}

/* What the probe's verdict says of its feature. */
static void decide_feature(struct features *fs, const struct testcase *tc, const struct result *res,
                           struct session *s, const struct run_env *env)
{
    char text[512];
    switch (res->verdict) {
    case VERDICT_PASS:
        if (!tc->detail || run_expand(s, env, tc->detail, text, sizeof text) < 0)
            snprintf(text, sizeof text, "%s", tc->description);
        features_set(fs, tc->feature, FEATURE_PRESENT, "probe", "%s", text);
        break;
    case VERDICT_FAIL:
        if (run_expand(s, env, tc->absent, text, sizeof text) < 0)
            snprintf(text, sizeof text, "%s", tc->absent);
        features_set(fs, tc->feature, FEATURE_ABSENT, "probe", "%s", text);
        break;
    case VERDICT_SKIP: /* a feature it needs is missing: that is the plain reason */
        if (res->unobservable) /* ... or nothing can see what it looks at: not decided, and said so */
            features_set(fs, tc->feature, FEATURE_UNKNOWN, "unobservable", "cannot be seen here: %s", res->reason);
        else
            features_set(fs, tc->feature, FEATURE_ABSENT, "probe", "%s", res->reason);
        break;
    case VERDICT_UNRESOLVED:
        features_set(fs, tc->feature, FEATURE_UNKNOWN, "probe", "its probe could not decide: %s", res->reason);
        break;
    }
}

static void set_selection_features(struct features *fs, const struct compositor *wm)
{
    features_set_listed(fs, wm->supported, wm->nsupported);
    if (wm->wm_owner)
        features_set(fs, "wm", FEATURE_PRESENT, "selection", "owns WM_S0 (%s)", wm->wm_name[0] ? wm->wm_name : "no _NET_WM_NAME");
    else
        features_set(fs, "wm", FEATURE_ABSENT, "selection",
                     "the compositor under test is not a window manager (nobody owns WM_S0)");
    if (wm->cm_owner)
        features_set(fs, "compositing", FEATURE_PRESENT, "selection", "owns _NET_WM_CM_S0");
    else
        features_set(fs, "compositing", FEATURE_ABSENT, "selection",
                     "the compositor under test does not composite (nobody owns _NET_WM_CM_S0)");
}

/* How many times the compositor may be restarted while it is probed: a compositor that keeps
 * crashing leaves the rest of its features unknown instead of holding the run for ever. */
#define MAX_PROBE_RESTARTS 6

/* The probe's logs before a re-probe: PREFIX.crashed.* (the re-probe writes the feature's own). */
static void keep_crashed_logs(const char *prefix)
{
    static const char *const ext[] = {".log", ".png"};
    for (int i = 0; i < 2; i++) {
        char from[4200], to[4300];
        snprintf(from, sizeof from, "%s%s", prefix, ext[i]);
        snprintf(to, sizeof to, "%s.crashed%s", prefix, ext[i]);
        rename(from, to);
    }
}

/* One run of a probe, as a guarded run; writes its log.  Returns the compositor's health. */
static enum liveness probe_once(const struct testcase *tc, const struct guard *g, enum profile p, const char *prefix,
                                struct session *s, struct result *res)
{
    off_t log_from = 0;
    enum liveness h = guarded_run(tc, g, p, prefix, s, res, &log_from);
    write_case_log(res->log_path, tc, p, res, s, g->env->wm, log_from);
    return h;
}

/* A probe runs until it decides on a healthy compositor: `attempts:` more runs while it finds the
 * feature absent; after a crash or hang, a restart and one re-probe.  Returns false when the
 * compositor could not be restarted (nothing more can be probed). */
static bool probe_feature(const struct testcase *tc, struct probe_ctx *pc, const struct guard *g, enum profile p)
{
    char prefix[4096];
    snprintf(prefix, sizeof prefix, "%s/%s", pc->log_dir, tc->feature);
    int attempts = tc->attempts > 0 ? tc->attempts : 1;
    struct result res, crash = {0};
    struct session s;
    int64_t first_start = 0;
    bool crashed = false;
    /* a probe that saw the feature's absence may have lost a race with the compositor (one
     * unfinished update shown right after the first paint); `attempts:` runs it again, and
     * a single success is evidence of the feature, which its cases then test in full */
    for (int a = 1; a <= attempts; a++) {
        enum liveness h = probe_once(tc, g, p, prefix, &s, &res);
        if (!first_start)
            first_start = res.start_us;
        if (h != LIVE_OK) {
            if (crashed) { /* again after a restart: the feature cannot be decided */
                snprintf(crash.reason + strlen(crash.reason), sizeof crash.reason - strlen(crash.reason),
                         "; and again when it was probed after a restart: %.600s", res.reason);
                pc->hooks->incident(pc->hooks->ctx, tc, &crash);
                features_set(pc->fs, tc->feature, FEATURE_UNKNOWN, "probe",
                             "not decided: the compositor crashed or hung during its probe, also after a restart "
                             "(%.300s)", res.observed);
                session_free(&s);
                return pc->restarts < MAX_PROBE_RESTARTS && restart(pc);
            }
            crash = res;
            crashed = true;
            session_free(&s);
            keep_crashed_logs(prefix);
            snprintf(crash.log_path, sizeof crash.log_path, "%s.crashed.log", prefix);
            if (pc->restarts >= MAX_PROBE_RESTARTS || !restart(pc)) {
                pc->hooks->incident(pc->hooks->ctx, tc, &crash);
                features_set(pc->fs, tc->feature, FEATURE_UNKNOWN, "probe",
                             "not decided: the compositor crashed or hung during its probe (%.300s)", crash.observed);
                return false;
            }
            a--; /* the re-probe does not count as an attempt */
            continue;
        }
        if (res.verdict != VERDICT_FAIL || a == attempts || proc_interrupted())
            break;
        session_free(&s);
        keep_attempt_logs(pc->log_dir, tc->feature, a);
    }
    if (crashed) { /* decided on the restarted compositor; the crash is still a finding */
        snprintf(crash.reason + strlen(crash.reason), sizeof crash.reason - strlen(crash.reason),
                 "; after a restart the probe decided");
        pc->hooks->incident(pc->hooks->ctx, tc, &crash);
    }
    decide_feature(pc->fs, tc, &res, &s, g->env);
    res.start_us = first_start;
    struct feature *f = features_get(pc->fs, tc->feature);
    if (f)
        f->ms = (double)(res.end_us - res.start_us) / 1000.0;
    session_free(&s);
    return true;
}

void probes_run(struct testcase **probes, int n, struct run_env *env, struct features *fs, const char *client_binary,
                const char *log_dir, enum profile p, const struct probe_hooks *hooks)
{
    int64_t begin = clock_now_us();
    env->features = fs;
    set_selection_features(fs, env->wm);
    if (env->observer_binary && env->observer_binary[0]) /* a client run: the states its command reaches (clients/NAME.conf) */
        features_set_client_states(fs, getenv("FRAMESYNC_CLIENT_ANIMATES"));
    /* the trigger probes' features exist (unknown) before any of them ran, so the derived ones
     * say "not decided" rather than "absent" while probing */
    features_derive(fs);
    struct probe_ctx pc = {.fs = fs, .log_dir = log_dir, .hooks = hooks};
    struct guard g = {.env = env, .client_binary = client_binary, .setup_attempts = PROBE_SETUP_ATTEMPTS,
                      .liveness_ms = hooks->liveness_ms, .check_always = true};
    bool alive = true;
    for (int i = 0; i < n && !proc_interrupted(); i++) {
        if (!alive) {
            features_set(fs, probes[i]->feature, FEATURE_UNKNOWN, "probe",
                         "not probed: the compositor crashed or hung %d times while it was probed", pc.restarts);
            continue;
        }
        alive = probe_feature(probes[i], &pc, &g, p);
        features_derive(fs);
    }
    features_derive(fs);
    fs->probe_ms = (double)(clock_now_us() - begin) / 1000.0;
}
