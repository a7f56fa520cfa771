/* Fences (fences.c, draft-2011): the client's _NET_WM_SYNC_FENCES awaited before an update is
 * shown, and the compositor's own fence for damage outside updates. */
#ifndef FAKEWM_FENCES_H
#define FAKEWM_FENCES_H

#include <stdint.h>
#include <xcb/sync.h>

#include "win.h"

void fences_read(struct win *w);                 /* at map */
void fences_start(void);                         /* own fence (compositor connection) */
/* before snapshotting update N of w: AwaitFence on the client fence or own fence;
 * returns the client fence awaited (for the timeout) or XCB_NONE */
xcb_sync_fence_t fences_before_update(struct win *w, int64_t n);
void fences_after_update(xcb_sync_fence_t f);
void fences_own_before_paint(void);              /* damage outside updates */
void fences_timeout(xcb_sync_fence_t f, const struct win *w);

#endif
