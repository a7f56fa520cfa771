/* A fake client's command step, and `resize`: the trigger the compositor synchronises. */
#include "runctx.h"
#include "clock.h"
#include "xutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        run_require_feature(c, st, need, true);
        return 0;
    }
    bool interactive = !strcmp(trigger, "keyboard") || !strcmp(trigger, "pointer");
    if (interactive && c->env->input_broken) { /* the suite's helper failed: nothing is known */
        ctx_decide(c, VERDICT_UNRESOLVED, st, "a %s resize cannot be driven: %s", trigger, c->env->input_broken);
        return 0;
    }
    if (interactive && !c->env->input && c->env->no_xtest) {
        /* the scripted client drives these with XTEST: into the X server, not the compositor's seat,
         * and the compositor's conf names no input path into its seat (`input:`) */
        ctx_decide(c, VERDICT_SKIP, st, "no XTEST input for this compositor: a %s resize cannot be driven here (%s)",
                   trigger, c->env->no_xtest);
        c->res->unobservable = true;
        return 0;
    }
    /* a WM that syncs this kind of resize is expected to send a request: the client keeps
     * stepping past a bare size change (fake-clients/scripted-client/resize.c) */
    char feature[48];
    snprintf(feature, sizeof feature, "trigger-%s", trigger);
    const struct feature *synced = fs ? features_get((struct features *)fs, feature) : NULL;
    bool want_request = synced && synced->state == FEATURE_PRESENT;
    snprintf(out, len, "resize %s %s %s%s%s within %d", tok[1], tok[2], trigger, hold ? " hold" : "",
             want_request ? " request" : "", ctx_scaled(c, within));
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
    const struct record *r = session_command(c->s, cl, "unmap", ctx_bounded_ms(c, CLIENT_COMMAND_MS), err, len);
    if (!r || strcmp(r->kind, "done"))
        return r;
    if (xu_selection_owner(c->env->x->conn, "WM_S0")) {
        int64_t deadline = ctx_bounded(c, clock_now_us() + (int64_t)ctx_scaled(c, 1000) * 1000);
        while (clock_now_us() < deadline && !proc_interrupted() &&
               !(session_find_from(c->s, cl->name, "property-notify", NULL, from, wm_state_changed, &from, false) &&
                 on_root(c, cl->name)))
            session_pump(c->s, deadline, -1);
        session_note(c->s, "withdrawn msg=%s", on_root(c, cl->name) ? "the WM let the window go"
                                                                   : "the WM did not let the window go within 1000 ms");
    }
    char cmd[64];
    snprintf(cmd, sizeof cmd, "configure %d %d", w, h);
    r = session_command(c->s, cl, cmd, ctx_bounded_ms(c, CLIENT_COMMAND_MS), err, len);
    if (!r || strcmp(r->kind, "done"))
        return r;
    from = c->s->tl.n;
    r = session_command(c->s, cl, "map", ctx_bounded_ms(c, CLIENT_COMMAND_MS), err, len);
    if (!r || strcmp(r->kind, "done"))
        return r;
    int64_t deadline = ctx_bounded(c, clock_now_us() + (int64_t)within_ms * 1000);
    while (clock_now_us() < deadline && !proc_interrupted() &&
           !session_find_from(c->s, cl->name, "map-notify", NULL, from, NULL, NULL, false))
        session_pump(c->s, deadline, -1);
    return r;
}

bool run_step_command(struct ctx *c, const struct step *st)
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
    /* a resize step waits up to `within` for the WM's reaction before the client answers */
    int answer_ms = CLIENT_COMMAND_MS + (trigger[0] ? within : 0);
    const struct record *r = !strcmp(trigger, "map") && !strstr(resize, " hold")
                                 ? resize_by_map(c, cl, w, h, within, err, sizeof err)
                                 : session_command(c->s, cl, command, ctx_bounded_ms(c, answer_ms), err, sizeof err);
    if (r && !strcmp(r->kind, "done")) {
        if (st->as)
            session_bind(c->s, st->as, r);
        return true;
    }
    if (ctx_compositor_gone(c, st))
        return false;
    if (!r && !proc_interrupted()) /* an observer that ended with its application has said so */
        session_drain(c->s);
    if (ctx_client_gone(c, st))
        return false;
    if (!r && ctx_watchdog_fired(c, st))
        return false;
    if (r)
        ctx_decide(c, VERDICT_UNRESOLVED, st, "fake client %s could not `%s`: %s", st->source, command,
               record_get(r, "msg") ? record_get(r, "msg") : r->line);
    else
        ctx_decide(c, VERDICT_UNRESOLVED, st, "%s", err);
    c->res->setup_failed = true;
    return false;
}
