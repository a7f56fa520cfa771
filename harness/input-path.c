/* The compositor's own seat, for the input of interactive resizes: see input-path.h. */
#include "input-path.h"
#include "clock.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define READY_LINE_MAX 1024

int input_path_parse_ready(const char *line, struct input_path *ip, char *err, size_t len)
{
    const char *msg = strstr(line, "msg=");
    if (!strncmp(line, "error", 5) && (line[5] == ' ' || !line[5])) {
        snprintf(err, len, "%s", msg ? msg + 4 : line);
        return -1;
    }
    int x, y, w, h, end = 0;
    if (sscanf(line, "ready x=%d y=%d width=%d height=%d%n", &x, &y, &w, &h, &end) != 4 ||
        (line[end] && line[end] != ' ')) {
        snprintf(err, len, "its first line is `%s`, not `ready x=X y=Y width=W height=H`", line);
        return -1;
    }
    if (w <= 0 || h <= 0) {
        snprintf(err, len, "it reports an empty monitor (%dx%d)", w, h);
        return -1;
    }
    ip->x = x, ip->y = y, ip->width = w, ip->height = h;
    return 0;
}

int input_path_check_geometry(const struct input_path *ip, int root_w, int root_h, char *err, size_t len)
{
    if (ip->x == 0 && ip->y == 0 && ip->width == root_w && ip->height == root_h)
        return 0;
    snprintf(err, len, "its monitor is %dx%d at %d,%d on the stage, but the X root is %dx%d: root coordinates "
             "would not be the stage's (one monitor at 0,0 covering the root is what it is written for)",
             ip->width, ip->height, ip->x, ip->y, root_w, root_h);
    return -1;
}

/* Reads the helper's first line (up to its newline) within timeout_ms; 0, or -1 with err. */
static int read_first_line(struct input_path *ip, int timeout_ms, char *line, size_t size, char *err, size_t len)
{
    size_t n = 0;
    int64_t deadline = clock_now_us() + (int64_t)timeout_ms * 1000;
    while (n + 1 < size) {
        int64_t left = (deadline - clock_now_us()) / 1000;
        if (left <= 0 || proc_interrupted()) {
            snprintf(err, len, "no `ready` line within %d ms", timeout_ms);
            return -1;
        }
        struct pollfd p = {.fd = ip->fd, .events = POLLIN};
        if (poll(&p, 1, (int)left + 1) <= 0)
            continue;
        ssize_t got = read(ip->fd, line + n, 1); /* byte by byte: nothing of a later line is taken */
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            char how[128] = "it closed its output";
            proc_await_exit(ip->proc, 500);
            if (ip->proc->exited)
                proc_describe_exit(ip->proc, how, sizeof how);
            snprintf(err, len, "%s before its `ready` line (its messages are in the compositor's log)", how);
            return -1;
        }
        if (line[n] == '\n')
            break;
        n++;
    }
    line[n] = '\0';
    return 0;
}

int input_path_start(struct input_path *ip, const char *command, char *const *env, int log_fd, int root_w, int root_h,
                     int timeout_ms, char *err, size_t len)
{
    memset(ip, 0, sizeof *ip);
    ip->fd = -1;
    snprintf(ip->command, sizeof ip->command, "%s", command);
    if (proc_check_program(command, err, len) < 0)
        return -1;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
        snprintf(err, len, "socketpair: %s", strerror(errno));
        return -1;
    }
    const char *argv[] = {"/bin/sh", "-c", command, NULL};
    struct spawn_opts o = {.argv = argv, .env = (const char *const *)env, .stdin_fd = sv[1], .stdout_fd = sv[1],
                           .stderr_fd = log_fd, .keep_fd = -1};
    ip->proc = proc_spawn("input helper", &o);
    close(sv[1]);
    if (!ip->proc) {
        close(sv[0]);
        snprintf(err, len, "cannot run /bin/sh for it: %s", strerror(errno));
        return -1;
    }
    ip->fd = sv[0];
    char line[READY_LINE_MAX];
    if (read_first_line(ip, timeout_ms, line, sizeof line, err, len) < 0 ||
        input_path_parse_ready(line, ip, err, len) < 0 ||
        input_path_check_geometry(ip, root_w, root_h, err, len) < 0) {
        input_path_stop(ip);
        return -1;
    }
    return 0;
}

void input_path_stop(struct input_path *ip)
{
    if (ip->fd >= 0)
        close(ip->fd); /* the end of its input: it stops its session and exits */
    ip->fd = -1;
    if (ip->proc) {
        proc_await_exit(ip->proc, 500);
        proc_stop(ip->proc, 500);
    }
    ip->proc = NULL;
}
