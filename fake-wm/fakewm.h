/* fake-wm: shared state and the interfaces between its parts.
 *
 * One process, one thread, two X connections:
 *   wm.c   - the window manager connection `X.c`: WM_S0, SubstructureRedirect, MapRequest /
 *            ConfigureRequest, the sync request protocol, counters and alarms.
 *   composite.c - the compositor connection `X.pc`: _NET_WM_CM_S0, Composite redirection,
 *            DAMAGE, XRender painting into the overlay window, SYNC fences.  Fence waits
 *            (AwaitFence) block only this connection, so the WM keeps working while the
 *            compositor waits, as glWaitSync would block only the GPU.
 *   moveresize.c - _NET_WM_MOVERESIZE: checks it, starts keyboard (keyresize.c) or pointer
 *            (pointerresize.c) resizing with a grab retried on a timer; their steps go through
 *            the same ConfigureRequest path (syncreq.c) as a client's own resize.
 * See README.md for the behaviour; this header only describes the code.
 */
#ifndef FAKEWM_H
#define FAKEWM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <xcb/xcb.h>
#include <xcb/sync.h>
#include <xcb/render.h>
#include <xcb/damage.h>

#include "clock.h"
#include "comp.h"
#include "compsched.h"
#include "pictures.h"
#include "control.h"
#include "drawn.h"
#include "fade.h"
#include "fences.h"
#include "keyresize.h"
#include "moveresize.h"
#include "pointerresize.h"
#include "stage.h"
#include "counters.h"
#include "faults.h"
#include "features.h"
#include "injections.h"
#include "log.h"
#include "selection.h"
#include "state.h"
#include "sync.h"
#include "variants.h"
#include "win.h"
#include "winops.h"
#include "wmevents.h"
#include "wmstart.h"
#include "xhelpers.h"

#endif
