/* The wait and none steps: the next matching record within the deadline, or none for the time;
 * how a miss is judged (FAIL, or SKIP for a precondition, UNRESOLVED for a set-up). */
#include "runctx.h"
#include "clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool filters_match(void *p, const struct record *r)
{
    void **pair = p;
    struct ctx *c = pair[0];
    const struct step *st = pair[1];
    for (int i = 0; i < st->nfilters; i++)
        if (!expr_filter_matches(&c->xenv, r, st->filters[i].key, st->filters[i].op, st->filters[i].value))
            return false;
    return true;
}

static void describe_wanted(const struct step *st, char *buf, size_t len)
{
    static const char *ops[] = {"=", "!=", "<", "<=", ">", ">="};
    int o = snprintf(buf, len, "%s %s", st->source, st->event);
    for (int i = 0; i < st->nfilters && o > 0 && (size_t)o < len; i++)
        o += snprintf(buf + o, len - (size_t)o, " %s%s%s", st->filters[i].key, ops[st->filters[i].op],
                      st->filters[i].value);
}

static const char *source_state(struct ctx *c, const char *source)
{
    struct client *cl = session_client(c->s, source);
    return cl && cl->eof ? "exited" : NULL;
}

/* One wait or none step while it runs: what it looks for and how its failure is judged. */
struct waiting {
    const struct step *st;
    bool want_none;
    int ms;
    int64_t begin, own_deadline, deadline;
    char wanted[512];
    const char *subject;   /* screen records: one cursor per client window */
    int after_seq;         /* after=VAR: search from VAR on, not from the cursor */
    /* a precondition that does not hold: the case does not apply to this compositor; a set-up
     * step that does not hold: the case cannot tell (its checks never ran), which is not a
     * failure of the clause it checks */
    enum verdict broken;
    const char *prefix;
};

static void start_waiting(struct ctx *c, const struct step *st, bool want_none, struct waiting *w)
{
    *w = (struct waiting){.st = st, .want_none = want_none, .ms = ctx_scaled(c, st->ms), .after_seq = -1};
    w->begin = clock_now_us();
    w->own_deadline = w->begin + (int64_t)w->ms * 1000;
    w->deadline = ctx_bounded(c, w->own_deadline);
    describe_wanted(st, w->wanted, sizeof w->wanted);
    for (int i = 0; i < st->nfilters; i++) {
        if (!strcmp(st->filters[i].key, "client"))
            w->subject = st->filters[i].value;
        if (!strcmp(st->filters[i].key, "after")) {
            const struct record *a = session_lookup(c->s, st->filters[i].value, strlen(st->filters[i].value));
            if (a && a->seq > w->after_seq)
                w->after_seq = a->seq;
        }
    }
    w->broken = st->precondition ? VERDICT_SKIP : st->setup ? VERDICT_UNRESOLVED : VERDICT_FAIL;
    w->prefix = st->precondition ? "does not apply: " : st->setup ? "the set-up did not hold: " : "";
}

/* A `none` saw what it must not see. */
static bool seen_unwanted(struct ctx *c, const struct waiting *w, const struct record *r)
{
    const struct step *st = w->st;
    double at_ms = (double)(r->t_us - c->s->tl.start_us) / 1000.0;
    c->res->mark_seq = r->seq;
    snprintf(c->res->expected, sizeof c->res->expected, "no %s for %d ms", w->wanted, w->ms);
    snprintf(c->res->observed, sizeof c->res->observed, "%s at %+.3f ms (%.3f ms after the step began)", r->line,
             at_ms, (double)(r->t_us - w->begin) / 1000.0);
    if (w->broken != VERDICT_FAIL)
        ctx_decide(c, w->broken, st, "%s%s %s at %+.3f ms (`%s` does not hold)", w->prefix, r->source, r->line, at_ms,
               st->text);
    else
        ctx_decide(c, VERDICT_FAIL, st, "unexpected %s", r->kind);
    c->res->setup_failed = st->setup;
    return false;
}

/* A gap of the screen stream (oracle-stream.h) that overlaps the step: frames shown in it may be
 * missing, so a `none` on the screen cannot be said to hold.  NULL when there is none. */
static const struct record *stream_gap_during(struct ctx *c, const struct waiting *w)
{
    const struct timeline *tl = &c->s->tl;
    for (int i = 0; i < tl->n; i++) {
        const struct record *r = tl->recs[i];
        const char *since = record_get(r, "since_us");
        if (strcmp(r->source, "screen") || strcmp(r->kind, "capture-gap") || !since)
            continue;
        if (r->t_us >= w->begin && tl->start_us + strtoll(since, NULL, 10) <= clock_now_us())
            return r;
    }
    return NULL;
}

/* The last `sampled` record of a sampling screen oracle (oracle-capture.c) that looked at the
 * client's window (a per-window capture names its client; one of the whole screen names none), NULL
 * for the other oracles (damage and stream oracles see every change as it comes). */
static const struct record *last_sample(struct ctx *c, const char *client)
{
    for (int i = c->s->tl.n - 1; i >= 0; i--) {
        const struct record *r = c->s->tl.recs[i];
        const char *of = record_get(r, "client");
        if (!strcmp(r->source, "screen") && !strcmp(r->kind, "sampled") && (!of || !client || !strcmp(of, client)))
            return r;
    }
    return NULL;
}

static int64_t rec_time(struct ctx *c, const struct record *r, const char *key)
{
    const char *v = r ? record_get(r, key) : NULL;
    return v ? c->s->tl.start_us + strtoll(v, NULL, 10) : -1;
}

/* A screen check that found nothing by its deadline, under a sampling oracle: a FAIL needs a
 * picture taken after the deadline that does not show it.  Waits (at most 3 s) for a sample begun
 * after the deadline; when none comes, or the one that comes shows what was wanted while the
 * window's sample before it began before the deadline, whether it was shown in time cannot be
 * told: UNRESOLVED.  false: the FAIL stands. */
static bool undecided_by_samples(struct ctx *c, const struct waiting *w, void **pair)
{
    const struct step *st = w->st;
    if (strcmp(st->source, "screen") || w->broken != VERDICT_FAIL || !last_sample(c, w->subject))
        return false;
    int64_t bound = clock_now_us() + (int64_t)ctx_scaled(c, 3000) * 1000;
    while (rec_time(c, last_sample(c, w->subject), "began_us") < w->deadline && clock_now_us() < bound &&
           !proc_interrupted())
        session_pump(c->s, bound, -1);
    const struct record *s = last_sample(c, w->subject);
    double dl_ms = (double)(w->deadline - c->s->tl.start_us) / 1000.0;
    if (rec_time(c, s, "began_us") < w->deadline) {
        ctx_decide(c, VERDICT_UNRESOLVED, st, "the screen oracle took no picture after the deadline (%+.3f ms) within "
                   "3 s: `%s` cannot be judged", dl_ms, st->text);
        return true;
    }
    const struct record *r = session_find_from(c->s, st->source, st->event, w->subject, w->after_seq, filters_match,
                                               pair, false);
    if (!r || rec_time(c, r, "since_us") >= w->deadline)
        return false;
    c->res->mark_seq = s->seq;
    ctx_decide(c, VERDICT_UNRESOLVED, st, "the screen oracle samples: %s came with a picture that began before the "
               "deadline (%+.3f ms) and took %s us, so whether it was shown within %d ms cannot be told",
               r->line, dl_ms, record_get(r, "rtt_us") ? record_get(r, "rtt_us") : "?", w->ms);
    return true;
}

/* The deadline passed: a `none` holds, a `wait` did not find what it wanted. */
static bool deadline_passed(struct ctx *c, const struct waiting *w, void **pair)
{
    const struct step *st = w->st;
    const struct record *gap = w->want_none && !strcmp(st->source, "screen") ? stream_gap_during(c, w) : NULL;
    if (gap) {
        ctx_decide(c, VERDICT_UNRESOLVED, st, "the screen stream had no copy pending for %s us before its frame at "
                   "%+.3f ms: a frame shown then may be missing, so `%s` cannot be said to hold",
                   record_get(gap, "gap_us"), (double)(gap->t_us - c->s->tl.start_us) / 1000.0, st->text);
        return false;
    }
    if (w->want_none || st->optional) /* try wait: nothing came, the figure says so */
        return true;
    if (undecided_by_samples(c, w, pair))
        return false;
    bool stopped = proc_is_stopped(c->env->wm->proc);
    snprintf(c->res->expected, sizeof c->res->expected, "%s within %d ms", w->wanted, w->ms);
    snprintf(c->res->observed, sizeof c->res->observed, "none in %.1f ms%s",
             (double)(clock_now_us() - w->begin) / 1000.0,
             stopped ? " (the compositor process is stopped: it runs no more)" : "");
    if (stopped) { /* a hung compositor is its failure, set-up or not */
        ctx_decide(c, VERDICT_FAIL, st, "the compositor under test is stopped (it runs no more): no %s within %d ms",
               w->wanted, w->ms);
        c->res->clause = "compositor/crash";
        return false;
    }
    ctx_decide(c, w->broken, st, "%sno %s within %d ms", w->prefix, w->wanted, w->ms);
    c->res->setup_failed = st->setup;
    return false;
}

/* wait: the next matching record within the deadline.  none: no matching record for the time. */
bool run_step_wait(struct ctx *c, const struct step *st, bool want_none)
{
    struct waiting w;
    start_waiting(c, st, want_none, &w);
    void *pair[2] = {c, (void *)st};
    if (!st->precondition && !st->setup)
        c->res->checks_run++;
    for (;;) {
        const struct record *r = session_find_from(c->s, st->source, st->event, w.subject, w.after_seq,
                                                   filters_match, pair, !want_none);
        if (r && !want_none) {
            if (st->as)
                session_bind(c->s, st->as, r);
            return true;
        }
        if (r)
            return seen_unwanted(c, &w, r);
        if (ctx_compositor_gone(c, st) || ctx_client_gone(c, st))
            return false;
        if (proc_interrupted()) {
            ctx_decide(c, VERDICT_UNRESOLVED, st, "interrupted");
            return false;
        }
        if (clock_now_us() >= w.deadline && w.deadline < w.own_deadline && ctx_watchdog_fired(c, st))
            return false;
        if (clock_now_us() >= w.deadline)
            return deadline_passed(c, &w, pair);
        const char *gone = source_state(c, st->source);
        if (gone && !want_none) {
            ctx_decide(c, VERDICT_UNRESOLVED, st, "fake client %s %s while the case waited for %s", st->source, gone,
                   w.wanted);
            c->res->setup_failed = true;
            return false;
        }
        session_pump(c->s, w.deadline, -1);
    }
}
