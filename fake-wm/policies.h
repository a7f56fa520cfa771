/* The policy table (policies.c): one row per `--policy NAME`, a way a real compositor treats the
 * client windows, for the client side of the suite (`./run-tests.sh --client CMD --policy NAME`).
 * A policy is a compositor behaviour an application must survive, each the one of a named
 * compositor, with the source it models; the code tests POLICY(NAME) where that behaviour lives.
 * One policy a run (they are the compositors' ways, not switches to combine). */
#ifndef FAKEWM_POLICIES_H
#define FAKEWM_POLICIES_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>

enum policy_id {
    P_NONE,                    /* no --policy: fake-wm as it is, and no notes */
    P_REFERENCE,               /* fake-wm as it is, with its notes (the client runs' default) */
    P_SHOW_AFTER_FIRST_ANSWER,
    P_SYNC_AT_MAP,
    P_FRAME_CLOCK_DRAWN,
    P_DRAWN_MISSED_ONCE,
    P_OTHER_SIZE,
    P_SLOW_ANSWER_TIMEOUT,
    P_COUNT
};
struct policy_desc {
    enum policy_id id;
    const char *name;
    const char *what;   /* what fake-wm then does */
    const char *source; /* the compositor and the code it models */
};
extern const struct policy_desc policy_table[P_COUNT];
extern enum policy_id policy;
#define POLICY(x) (policy == P_##x)

/* show-after-first-answer: KWin's timeout for the request it sends at manage (ready_for_painting
 * false); later requests wait opt.sync_timeout_ms as usual */
#define FIRST_ANSWER_TIMEOUT_MS 1000
/* slow-answer-timeout: KWin's timeout once the window is ready for painting */
#define SLOW_ANSWER_TIMEOUT_MS 10000
/* drawn-missed-once: the update whose drawn message never comes is the first one that ends this
 * long after the window was first shown (its start-up frames are past) */
#define DRAWN_MISSED_AFTER_MS 500
/* other-size: what the WM takes off each axis of a size asked by the control channel */
#define OTHER_SIZE_STEP 23

bool policy_select(const char *name);  /* false: no such policy */
void policies_list(void);              /* --list-policies */
void policies_names(char *buf, size_t n);

#endif
