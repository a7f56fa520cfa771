#include "app-exit.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void app_exit_describe(const struct record *app_exit, char *buf, size_t len)
{
    const char *st = record_get(app_exit, "status"), *sg = record_get(app_exit, "signal");
    int status = st ? atoi(st) : -1, sig = sg ? atoi(sg) : 0;
    if (sig > 0)
        snprintf(buf, len, "was killed by signal %d (%s)", sig, strsignal(sig));
    else if (status == 127) /* the shell's status for a command it did not find */
        snprintf(buf, len, "exited with status 127 (the shell's: command not found)");
    else if (status == 126) /* ... and for one it found but could not execute */
        snprintf(buf, len, "exited with status 126 (the shell's: found but not executable)");
    else if (status > 128 && status < 128 + NSIG) /* ... and for one a signal killed (dash does not exec it) */
        snprintf(buf, len, "exited with status %d (the shell's: its command was killed by signal %d, %s)", status,
                 status - 128, strsignal(status - 128));
    else
        snprintf(buf, len, "exited with status %d", status);
}

void app_output_tail(const char *log_path, int max_lines, char *out, size_t len)
{
    out[0] = 0;
    FILE *f = fopen(log_path, "r");
    if (!f)
        return;
    char **ring = calloc((size_t)max_lines, sizeof *ring);
    int n = 0;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "app-observer ", 13)) /* the observer's own: not the application's output */
            continue;
        line[strcspn(line, "\n")] = 0;
        free(ring[n % max_lines]);
        ring[n++ % max_lines] = strdup(line);
    }
    fclose(f);
    size_t o = 0;
    for (int i = n > max_lines ? n - max_lines : 0; i < n; i++) {
        if (o < len)
            o += (size_t)snprintf(out + o, len - o, "%s%s", o ? "\n" : "", ring[i % max_lines]);
    }
    for (int i = 0; i < max_lines; i++)
        free(ring[i]);
    free(ring);
}

bool app_is_crash(const struct result *res)
{
    return res->verdict == VERDICT_FAIL && res->clause && !strcmp(res->clause, CLIENT_CRASH_CLAUSE);
}

/* "; the last lines of its output (LOG):\nLINE..." or "; it printed nothing (LOG)" */
static void tail_text(const struct session *s, char *out, size_t len)
{
    const char *log = s->app_exit_client ? s->app_exit_client->stderr_path : "";
    char tail[1500];
    app_output_tail(log, APP_TAIL_LINES, tail, sizeof tail);
    if (tail[0])
        snprintf(out, len, "; the last lines of its output (%s):\n%s", log, tail);
    else
        snprintf(out, len, "; it printed nothing (%s)", log);
}

void app_crash_verdict(struct result *res, const struct session *s, const char *during)
{
    char before[sizeof res->reason], how[128], tail[1800];
    snprintf(before, sizeof before, "%s", app_is_crash(res) || res->verdict == VERDICT_PASS ? "" : res->reason);
    app_exit_describe(s->app_exit, how, sizeof how);
    tail_text(s, tail, sizeof tail);
    res->verdict = VERDICT_FAIL;
    res->clause = CLIENT_CRASH_CLAUSE;
    res->setup_failed = false;
    res->mark_seq = s->app_exit->seq;
    snprintf(res->reason, sizeof res->reason, "the application under test %s at %+.1f ms, during %s%s%s%.600s%s",
             how, (double)(s->app_exit->t_us - s->tl.start_us) / 1000.0, during,
             before[0] ? " (what the run had seen before: " : "", before, before[0] ? ")" : "", tail);
    snprintf(res->observed, sizeof res->observed, "application %s", how);
    res->expected[0] = 0;
}

/* The observer's `ready` (it had just started the application). */
static const struct record *observer_ready(const struct session *s)
{
    for (int i = 0; s->app_exit_client && i < s->tl.n; i++)
        if (!strcmp(s->tl.recs[i]->source, s->app_exit_client->name) && !strcmp(s->tl.recs[i]->kind, "ready"))
            return s->tl.recs[i];
    return NULL;
}

void app_not_started_reason(const struct session *s, char *out, size_t len)
{
    char how[128], tail[1800];
    const char *cmd = getenv("FRAMESYNC_CLIENT_COMMAND");
    const struct record *ready = observer_ready(s);
    app_exit_describe(s->app_exit, how, sizeof how);
    tail_text(s, tail, sizeof tail);
    char after[64] = "";
    double ms = ready ? (double)(s->app_exit->t_us - ready->t_us) / 1000.0 : -1;
    if (ms >= 1000)
        snprintf(after, sizeof after, " %.1f s after its start", ms / 1000);
    else if (ms >= 0)
        snprintf(after, sizeof after, " %.0f ms after its start", ms);
    snprintf(out, len, "the application under test `%s` %s%s%s, before it mapped a window%s", cmd ? cmd : "?", how,
             after[0] ? "," : "",
             after, tail);
}
