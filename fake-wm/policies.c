/* The policy table: one row per `--policy NAME` (policies.h).  Each row says what fake-wm does
 * under it and which compositor, in which function of its source, behaves so (read in the
 * sources named; the versions are those the rows cite).  The behaviours live where fake-wm does
 * that work: wmwindows.c (the request at manage), comppaint.c (not painted before the answer; the
 * frame clock), drawn.c (the missed drawn message), control.c (another size), options.c (the
 * timeouts, and sync-at-map's variant).  policynotes.c tells the observer what the policy did. */
#include "policies.h"

#include <stdio.h>
#include <string.h>

const struct policy_desc policy_table[P_COUNT] = {
    {P_NONE, "none", "fake-wm as it is, without notes to the observer (compositor runs)", "-"},
    {P_REFERENCE, "reference",
     "fake-wm as it is: a window is shown by the first paint after its map, drawn messages follow each paint at "
     "once, a sync request is waited for 1000 ms",
     "the reference compositor (fake-wm/README.md)"},
    {P_SHOW_AFTER_FIRST_ANSWER, "show-after-first-answer",
     "at the MapRequest of a window with a counter, a sync request (in the window's form), the window mapped at "
     "once, but not painted until the counter reaches the request or 1000 ms pass; later requests as usual",
     "KWin 6.x, src/x11window.cpp: X11Window::manage calls sendSyncRequest() (\"getting the first sync response "
     "means window is ready for compositing\"); sendSyncRequest starts m_syncRequest.timeout with "
     "ready_for_painting ? 10000 : 1000; ackSyncTimeout -> finishSync -> setReadyForPainting"},
    {P_SYNC_AT_MAP, "sync-at-map",
     "basic-form requests only; at the MapRequest a sync request, and the MapWindow only once the counter reaches "
     "it or 1000 ms pass (fake-wm --variant sync-at-map)",
     "compiz 0.9, src/window.cpp: the map path sends CompWindow::sendSyncRequest (syncWait set, "
     "syncWaitTimer.start (handleSyncAlarm, 1000, 1200)) and maps once the alarm or the timer ends the wait"},
    {P_FRAME_CLOCK_DRAWN, "frame-clock-drawn",
     "the screen is painted only on the ticks of a free-running 60 Hz frame clock (phase fixed at the start), and "
     "the drawn messages follow those paints: an update's message comes 0-16.7 ms after its end, never at once",
     "mutter 43-47, src/compositor/meta-window-actor-x11.c: do_send_frame_drawn runs after the stage's paint, "
     "which its frame clock schedules at the refresh; an actor not painted is reported by "
     "queue_send_frame_messages_timeout / send_frame_messages_timeout, also at the refresh interval"},
    {P_DRAWN_MISSED_ONCE, "drawn-missed-once",
     "lists the drawn messages and sends them, except for one update of each window: the first that ends 500 ms "
     "or more after the window was first shown never gets its message",
     "a compositor that lists _NET_WM_FRAME_DRAWN and misses one message (issue 31: a WebView reparented under "
     "mutter froze GTK for ever); mutter reports frames it did not paint only through "
     "send_frame_messages_timeout (meta-window-actor-x11.c); no text says every update gets its message"},
    {P_OTHER_SIZE, "other-size",
     "a resize asked of the WM (the control channel's) is configured 23 pixels smaller on each axis (within "
     "WM_NORMAL_HINTS) than asked, with its sync request: the client must paint and answer at the size given",
     "mutter src/core/constraints.c (meta_window_constrain: work area, size increments, aspect) and every tiling "
     "WM: ICCCM 4.1.5 lets a WM give another size than the one asked"},
    {P_SLOW_ANSWER_TIMEOUT, "slow-answer-timeout",
     "a sync request is waited for 10000 ms (--sync-timeout-ms 10000): a late answer holds the resize that long",
     "KWin 6.x, src/x11window.cpp: sendSyncRequest's m_syncRequest.timeout is 10000 ms once the window is ready "
     "for painting"},
};

enum policy_id policy = P_NONE;

bool policy_select(const char *name)
{
    for (int i = 0; i < P_COUNT; i++)
        if (name && !strcmp(policy_table[i].name, name)) {
            policy = (enum policy_id)i;
            return true;
        }
    return false;
}

void policies_list(void)
{
    for (int i = P_REFERENCE; i < P_COUNT; i++)
        printf("%s\t%s\t%s\n", policy_table[i].name, policy_table[i].what, policy_table[i].source);
}

void policies_names(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = P_REFERENCE; i < P_COUNT; i++) {
        int k = snprintf(buf + used, n - used, "%s%s", used ? ", " : "", policy_table[i].name);
        if (k < 0 || (size_t)k >= n - used)
            break;
        used += (size_t)k;
    }
}
