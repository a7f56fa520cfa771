/* How the client answers _NET_WM_SYNC_REQUEST (PROTOCOL.md, "Answering a sync request").
 *
 * A request only arms the answer: the client answers after it has handled the ConfigureNotify
 * that follows the request (repaint at the new size, round trip), or after 50 ms without one,
 * because the answer promises "the configure and its repaint are done".  Several requests before
 * one ConfigureNotify are answered once, with the last value.  The policy (`answer` command)
 * decides what is written and when: correct, never, wrong (value+1), late MS (MS after correct).
 * `answer-missed` answers by hand the first request that policy never left unanswered, whenever the
 * script says: the late answer of a request the WM has stopped waiting for, made at a point of the
 * script (after the WM has shown that it went on) rather than of the clock.
 *
 * Deadlines are kept in CLOCK_MONOTONIC µs and served by the one timerfd of the main loop. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "clock.h"
#include "scripted-client.h"

#define NO_CONFIGURE_US 50000 /* how long to wait for the ConfigureNotify after a request */
#define LATE_MS_MAX 600000

static int64_t plus_one(int64_t v)
{
    return (int64_t)((uint64_t)v + 1); /* wraps instead of overflowing at INT64_MAX */
}

static int64_t next_even_at_least(int64_t v)
{
    return (v & 1) ? plus_one(v) : v;
}

void timer_rearm(struct client *cl)
{
    struct itimerspec its;
    memset(&its, 0, sizeof its);
    const struct answer *a = &cl->answer;
    if (a->state != ANSWER_IDLE && a->due_us > 0) {
        /* Absolute time, so a deadline already past fires at once instead of never. */
        its.it_value.tv_sec = a->due_us / 1000000;
        its.it_value.tv_nsec = (a->due_us % 1000000) * 1000;
    }
    if (timerfd_settime(cl->timerfd, TFD_TIMER_ABSTIME, &its, NULL) < 0)
        logmsg(cl, "timerfd_settime: %s", strerror(errno));
}

static void enter(struct client *cl, enum answer_state state, int64_t due_us)
{
    cl->answer.state = state;
    cl->answer.due_us = due_us;
    timer_rearm(cl);
}

/* Basic form: counter 1 := V.  Extended form: counter 1 := V, counter 2 := the next even number
 * >= V (draft-2011).  wrong writes V+1 (odd, not the requested one) to both.  cmd: checked, the
 * X errors are that command's. */
static void write_answer(struct client *cl, struct cmd *cmd, int64_t value, bool wrong)
{
    int64_t v1 = wrong ? plus_one(value) : value;
    int64_t v2 = wrong ? plus_one(value) : next_even_at_least(value);
    counter_set(cl, cmd, 1, v1, "answer");
    if (cl->ncounters == 2)
        counter_set(cl, cmd, 2, v2, "answer");
}

static void answer_now(struct client *cl)
{
    struct answer *a = &cl->answer;
    enter(cl, ANSWER_IDLE, 0);
    if (a->policy == ANSWER_NEVER) {
        logmsg(cl, "policy never: request %lld not answered", (long long)a->value);
        return;
    }
    if (cl->ncounters == 0) {
        logmsg(cl, "request %lld: no counters to answer with", (long long)a->value);
        return;
    }
    write_answer(cl, NULL, a->value, a->policy == ANSWER_WRONG);
    xcb_flush(cl->c);
}

/* The configure has been handled (or given up on): answer now, or MS later. */
static void configure_handled(struct client *cl)
{
    if (cl->answer.policy == ANSWER_LATE) {
        enter(cl, ANSWER_WAIT_LATE, clock_now_us() + cl->answer.late_ms * 1000);
        return;
    }
    answer_now(cl);
}

void answer_on_request(struct client *cl, int64_t value)
{
    cl->answer.value = value;
    if (cl->answer.policy == ANSWER_NEVER) {
        logmsg(cl, "policy never: ignoring request %lld", (long long)value);
        if (!cl->answer.have_missed) {
            cl->answer.missed = value;
            cl->answer.have_missed = true;
        }
        return;
    }
    /* A newer request restarts the wait, also while a late answer is pending: one answer, with
     * the last value, after the configure that follows the last request. */
    enter(cl, ANSWER_WAIT_CONFIGURE, clock_now_us() + NO_CONFIGURE_US);
}

void answer_on_configure(struct client *cl)
{
    repaint_current(cl);
    xh_round_trip(cl->c); /* the new-size frame is on the server before the counter says so */
    configure_handled(cl);
}

void answer_on_timer(struct client *cl)
{
    uint64_t expirations;
    if (read(cl->timerfd, &expirations, sizeof expirations) < 0 && errno != EAGAIN)
        logmsg(cl, "timerfd read: %s", strerror(errno));
    struct answer *a = &cl->answer;
    if (a->state == ANSWER_IDLE || clock_now_us() < a->due_us) {
        timer_rearm(cl);
        return;
    }
    if (a->state == ANSWER_WAIT_CONFIGURE) {
        logmsg(cl, "no ConfigureNotify within 50 ms of request %lld", (long long)a->value);
        configure_handled(cl);
    } else {
        answer_now(cl);
    }
}

bool answer_set_policy(struct client *cl, const char *policy, const char *arg, char *msg,
                       size_t len)
{
    struct answer *a = &cl->answer;
    if (!policy) {
        snprintf(msg, len, "usage: answer correct|never|wrong|late MS");
        return false;
    }
    bool late = strcmp(policy, "late") == 0;
    if (!late && arg) {
        snprintf(msg, len, "policy %s takes no argument", policy);
        return false;
    }
    if (strcmp(policy, "correct") == 0)
        a->policy = ANSWER_CORRECT;
    else if (strcmp(policy, "never") == 0)
        a->policy = ANSWER_NEVER;
    else if (strcmp(policy, "wrong") == 0)
        a->policy = ANSWER_WRONG;
    else if (late) {
        char *end;
        errno = 0;
        long long ms = arg ? strtoll(arg, &end, 10) : -1;
        if (!arg || errno || *end || ms < 0 || ms > LATE_MS_MAX) {
            snprintf(msg, len, "late needs MS, 0..%d", LATE_MS_MAX);
            return false;
        }
        a->policy = ANSWER_LATE;
        a->late_ms = ms;
    } else {
        snprintf(msg, len, "unknown policy %s (correct, never, wrong, late MS)", policy);
        return false;
    }
    return true;
}

bool answer_missed(struct client *cl, struct cmd *cmd, char *extra, size_t extra_len, char *msg, size_t len)
{
    struct answer *a = &cl->answer;
    if (!a->have_missed) {
        snprintf(msg, len, "no request was left unanswered under policy never: nothing to answer");
        return false;
    }
    if (cl->ncounters == 0) {
        snprintf(msg, len, "no counters to answer with (use counters N first)");
        return false;
    }
    a->have_missed = false;
    write_answer(cl, cmd, a->missed, false);
    snprintf(extra, extra_len, "value=%lld", (long long)a->missed);
    return true;
}
