#include "proc.h"
#include "clock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_PROCS 64

static struct proc *procs[MAX_PROCS];
static int signal_fd = -1;
static int reaper_fd = -1;     /* write end: pgids for the reaper, one per write */
static pid_t reaper_pid;
static int interrupted_by;
static sigset_t handled_signals;

/* Every process the harness spawns carries OWNER_VAR=HARNESS-PID/SERIAL in its environment, and
 * passes it on to what it starts: a daemon that left its process group (setsid) and its parent
 * (a double fork) is still known as ours, and as whose.  Programs that clear their environment
 * are still caught as children of the harness (a subreaper) while it lives. */
#define OWNER_VAR "FRAMESYNC_OWNER"

/* The OWNER_VAR value of a live pid ("" when it has none or cannot be read). */
static void owner_of(pid_t pid, char *out, size_t len)
{
    char path[64];
    out[0] = 0;
    snprintf(path, sizeof path, "/proc/%d/environ", pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return;
    char *var = NULL;
    size_t n = 0;
    while (getdelim(&var, &n, '\0', f) > 0)
        if (!strncmp(var, OWNER_VAR "=", sizeof OWNER_VAR)) {
            snprintf(out, len, "%s", var + sizeof OWNER_VAR);
            break;
        }
    free(var);
    fclose(f);
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    return type == FTW_DP ? rmdir(path) : unlink(path);
}

/* Kills every process marked as the harness's (OWNER_VAR "HARNESS/..."), again while killing
 * one lets another out (a daemon forking as it dies), for at most 2 s.  The harness is gone:
 * what it started went to init or an outer subreaper, where only the mark finds them. */
static void kill_marked(pid_t harness)
{
    char prefix[32];
    snprintf(prefix, sizeof prefix, "%d/", harness);
    int64_t deadline = clock_now_us() + 2000000;
    for (bool found = true; found && clock_now_us() < deadline;) {
        found = false;
        DIR *d = opendir("/proc");
        struct dirent *e;
        while (d && (e = readdir(d))) {
            pid_t pid = (pid_t)atoi(e->d_name);
            char owner[64];
            if (pid <= 0 || pid == getpid())
                continue;
            owner_of(pid, owner, sizeof owner);
            if (!strncmp(owner, prefix, strlen(prefix)) && kill(pid, SIGKILL) == 0)
                found = true;
        }
        if (d)
            closedir(d);
        if (found) /* killed ones are zombies of someone else for a moment: look again after it */
            poll(NULL, 0, 20);
    }
}

/* The reaper: a forked copy of the harness that only reads pgids from a pipe.  When the pipe
 * closes (the harness exited or was killed, even by SIGKILL), it kills every group it was told
 * of, then every process that carries the harness's mark.  Groups already gone are harmless:
 * kill() fails with ESRCH. */
static void reaper_main(int rfd, const char *cleanup_dir, pid_t harness)
{
    pid_t groups[1024];
    size_t n = 0;
    pid_t pg;
    ssize_t r;
    while ((r = read(rfd, &pg, sizeof pg)) == sizeof pg || (r < 0 && errno == EINTR)) {
        if (r < 0)
            continue;
        if (pg > 0 && n < sizeof groups / sizeof groups[0])
            groups[n++] = pg;
        else if (pg < 0) /* the harness stopped that group itself */
            for (size_t i = 0; i < n; i++)
                if (groups[i] == -pg)
                    groups[i] = 0;
    }
    for (size_t i = 0; i < n; i++)
        if (groups[i] > 0)
            kill(-groups[i], SIGKILL);
    kill_marked(harness);
    if (cleanup_dir)
        nftw(cleanup_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    _exit(0);
}

int proc_init(const char *cleanup_dir)
{
    sigemptyset(&handled_signals);
    sigaddset(&handled_signals, SIGCHLD);
    sigaddset(&handled_signals, SIGINT);
    sigaddset(&handled_signals, SIGTERM);
    sigaddset(&handled_signals, SIGHUP);
    signal(SIGPIPE, SIG_IGN); /* a dead fake client shows as EPIPE, not as our death */
    if (sigprocmask(SIG_BLOCK, &handled_signals, NULL) < 0)
        return -1;
    signal_fd = signalfd(-1, &handled_signals, SFD_NONBLOCK | SFD_CLOEXEC);
    if (signal_fd < 0)
        return -1;
    prctl(PR_SET_CHILD_SUBREAPER, 1);

    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0)
        return -1;
    pid_t harness = getpid();
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        close(p[1]);
        setpgid(0, 0); /* out of the terminal's group: a Ctrl-C must not kill it first */
        reaper_main(p[0], cleanup_dir, harness);
    }
    close(p[0]);
    reaper_fd = p[1];
    reaper_pid = pid;
    return 0;
}

int proc_signal_fd(void) { return signal_fd; }
int proc_interrupted(void) { return interrupted_by; }

static void reap_children(void)
{
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        for (int i = 0; i < MAX_PROCS; i++) {
            if (procs[i] && procs[i]->pid == pid && !procs[i]->exited) {
                procs[i]->exited = true;
                procs[i]->status = status;
                procs[i]->exit_us = clock_now_us();
            }
        }
    }
}

bool proc_handle_signals(void)
{
    struct signalfd_siginfo si;
    bool child = false;
    while (read(signal_fd, &si, sizeof si) == sizeof si) {
        if (si.ssi_signo == SIGCHLD)
            child = true;
        else if (!interrupted_by)
            interrupted_by = (int)si.ssi_signo;
    }
    if (child)
        reap_children();
    return child;
}

struct proc *proc_spawn(const char *name, const struct spawn_opts *o)
{
    int slot = -1;
    for (int i = 0; i < MAX_PROCS && slot < 0; i++)
        if (!procs[i])
            slot = i;
    if (slot < 0) {
        errno = EMFILE;
        return NULL;
    }
    /* A pipe that the child closes by exec (CLOEXEC) tells us exec succeeded; else it carries
     * errno, so "compositor command not found" is reported here and not as a mysterious exit. */
    int ep[2];
    if (pipe2(ep, O_CLOEXEC) < 0)
        return NULL;
    static unsigned spawned;
    char owner[64];
    snprintf(owner, sizeof owner, "%s=%d/%u", OWNER_VAR, (int)getpid(), ++spawned);
    pid_t pid = fork();
    if (pid < 0) {
        close(ep[0]);
        close(ep[1]);
        return NULL;
    }
    if (pid == 0) {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        sigprocmask(SIG_UNBLOCK, &handled_signals, NULL);
        signal(SIGPIPE, SIG_DFL);
        int devnull = open("/dev/null", O_RDWR);
        int fds[3] = {o->stdin_fd, o->stdout_fd, o->stderr_fd};
        for (int i = 0; i < 3; i++)
            dup2(fds[i] >= 0 ? fds[i] : devnull, i);
        if (o->keep_fd >= 0)
            fcntl(o->keep_fd, F_SETFD, 0);
        for (const char *const *e = o->env; e && *e; e++)
            putenv((char *)*e);
        putenv(owner);
        if (o->cwd && chdir(o->cwd) < 0)
            _exit(127);
        execvp(o->argv[0], (char *const *)o->argv);
        int err = errno;
        if (write(ep[1], &err, sizeof err) < 0)
            _exit(127);
        _exit(127);
    }
    setpgid(pid, pid); /* both sides, so the group exists before either continues */
    close(ep[1]);
    int err = 0;
    ssize_t r;
    do
        r = read(ep[0], &err, sizeof err);
    while (r < 0 && errno == EINTR);
    close(ep[0]);
    if (r == sizeof err) {
        waitpid(pid, NULL, 0);
        fprintf(stderr, "framesync: cannot start %s (%s): %s\n", name, o->argv[0], strerror(err));
        errno = err;
        return NULL;
    }
    struct proc *p = calloc(1, sizeof *p);
    p->pid = pid;
    snprintf(p->owner, sizeof p->owner, "%s", owner + sizeof OWNER_VAR);
    snprintf(p->name, sizeof p->name, "%s", name);
    procs[slot] = p;
    if (reaper_fd >= 0 && write(reaper_fd, &pid, sizeof pid) < 0)
        fprintf(stderr, "framesync: reaper gone: %s\n", strerror(errno));
    return p;
}

static void unregister(struct proc *p)
{
    for (int i = 0; i < MAX_PROCS; i++)
        if (procs[i] == p)
            procs[i] = NULL;
    pid_t neg = -p->pid;
    if (reaper_fd >= 0 && write(reaper_fd, &neg, sizeof neg) < 0)
        fprintf(stderr, "framesync: reaper gone: %s\n", strerror(errno));
}

/* Waits for p to exit for at most ms, reacting to SIGCHLD only (interrupts stay recorded). */
static bool wait_exit(struct proc *p, int ms)
{
    int64_t deadline = clock_now_us() + (int64_t)ms * 1000;
    reap_children();
    while (!p->exited) {
        int64_t left = (deadline - clock_now_us()) / 1000;
        if (left <= 0)
            return false;
        struct pollfd pfd = {.fd = signal_fd, .events = POLLIN};
        poll(&pfd, 1, (int)left + 1);
        proc_handle_signals();
    }
    return true;
}

/* ---- what a process left behind ---- */

/* One row of the process table. */
struct pinfo {
    pid_t pid, ppid, pgid;
    char state;
};

#define MAX_PROCESSES 8192
#define MAX_LEFT 512        /* the most processes one stop kills */

/* State, parent and process group of pid, from /proc/PID/stat; false when it is gone. */
static bool read_stat(pid_t pid, struct pinfo *out)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return false;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *rp = strrchr(buf, ')'); /* the command name may hold anything, even ')' */
    int parent = 0, group = 0;
    if (!rp || sscanf(rp + 1, " %c %d %d", &out->state, &parent, &group) != 3)
        return false;
    out->pid = pid;
    out->ppid = (pid_t)parent;
    out->pgid = (pid_t)group;
    return true;
}

/* The parent of a living pid (0 when it is gone or a zombie). */
static pid_t parent_of(pid_t pid)
{
    struct pinfo pi;
    return read_stat(pid, &pi) && pi.state != 'Z' ? pi.ppid : 0;
}

/* Every living process (zombies left out); the count. */
static int process_table(struct pinfo *out, int max)
{
    int n = 0;
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d)) && n < max) {
        pid_t pid = (pid_t)atoi(e->d_name);
        if (pid > 0 && read_stat(pid, &out[n]) && out[n].state != 'Z')
            n++;
    }
    if (d)
        closedir(d);
    return n;
}

static bool is_registered(pid_t pid)
{
    for (int i = 0; i < MAX_PROCS; i++)
        if (procs[i] && procs[i]->pid == pid)
            return true;
    return false;
}

/* A child of the harness it never spawned: an orphan that came back to it as subreaper. */
static bool is_orphan(const struct pinfo *pi)
{
    return pi->ppid == getpid() && pi->pid != reaper_pid && !is_registered(pi->pid);
}

static struct pinfo table[MAX_PROCESSES]; /* the last process_table(): too big for the stack */

/* What p left behind, or has below it: every living descendant of p's leader, and every orphan of
 * p (a daemon that double-forked out of its tree: in p's process group, or carrying p's mark) with
 * its descendants.  Some leave the leader's process group (`timeout` makes a group of its own,
 * daemons call setsid), so killing the group misses them: a `timeout 10 fake-wm` wrapper kept the
 * old fake-wm holding WM_S0 after its stop; an application's accessibility bus outlived it. */
static int left_by(const struct proc *p, pid_t *out, int max)
{
    int n = process_table(table, MAX_PROCESSES), found = 0;
    for (int i = 0; i < n && found < max; i++) {
        if (!is_orphan(&table[i]))
            continue;
        char owner[64];
        owner_of(table[i].pid, owner, sizeof owner);
        if (table[i].pgid == p->pid || !strcmp(owner, p->owner))
            out[found++] = table[i].pid;
    }
    /* breadth first from the leader (k = -1) and each orphan: each found pid's children join */
    for (int k = -1; k < found; k++)
        for (int i = 0; i < n && found < max; i++)
            if (table[i].ppid == (k < 0 ? p->pid : out[k]))
                out[found++] = table[i].pid;
    return found;
}

/* Waits (woken by SIGCHLD: orphans come back to us as subreaper) until none of pids lives, at
 * most ms. */
static void await_gone(const pid_t *pids, int n, int ms)
{
    int64_t deadline = clock_now_us() + (int64_t)ms * 1000;
    for (;;) {
        bool alive = false;
        for (int i = 0; i < n && !alive; i++)
            alive = parent_of(pids[i]) > 0; /* gone, or a zombie */
        int64_t left = (deadline - clock_now_us()) / 1000;
        if (!alive || left <= 0)
            return;
        struct pollfd pfd = {.fd = signal_fd, .events = POLLIN};
        if (poll(&pfd, 1, left < 20 ? (int)left : 20) > 0)
            proc_handle_signals();
    }
}

static void signal_all(pid_t group, const pid_t *others, int n, int sig)
{
    kill(-group, sig);
    for (int i = 0; i < n; i++)
        kill(others[i], sig);
}

/* The last of what p left: SIGKILL, round after round while killing one lets another out (a
 * daemon that forks as it dies, a double fork under way at the stop), for at most ms. */
static void kill_left(const struct proc *p, int ms)
{
    int64_t deadline = clock_now_us() + (int64_t)ms * 1000;
    pid_t left[MAX_LEFT];
    int n;
    while ((n = left_by(p, left, MAX_LEFT)) > 0 && clock_now_us() < deadline) {
        signal_all(p->pid, left, n, SIGKILL);
        await_gone(left, n, (int)((deadline - clock_now_us()) / 1000));
    }
    reap_children();
}

/* Interrupted, the harness has 2 s to be gone: the first stop asks every process it runs to end at
 * once, so that their grace periods overlap instead of adding up one stop after another (a busy
 * machine gave clients, compositor and helpers 500 ms each, past 2 s). */
static void stop_all_at_once(void)
{
    static bool asked;
    if (asked)
        return;
    asked = true;
    for (int i = 0; i < MAX_PROCS; i++)
        if (procs[i] && !procs[i]->exited) {
            kill(-procs[i]->pid, SIGTERM);
            kill(-procs[i]->pid, SIGCONT);
        }
}

void proc_stop(struct proc *p, int grace_ms)
{
    if (!p)
        return;
    if (interrupted_by) {
        stop_all_at_once();
        if (grace_ms > 500)
            grace_ms = 500; /* interrupted: everything must be gone within 2 s */
    }
    pid_t below[MAX_LEFT];
    int nbelow = left_by(p, below, MAX_LEFT);
    if (!p->exited) {
        signal_all(p->pid, below, nbelow, SIGTERM);
        signal_all(p->pid, below, nbelow, SIGCONT); /* a stopped (hung) process only sees the SIGTERM once continued */
        if (!wait_exit(p, grace_ms)) {
            signal_all(p->pid, below, nbelow, SIGKILL);
            wait_exit(p, 2000);
        }
    }
    /* the leader is gone; what was below it may still be cleaning up after the SIGTERM (a wrapper
     * script's trap stops its own X server): the rest of the grace, then SIGKILL, to everything
     * it left (also what came out of its tree meanwhile) */
    await_gone(below, nbelow, grace_ms);
    kill_left(p, 1000);
    unregister(p);
    free(p);
}

void proc_release(struct proc *p)
{
    if (!p)
        return;
    if (!p->exited) {
        proc_stop(p, 0);
        return;
    }
    unregister(p);
    free(p);
}

/* Every descendant the harness still has (orphans it never spawned, their children, ...), but the
 * reaper: SIGKILL, and wait for them, round after round (a dying daemon's children come back to us
 * as subreaper), for at most ms. */
static void kill_descendants(int ms)
{
    int64_t deadline = clock_now_us() + (int64_t)ms * 1000;
    for (;;) {
        int n = process_table(table, MAX_PROCESSES), found = 0;
        pid_t below[MAX_LEFT];
        for (int i = 0; i < n && found < MAX_LEFT; i++)
            if (table[i].ppid == getpid() && table[i].pid != reaper_pid)
                below[found++] = table[i].pid;
        for (int k = 0; k < found; k++)
            for (int i = 0; i < n && found < MAX_LEFT; i++)
                if (table[i].ppid == below[k])
                    below[found++] = table[i].pid;
        if (!found || clock_now_us() >= deadline)
            break;
        for (int i = 0; i < found; i++)
            kill(below[i], SIGKILL);
        await_gone(below, found, (int)((deadline - clock_now_us()) / 1000));
    }
    while (waitpid(-1, NULL, WNOHANG) > 0)
        ;
}

void proc_kill_all(void)
{
    for (int i = 0; i < MAX_PROCS; i++)
        if (procs[i] && !procs[i]->exited)
            kill(-procs[i]->pid, SIGTERM);
    for (int i = 0; i < MAX_PROCS; i++)
        if (procs[i])
            proc_stop(procs[i], 1000);
    kill_descendants(2000);
    /* the reaper's last look (the harness's mark on a process that escaped it all) is done before
     * the harness exits: nothing it started outlives it */
    if (reaper_fd >= 0) {
        close(reaper_fd);
        reaper_fd = -1;
        if (reaper_pid > 0)
            waitpid(reaper_pid, NULL, 0);
        reaper_pid = 0;
    }
}

const char *proc_describe_exit(const struct proc *p, char *buf, size_t len)
{
    if (!p->exited)
        snprintf(buf, len, "still running");
    else if (WIFEXITED(p->status))
        snprintf(buf, len, "exited with status %d", WEXITSTATUS(p->status));
    else if (WIFSIGNALED(p->status))
        snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(p->status),
                 strsignal(WTERMSIG(p->status)));
    else
        snprintf(buf, len, "ended with wait status 0x%x", p->status);
    return buf;
}

bool proc_is_stopped(const struct proc *p)
{
    struct pinfo pi;
    return p && !p->exited && read_stat(p->pid, &pi) && (pi.state == 'T' || pi.state == 't');
}

void proc_await_exit(struct proc *p, int ms)
{
    int64_t deadline = clock_now_us() + (int64_t)ms * 1000;
    while (!p->exited && clock_now_us() < deadline) {
        struct pollfd s = {.fd = proc_signal_fd(), .events = POLLIN};
        poll(&s, 1, ms);
        proc_handle_signals();
    }
}

int proc_check_program(const char *command, char *err, size_t len)
{
    char path[1024];
    size_t n = strcspn(command, " \t");
    if (command[0] != '/' || n >= sizeof path)
        return 0;
    memcpy(path, command, n);
    path[n] = 0;
    if (access(path, X_OK) == 0)
        return 0;
    snprintf(err, len, "`%s` %s (the helpers of tools/ are built by make where the -dev packages they need, "
             "listed in debian-packages.txt, are installed)", path,
             errno == ENOENT ? "does not exist" : "cannot be run");
    return -1;
}
