/* Isolation of what the suite starts from the user's session: a private home (HOME,
 * XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_CACHE_HOME, XDG_STATE_HOME, XDG_RUNTIME_DIR and TMPDIR, with
 * mode 0700) in a folder of the run's private temp dir, and a D-Bus session bus of its own.  A program
 * under test then neither reads nor changes the user's settings (its verdicts cannot depend on
 * them), leaves nothing in the user's home, and what it activates on its bus (the accessibility
 * bus, dconf, ...) ends with that bus.
 *
 * Two levels use it: the run (main.c, bench/session.c: exported into the harness's own
 * environment, so Xvfb, the fake clients, the observer and the application under test inherit
 * it), and each start of the compositor (compositor.c: its own home and bus in the start's
 * {tmpdir}, with the conf's env: on top). */
#ifndef FRAMESYNC_ISOLATION_H
#define FRAMESYNC_ISOLATION_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include "proc.h"

#define ISOLATION_NENV 9

struct isolation {
    char dir[PATH_MAX];                 /* home/ and run/ are made in it */
    char *env[ISOLATION_NENV + 1];      /* NAME=VALUE, NULL-terminated (NULL until opened) */
    struct proc *bus;                   /* the session bus's dbus-daemon, or NULL */
    char no_bus[256];                   /* why there is no bus ("": there is one, or none was wanted) */
};

/* Makes dir/home (with the XDG folders in their usual places under it), dir/run (the runtime
 * dir) and dir/tmp (TMPDIR), all 0700, and, when with_bus, starts `dbus-daemon --session` listening in dir/run, waiting
 * for it to print its address (at most timeout_ms).  DBUS_SESSION_BUS_ADDRESS names that socket
 * also without a bus (with_bus false: the command brings its own, dbus-run-session; or no
 * dbus-daemon installed, said in no_bus): a program then finds no bus instead of the user's, and
 * libdbus does not autolaunch one (it does only when the variable is unset).  0, or -1 with err. */
int isolation_open(struct isolation *iso, const char *dir, bool with_bus, int timeout_ms, char *err,
                   size_t errlen);
/* Sets its variables in this process's environment: everything it starts from now on inherits them. */
void isolation_export(const struct isolation *iso);
/* Ends the bus (and what it started: proc_stop) and frees the variables; the folders go with the
 * run's temp dir.  Harmless on a zeroed or closed isolation. */
void isolation_close(struct isolation *iso);

/* Whether a command line runs in a session bus of its own (`dbus-run-session ...`, after `exec`):
 * the compositor then needs none from the harness. */
bool command_has_own_bus(const char *command);

#endif
