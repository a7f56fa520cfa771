/* The stream oracle (source "screen", like oracle-screen.h and oracle-capture.h): what the
 * compositor shows at each window of the case, from every frame it composites (stream.h: a
 * `screen-stream:` helper, tools/wlr-capture for wlroots), for a compositor whose X server's root
 * shows nothing.  It writes the records of the other screen oracles,
 *
 *   shows client=A window=XID frame=K rgb=RRGGBB x=X y=Y mapped=0|1 via=frame|still|create|map|unmap
 *         seq=N since_us=S
 *
 * with t the time of the compositor's frame that first showed it (its commit): not a sample, so a
 * frame shown for one refresh is seen.  since_us is that same time when no frame can be missing
 * before it, and the previous frame's time after a gap (the helper had no copy pending for a
 * while: it says so); a gap itself is a record, `capture-gap seq=N gap_us=G since_us=S`, and a
 * `none` on the screen over a gap is UNRESOLVED, never a pass (run-wait.c).  A `still` is the
 * screen at the moment the helper was asked for new points (after a round trip): what a window
 * shows when it appears, or is mapped or unmapped, without a new frame.
 *
 * The windows come from the clients' records and StructureNotify, as for the other screen
 * oracles; root coordinates must be the output's (true for sway and cage). */
#ifndef FRAMESYNC_ORACLE_STREAM_H
#define FRAMESYNC_ORACLE_STREAM_H

#include <stddef.h>
#include "capture.h"
#include "oracle.h"
#include "stream.h"
#include "xserver.h"

/* Starts the helper (command, with cap's env, log and timeout) and waits for its first frame;
 * NULL with err when it does not work.  While the oracle lives, cap->stream is its stream, so
 * capture_region (the liveness barrier, snapshots) reads the latest frame. */
struct oracle *oracle_stream_create(struct xserver *x, struct capture *cap, const char *command, char *desc,
                                    size_t desclen, char *err, size_t errlen);

#endif
