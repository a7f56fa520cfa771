/* The loaded cells: stress-ng keeps every core busy (one CPU worker per online core) while the
 * cell runs.  It is spawned like every other child (its own process group, killed with the run). */
#include "bench.h"
#include "proc.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct proc *load_start(enum load l, char *err, size_t errlen)
{
    if (l == LOAD_IDLE)
        return NULL;
    char cpus[16];
    snprintf(cpus, sizeof cpus, "%ld", sysconf(_SC_NPROCESSORS_ONLN));
    /* the timeout only bounds a worker that outlives us by accident; load_stop ends it */
    const char *argv[] = {"stress-ng", "--cpu", cpus, "--timeout", "600s", "--quiet", NULL};
    struct spawn_opts o = {.argv = argv, .stdin_fd = -1, .stdout_fd = -1, .stderr_fd = -1, .keep_fd = -1};
    struct proc *p = proc_spawn("stress-ng", &o);
    if (!p)
        snprintf(err, errlen, "cannot run stress-ng for a loaded cell: %s (apt-get install stress-ng)",
                 strerror(errno));
    return p;
}

void load_stop(struct proc *p)
{
    if (p)
        proc_stop(p, 1000);
}
