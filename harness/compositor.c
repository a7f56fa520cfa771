#include "compositor.h"
#include "clock.h"
#include "compositor-profile.h"
#include "conffile.h"
#include "grabwatch.h"
#include "xhelpers.h"
#include "xutil.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xcb/xcb_aux.h>
#include <xcb/xfixes.h>

int parse_ready_kind(const char *s, enum ready_kind *out)
{
    if (!strcmp(s, "wm"))
        *out = READY_WM;
    else if (!strcmp(s, "cm"))
        *out = READY_CM;
    else if (!strcmp(s, "wm+cm"))
        *out = READY_BOTH;
    else if (!strcmp(s, "auto"))
        *out = READY_AUTO;
    else
        return -1;
    return 0;
}

/* The WM is ready when the root's _NET_SUPPORTING_WM_CHECK names a window whose own property
 * names itself (a stale root property can point at a dead or reused XID), and WM_S0 has an owner
 * that is not the one seen before launch. */
static xcb_window_t valid_check_window(xcb_connection_t *conn, xcb_window_t root)
{
    xcb_atom_t a = xu_atom(conn, "_NET_SUPPORTING_WM_CHECK");
    xcb_window_t w = xu_get_window_prop(conn, root, a);
    if (w && xu_get_window_prop(conn, w, a) == w)
        return w;
    return XCB_NONE;
}

/* The events of the connection that watch_roles asked for: a selection set since the launch (XFixes
 * SetSelectionOwner, owner not None) was set by the new compositor, even with the old owner's XID:
 * a replacement's connection may get the client ID range the old one's had (seen: fake-wm's
 * _NET_WM_CM_S0 window, made after the old instance exited, had its XID).  The number of events. */
static int take_role_events(struct compositor *c, struct xserver *x)
{
    const xcb_query_extension_reply_t *xf = xcb_get_extension_data(x->conn, &xcb_xfixes_id);
    xcb_generic_event_t *e;
    int n = 0;
    while ((e = xcb_poll_for_event(x->conn))) {
        xcb_xfixes_selection_notify_event_t *s = (xcb_xfixes_selection_notify_event_t *)e;
        if (xf && xf->present && (e->response_type & 0x7F) == xf->first_event + XCB_XFIXES_SELECTION_NOTIFY &&
            s->subtype == XCB_XFIXES_SELECTION_EVENT_SET_SELECTION_OWNER && s->owner != XCB_NONE) {
            if (s->selection == xu_atom(x->conn, "WM_S0"))
                c->wm_set = true;
            else if (s->selection == xu_atom(x->conn, "_NET_WM_CM_S0"))
                c->cm_set = true;
        }
        free(e);
        n++;
    }
    return n;
}

/* What the new compositor has taken so far: READY_WM, READY_CM, both or 0. */
static unsigned taken(struct compositor *c, struct xserver *x, xcb_window_t wm_before, xcb_window_t cm_before)
{
    xcb_window_t root = x->screen->root;
    take_role_events(c, x);
    c->wm_owner = xu_selection_owner(x->conn, "WM_S0");
    c->cm_owner = xu_selection_owner(x->conn, "_NET_WM_CM_S0");
    c->check_window = valid_check_window(x->conn, root);
    bool checked = c->check_window && c->check_window != c->check_before;
    bool wm = c->wm_owner && (c->wm_owner != wm_before || c->wm_set) && (checked || c->replacing);
    bool cm = c->cm_owner && (c->cm_owner != cm_before || c->cm_set);
    return (wm ? READY_WM : 0) | (cm ? READY_CM : 0);
}

/* auto: whichever role it takes first is enough to start with (a WM, a compositor, or both) */
static bool is_ready(struct compositor *c, unsigned have, enum ready_kind want)
{
    (void)c;
    return want == READY_AUTO ? have != 0 : (have & (unsigned)want) == (unsigned)want;
}

static void read_claims(struct compositor *c, struct xserver *x)
{
    for (int i = 0; i < c->nsupported; i++)
        free(c->supported[i]);
    c->nsupported = 0;
    c->wm_name[0] = 0;
    xcb_atom_t atoms[256];
    int n = xu_get_atom_list(x->conn, x->screen->root, xu_atom(x->conn, "_NET_SUPPORTED"), atoms, 256);
    for (int i = 0; i < n; i++) {
        char name[256];
        if (xu_atom_name(x->conn, atoms[i], name, sizeof name) == 0)
            c->supported[c->nsupported++] = strdup(name);
    }
    if (c->check_window)
        xu_get_utf8_prop(x->conn, c->check_window, xu_atom(x->conn, "_NET_WM_NAME"), c->wm_name,
                         sizeof c->wm_name);
}

bool compositor_supports(const struct compositor *c, const char *atom_name)
{
    for (int i = 0; i < c->nsupported; i++)
        if (!strcmp(c->supported[i], atom_name))
            return true;
    return false;
}

static void describe_failure(struct compositor *c, const char *what, char *err, size_t errlen)
{
    char tail[2000], how[128] = "";
    file_tail(c->log_path, 10, tail, sizeof tail);
    if (c->proc->exited)
        proc_describe_exit(c->proc, how, sizeof how);
    snprintf(err, errlen, "compositor `%s` %s%s%s; the last lines of its output (%s):\n%s",
             c->command, what, how[0] ? ": " : "", how, c->log_path, tail[0] ? tail : "(nothing)");
}

/* "Ready" by its selections is not yet "managing": some WMs own WM_S0 before they handle
 * MapRequests, and openbox drops the MapRequests that arrive while it starts up.  Map a probe
 * window and wait until the WM has mapped it, asking again every PROBE_RETRY_MS, then destroy it.
 * A replacement must also have set its WM_STATE (ICCCM 4.1.3.1: a WM's mark on a window it
 * manages): between the old WM's release of SubstructureRedirect and the new one's, the map goes
 * through without any WM (seen: openbox 3.6 --replace, ready by its map 100 ms before it adopted
 * the windows it found); and a WM adopts those before it takes its first MapRequest. */
#define PROBE_RETRY_MS 200
#define READY_RECHECK_MS 250
static int probe_manages(struct compositor *c, struct xserver *x, int64_t deadline, char *err, size_t errlen)
{
    xcb_window_t w = xcb_generate_id(x->conn);
    uint32_t values[] = {XCB_EVENT_MASK_STRUCTURE_NOTIFY | XCB_EVENT_MASK_PROPERTY_CHANGE};
    xcb_create_window(x->conn, XCB_COPY_FROM_PARENT, w, x->screen->root, 0, 0, 16, 16, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, x->screen->root_visual, XCB_CW_EVENT_MASK, values);
    xcb_map_window(x->conn, w);
    xcb_flush(x->conn);
    int xfd = xcb_get_file_descriptor(x->conn);
    xcb_atom_t wm_state = xu_atom(x->conn, "WM_STATE");
    bool mapped = false, marked = !c->replacing;
    int64_t next_retry = clock_now_us() + PROBE_RETRY_MS * 1000;
    while (!(mapped && marked)) {
        xcb_generic_event_t *e;
        while ((e = xcb_poll_for_event(x->conn))) {
            uint8_t type = e->response_type & 0x7F;
            if (type == XCB_MAP_NOTIFY && ((xcb_map_notify_event_t *)e)->window == w)
                mapped = true;
            else if (type == XCB_UNMAP_NOTIFY && ((xcb_unmap_notify_event_t *)e)->window == w)
                mapped = false;
            else if (type == XCB_PROPERTY_NOTIFY && ((xcb_property_notify_event_t *)e)->window == w &&
                     ((xcb_property_notify_event_t *)e)->atom == wm_state)
                marked = true;
            free(e);
        }
        proc_handle_signals();
        int64_t left = (deadline - clock_now_us()) / 1000;
        if (mapped && marked)
            break;
        if (c->proc->exited || left <= 0 || proc_interrupted()) {
            xcb_destroy_window(x->conn, w);
            xcb_flush(x->conn);
            describe_failure(c, c->proc->exited ? "exited while managing its first window"
                                : mapped ? "owned WM_S0 but set no WM_STATE on a probe window in time (it did not "
                                           "manage it)"
                                         : "owned WM_S0 but did not map a probe window in time",
                             err, errlen);
            return -1;
        }
        if (clock_now_us() >= next_retry) {
            xcb_unmap_window(x->conn, w);
            xcb_map_window(x->conn, w);
            xcb_flush(x->conn);
            next_retry = clock_now_us() + PROBE_RETRY_MS * 1000;
        }
        int wait = (int)((next_retry - clock_now_us()) / 1000) + 1;
        struct pollfd pfd[2] = {{.fd = xfd, .events = POLLIN}, {.fd = proc_signal_fd(), .events = POLLIN}};
        poll(pfd, 2, wait < left ? wait : (int)left + 1);
    }
    xcb_destroy_window(x->conn, w);
    xcb_aux_sync(x->conn);
    return 0;
}

/* Waits (woken by X events, re-checking every READY_RECHECK_MS) until the compositor holds the
 * roles `want` asks for; -1 when the deadline passed, it exited or the run was interrupted. */
static int wait_for_roles(struct compositor *c, struct xserver *x, xcb_window_t wm_before, xcb_window_t cm_before,
                          enum ready_kind want, int64_t deadline, unsigned *have)
{
    int xfd = xcb_get_file_descriptor(x->conn);
    while (!is_ready(c, *have = taken(c, x, wm_before, cm_before), want)) {
        proc_handle_signals();
        if (c->proc->exited || proc_interrupted())
            return -1;
        int64_t left = (deadline - clock_now_us()) / 1000;
        if (left <= 0)
            return -1;
        /* Events that arrived during taken()'s round trips are in xcb's queue, not in the
         * socket, so poll() would not see them: re-check at once when there were any.  The
         * periodic re-check covers a WM whose readiness sends this connection no event. */
        if (take_role_events(c, x) > 0)
            continue;
        struct pollfd pfd[2] = {{.fd = xfd, .events = POLLIN}, {.fd = proc_signal_fd(), .events = POLLIN}};
        poll(pfd, 2, left + 1 < READY_RECHECK_MS ? (int)left + 1 : READY_RECHECK_MS);
    }
    return 0;
}

/* auto readiness: how long the second role (WM or compositor) may take after the first */
#define AUTO_SECOND_ROLE_MS 1000

/* how long the last compositor's selection windows may take to go away */
#define OLD_OWNER_GONE_MS 2000

/* Watches the selections and the root for the events that make a compositor ready (before it
 * is launched, so none is missed); *wm_before / *cm_before: the owners now. */
static void watch_roles(struct xserver *x, xcb_window_t *wm_before, xcb_window_t *cm_before)
{
    xcb_window_t root = x->screen->root;
    uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
    xcb_change_window_attributes(x->conn, root, XCB_CW_EVENT_MASK, &mask);
    xu_watch_selection(x->conn, root, "WM_S0");
    xu_watch_selection(x->conn, root, "_NET_WM_CM_S0");
    *wm_before = xu_selection_owner(x->conn, "WM_S0");
    *cm_before = xu_selection_owner(x->conn, "_NET_WM_CM_S0");
}

/* The last compositor may have exited before the server processed its connection's close: then
 * its windows still own the selections, and the next compositor, given the same client ID range,
 * makes windows with the same XIDs, so its ownership could not be told from the old one (it was
 * never "ready").  Waits until the old owners are gone: woken by the XFixes selection events
 * watch_roles asked for, at most OLD_OWNER_GONE_MS. */
static void await_old_owners(struct xserver *x, xcb_window_t *wm_before, xcb_window_t *cm_before)
{
    int64_t gone_by = clock_now_us() + (int64_t)OLD_OWNER_GONE_MS * 1000;
    while ((*wm_before || *cm_before) && clock_now_us() < gone_by) {
        struct pollfd pfd = {.fd = xcb_get_file_descriptor(x->conn), .events = POLLIN};
        if (xu_drain_events(x->conn) == 0)
            poll(&pfd, 1, 20);
        *wm_before = xu_selection_owner(x->conn, "WM_S0");
        *cm_before = xu_selection_owner(x->conn, "_NET_WM_CM_S0");
    }
}

/* This start's environment: its private home and session bus (none when the command brings its
 * own, dbus-run-session), whatever the command is, and the conf's env: on top. */
static int private_env(struct compositor *c, const char **env, char *err, size_t errlen)
{
    int n = 0;
    if (c->private_dir[0]) {
        if (isolation_open(&c->iso, c->private_dir, !command_has_own_bus(c->command), 10000, err, errlen) < 0)
            return -1;
        for (int i = 0; c->iso.env[i]; i++)
            env[n++] = c->iso.env[i];
    }
    for (int i = 0; c->env && c->env[i] && i < CP_MAX_ENV; i++)
        env[n++] = c->env[i];
    env[n] = NULL;
    return 0;
}

static int spawn(struct compositor *c, const char *command, enum ready_kind ready, const char *log_path, char *err,
                 size_t errlen)
{
    snprintf(c->command, sizeof c->command, "%s", command);
    snprintf(c->log_path, sizeof c->log_path, "%s", log_path);
    c->ready = ready;
    c->log_fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    const char *env[ISOLATION_NENV + CP_MAX_ENV + 1];
    if (private_env(c, env, err, errlen) < 0)
        return -1;
    const char *argv[] = {"/bin/sh", "-c", c->command, NULL};
    struct spawn_opts o = {.argv = argv, .env = env, .stdin_fd = -1, .stdout_fd = c->log_fd,
                           .stderr_fd = c->log_fd, .keep_fd = -1, .cwd = c->cwd[0] ? c->cwd : NULL};
    c->start_us = clock_now_us();
    c->proc = proc_spawn("compositor", &o);
    if (!c->proc) {
        snprintf(err, errlen, "cannot run /bin/sh for the compositor: %s", strerror(errno));
        return -1;
    }
    grabwatch_target(c->proc->pid); /* a server grab, even while it starts, is bounded */
    c->starts++;
    return 0;
}

/* Waits until it holds the roles `ready` asks for and, as a WM, manages a window.  A replacement's
 * old instance (old) is given old_exit_ms to go first: until it has released SubstructureRedirect
 * the probe window's MapRequest may be its (openbox 3.6 --replace: the probe window was mapped with
 * a WM_STATE while the old openbox still ran, 100 ms before the new one adopted the windows it
 * found; waiting for the old one's exit first, not once in 15 runs of the case since). */
static int await_ready(struct compositor *c, struct xserver *x, xcb_window_t wm_before, xcb_window_t cm_before,
                       int64_t deadline, int deadline_ms, struct proc *old, int old_exit_ms, char *err, size_t errlen)
{
    enum ready_kind ready = c->ready;
    unsigned have = 0;
    if (wait_for_roles(c, x, wm_before, cm_before, ready, deadline, &have) < 0) {
        char what[160];
        if (proc_interrupted())
            snprintf(err, errlen, "interrupted while waiting for the compositor");
        else if (c->proc->exited)
            describe_failure(c, "exited before it was ready", err, errlen);
        else {
            snprintf(what, sizeof what, "was not ready after %d ms (%s)", deadline_ms,
                     ready == READY_CM ? "no _NET_WM_CM_S0 owner"
                     : ready == READY_WM ? "no WM_S0 owner with a valid _NET_SUPPORTING_WM_CHECK"
                     : ready == READY_AUTO ? "neither a WM_S0 owner with a valid _NET_SUPPORTING_WM_CHECK nor a "
                                             "_NET_WM_CM_S0 owner"
                     : "WM_S0 owner, _NET_SUPPORTING_WM_CHECK and _NET_WM_CM_S0 owner wanted");
            describe_failure(c, what, err, errlen);
        }
        return -1;
    }
    /* auto: a compositing WM takes the two selections one after the other (KWin: the compositor
     * hundreds of ms after the WM), so give the other role AUTO_SECOND_ROLE_MS to follow */
    if (ready == READY_AUTO && have != READY_BOTH) {
        int64_t second = clock_now_us() + (int64_t)AUTO_SECOND_ROLE_MS * 1000;
        wait_for_roles(c, x, wm_before, cm_before, READY_BOTH, second < deadline ? second : deadline, &have);
        if (c->proc->exited) {
            describe_failure(c, "exited while it started", err, errlen);
            return -1;
        }
    }
    c->ready = ready == READY_AUTO ? (enum ready_kind)have : ready;
    if (old && !old->exited) /* ICCCM 2.8: it releases what it managed, then destroys its selection windows */
        proc_await_exit(old, old_exit_ms);
    if ((c->ready & READY_WM) && probe_manages(c, x, deadline, err, errlen) < 0)
        return -1;
    c->ready_us = clock_now_us();
    /* a WM that composites too takes _NET_WM_CM_S0 after WM_S0 (fake-wm does, with --ready wm):
     * by the time it managed the probe window it has, so ask again for the report */
    c->cm_owner = xu_selection_owner(x->conn, "_NET_WM_CM_S0");
    read_claims(c, x);
    return 0;
}

int compositor_start(struct compositor *c, struct xserver *x, const char *command,
                     enum ready_kind ready, const char *log_path, int deadline_ms,
                     char *err, size_t errlen)
{
    xcb_window_t wm_before, cm_before;
    watch_roles(x, &wm_before, &cm_before);
    await_old_owners(x, &wm_before, &cm_before);
    if (spawn(c, command, ready, log_path, err, errlen) < 0)
        return -1;
    return await_ready(c, x, wm_before, cm_before, c->start_us + (int64_t)deadline_ms * 1000, deadline_ms, NULL, 0,
                       err, errlen);
}

xcb_window_t compositor_check_window_now(struct xserver *x)
{
    return valid_check_window(x->conn, x->screen->root);
}

int compositor_replace(struct compositor *c, const struct compositor *old, struct xserver *x, const char *command,
                       const char *log_path, int deadline_ms, int old_exit_ms, char *err, size_t errlen)
{
    xcb_window_t wm_before, cm_before;
    watch_roles(x, &wm_before, &cm_before); /* old's, until the new one takes them */
    xh_round_trip(x->conn);
    take_role_events(c, x); /* what happened before its launch is not its doing */
    c->wm_set = c->cm_set = false;
    c->check_before = old->check_window;    /* it may stay valid until old has gone */
    c->replacing = true;
    if (spawn(c, command, old->ready, log_path, err, errlen) < 0)
        return -1;
    return await_ready(c, x, wm_before, cm_before, c->start_us + (int64_t)deadline_ms * 1000, deadline_ms, old->proc,
                       old_exit_ms, err, errlen);
}

/* One `NAME=VALUE` line of the session's report into the compositor's fields. */
static void report_line(struct compositor *c, const char *line)
{
    if (!strncmp(line, "DISPLAY=", 8))
        snprintf(c->own_display, sizeof c->own_display, "%s", line + 8);
    else if (!strncmp(line, "XAUTHORITY=", 11))
        snprintf(c->own_auth, sizeof c->own_auth, "%s", line + 11);
    else if (!strncmp(line, "PID=", 4))
        c->report_pid = (pid_t)atoi(line + 4);
    else {
        static const char *const session_vars[] = {"WAYLAND_DISPLAY=", "XDG_RUNTIME_DIR=", "DBUS_SESSION_BUS_ADDRESS="};
        int n = 0;
        while (n < 3 && c->own_env[n])
            n++;
        for (int i = 0; i < 3; i++)
            if (!strncmp(line, session_vars[i], strlen(session_vars[i])) && line[strlen(session_vars[i])] && n < 3)
                c->own_env[n++] = strdup(line);
    }
}

/* Reads the report the session's `{report}` command writes into the fifo (opened for reading
 * before the launch, so the writer never blocks): DISPLAY, XAUTHORITY, its PID, then EOF. */
static int read_report(struct compositor *c, int fifo, int64_t deadline, char *err, size_t errlen)
{
    char buf[2048];
    size_t got = 0;
    for (;;) {
        int64_t left = (deadline - clock_now_us()) / 1000;
        if (c->proc->exited || left <= 0 || proc_interrupted()) {
            describe_failure(c, c->proc->exited ? "exited before its session reported its X server"
                                                : "started no session that reported its X server ({report})",
                             err, errlen);
            return -1;
        }
        struct pollfd pfd[2] = {{.fd = fifo, .events = POLLIN}, {.fd = proc_signal_fd(), .events = POLLIN}};
        poll(pfd, 2, (int)left + 1);
        if (pfd[1].revents)
            proc_handle_signals();
        ssize_t r = pfd[0].revents ? read(fifo, buf + got, sizeof buf - 1 - got) : -1;
        if (r > 0)
            got += (size_t)r;
        if (r == 0 || got == sizeof buf - 1) /* the writer closed: the report is whole */
            break;
    }
    buf[got] = 0;
    for (char *save = NULL, *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        report_line(c, line);
    if (!c->own_display[0]) {
        describe_failure(c, "reported no DISPLAY from its session", err, errlen);
        return -1;
    }
    return 0;
}

/* {tmpdir} is this start's private folder, {root} the framesync folder, {report} the command that
 * tells the harness which X server the session brings (`xserver: own`). */
void compositor_start_command(const char *cmd, const char *root, const char *start_dir, char *out, size_t len)
{
    char a[4096], b[4096], report[PATH_MAX + 32];
    snprintf(report, sizeof report, "%s/report-display", start_dir);
    conf_substitute(cmd, "{tmpdir}", start_dir, a, sizeof a);
    conf_substitute(a, "{root}", root, b, sizeof b);
    conf_substitute(b, "{report}", report, out, len);
}

/* The report command is a script in the start's folder: it writes DISPLAY, XAUTHORITY and its PID,
 * then keeps the session open, as the sessions of kwin_wayland --exit-with-session and mutter --
 * CMD need. */
int compositor_prepare_report(const char *start_dir, char *fifo, size_t len, char *err, size_t errlen)
{
    char script[PATH_MAX + 32];
    snprintf(fifo, len, "%s/report.fifo", start_dir);
    snprintf(script, sizeof script, "%s/report-display", start_dir);
    FILE *f = mkfifo(fifo, 0600) == 0 ? fopen(script, "we") : NULL;
    if (!f) {
        snprintf(err, errlen, "cannot make the report fifo or script in %s: %s", start_dir, strerror(errno));
        return -1;
    }
    fprintf(f, "#!/bin/sh\n"
               "# framesync: tells the harness which X server this session brings, then keeps the session open\n"
               "printf 'DISPLAY=%%s\\nXAUTHORITY=%%s\\nPID=%%s\\nWAYLAND_DISPLAY=%%s\\nXDG_RUNTIME_DIR=%%s\\n"
               "DBUS_SESSION_BUS_ADDRESS=%%s\\n' \"$DISPLAY\" \"${XAUTHORITY:-}\" \"$$\" \"${WAYLAND_DISPLAY:-}\" "
               "\"${XDG_RUNTIME_DIR:-}\" \"${DBUS_SESSION_BUS_ADDRESS:-}\" > '%s'\n"
               "exec sleep 2147483647\n", fifo);
    fclose(f);
    return chmod(script, 0700);
}

void compositor_helper_env(const struct compositor *c, const struct compositor_profile *p, const char *root,
                           const char *start_dir, char **out, int max)
{
    int n = 0;
    for (int i = 0; c->iso.env[i] && n < max; i++) /* the compositor's private home and bus */
        out[n++] = strdup(c->iso.env[i]);
    char **env = compositor_profile_env(p, root, start_dir);
    for (int i = 0; env && env[i] && n < max; i++)
        out[n++] = strdup(env[i]);
    for (int i = 0; i < 4 && c->own_env[i] && n < max; i++)
        out[n++] = strdup(c->own_env[i]);
    out[n] = NULL;
}

void compositor_free_env(char **env)
{
    for (int i = 0; env[i]; i++) {
        free(env[i]);
        env[i] = NULL;
    }
}

int compositor_start_own(struct compositor *c, struct xserver *x, const char *command, enum ready_kind ready,
                         const char *log_path, int deadline_ms, const char *report_fifo, char *err, size_t errlen)
{
    int fifo = open(report_fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fifo < 0) {
        snprintf(err, errlen, "cannot open %s: %s", report_fifo, strerror(errno));
        return -1;
    }
    int rc = spawn(c, command, ready, log_path, err, errlen);
    int64_t deadline = c->start_us + (int64_t)deadline_ms * 1000;
    if (rc == 0)
        rc = read_report(c, fifo, deadline, err, errlen);
    close(fifo);
    if (rc < 0)
        return -1;
    int left_ms = (int)((deadline - clock_now_us()) / 1000);
    if (xserver_attach(x, c->own_display, c->own_auth, left_ms > 0 ? left_ms : 1, err, errlen) < 0)
        return -1;
    xcb_window_t wm_before, cm_before;
    watch_roles(x, &wm_before, &cm_before);
    /* a fresh server: whoever owns a selection now is this compositor */
    return await_ready(c, x, XCB_NONE, XCB_NONE, deadline, deadline_ms, NULL, 0, err, errlen);
}

bool compositor_alive(struct compositor *c)
{
    proc_handle_signals();
    return c->proc && !c->proc->exited;
}

off_t compositor_log_offset(const struct compositor *c)
{
    return c->log_fd >= 0 ? lseek(c->log_fd, 0, SEEK_END) : 0;
}

void compositor_stop(struct compositor *c)
{
    if (c->proc) {
        grabwatch_target(0);
        proc_stop(c->proc, 2000);
        c->proc = NULL;
    }
    isolation_close(&c->iso); /* after the compositor: what it activated on its bus goes with the bus */
    if (c->log_fd >= 0)
        close(c->log_fd);
    c->log_fd = -1;
    for (int i = 0; i < c->nsupported; i++)
        free(c->supported[i]);
    c->nsupported = 0;
    for (int i = 0; c->own_env[i] && i < 4; i++) {
        free(c->own_env[i]);
        c->own_env[i] = NULL;
    }
}
