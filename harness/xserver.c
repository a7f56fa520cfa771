#include "xserver.h"
#include "xutil.h"
#include "clock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

static void put16(FILE *f, unsigned v)
{
    fputc((int)((v >> 8) & 0xFF), f);
    fputc((int)(v & 0xFF), f);
}

int xauth_write_cookie(const char *path)
{
    unsigned char cookie[16];
    if (getrandom(cookie, sizeof cookie, 0) != (ssize_t)sizeof cookie)
        return -1;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "wb");
    static const char proto[] = "MIT-MAGIC-COOKIE-1";
    put16(f, 0xFFFF);            /* FamilyWild */
    put16(f, 0);                 /* address: empty */
    put16(f, 0);                 /* display number: empty = any */
    put16(f, sizeof proto - 1);
    fwrite(proto, 1, sizeof proto - 1, f);
    put16(f, sizeof cookie);
    fwrite(cookie, 1, sizeof cookie, f);
    return fclose(f) == 0 ? 0 : -1;
}

void file_tail(const char *path, int max_lines, char *out, size_t outlen)
{
    out[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    long from = size > 4000 ? size - 4000 : 0;
    fseek(f, from, SEEK_SET);
    char buf[4001];
    size_t n = fread(buf, 1, 4000, f);
    fclose(f);
    buf[n] = 0;
    while (n > 0 && buf[n - 1] == '\n')
        buf[--n] = 0;
    int lines = 0;
    char *p = buf + n;
    while (p > buf && lines < max_lines) {
        p--;
        if (*p == '\n')
            lines++;
    }
    if (*p == '\n')
        p++;
    snprintf(out, outlen, "%s", p);
}

/* Reads the display number Xvfb writes to -displayfd, or fails at the deadline or its exit. */
static int read_display_number(struct xserver *x, int rfd, int64_t deadline, char *err, size_t errlen)
{
    char buf[32];
    size_t got = 0;
    bool eof = false;
    while (!(got && memchr(buf, '\n', got))) {
        int64_t left = (deadline - clock_now_us()) / 1000;
        if (eof)
            proc_await_exit(x->proc, 1000);
        if (eof || left <= 0 || x->proc->exited || proc_interrupted()) {
            char tail[1500], how[128];
            file_tail(x->log_path, 8, tail, sizeof tail);
            if (proc_interrupted())
                snprintf(err, errlen, "interrupted while starting Xvfb");
            else if (x->proc->exited || eof)
                snprintf(err, errlen, "Xvfb %s before it offered a display; its log says:\n%s",
                         proc_describe_exit(x->proc, how, sizeof how), tail);
            else
                snprintf(err, errlen, "Xvfb offered no display within the deadline; its log says:\n%s", tail);
            return -1;
        }
        struct pollfd pfd[2] = {{.fd = rfd, .events = POLLIN}, {.fd = proc_signal_fd(), .events = POLLIN}};
        if (poll(pfd, 2, (int)left + 1) < 0 && errno != EINTR)
            return -1;
        if (pfd[1].revents)
            proc_handle_signals();
        if (pfd[0].revents) {
            ssize_t r = read(rfd, buf + got, sizeof buf - 1 - got);
            if (r > 0)
                got += (size_t)r;
            else if (r == 0)
                eof = true;
        }
    }
    buf[got] = 0;
    return atoi(buf);
}

int xserver_start(struct xserver *x, const char *run_dir, int deadline_ms, char *err, size_t errlen)
{
    memset(x, 0, sizeof *x);
    x->start_us = clock_now_us();
    snprintf(x->auth_path, sizeof x->auth_path, "%s/Xauthority", run_dir);
    snprintf(x->log_path, sizeof x->log_path, "%s/Xvfb.log", run_dir);
    if (xauth_write_cookie(x->auth_path) < 0) {
        snprintf(err, errlen, "cannot write the auth cookie %s: %s", x->auth_path, strerror(errno));
        return -1;
    }
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    int logfd = open(x->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    char fdarg[16];
    snprintf(fdarg, sizeof fdarg, "%d", p[1]);
    const char *argv[] = {"Xvfb", "-displayfd", fdarg, "-nolisten", "tcp", "-auth", x->auth_path,
                          "-noreset", "-screen", "0", "1280x1024x24", "+extension", "Composite",
                          NULL};
    struct spawn_opts o = {.argv = argv, .stdin_fd = -1, .stdout_fd = logfd, .stderr_fd = logfd,
                           .keep_fd = p[1]};
    x->proc = proc_spawn("Xvfb", &o);
    close(p[1]);
    if (logfd >= 0)
        close(logfd);
    if (!x->proc) {
        close(p[0]);
        snprintf(err, errlen, "cannot run Xvfb: %s (is the package xvfb installed?)", strerror(errno));
        return -1;
    }
    int n = read_display_number(x, p[0], x->start_us + (int64_t)deadline_ms * 1000, err, errlen);
    close(p[0]);
    if (n < 0)
        return -1;
    x->display = n;
    snprintf(x->display_name, sizeof x->display_name, ":%d", n);
    setenv("DISPLAY", x->display_name, 1);
    setenv("XAUTHORITY", x->auth_path, 1);
    int screen_no;
    x->conn = xcb_connect(x->display_name, &screen_no);
    if (xcb_connection_has_error(x->conn)) {
        snprintf(err, errlen, "Xvfb offered %s but the harness cannot connect to it", x->display_name);
        return -1;
    }
    x->screen = xcb_setup_roots_iterator(xcb_get_setup(x->conn)).data;
    x->ready_us = clock_now_us();
    return 0;
}

/* How often a connection to a compositor's own X server is tried again while it starts (Xwayland
 * may be spawned on the first connection, or still be setting up its sockets). */
#define ATTACH_RETRY_MS 20

int xserver_attach(struct xserver *x, const char *display, const char *auth, int deadline_ms, char *err,
                   size_t errlen)
{
    memset(x, 0, sizeof *x);
    x->start_us = clock_now_us();
    snprintf(x->display_name, sizeof x->display_name, "%s", display);
    snprintf(x->auth_path, sizeof x->auth_path, "%s", auth ? auth : "");
    x->display = display[0] == ':' ? atoi(display + 1) : -1;
    setenv("DISPLAY", x->display_name, 1);
    if (x->auth_path[0])
        setenv("XAUTHORITY", x->auth_path, 1);
    else
        unsetenv("XAUTHORITY"); /* its server has no cookie (Xwayland without -auth) */
    int64_t deadline = x->start_us + (int64_t)deadline_ms * 1000;
    for (;;) {
        int screen_no;
        x->conn = xcb_connect(x->display_name, &screen_no);
        if (!xcb_connection_has_error(x->conn))
            break;
        xu_disconnect(x->conn);
        x->conn = NULL;
        if (clock_now_us() >= deadline || proc_interrupted()) {
            snprintf(err, errlen, "the compositor's X server %s takes no connection (XAUTHORITY=%s)", display,
                     x->auth_path[0] ? x->auth_path : "none");
            return -1;
        }
        struct pollfd s = {.fd = proc_signal_fd(), .events = POLLIN}; /* woken early by a signal */
        if (poll(&s, 1, ATTACH_RETRY_MS) > 0)
            proc_handle_signals();
    }
    x->screen = xcb_setup_roots_iterator(xcb_get_setup(x->conn)).data;
    x->ready_us = clock_now_us();
    return 0;
}

void xserver_stop(struct xserver *x)
{
    if (x->conn) {
        xu_disconnect(x->conn);
        x->conn = NULL;
    }
    if (x->proc) {
        proc_stop(x->proc, 1000);
        x->proc = NULL;
    }
}

/* Is pid a live process (not gone, not a zombie nobody reaped yet)? */
static bool pid_alive(pid_t pid)
{
    if (pid <= 0 || (kill(pid, 0) < 0 && errno == ESRCH))
        return false;
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return true; /* no /proc to ask: kill said it is there */
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *rp = strrchr(buf, ')');
    return !(rp && rp[1] == ' ' && rp[2] == 'Z');
}

/* The process that holds display N's lock (/tmp/.XN-lock), or 0 when there is none. */
pid_t xserver_lock_pid(int display)
{
    char lock[64], pidtext[32] = "";
    snprintf(lock, sizeof lock, "/tmp/.X%d-lock", display);
    FILE *f = fopen(lock, "re");
    if (!f)
        return 0;
    size_t n = fread(pidtext, 1, sizeof pidtext - 1, f);
    fclose(f);
    pidtext[n] = 0;
    return (pid_t)atoi(pidtext);
}

/* A compositor's own X server that died without cleaning up (mutter, cage on SIGTERM) leaves
 * /tmp/.XN-lock and /tmp/.X11-unix/XN: removed when the lock's process is gone, so no stale
 * display of ours outlives the run. */
void xserver_remove_stale(int display)
{
    char lock[64], sock[64];
    snprintf(lock, sizeof lock, "/tmp/.X%d-lock", display);
    snprintf(sock, sizeof sock, "/tmp/.X11-unix/X%d", display);
    if (access(lock, F_OK) != 0)
        return;
    if (pid_alive(xserver_lock_pid(display)))
        return; /* still served */
    unlink(sock);
    unlink(lock);
}

void xserver_remove_stale_since(const unsigned char *before, int display)
{
    if (display >= 0)
        xserver_remove_stale(display);
    unsigned char now[XSERVER_MAX_LOCKS];
    xserver_locks(now, XSERVER_MAX_LOCKS);
    for (int d = 0; d < XSERVER_MAX_LOCKS; d++)
        if (now[d] && !before[d])
            xserver_remove_stale(d);
}

int xserver_locks(unsigned char *held, int max)
{
    int n = 0;
    memset(held, 0, (size_t)max);
    DIR *d = opendir("/tmp");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        int display;
        char tail[8];
        if (sscanf(e->d_name, ".X%d-loc%7s", &display, tail) == 2 && !strcmp(tail, "k") && display >= 0 &&
            display < max) {
            held[display] = 1;
            n++;
        }
    }
    if (d)
        closedir(d);
    return n;
}
