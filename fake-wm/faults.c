/* The fault table: one row per `--inject FAULT`, shared by --list-faults and the code
 * (which tests FAULT(NAME)).  Each fault breaks exactly one clause of cases/clauses.txt. */
#include "faults.h"

#include <stdio.h>
#include <string.h>

const struct fault_desc fault_table[F_COUNT] = {
    {F_SYNC_TO_ALL, "sync-to-all", "ewmh-1.5/basic/participation",
     "sends requests also to windows that do not list _NET_WM_SYNC_REQUEST"},
    {F_WRONG_MESSAGE_TYPE, "wrong-message-type", "ewmh-1.5/basic/request-message",
     "message_type is _NET_WM_SYNC_REQUEST instead of WM_PROTOCOLS"},
    {F_L4_NONZERO_BASIC, "l4-nonzero-basic", "ewmh-1.5/basic/request-message",
     "l[4] = 1 in the basic form"},
    {F_NO_TIMESTAMP, "no-timestamp", "ewmh-1.5/basic/request-message",
     "l[1] = 0 (CurrentTime)"},
    {F_REQUEST_AFTER_CONFIGURE, "request-after-configure", "ewmh-1.5/basic/request-before-configure",
     "configures first, then sends the request"},
    {F_VALUE_ZERO, "value-zero", "ewmh-1.5/basic/value-nonzero",
     "the first request value is 0"},
    {F_VALUE_NOT_INCREASING, "value-not-increasing", "ewmh-1.5/basic/value-increases",
     "every request has the value 1"},
    {F_NO_SET_AT_MANAGE, "no-set-at-manage", "ewmh-1.5/basic/set-at-manage",
     "does not set the counter at manage"},
    {F_NO_WAIT, "no-wait", "ewmh-1.5/basic/wait-for-counter",
     "applies queued resizes without waiting for the counter"},
    {F_SINGLE_COUNTER_EXTENDED, "single-counter-extended", "draft-2011/forms/one-counter-basic",
     "treats a single counter as the extended form"},
    {F_USE_FIRST_COUNTER, "use-first-counter", "draft-2011/extended/second-counter",
     "uses the first counter of an extended window"},
    {F_RESET_EXTENDED, "reset-extended", "draft-2011/extended/no-reset",
     "sets the extended counter at manage (like the basic form)"},
    {F_NO_QUERY_INITIAL, "no-query-initial", "draft-2011/extended/initial-value",
     "takes 0 as the initial value instead of what QueryCounter returns (until the counter changes)"},
    {F_IGNORE_SPONTANEOUS, "ignore-spontaneous", "draft-2011/extended/last-value-seen",
     "request values ignore what the client set on its own: last seen = the initial value or the last value it asked for"},
    {F_ODD_VALUE, "odd-value", "draft-2011/extended/even-value",
     "the request value is odd (last seen + 101)"},
    {F_SMALL_INCREMENT, "small-increment", "draft-2011/extended/plus-100",
     "even but only last seen + 2"},
    {F_INCREMENT_100_DEFACTO, "increment-100-defacto", "de-facto/extended/plus-240",
     "uses +100 in de-facto"},
    {F_NO_L4_MARKER, "no-l4-marker", "de-facto/extended/l4-marker",
     "l[4] = 0 in de-facto extended requests"},
    {F_PAINT_WHILE_ODD, "paint-while-odd", "draft-2011/delimited/hold-while-odd",
     "repaints a window whose counter is odd"},
    {F_PAINT_ODD_MAP, "paint-odd-map", "draft-2011/delimited/map-odd",
     "shows a window mapped with an odd counter at once"},
    {F_BLOCK_FOREVER, "block-forever", "draft-2011/delimited/not-indefinitely",
     "holds an odd window forever"},
    {F_BLOCK_ALL, "block-all", "draft-2011/delimited/others-not-held",
     "stops painting every window while one is odd"},
    {F_NO_DRAWN, "no-drawn", "draft-2011/drawn/after-update",
     "never sends a drawn message after an update"},
    {F_DRAWN_BEFORE_PAINT, "drawn-before-paint", "draft-2011/drawn/after-paint",
     "sends the drawn message when the counter goes even, before the repaint"},
    {F_DRAWN_WRONG_VALUE, "drawn-wrong-value", "draft-2011/drawn/value",
     "the value in the drawn message is off by 2"},
    {F_NO_FIRST_DRAWN, "no-first-drawn", "draft-2011/drawn/first-map",
     "no drawn message after the first paint of a newly mapped extended window"},
    {F_FIRST_DRAWN_AT_MAP, "first-drawn-at-map", "draft-2011/drawn/first-map",
     "sends the first drawn message of a newly mapped extended window as it sees the map, before it has "
     "composited the window"},
    {F_FIRST_DRAWN_BEFORE_MAP, "first-drawn-before-map", "draft-2011/drawn/first-map",
     "sends the first drawn message of a newly mapped extended window when it handles the MapRequest, before it "
     "maps the window (mutter 43.8 does this now and then)"},
    {F_DRAWN_DUPLICATE, "drawn-duplicate", "draft-2011/drawn/once",
     "sends each drawn message twice"},
    {F_DRAWN_MILLISECONDS, "drawn-milliseconds", "de-facto/frame-drawn/microseconds",
     "the drawn time in milliseconds instead of microseconds"},
    {F_NO_FRAME_TIMINGS, "no-frame-timings", "de-facto/frame-timings/after-drawn",
     "no _NET_WM_FRAME_TIMINGS after _NET_WM_FRAME_DRAWN"},
    {F_NOT_ADVERTISED, "not-advertised", "draft-2011/drawn/advertised",
     "sends drawn messages but does not list the atom in _NET_SUPPORTED"},
    {F_ADVERTISED_NOT_SENT, "advertised-not-sent", "draft-2011/drawn/advertised",
     "lists the atom but never sends the message"},
    {F_WRONG_FENCE, "wrong-fence", "draft-2011/fences/index",
     "waits on the fence at index (N/2 + 1) % L"},
    {F_NO_FENCE_WAIT, "no-fence-wait", "draft-2011/fences/wait",
     "does not wait on fences at all"},
    {F_NO_OWN_FENCE, "no-own-fence", "draft-2011/fences/own-fence",
     "no fence of its own for damage outside updates"},
    {F_SYNC_NOT_ADVERTISED, "sync-not-advertised", "ewmh-1.5/root/supported",
     "does the sync protocol but lists neither _NET_WM_SYNC_REQUEST nor _NET_WM_SYNC_REQUEST_COUNTER"},
    {F_DRAWN_TAIL_NONZERO, "drawn-tail-nonzero", "draft-2011/drawn/layout",
     "l[3] = 1 in _NET_WM_SYNC_DRAWN"},
    {F_FRAME_DRAWN_TAIL_NONZERO, "frame-drawn-tail-nonzero", "de-facto/frame-drawn/layout",
     "l[4] = 1 in _NET_WM_FRAME_DRAWN"},
    {F_TIMINGS_WRONG_VALUE, "timings-wrong-value", "de-facto/frame-timings/layout",
     "_NET_WM_FRAME_TIMINGS carries the value off by 2"},
    {F_COMPRESS_TO_FIRST, "compress-to-first", "draft-2011/drawn/compress",
     "holds an update's message 150 ms and compresses the updates shown meanwhile into it, naming the first"},
    {F_FENCES_NOT_ADVERTISED, "fences-not-advertised", "draft-2011/fences/advertised",
     "waits on the clients' fences but leaves _NET_WM_SYNC_FENCES out of _NET_SUPPORTED"},
    {F_L4_MARKER_DRAFT, "l4-marker-draft", "draft-2011/extended/l4-zero",
     "l[4] = 1 (the de-facto marker) in draft-2011 extended requests"},
    {F_HOSTILE_WEDGES, "hostile-wedges", "robustness/hostile/counter-not-a-counter",
     "a hostile window (unusable counter property or counter, a destroyed counter, an unanswered request, a "
     "counter flood, destroyed mid-update) stops the sync requests of every other window until it is gone"},
    {F_HOLD_KEPT_ACROSS_UNMAP, "hold-kept-across-unmap", "lifecycle/unmap/update-ended-shown",
     "a window unmapped while its extended counter is odd is taken to be still in that update when it is mapped "
     "again, whatever its counter says: held like a window mapped odd, until the counter changes or the hold times out"},
    {F_FREEZE_KEPT_ACROSS_UNMAP, "freeze-kept-across-unmap", "lifecycle/unmap/request-outstanding-shown",
     "a window unmapped while its resize waits for the answer keeps its frozen picture across its next map: it is "
     "not shown again until a later resize of it is answered (mutter's Xwayland commit freeze before 49.6 / 50.2)"},
    {F_UNSYNCED_AFTER_UNMAP, "unsynced-after-unmap", "lifecycle/unmap/request-outstanding-synced-again",
     "forgets a window unmapped while its sync request is unanswered: when it is mapped again it gets no sync request "
     "any more (its resizes are applied at once)"},
    {F_MAP_UNSYNCED_AFTER_UNMAP, "map-unsynced-after-unmap", "lifecycle/unmap/request-outstanding-synced-again",
     "syncs at map (as --variant sync-at-map, so basic-form only), but maps a window unmapped while its sync request "
     "was unanswered without a request at its next map (compiz: mapWindow's sendSyncRequest returns at once while "
     "syncWait is still set from before the unmap, src/window.c); later resizes are synced"},
    {F_DESTROYED_HOLD_LINGERS, "destroyed-hold-lingers", "robustness/hostile/window-destroyed-while-odd",
     "the hold of a window destroyed while its extended counter is odd outlives it by --hold-timeout-ms, and "
     "meanwhile the damage of the other windows shown at that moment is not painted (maps and resizes are)"},
    {F_NO_HOLD, "no-hold", "draft-2011/delimited/hold-while-odd",
     "never holds a window while its second counter is odd: updates and windows mapped odd are painted at once"},
    {F_HOLD_TIMEOUT_5MS, "hold-timeout-5ms", "draft-2011/delimited/hold-while-odd",
     "gives up holding a window whose extended counter is odd after 5 ms (as --hold-timeout-ms 5)"},
    {F_ADVERTISES_SYNC_SENDS_NONE, "advertises-sync-sends-none", "ewmh-1.5/root/supported",
     "lists _NET_WM_SYNC_REQUEST and _NET_WM_SYNC_REQUEST_COUNTER in _NET_SUPPORTED but never sends a sync "
     "request: every resize is applied at once"},
    {F_HOLDS_WHOLE_SCREEN, "holds-whole-screen", "draft-2011/delimited/not-indefinitely",
     "from the first moment any window's extended counter is odd, never repaints the screen again (it goes on "
     "managing windows and sending sync requests)"},
    {F_UNSYNCED_AFTER_TIMEOUT, "unsynced-after-timeout", "ewmh-1.5/basic/request-before-configure",
     "once a request to a window times out, that window's resizes get no sync request until its counter "
     "changes again (mutter 43.8: sync_request_timeout sets disable_sync, which only a counter change clears)"},
    {F_UNSYNCED_AFTER_LATE_ANSWER, "unsynced-after-late-answer", "ewmh-1.5/basic/request-before-configure",
     "once a request to a window times out, that window's resizes never get a sync request again, also after "
     "the client's late answer (xfwm4 4.18: clientXSyncTimeout clears CLIENT_FLAG_XSYNC_ENABLED for good; "
     "Cinnamon's muffin stopped syncing a window whose answer came late, HumbleUI/JWM#219)"},
    {F_ANSWER_AFTER_RESIZE_IGNORED, "answer-after-resize-ignored", "ewmh-1.5/basic/request-before-configure",
     "an answer that comes after the interactive resize ended leaves the request's timer running; when it "
     "passes, the window's resizes get no sync request until its counter changes (muffin 4.8-5.2: "
     "meta_window_update_sync_request_counter, src/core/window.c, removes the timeout only while the resize "
     "grab runs, and sync_request_timeout then sets disable_sync: HumbleUI/JWM#219)"},
    {F_UNWAITED_AFTER_TIMEOUT, "unwaited-after-timeout", "ewmh-1.5/basic/wait-for-counter",
     "once a request to a window times out, it still sends that window a request before each resize but no "
     "longer waits for the answers: the next resize follows at once"},
    {F_CONSTRAINED_CONFIGURED_TWICE, "constrained-configured-twice", "ewmh-1.5/basic/request-before-configure",
     "a resize that WM_NORMAL_HINTS keep to another size is configured twice after its one request: first at "
     "the size asked, then at the size they allow (the jump between the two reported of compiz in "
     "Sonic-DE/sonic-win#43)"},
    {F_REQUEST_WITHOUT_CONFIGURE, "request-without-configure", "ewmh-1.5/basic/request-before-configure",
     "a resize step that WM_NORMAL_HINTS keep at the window's current size still gets a sync request, and no "
     "ConfigureNotify follows it (kwin_x11 at the screen's edge, where GTK 4 waits for that configure and "
     "freezes: Sonic-DE/sonic-win#43)"},
    {F_WAIT_ANY_CHANGE, "wait-any-change", "ewmh-1.5/basic/wait-for-counter",
     "ends its wait for an answer at any change of the counter, not when it reaches the value asked: an "
     "extended client's odd \"update begins\" lets the next resize through (xfwm4 4.18: a delta-1 alarm, and "
     "clientXSyncUpdateValue clears CLIENT_FLAG_XSYNC_WAITING whatever the value)"},
    {F_DRAWN_PER_OUTPUT_COUNT, "drawn-per-output-count", "lifecycle/outputs/drawn-in-order",
     "keeps the frame it last reported of a window per output and, when the window comes back to an output it "
     "was on, reports that output's frame of it again (its value, and in de-facto its drawn time) at its first "
     "paint there: the values and times go back when the window moves (a message for an older frame after newer "
     "ones, as mutter 49.0-49.2's per-view frame counters sent _NET_WM_FRAME_TIMINGS after a move; reverted in 49.3)"},
    {F_HOLD_KEPT_AFTER_REPARENT, "hold-kept-after-reparent", "lifecycle/reparent/embedder-not-held",
     "a window that its client reparented into another managed window while its extended counter was odd or its "
     "sync request unanswered passes its hold on to that window: the embedder's picture is kept until the embedded "
     "window's counter is even (or reaches the value asked), or the hold or sync timeout passes (a compositor that "
     "holds the toplevel containing an odd window, as it holds a frame for the client window inside it)"},
    {F_REQUEST_TO_REPARENTED, "request-to-reparented", "lifecycle/reparent/embedded-not-synced",
     "a window that its client reparented into another managed window still gets sync requests as a part of it: "
     "each sync request to the embedder is followed by one to the embedded window (as a reparenting WM's to the "
     "client window inside its frame), never waited for"},
    {F_ADOPTED_ODD_SHOWN, "adopted-odd-shown", "lifecycle/replace/odd-held",
     "a window it adopts at start-up (mapped before it replaced the WM) whose extended counter is odd is taken to "
     "be done with its update: what it draws is shown at once, until the counter goes even"},
    {F_ADOPTED_UNSYNCED, "adopted-unsynced", "lifecycle/replace/request-outstanding-synced-again",
     "a window it adopts at start-up gets no sync request for its resizes, ever (they are applied at once)"},
    {F_REPLACED_KEEPS_HOLD, "replaced-keeps-hold", "lifecycle/replace/update-ended-shown",
     "replaced (--replace), it gives up managing and its WM_S0 window but keeps compositing and never exits, "
     "and each window it held in the middle of an update stays held for ever: the new compositor cannot "
     "redirect, and the window's update is never shown"},
    {F_REPLACED_KEEPS_FREEZE, "replaced-keeps-freeze", "lifecycle/replace/request-outstanding-shown",
     "replaced (--replace), it gives up managing and its WM_S0 window but keeps compositing and never exits, "
     "and each window whose resize waited for its answer keeps the picture it had then for ever"},
    {F_THAWED_BEFORE_ANSWER, "thawed-before-answer", "de-facto/xwayland/thawed-by-answer",
     "holds a window's Xwayland commits for its sync request (_XWAYLAND_ALLOW_COMMITS = 0, as --variant "
     "xwayland-commits) and lets them through again (1) as soon as it has sent the configure, before the answer"},
    {F_SHOWN_WHILE_HELD, "shown-while-held", "de-facto/xwayland/new-geometry-after-answer",
     "holds a window's Xwayland commits for its sync request (as --variant xwayland-commits, and lets them "
     "through at the answer) but shows the window at its new size at once, before the client painted or "
     "answered (as where a WM holds the commits of the client window while its frame's reach the screen)"},
    {F_NEW_BUFFER_IN_OLD_GEOMETRY, "new-buffer-in-old-geometry", "de-facto/xwayland/old-geometry-not-new-buffer",
     "holds a window's Xwayland commits for its sync request (as --variant xwayland-commits) and, at the answer, "
     "shows the answered contents in the window's old size until its next damage: cropped, or black where they "
     "do not reach (KWin 6.3's bounce)"},
    {F_FROZEN_AFTER_TIMEOUT, "frozen-after-timeout", "de-facto/xwayland/thawed-by-timeout",
     "holds a window's Xwayland commits for its sync request (as --variant xwayland-commits) and lets them "
     "through at the answer only: a request that times out leaves them held for good (mutter's commit-freeze "
     "deadlock before 49.6 / 50.2)"},
    {F_CRASH_DURING_PROBE, "crash-during-probe", "compositor/crash",
     "abort()s when it is about to map the 4th window since it started (its 4th MapRequest): during the "
     "probes, and every few windows after each restart"},
    {F_HANG_DURING_PROBE, "hang-during-probe", "compositor/crash",
     "at its 4th MapRequest since it started, stops handling X events for ever with its connections open "
     "(SIGTERM and SIGKILL still end it)"},
};

bool fault_on[F_COUNT];

int fault_lookup(const char *name)
{
    for (int i = 0; i < F_COUNT; i++)
        if (strcmp(fault_table[i].name, name) == 0)
            return i;
    return -1;
}

void faults_list(void)
{
    for (int i = 0; i < F_COUNT; i++)
        printf("%s\t%s\t%s\n", fault_table[i].name, fault_table[i].clause, fault_table[i].what);
}

void faults_describe(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < F_COUNT; i++) {
        if (!fault_on[i])
            continue;
        int k = snprintf(buf + used, n - used, "%s%s", used ? "," : "", fault_table[i].name);
        if (k < 0 || (size_t)k >= n - used)
            break;
        used += (size_t)k;
    }
    if (!used)
        snprintf(buf, n, "none");
}
