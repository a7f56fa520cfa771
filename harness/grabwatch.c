#include "grabwatch.h"
#include "xutil.h"
#include "clock.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <xcb/xcb.h>
#include <xcb/xcbext.h>

/* a stall shorter than this is ordinary latency, not worth a record */
#define STALL_RECORD_MS 200

static struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;     /* a stall ended */
    pthread_t thread;
    bool running;
    int stop_pipe[2];
    xcb_connection_t *conn;
    int kill_after_ms;
    pid_t target;
    int target_pidfd;           /* the leader itself: its group id cannot be reused while it lives */
    int64_t stall_since;        /* send time of the unanswered round trip, 0: none */
    bool stall_killed;
    pid_t server;               /* the X server, killed as a last resort */
    int64_t server_killed_ms;
    struct grab_report worst;   /* since the last take */
    bool have_worst;
} gw = {.lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER, .stop_pipe = {-1, -1},
        .target_pidfd = -1};

/* Under gw.lock.  Kills the target's group if its leader is still there (not reaped). */
static void kill_target_locked(void)
{
    if (gw.target <= 0 || gw.target_pidfd < 0)
        return;
    if (syscall(SYS_pidfd_send_signal, gw.target_pidfd, 0, NULL, 0) == 0) {
        kill(-gw.target, SIGKILL);
        gw.stall_killed = true;
    }
}

static void end_stall_locked(int64_t now)
{
    int64_t len = now - gw.stall_since;
    if (len >= STALL_RECORD_MS * 1000 &&
        (!gw.have_worst || len > gw.worst.end_us - gw.worst.start_us)) {
        gw.worst = (struct grab_report){.start_us = gw.stall_since, .end_us = now, .killed = gw.stall_killed};
        gw.have_worst = true;
    }
    gw.stall_since = 0;
    gw.stall_killed = false;
    pthread_cond_broadcast(&gw.changed);
}

/* Waits on the stop pipe and the X socket until the deadline; false when told to stop. */
static bool wait_for(int xfd, int64_t until_us)
{
    int64_t left = until_us - clock_now_us();
    struct pollfd pfd[2] = {{.fd = gw.stop_pipe[0], .events = POLLIN}, {.fd = xfd, .events = POLLIN}};
    int ms = left <= 0 ? 0 : (int)((left + 999) / 1000);
    if (poll(pfd, xfd >= 0 ? 2 : 1, ms) < 0 && errno != EINTR)
        return false;
    return !pfd[0].revents;
}

static void *watch(void *arg)
{
    (void)arg;
    int xfd = xcb_get_file_descriptor(gw.conn);
    for (;;) {
        int64_t sent = clock_now_us();
        xcb_get_input_focus_cookie_t ck = xcb_get_input_focus(gw.conn);
        xcb_flush(gw.conn);
        for (;;) {
            void *reply = NULL;
            xcb_generic_error_t *e = NULL;
            if (xcb_poll_for_reply(gw.conn, ck.sequence, &reply, &e)) {
                free(reply);
                free(e);
                break;
            }
            if (xcb_connection_has_error(gw.conn))
                return NULL; /* the server is gone: the run loop sees that itself */
            int64_t now = clock_now_us();
            pthread_mutex_lock(&gw.lock);
            if (now - sent >= STALL_RECORD_MS * 1000 && !gw.stall_since)
                gw.stall_since = sent;
            /* an interrupt waiting for a main thread that a grab holds in a blocking call: at once */
            sigset_t pending;
            bool interrupt = sigpending(&pending) == 0 && (sigismember(&pending, SIGINT) == 1 ||
                             sigismember(&pending, SIGTERM) == 1 || sigismember(&pending, SIGHUP) == 1);
            if (gw.stall_since && !gw.stall_killed &&
                (interrupt || now - sent >= (int64_t)gw.kill_after_ms * 1000)) {
                kill_target_locked();
                if (gw.stall_killed)
                    fprintf(stderr, "framesync: the X server answered nobody for %.0f ms while the compositor "
                                    "ran (a server grab): stopping the compositor\n", (double)(now - sent) / 1000.0);
            }
            if (gw.stall_since && gw.server > 0 && !gw.server_killed_ms &&
                (interrupt || now - sent >= (int64_t)gw.kill_after_ms * 1000 * (1 + GRABWATCH_SERVER_GRACE))) {
                gw.server_killed_ms = (now - sent) / 1000;
                fprintf(stderr, "framesync: the X server answered nobody for %lld ms, also with the compositor "
                                "stopped: it is stuck in a request; stopping the X server\n",
                        (long long)gw.server_killed_ms);
                kill(gw.server, SIGKILL);
            }
            pthread_mutex_unlock(&gw.lock);
            if (!wait_for(xfd, now + GRABWATCH_PERIOD_MS * 1000))
                return NULL;
        }
        if (xcb_connection_has_error(gw.conn))
            return NULL;
        pthread_mutex_lock(&gw.lock);
        if (gw.stall_since)
            end_stall_locked(clock_now_us());
        pthread_mutex_unlock(&gw.lock);
        if (!wait_for(-1, sent + GRABWATCH_PERIOD_MS * 1000))
            return NULL;
    }
}

void grabwatch_server(pid_t pid)
{
    pthread_mutex_lock(&gw.lock);
    gw.server = pid;
    pthread_mutex_unlock(&gw.lock);
}

int64_t grabwatch_server_killed_ms(void)
{
    pthread_mutex_lock(&gw.lock);
    int64_t ms = gw.server_killed_ms;
    pthread_mutex_unlock(&gw.lock);
    return ms;
}

int grabwatch_start(const char *display, int kill_after_ms, char *err, size_t len)
{
    gw.kill_after_ms = kill_after_ms;
    gw.conn = xcb_connect(display, NULL);
    if (xcb_connection_has_error(gw.conn)) {
        snprintf(err, len, "the grab watch cannot connect to %s", display);
        xu_disconnect(gw.conn);
        gw.conn = NULL;
        return -1;
    }
    if (pipe2(gw.stop_pipe, O_CLOEXEC) < 0) {
        snprintf(err, len, "pipe: %s", strerror(errno));
        return -1;
    }
    int rc = pthread_create(&gw.thread, NULL, watch, NULL);
    if (rc) {
        snprintf(err, len, "cannot start the grab watch thread: %s", strerror(rc));
        return -1;
    }
    gw.running = true;
    return 0;
}

void grabwatch_stop(void)
{
    if (gw.running) {
        if (write(gw.stop_pipe[1], "x", 1) < 0)
            perror("framesync: grab watch");
        pthread_join(gw.thread, NULL);
        gw.running = false;
    }
    grabwatch_target(0);
    if (gw.conn)
        xu_disconnect(gw.conn);
    gw.conn = NULL;
    for (int i = 0; i < 2; i++)
        if (gw.stop_pipe[i] >= 0)
            close(gw.stop_pipe[i]);
    gw.stop_pipe[0] = gw.stop_pipe[1] = -1;
}

void grabwatch_target(pid_t pid)
{
    pthread_mutex_lock(&gw.lock);
    if (gw.target_pidfd >= 0)
        close(gw.target_pidfd);
    gw.target_pidfd = -1;
    gw.target = pid;
    if (pid > 0)
        gw.target_pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    pthread_mutex_unlock(&gw.lock);
}

bool grabwatch_take(int min_ms, struct grab_report *out)
{
    pthread_mutex_lock(&gw.lock);
    int64_t now = clock_now_us();
    struct grab_report cur = {0};
    bool have = false;
    if (gw.have_worst) {
        cur = gw.worst;
        have = true;
    }
    if (gw.stall_since && (!have || now - gw.stall_since > cur.end_us - cur.start_us)) {
        cur = (struct grab_report){.start_us = gw.stall_since, .end_us = now, .ongoing = true,
                                   .killed = gw.stall_killed};
        have = true;
    }
    gw.have_worst = false;
    pthread_mutex_unlock(&gw.lock);
    if (!have || cur.end_us - cur.start_us < (int64_t)min_ms * 1000)
        return false;
    *out = cur;
    return true;
}

int64_t grabwatch_stall_ms(void)
{
    pthread_mutex_lock(&gw.lock);
    int64_t ms = gw.stall_since ? (clock_now_us() - gw.stall_since) / 1000 : 0;
    pthread_mutex_unlock(&gw.lock);
    return ms;
}

bool grabwatch_end_stall(int wait_ms)
{
    pthread_mutex_lock(&gw.lock);
    if (gw.stall_since && !gw.stall_killed)
        kill_target_locked();
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += wait_ms / 1000;
    until.tv_nsec += (long)(wait_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    while (gw.stall_since && gw.running)
        if (pthread_cond_timedwait(&gw.changed, &gw.lock, &until) == ETIMEDOUT)
            break;
    bool answered = !gw.stall_since;
    pthread_mutex_unlock(&gw.lock);
    return answered;
}
