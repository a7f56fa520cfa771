/* The capture oracle (source "screen", like oracle-screen.h): what the compositor shows at each
 * window of the case, from the compositor's own picture of its screen (capture.h: a
 * `screen-capture:` command), for a compositor whose X server's root shows nothing (a rootless
 * Xwayland).  It writes the same records as the root oracle,
 *
 *   shows client=A window=XID frame=K rgb=RRGGBB x=X y=Y mapped=0|1 via=capture|map|unmap|create rtt_us=R
 *
 * so the cases read it unchanged.  A capture takes 30 to 200 ms (a process, and the compositor's
 * rendering of the picture), so the screen is sampled, not watched: while a case has a window,
 * one capture (of the box around every window's centre) is always under way, the next starting
 * CAPTURE_GAP_MS after the last ended, and at once when a client reports something (a create, a
 * map, a paint, a counter).  t is when the capture's output ended: the compositors take the
 * picture at their next frame after the request (KWin's screenshot effect, wlroots' screencopy), so
 * what it shows was on screen somewhere between the request and t, and t is the earliest time the
 * suite may say it was shown (rtt_us: how long the capture took).  A frame shown for less than one capture's
 * time can be missed, so a `none` on this oracle is only as fine as its sampling: the report says
 * which oracle served.
 *
 * The windows come from the clients' records and StructureNotify on its own connection, as for
 * the root oracle; coordinates are root coordinates, which must be the output's (true for sway,
 * KWin and mutter; not for weston: compositors/README.md). */
#ifndef FRAMESYNC_ORACLE_CAPTURE_H
#define FRAMESYNC_ORACLE_CAPTURE_H

#include <stddef.h>
#include "capture.h"
#include "oracle.h"
#include "xserver.h"

/* Checks the command once (a capture of the whole screen must come back as a PPM of its size);
 * NULL with err when it does not work.  The capture is copied; desc says what serves and how
 * long the check took. */
struct oracle *oracle_capture_create(struct xserver *x, const struct capture *cap, char *desc, size_t desclen,
                                     char *err, size_t errlen);

#endif
