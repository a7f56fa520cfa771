/* app-observer: starts the client under test and reports what it does (app-observer.h, app-observer/README.md).
 *
 *   app-observer [--name NAME]    the command line is $FRAMESYNC_CLIENT_COMMAND (run by /bin/sh)
 *
 * One poll() over stdin (commands), the RECORD data connection and the control connection; the
 * application is this process's child, in its process group (the harness stops the group), and
 * gets SIGKILL if this process dies. */
#include "app-observer.h"
#include "xhelpers.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xcb/damage.h>
#include <xcb/sync.h>

static xcb_connection_t *connect_or_die(const struct observer *ob)
{
    xcb_connection_t *c = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(c)) {
        logw(ob, "cannot connect to the X server %s", getenv("DISPLAY") ? getenv("DISPLAY") : "(no DISPLAY)");
        exit(1);
    }
    return c;
}

static const char *const atom_names[WA_COUNT] = {
    "WM_PROTOCOLS", "_NET_WM_SYNC_REQUEST", "_NET_WM_SYNC_REQUEST_COUNTER", "_NET_WM_SYNC_FENCES",
    "_NET_WM_SYNC_DRAWN", "_NET_WM_FRAME_DRAWN", "_NET_WM_FRAME_TIMINGS", "_FRAMESYNC_WM_CONTROL",
    "_FRAMESYNC_WM_NOTE"};

static void connect_all(struct observer *ob)
{
    ob->rc = connect_or_die(ob);
    ob->data = connect_or_die(ob);
    const xcb_setup_t *setup = xcb_get_setup(ob->rc);
    ob->root = xcb_setup_roots_iterator(setup).data->root;
    ob->id_mask = setup->resource_id_mask;
    const xcb_query_extension_reply_t *sync = xcb_get_extension_data(ob->rc, &xcb_sync_id);
    const xcb_query_extension_reply_t *dmg = xcb_get_extension_data(ob->rc, &xcb_damage_id);
    if (!dmg || !dmg->present) {
        logw(ob, "the X server has no DAMAGE extension");
        exit(1);
    }
    ob->sync_major = sync && sync->present ? sync->major_opcode : 0;
    ob->damage_event = dmg->first_event + XCB_DAMAGE_NOTIFY;
    xh_intern_atoms(ob->rc, atom_names, WA_COUNT, ob->atoms);
    if (recorder_create(ob) < 0)
        exit(1);
    ob->ctl = connect_or_die(ob); /* after the context: a future client, its damage events recorded */
    ob->own_base = xcb_generate_id(ob->ctl) & ~ob->id_mask;
    free(xcb_damage_query_version_reply(ob->ctl, xcb_damage_query_version(ob->ctl, 1, 1), NULL));
    if (recorder_enable(ob) < 0)
        exit(1);
}

static void start_app(struct observer *ob, const char *cmd)
{
    ob->app_pid = fork();
    if (ob->app_pid < 0) {
        logw(ob, "fork: %s", strerror(errno));
        exit(1);
    }
    if (ob->app_pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        int devnull = open("/dev/null", 0);
        dup2(devnull, 0);
        dup2(2, 1); /* its output goes to our log, never into the record stream */
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    logw(ob, "started `%s` (pid %d)", cmd, (int)ob->app_pid);
}

/* SIGTERM, then up to 300 ms for a clean exit (waited for on a pidfd: woken by the exit, not
 * by a clock), then SIGKILL. */
static void stop_app(struct observer *ob)
{
    if (ob->app_pid <= 0)
        return;
    int pidfd = (int)syscall(SYS_pidfd_open, ob->app_pid, 0);
    kill(ob->app_pid, SIGTERM);
    if (pidfd >= 0) {
        struct pollfd p = {.fd = pidfd, .events = POLLIN};
        poll(&p, 1, 300);
        close(pidfd);
    }
    if (waitpid(ob->app_pid, NULL, WNOHANG) == 0) {
        kill(ob->app_pid, SIGKILL);
        waitpid(ob->app_pid, NULL, 0);
    }
    ob->app_pid = 0;
}

/* The application exited: say how, and end (a case waiting for its records then stops at once
 * with "A exited" instead of running into its deadline).  Its process group may still hold
 * children it left behind; the harness stops the group. */
static void reap_app(const struct observer *ob)
{
    int status;
    if (ob->app_pid > 0 && waitpid(ob->app_pid, &status, WNOHANG) == ob->app_pid) {
        out_record("app-exit", "status=%d signal=%d", WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                   WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        out_record("bye", "reason=app-exited");
        exit(0);
    }
}

/* Reads whole lines from stdin; false at EOF. */
static bool take_stdin(struct observer *ob)
{
    static char buf[8192];
    static size_t len;
    ssize_t n = read(0, buf + len, sizeof buf - 1 - len);
    if (n <= 0)
        return n < 0 && errno == EINTR;
    len += (size_t)n;
    char *start = buf, *nl;
    while ((nl = memchr(start, '\n', len - (size_t)(start - buf)))) {
        *nl = 0;
        command_run(ob, start);
        start = nl + 1;
    }
    len -= (size_t)(start - buf);
    memmove(buf, start, len);
    if (len == sizeof buf - 1)
        len = 0;
    return true;
}

int main(int argc, char **argv)
{
    struct observer observer = {.name = "app"};
    struct observer *ob = &observer;
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--name"))
            ob->name = argv[++i];
    const char *cmd = getenv("FRAMESYNC_CLIENT_COMMAND");
    if (!cmd || !*cmd) {
        logw(ob, "FRAMESYNC_CLIENT_COMMAND names no client under test");
        return 2;
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    signal(SIGPIPE, SIG_IGN);
    connect_all(ob);
    commands_reset_compositor(ob);
    start_app(ob, cmd);
    out_record("ready", "pid=%d", (int)ob->app_pid);
    for (;;) {
        struct pollfd pfd[3] = {{.fd = 0, .events = POLLIN},
                                {.fd = xcb_get_file_descriptor(ob->data), .events = POLLIN},
                                {.fd = xcb_get_file_descriptor(ob->ctl), .events = POLLIN}};
        poll(pfd, 3, 100); /* the timeout only bounds how late an exit of the application is seen */
        recorder_take(ob);
        xcb_generic_event_t *ev;
        while ((ev = xcb_poll_for_event(ob->ctl))) /* errors of damage objects on windows already gone */
            free(ev);
        state_tick(ob);
        reap_app(ob);
        if (xcb_connection_has_error(ob->data) || xcb_connection_has_error(ob->ctl)) {
            out_record("bye", "reason=x-connection-lost");
            stop_app(ob);
            return 1;
        }
        if ((pfd[0].revents & (POLLIN | POLLHUP)) && !take_stdin(ob)) {
            out_record("bye", "reason=stdin-closed");
            stop_app(ob);
            return 0;
        }
    }
}
