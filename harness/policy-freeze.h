/* A client case under a compositor policy that leaves out one drawn message (fake-wm --policy
 * drawn-missed-once): an application that waits for that message for ever is frozen from then on,
 * and every later step of a case fails on that one cause. */
#ifndef FRAMESYNC_POLICY_FREEZE_H
#define FRAMESYNC_POLICY_FREEZE_H

#include "caseparse.h"
#include "run.h"
#include "session.h"

/* When res is a FAIL of a case that does not measure the freeze itself, under a policy that misses
 * a drawn message, and the application began no update since the message it missed: res becomes
 * a SKIP that says so (client/policy/drawn-missed-stall reports the freeze, once: one root cause,
 * one finding).  True when it did. */
bool policy_freeze_explains(const struct testcase *tc, const struct features *fs, const struct session *s,
                            struct result *res);

#endif
