#include "isolation.h"
#include "clock.h"
#include "outdir.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* The folders of a private home, as NAME and the path under dir; the XDG ones where a program
 * that ignores the variables looks too (~/.config, ...), so both ways land in the same place.
 * TMPDIR too: EFL's efreetd left a log per start in /tmp (312 after one client matrix) and
 * Chromium its org.chromium.Chromium.* folders; in the private folder they go with the run. */
static const char *const folders[][2] = {
    {"HOME", "home"},
    {"XDG_CONFIG_HOME", "home/.config"},
    {"XDG_DATA_HOME", "home/.local/share"},
    {"XDG_CACHE_HOME", "home/.cache"},
    {"XDG_STATE_HOME", "home/.local/state"},
    {"XDG_RUNTIME_DIR", "run"},
    {"TMPDIR", "tmp"},
};
#define NFOLDERS (sizeof folders / sizeof folders[0])
#define BUS_ENV NFOLDERS /* the index of DBUS_SESSION_BUS_ADDRESS in env */
#define JAVA_ENV (NFOLDERS + 1)


static char *entry(const char *name, const char *fmt, const char *a, const char *b)
{
    char value[PATH_MAX + 64], line[PATH_MAX + 128];
    snprintf(value, sizeof value, fmt, a, b);
    snprintf(line, sizeof line, "%s=%s", name, value);
    return strdup(line);
}

/* A JVM takes user.home from the password file, not from HOME: a Java client under test wrote
 * ~/.java/fonts into the real home.  JAVA_TOOL_OPTIONS reaches every JVM; options already in the
 * environment stay, after ours (a later -D wins). */
static char *java_entry(const char *dir)
{
    const char *given = getenv("JAVA_TOOL_OPTIONS");
    char home[PATH_MAX + 32];
    snprintf(home, sizeof home, "-Duser.home=%s/home%s", dir, given && *given ? " " : "");
    return entry("JAVA_TOOL_OPTIONS", "%s%s", home, given ? given : "");
}

/* Reads the address dbus-daemon prints (--print-address=FD) once it listens; -1 with err. */
static int read_address(struct isolation *iso, int rfd, int64_t deadline, char *out, size_t len, char *err,
                        size_t errlen)
{
    size_t got = 0;
    bool eof = false;
    out[0] = 0;
    while (!memchr(out, '\n', got)) {
        if (eof)
            proc_await_exit(iso->bus, 1000);
        int64_t left = (deadline - clock_now_us()) / 1000;
        if (eof || left <= 0 || iso->bus->exited || proc_interrupted()) {
            char how[128] = "closed its address pipe";
            if (iso->bus->exited)
                proc_describe_exit(iso->bus, how, sizeof how);
            snprintf(err, errlen, "the session bus (dbus-daemon --session, in %s/run) %s before it printed its address",
                     iso->dir, proc_interrupted() ? "was interrupted" : eof || iso->bus->exited ? how : "timed out");
            return -1;
        }
        struct pollfd pfd[2] = {{.fd = rfd, .events = POLLIN}, {.fd = proc_signal_fd(), .events = POLLIN}};
        if (poll(pfd, 2, (int)left + 1) < 0 && errno != EINTR)
            continue;
        if (pfd[1].revents)
            proc_handle_signals();
        if (pfd[0].revents) {
            ssize_t r = read(rfd, out + got, len - 1 - got);
            if (r > 0)
                got += (size_t)r;
            else if (r == 0 || got == len - 1)
                eof = true;
            out[got] = 0;
        }
    }
    out[strcspn(out, "\n")] = 0;
    return 0;
}

/* Starts dbus-daemon --session on RUN/bus with the private home as its environment (so what it
 * activates gets it too); its printed address replaces the env entry. */
static int start_bus(struct isolation *iso, const char *socket, int timeout_ms, char *err, size_t errlen)
{
    if (strlen(socket) >= sizeof ((struct sockaddr_un *)0)->sun_path) {
        snprintf(err, errlen, "the session bus's socket path %s is longer than a Unix socket path may be: "
                 "set TMPDIR to a shorter folder", socket);
        return -1;
    }
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    char print[32], address[PATH_MAX + 32];
    snprintf(print, sizeof print, "--print-address=%d", p[1]);
    snprintf(address, sizeof address, "--address=unix:path=%s", socket);
    const char *argv[] = {"dbus-daemon", "--session", "--nofork", print, address, NULL};
    struct spawn_opts o = {.argv = argv, .env = (const char *const *)iso->env, .stdin_fd = -1, .stdout_fd = -1,
                           .stderr_fd = -1, .keep_fd = p[1]};
    iso->bus = proc_spawn("session bus", &o);
    int spawn_errno = errno;
    close(p[1]);
    if (!iso->bus) {
        close(p[0]);
        if (spawn_errno == ENOENT) { /* a bus is for the programs under test, not for the suite itself */
            snprintf(iso->no_bus, sizeof iso->no_bus, "dbus-daemon is not installed (package dbus-daemon)");
            return 0;
        }
        snprintf(err, errlen, "cannot start the session bus (dbus-daemon): %s", strerror(spawn_errno));
        return -1;
    }
    char printed[1024];
    int rc = read_address(iso, p[0], clock_now_us() + (int64_t)timeout_ms * 1000, printed, sizeof printed, err,
                          errlen);
    close(p[0]);
    if (rc < 0)
        return -1;
    free(iso->env[BUS_ENV]);
    iso->env[BUS_ENV] = entry("DBUS_SESSION_BUS_ADDRESS", "%s%s", printed, "");
    return 0;
}

int isolation_open(struct isolation *iso, const char *dir, bool with_bus, int timeout_ms, char *err,
                   size_t errlen)
{
    memset(iso, 0, sizeof *iso);
    snprintf(iso->dir, sizeof iso->dir, "%s", dir);
    for (size_t i = 0; i < NFOLDERS; i++) {
        iso->env[i] = entry(folders[i][0], "%s/%s", dir, folders[i][1]);
        const char *path = strchr(iso->env[i], '=') + 1;
        if (mkdir_p(path, 0700) < 0 || chmod(path, 0700) < 0) {
            snprintf(err, errlen, "cannot make the private folder %s: %s", path, strerror(errno));
            isolation_close(iso);
            return -1;
        }
    }
    char socket[PATH_MAX + 16];
    snprintf(socket, sizeof socket, "%s/run/bus", dir);
    iso->env[BUS_ENV] = entry("DBUS_SESSION_BUS_ADDRESS", "unix:path=%s%s", socket, "");
    iso->env[JAVA_ENV] = java_entry(dir);
    if (with_bus && start_bus(iso, socket, timeout_ms, err, errlen) < 0) {
        isolation_close(iso);
        return -1;
    }
    return 0;
}

void isolation_export(const struct isolation *iso)
{
    for (int i = 0; iso->env[i]; i++) {
        char name[64];
        const char *eq = strchr(iso->env[i], '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - iso->env[i]), iso->env[i]);
        setenv(name, eq + 1, 1);
    }
}

void isolation_close(struct isolation *iso)
{
    if (iso->bus)
        proc_stop(iso->bus, 1000);
    iso->bus = NULL;
    for (int i = 0; i <= ISOLATION_NENV; i++) {
        free(iso->env[i]);
        iso->env[i] = NULL;
    }
}

bool command_has_own_bus(const char *command)
{
    char copy[2048], *save = NULL;
    snprintf(copy, sizeof copy, "%s", command);
    for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
        if (strcmp(w, "exec") && strcmp(w, "env") && !strchr(w, '='))
            return !strcmp(w, "dbus-run-session");
    return false;
}
