#include "run.h"
#include "clock.h"
#include "expr.h"
#include "grabwatch.h"
#include "xutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How long a fake client may take to answer a command: it only talks to the X server. */
#define CLIENT_COMMAND_MS 5000
/* A stall of the X server this long (times --timeout-scale) in a case that did not pass is
 * reported as the compositor's server grab (see grabwatch.h). */
#define GRAB_REPORT_MS 1000

/* An interactive resize a case keeps open (`resize ... hold`): its client and trigger, so the
 * next `resize` of that client continues it the same way. */
struct open_resize {
    char client[16];
    char trigger[16];
};

struct ctx {
    const struct testcase *tc;
    const struct run_env *env;
    struct session *s;
    struct result *res;
    struct expr_env xenv;
    int64_t case_deadline_us;   /* the watchdog (--case-timeout); INT64_MAX: none */
    struct open_resize open[SESSION_MAX_CLIENTS];
    int nopen;
};

static const struct record *lookup(void *p, const char *name, size_t len)
{
    return session_lookup(((struct ctx *)p)->s, name, len);
}

static uint32_t atom(void *p, const char *name)
{
    return xu_atom(((struct ctx *)p)->env->x->conn, name);
}

static void decide(struct ctx *c, enum verdict v, const struct step *st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void decide(struct ctx *c, enum verdict v, const struct step *st, const char *fmt, ...)
{
    c->res->verdict = v;
    c->res->step = st;
    c->res->setup_failed = false; /* the callers that decide a set-up failure say so after */
    /* a failure is a finding of the clause its check checks (a set-up or a precondition never
     * fails: see step_wait); a crash or a server grab is a finding of its own */
    c->res->clause = v != VERDICT_FAIL ? NULL : st && st->clause ? st->clause : c->tc->clauses[0];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->res->reason, sizeof c->res->reason, fmt, ap);
    va_end(ap);
}

static int scaled(const struct ctx *c, int ms)
{
    return (int)(ms * c->env->timeout_scale + 0.5);
}

/* The watchdog: a step's deadline never goes past the case's. */
static int64_t bounded(const struct ctx *c, int64_t deadline_us)
{
    return deadline_us < c->case_deadline_us ? deadline_us : c->case_deadline_us;
}

static int bounded_ms(const struct ctx *c, int ms)
{
    int64_t left = (c->case_deadline_us - clock_now_us()) / 1000;
    return left < ms ? (int)(left > 0 ? left : 0) : ms;
}

static bool watchdog_fired(struct ctx *c, const struct step *st)
{
    if (clock_now_us() < c->case_deadline_us)
        return false;
    decide(c, VERDICT_UNRESOLVED, st, "the case did not finish within --case-timeout %d ms (the watchdog stopped "
           "it during `%s`)", c->env->case_timeout_ms, st->text);
    return true;
}

/* The compositor crashing or exiting during a case is the compositor's failure. */
static bool compositor_gone(struct ctx *c, const struct step *st)
{
    if (compositor_alive(c->env->wm))
        return false;
    char how[128];
    proc_describe_exit(c->env->wm->proc, how, sizeof how);
    decide(c, VERDICT_FAIL, st, "the compositor under test %s at %+.1f ms (during `%s`)", how,
           (double)(c->env->wm->proc->exit_us - c->s->tl.start_us) / 1000.0, st->text);
    c->res->clause = "compositor/crash";
    snprintf(c->res->observed, sizeof c->res->observed, "compositor %s", how);
    return true;
}

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
    *w = (struct waiting){.st = st, .want_none = want_none, .ms = scaled(c, st->ms), .after_seq = -1};
    w->begin = clock_now_us();
    w->own_deadline = w->begin + (int64_t)w->ms * 1000;
    w->deadline = bounded(c, w->own_deadline);
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
        decide(c, w->broken, st, "%s%s %s at %+.3f ms (`%s` does not hold)", w->prefix, r->source, r->line, at_ms,
               st->text);
    else
        decide(c, VERDICT_FAIL, st, "unexpected %s", r->kind);
    c->res->setup_failed = st->setup;
    return false;
}

/* The deadline passed: a `none` holds, a `wait` did not find what it wanted. */
static bool deadline_passed(struct ctx *c, const struct waiting *w)
{
    const struct step *st = w->st;
    if (w->want_none)
        return true;
    bool stopped = proc_is_stopped(c->env->wm->proc);
    snprintf(c->res->expected, sizeof c->res->expected, "%s within %d ms", w->wanted, w->ms);
    snprintf(c->res->observed, sizeof c->res->observed, "none in %.1f ms%s",
             (double)(clock_now_us() - w->begin) / 1000.0,
             stopped ? " (the compositor process is stopped: it runs no more)" : "");
    if (stopped) { /* a hung compositor is its failure, set-up or not */
        decide(c, VERDICT_FAIL, st, "the compositor under test is stopped (it runs no more): no %s within %d ms",
               w->wanted, w->ms);
        c->res->clause = "compositor/crash";
        return false;
    }
    decide(c, w->broken, st, "%sno %s within %d ms", w->prefix, w->wanted, w->ms);
    c->res->setup_failed = st->setup;
    return false;
}

/* wait: the next matching record within the deadline.  none: no matching record for the time. */
static bool step_wait(struct ctx *c, const struct step *st, bool want_none)
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
        if (compositor_gone(c, st))
            return false;
        if (proc_interrupted()) {
            decide(c, VERDICT_UNRESOLVED, st, "interrupted");
            return false;
        }
        if (clock_now_us() >= w.deadline && w.deadline < w.own_deadline && watchdog_fired(c, st))
            return false;
        if (clock_now_us() >= w.deadline)
            return deadline_passed(c, &w);
        const char *gone = source_state(c, st->source);
        if (gone && !want_none) {
            decide(c, VERDICT_UNRESOLVED, st, "fake client %s %s while the case waited for %s", st->source, gone,
                   w.wanted);
            c->res->setup_failed = true;
            return false;
        }
        session_pump(c->s, w.deadline, -1);
    }
}

static bool expect_supported(struct ctx *c, const struct step *st)
{
    bool want = !strcmp(st->tokens[0], "supported");
    if (compositor_supports(c->env->wm, st->tokens[1]) == want)
        return true;
    snprintf(c->res->expected, sizeof c->res->expected, "%s %s in _NET_SUPPORTED", st->tokens[1],
             want ? "listed" : "not listed");
    snprintf(c->res->observed, sizeof c->res->observed, "_NET_SUPPORTED %s %s (%d atoms)",
             want ? "does not list" : "lists", st->tokens[1], c->env->wm->nsupported);
    decide(c, VERDICT_FAIL, st, "the compositor %s %s in _NET_SUPPORTED", want ? "does not list" : "lists",
           st->tokens[1]);
    return false;
}

static enum feature_state feature_state(struct ctx *c, const char *name, const char **detail);

/* expect feature NAME: the probes saw the compositor do it (their logs: logs/probes/). */
static bool expect_feature(struct ctx *c, const struct step *st)
{
    const char *detail;
    enum feature_state fs = feature_state(c, st->tokens[1], &detail);
    if (fs == FEATURE_PRESENT)
        return true;
    if (fs == FEATURE_UNKNOWN) {
        decide(c, VERDICT_UNRESOLVED, st, "cannot tell whether the compositor has %s: %s", st->tokens[1], detail);
        return false;
    }
    snprintf(c->res->expected, sizeof c->res->expected, "the probes see the compositor do %s", st->tokens[1]);
    snprintf(c->res->observed, sizeof c->res->observed, "%s (logs/probes/)", detail);
    decide(c, VERDICT_FAIL, st, "%s", detail);
    return false;
}

static bool step_expect(struct ctx *c, const struct step *st)
{
    char explain[1024];
    c->res->checks_run++;
    if (!strcmp(st->tokens[0], "supported") || !strcmp(st->tokens[0], "unsupported"))
        return expect_supported(c, st);
    if (!strcmp(st->tokens[0], "feature"))
        return expect_feature(c, st);
    switch (expr_eval(&c->xenv, st->tokens, st->ntokens, explain, sizeof explain)) {
    case EXPR_TRUE:
        return true;
    case EXPR_FALSE:
        snprintf(c->res->expected, sizeof c->res->expected, "%s", st->text + strlen("expect "));
        snprintf(c->res->observed, sizeof c->res->observed, "%s", explain);
        decide(c, VERDICT_FAIL, st, "%s", explain);
        for (int i = 0; i < st->ntokens; i++) { /* point the timeline at the record it is about */
            const char *dot = strchr(st->tokens[i], '.');
            const struct record *r = dot ? session_lookup(c->s, st->tokens[i], (size_t)(dot - st->tokens[i])) : NULL;
            if (r)
                c->res->mark_seq = r->seq;
        }
        return false;
    case EXPR_ERROR:
        break;
    }
    decide(c, VERDICT_UNRESOLVED, st, "cannot evaluate `%s`: %s", st->text, explain);
    return false;
}

/* The feature as the probes established it; the built-in `compositing` and `wm` are also read
 * from the selections when no probing ran (a bare harness run with --features of nothing). */
static enum feature_state feature_state(struct ctx *c, const char *name, const char **detail)
{
    const struct feature *f = c->env->features ? features_find(c->env->features, name) : NULL;
    if (f) {
        *detail = f->detail;
        return f->state;
    }
    if (!strcmp(name, "compositing") || !strcmp(name, "wm")) {
        bool cm = !strcmp(name, "compositing");
        bool owned = xu_selection_owner(c->env->x->conn, cm ? "_NET_WM_CM_S0" : "WM_S0");
        *detail = owned ? (cm ? "owns _NET_WM_CM_S0" : "owns WM_S0")
                        : (cm ? "the compositor under test does not composite (no owner of _NET_WM_CM_S0)"
                              : "the compositor under test is not a window manager (no owner of WM_S0)");
        return owned ? FEATURE_PRESENT : FEATURE_ABSENT;
    }
    *detail = "it was not probed";
    return FEATURE_UNKNOWN;
}

/* Is the feature unknown because its probe reads what no oracle can see here (not because it
 * could not decide)? */
static bool feature_unobservable(struct ctx *c, const char *name)
{
    const struct feature *f = c->env->features ? features_find(c->env->features, name) : NULL;
    return f && !strcmp(f->source, "unobservable");
}

/* require FEATURE / require no FEATURE: SKIP with the probe's plain reason when the compositor
 * does not have it (has it); UNRESOLVED when its probe could not decide. */
static bool require_feature(struct ctx *c, const struct step *st, const char *name, bool want)
{
    const char *detail;
    enum feature_state fs = feature_state(c, name, &detail);
    /* client-* features are the application's (cases/client/probes/), the others the compositor's */
    const char *who = !strncmp(name, "client-", 7) ? "the client" : "the compositor";
    if (fs == FEATURE_UNKNOWN && feature_unobservable(c, name)) {
        decide(c, VERDICT_SKIP, st, "%s", detail); /* its probe reads what nothing can see here */
        c->res->unobservable = true;
        return false;
    }
    if (fs == FEATURE_UNKNOWN) {
        decide(c, VERDICT_UNRESOLVED, st, "cannot tell whether %s has %s: %s", who, name, detail);
        return false;
    }
    if ((fs == FEATURE_PRESENT) == want)
        return true;
    if (want)
        decide(c, VERDICT_SKIP, st, "%s", detail);
    else
        decide(c, VERDICT_SKIP, st, "%s has %s (%s)", who, name, detail);
    return false;
}

static bool step_require(struct ctx *c, const struct step *st)
{
    const char *what = st->tokens[1];
    if (strcmp(what, "supported") && strcmp(what, "unsupported")) {
        bool negated = !strcmp(what, "no");
        return require_feature(c, st, negated ? st->tokens[2] : what, !negated);
    }
    bool listed = compositor_supports(c->env->wm, st->tokens[2]);
    bool want = !strcmp(what, "supported");
    if (listed == want)
        return true;
    decide(c, VERDICT_SKIP, st, "the compositor %s %s in _NET_SUPPORTED", listed ? "lists" : "does not list",
           st->tokens[2]);
    return false;
}

/* `when FEATURE STEP` / `unless FEATURE STEP`: does STEP run on this compositor?  -1: cannot
 * tell (the case is then UNRESOLVED). */
static int step_applies(struct ctx *c, const struct step *st)
{
    if (!st->when)
        return 1;
    const char *detail;
    enum feature_state fs = feature_state(c, st->when, &detail);
    if (fs == FEATURE_UNKNOWN) {
        decide(c, VERDICT_UNRESOLVED, st, "cannot tell whether `%s` applies: %s", st->text, detail);
        return -1;
    }
    return (fs == FEATURE_PRESENT) != st->unless;
}

/* ---- resize: the trigger the compositor synchronises ---- */

static struct open_resize *open_resize_of(struct ctx *c, const char *client)
{
    for (int i = 0; i < c->nopen; i++)
        if (!strcmp(c->open[i].client, client))
            return &c->open[i];
    return NULL;
}

/* `resize W H [hold] [via T]` -> `resize W H TRIGGER [hold] within MS` for the fake client.
 * The trigger: an open (held) resize of this client continues as it began; `via` names one
 * (driven, held: the compositor's own); `hold` needs one that stays open; otherwise the one the
 * probes chose.  0 with a SKIP when the compositor has none of the kind asked for. */
static int resize_command(struct ctx *c, const struct step *st, const char *line, char *out, size_t len)
{
    char copy[512], *tok[16] = {0};
    int n = 0;
    snprintf(copy, sizeof copy, "%s", line);
    char *save = NULL;
    for (char *t = strtok_r(copy, " ", &save); t && n < 16; t = strtok_r(NULL, " ", &save))
        tok[n++] = t;
    if (n < 3 || !strcmp(tok[0], "resize-end")) { /* the parser checked the words */
        struct open_resize *o = open_resize_of(c, st->source);
        if (o)
            *o = c->open[--c->nopen];
        snprintf(out, len, "resize-end");
        return 1;
    }
    bool hold = false;
    const char *via = NULL;
    int within = 1000; /* how long the step waits for the WM's reaction */
    for (int i = 3; i < n; i++) {
        if (!strcmp(tok[i], "hold"))
            hold = true;
        else if (!strcmp(tok[i], "via") && i + 1 < n)
            via = tok[++i];
        else if (!strcmp(tok[i], "within") && i + 1 < n)
            within = atoi(tok[++i]);
    }
    const struct features *fs = c->env->features;
    struct open_resize *open = open_resize_of(c, st->source);
    const char *trigger = NULL, *need = NULL;
    if (open)
        trigger = open->trigger;
    else if (via && !strcmp(via, "driven"))
        trigger = fs ? fs->driven : "", need = "driven-resize";
    else if (via && !strcmp(via, "held"))
        trigger = fs ? fs->held : "", need = "held-resize";
    else if (via)
        trigger = via;
    else if (hold)
        trigger = fs ? fs->held : "", need = "held-resize";
    else
        trigger = fs && fs->trigger[0] ? fs->trigger : "configure"; /* no sync at all: a plain resize */
    if (!trigger[0]) {
        require_feature(c, st, need, true);
        return 0;
    }
    if (c->env->no_xtest && (!strcmp(trigger, "keyboard") || !strcmp(trigger, "pointer"))) {
        /* the scripted client drives these with XTEST: into the X server, not the compositor's seat */
        decide(c, VERDICT_SKIP, st, "no XTEST input for this compositor: a %s resize cannot be driven here (%s)",
               trigger, c->env->no_xtest);
        c->res->unobservable = true;
        return 0;
    }
    /* a WM that syncs this kind of resize is expected to send a request: the client keeps
     * stepping past a bare size change (scripted-client/resize.c) */
    char feature[48];
    snprintf(feature, sizeof feature, "trigger-%s", trigger);
    const struct feature *synced = fs ? features_get((struct features *)fs, feature) : NULL;
    bool want_request = synced && synced->state == FEATURE_PRESENT;
    snprintf(out, len, "resize %s %s %s%s%s within %d", tok[1], tok[2], trigger, hold ? " hold" : "",
             want_request ? " request" : "", scaled(c, within));
    if (hold && !open && c->nopen < SESSION_MAX_CLIENTS) {
        open = &c->open[c->nopen++];
        snprintf(open->client, sizeof open->client, "%s", st->source);
        snprintf(open->trigger, sizeof open->trigger, "%s", trigger);
    } else if (!hold && open) {
        *open = c->open[--c->nopen];
    }
    return 1;
}

/* The client's last word on the window's parent: the root unless a ReparentNotify since its
 * create said otherwise. */
static bool on_root(struct ctx *c, const char *client)
{
    char root[16];
    snprintf(root, sizeof root, "%u", (unsigned)c->env->x->screen->root);
    for (int i = c->s->tl.n - 1; i >= 0; i--) {
        const struct record *r = c->s->tl.recs[i];
        if (strcmp(r->source, client))
            continue;
        if (!strcmp(r->kind, "reparent-notify"))
            return record_get(r, "parent") && !strcmp(record_get(r, "parent"), root);
        if (!strcmp(r->kind, "done") && record_get(r, "cmd") && !strcmp(record_get(r, "cmd"), "create"))
            return true;
    }
    return true;
}

static bool wm_state_changed(void *ctx, const struct record *r)
{
    const char *name = record_get(r, "atomname");
    return r->seq > *(int *)ctx && name && !strcmp(name, "WM_STATE");
}

/* `resize W H` by the map trigger, the ICCCM way (4.1.4): withdraw the window (UnmapWindow), wait
 * until the WM has let it go (WM_STATE changed and the window back on the root: until then a
 * ConfigureWindow goes to the WM as a request about a window it is releasing, and KWin drops it),
 * then ConfigureWindow W x H and MapWindow, and wait for the MapNotify.  The scripted client's own
 * `resize W H map` configures right after its UnmapNotify, which raced with the WM's withdrawal.
 * Returns the last command's done record, or NULL with err. */
static const struct record *resize_by_map(struct ctx *c, struct client *cl, int w, int h, int within_ms, char *err,
                                          size_t len)
{
    int from = c->s->tl.n;
    const struct record *r = session_command(c->s, cl, "unmap", bounded_ms(c, CLIENT_COMMAND_MS), err, len);
    if (!r || strcmp(r->kind, "done"))
        return r;
    if (xu_selection_owner(c->env->x->conn, "WM_S0")) {
        int64_t deadline = bounded(c, clock_now_us() + (int64_t)scaled(c, 1000) * 1000);
        while (clock_now_us() < deadline && !proc_interrupted() &&
               !(session_find_from(c->s, cl->name, "property-notify", NULL, from, wm_state_changed, &from, false) &&
                 on_root(c, cl->name)))
            session_pump(c->s, deadline, -1);
        session_note(c->s, "withdrawn msg=%s", on_root(c, cl->name) ? "the WM let the window go"
                                                                   : "the WM did not let the window go within 1000 ms");
    }
    char cmd[64];
    snprintf(cmd, sizeof cmd, "configure %d %d", w, h);
    r = session_command(c->s, cl, cmd, bounded_ms(c, CLIENT_COMMAND_MS), err, len);
    if (!r || strcmp(r->kind, "done"))
        return r;
    from = c->s->tl.n;
    r = session_command(c->s, cl, "map", bounded_ms(c, CLIENT_COMMAND_MS), err, len);
    if (!r || strcmp(r->kind, "done"))
        return r;
    int64_t deadline = bounded(c, clock_now_us() + (int64_t)within_ms * 1000);
    while (clock_now_us() < deadline && !proc_interrupted() &&
           !session_find_from(c->s, cl->name, "map-notify", NULL, from, NULL, NULL, false))
        session_pump(c->s, deadline, -1);
    return r;
}

static bool step_command(struct ctx *c, const struct step *st)
{
    struct client *cl = session_client(c->s, st->source);
    char err[1024], resize[512];
    const char *command = st->command;
    int w, h, within = 0;
    char trigger[16] = "";
    if (!strncmp(command, "resize", 6) && (command[6] == ' ' || !strcmp(command, "resize-end"))) {
        if (!resize_command(c, st, command, resize, sizeof resize))
            return false;
        command = resize;
        const char *in = strstr(resize, " within ");
        if (sscanf(resize, "resize %d %d %15s", &w, &h, trigger) != 3 || !in || sscanf(in, " within %d", &within) != 1)
            trigger[0] = 0;
    }
    const struct record *r = !strcmp(trigger, "map") && !strstr(resize, " hold")
                                 ? resize_by_map(c, cl, w, h, within, err, sizeof err)
                                 : session_command(c->s, cl, command, bounded_ms(c, CLIENT_COMMAND_MS), err, sizeof err);
    if (r && !strcmp(r->kind, "done")) {
        if (st->as)
            session_bind(c->s, st->as, r);
        return true;
    }
    if (compositor_gone(c, st))
        return false;
    if (!r && watchdog_fired(c, st))
        return false;
    if (r)
        decide(c, VERDICT_UNRESOLVED, st, "fake client %s could not `%s`: %s", st->source, command,
               record_get(r, "msg") ? record_get(r, "msg") : r->line);
    else
        decide(c, VERDICT_UNRESOLVED, st, "%s", err);
    c->res->setup_failed = true;
    return false;
}

static bool run_step(struct ctx *c, const struct step *st)
{
    if (watchdog_fired(c, st))
        return false;
    session_note(c->s, "step line=%d msg=%s", st->line, st->text);
    int applies = step_applies(c, st);
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
            decide(c, VERDICT_SKIP, st, "no client under test: this case tests an application (run it with --client)");
            return false;
        }
        if (session_add_client_binary(c->s, st->source,
                                      st->command && *st->command ? c->env->observer_binary : c->s->client_binary,
                                      bounded_ms(c, CLIENT_COMMAND_MS), err, sizeof err) == 0)
            return true;
        if (watchdog_fired(c, st))
            return false;
        decide(c, VERDICT_UNRESOLVED, st, "%s", err);
        c->res->setup_failed = true;
        return false;
    case STEP_COMMAND: return step_command(c, st);
    case STEP_WAIT: return step_wait(c, st, false);
    case STEP_NONE: return step_wait(c, st, true);
    case STEP_EXPECT: return step_expect(c, st);
    case STEP_REQUIRE: return step_require(c, st);
    }
    return false;
}

/* A case that did not pass while the X server answered nobody but the compositor (a server
 * grab, seen by the grab watch): the grab is the compositor's failure, whatever step noticed it. */
static void check_grab(struct ctx *c)
{
    int min_ms = scaled(c, GRAB_REPORT_MS);
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
    bool ok = true;
    for (int i = 0; i < tc->nsteps && ok; i++)
        ok = run_step(&c, &tc->steps[i]);
    /* the compositor may have died after the last check: still its failure */
    if (ok && compositor_gone(&c, &tc->steps[tc->nsteps - 1]))
        ok = false;
    if (ok && res->checks_run != tc->checks)
        decide(&c, VERDICT_UNRESOLVED, NULL, "ran %d of the %d declared checks", res->checks_run, tc->checks);
    check_grab(&c);
    if (res->verdict == VERDICT_FAIL)
        screenshot(&c);
    res->end_us = clock_now_us();
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
        if (n == 0 || expr_value(&c.xenv, tok, n, &v, err, sizeof err) < 0) {
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
