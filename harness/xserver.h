/* The X server a run (a worker) uses: its own Xvfb, found by -displayfd (no guessed display
 * numbers), without TCP, with a fresh MIT-MAGIC-COOKIE in a private auth file that every child
 * gets through XAUTHORITY. */
#ifndef FRAMESYNC_XSERVER_H
#define FRAMESYNC_XSERVER_H

#include <xcb/xcb.h>
#include "proc.h"

struct xserver {
    struct proc *proc;        /* our Xvfb, or NULL for a compositor's own X server (attached) */
    int display;              /* N of ":N" */
    char display_name[32];    /* ":N" */
    char auth_path[512];
    char log_path[512];
    xcb_connection_t *conn;   /* the harness's own connection */
    xcb_screen_t *screen;
    int64_t start_us, ready_us;
};

/* Starts Xvfb with its files in run_dir; on failure writes a reason into err, returns -1. */
int xserver_start(struct xserver *x, const char *run_dir, int deadline_ms, char *err, size_t errlen);
/* The X server a compositor brings (`xserver: own`, Xwayland): connects to display with the cookie
 * file auth ("" or NULL: none), trying again until deadline_ms while it starts.  There is no
 * process of ours; xserver_stop only disconnects. */
int xserver_attach(struct xserver *x, const char *display, const char *auth, int deadline_ms, char *err,
                   size_t errlen);
/* Removes display's X lock and socket when the process that held the lock is gone (or is a
 * zombie). */
void xserver_remove_stale(int display);
/* Which displays below max have an X lock in /tmp now: held[N] = 1 for /tmp/.XN-lock.  Returns
 * how many. */
int xserver_locks(unsigned char *held, int max);
pid_t xserver_lock_pid(int display);
#define XSERVER_MAX_LOCKS 1024
/* After a compositor that brought its own X server stopped: display's lock (-1: none), and every X
 * lock that appeared since `before` (xserver_locks at its start) whose process is gone, removed with
 * their sockets.  A compositor may hold more than the display it reported (mutter keeps a second
 * one "for managed services"). */
void xserver_remove_stale_since(const unsigned char *before, int display);
/* Disconnects, and stops Xvfb when it is ours. */
void xserver_stop(struct xserver *x);

/* Writes an Xauthority file with one FamilyWild MIT-MAGIC-COOKIE-1 entry and a random cookie.
 * FamilyWild with an empty display number matches whatever display -displayfd picks. */
int xauth_write_cookie(const char *path);

/* Last lines of a log file, for error messages ("Xvfb said: ..."). */
void file_tail(const char *path, int max_lines, char *out, size_t outlen);

#endif
