#include "app-keep.h"
#include "clock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* How long the window may take to come back to its start size (its ConfigureNotify, then the answer
 * to the request that came with it) before the kept application is given up for a fresh start. */
#define RESET_CONFIGURE_MS 3000
#define RESET_ANSWER_MS 1500

static struct client *app_client(struct session *s)
{
    for (int i = 0; i < s->nclients; i++)
        if (s->clients[i].under_test && s->clients[i].proc)
            return &s->clients[i];
    return NULL;
}

static void free_prelude(struct app_keep *k)
{
    for (int i = 0; i < k->nprelude; i++)
        free(k->prelude[i]);
    free(k->prelude);
    k->prelude = NULL;
    k->nprelude = 0;
    k->prelude_closed = false;
}

static void add_prelude(struct app_keep *k, const char *line)
{
    if (k->prelude_closed)
        return;
    if (!k->prelude)
        k->prelude = calloc(APP_KEEP_PRELUDE_MAX, sizeof *k->prelude);
    if (!k->prelude)
        return;
    k->prelude[k->nprelude++] = strdup(line);
    if (k->nprelude == APP_KEEP_PRELUDE_MAX)
        k->prelude_closed = true;
}

void app_keep_stop(struct app_keep *k)
{
    if (k->held) {
        if (k->c.in_fd >= 0)
            close(k->c.in_fd); /* EOF on stdin: the observer stops the application and exits */
        proc_stop(k->c.proc, 300);
        if (k->c.out_fd >= 0)
            close(k->c.out_fd);
    }
    free_prelude(k);
    unsigned fresh_for = k->fresh_for;
    memset(k, 0, sizeof *k);
    k->fresh_for = fresh_for;
}

void app_keep_fresh_for(struct app_keep *k, unsigned missed)
{
    k->fresh_for |= missed;
}

unsigned app_keep_states_asked(const struct testcase *tc)
{
    unsigned asked = 0;
    for (int i = 0; i < tc->nsteps; i++) {
        const struct step *st = &tc->steps[i];
        if (st->kind != STEP_COMMAND || !st->command || strncmp(st->command, "state ", 6))
            continue;
        asked |= !strcmp(st->command + 6, "idle") ? KEEP_STATE_IDLE : KEEP_STATE_ANIMATING;
    }
    return asked;
}

unsigned app_keep_states_unreached(const struct session *s)
{
    unsigned missed = 0;
    for (int i = 0; i < s->tl.n; i++) {
        const struct record *r = s->tl.recs[i];
        const char *reached = record_get(r, "reached"), *name = record_get(r, "name");
        if (strcmp(r->kind, "state") || !reached || !name || strcmp(reached, "0"))
            continue;
        missed |= !strcmp(name, "idle") ? KEEP_STATE_IDLE : KEEP_STATE_ANIMATING;
    }
    return missed;
}

/* The toplevel's size when the case ended: its last real ConfigureNotify (0 x 0: none seen). */
static void last_size(const struct session *s, const char *source, const char *window, int *w, int *h)
{
    for (int i = 0; i < s->tl.n; i++) {
        const struct record *r = s->tl.recs[i];
        const char *win = record_get(r, "window"), *synthetic = record_get(r, "sendevent");
        if (strcmp(r->source, source) || strcmp(r->kind, "configure-notify") || !win || strcmp(win, window) ||
            (synthetic && strcmp(synthetic, "0")))
            continue;
        *w = atoi(record_get(r, "width") ? record_get(r, "width") : "0");
        *h = atoi(record_get(r, "height") ? record_get(r, "height") : "0");
    }
}

/* The window of the application's `toplevel` record in s, or NULL. */
static const char *toplevel_of(const struct session *s, const char *source)
{
    for (int i = 0; i < s->tl.n; i++)
        if (!strcmp(s->tl.recs[i]->source, source) && !strcmp(s->tl.recs[i]->kind, "toplevel"))
            return record_get(s->tl.recs[i], "window");
    return NULL;
}

/* The records of its start, from the case's timeline: all of it up to the first command, or (no
 * command yet: its start is not over) all of it that came after what was replayed. */
static void extend_prelude(struct app_keep *k, const struct session *s, const struct client *c)
{
    int from = s->app_reused ? k->replay_end : 0;
    int to = s->app_commanded_at ? s->app_commanded_at : s->tl.n;
    for (int i = from; i < to && !k->prelude_closed; i++)
        if (!strcmp(s->tl.recs[i]->source, c->name) && s->tl.recs[i]->line)
            add_prelude(k, s->tl.recs[i]->line);
    if (s->app_commanded_at)
        k->prelude_closed = true;
}

static bool keepable(const struct testcase *tc, const struct session *s, const struct client *c,
                     const struct result *res)
{
    if (!c || s->app_exit || c->eof || !s->app_mapped || res->setup_failed || proc_interrupted())
        return false;
    return res->verdict == VERDICT_PASS || res->verdict == VERDICT_SKIP ||
           (tc->feature && res->verdict == VERDICT_FAIL && !res->clause); /* a probe: absent */
}

void app_keep_after_case(struct app_keep *k, const struct testcase *tc, struct session *s, const struct result *res)
{
    struct client *c = app_client(s);
    if (!k || !c)
        return;
    if (k->held) /* a case that did not take it started another: one at a time */
        app_keep_stop(k);
    if (!keepable(tc, s, c, res)) {
        if (s->app_reused)
            app_keep_stop(k);
        return;
    }
    if (!s->app_reused) {
        app_keep_stop(k);
        snprintf(k->first_case, sizeof k->first_case, "%s", tc->id);
    }
    extend_prelude(k, s, c);
    const char *top = toplevel_of(s, c->name);
    if (top)
        last_size(s, c->name, top, &k->now_w, &k->now_h);
    k->unreached |= app_keep_states_unreached(s);
    k->c = *c;
    session_release_client(c);
    k->held = true;
    k->served++;
}

/* What the kept application reported while no case ran: its start's records while its start is
 * not over, and its end; the rest (its drawing between cases) belongs to no case. */
static int drain_kept(struct app_keep *k, char *exit_line, size_t len)
{
    int dropped = 0;
    for (;;) {
        ssize_t got = read(k->c.out_fd, k->c.buf + k->c.len, sizeof k->c.buf - k->c.len);
        if (got <= 0) {
            if (got == 0 || (errno != EAGAIN && errno != EINTR))
                k->c.eof = true;
            break;
        }
        k->c.len += (size_t)got;
        char *start = k->c.buf, *nl;
        while ((nl = memchr(start, '\n', k->c.len - (size_t)(start - k->c.buf)))) {
            *nl = 0;
            if (!strncmp(start, "app-exit ", 9))
                snprintf(exit_line, len, "%s", start);
            else if (!k->prelude_closed)
                add_prelude(k, start);
            else
                dropped++;
            start = nl + 1;
        }
        size_t rest = k->c.len - (size_t)(start - k->c.buf);
        memmove(k->c.buf, start, rest);
        k->c.len = rest == sizeof k->c.buf ? 0 : rest;
    }
    return dropped;
}

struct size_match {
    const char *window;
    int w, h;
};

/* The compositor's configure of the window (a real ConfigureNotify): the size it gives is its own
 * (kept within the hints; 23 px less under --policy other-size), the start size or near it. */
static bool configured(void *ctx, const struct record *r)
{
    const struct size_match *m = ctx;
    const char *win = record_get(r, "window"), *synthetic = record_get(r, "sendevent");
    return win && !strcmp(win, m->window) && (!synthetic || !strcmp(synthetic, "0"));
}

static bool answers(void *ctx, const struct record *r)
{
    const char *win = record_get(r, "window"), *answer = record_get(r, "answer");
    return win && answer && !strcmp(win, (const char *)ctx) && !strcmp(answer, "1");
}

static const struct record *await(struct session *s, const char *source, const char *kind, record_match_fn match,
                                  void *ctx, int after_seq, int ms)
{
    int64_t deadline = clock_now_us() + (int64_t)ms * 1000;
    for (;;) {
        const struct record *r = session_find_from(s, source, kind, NULL, after_seq, match, ctx, false);
        if (r || clock_now_us() >= deadline || proc_interrupted())
            return r;
        session_pump(s, deadline, -1);
    }
}

/* The toplevel (its `toplevel` record's window) and its size at the start: at its creation, or as
 * the compositor configured it before the first command, from the records of its start. */
static bool start_geometry(const struct app_keep *k, char *top, size_t len, int *w, int *h)
{
    top[0] = 0;
    *w = *h = 0;
    for (int i = 0; i < k->nprelude; i++) {
        struct record *r = record_parse("A", k->prelude[i]);
        const char *win = r ? record_get(r, "window") : NULL, *synthetic = r ? record_get(r, "sendevent") : NULL;
        if (r && win && !strcmp(r->kind, "toplevel") && !top[0])
            snprintf(top, len, "%s", win);
        bool sized = r && win && (!strcmp(r->kind, "create-window") ||
                                  (!strcmp(r->kind, "configure-notify") && (!synthetic || !strcmp(synthetic, "0"))));
        if (sized && (!top[0] || !strcmp(win, top))) {
            *w = atoi(record_get(r, "width") ? record_get(r, "width") : "0");
            *h = atoi(record_get(r, "height") ? record_get(r, "height") : "0");
        }
        if (r)
            record_free(r);
    }
    return top[0] && *w > 0 && *h > 0;
}

/* Drawn messages as usual (an earlier case may have withheld them), no request of the last case
 * still awaited (fake-wm's settle: GTK 3 answers the draft's request on its first counter only, and
 * fake-wm would wait its 1 s for the second into the next case), and the start size again, before
 * the records of its start are shown to the case.  false: it did not come back (it is given up). */
static bool reset_window(struct app_keep *k, struct session *s, struct client *c, int ms)
{
    char err[512], line[64], top[32];
    struct size_match want = {.window = top};
    if (!k->prelude_closed) /* no command yet: nothing to undo, and its start goes on */
        return true;
    if (!session_command(s, c, "wm-drawn on", ms, err, sizeof err) ||
        !session_command(s, c, "wm-settle", ms, err, sizeof err))
        return false;
    if (!start_geometry(k, top, sizeof top, &want.w, &want.h) || k->now_w == 0 ||
        (k->now_w == want.w && k->now_h == want.h))
        return true;
    int before = s->tl.n;
    snprintf(line, sizeof line, "wm-resize %d %d", want.w, want.h);
    session_note(s, "shared-app msg=back to its start size %dx%d (it was %dx%d)", want.w, want.h, k->now_w, k->now_h);
    if (!session_command(s, c, line, ms, err, sizeof err))
        return false;
    const struct record *cfg = await(s, c->name, "configure-notify", configured, &want, before, RESET_CONFIGURE_MS);
    if (!cfg || !await(s, c->name, "set-counter", answers, (void *)top, cfg->seq, RESET_ANSWER_MS))
        return false;
    return session_command(s, c, "wm-settle", ms, err, sizeof err) != NULL;
}

static void stop_taken(struct session *s, struct client *c)
{
    if (c->in_fd >= 0)
        close(c->in_fd);
    proc_stop(c->proc, 300);
    if (c->out_fd >= 0)
        close(c->out_fd);
    s->nclients--;
}

int app_keep_take(struct app_keep *k, const struct testcase *tc, struct session *s, const char *name, int ms)
{
    if (!k->held)
        return 0;
    if (app_keep_states_asked(tc) & (k->unreached | k->fresh_for)) { /* it animated only after its start, say: a fresh one may */
        app_keep_stop(k);
        return 0;
    }
    char exit_line[512] = "";
    int dropped = drain_kept(k, exit_line, sizeof exit_line);
    struct client *c = session_adopt_client(s, &k->c);
    if (!c) {
        app_keep_stop(k);
        return 0;
    }
    session_release_client(&k->c);
    k->held = false;
    snprintf(c->name, sizeof c->name, "%s", name);
    session_note(s, "shared-app msg=the application started by %s, kept for %d case(s): the %d records of its "
                 "start again, then it goes on (%d records between the cases left out)",
                 k->first_case, k->served, k->nprelude, dropped);
    if (!exit_line[0] && !reset_window(k, s, c, ms)) {
        session_note(s, "shared-app msg=it did not come back to its start state: started afresh");
        stop_taken(s, c);
        app_keep_stop(k);
        return 0;
    }
    s->app_commanded_at = 0; /* the reset is the harness's, not the case's */
    for (int i = 0; i < k->nprelude; i++) {
        struct record *r = record_parse(name, k->prelude[i]);
        if (r)
            session_take_record(s, c, r);
    }
    s->app_reused = true;
    k->replay_end = s->tl.n;
    struct record *r = exit_line[0] ? record_parse(name, exit_line) : NULL;
    if (r) /* it ended while kept: the case sees it end (client/crash) */
        session_take_record(s, c, r);
    return 1;
}
