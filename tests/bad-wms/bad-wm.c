/* bad-wm: a tiny, deliberately misbehaving window manager for testing the harness's handling of
 * compositors that crash, hang, grab the server, exit, or never become ready.  It is a plain
 * (non-compositing) WM when it behaves: owns WM_S0, sets _NET_SUPPORTING_WM_CHECK, maps on
 * MapRequest and applies ConfigureRequests.  One misbehaviour is chosen on the command line:
 *
 *   bad-wm crash-at-start          prints a message and dies by SIGSEGV before owning WM_S0
 *   bad-wm exit-at-start STATUS    prints a message and exits with STATUS at once
 *   bad-wm never-ready             connects, never owns WM_S0, waits for SIGTERM
 * MapRequests are counted for the scripted clients' windows only (WM_CLASS scripted-client), not the
 * harness's probe window:
 *   bad-wm crash-on-map N          dies by SIGSEGV on the Nth MapRequest
 *   bad-wm exit-on-map N STATUS    exits with STATUS on the Nth MapRequest
 *   bad-wm stop-on-map N           stops itself (SIGSTOP) on the Nth MapRequest: a hung WM
 *   bad-wm grab-on-map N MS        grabs the server on the Nth MapRequest and keeps it for MS ms
 *                                  (0: until it is killed), then maps the window
 *   bad-wm behave                  no misbehaviour
 *
 * --ignore-term (first): ignore SIGTERM, like a compositor that takes long to stop.
 * --once FILE (first): misbehave on the Nth MapRequest only if FILE does not exist, and create
 * it then; a restarted bad-wm behaves (to show that the harness restarts a crashed compositor).
 */
#include <stdbool.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xcb/xcb.h>

#include "clock.h"
#include "xhelpers.h"

static xcb_connection_t *c;
static xcb_screen_t *scr;

/* What the command line asked for. */
struct plan {
    const char *mode;  /* crash-at-start, ..., behave */
    int n;             /* the MapRequest to misbehave on (or exit-at-start's status) */
    int arg;           /* exit-on-map's status, grab-on-map's MS */
    const char *once;  /* --once FILE, or NULL */
    int maps;          /* MapRequests of scripted clients so far */
};

static xcb_atom_t intern(const char *name)
{
    xcb_intern_atom_reply_t *r = xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, (uint16_t)strlen(name), name), NULL);
    xcb_atom_t a = r ? r->atom : XCB_NONE;
    free(r);
    return a;
}

static void die_by(int sig)
{
    fprintf(stderr, "bad-wm: dying by signal %d as asked\n", sig);
    fflush(stderr);
    signal(sig, SIG_DFL);
    raise(sig);
    _exit(99);
}

static int64_t now_ms(void)
{
    return clock_now_us() / 1000;
}

/* Only the scripted clients' windows count: the harness's probe window may be mapped more than once. */
static bool is_scripted_client(xcb_window_t w)
{
    xcb_get_property_reply_t *r =
        xcb_get_property_reply(c, xcb_get_property(c, 0, w, XCB_ATOM_WM_CLASS, XCB_ATOM_STRING, 0, 64), NULL);
    static const char class_name[] = "scripted-client";
    bool yes = r && xcb_get_property_value_length(r) >= (int)sizeof class_name - 1 &&
               !memcmp(xcb_get_property_value(r), class_name, sizeof class_name - 1);
    free(r);
    return yes;
}

static void become_wm(void)
{
    uint32_t mask = XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY;
    xcb_generic_error_t *e =
        xcb_request_check(c, xcb_change_window_attributes_checked(c, scr->root, XCB_CW_EVENT_MASK, &mask));
    if (e) {
        fprintf(stderr, "bad-wm: another WM is running\n");
        exit(1);
    }
    xcb_window_t check = xcb_generate_id(c);
    xcb_create_window(c, 0, check, scr->root, -1, -1, 1, 1, 0, XCB_WINDOW_CLASS_INPUT_ONLY, XCB_COPY_FROM_PARENT,
                      0, NULL);
    xcb_atom_t net_check = intern("_NET_SUPPORTING_WM_CHECK");
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, check, net_check, XCB_ATOM_WINDOW, 32, 1, &check);
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, check, intern("_NET_WM_NAME"), intern("UTF8_STRING"), 8, 6,
                        "bad-wm");
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, scr->root, net_check, XCB_ATOM_WINDOW, 32, 1, &check);
    xcb_atom_t supported[] = {intern("_NET_SUPPORTED"), net_check, intern("_NET_WM_NAME")};
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, scr->root, supported[0], XCB_ATOM_ATOM, 32, 3, supported);
    xcb_set_selection_owner(c, check, intern("WM_S0"), XCB_CURRENT_TIME);
    xcb_flush(c);
    fprintf(stderr, "bad-wm: managing\n");
}

/* --once FILE and --ignore-term come first; then MODE [N [ARG]]. */
static struct plan parse_args(int argc, char **argv)
{
    struct plan p = {0};
    for (;;) {
        if (argc > 2 && !strcmp(argv[1], "--once")) {
            p.once = argv[2];
            argv += 2;
            argc -= 2;
        } else if (argc > 1 && !strcmp(argv[1], "--ignore-term")) {
            signal(SIGTERM, SIG_IGN); /* a compositor slow to stop: only SIGKILL ends it */
            argv++;
            argc--;
        } else
            break;
    }
    p.mode = argc > 1 ? argv[1] : "behave";
    p.n = argc > 2 ? atoi(argv[2]) : 0;
    p.arg = argc > 3 ? atoi(argv[3]) : 0;
    return p;
}

/* Holds a server grab for ms (0: until killed), reading nothing, then lets it go. */
static void grab_for(int ms)
{
    xcb_grab_server(c);
    xh_round_trip(c);
    int64_t end = now_ms() + ms;
    for (;;) {
        int64_t left = end - now_ms();
        if (ms > 0 && left <= 0)
            break;
        poll(NULL, 0, ms > 0 ? (int)left : -1);
    }
    xcb_ungrab_server(c);
    fprintf(stderr, "bad-wm: released the grab after %d ms\n", ms);
}

/* The Nth MapRequest of a scripted client (with --once: only while FILE does not exist yet). */
static bool misbehaves_now(struct plan *p, bool counted)
{
    if (!counted || p->maps != p->n)
        return false;
    if (!p->once)
        return true;
    int fd = open(p->once, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0)
        return false;
    close(fd);
    return true;
}

static void on_map_request(struct plan *p, xcb_window_t w)
{
    bool counted = is_scripted_client(w);
    p->maps += counted;
    fprintf(stderr, "bad-wm: MapRequest of window %u%s (%d)\n", w, counted ? ", a scripted client" : "", p->maps);
    if (misbehaves_now(p, counted)) {
        fprintf(stderr, "bad-wm: MapRequest %d of window %u: %s\n", p->maps, w, p->mode);
        if (!strcmp(p->mode, "crash-on-map"))
            die_by(SIGSEGV);
        if (!strcmp(p->mode, "exit-on-map"))
            exit(p->arg);
        if (!strcmp(p->mode, "stop-on-map"))
            raise(SIGSTOP);
        if (!strcmp(p->mode, "grab-on-map"))
            grab_for(p->arg);
    }
    xcb_map_window(c, w);
}

static void on_configure_request(const xcb_configure_request_event_t *r)
{
    uint32_t v[7];
    int k = 0;
    uint16_t m = r->value_mask & (XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y | XCB_CONFIG_WINDOW_WIDTH |
                                  XCB_CONFIG_WINDOW_HEIGHT | XCB_CONFIG_WINDOW_BORDER_WIDTH);
    if (m & XCB_CONFIG_WINDOW_X) v[k++] = (uint32_t)r->x;
    if (m & XCB_CONFIG_WINDOW_Y) v[k++] = (uint32_t)r->y;
    if (m & XCB_CONFIG_WINDOW_WIDTH) v[k++] = r->width;
    if (m & XCB_CONFIG_WINDOW_HEIGHT) v[k++] = r->height;
    if (m & XCB_CONFIG_WINDOW_BORDER_WIDTH) v[k++] = r->border_width;
    xcb_configure_window(c, r->window, m, v);
}

/* Connected, never taking WM_S0: waits for SIGTERM. */
static int never_ready(void)
{
    fprintf(stderr, "bad-wm: connected, never taking WM_S0\n");
    sigset_t term;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    int sig;
    sigprocmask(SIG_BLOCK, &term, NULL);
    sigwait(&term, &sig);
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stderr, NULL, _IOLBF, 0);
    struct plan p = parse_args(argc, argv);
    if (!strcmp(p.mode, "crash-at-start")) {
        fprintf(stderr, "bad-wm: crashing at start\n");
        die_by(SIGSEGV);
    }
    if (!strcmp(p.mode, "exit-at-start")) {
        fprintf(stderr, "bad-wm: exiting at start with status %d\n", p.n);
        return p.n;
    }
    c = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(c)) {
        fprintf(stderr, "bad-wm: cannot connect to the X server\n");
        return 1;
    }
    scr = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
    if (!strcmp(p.mode, "never-ready"))
        return never_ready();
    become_wm();
    xcb_generic_event_t *ev;
    while ((ev = xcb_wait_for_event(c))) {
        switch (ev->response_type & 0x7F) {
        case XCB_MAP_REQUEST: on_map_request(&p, ((xcb_map_request_event_t *)ev)->window); break;
        case XCB_CONFIGURE_REQUEST: on_configure_request((xcb_configure_request_event_t *)ev); break;
        }
        free(ev);
        xcb_flush(c);
    }
    fprintf(stderr, "bad-wm: X connection lost\n");
    return 0;
}
