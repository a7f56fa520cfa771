/* Faults crash-during-probe and hang-during-probe (probebreak.h). */
#include "probebreak.h"

#include "faults.h"
#include "log.h"
#include "state.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

/* The suite probes a compositor with about a dozen scenarios of one or two windows right after it
 * starts, so the 4th MapRequest breaks it during the probes, and a restarted fake-wm (counting from
 * 0 again) every few windows of the cases. */
#define BREAKING_MAP_REQUEST 4

static _Noreturn void crash_now(xcb_window_t id)
{
    logmsg("window %u: MapRequest %d since the start: aborting (fault crash-during-probe)", id,
           BREAKING_MAP_REQUEST);
    /* no core file: the self-test crashes it hundreds of times */
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    abort();
}

static _Noreturn void hang_now(xcb_window_t id)
{
    logmsg("window %u: MapRequest %d since the start: no X event is handled from now on, the connections stay "
           "open (fault hang-during-probe)",
           id, BREAKING_MAP_REQUEST);
    x_flush();
    /* the main loop took SIGTERM and SIGINT through a signalfd, which nothing reads now: back to their
     * default action, so that the harness's SIGTERM ends the process as its SIGKILL would */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    sigprocmask(SIG_UNBLOCK, &stop, NULL);
    for (;;)
        pause();
}

void probe_break_at_map_request(xcb_window_t id)
{
    static int handled;
    if (!FAULT(CRASH_DURING_PROBE) && !FAULT(HANG_DURING_PROBE))
        return;
    if (++handled < BREAKING_MAP_REQUEST)
        return;
    if (FAULT(CRASH_DURING_PROBE))
        crash_now(id);
    hang_now(id);
}
