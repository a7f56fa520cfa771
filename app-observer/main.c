/* app-observer: starts the client under test and reports what it does (app-observer.h, app-observer/README.md).
 *
 *   app-observer [--name NAME]    the command line is $FRAMESYNC_CLIENT_COMMAND (run by /bin/sh)
 *
 * One poll() over stdin (commands), the RECORD data connection and the control connection; the
 * application is this process's child, in its process group (the harness stops the group), and
 * gets SIGKILL if this process dies. */
#include "app-observer.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xcb/damage.h>
#include <xcb/sync.h>

struct watch W;
static const char *name = "app";
static pid_t app_pid;

static long long now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void out_record(const char *kind, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    printf("%s t=%lld%s%s\n", kind, now_us(), buf[0] ? " " : "", buf);
    fflush(stdout);
}

void logw(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "app-observer %s: ", name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static xcb_connection_t *connect_or_die(void)
{
    xcb_connection_t *c = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(c)) {
        logw("cannot connect to the X server %s", getenv("DISPLAY") ? getenv("DISPLAY") : "(no DISPLAY)");
        exit(1);
    }
    return c;
}

static void intern_atoms(void)
{
    static const char *names[WA_COUNT] = {"WM_PROTOCOLS", "_NET_WM_SYNC_REQUEST", "_NET_WM_SYNC_REQUEST_COUNTER",
                                          "_NET_WM_SYNC_FENCES", "_NET_WM_SYNC_DRAWN", "_NET_WM_FRAME_DRAWN",
                                          "_NET_WM_FRAME_TIMINGS", "_FRAMESYNC_WM_CONTROL"};
    xcb_intern_atom_cookie_t ck[WA_COUNT];
    for (int i = 0; i < WA_COUNT; i++)
        ck[i] = xcb_intern_atom(W.rc, 0, (uint16_t)strlen(names[i]), names[i]);
    for (int i = 0; i < WA_COUNT; i++) {
        xcb_intern_atom_reply_t *r = xcb_intern_atom_reply(W.rc, ck[i], NULL);
        W.atoms[i] = r ? r->atom : XCB_NONE;
        free(r);
    }
}

static void connect_all(void)
{
    W.rc = connect_or_die();
    W.data = connect_or_die();
    const xcb_setup_t *setup = xcb_get_setup(W.rc);
    W.root = xcb_setup_roots_iterator(setup).data->root;
    W.id_mask = setup->resource_id_mask;
    const xcb_query_extension_reply_t *sync = xcb_get_extension_data(W.rc, &xcb_sync_id);
    const xcb_query_extension_reply_t *dmg = xcb_get_extension_data(W.rc, &xcb_damage_id);
    if (!dmg || !dmg->present) {
        logw("the X server has no DAMAGE extension");
        exit(1);
    }
    W.sync_major = sync && sync->present ? sync->major_opcode : 0;
    W.damage_event = dmg->first_event + XCB_DAMAGE_NOTIFY;
    intern_atoms();
    if (recorder_create() < 0)
        exit(1);
    W.ctl = connect_or_die(); /* after the context: a future client, its damage events recorded */
    W.own_base = xcb_generate_id(W.ctl) & ~W.id_mask;
    free(xcb_damage_query_version_reply(W.ctl, xcb_damage_query_version(W.ctl, 1, 1), NULL));
    if (recorder_enable() < 0)
        exit(1);
}

static void start_app(const char *cmd)
{
    app_pid = fork();
    if (app_pid < 0) {
        logw("fork: %s", strerror(errno));
        exit(1);
    }
    if (app_pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        int devnull = open("/dev/null", 0);
        dup2(devnull, 0);
        dup2(2, 1); /* its output goes to our log, never into the record stream */
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    logw("started `%s` (pid %d)", cmd, (int)app_pid);
}

/* SIGTERM, then up to 300 ms for a clean exit (waited for on a pidfd: woken by the exit, not
 * by a clock), then SIGKILL. */
static void stop_app(void)
{
    if (app_pid <= 0)
        return;
    int pidfd = (int)syscall(SYS_pidfd_open, app_pid, 0);
    kill(app_pid, SIGTERM);
    if (pidfd >= 0) {
        struct pollfd p = {.fd = pidfd, .events = POLLIN};
        poll(&p, 1, 300);
        close(pidfd);
    }
    if (waitpid(app_pid, NULL, WNOHANG) == 0) {
        kill(app_pid, SIGKILL);
        waitpid(app_pid, NULL, 0);
    }
    app_pid = 0;
}

/* The application exited: say how, and end (a case waiting for its records then stops at once
 * with "A exited" instead of running into its deadline).  Its process group may still hold
 * children it left behind; the harness stops the group. */
static void reap_app(void)
{
    int status;
    if (app_pid > 0 && waitpid(app_pid, &status, WNOHANG) == app_pid) {
        out_record("app-exit", "status=%d signal=%d", WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                   WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        out_record("bye", "reason=app-exited");
        exit(0);
    }
}

/* Reads whole lines from stdin; false at EOF. */
static bool take_stdin(void)
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
        command_run(start);
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
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--name"))
            name = argv[++i];
    const char *cmd = getenv("FRAMESYNC_CLIENT_COMMAND");
    if (!cmd || !*cmd) {
        logw("FRAMESYNC_CLIENT_COMMAND names no client under test");
        return 2;
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    signal(SIGPIPE, SIG_IGN);
    connect_all();
    commands_reset_compositor();
    start_app(cmd);
    out_record("ready", "pid=%d", (int)app_pid);
    for (;;) {
        struct pollfd pfd[3] = {{.fd = 0, .events = POLLIN},
                                {.fd = xcb_get_file_descriptor(W.data), .events = POLLIN},
                                {.fd = xcb_get_file_descriptor(W.ctl), .events = POLLIN}};
        poll(pfd, 3, 100); /* the timeout only bounds how late an exit of the application is seen */
        recorder_take();
        xcb_generic_event_t *ev;
        while ((ev = xcb_poll_for_event(W.ctl))) /* errors of damage objects on windows already gone */
            free(ev);
        reap_app();
        if (xcb_connection_has_error(W.data) || xcb_connection_has_error(W.ctl)) {
            out_record("bye", "reason=x-connection-lost");
            stop_app();
            return 1;
        }
        if ((pfd[0].revents & (POLLIN | POLLHUP)) && !take_stdin()) {
            out_record("bye", "reason=stdin-closed");
            stop_app();
            return 0;
        }
    }
}
