/* fake-wm: the top.  It reads the options, connects, starts the WM and the compositor, and runs
 * the single-threaded poll() loop over the X fds, a timerfd (the parts' next deadline: refresh
 * interval, sync timeouts, ...) and a signalfd (SIGTERM/SIGINT -> exit 0).  It calls the parts;
 * none of them calls it (the compositor's catch-up before a paint is handed to it: comp_start). */
#include "comp.h"
#include "faults.h"
#include "features.h"
#include "injections.h"
#include "inputfirst.h"
#include "log.h"
#include "moveresize.h"
#include "options.h"
#include "replace.h"
#include "state.h"
#include "sync.h"
#include "variants.h"
#include "wmevents.h"
#include "wmstart.h"

#include "clock.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

static void drain(void)
{
    xcb_generic_event_t *ev;
    while ((ev = xcb_poll_for_event(X.c))) {
        wm_dispatch(ev);
        free(ev);
    }
    if (X.pc) {
        while ((ev = xcb_poll_for_event(X.pc))) {
            if (ev->response_type == 0)
                log_x_error("compositor", (xcb_generic_error_t *)ev);
            else
                comp_handle_event(ev);
            free(ev);
        }
    }
}

/* events already read into xcb's queues; returns how many were handled */
static int drain_queued(void)
{
    int n = 0;
    xcb_generic_event_t *ev;
    while ((ev = xcb_poll_for_queued_event(X.c))) {
        wm_dispatch(ev);
        free(ev);
        n++;
    }
    if (X.pc) {
        while ((ev = xcb_poll_for_queued_event(X.pc))) {
            if (ev->response_type == 0)
                log_x_error("compositor", (xcb_generic_error_t *)ev);
            else
                comp_handle_event(ev);
            free(ev);
            n++;
        }
    }
    return n;
}

static int64_t min64(int64_t a, int64_t b)
{
    if (a < 0)
        return b;
    if (b < 0)
        return a;
    return a < b ? a : b;
}

/* the timers of every part: sync request timeouts, grab retries and motion, then the compositor's */
static void check_timers(int64_t now)
{
    wm_check_kept(now);
    sync_check_timers(now);
    moveresize_check_timers(now);
    if (opt.composite)
        comp_tick(now);
}

static int64_t next_deadline(void)
{
    int64_t deadline = min64(min64(sync_next_deadline(), moveresize_next_deadline()), inputfirst_next_deadline());
    if (opt.composite)
        deadline = min64(deadline, comp_next_deadline());
    return deadline;
}

static void arm_timer(int tfd, int64_t deadline)
{
    struct itimerspec its;
    memset(&its, 0, sizeof its);
    if (deadline >= 0) {
        if (deadline <= 0)
            deadline = 1;
        its.it_value.tv_sec = deadline / 1000000;
        its.it_value.tv_nsec = (deadline % 1000000) * 1000;
        if (its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0)
            its.it_value.tv_nsec = 1;
    }
    timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
}

/* SIGTERM and SIGINT through a signalfd (exit 0), SIGPIPE ignored, SIGTERM when the parent dies;
 * returns the signalfd (-1 when it could not be made) */
static int take_signals(void)
{
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    signal(SIGPIPE, SIG_IGN);
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGINT);
    sigprocmask(SIG_BLOCK, &mask, NULL);
    return signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
}

static void log_starting(void)
{
    char faults[1024], variants[1024], injected[256];
    faults_describe(faults, sizeof faults);
    variants_describe(variants, sizeof variants);
    injections_describe(injected, sizeof injected);
    logmsg("starting: profile=%s refresh-hz=%d sync-timeout-ms=%d hold-timeout-ms=%d compress=%d composite=%d "
           "variants=%s faults=%s injections=%s",
           profile_name(opt.profile), opt.refresh_hz, opt.sync_timeout_ms, opt.hold_timeout_ms, opt.compress,
           opt.composite, variants, faults, injected);
}

/* the WM, then the compositor: ready once both own their selections */
static void start(void)
{
    wm_start();
    if (opt.composite)
        comp_start(wm_catch_up);
    x_flush();
    if (is_wm())
        logmsg("ready: WM_S0%s owned", opt.composite ? " and _NET_WM_CM_S0" : "");
    else
        logmsg("ready: _NET_WM_CM_S0 owned (no window manager: variant cm-only)");
}

#define GO_ON (-1)

/* everything there is to do now: a signal, the events, the timers.  Returns GO_ON or the exit
 * status; *more: events were read into xcb's queues meanwhile (handled: look again before sleeping) */
static int work(int sfd, bool *more)
{
    /* the signalfd is non-blocking: checked on every turn, so a flood of events cannot delay
     * the exit */
    struct signalfd_siginfo si;
    if (read(sfd, &si, sizeof si) == (ssize_t)sizeof si) {
        logmsg("got signal %u, exiting", si.ssi_signo);
        x_flush();
        return 0;
    }
    drain();
    if (!connection_ok()) {
        logmsg("X connection closed, exiting");
        return 0;
    }
    if (X.pc && comp_selection_lost())
        replace_lost(A_NET_WM_CM_S0); /* exits, or leaves the faults' zombie */
    int64_t now = clock_now_us();
    check_timers(now);
    x_flush();
    drain(); /* timers may have queued replies/events */
    if (!connection_ok()) {
        logmsg("X connection closed, exiting");
        return 0;
    }

    /* whatever the handlers queued (drawn messages after a paint stamp, replies to events)
     * goes out before we sleep; xcb may read events into its queue while it writes (and
     * while it waits for replies), and poll() would not see those: handle them first */
    x_flush();
    *more = drain_queued() != 0;
    return GO_ON;
}

/* poll() until an X connection, the timer (the parts' next deadline) or a signal wakes it up;
 * returns GO_ON or the exit status */
static int sleep_until_woken(int sfd, int tfd)
{
    arm_timer(tfd, next_deadline());

    struct pollfd pfd[4];
    int n = 0;
    pfd[n++] = (struct pollfd){.fd = xcb_get_file_descriptor(X.c), .events = POLLIN};
    pfd[n++] = (struct pollfd){.fd = tfd, .events = POLLIN};
    pfd[n++] = (struct pollfd){.fd = sfd, .events = POLLIN};
    if (X.pc)
        pfd[n++] = (struct pollfd){.fd = xcb_get_file_descriptor(X.pc), .events = POLLIN};
    int r = poll(pfd, (nfds_t)n, -1);
    if (r < 0 && errno != EINTR) {
        perror("fake-wm: poll");
        return 1;
    }
    if (pfd[1].revents & POLLIN) {
        uint64_t exp;
        if (read(tfd, &exp, sizeof exp) < 0) {
            /* spurious wake-up: nothing to do */
        }
    }
    if ((pfd[0].revents & (POLLHUP | POLLERR)) || (X.pc && (pfd[3].revents & (POLLHUP | POLLERR)))) {
        drain();
        logmsg("X connection closed, exiting");
        return 0;
    }
    return GO_ON;
}

int main(int argc, char **argv)
{
    options_parse(argc, argv);
    log_set_verbose(opt.verbose);
    int sfd = take_signals();
    if (getppid() == 1) {
        /* parent already gone before prctl took effect */
        return 0;
    }
    int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
    if (sfd < 0 || tfd < 0) {
        perror("fake-wm: signalfd/timerfd");
        return 1;
    }
    if (!xstate_connect())
        return 1;
    log_starting();
    start();
    for (;;) {
        bool more = false;
        int status = work(sfd, &more);
        if (status == GO_ON && !more)
            status = sleep_until_woken(sfd, tfd);
        if (status != GO_ON)
            return status;
    }
}
