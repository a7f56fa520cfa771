/* scripted-client: the application side of the frame-synchronization protocol, scripted over
 * stdin/stdout (scripted-client/PROTOCOL.md).
 *
 * One thread, one poll() over three sources: the X connection, stdin (commands, one a line) and
 * a timerfd (the sync-request answer's deadlines).  Nothing sleeps: every wait is a deadline on
 * the timerfd, so events keep being reported while an answer is pending. */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "scripted-client.h"

#define LINE_MAX_LEN 16384

static void usage_exit(void)
{
    fprintf(stderr, "usage: scripted-client [--name NAME]\n");
    exit(2);
}

static const char *parse_args(int argc, char **argv)
{
    static const struct option opts[] = {{"name", required_argument, NULL, 'n'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *name = "scripted-client";
    int o;
    while ((o = getopt_long(argc, argv, "n:h", opts, NULL)) != -1) {
        if (o == 'n')
            name = optarg;
        else
            usage_exit();
    }
    if (optind != argc)
        usage_exit();
    return name;
}

static void intern_atoms(struct client *cl)
{
    /* All requests first, then all replies: one round trip instead of fifteen. */
    static const char *const names[] = {
        "WM_PROTOCOLS",         "WM_DELETE_WINDOW",     "WM_TAKE_FOCUS",
        "WM_NAME",              "WM_CLASS",             "_NET_WM_NAME",
        "UTF8_STRING",          "_NET_WM_PID",          "_NET_WM_PING",
        "_NET_WM_SYNC_REQUEST", "_NET_WM_SYNC_REQUEST_COUNTER",
        "_NET_WM_SYNC_DRAWN",   "_NET_WM_FRAME_DRAWN",  "_NET_WM_FRAME_TIMINGS",
        "_NET_WM_SYNC_FENCES",  "_NET_WM_FULLSCREEN_MONITORS"};
    struct atoms *a = &cl->atoms;
    xcb_atom_t *slots[] = {&a->wm_protocols, &a->wm_delete_window, &a->wm_take_focus,
                           &a->wm_name, &a->wm_class, &a->net_wm_name, &a->utf8_string,
                           &a->net_wm_pid, &a->net_wm_ping, &a->net_wm_sync_request,
                           &a->net_wm_sync_request_counter, &a->net_wm_sync_drawn,
                           &a->net_wm_frame_drawn, &a->net_wm_frame_timings,
                           &a->net_wm_sync_fences, &a->net_wm_fullscreen_monitors};
    enum { N = sizeof names / sizeof names[0] };
    _Static_assert(N == sizeof slots / sizeof slots[0], "one slot per atom name");
    xcb_intern_atom_cookie_t cookies[N];
    for (int i = 0; i < N; i++)
        cookies[i] = xcb_intern_atom(cl->c, 0, (uint16_t)strlen(names[i]), names[i]);
    for (int i = 0; i < N; i++) {
        xcb_intern_atom_reply_t *r = xcb_intern_atom_reply(cl->c, cookies[i], NULL);
        *slots[i] = r ? r->atom : XCB_ATOM_NONE;
        free(r);
    }
}

static xcb_visualtype_t *find_visual(xcb_screen_t *screen, xcb_visualid_t id)
{
    for (xcb_depth_iterator_t d = xcb_screen_allowed_depths_iterator(screen); d.rem;
         xcb_depth_next(&d))
        for (xcb_visualtype_iterator_t v = xcb_depth_visuals_iterator(d.data); v.rem;
             xcb_visualtype_next(&v))
            if (v.data->visual_id == id)
                return v.data;
    return NULL;
}

static bool init_sync(struct client *cl)
{
    /* SYNC requests before Initialize are undefined by the extension's spec. */
    const xcb_query_extension_reply_t *ext = xcb_get_extension_data(cl->c, &xcb_sync_id);
    if (!ext || !ext->present)
        return false;
    cl->sync_first_event = ext->first_event;
    cl->sync_major = ext->major_opcode;
    xcb_sync_initialize_reply_t *r =
        xcb_sync_initialize_reply(cl->c, xcb_sync_initialize(cl->c, 3, 1), NULL);
    if (!r)
        return false;
    free(r);
    return true;
}

static void connect_x(struct client *cl)
{
    int screen_no = 0;
    cl->c = xcb_connect(NULL, &screen_no);
    if (xcb_connection_has_error(cl->c)) {
        logmsg(cl, "cannot connect to the X server (DISPLAY=%s)", getenv("DISPLAY"));
        exit(1);
    }
    /* FRAMESYNC_XID_SKIP (set by the harness): skip that many XIDs first, so that this client's
     * window never has the XID of the last case's window (see harness/session.c) */
    const char *skip = getenv("FRAMESYNC_XID_SKIP");
    for (unsigned long n = skip ? strtoul(skip, NULL, 10) : 0; n > 0; n--)
        xcb_generate_id(cl->c);
    xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(cl->c));
    for (int i = 0; i < screen_no && it.rem; i++)
        xcb_screen_next(&it);
    cl->screen = it.data;
    cl->visual = find_visual(cl->screen, cl->screen->root_visual);
    if (!init_sync(cl)) {
        logmsg(cl, "the X server has no SYNC extension");
        exit(1);
    }
    intern_atoms(cl);
    /* One GC for every fill; on the root, so it outlives any window of the root's depth. */
    cl->gc = xcb_generate_id(cl->c);
    xcb_create_gc(cl->c, cl->gc, cl->screen->root, 0, NULL);
}

static void bye(struct client *cl, const char *reason, int status)
{
    if (cl->c && !xcb_connection_has_error(cl->c))
        monitors_remove_own(cl, NULL); /* the server keeps them after we are gone */
    record("bye", "reason=%s", reason);
    if (cl->c)
        xcb_disconnect(cl->c);
    exit(status);
}

static void check_connection(struct client *cl)
{
    if (xcb_connection_has_error(cl->c))
        bye(cl, "x-connection-lost", 1);
}

static int drain_x(struct client *cl)
{
    xcb_generic_event_t *ev;
    int n = 0;
    while ((ev = xcb_poll_for_event(cl->c))) {
        events_dispatch(cl, ev);
        free(ev);
        n++;
    }
    check_connection(cl);
    return n;
}

/* Stdin is read once per poll() wake-up (so the read never blocks) into a buffer; every
 * complete line is one command.  Stdin is left blocking: its file description may be shared. */
static char inbuf[LINE_MAX_LEN];
static size_t inlen;
static bool discarding; /* inside a line that was too long */

static void run_line(struct client *cl, char *line)
{
    command_run(cl, line);
    check_connection(cl);
    if (cl->quit_requested)
        bye(cl, "quit", 0);
}

static void run_complete_lines(struct client *cl)
{
    char *start = inbuf, *nl;
    while ((nl = memchr(start, '\n', inlen - (size_t)(start - inbuf)))) {
        *nl = '\0';
        if (discarding)
            discarding = false;
        else
            run_line(cl, start);
        start = nl + 1;
    }
    inlen -= (size_t)(start - inbuf);
    memmove(inbuf, start, inlen);
    if (inlen == sizeof inbuf - 1) {
        if (!discarding)
            record("error", "cmd=? msg=line longer than %d bytes ignored", LINE_MAX_LEN - 1);
        discarding = true;
        inlen = 0;
    }
}

static void read_stdin(struct client *cl)
{
    ssize_t n = read(STDIN_FILENO, inbuf + inlen, sizeof inbuf - 1 - inlen);
    if (n < 0) {
        if (errno == EAGAIN || errno == EINTR)
            return;
        logmsg(cl, "stdin: %s", strerror(errno));
    }
    if (n <= 0) {
        if (inlen && !discarding) { /* a last command without its newline still counts */
            inbuf[inlen] = '\0';
            inlen = 0;
            run_line(cl, inbuf);
        }
        bye(cl, "stdin-closed", 0);
    }
    inlen += (size_t)n;
    run_complete_lines(cl);
}

int main(int argc, char **argv)
{
    /* The harness may die without closing our stdin (SIGKILL of a wrapper); die with it. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() == 1)
        return 1;
    signal(SIGPIPE, SIG_IGN); /* a closed stdout shows as a write error, not a silent death */
    setvbuf(stdout, NULL, _IOLBF, 0);

    static struct client cl;
    cl.name = parse_args(argc, argv);
    connect_x(&cl);
    cl.timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (cl.timerfd < 0) {
        logmsg(&cl, "timerfd_create: %s", strerror(errno));
        return 1;
    }
    cl.resize_timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (cl.resize_timerfd < 0) {
        logmsg(&cl, "timerfd_create: %s", strerror(errno));
        return 1;
    }
    record("ready", "pid=%d", (int)getpid());

    for (;;) {
        /* xcb may read events into its queue while it writes (flush) or waits for a reply
         * (an answer's round trip): poll() would not see those, so flush first and sleep only
         * once a drain found nothing. */
        xcb_flush(cl.c);
        if (drain_x(&cl) > 0) {
            resize_poll(&cl);
            continue;
        }
        struct pollfd fds[4] = {{xcb_get_file_descriptor(cl.c), POLLIN, 0},
                                {STDIN_FILENO, POLLIN, 0},
                                {cl.timerfd, POLLIN, 0},
                                {cl.resize_timerfd, POLLIN, 0}};
        if (poll(fds, 4, -1) < 0) {
            if (errno == EINTR)
                continue;
            logmsg(&cl, "poll: %s", strerror(errno));
            bye(&cl, "poll-failed", 1);
        }
        if (fds[0].revents)
            drain_x(&cl);
        if (fds[2].revents & POLLIN)
            answer_on_timer(&cl);
        if (fds[3].revents & POLLIN)
            resize_on_timer(&cl);
        resize_poll(&cl);
        if (fds[1].revents)
            read_stdin(&cl);
    }
}
