#include "lifecycle.h"
#include "stream-report.h"
#include "clock.h"
#include "conffile.h"
#include "grabwatch.h"
#include "input-barrier.h"
#include "outdir.h"
#include "probe.h"
#include "wm-replace.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* A compositor must answer the liveness barrier (a new window mapped and shown) within this. */
#define LIVENESS_MS 3000

int lifecycle_liveness_ms(const struct run *r)
{
    return (int)(LIVENESS_MS * r->o->timeout_scale);
}

/* a new instance replacing it in a case (`replace-wm`): its command at the end of this file, the
 * replacement itself in wm-replace.c */
static void find_replace_template(struct run *r, enum profile p);
static void declare_replace(struct run *r);

struct run_env lifecycle_env(struct run *r)
{
    r->replacer = (struct wm_replacer){.replace = wm_replace_now, .settle = wm_replace_settle, .ctx = r};
    return (struct run_env){.replacer = &r->replacer, .x = &r->x, .wm = &r->wm, .client_binary = r->client_binary,
                            .observer_binary = r->observer_binary, .timeout_scale = r->o->timeout_scale,
                            .oracles = r->oracles, .noracles = r->noracles,
                            .case_timeout_ms = options_case_timeout_ms(r->o), .features = r->features,
                            .no_screen = r->no_screen[0] ? r->no_screen : NULL,
                            .capture = r->have_capture ? &r->capture : NULL,
                            .no_xtest = r->o->wm_named && r->o->wm_profile.no_xtest[0] ? r->o->wm_profile.no_xtest
                                                                                       : NULL,
                            .input = r->have_input ? &r->input : NULL,
                            .input_broken = r->input_error[0] ? r->input_error : NULL,
                            .app_ever_mapped = r->observer_binary[0] ? &r->app_ever_mapped : NULL, .keep = r->observer_binary[0] ? &r->keep : NULL};
}

static void tap_line(void *ctx, const char *text)
{
    tap_comment(ctx, "%s", text);
}

/* tmpl with {profile} replaced by p's name */
static void for_profile(const char *tmpl, enum profile p, char *buf, size_t len)
{
    size_t o = 0;
    for (const char *c = tmpl; *c && o + 1 < len;) {
        if (!strncmp(c, "{profile}", 9)) {
            o += (size_t)snprintf(buf + o, len - o, "%s", profile_name(p));
            c += 9;
        } else
            buf[o++] = *c++;
    }
    buf[o < len ? o : len - 1] = 0;
}

static void wm_command_for(const struct run *r, enum profile p, char *buf, size_t len)
{
    char def[PATH_MAX + 160];
    if (r->o->policy && !r->states_pass) /* a client run: fake-wm under the policy, which also notes what it shows */
        snprintf(def, sizeof def, "exec '%s/fake-wm/fake-wm' --profile {profile} --policy %s", r->o->root,
                 r->o->policy);
    else
        snprintf(def, sizeof def, "exec '%s/fake-wm/fake-wm' --profile {profile}", r->o->root);
    for_profile(r->o->wm ? r->o->wm : def, p, buf, len);
}

static void print_claims(struct run *r)
{
    char line[4096];
    int o = snprintf(line, sizeof line, "compositor `%s` ready after %.0f ms: %s, %s; _NET_SUPPORTED:",
                     r->wm.command, (double)(r->wm.ready_us - r->wm.start_us) / 1000.0,
                     r->wm.wm_name[0] ? r->wm.wm_name : "(no _NET_WM_NAME)",
                     r->wm.cm_owner ? "composites (owns _NET_WM_CM_S0)" : "does not composite");
    for (int i = 0; i < r->wm.nsupported && o > 0 && (size_t)o < sizeof line; i++)
        o += snprintf(line + o, sizeof line - (size_t)o, " %s", r->wm.supported[i]);
    tap_comment(&r->tap, "%s", line);
}

/* The environment of a helper that speaks to the compositor (compositor_helper_env); free it with
 * compositor_free_env. */
static void helper_env(struct run *r, const struct compositor_profile *p, char **out, int max)
{
    compositor_helper_env(&r->wm, p, r->o->root, r->start_dir, out, max);
}

/* The screen-capture command of this start (compositors/NAME.conf `screen-capture:`), with its
 * {tmpdir} and {root}, the compositor's private home, the conf's env: and the session's variables
 * its {report} saw; false when there is none. */
static bool make_capture(struct run *r)
{
    const struct compositor_profile *p = r->o->wm_named ? &r->o->wm_profile : NULL;
    compositor_free_env(r->capture.env);
    r->capture.stream = NULL;
    r->capture.command[0] = r->capture.stream_command[0] = 0;
    if (!p || (!p->screen_capture[0] && !p->screen_stream[0]) || !r->o->own_xserver)
        return false;
    char a[4096];
    conf_substitute(p->screen_capture, "{tmpdir}", r->start_dir, a, sizeof a);
    conf_substitute(a, "{root}", r->o->root, r->capture.command, sizeof r->capture.command);
    conf_substitute(p->screen_stream, "{tmpdir}", r->start_dir, a, sizeof a);
    conf_substitute(a, "{root}", r->o->root, r->capture.stream_command, sizeof r->capture.stream_command);
    helper_env(r, p, r->capture.env, CAPTURE_MAX_ENV);
    r->capture.width = r->x.screen ? r->x.screen->width_in_pixels : 0;
    r->capture.height = r->x.screen ? r->x.screen->height_in_pixels : 0;
    r->capture.log_fd = r->wm.log_fd;
    r->capture.timeout_ms = (int)(5000 * r->o->timeout_scale);
    return true;
}

/* The oracles and the grab watch belong to one X server: made when it is there (once for Xvfb, at
 * each start of a compositor that brings its own). */
int lifecycle_attach_observers(struct run *r, char *err, size_t errlen)
{
    bool cap = make_capture(r);
    r->noracles = oracles_create(&r->x, cap ? &r->capture : NULL, r->oracles, MAX_ORACLES, r->screen_oracle,
                                 r->no_screen, sizeof r->no_screen);
    r->have_capture = cap && !r->no_screen[0];
    if (r->no_screen[0])
        tap_comment(&r->tap, "no screen oracle on %s: %s; the cases that read the screen SKIP", r->x.display_name,
                    r->no_screen);
    else if (r->o->own_xserver)
        tap_comment(&r->tap, "screen oracle on %s: %s", r->x.display_name, r->screen_oracle);
    /* a compositor's server grab of 3 s (scaled) ends with the compositor: see grabwatch.h */
    if (grabwatch_start(r->x.display_name, (int)(3000 * r->o->timeout_scale), err, errlen) < 0)
        return -1;
    grabwatch_server(r->x.proc ? r->x.proc->pid : 0); /* a server of ours can be stopped when stuck */
    return 0;
}

/* The input path (`input:` of the conf, or --input) for this start: started once the compositor is ready, with
 * its {tmpdir} and {root} and the environment of a screen capture.  One that does not start is
 * said once, and the cases that need it are UNRESOLVED (the suite's helper failed, not the
 * compositor); without `input:` the scripted clients use XTEST. */
static void start_input(struct run *r)
{
    const struct compositor_profile *p = r->o->wm_named ? &r->o->wm_profile : NULL;
    r->have_input = false;
    r->input_error[0] = 0;
    snprintf(r->input_desc, sizeof r->input_desc, "XTEST");
    if (!r->o->input)
        return;
    char a[4096], command[2048], err[1024];
    conf_substitute(r->o->input, "{tmpdir}", r->start_dir, a, sizeof a);
    conf_substitute(a, "{root}", r->o->root, command, sizeof command);
    char *env[CAPTURE_MAX_ENV + 1] = {NULL};
    helper_env(r, p, env, CAPTURE_MAX_ENV);
    int root_w = r->x.screen ? r->x.screen->width_in_pixels : 0, root_h = r->x.screen ? r->x.screen->height_in_pixels : 0;
    int rc = input_path_start(&r->input, command, env, r->wm.log_fd, root_w, root_h, (int)(5000 * r->o->timeout_scale),
                              err, sizeof err);
    compositor_free_env(env);
    if (rc < 0) {
        snprintf(r->input_error, sizeof r->input_error, "the compositor's input path `%s` did not start: %s", command,
                 err);
        snprintf(r->input_desc, sizeof r->input_desc, "none: %s", r->input_error);
        tap_comment(&r->tap, "%s; the keyboard and pointer resizes are UNRESOLVED", r->input_error);
        return;
    }
    r->have_input = true;
    r->input.barrier = r->o->input_barrier;
    char barrier[160] = "";
    if (r->input.barrier)
        snprintf(barrier, sizeof barrier, "; each event after a %s barrier through the WM (common/input-barrier.h)",
                 input_barrier_name(r->input.barrier));
    snprintf(r->input_desc, sizeof r->input_desc, "the compositor's own seat: `%s` (its monitor %dx%d at 0,0 on the "
             "stage, the X root's size: root coordinates are the stage's)%s", command, r->input.width, r->input.height,
             barrier);
    tap_comment(&r->tap, "input of interactive resizes on %s: %s", r->x.display_name, r->input_desc);
}

static void stop_input(struct run *r)
{
    if (r->have_input)
        input_path_stop(&r->input);
    r->have_input = false;
}

static void detach_observers(struct run *r)
{
    oracles_destroy(r->oracles, r->noracles);
    r->noracles = 0;
    grabwatch_stop();
}

/* Stops the compositor, and with its own X server what belongs to that server: the oracles, the
 * grab watch, the connection, the report command (which a session may have moved out of the
 * compositor's process group) and the X lock and socket it may leave behind. */
static void stop_compositor(struct run *r)
{
    pid_t report = r->wm.report_pid;
    int display = r->x.display;
    stop_input(r); /* before the compositor: it ends its session while the compositor is there */
    stream_report_stop(r); /* what the screen stream saw in this start: it ends with the compositor */
    compositor_stop(&r->wm);
    if (!r->o->own_xserver)
        return;
    detach_observers(r);
    xserver_stop(&r->x);
    if (report > 0)
        kill(report, SIGKILL);
    xserver_remove_stale_since(r->locks_before, display);
}

void lifecycle_stop(struct run *r)
{
    app_keep_stop(&r->keep); /* it ran under this compositor (and its X server) */
    wm_replace_settle(r);
    if (r->wm_running)
        stop_compositor(r);
    r->wm_running = false;
    r->wm_is_replacement = false;
}

void lifecycle_stop_broken(struct run *r, const char *why)
{
    lifecycle_stop(r);
    snprintf(r->wm_stopped_why, sizeof r->wm_stopped_why, "%s", why);
}

/* The command of one start: {profile} was replaced already (wm_command_for); see
 * compositor_start_command. */
void lifecycle_start_command(const struct run *r, const char *cmd, const char *start_dir, char *out, size_t len)
{
    compositor_start_command(cmd, r->o->root, start_dir, out, len);
}

/* Launches the command and waits until ready: on our Xvfb, or on the X server it brings. */
static int launch(struct run *r, const char *cmd, enum ready_kind ready, const char *start_dir, char *err,
                  size_t errlen)
{
    snprintf(r->wm.cwd, sizeof r->wm.cwd, "%s", start_dir); /* its core files, if any, go there */
    snprintf(r->wm.private_dir, sizeof r->wm.private_dir, "%s", start_dir); /* and its home and bus */
    if (!r->o->own_xserver)
        return compositor_start(&r->wm, &r->x, cmd, ready, r->wm_log, r->o->wm_timeout_ms, err, errlen);
    char fifo[PATH_MAX + 32];
    xserver_locks(r->locks_before, XSERVER_MAX_LOCKS);
    if (compositor_prepare_report(start_dir, fifo, sizeof fifo, err, errlen) < 0 ||
        compositor_start_own(&r->wm, &r->x, cmd, ready, r->wm_log, r->o->wm_timeout_ms, fifo, err, errlen) < 0 ||
        lifecycle_attach_observers(r, err, errlen) < 0)
        return -1;
    /* its pid too: once it is gone another server may take its number (tests/leftovers) */
    tap_comment(&r->tap, "the compositor brings its X server: %s (pid %ld, XAUTHORITY %s)", r->x.display_name,
                (long)xserver_lock_pid(r->x.display), r->x.auth_path[0] ? r->x.auth_path : "none");
    return 0;
}

/* Starts the command; false with why (and the command remembered, so its other cases fail at
 * once instead of waiting for it again). */
static bool start(struct run *r, const char *cmd, enum profile p, char *why, size_t len)
{
    if (!strcmp(r->wm_failed_command, cmd)) {
        snprintf(why, len, "%s", r->wm_failed_reason);
        return false;
    }
    enum ready_kind ready = READY_AUTO;
    if (r->o->ready)
        parse_ready_kind(r->o->ready, &ready);
    int tries = r->wm.starts;
    memset(&r->wm, 0, sizeof r->wm);
    r->wm.starts = tries;
    char *start_dir = r->start_dir, command[4096], err[3000];
    if (compositor_start_dir(r->tmp_dir, r->start_dir, sizeof r->start_dir) < 0)
        snprintf(r->start_dir, sizeof r->start_dir, "%s", r->tmp_dir);
    r->wm.env = compositor_profile_env(r->o->wm_named ? &r->o->wm_profile : NULL, r->o->root, start_dir);
    lifecycle_start_command(r, cmd, start_dir, command, sizeof command);
    if (launch(r, command, ready, start_dir, err, sizeof err) < 0) {
        stop_compositor(r);
        snprintf(r->wm_failed_command, sizeof r->wm_failed_command, "%s", cmd);
        snprintf(r->wm_failed_reason, sizeof r->wm_failed_reason, "%s", err);
        snprintf(why, len, "%s", err);
        return false;
    }
    snprintf(r->wm.command, sizeof r->wm.command, "%s", cmd); /* the command as the user wrote it */
    start_input(r);
    r->wm.input_path = r->input_desc;
    r->wm.own_xserver = r->o->own_xserver;
    r->wm.conf = r->o->wm_named ? r->o->wm_profile.name : NULL;
    r->wm.screen_oracle = r->screen_oracle[0] ? r->screen_oracle : NULL;
    r->wm.allow_empty = r->o->wm_named && r->o->wm_profile.allow_empty[0] ? r->o->wm_profile.allow_empty : NULL;
    r->wm_running = true;
    r->wm_ever_ready = true;
    r->wm_profile = p;
    find_replace_template(r, p);
    print_claims(r);
    results_compositor(r->results, &r->wm, p);
    return true;
}

static struct features *known_table(struct run *r, const char *command)
{
    for (int i = 0; i < r->ntables; i++)
        if (!strcmp(r->tables[i]->command, command))
            return r->tables[i];
    return NULL;
}

static struct features *new_table(struct run *r, const char *command)
{
    struct features *fs = calloc(1, sizeof *fs);
    snprintf(fs->named_trigger, sizeof fs->named_trigger, "%s", r->o->resize_trigger ? r->o->resize_trigger : "");
    features_init(fs, command);
    r->tables = realloc(r->tables, (size_t)(r->ntables + 1) * sizeof *r->tables);
    r->tables[r->ntables++] = fs;
    return fs;
}

/* ---- probing: a crash or hang is an incident, then a restart ---- */

static int restart_for_probe(void *ctx, char *why, size_t len)
{
    struct run *r = ctx;
    char how[700] = "";
    if (r->wm_running && !compositor_alive(&r->wm))
        proc_describe_exit(r->wm.proc, how, sizeof how);
    tap_comment(&r->tap, "restarting the compositor (it crashed or hung while it was probed%s%s)", how[0] ? ": " : "",
                how);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s", r->wm.command);
    lifecycle_stop(r);
    return start(r, cmd, r->wm_profile, why, len) ? 0 : -1;
}

static void probe_incident(void *ctx, const struct testcase *probe, const struct result *res)
{
    struct run *r = ctx;
    r->incidents = realloc(r->incidents, (size_t)(r->nincidents + 1) * sizeof *r->incidents);
    r->incidents[r->nincidents++] = (struct incident){.probe = probe, .p = r->wm_profile, .res = *res};
}

static void app_not_started(void *ctx, const char *why)
{
    struct run *r = ctx;
    snprintf(r->app_not_started, sizeof r->app_not_started, "%s", why);
}

/* The feature table of the running compositor: from an earlier start of the same command, from
 * --features, or probed now (its logs under logs/probes/PROFILE/). */
static void find_features(struct run *r, enum profile p)
{
    if ((r->features = known_table(r, r->wm.command)))
        return;
    struct features *fs = r->features = new_table(r, r->wm.command);
    snprintf(fs->oracle, sizeof fs->oracle, "%s", r->screen_oracle);
    char err[1024];
    int found = r->o->features_file ? features_read_tsv(r->o->features_file, r->wm.command, fs, err, sizeof err) : 0;
    if (found < 0)
        tap_comment(&r->tap, "%s: probing instead", err);
    if (found > 0 && r->observer_binary[0]) /* a table from before they were declared: as the conf says now */
        features_set_client_states(fs, getenv("FRAMESYNC_CLIENT_ANIMATES"));
    /* a worker judging by the probe pass's table: the application mapped its toplevel there (its
     * participation was decided), so it starts; an end before its map in a case is a crash */
    if (found > 0 && r->observer_binary[0] && features_decided(fs, "client-participates"))
        r->app_ever_mapped = true;
    if (found <= 0) {
        char dir[PATH_MAX + 64];
        snprintf(dir, sizeof dir, "%s/logs/probes/%s", r->o->out_dir, profile_name(p));
        mkdir_p(dir, 0755);
        struct run_env env = lifecycle_env(r);
        struct probe_hooks hooks = {.restart = restart_for_probe, .incident = probe_incident,
                                    .not_started = app_not_started, .ctx = r, .liveness_ms = lifecycle_liveness_ms(r),
                                    .states_only = r->states_pass};
        probes_run(r->set.probes, r->set.nprobes, &env, fs, r->client_binary, dir, p, &hooks);
    }
    if (r->states_pass) { /* its table served the states (probe.c keeps them): not the run's */
        free(r->tables[--r->ntables]);
        r->features = NULL;
        return;
    }
    if (r->app_not_started[0]) /* the run stops: an application that does not start has no features */
        return;
    declare_replace(r);
    features_print(fs, tap_line, &r->tap);
    results_features(r->results, fs);
}

enum wm_state lifecycle_ensure(struct run *r, enum profile p, char *ended, size_t endedlen, char *why, size_t len)
{
    char cmd[2048];
    wm_command_for(r, p, cmd, sizeof cmd);
    if (r->wm_running && r->wm_is_replacement) { /* every case starts from the command given */
        tap_comment(&r->tap, "starting the compositor afresh: the last case replaced it by a new instance (`%s`)",
                    r->replace_template);
        lifecycle_stop(r);
    }
    bool stopped = r->wm_running && proc_is_stopped(r->wm.proc);
    if (r->wm_running && !strcmp(r->wm.command, cmd) && compositor_alive(&r->wm) && !stopped)
        return WM_READY;
    enum wm_state state = WM_READY;
    if (r->wm_running && !strcmp(r->wm.command, cmd)) { /* it ended since the last case */
        char how[128];
        state = WM_HAD_ENDED;
        if (stopped)
            snprintf(ended, endedlen, "it was stopped (state T: a hung process)");
        else
            snprintf(ended, endedlen, "%s at %.1f s after its start", proc_describe_exit(r->wm.proc, how, sizeof how),
                     (double)(r->wm.proc->exit_us - r->wm.start_us) / 1e6);
        tap_comment(&r->tap, "restarting the compositor (%s)", ended);
    }
    if (r->wm_stopped_why[0] && !strcmp(r->wm.command, cmd))
        tap_comment(&r->tap, "restarting the compositor (%s)", r->wm_stopped_why);
    r->wm_stopped_why[0] = 0;
    lifecycle_stop(r);
    if (!start(r, cmd, p, why, len))
        return WM_NOT_STARTED;
    find_features(r, p);
    return state;
}

/* ---- a new instance replacing it in a case (`replace-wm`, ICCCM 2.8) ---- */


/* How a new instance replaces profile p's compositor: --replace-with, the conf's `replace:`, or the
 * reference fake-wm's own `--replace` (a command line that runs it); {profile} replaced.  "" with
 * why_no_replace (a plain reason: the cases that replace it SKIP with it) when there is none. */
static void find_replace_template(struct run *r, enum profile p)
{
    const struct options *o = r->o;
    char cmd[2048], reference[PATH_MAX + 32];
    const char *tmpl = NULL;
    r->replace_template[0] = r->why_no_replace[0] = 0;
    wm_command_for(r, p, cmd, sizeof cmd);
    snprintf(reference, sizeof reference, "%s/fake-wm/fake-wm", o->root);
    if (o->own_xserver)
        snprintf(r->why_no_replace, sizeof r->why_no_replace, "the compositor brings its own X server, which ends "
                 "with it: nothing can replace it on that server");
    else if (o->replace_with)
        tmpl = o->replace_with;
    else if (o->wm_named && o->wm_profile.replace[0])
        tmpl = o->wm_profile.replace;
    else if (o->wm_named)
        snprintf(r->why_no_replace, sizeof r->why_no_replace, "compositors/%s.conf names no command that replaces "
                 "a running instance (`replace:`): %s cannot be replaced here", o->wm_profile.name, o->wm_profile.name);
    else if (strstr(cmd, reference))
        snprintf(r->replace_template, sizeof r->replace_template, "%s --replace", cmd);
    else
        snprintf(r->why_no_replace, sizeof r->why_no_replace, "the command line names no way to replace a running "
                 "instance (give one with --replace-with CMD)");
    if (tmpl)
        for_profile(tmpl, p, r->replace_template, sizeof r->replace_template);
}

/* `replace` in the feature table: declared by the command, not probed */
static void declare_replace(struct run *r)
{
    if (r->replace_template[0])
        features_set(r->features, "replace", FEATURE_PRESENT, "declared", "a new instance replaces it: `%s`",
                     r->replace_template);
    else
        features_set(r->features, "replace", FEATURE_ABSENT, "declared", "%s", r->why_no_replace);
}
