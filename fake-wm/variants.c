/* The variant table: one row per `--variant NAME`, shared by --list-variants, the option parser
 * and the code (which tests VARIANT(NAME)).  A variant switches on one behaviour that the texts
 * allow but fake-wm does not do by default, the way a named real compositor does it, so that the
 * suite can be shown to give no false FAIL on it.  Everything a variant does not name stays as by
 * default; faults (`--inject`) combine with variants and still break exactly their clause.
 *
 * Adding a variant: a V_ id in variants.h, a row here (and a conflict row if it contradicts another
 * one), and its behaviour where that behaviour lives, tested with VARIANT(NAME). */
#include "variants.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct variant_desc variant_table[V_COUNT] = {
    {V_KEYBOARD_ONLY, "keyboard-only",
     "sync requests only in keyboard resizes (_NET_WM_MOVERESIZE_SIZE_KEYBOARD); a client's ConfigureRequest "
     "is applied at once without a request; pointer-driven _NET_WM_MOVERESIZE is ignored (logged)",
     "metacity, marco, openbox"},
    {V_POINTER_ONLY, "pointer-only",
     "sync requests only in pointer-driven resizes (_NET_WM_MOVERESIZE SIZE_TOPLEFT..SIZE_LEFT); a client's "
     "ConfigureRequest is applied at once without a request; keyboard _NET_WM_MOVERESIZE is ignored (logged)",
     "KWin"},
    {V_INTERACTIVE_ONLY, "interactive-only",
     "sync requests in keyboard and pointer resizes only; a client's ConfigureRequest is applied at once "
     "without a request",
     "mutter, xfwm4"},
    {V_CONFIGURE_UNSERIALISED, "configure-unserialised",
     "a client's size-changing ConfigureRequest still gets its sync request before the configure, but is "
     "applied at once, also while an earlier request is unanswered (no queueing, no wait for the counter); "
     "interactive resizes still wait and queue",
     "no named compositor for client resizes; compiz's grid plugin does this for its own resizes (request, "
     "then configure, without waiting)"},
    {V_RESTART_COUNTER, "restart-counter",
     "basic form: at the start of each resize (a client's size-changing ConfigureRequest not queued behind "
     "another request, or the first request of a keyboard or pointer resize) it sets the counter to 0 and "
     "restarts the request values at 1; within one interactive resize they go 1, 2, 3...",
     "openbox (do_resize), marco"},
    {V_SYNC_AT_MAP, "sync-at-map",
     "basic-form requests only (it is basic-only as well, holding included; so are the compositors that do "
     "this): at the MapRequest of a window "
     "that takes part in the protocol it sends a sync request (after setting the counter at manage) and maps "
     "the window only when the counter reaches it or the sync timeout passes; ConfigureRequests as by default",
     "compiz, KWin when compositing"},
    {V_BASIC_ONLY, "basic-only",
     "no extended form of requests in any profile: of two counters in _NET_WM_SYNC_REQUEST_COUNTER the first is "
     "used as a basic-form counter (set at manage, values +1, l[4] = 0); the compositor still follows the "
     "second and holds the window while it is odd (updates and odd maps, with the usual hold timeout); no "
     "drawn or timings messages, no fences, and none of their atoms listed",
     "KWin, compiz, metacity, marco, openbox (as to their requests)"},
    {V_WM_ONLY, "wm-only",
     "a window manager without compositing: no _NET_WM_CM_S0, no redirection, no painting, so no drawn "
     "messages, fences or holding, and none of their atoms listed (also --no-composite)",
     "metacity, marco, openbox, xfwm4 with compositing off"},
    {V_CM_ONLY, "cm-only",
     "a compositing manager without a WM: no WM_S0, no SubstructureRedirect, no _NET_SUPPORTING_WM_CHECK, "
     "no _NET_SUPPORTED, no sync requests, never sets a counter; owns _NET_WM_CM_S0 and composites every "
     "mapped toplevel (the clients map themselves); follows the second counter of windows with two and "
     "holds odd updates, but sends no drawn or timings messages and waits on no fences",
     "picom, xcompmgr (this variant also does the delimited-updates part a compositor may do)"},
    {V_COMPRESS, "compress",
     "one drawn message per window per repaint, for the last of the updates that repaint shows (also "
     "--compress)",
     "a compositor that reports per painted frame, not per update (the draft allows it)"},
    {V_FADE_IN, "fade-in",
     "every newly mapped window fades in over 250 ms (opacity 0 to 1, one step per repaint at the refresh "
     "rate, XRender Over with a solid alpha mask); the first-paint drawn message follows the first paint of "
     "the fade; a later completed update ends the fade (updates are shown at full opacity)",
     "mutter's default plugin, muffin, cinnamon"},
    {V_HOLD_1S, "hold-1s",
     "gives up holding a window whose extended counter is odd after 1000 ms (--hold-timeout-ms 1000)",
     "mutter (about 1 s)"},
    {V_HOLD_4S, "hold-4s",
     "gives up holding a window whose extended counter is odd after 4000 ms (--hold-timeout-ms 4000)",
     "none of the named ones; the draft sets no bound"},
    {V_DELAYED_OTHERS, "delayed-others",
     "while any window is held (extended counter odd), damage of other windows already shown is painted only "
     "200 ms after it arrived (the draft: \"may either update it immediately or wait for a short timeout\"); "
     "held windows as by default",
     "none of the named ones is known to; the draft allows it in so many words"},
    {V_SLOW_REFRESH, "slow-refresh",
     "repaints at most 20 times a second (a 50 ms frame timer; --refresh-hz 20)",
     "xfwm4"},
    {V_NO_DRAWN, "no-drawn",
     "no drawn and no timings messages in any profile, and neither atom listed (extended form, holding and "
     "fences as by default)",
     "a compositor that delimits updates but never reports frames (none of the named ones does the extended "
     "form without drawn messages)"},
    {V_NO_FENCES, "no-fences",
     "_NET_WM_SYNC_FENCES ignored: no wait on client fences, no fence of its own, the atom not listed",
     "mutter and every other compositor (the draft's fences were never implemented)"},
    {V_NO_TIMINGS, "no-timings",
     "de-facto: _NET_WM_FRAME_DRAWN without _NET_WM_FRAME_TIMINGS, which is not listed",
     "a de-facto compositor that implements only _NET_WM_FRAME_DRAWN (GTK needs only that one)"},
    {V_ANSWER_4S, "answer-4s",
     "gives up waiting for a sync request's answer (or a client's fence) after 4000 ms (--sync-timeout-ms 4000)",
     "none of the named ones (openbox waits 2 s a round, mutter 1 s, xfwm4 500 ms); no text sets a bound"},
    {V_DROP_STEPS, "drop-steps",
     "a step of a keyboard or pointer resize made while the window's last request is unanswered is dropped, "
     "not queued: the next step after the answer (or the timeout) is applied; a client's own ConfigureRequest is "
     "still queued",
     "xfwm4 (clientResizeConfigure, src/moveresize.c)"},
    {V_PER_OUTPUT_CLOCK, "per-output-clock",
     "each output is painted at its own cadence (output 0 at --refresh-hz, output 1 at 12/5 of it: 144 Hz beside "
     "60 Hz), and a window's updates are shown, and its drawn messages sent, by the paints of the output that "
     "shows most of it; the outputs are the RandR 1.5 monitors the server lists (a monitor that holds another "
     "is the whole a client divided, not an output), or the screen's left and right halves when it lists fewer than two",
     "mutter on Wayland (a frame clock per stage view, one view per CRTC, Xwayland windows included)"},
    {V_XWAYLAND_COMMITS, "xwayland-commits",
     "holds a window's Xwayland commits while its sync request is outstanding: _XWAYLAND_ALLOW_COMMITS = 0 on the "
     "window when it starts waiting for the answer, 1 when the answer comes or the wait times out (under Xvfb the "
     "property does nothing; the request oracle sees it)",
     "mutter on Wayland (meta_window_actor_x11_set_frozen -> meta_window_x11_freeze_commits), KWin 6.3, Smithay"},
};

bool variant_on[V_COUNT];

/* Pairs that cannot be on together: one contradicts the other, or makes it a no-op that a run
 * would silently not test.  Checked both ways round. */
static const struct {
    enum variant_id a, b;
    const char *why;
} conflicts[] = {
    {V_KEYBOARD_ONLY, V_POINTER_ONLY, "each says which interactive resizes get sync requests"},
    {V_KEYBOARD_ONLY, V_INTERACTIVE_ONLY, "each says which interactive resizes get sync requests"},
    {V_POINTER_ONLY, V_INTERACTIVE_ONLY, "each says which interactive resizes get sync requests"},
    {V_KEYBOARD_ONLY, V_CONFIGURE_UNSERIALISED, "keyboard-only sends no request for a client's ConfigureRequest"},
    {V_POINTER_ONLY, V_CONFIGURE_UNSERIALISED, "pointer-only sends no request for a client's ConfigureRequest"},
    {V_INTERACTIVE_ONLY, V_CONFIGURE_UNSERIALISED,
     "interactive-only sends no request for a client's ConfigureRequest"},
    {V_WM_ONLY, V_CM_ONLY, "one is a WM without a compositor, the other a compositor without a WM"},
    {V_CM_ONLY, V_KEYBOARD_ONLY, "a compositor without a WM sends no sync requests at all"},
    {V_CM_ONLY, V_POINTER_ONLY, "a compositor without a WM sends no sync requests at all"},
    {V_CM_ONLY, V_INTERACTIVE_ONLY, "a compositor without a WM sends no sync requests at all"},
    {V_CM_ONLY, V_CONFIGURE_UNSERIALISED, "a compositor without a WM sends no sync requests at all"},
    {V_CM_ONLY, V_RESTART_COUNTER, "a compositor without a WM never sets a counter"},
    {V_CM_ONLY, V_SYNC_AT_MAP, "a compositor without a WM sends no sync requests at all"},
    {V_CM_ONLY, V_BASIC_ONLY, "cm-only follows only extended-form counters, and basic-only has none"},
    {V_CM_ONLY, V_COMPRESS, "compress shapes drawn messages, and cm-only sends none"},
    {V_CM_ONLY, V_NO_DRAWN, "cm-only sends no drawn messages anyway"},
    {V_CM_ONLY, V_NO_FENCES, "cm-only does no fences anyway"},
    {V_CM_ONLY, V_NO_TIMINGS, "cm-only sends no timings anyway"},
    {V_WM_ONLY, V_COMPRESS, "compress shapes drawn messages, and a WM without compositing sends none"},
    {V_WM_ONLY, V_NO_DRAWN, "a WM without compositing sends no drawn messages anyway"},
    {V_WM_ONLY, V_FADE_IN, "a WM without compositing paints nothing"},
    {V_WM_ONLY, V_HOLD_1S, "a WM without compositing holds nothing"},
    {V_WM_ONLY, V_HOLD_4S, "a WM without compositing holds nothing"},
    {V_WM_ONLY, V_DELAYED_OTHERS, "a WM without compositing paints nothing"},
    {V_WM_ONLY, V_SLOW_REFRESH, "a WM without compositing does not repaint"},
    {V_HOLD_1S, V_HOLD_4S, "each sets the hold timeout"},
    {V_WM_ONLY, V_NO_FENCES, "a WM without compositing does no fences anyway"},
    {V_WM_ONLY, V_NO_TIMINGS, "a WM without compositing sends no timings anyway"},
    {V_BASIC_ONLY, V_COMPRESS, "compress shapes drawn messages, and basic-only sends none"},
    {V_BASIC_ONLY, V_NO_DRAWN, "basic-only sends no drawn messages anyway"},
    {V_BASIC_ONLY, V_NO_FENCES, "basic-only does no fences anyway"},
    {V_BASIC_ONLY, V_NO_TIMINGS, "basic-only sends no timings anyway"},
    {V_NO_DRAWN, V_COMPRESS, "compress shapes drawn messages, and no-drawn sends none"},
    {V_NO_DRAWN, V_NO_TIMINGS, "no-drawn sends no timings either"},
    {V_CM_ONLY, V_ANSWER_4S, "a compositor without a WM sends no sync requests to wait for"},
    {V_CM_ONLY, V_DROP_STEPS, "a compositor without a WM runs no interactive resize"},
    {V_CM_ONLY, V_XWAYLAND_COMMITS, "a compositor without a WM sends no sync requests to hold commits for"},
    {V_WM_ONLY, V_PER_OUTPUT_CLOCK, "a WM without compositing paints nothing"},
};

int variant_lookup(const char *name)
{
    for (int i = 0; i < V_COUNT; i++)
        if (strcmp(variant_table[i].name, name) == 0)
            return i;
    return -1;
}

void variants_list(void)
{
    for (int i = 0; i < V_COUNT; i++)
        printf("%s\t%s\t%s\n", variant_table[i].name, variant_table[i].what, variant_table[i].like);
}

void variants_names(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < V_COUNT; i++) {
        int k = snprintf(buf + used, n - used, "%s%s", used ? ", " : "", variant_table[i].name);
        if (k < 0 || (size_t)k >= n - used)
            break;
        used += (size_t)k;
    }
}

void variants_describe(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < V_COUNT; i++) {
        if (!variant_on[i])
            continue;
        int k = snprintf(buf + used, n - used, "%s%s", used ? "," : "", variant_table[i].name);
        if (k < 0 || (size_t)k >= n - used)
            break;
        used += (size_t)k;
    }
    if (!used)
        snprintf(buf, n, "none");
}

/* exits 2 with a message naming both variants when two of them cannot be combined */
void variants_check_conflicts(void)
{
    bool bad = false;
    for (size_t i = 0; i < sizeof conflicts / sizeof conflicts[0]; i++) {
        if (variant_on[conflicts[i].a] && variant_on[conflicts[i].b]) {
            fprintf(stderr, "fake-wm: variants %s and %s cannot be combined: %s\n", variant_table[conflicts[i].a].name,
                    variant_table[conflicts[i].b].name, conflicts[i].why);
            bad = true;
        }
    }
    if (bad)
        exit(2);
}
