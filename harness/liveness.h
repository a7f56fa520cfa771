/* Is the compositor under test still doing its job?  A probe or case during which it died, was
 * stopped or stopped answering decides nothing about the protocol: its verdict becomes a FAIL
 * under compositor/crash, and a feature is never decided from it.  Being alive is not enough (a
 * process blocked for ever keeps its connection open), so the check is a barrier it must answer,
 * like i3's sync barrier: a new window is mapped (a WM must handle its MapRequest) and, when the
 * compositor composites, shown on the root in its background colour (a compositor must paint a
 * newly mapped window).  It runs between cases, when no window of a case is left: the case's
 * clients are ended first (guarded.c), since a window of theirs stacked above the barrier's hides
 * it however well the compositor paints.  When the window is not seen, the window stacked above
 * it at its centre, if any, is named. */
#ifndef FRAMESYNC_LIVENESS_H
#define FRAMESYNC_LIVENESS_H

#include <stddef.h>
#include "run.h"

enum liveness {
    LIVE_OK,
    LIVE_EXITED,     /* the process ended (crashed, was killed, exited) */
    LIVE_STOPPED,    /* stopped by a signal: it runs no more */
    LIVE_NO_MAP,     /* the WM left a new window unmapped: it answers no MapRequest */
    LIVE_NO_PAINT,   /* the window was mapped but never shown: it paints no more */
    LIVE_NO_SERVER,  /* the X server it brought (xserver: own) takes no connection: it went with it */
};

/* The barrier, bounded by deadline_ms, against env's compositor on env's X server; why says what
 * was seen when it is not LIVE_OK ("killed by signal 9 (Killed)", "did not map a new window within
 * 3000 ms: it answers no MapRequest").  The window is looked for where env's screen oracle looks
 * (the root, or the compositor's own picture: env->capture); where nothing can see the screen
 * (env->no_screen), only the map is asked for. */
enum liveness liveness_check(const struct run_env *env, int deadline_ms, char *why, size_t len);

#endif
