/* The compositor under test: only ever a command line (run by /bin/sh in its own process
 * group) plus what "ready" means for it.  The reference fake-wm is started the same way. */
#ifndef FRAMESYNC_COMPOSITOR_H
#define FRAMESYNC_COMPOSITOR_H

#include <stdbool.h>
#include <sys/types.h>
#include "isolation.h"
#include "xserver.h"

struct compositor_profile;

enum ready_kind {
    READY_WM = 1,          /* WM_S0 owned, _NET_SUPPORTING_WM_CHECK valid */
    READY_CM = 2,          /* _NET_WM_CM_S0 owned */
    READY_BOTH = 3,
    READY_AUTO = 4,        /* whichever it takes first; the other too if it follows within 1 s */
};

struct compositor {
    char command[2048];       /* after {profile} substitution */
    enum ready_kind ready;    /* after start: what it was found to be (auto resolved) */
    char **env;               /* extra NAME=VALUE for it (compositors/NAME.conf env:), or NULL */
    struct proc *proc;
    char log_path[512];
    int log_fd;
    int64_t start_us, ready_us;
    int starts;               /* how often it was (re)started in this run */
    char cwd[512];            /* where it runs ("": the harness's folder) */
    char private_dir[512];    /* this start's private folder ({tmpdir}): its home and session bus
                                 are made there, the conf's env: goes on top ("": the run's) */
    struct isolation iso;     /* ... its home and bus, from its spawn to compositor_stop */
    /* `xserver: own`: what its session reported ({report}) */
    char own_display[64], own_auth[512];
    pid_t report_pid;
    /* ... and the session's WAYLAND_DISPLAY, XDG_RUNTIME_DIR and DBUS_SESSION_BUS_ADDRESS as
     * NAME=VALUE (those it had), for a screen-capture command that speaks to the compositor */
    char *own_env[4];
    /* for the report: its X server, which screen oracle served, why its run may test nothing */
    bool own_xserver;
    const char *conf;            /* the name of its compositors/NAME.conf, or NULL (a command line) */
    const char *screen_oracle;   /* or NULL */
    const char *input_path;      /* how input reaches it ("XTEST", the conf's `input:`), or NULL */
    const char *allow_empty;     /* `allow-empty:` of its conf, or NULL */
    /* what it claims, read once ready */
    xcb_window_t wm_owner, cm_owner, check_window;
    xcb_window_t check_before;   /* a replacement: the old instance's check window, not this one's */
    bool wm_set, cm_set;         /* WM_S0 / _NET_WM_CM_S0 set (to a window) since its launch (XFixes) */
    bool replacing;              /* a replacement: WM_S0 taken from the old owner is enough for the WM
                                    role (the old one may remove the root's _NET_SUPPORTING_WM_CHECK as
                                    it goes: mutter 43.8 does), the probe window then shows it manages */
    char wm_name[128];
    char *supported[256];     /* atom names in _NET_SUPPORTED */
    int nsupported;
};

/* Starts it and waits until ready; on failure fills err (with the tail of its output). */
int compositor_start(struct compositor *c, struct xserver *x, const char *command,
                     enum ready_kind ready, const char *log_path, int deadline_ms,
                     char *err, size_t errlen);
/* The command of one start: {tmpdir}, {root} and {report} replaced. */
void compositor_start_command(const char *cmd, const char *root, const char *start_dir, char *out, size_t len);
/* For `xserver: own`: makes the fifo the session's report arrives in and the {report} script, in
 * start_dir; 0, or -1 with err. */
int compositor_prepare_report(const char *start_dir, char *fifo, size_t len, char *err, size_t errlen);
/* The environment of a helper that speaks to the compositor (a screen capture or stream, the input
 * path): its private home and bus, the conf's env: (p, with {root} and {tmpdir} = start_dir) and
 * the session's variables its {report} saw, as NAME=VALUE copies into out (NULL-terminated, at most
 * max entries before it); free them with compositor_free_env. */
void compositor_helper_env(const struct compositor *c, const struct compositor_profile *p, const char *root,
                           const char *start_dir, char **out, int max);
void compositor_free_env(char **env);
/* A compositor that brings its own X server (Xwayland): launched first; its session runs the
 * {report} command, which writes DISPLAY, XAUTHORITY and its PID into report_fifo (a fifo the
 * caller made); then x is attached to that server and readiness is waited for there. */
int compositor_start_own(struct compositor *c, struct xserver *x, const char *command, enum ready_kind ready,
                         const char *log_path, int deadline_ms, const char *report_fifo, char *err, size_t errlen);
/* A new instance that replaces the running one `old` (ICCCM 2.8, `--replace`): launched on old's
 * server and ready as old was found to be: its roles taken from old's windows, then (old given up to
 * old_exit_ms to exit, as the WMs named here do) a window it manages (mapped, and its WM_STATE set).
 * Whether old has ended is the caller's to see. */
int compositor_replace(struct compositor *c, const struct compositor *old, struct xserver *x, const char *command,
                       const char *log_path, int deadline_ms, int old_exit_ms, char *err, size_t errlen);
/* What the root's _NET_SUPPORTING_WM_CHECK names now, if it is a valid check window (its own
 * property names itself), else XCB_NONE. */
xcb_window_t compositor_check_window_now(struct xserver *x);
void compositor_stop(struct compositor *c);
/* Still running?  (Reaps first.) */
bool compositor_alive(struct compositor *c);
bool compositor_supports(const struct compositor *c, const char *atom_name);
/* Where its log is now, so a case can quote what it printed meanwhile. */
off_t compositor_log_offset(const struct compositor *c);

int parse_ready_kind(const char *s, enum ready_kind *out);

#endif
