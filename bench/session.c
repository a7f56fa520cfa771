/* The benchmark's session: a private temp dir, its own Xvfb and the compositor, started once and
 * stopped on every exit; and whether the run must stop (a signal, the compositor gone), which
 * each cell asks between frames. */
#include "bench.h"
#include "compositor-profile.h"
#include "capture.h"
#include "compositor.h"
#include "conffile.h"
#include "input-path.h"
#include "isolation.h"
#include "proc.h"
#include "stream.h"
#include "xserver.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct bench_session {
    struct xserver xs;
    struct compositor wm;
    bool wm_running;
    char tmp_dir[PATH_MAX];
    struct isolation home;   /* the session's private home and bus (Xvfb's, the load's); the compositor has its own */
    char pacing[512];        /* the conf's `pacing:` (what decides its frame pacing), or "" */
    /* `xserver: own` (a Wayland compositor and its Xwayland): the screen is its stream's frames,
     * input goes through its seat (the conf's `screen-stream:` and `input:`) */
    bool own_xserver;
    unsigned char locks_before[XSERVER_MAX_LOCKS];
    struct stream stream;
    bool have_stream;
    struct input_path input;
    bool have_input;
    struct capture capture;  /* its `screen-capture:` where it has no stream: pictures, sampled */
    bool have_capture;
    char no_input[600];      /* why the pointer and keyboard cannot drive it here ("": they can) */
    char *helper_env[CAPTURE_MAX_ENV + 1]; /* the helpers' environment (compositor_helper_env) */
};

struct bench_session *bench_session_new(void)
{
    return calloc(1, sizeof(struct bench_session));
}

const char *bench_session_should_stop(struct bench_session *s)
{
    proc_handle_signals();
    if (proc_interrupted())
        return "interrupted";
    if (s->wm_running && !compositor_alive(&s->wm))
        return "compositor exited";
    return NULL;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    return type == FTW_DP ? rmdir(path) : unlink(path);
}

void bench_session_end(struct bench_session *s)
{
    if (s->have_input)
        input_path_stop(&s->input); /* before the compositor: it ends its session while the compositor is there */
    if (s->have_stream)
        stream_stop(&s->stream);
    s->have_input = s->have_stream = false;
    pid_t report = s->wm.report_pid;
    int display = s->xs.display;
    if (s->wm_running)
        compositor_stop(&s->wm);
    s->wm_running = false;
    xserver_stop(&s->xs);
    if (s->own_xserver) {
        if (report > 0)
            kill(report, SIGKILL);
        xserver_remove_stale_since(s->locks_before, display);
    }
    compositor_free_env(s->helper_env);
    isolation_close(&s->home);
    proc_kill_all();
    if (s->tmp_dir[0])
        nftw(s->tmp_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(s);
}

void bench_session_write_row(const struct bench_session *s, const struct row_sink *rows, const char *given)
{
    const struct compositor *wm = &s->wm;
    struct row r;
    row_begin(&r, rows, "session");
    row_str(&r, "wm", given);
    row_str(&r, "command", wm->command);
    row_str(&r, "wm_name", wm->wm_name);
    row_bool(&r, "composites", wm->cm_owner != 0);
    row_num(&r, "ready_ms", (double)(wm->ready_us - wm->start_us) / 1000.0);
    char list[4096] = "[";
    for (int i = 0; i < wm->nsupported; i++) {
        size_t n = strlen(list);
        snprintf(list + n, sizeof list - n, "%s\"%s\"", i ? "," : "", wm->supported[i]);
    }
    strncat(list, "]", sizeof list - strlen(list) - 1);
    row_raw(&r, "supported", list);
    row_str(&r, "pacing", s->pacing);
    row_end(&r);
}

/* The stream and the input helper of a compositor that brings its X server.  Without a stream the
 * resize cells cannot see its screen (its root shows nothing composited): that is the cell's error,
 * not the session's.  Without an input path the pointer and keyboard triggers cannot drive it. */
static int start_helpers(struct bench_session *s, const struct session_spec *spec, const char *start_dir, char *err,
                         size_t errlen)
{
    const struct compositor_profile *p = spec->profile;
    char **env = s->helper_env;
    compositor_helper_env(&s->wm, p, spec->root, start_dir, env, CAPTURE_MAX_ENV);
    char command[2048], why[1024];
    if (p->screen_stream[0]) {
        compositor_start_command(p->screen_stream, spec->root, start_dir, command, sizeof command);
        if (stream_start(&s->stream, command, env, s->wm.log_fd, 10000, why, sizeof why) < 0) {
            snprintf(err, errlen, "the compositor's screen stream `%s` did not start: %s", command, why);
            return -1;
        }
        s->have_stream = true;
    } else if (p->screen_capture[0]) {
        struct capture *c = &s->capture;
        compositor_start_command(p->screen_capture, spec->root, start_dir, c->command, sizeof c->command);
        for (int i = 0; env[i]; i++)
            c->env[i] = env[i]; /* the session's copies, freed with it */
        c->width = s->xs.screen ? s->xs.screen->width_in_pixels : 0;
        c->height = s->xs.screen ? s->xs.screen->height_in_pixels : 0;
        c->log_fd = s->wm.log_fd;
        c->timeout_ms = 5000;
        s->have_capture = true;
    }
    if (!p->input[0]) {
        snprintf(s->no_input, sizeof s->no_input, "%s", p->no_xtest);
        return 0;
    }
    compositor_start_command(p->input, spec->root, start_dir, command, sizeof command);
    int w = s->xs.screen ? s->xs.screen->width_in_pixels : 0, h = s->xs.screen ? s->xs.screen->height_in_pixels : 0;
    if (input_path_start(&s->input, command, env, s->wm.log_fd, w, h, 10000, why, sizeof why) < 0) {
        snprintf(err, errlen, "the compositor's input path `%s` did not start: %s", command, why);
        return -1;
    }
    s->input.barrier = p->input_barrier;
    s->have_input = true;
    return 0;
}

static int start_compositor(struct bench_session *s, const struct session_spec *spec, const char *command,
                            enum ready_kind ready, const char *start_dir, char *err, size_t errlen)
{
    char log[PATH_MAX];
    snprintf(log, sizeof log, "%s", spec->wm_log ? spec->wm_log : "/dev/null");
    if (!s->own_xserver) {
        if (xserver_start(&s->xs, s->tmp_dir, 10000, err, errlen) < 0)
            return -1;
        return compositor_start(&s->wm, &s->xs, command, ready, log, spec->wm_timeout_ms, err, errlen);
    }
    char fifo[PATH_MAX + 32];
    xserver_locks(s->locks_before, XSERVER_MAX_LOCKS);
    if (compositor_prepare_report(start_dir, fifo, sizeof fifo, err, errlen) < 0 ||
        compositor_start_own(&s->wm, &s->xs, command, ready, log, spec->wm_timeout_ms, fifo, err, errlen) < 0)
        return -1;
    return start_helpers(s, spec, start_dir, err, errlen);
}

int bench_session_start(struct bench_session *s, const struct session_spec *spec, char *err, size_t errlen)
{
    if (spec->profile)
        snprintf(s->pacing, sizeof s->pacing, "%s", spec->profile->pacing);
    s->own_xserver = spec->profile && spec->profile->own_xserver;
    snprintf(s->tmp_dir, sizeof s->tmp_dir, "%s/framesync-bench-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(s->tmp_dir)) {
        s->tmp_dir[0] = 0;
        snprintf(err, errlen, "cannot create a private temp dir: %s", strerror(errno));
        return -1;
    }
    if (proc_init(s->tmp_dir) < 0) {
        snprintf(err, errlen, "cannot set up process handling: %s", strerror(errno));
        return -1;
    }
    if (isolation_open(&s->home, s->tmp_dir, true, 10000, err, errlen) < 0)
        return -1;
    isolation_export(&s->home);
    enum ready_kind ready = READY_AUTO;
    if (spec->ready)
        parse_ready_kind(spec->ready, &ready);
    /* The compositor's {tmpdir}: a folder of its own per start, as the harness gives it. */
    char start_dir[PATH_MAX], command[4096];
    if (compositor_start_dir(s->tmp_dir, start_dir, sizeof start_dir) < 0)
        snprintf(start_dir, sizeof start_dir, "%s", s->tmp_dir);
    s->wm.env = compositor_profile_env(spec->profile, spec->root, start_dir);
    snprintf(s->wm.private_dir, sizeof s->wm.private_dir, "%s", start_dir); /* its own home and bus there */
    snprintf(s->wm.cwd, sizeof s->wm.cwd, "%s", start_dir);
    char profiled[4096];
    conf_substitute(spec->command, "{profile}", "de-facto", profiled, sizeof profiled); /* the form it measures */
    compositor_start_command(profiled, spec->root, start_dir, command, sizeof command);
    if (start_compositor(s, spec, command, ready, start_dir, err, errlen) < 0) {
        compositor_stop(&s->wm);
        return -1;
    }
    s->wm_running = true;
    return 0;
}

bool bench_session_own_xserver(const struct bench_session *s) { return s->own_xserver; }
struct stream *bench_session_stream(struct bench_session *s) { return s->have_stream ? &s->stream : NULL; }
const struct capture *bench_session_capture(const struct bench_session *s)
{
    return s->have_capture ? &s->capture : NULL;
}
const struct input_path *bench_session_input(const struct bench_session *s)
{
    return s->have_input ? &s->input : NULL;
}
const char *bench_session_no_input(const struct bench_session *s) { return s->no_input; }
