/* Process lifetime, in one place: every process the harness starts (Xvfb, the compositor under
 * test, fake clients, session buses) is spawned here, in its own process group, marked as its
 * (FRAMESYNC_OWNER=HARNESS-PID/N in its environment, inherited by what it starts), registered
 * with a reaper process that kills the group and everything marked if the harness itself dies
 * (even by SIGKILL), and reaped here.  The harness is a child subreaper: a daemon that
 * double-forks out of a process's tree comes back to it, and is stopped with that process.
 * Signals (SIGCHLD, SIGINT, SIGTERM) arrive through one signalfd that every wait loop polls. */
#ifndef FRAMESYNC_PROC_H
#define FRAMESYNC_PROC_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct proc {
    pid_t pid;            /* also its process group id */
    char name[64];        /* for messages: "Xvfb", "compositor", "client A" */
    bool exited;
    int status;           /* waitpid status once exited */
    int64_t exit_us;      /* clock_now_us() when reaped */
    char owner[32];       /* its mark, "HARNESS-PID/N": what it and its descendants carry */
};

struct spawn_opts {
    const char *const *argv;   /* argv[0] looked up in PATH */
    const char *const *env;    /* extra NAME=VALUE entries, NULL-terminated, or NULL */
    int stdin_fd;              /* -1: /dev/null */
    int stdout_fd;             /* -1: /dev/null */
    int stderr_fd;             /* -1: /dev/null */
    int keep_fd;               /* one more fd the child keeps (e.g. -displayfd), or -1 */
    const char *cwd;           /* where it runs; NULL: the harness's folder */
};

/* Call once at start: blocks SIGCHLD/SIGINT/SIGTERM/SIGHUP into a signalfd, makes the harness a
 * child subreaper (daemonizing grandchildren come back to it) and forks the reaper, which also
 * removes cleanup_dir (the run's private temp dir) if the harness dies without doing so. */
int proc_init(const char *cleanup_dir);

/* The signalfd to include in every poll(); proc_handle_signals() after it is readable. */
int proc_signal_fd(void);
/* Reads pending signals: reaps children, records interrupts.  Returns true if something exited. */
bool proc_handle_signals(void);
/* Waits up to ms for p to exit (reaping as it goes), so that a process that closed its pipe or
 * its socket can be described by how it ended rather than guessed at. */
void proc_await_exit(struct proc *p, int ms);
/* The signal that interrupted the run (SIGINT, SIGTERM, SIGHUP) or 0. */
int proc_interrupted(void);

/* Spawns; returns NULL with errno set (and a message on stderr) on failure.  The child is in
 * its own process group, has PR_SET_PDEATHSIG(SIGKILL) and an unblocked signal mask. */
struct proc *proc_spawn(const char *name, const struct spawn_opts *o);

/* Sends SIGTERM to the group and to everything below the leader or left by it (orphans that came
 * back to the harness in its group or with its mark, and theirs), waits up to grace_ms for the
 * leader to exit, then SIGKILL to all of it, again until nothing of it is left; always reaps.
 * Frees p. */
void proc_stop(struct proc *p, int grace_ms);
/* Frees a process that has exited and was reaped (p->exited), without looking for what it left
 * behind: for short-lived helpers (a screen capture) that start nothing.  One still running is
 * stopped as proc_stop does. */
void proc_release(struct proc *p);
/* Stops every process still registered, kills every descendant the harness still has and waits
 * for them, then lets the reaper take its last look and waits for it: nothing the harness started
 * outlives it.  For exit paths; nothing may be spawned after it. */
void proc_kill_all(void);

/* Alive but stopped (SIGSTOP/SIGTSTP: state T in /proc): a hung process that will never go on. */
bool proc_is_stopped(const struct proc *p);

/* A helper's shell command whose program is a path (its first word, as the confs' {root}/tools/
 * helpers are) that cannot be run: -1 with err naming the path and why, so a helper that was not
 * built says so instead of "exited before its first line".  0 for anything else (a program looked
 * up in PATH is the shell's to find, and its failure the helper's to report). */
int proc_check_program(const char *command, char *err, size_t len);

/* "exited with status 3", "killed by signal 11 (Segmentation fault)" */
const char *proc_describe_exit(const struct proc *p, char *buf, size_t len);

#endif
