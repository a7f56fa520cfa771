#include "results.h"
#include "clock.h"
#include "json-write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct results {
    char path[1024];
    char *cases_json;       /* the "cases" array members written so far */
    size_t cases_len;
    char *compositors_json;
    size_t compositors_len;
    char *features_json;
    size_t features_len;
    char *captures_json;    /* the "captures" members: the screen stream's figures, one a start */
    size_t captures_len;
    int ncaptures;
    int nfeatures;
    /* the findings: distinct clauses broken, each with its cases */
    const struct catalog *cat;
    struct finding {
        char clause[128];
        enum level level;
        char cases[4096];
        int n;
    } findings[64];
    int nfindings;
    int ncases, ncompositors;
    char started[64];
    char status[128];
    char client_name[64];    /* --client: the application under test ("" in a compositor run) */
    char client_command[2048];
    char policy[64];         /* --client: fake-wm's policy (every case's result names it) */
    char run_verdict[32];    /* "" until the run ends: then "complete" or "UNRESOLVED" */
    char run_reason[2048];
    int exit_status;
    int64_t start_us;
};

static void kv(FILE *f, const char *key, const char *value, bool comma)
{
    fprintf(f, "\"%s\": ", key);
    json_string(f, value);
    if (comma)
        fputs(", ", f);
}

static void write_file(struct results *r)
{
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", r->path);
    FILE *f = fopen(tmp, "we");
    if (!f)
        return;
    fputs("{\n  \"format\": \"framesync-results-1\",\n  ", f);
    kv(f, "started", r->started, true);
    kv(f, "status", r->status, false);
    if (r->client_command[0]) { /* a client run: which application was under test */
        fputs(",\n  \"client\": {", f);
        kv(f, "name", r->client_name, true);
        kv(f, "command", r->client_command, true);
        kv(f, "policy", r->policy, false);
        fputc('}', f);
    }
    if (r->run_verdict[0]) { /* the whole run's verdict: a run that tested nothing is not green */
        fputs(",\n  \"run\": {", f);
        kv(f, "verdict", r->run_verdict, true);
        kv(f, "reason", r->run_reason, false);
        fprintf(f, ", \"exit_status\": %d}", r->exit_status);
    }
    fprintf(f, ",\n  \"wall_ms\": %.1f,\n  \"compositors\": [%s\n  ],", (double)(clock_now_us() - r->start_us) / 1000.0,
            r->compositors_json ? r->compositors_json : "");
    if (r->captures_json) /* only where a screen stream ran */
        fprintf(f, "\n  \"captures\": [%s\n  ],", r->captures_json);
    fprintf(f, "\n  \"features\": [%s\n  ],\n  \"findings\": [", r->features_json ? r->features_json : "");
    for (int i = 0; i < r->nfindings; i++) {
        fprintf(f, "%s\n    {\"clause\": ", i ? "," : "");
        json_string(f, r->findings[i].clause);
        fprintf(f, ", \"level\": \"%s\", \"count\": %d, \"cases\": [%s]}", level_name(r->findings[i].level),
                r->findings[i].n, r->findings[i].cases);
    }
    fprintf(f, "\n  ],\n  \"cases\": [%s\n  ]\n}\n", r->cases_json ? r->cases_json : "");
    fclose(f);
    rename(tmp, r->path); /* readers never see a half-written document */
}

struct results *results_open(const char *path, const struct catalog *cat)
{
    struct results *r = calloc(1, sizeof *r);
    r->cat = cat;
    snprintf(r->path, sizeof r->path, "%s", path);
    time_t now = time(NULL);
    strftime(r->started, sizeof r->started, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    snprintf(r->status, sizeof r->status, "running");
    r->start_us = clock_now_us();
    write_file(r);
    return r;
}

static void append(char **buf, size_t *len, const char *text)
{
    size_t n = strlen(text);
    *buf = realloc(*buf, *len + n + 1);
    memcpy(*buf + *len, text, n + 1);
    *len += n;
}

void results_compositor(struct results *r, const struct compositor *c, enum profile p)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    fprintf(f, "%s\n    {", r->ncompositors++ ? "," : "");
    kv(f, "profile", profile_name(p), true);
    kv(f, "command", c->command, true);
    kv(f, "name", c->wm_name, true);
    if (c->conf)
        kv(f, "conf", c->conf, true);
    kv(f, "xserver", c->own_xserver ? "own" : "xvfb", true);
    kv(f, "screen_oracle", c->screen_oracle ? c->screen_oracle : "", true);
    if (c->input_path)
        kv(f, "input_path", c->input_path, true);
    if (c->allow_empty)
        kv(f, "allow_empty", c->allow_empty, true);
    fprintf(f, "\"composites\": %s, \"ready_ms\": %.1f, \"supported\": [",
            c->cm_owner ? "true" : "false", (double)(c->ready_us - c->start_us) / 1000.0);
    for (int i = 0; i < c->nsupported; i++) {
        if (i)
            fputs(", ", f);
        json_string(f, c->supported[i]);
    }
    fputs("]}", f);
    fclose(f);
    append(&r->compositors_json, &r->compositors_len, text);
    free(text);
    write_file(r);
}

void results_capture(struct results *r, enum profile p, const char *display, const struct stream_stats *st)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    double secs = (double)st->span_us / 1e6;
    fprintf(f, "%s\n    {", r->ncaptures++ ? "," : "");
    kv(f, "profile", profile_name(p), true);
    kv(f, "display", display, true);
    fprintf(f, "\"frames\": %llu, \"seconds\": %.3f, \"fps\": %.2f, \"refresh_hz\": %.3f, \"gaps\": %llu, "
            "\"gap_ms\": %.3f, \"failed\": %llu}", (unsigned long long)st->frames, secs,
            secs > 0 ? (double)st->frames / secs : 0.0, st->refresh_mhz / 1000.0, (unsigned long long)st->gaps,
            (double)st->gap_us / 1000.0, (unsigned long long)st->failed);
    fclose(f);
    append(&r->captures_json, &r->captures_len, text);
    free(text);
    write_file(r);
}

void results_features(struct results *r, const struct features *fs)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    fprintf(f, "%s\n    ", r->nfeatures++ ? "," : "");
    features_json(fs, f);
    fclose(f);
    append(&r->features_json, &r->features_len, text);
    free(text);
    write_file(r);
}

/* One finding per clause broken: the cases (and profiles) that show it. */
static void add_finding(struct results *r, const char *clause, const char *id, enum profile p)
{
    struct finding *fd = NULL;
    for (int i = 0; i < r->nfindings && !fd; i++)
        if (!strcmp(r->findings[i].clause, clause))
            fd = &r->findings[i];
    if (!fd) {
        if (r->nfindings == (int)(sizeof r->findings / sizeof r->findings[0]))
            return;
        fd = &r->findings[r->nfindings++];
        snprintf(fd->clause, sizeof fd->clause, "%s", clause);
        fd->level = catalog_level(r->cat, clause);
    }
    size_t o = strlen(fd->cases);
    snprintf(fd->cases + o, sizeof fd->cases - o, "%s\"%s [%s]\"", fd->n++ ? ", " : "", id, profile_name(p));
}

void results_add(struct results *r, const struct testcase *tc, enum profile p, const struct result *res)
{
    if (res->verdict == VERDICT_FAIL && res->clause)
        add_finding(r, res->clause, tc->id, p);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    fprintf(f, "%s\n    {", r->ncases++ ? "," : "");
    kv(f, "id", tc->id, true);
    kv(f, "profile", profile_name(p), true);
    if (r->policy[0])
        kv(f, "policy", r->policy, true);
    fputs("\"clauses\": [", f);
    for (int i = 0; i < tc->nclauses; i++) {
        if (i)
            fputs(", ", f);
        json_string(f, tc->clauses[i]);
    }
    fputs("], ", f);
    kv(f, "verdict", verdict_name(res->verdict), true);
    if (res->clause) {
        kv(f, "failed_clause", res->clause, true);
        kv(f, "level", level_name(catalog_level(r->cat, res->clause)), true);
    }
    if (res->attempts > 1)
        fprintf(f, "\"attempts\": %d, ", res->attempts);
    kv(f, "description", tc->description, true);
    char where[1200];
    snprintf(where, sizeof where, "%s:%d", tc->path, res->step ? res->step->line : 1);
    kv(f, "file", where, true);
    kv(f, "step", res->step ? res->step->text : "", true);
    kv(f, "reason", res->reason, true);
    kv(f, "expected", res->expected, true);
    kv(f, "observed", res->observed, true);
    kv(f, "log", res->log_path, true);
    if (res->nfigures) { /* the case's measurements (figure steps): numbers, as the case computed them */
        fputs("\"figures\": {", f);
        for (int i = 0; i < res->nfigures; i++) {
            fprintf(f, "%s", i ? ", " : "");
            json_string(f, res->figures[i].name);
            fputs(": ", f);
            char *end;
            (void)strtod(res->figures[i].value, &end);
            if (res->figures[i].value[0] && !*end) /* a number; else a word (`figure ... or WORD`) */
                fputs(res->figures[i].value, f);
            else
                json_string(f, res->figures[i].value);
        }
        fputs("}, ", f);
    }
    fprintf(f, "\"checks_run\": %d, \"checks\": %d, \"duration_ms\": %.1f}", res->checks_run, tc->checks,
            (double)(res->end_us - res->start_us) / 1000.0);
    fclose(f);
    append(&r->cases_json, &r->cases_len, text);
    free(text);
    write_file(r);
}

void results_client(struct results *r, const char *name, const char *command, const char *policy)
{
    snprintf(r->policy, sizeof r->policy, "%s", policy ? policy : "");
    snprintf(r->client_name, sizeof r->client_name, "%s", name ? name : "");
    snprintf(r->client_command, sizeof r->client_command, "%s", command ? command : "");
    write_file(r);
}

void results_run_verdict(struct results *r, const char *verdict, const char *reason, int exit_status)
{
    snprintf(r->run_verdict, sizeof r->run_verdict, "%s", verdict);
    snprintf(r->run_reason, sizeof r->run_reason, "%s", reason);
    r->exit_status = exit_status;
    write_file(r);
}

void results_finish(struct results *r, const char *status)
{
    snprintf(r->status, sizeof r->status, "%s", status);
    write_file(r);
}

void results_close(struct results *r)
{
    if (!r)
        return;
    free(r->cases_json);
    free(r->compositors_json);
    free(r->features_json);
    free(r->captures_json);
    free(r);
}
