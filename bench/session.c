/* The benchmark's session: a private temp dir, its own Xvfb and the compositor, started once and
 * stopped on every exit; and whether the run must stop (a signal, the compositor gone), which
 * each cell asks between frames. */
#include "bench.h"
#include "compositor-profile.h"
#include "compositor.h"
#include "isolation.h"
#include "proc.h"
#include "xserver.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
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
    if (s->wm_running)
        compositor_stop(&s->wm);
    s->wm_running = false;
    xserver_stop(&s->xs);
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

int bench_session_start(struct bench_session *s, const struct session_spec *spec, char *err, size_t errlen)
{
    if (spec->profile)
        snprintf(s->pacing, sizeof s->pacing, "%s", spec->profile->pacing);
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
    if (xserver_start(&s->xs, s->tmp_dir, 10000, err, errlen) < 0)
        return -1;
    enum ready_kind ready = READY_AUTO;
    if (spec->ready)
        parse_ready_kind(spec->ready, &ready);
    /* The compositor's {tmpdir}: a folder of its own per start, as the harness gives it. */
    char start_dir[PATH_MAX];
    if (compositor_start_dir(s->tmp_dir, start_dir, sizeof start_dir) < 0)
        snprintf(start_dir, sizeof start_dir, "%s", s->tmp_dir);
    s->wm.env = compositor_profile_env(spec->profile, spec->root, start_dir);
    snprintf(s->wm.private_dir, sizeof s->wm.private_dir, "%s", start_dir); /* its own home and bus there */
    char log[PATH_MAX];
    snprintf(log, sizeof log, "%s", spec->wm_log ? spec->wm_log : "/dev/null");
    if (compositor_start(&s->wm, &s->xs, spec->command, ready, log, spec->wm_timeout_ms, err, errlen) < 0) {
        compositor_stop(&s->wm);
        return -1;
    }
    s->wm_running = true;
    return 0;
}
