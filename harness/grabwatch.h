/* Server-grab watch.  A compositor that grabs the server (GrabServer) and does not let go makes
 * the X server answer nobody else: the fake clients' round trips, and every blocking call of
 * the harness, would wait for ever.  A thread with its own X connection does a round trip every
 * GRABWATCH_PERIOD_MS; a reply that does not come is a stall.  While the compositor is alive, a
 * stall of kill_after_ms makes the thread stop the compositor (SIGKILL to its process group):
 * the server ends the grab when its client goes, and the harness's blocked calls return.  The
 * run loop asks after each case what it saw, and reports it as the compositor's FAIL.  When the
 * server still answers nobody GRABWATCH_SERVER_GRACE times kill_after_ms after the compositor was
 * stopped, it is not a grab: the server itself is stuck in a request (a SYNC alarm stepping
 * through 2^40 values one delta at a time keeps Xvfb busy for hours), and the thread kills the X
 * server so no blocking call of the harness waits for ever; grabwatch_server_killed() says so and
 * the run ends with Bail out!. */
#ifndef FRAMESYNC_GRABWATCH_H
#define FRAMESYNC_GRABWATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define GRABWATCH_PERIOD_MS 100
#define GRABWATCH_SERVER_GRACE 3

struct grab_report {
    int64_t start_us, end_us;   /* CLOCK_MONOTONIC: the unanswered round trip's send, its reply */
    bool ongoing;               /* no reply yet (end_us = now) */
    bool killed;                /* the watch stopped the compositor to end it */
};

/* Starts the thread (after proc_init, so it inherits the blocked signal mask). */
int grabwatch_start(const char *display, int kill_after_ms, char *err, size_t len);
void grabwatch_stop(void);
/* The compositor's process group (its leader's pid) to stop on a long stall; 0: none.  Clear it
 * before the harness stops or reaps that compositor. */
void grabwatch_target(pid_t pid);
/* The longest stall of at least min_ms since the last call (an ongoing one counts); false if
 * there was none. */
bool grabwatch_take(int min_ms, struct grab_report *out);
/* How long the server has not answered right now, in ms (0: it answers). */
int64_t grabwatch_stall_ms(void);
/* Stops the target now (the run loop decided the stall is a grab) and waits up to wait_ms for
 * the server to answer again; true if it does. */
bool grabwatch_end_stall(int wait_ms);
/* The X server to kill when it stays stuck after the compositor is gone (0: none). */
void grabwatch_server(pid_t pid);
/* How long the server had not answered when the watch killed it; 0: it did not. */
int64_t grabwatch_server_killed_ms(void);

#endif
