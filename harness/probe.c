#include "probe.h"
#include "caselog.h"
#include "clock.h"

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
        if (strncmp(e->d_name, feature, len) || e->d_name[len] != '.' || strstr(e->d_name, ".attempt-"))
            continue;
        char from[4096], to[4096];
        snprintf(from, sizeof from, "%s/%s", log_dir, e->d_name);
        snprintf(to, sizeof to, "%s/%s.attempt-%d%s", log_dir, feature, attempt, e->d_name + len);
        rename(from, to);
    }
    closedir(d);
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
        features_set(fs, tc->feature, FEATURE_ABSENT, "probe", "%s", res->reason);
        break;
    case VERDICT_UNRESOLVED:
        features_set(fs, tc->feature, FEATURE_UNKNOWN, "probe", "its probe could not decide: %s", res->reason);
        break;
    }
}

static void set_selection_features(struct features *fs, const struct compositor *wm)
{
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

void probes_run(struct testcase **probes, int n, struct run_env *env, struct features *fs, const char *client_binary,
                const char *log_dir, enum profile p)
{
    int64_t begin = clock_now_us();
    env->features = fs;
    set_selection_features(fs, env->wm);
    /* the trigger probes' features exist (unknown) before any of them ran, so the derived ones
     * say "not decided" rather than "absent" while probing */
    features_derive(fs);
    for (int i = 0; i < n; i++) {
        const struct testcase *tc = probes[i];
        int attempts = tc->attempts > 0 ? tc->attempts : 1;
        struct result res = {0};
        struct session s;
        int64_t first_start = 0;
        /* a probe that saw the feature's absence may have lost a race with the compositor (one
         * unfinished update shown right after the first paint); `attempts:` runs it again, and
         * a single success is evidence of the feature, which its cases then test in full */
        char prefix[4096];
        snprintf(prefix, sizeof prefix, "%s/%s", log_dir, tc->feature);
        for (int a = 1; a <= attempts; a++) {
            memset(&res, 0, sizeof res);
            session_init(&s, client_binary, prefix);
            off_t log_from = compositor_log_offset(env->wm);
            run_case(tc, env, &s, &res);
            if (a == 1)
                first_start = res.start_us;
            snprintf(res.log_path, sizeof res.log_path, "%s.log", prefix);
            write_case_log(res.log_path, tc, p, &res, &s, env->wm, log_from);
            if (res.verdict != VERDICT_FAIL || a == attempts || proc_interrupted())
                break;
            session_free(&s);
            keep_attempt_logs(log_dir, tc->feature, a);
        }
        decide_feature(fs, tc, &res, &s, env);
        res.start_us = first_start;
        struct feature *f = features_get(fs, tc->feature);
        if (f)
            f->ms = (double)(res.end_us - res.start_us) / 1000.0;
        features_derive(fs);
        session_free(&s);
        if (proc_interrupted())
            break;
    }
    fs->probe_ms = (double)(clock_now_us() - begin) / 1000.0;
}
