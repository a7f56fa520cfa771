/* The compositor's own seat, for the input of interactive resizes (`input:` in compositors/NAME.conf).
 *
 * The scripted client drives a keyboard or pointer resize with XTEST, which is input into the X
 * server.  A Wayland compositor's X window manager reads the compositor's seat, which XTEST (into
 * Xwayland) does not reach; its conf may name a helper that puts input into that seat
 * (tools/mutter-input for mutter).  The harness starts it once per start of the compositor
 * (/bin/sh -c, with the compositor's session variables like a screen capture), on one end of a
 * socket pair: the helper reads one event a line on its standard input and answers each on its
 * standard output (`done` / `error`), after a first line `ready x=X y=Y width=W height=H` that says
 * where the seat's monitor is on the compositor's stage.  Every fake client of a case gets the
 * other end (FRAMESYNC_INPUT_FD, fake-clients/scripted-client/PROTOCOL.md); only one drives input
 * at a time (a `resize` is one command, waited for).  With a barrier (`input-barrier:`,
 * common/input-barrier.h) they also get its kind (FRAMESYNC_INPUT_BARRIER), and before each event
 * make a round trip through the WM that it answers only after the X events they caused before.  The helper is stopped, and reaped, with the
 * compositor.
 *
 * Root coordinates go to the helper unchanged, so the monitor must be the whole X root at 0,0: a
 * rootless Xwayland's root is the union of the compositor's outputs, in the stage's coordinates
 * (one virtual monitor here).  input_path_start checks it against the root's size. */
#ifndef FRAMESYNC_INPUT_PATH_H
#define FRAMESYNC_INPUT_PATH_H

#include <stddef.h>
#include "proc.h"

struct input_path {
    char command[2048];     /* as run ({tmpdir} and {root} replaced) */
    struct proc *proc;
    int fd;                 /* the harness's end (close-on-exec; the clients get it), or -1 */
    int x, y, width, height;  /* its monitor on the stage (its `ready` line) */
    int barrier;            /* what orders each of its events after the client's earlier X events: a
                               kind of common/input-barrier.h, handed to the clients with fd */
};

/* Parses the helper's first line; 0, or -1 with err (its own `error msg=...`, or what was wrong). */
int input_path_parse_ready(const char *line, struct input_path *ip, char *err, size_t len);
/* The monitor covers the X root exactly (root coordinates are the stage's); 0, or -1 with err. */
int input_path_check_geometry(const struct input_path *ip, int root_w, int root_h, char *err, size_t len);

/* Starts the helper and waits (up to timeout_ms) for its `ready` line, then checks its geometry
 * against the root.  0, or -1 with err (and nothing left running). */
int input_path_start(struct input_path *ip, const char *command, char *const *env, int log_fd, int root_w, int root_h,
                     int timeout_ms, char *err, size_t len);
/* Closes the harness's end and stops the helper (it ends its session on the end of its input). */
void input_path_stop(struct input_path *ip);

#endif
