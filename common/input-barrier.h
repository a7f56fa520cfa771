/* The barrier before an event that goes through a compositor's own seat (`input-barrier:` of a
 * conf, `--input-barrier KIND`; fake-clients/scripted-client/barrier.c makes it).
 *
 * Through the seat, the keys and pointer of an interactive resize reach the compositor on another
 * connection than the client's X requests: a compositor that handles the seat's events at once
 * may take a key before an X event the client caused earlier (the alarm of its answer to a sync
 * request), and drop the step (KWin under Wayland: X11Window::isWaitingForInteractiveMoveResizeSync
 * is still true).  A barrier is a round trip through the WM on the client's X connection, which the
 * WM answers only after it has handled every X event before it; the seat's event goes out after
 * the answer.  The harness checks the kind (its conf or option) and hands it to the fake clients
 * (FRAMESYNC_INPUT_BARRIER); both read it here.
 *
 *   none                 no barrier (the default): XTEST, or a compositor whose seat input comes
 *                        after the X events already there (mutter's input thread)
 *   fullscreen-monitors  an EWMH _NET_WM_FULLSCREEN_MONITORS message for the window (monitors
 *                        0 0 0 0), answered by the WM's write of the window's property of that
 *                        name (PropertyNotify): KWin writes it at every such message
 *                        (X11Window::updateFullscreenMonitors -> NETWinInfo::setFullscreenMonitors),
 *                        the same value every time, with no effect unless the window is
 *                        fullscreen (then on monitor 0, its only output) */
#ifndef FRAMESYNC_INPUT_BARRIER_H
#define FRAMESYNC_INPUT_BARRIER_H

enum input_barrier { INPUT_BARRIER_NONE, INPUT_BARRIER_FULLSCREEN_MONITORS, INPUT_BARRIER_COUNT };

/* the kinds, for messages: "none or fullscreen-monitors" */
#define INPUT_BARRIER_KINDS "none or fullscreen-monitors"

/* The kind by name; -1 when name is none of them (NULL or "" is none of them either). */
int input_barrier_parse(const char *name);
/* Its name ("none" for anything out of range). */
const char *input_barrier_name(int kind);

#endif
