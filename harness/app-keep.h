/* One application under test kept running between cases (`start: shared`, cases/README.md):
 * starting a real application is most of a client case's time (Firefox 2-4 s before its first
 * frame), and most cases need only a window of it, not a new one.
 *
 * - After a case, its application is kept when the case left it in a known condition: the case
 *   passed or was skipped (a probe: also found its feature absent), and the application still runs.
 *   After any other verdict (a failure may have left it mid-update) it is stopped with the case.
 * - A shared case's `client NAME under-test` takes it: the records of its start (what it reported
 *   before the harness first sent it a command: its toplevel, map, first drawing, counters) are put
 *   on the case's timeline again, in their order and with their times, so the case binds the same
 *   window as after a start; the window is brought back to its start size and drawn messages are
 *   sent as usual again.  A case that needs a fresh start (`start: fresh`, the default) stops it.
 * - A state the kept application did not reach (`A state idle|animating`: an application that
 *   animated only after its start) is not asked of it again: such a case starts afresh, and a case
 *   that SKIPped for it in a kept application is run once more on a fresh start (guarded.c).
 * - It ended while kept: the case that takes it sees its `app-exit` (client/crash); the next one
 *   starts afresh.
 * One application at a time, under one compositor: lifecycle.c stops it with the compositor. */
#ifndef FRAMESYNC_APP_KEEP_H
#define FRAMESYNC_APP_KEEP_H

#include "run.h"

#define APP_KEEP_PRELUDE_MAX 400

enum { KEEP_STATE_IDLE = 1, KEEP_STATE_ANIMATING = 2 };

struct app_keep {
    bool held;                /* an application is kept */
    struct client c;          /* its observer: process, pipes, what it wrote that was not read */
    char **prelude;           /* the lines of its start's records */
    int nprelude;
    bool prelude_closed;      /* a command was sent to it (or the cap was reached): its start is over */
    int replay_end;           /* the timeline's length after the replay, in the case that took it */
    int now_w, now_h;         /* its toplevel's size when the last case ended */
    unsigned unreached;       /* KEEP_STATE_*: states it could not be brought to */
    unsigned fresh_for;       /* KEEP_STATE_*: states a kept application missed and a fresh start
                                 reached (it animates only after its start): asked of fresh starts
                                 only, for the rest of the run (outlives the application) */
    char first_case[160];     /* the case that started it */
    int served;               /* cases it served */
};

/* After a case (before its session stops its clients): keeps its application, or not (above). */
void app_keep_after_case(struct app_keep *k, const struct testcase *tc, struct session *s, const struct result *res);
/* `client NAME under-test` of a shared case: 1 when the kept application was taken into s, 0 when
 * none is kept or it cannot serve this case (it was stopped then): the caller starts one. */
int app_keep_take(struct app_keep *k, const struct testcase *tc, struct session *s, const char *name, int ms);
/* The states (KEEP_STATE_*) the case asks of its application (`NAME state idle|animating`). */
unsigned app_keep_states_asked(const struct testcase *tc);
/* The states the application of s was asked for and could not reach (its `state reached=0`). */
unsigned app_keep_states_unreached(const struct session *s);
/* A case that missed the states `missed` in a kept application runs again on a fresh start: those
 * states are asked of fresh starts from now on. */
void app_keep_fresh_for(struct app_keep *k, unsigned missed);
/* Stops the kept application (a fresh start follows, the compositor stops, or the run ends). */
void app_keep_stop(struct app_keep *k);

#endif
