/* fake-wm: options, X connections, and the single-threaded poll() loop over the X fds, a
 * timerfd (refresh interval, sync timeouts) and a signalfd (SIGTERM/SIGINT -> exit 0). */
#include "fakewm.h"
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

struct options opt = {
    .profile = PROFILE_EWMH15,
    .refresh_hz = 60,
    .sync_timeout_ms = 1000,
    .hold_timeout_ms = 2000,
    .compress = false,
    .composite = true,
    .verbose = false,
};
struct xstate X;

static const char *const atom_names[A_COUNT] = {
    [A_WM_PROTOCOLS] = "WM_PROTOCOLS",
    [A_WM_S0] = "WM_S0",
    [A_MANAGER] = "MANAGER",
    [A_WM_STATE] = "WM_STATE",
    [A_UTF8_STRING] = "UTF8_STRING",
    [A_NET_SUPPORTED] = "_NET_SUPPORTED",
    [A_NET_SUPPORTING_WM_CHECK] = "_NET_SUPPORTING_WM_CHECK",
    [A_NET_WM_NAME] = "_NET_WM_NAME",
    [A_NET_WM_SYNC_REQUEST] = "_NET_WM_SYNC_REQUEST",
    [A_NET_WM_SYNC_REQUEST_COUNTER] = "_NET_WM_SYNC_REQUEST_COUNTER",
    [A_NET_WM_SYNC_DRAWN] = "_NET_WM_SYNC_DRAWN",
    [A_NET_WM_SYNC_FENCES] = "_NET_WM_SYNC_FENCES",
    [A_NET_WM_FRAME_DRAWN] = "_NET_WM_FRAME_DRAWN",
    [A_NET_WM_FRAME_TIMINGS] = "_NET_WM_FRAME_TIMINGS",
    [A_NET_WM_MOVERESIZE] = "_NET_WM_MOVERESIZE",
    [A_NET_WM_CM_S0] = "_NET_WM_CM_S0",
    [A_FAKE_WM_TIMESTAMP] = "_FAKE_WM_TIMESTAMP",
    [A_FAKE_WM_PAINT_STAMP] = "_FAKE_WM_PAINT_STAMP",
    [A_FRAMESYNC_WM_CONTROL] = "_FRAMESYNC_WM_CONTROL",
};

const char *atom_name(enum atom_id a) { return atom_names[a]; }

void note_time(xcb_timestamp_t t)
{
    /* server time is 32-bit milliseconds and wraps; take the latest one seen */
    if (t != XCB_CURRENT_TIME)
        X.last_time = t;
}

void x_flush(void)
{
    xcb_flush(X.c);
    if (X.pc)
        xcb_flush(X.pc);
}

bool connection_ok(void)
{
    return !xcb_connection_has_error(X.c) && (!X.pc || !xcb_connection_has_error(X.pc));
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: fake-wm [--profile ewmh-1.5|draft-2011|de-facto] [--refresh-hz N]\n"
            "               [--sync-timeout-ms N] [--hold-timeout-ms N] [--variant NAME]...\n"
            "               [--compress] [--no-composite] [--inject FAULT]...\n"
            "               [--list-variants] [--list-faults] [--verbose]\n"
            "  --profile P          the text it implements (default ewmh-1.5)\n"
            "  --refresh-hz N       repaint at most N times a second (default 60)\n"
            "  --sync-timeout-ms N  wait for a sync request's answer or a fence (default 1000)\n"
            "  --hold-timeout-ms N  hold a window in the middle of an update (default 2000)\n"
            "  --variant NAME       switch on an allowed behaviour of a real compositor\n"
            "                       (repeatable; see --list-variants)\n"
            "  --compress           the same as --variant compress\n"
            "  --no-composite       the same as --variant wm-only\n"
            "  --inject FAULT       break one clause (repeatable; see --list-faults)\n"
            "  --list-variants      NAME<TAB>what it does<TAB>like which compositor, then exit\n"
            "  --list-faults        FAULT<TAB>CLAUSE<TAB>what goes wrong, then exit\n"
            "  --verbose            log every event, with CLOCK_MONOTONIC microseconds\n"
            "benchmark injections (not clause faults, not in --list-faults):\n");
    injections_help(f);
}

static void enable_variant(const char *name)
{
    int k = name ? variant_lookup(name) : -1;
    if (k < 0) {
        char all[1024];
        variants_names(all, sizeof all);
        fprintf(stderr, "fake-wm: unknown variant '%s' for --variant (one of: %s)\n", name ? name : "", all);
        exit(2);
    }
    variant_on[k] = true;
}

/* options a variant also sets: given both ways, the run would not be what either says */
static bool hold_timeout_given, refresh_given;

/* setter: the variant or fault that sets the option ("--variant hold-1s") */
static void refuse_with_option(bool given, const char *option, const char *setter)
{
    if (!given)
        return;
    fprintf(stderr, "fake-wm: %s and %s cannot be combined: the latter sets it\n", option, setter);
    exit(2);
}

/* what the variants switched on mean for the options that other parts read */
static void apply_variants(void)
{
    /* the compositors that sync at map (compiz, KWin) are basic-form only, and so is the
     * variant: a map-time request to an extended window would move the counter its first frame
     * is reported with, which no implementation does */
    if (VARIANT(SYNC_AT_MAP))
        variant_on[V_BASIC_ONLY] = true;
    variants_check_conflicts();
    opt.composite = !VARIANT(WM_ONLY);
    opt.compress = VARIANT(COMPRESS);
    if (VARIANT(HOLD_1S) || VARIANT(HOLD_4S)) {
        refuse_with_option(hold_timeout_given, "--hold-timeout-ms",
                           VARIANT(HOLD_1S) ? "--variant hold-1s" : "--variant hold-4s");
        opt.hold_timeout_ms = VARIANT(HOLD_1S) ? 1000 : 4000;
    }
    if (VARIANT(SLOW_REFRESH)) {
        refuse_with_option(refresh_given, "--refresh-hz", "--variant slow-refresh");
        opt.refresh_hz = 20; /* a 50 ms frame timer */
    }
}

/* what the faults switched on mean for the options that other parts read */
static void apply_faults(void)
{
    if (FAULT(HOLD_TIMEOUT_5MS)) {
        /* the hold gives up by the same path as with --hold-timeout-ms: only the bound is wrong,
         * so short that a probe sees an unfinished update on screen */
        refuse_with_option(hold_timeout_given, "--hold-timeout-ms", "--inject hold-timeout-5ms");
        if (VARIANT(HOLD_1S) || VARIANT(HOLD_4S)) {
            fprintf(stderr, "fake-wm: --inject hold-timeout-5ms and --variant %s cannot be combined: each sets the "
                    "hold timeout\n", VARIANT(HOLD_1S) ? "hold-1s" : "hold-4s");
            exit(2);
        }
        opt.hold_timeout_ms = 5;
    }
}

static int parse_int(const char *opt_name, const char *s, int lo, int hi)
{
    char *end;
    errno = 0;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || errno || *end || end == s || v < lo || v > hi) {
        fprintf(stderr, "fake-wm: %s needs a number from %d to %d, not '%s'\n", opt_name, lo, hi,
                s ? s : "");
        exit(2);
    }
    return (int)v;
}

static void parse_options(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        /* accept --opt=value as well as --opt value */
        char name[64];
        const char *val = NULL;
        const char *eq = strchr(a, '=');
        if (eq && strncmp(a, "--", 2) == 0 && (size_t)(eq - a) < sizeof name) {
            memcpy(name, a, (size_t)(eq - a));
            name[eq - a] = '\0';
            val = eq + 1;
        } else {
            snprintf(name, sizeof name, "%s", a);
        }
#define NEXTVAL() (val ? val : (i + 1 < argc ? argv[++i] : NULL))
        if (strcmp(name, "--profile") == 0) {
            const char *p = NEXTVAL();
            int bit = p ? profile_parse(p) : 0;
            if (bit)
                opt.profile = (enum profile)bit;
            else {
                fprintf(stderr, "fake-wm: unknown profile '%s' for --profile (ewmh-1.5, draft-2011, de-facto)\n",
                        p ? p : "");
                exit(2);
            }
        } else if (strcmp(name, "--refresh-hz") == 0) {
            opt.refresh_hz = parse_int("--refresh-hz", NEXTVAL(), 1, 1000);
            refresh_given = true;
        } else if (strcmp(name, "--sync-timeout-ms") == 0) {
            opt.sync_timeout_ms = parse_int("--sync-timeout-ms", NEXTVAL(), 1, 3600000);
        } else if (strcmp(name, "--hold-timeout-ms") == 0) {
            opt.hold_timeout_ms = parse_int("--hold-timeout-ms", NEXTVAL(), 1, 3600000);
            hold_timeout_given = true;
        } else if (strcmp(name, "--variant") == 0) {
            enable_variant(NEXTVAL());
        } else if (strcmp(name, "--compress") == 0 && !val) {
            enable_variant("compress");
        } else if (strcmp(name, "--no-composite") == 0 && !val) {
            enable_variant("wm-only");
        } else if (strcmp(name, "--list-variants") == 0 && !val) {
            variants_list();
            exit(0);
        } else if (strcmp(name, "--verbose") == 0 && !val) {
            opt.verbose = true;
        } else if (strcmp(name, "--inject") == 0) {
            const char *f = NEXTVAL();
            if (f && injection_parse(f))
                continue;
            int k = f ? fault_lookup(f) : -1;
            if (k < 0) {
                fprintf(stderr, "fake-wm: unknown fault '%s' for --inject (see --list-faults)\n", f ? f : "");
                exit(2);
            }
            fault_on[k] = true;
        } else if (strcmp(name, "--list-faults") == 0 && !val) {
            faults_list();
            exit(0);
        } else if ((strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) && !val) {
            usage(stdout);
            exit(0);
        } else {
            fprintf(stderr, "fake-wm: unknown option '%s'\n", a);
            usage(stderr);
            exit(2);
        }
#undef NEXTVAL
    }
    apply_variants();
    apply_faults();
}

static void intern_atoms(void)
{
    xcb_intern_atom_cookie_t ck[A_COUNT];
    for (int i = 0; i < A_COUNT; i++)
        ck[i] = xcb_intern_atom(X.c, 0, (uint16_t)strlen(atom_names[i]), atom_names[i]);
    for (int i = 0; i < A_COUNT; i++) {
        xcb_intern_atom_reply_t *r = xcb_intern_atom_reply(X.c, ck[i], NULL);
        if (!r) {
            logmsg("cannot intern atom %s", atom_names[i]);
            exit(1);
        }
        X.atom[i] = r->atom;
        free(r);
    }
}

/* ---- events ---- */
static void dispatch_c(xcb_generic_event_t *ev)
{
    if (ev->response_type == 0) {
        log_x_error("wm", (xcb_generic_error_t *)ev);
        return;
    }
    wm_handle_event(ev);
}

/* Everything the server sent the WM connection before now: a round trip, then the queue.
 * The compositor calls this before it paints, so that a counter change the server processed
 * before a client's drawing is known before that drawing is shown (the two connections'
 * events are not ordered with each other). */
void wm_sync_events(void)
{
    xh_round_trip(X.c);
    xcb_generic_event_t *ev;
    while ((ev = xcb_poll_for_queued_event(X.c))) {
        dispatch_c(ev);
        free(ev);
    }
}

static void drain(void)
{
    xcb_generic_event_t *ev;
    while ((ev = xcb_poll_for_event(X.c))) {
        dispatch_c(ev);
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
        dispatch_c(ev);
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

int main(int argc, char **argv)
{
    parse_options(argc, argv);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    signal(SIGPIPE, SIG_IGN);
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGINT);
    sigprocmask(SIG_BLOCK, &mask, NULL);
    int sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
    if (getppid() == 1) {
        /* parent already gone before prctl took effect */
        return 0;
    }
    int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
    if (sfd < 0 || tfd < 0) {
        perror("fake-wm: signalfd/timerfd");
        return 1;
    }

    int screen_num = 0;
    X.c = xcb_connect(NULL, &screen_num);
    if (xcb_connection_has_error(X.c)) {
        logmsg("cannot connect to the X server (DISPLAY=%s)", getenv("DISPLAY") ? getenv("DISPLAY") : "");
        return 1;
    }
    xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(X.c));
    for (int i = 0; i < screen_num && it.rem; i++)
        xcb_screen_next(&it);
    X.screen = it.data;
    X.root = X.screen->root;
    intern_atoms();

    char faults[1024], variants[1024], injected[256];
    faults_describe(faults, sizeof faults);
    variants_describe(variants, sizeof variants);
    injections_describe(injected, sizeof injected);
    logmsg("starting: profile=%s refresh-hz=%d sync-timeout-ms=%d hold-timeout-ms=%d compress=%d composite=%d "
           "variants=%s faults=%s injections=%s",
           profile_name(opt.profile), opt.refresh_hz, opt.sync_timeout_ms, opt.hold_timeout_ms, opt.compress,
           opt.composite, variants, faults, injected);

    wm_start();
    if (opt.composite)
        comp_start();
    x_flush();
    if (is_wm())
        logmsg("ready: WM_S0%s owned", opt.composite ? " and _NET_WM_CM_S0" : "");
    else
        logmsg("ready: _NET_WM_CM_S0 owned (no window manager: variant cm-only)");

    for (;;) {
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
        int64_t now = clock_now_us();
        wm_check_timers(now);
        if (opt.composite)
            comp_tick(now);
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
        if (drain_queued())
            continue;

        int64_t deadline = wm_next_deadline();
        if (opt.composite)
            deadline = min64(deadline, comp_next_deadline());
        arm_timer(tfd, deadline);

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
    }
}
