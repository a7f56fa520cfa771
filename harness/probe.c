#include "probe.h"
#include "caselog.h"
#include "clock.h"
#include "guarded.h"
#include "app-exit.h"

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

/* Renames every FEATURE.* log of a probe run (its log, screenshot, clients' logs) to
 * FEATURE<mark>.*, leaving those of earlier runs (already marked) alone. */
static void set_aside_logs(const char *log_dir, const char *feature, const char *mark)
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
        snprintf(to, sizeof to, "%s/%s%s%s", log_dir, feature, mark, e->d_name + len);
        rename(from, to);
    }
    closedir(d);
}

/* An attempt that is not the last keeps its logs as FEATURE.attempt-N.*, so the feature's own
 * logs are those of the attempt that decided it. */
static void keep_attempt_logs(const char *log_dir, const char *feature, int attempt)
{
    char mark[32];
    snprintf(mark, sizeof mark, ".attempt-%d", attempt);
    set_aside_logs(log_dir, feature, mark);
}

struct probe_ctx {
    struct features *fs;
    const char *log_dir;
    const struct probe_hooks *hooks;
    int restarts;
    bool app_not_started;   /* the application under test does not start: nothing more is probed */
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
        if (app_is_crash(res)) { /* not run: a feature it needs was not decided (run-features.c) */
            const char *why = res->reason;
            if (!strncmp(why, APP_NOT_RUN, strlen(APP_NOT_RUN)))
                why += strlen(APP_NOT_RUN);
            features_set(fs, tc->feature, FEATURE_UNKNOWN, APP_CRASH_SOURCE, "%s", why);
            break;
        }
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

/* The probe's logs before a re-probe: every PREFIX.* (its log, screenshot, clients' logs) becomes
 * PREFIX.crashed.* (the re-probe writes the feature's own), and the crash's reason names them so. */
static void keep_crashed_logs(const char *log_dir, const char *feature, struct result *crash)
{
    set_aside_logs(log_dir, feature, ".crashed");
    char was[4096], now[4200], text[sizeof crash->reason];
    snprintf(was, sizeof was, "%s/%s.", log_dir, feature);
    snprintf(now, sizeof now, "%s/%s.crashed.", log_dir, feature);
    size_t o = 0;
    for (const char *p = crash->reason; *p && o + 1 < sizeof text;) {
        if (!strncmp(p, was, strlen(was))) {
            o += (size_t)snprintf(text + o, sizeof text - o, "%s", now);
            p += strlen(was);
        } else
            text[o++] = *p++;
    }
    text[o < sizeof text ? o : sizeof text - 1] = 0;
    snprintf(crash->reason, sizeof crash->reason, "%s", text);
    snprintf(crash->log_path, sizeof crash->log_path, "%s/%s.crashed.log", log_dir, feature);
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

/* Who broke a probe's run: the compositor (it died, was stopped or stopped answering: it is
 * restarted) or the application under test (it ended by itself: each run starts it anew). */
enum breaker { BROKE_NONE, BROKE_COMPOSITOR, BROKE_APPLICATION };

static const char *const broke_words[] = {"", "the compositor crashed or hung", "the application under test crashed"};
static const char *const again_words[] = {"", "after a restart", "in a second run"};

/* The feature after a second broken run: not decided.  The application's words are quoted by every
 * case (and probe) that needs the feature (run-features.c), so they name the probe. */
static void undecided(struct probe_ctx *pc, const struct testcase *tc, enum profile p, enum breaker b,
                      const char *observed)
{
    if (b == BROKE_APPLICATION)
        features_set(pc->fs, tc->feature, FEATURE_UNKNOWN, APP_CRASH_SOURCE,
                     "the application under test crashed in each run of the probe of %s (probe/%s [%s]): %.300s",
                     tc->feature, tc->feature, profile_name(p), observed);
    else
        features_set(pc->fs, tc->feature, FEATURE_UNKNOWN, "probe",
                     "not decided: %s during its probe, also %s (%.300s)", broke_words[b], again_words[b], observed);
}

/* A probe runs until it decides on a healthy compositor and a living application: `attempts:`
 * more runs while it finds the feature absent; after a crash or hang of the compositor, a restart
 * and one re-probe; after a crash of the application, one re-probe (the feature is never decided
 * from a run during which either ended: an application that died has not shown that it lacks
 * anything).  Returns false when nothing more can be probed: the compositor could not be
 * restarted, or the application does not start (pc->hooks->not_started was told). */
static bool probe_feature(const struct testcase *tc, struct probe_ctx *pc, const struct guard *g, enum profile p)
{
    char prefix[4096];
    snprintf(prefix, sizeof prefix, "%s/%s", pc->log_dir, tc->feature);
    int attempts = tc->attempts > 0 ? tc->attempts : 1;
    struct result res, crash = {0};
    struct session s;
    int64_t first_start = 0;
    enum breaker crashed = BROKE_NONE;
    /* a probe that saw the feature's absence may have lost a race with the compositor (one
     * unfinished update shown right after the first paint); `attempts:` runs it again, and
     * a single success is evidence of the feature, which its cases then test in full */
    for (int a = 1; a <= attempts; a++) {
        enum liveness h = probe_once(tc, g, p, prefix, &s, &res);
        if (!first_start)
            first_start = res.start_us;
        if (res.app_not_started) { /* an input error: the run stops */
            pc->app_not_started = true;
            pc->hooks->not_started(pc->hooks->ctx, res.reason);
            session_free(&s);
            return false;
        }
        /* (a probe that needs a feature whose probe the application crashed in is not run: that crash's
         * FAIL, not one of its own: decide_feature) */
        enum breaker b = h != LIVE_OK                       ? BROKE_COMPOSITOR
                         : app_is_crash(&res) && s.app_exit ? BROKE_APPLICATION
                                                            : BROKE_NONE;
        if (b != BROKE_NONE) {
            if (crashed) { /* again on a fresh start: the feature cannot be decided */
                snprintf(crash.reason + strlen(crash.reason), sizeof crash.reason - strlen(crash.reason),
                         "; and again %s: %.600s", again_words[b], res.reason);
                pc->hooks->incident(pc->hooks->ctx, tc, &crash);
                undecided(pc, tc, p, b, res.observed);
                session_free(&s);
                return b == BROKE_APPLICATION || (pc->restarts < MAX_PROBE_RESTARTS && restart(pc));
            }
            crash = res;
            crashed = b;
            session_free(&s);
            keep_crashed_logs(pc->log_dir, tc->feature, &crash);
            if (b == BROKE_COMPOSITOR && (pc->restarts >= MAX_PROBE_RESTARTS || !restart(pc))) {
                pc->hooks->incident(pc->hooks->ctx, tc, &crash);
                features_set(pc->fs, tc->feature, FEATURE_UNKNOWN, "probe",
                             "not decided: the compositor crashed or hung during its probe (%.300s)", crash.observed);
                return false;
            }
            a--; /* the re-probe does not count as an attempt */
            continue;
        }
        if (res.verdict != VERDICT_FAIL || app_is_crash(&res) || a == attempts || proc_interrupted())
            break;
        session_free(&s);
        keep_attempt_logs(pc->log_dir, tc->feature, a);
    }
    if (crashed) { /* decided on a fresh start; the crash is still a finding */
        snprintf(crash.reason + strlen(crash.reason), sizeof crash.reason - strlen(crash.reason),
                 "; %s the probe decided", again_words[crashed]);
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

/* The application's states are what it does by itself, whatever the compositor's profile: asked
 * once a run, under the first profile probed, and taken by the others: from this process's earlier
 * probe pass (a harness probing several profiles), or from the first probe run's table
 * ($FRAMESYNC_CLIENT_STATES_FROM: the runner probes the first profile alone, runner/probe.py). */
static const char *const state_names[] = {"client-state-animating", "client-state-idle"};
static struct feature decided_states[2]; /* as this process decided them (state UNKNOWN: not yet) */

static bool is_state_probe(const char *feature)
{
    return !strcmp(feature, "client-participates") || !strncmp(feature, "client-state-", 13);
}

static void take_state(struct features *fs, int i, bool present, const char *detail, const char *cmd)
{
    const char *prof = strstr(cmd, "--profile "), *pol = strstr(cmd, "--policy "), *now = getenv("FRAMESYNC_CLIENT_POLICY");
    bool by_reference = now && *now && strcmp(now, "reference") && (!pol || !strncmp(pol + 9, "reference", 9));
    char from[64];
    snprintf(from, sizeof from, "probe under %.*s%s", prof ? (int)strcspn(prof + 10, " ") : 7, prof ? prof + 10 : "another",
             by_reference ? ", reference policy" : "");
    features_set(fs, state_names[i], present ? FEATURE_PRESENT : FEATURE_ABSENT, from, "%s", detail);
}

static bool import_states(struct features *fs, const char *path)
{
    int taken = 0;
    for (int i = 0; i < 2; i++)
        if (decided_states[i].state != FEATURE_UNKNOWN && ++taken)
            take_state(fs, i, decided_states[i].state == FEATURE_PRESENT, decided_states[i].detail,
                       decided_states[i].source);
    FILE *f = !taken && path && *path ? fopen(path, "re") : NULL;
    char line[8192];
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char *save = NULL, *cmd = strtok_r(line, "\t", &save), *name = strtok_r(NULL, "\t", &save);
        char *state = strtok_r(NULL, "\t", &save), *source = strtok_r(NULL, "\t", &save);
        char *ms = strtok_r(NULL, "\t", &save), *detail = strtok_r(NULL, "", &save);
        for (int i = 0; i < 2 && cmd && name && state && source && ms && detail; i++)
            if (!strcmp(name, state_names[i]) && !features_decided(fs, name) && strcmp(state, "unknown") && ++taken)
                take_state(fs, i, !strcmp(state, "present"), detail, cmd);
    }
    if (f)
        fclose(f);
    return taken == 2;
}

bool probe_states_known(void)
{
    struct features *fs = calloc(1, sizeof *fs);
    if (!fs)
        return false;
    features_init(fs, "");
    bool known = import_states(fs, getenv("FRAMESYNC_CLIENT_STATES_FROM"));
    free(fs);
    return known;
}

/* After the first probe pass of this process: its states, for the later ones. */
static void remember_states(const struct features *fs)
{
    for (int i = 0; i < 2; i++) {
        const struct feature *x = features_find(fs, state_names[i]);
        if (decided_states[i].state != FEATURE_UNKNOWN || !x || x->state == FEATURE_UNKNOWN)
            continue;
        decided_states[i] = *x; /* its source: the profile and policy it was asked under, as take_state reads it */
        const char *prof = strstr(fs->command, "--profile "), *pol = strstr(fs->command, "--policy ");
        snprintf(decided_states[i].source, sizeof decided_states[i].source, "%.*s %.*s",
                 prof ? (int)(10 + strcspn(prof + 10, " ")) : 0, prof ? prof : "",
                 pol ? (int)(9 + strcspn(pol + 9, " ")) : 0, pol ? pol : "");
    }
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
    bool alive = true, states_known = env->observer_binary && env->observer_binary[0] &&
                                         import_states(fs, getenv("FRAMESYNC_CLIENT_STATES_FROM"));
    for (int i = 0; i < n && !proc_interrupted() && !pc.app_not_started; i++) {
        if (states_known && !strncmp(probes[i]->feature, "client-state-", 13))
            continue;
        if (hooks->states_only && !is_state_probe(probes[i]->feature))
            continue;
        if (!alive) {
            features_set(fs, probes[i]->feature, FEATURE_UNKNOWN, "probe",
                         "not probed: the compositor crashed or hung %d times while it was probed", pc.restarts);
            continue;
        }
        alive = probe_feature(probes[i], &pc, &g, p);
        features_derive(fs);
    }
    features_derive(fs);
    if (env->observer_binary && env->observer_binary[0]) {
        remember_states(fs);
        features_note_animates_hint(fs, getenv("FRAMESYNC_CLIENT_ANIMATES"));
    }
    fs->probe_ms = (double)(clock_now_us() - begin) / 1000.0;
}
