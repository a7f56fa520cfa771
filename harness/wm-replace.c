/* The `replace-wm` step (ICCCM 2.8): a new instance of the compositor under test takes over the
 * running one in a case, through the command lifecycle.c found for it (--replace-with, the conf's
 * `replace:`, fake-wm --replace); the new one is the compositor under test from then on, the old
 * one is stopped after the case if it did not go by itself. */
#include "wm-replace.h"
#include "clock.h"
#include "grabwatch.h"
#include "lifecycle.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* How long the old instance may take to exit once the new one took its roles, before the harness maps
 * the window the new one must manage (ICCCM 2.8 asks it to release what it managed and destroy its
 * selection window; the WMs named here also exit, within milliseconds).  One that stays is stopped
 * after the case, and meanwhile what it still does is part of the case */
#define OLD_EXIT_MS 1000

void wm_replace_settle(void *ctx)
{
    struct run *r = ctx;
    if (!r->replaced_running)
        return;
    compositor_stop(&r->replaced); /* reaped, and what it left (its bus) ended */
    memset(&r->replaced, 0, sizeof r->replaced);
    r->replaced_running = false;
    grabwatch_target(r->wm_running && r->wm.proc ? r->wm.proc->pid : 0); /* compositor_stop cleared it */
}

/* why the new instance did not take over: its command did not run, it ended, or it was not ready */
static enum replace_result replace_failure(const struct compositor *fresh)
{
    if (!fresh->proc)
        return REPLACE_NOT_RUN;
    if (!fresh->proc->exited)
        return REPLACE_NOT_READY;
    int st = fresh->proc->status;
    /* /bin/sh's "not executable" and "not found" */
    return WIFEXITED(st) && (WEXITSTATUS(st) == 126 || WEXITSTATUS(st) == 127) ? REPLACE_NOT_RUN : REPLACE_NEW_ENDED;
}

/* the old instance, once the new one is ready (it had OLD_EXIT_MS to go before the new one's window
 * was mapped): gone, or still there */
static void describe_old(struct run *r, int64_t ready_us, struct replace_outcome *out)
{
    struct proc *old = r->wm.proc;
    proc_handle_signals();
    if (!old || old->exited) {
        char how[128] = "ended";
        if (old)
            proc_describe_exit(old, how, sizeof how);
        out->old_ended = true;
        out->old_end_ms = old ? (double)(old->exit_us - ready_us) / 1000.0 : 0;
        snprintf(out->old_how, sizeof out->old_how, "%s %.0f ms %s the new one was ready", how,
                 out->old_end_ms < 0 ? -out->old_end_ms : out->old_end_ms, out->old_end_ms < 0 ? "before" : "after");
    } else {
        snprintf(out->old_how, sizeof out->old_how, "was still running when the new one was ready, %d ms after the "
                 "new one took its roles (it is stopped after the case)", (int)(OLD_EXIT_MS * r->o->timeout_scale));
    }
}

void wm_replace_now(void *ctx, int within_ms, int cap_ms, struct replace_outcome *out)
{
    struct run *r = ctx;
    memset(out, 0, sizeof *out);
    wm_replace_settle(r); /* a second replacement in one case: the first one's old instance goes now */
    char start_dir[PATH_MAX], err[3000];
    if (compositor_start_dir(r->tmp_dir, start_dir, sizeof start_dir) < 0)
        snprintf(start_dir, sizeof start_dir, "%s", r->tmp_dir);
    struct compositor fresh = {.log_fd = -1};
    snprintf(fresh.cwd, sizeof fresh.cwd, "%s", start_dir);
    snprintf(fresh.private_dir, sizeof fresh.private_dir, "%s", start_dir);
    fresh.env = compositor_profile_env(r->o->wm_named ? &r->o->wm_profile : NULL, r->o->root, start_dir);
    lifecycle_start_command(r, r->replace_template, start_dir, out->command, sizeof out->command);
    int deadline = within_ms > 0 ? within_ms : r->o->wm_timeout_ms;
    if (deadline > cap_ms)
        deadline = cap_ms;
    int old_exit_ms = (int)(OLD_EXIT_MS * r->o->timeout_scale);
    if (compositor_replace(&fresh, &r->wm, &r->x, out->command, r->wm_log, deadline, old_exit_ms, err, sizeof err) <
        0) {
        out->result = replace_failure(&fresh);
        snprintf(out->why, sizeof out->why, "%s", err);
        compositor_stop(&fresh);
        bool old_alive = r->wm.proc && compositor_alive(&r->wm);
        grabwatch_target(old_alive ? r->wm.proc->pid : 0);
        if (old_alive)
            snprintf(out->old_how, sizeof out->old_how, "is still running");
        else if (r->wm.proc)
            proc_describe_exit(r->wm.proc, out->old_how, sizeof out->old_how);
        return;
    }
    int64_t ready_us = clock_now_us();
    out->result = REPLACED;
    out->pid = fresh.proc->pid;
    out->ready_ms = (double)(fresh.ready_us - fresh.start_us) / 1000.0;
    describe_old(r, ready_us, out);
    /* EWMH's _NET_SUPPORTING_WM_CHECK once the old one is done: the replacement's readiness did not
     * need it (mutter 43.8's old instance deletes it after the new one set it: unset_wm_check_hint
     * in meta_x11_display_dispose, src/x11/meta-x11-display.c), the log says what it is */
    xcb_window_t check = compositor_check_window_now(&r->x);
    snprintf(out->check, sizeof out->check, "%s", !check ? "none" : check == r->wm.check_window ? "old" : "new");
    /* the new one is the compositor under test from now on, under the command the user gave */
    snprintf(fresh.command, sizeof fresh.command, "%s", r->wm.command);
    fresh.starts = r->wm.starts;
    fresh.own_xserver = r->wm.own_xserver;
    fresh.conf = r->wm.conf;
    fresh.screen_oracle = r->wm.screen_oracle;
    fresh.allow_empty = r->wm.allow_empty;
    r->replaced = r->wm;
    r->replaced_running = true;
    r->wm = fresh;
    r->wm_is_replacement = true;
    grabwatch_target(fresh.proc->pid);
}
