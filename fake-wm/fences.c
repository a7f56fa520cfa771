/* _NET_WM_SYNC_FENCES (draft-2011): the client's XSync fences, read at map; before showing the
 * update that ended at even N the compositor waits on the fence at index (N/2) % L with SYNC
 * AwaitFence on its own connection (the X-level equivalent of glWaitSync: only the compositor's
 * request stream waits), then resets it.  For contents not covered by a client fence (damage
 * outside updates, or a window without fences) it triggers and awaits a fence of its own. */
#include "fences.h"

#include "faults.h"
#include "features.h"
#include "log.h"
#include "state.h"
#include "propdecode.h"

#include <stdlib.h>

static xcb_sync_fence_t own_fence;


void fences_read(struct win *w)
{
    w->nfences = 0;
    if (!fences_supported())
        return;
    xcb_get_property_reply_t *r = xcb_get_property_reply(
        X.c, xcb_get_property(X.c, 0, w->id, atom(A_NET_WM_SYNC_FENCES), XCB_GET_PROPERTY_TYPE_ANY, 0, MAX_FENCES),
        NULL);
    uint32_t v[MAX_FENCES];
    int n = 0;
    enum prop_verdict pv = r ? prop_decode_xids(r->type, r->format, xcb_get_property_value(r),
                                                (size_t)xcb_get_property_value_length(r), v, MAX_FENCES, &n)
                             : PROP_ABSENT;
    if (pv == PROP_ABSENT) {
        free(r);
        return;
    }
    if (pv != PROP_OK) {
        logmsg("window %u: _NET_WM_SYNC_FENCES is not a non-empty CARDINAL/32 list: ignored", w->id);
        free(r);
        return;
    }
    if (n > MAX_FENCES)
        n = MAX_FENCES;
    for (int i = 0; i < n; i++) {
        xcb_generic_error_t *err = NULL;
        xcb_sync_query_fence_reply_t *q = xcb_sync_query_fence_reply(X.c, xcb_sync_query_fence(X.c, v[i]), &err);
        if (!q) {
            logmsg("window %u: _NET_WM_SYNC_FENCES item %d (%u) is not a fence: fences ignored", w->id, i, v[i]);
            free(err);
            free(r);
            w->nfences = 0;
            return;
        }
        free(q);
        w->fences[i] = v[i];
    }
    w->nfences = n;
    logmsg("window %u: %d fences in _NET_WM_SYNC_FENCES", w->id, n);
    free(r);
}

void fences_start(void)
{
    if (!fences_supported())
        return;
    own_fence = xcb_generate_id(X.pc);
    xcb_sync_create_fence(X.pc, X.root, own_fence, 0);
}

static void own_cycle(void)
{
    if (!fences_supported() || FAULT(NO_OWN_FENCE) || own_fence == XCB_NONE)
        return;
    xcb_sync_trigger_fence(X.pc, own_fence);
    xcb_sync_await_fence(X.pc, 1, &own_fence);
    xcb_sync_reset_fence(X.pc, own_fence);
    logv("own fence %u triggered and awaited", own_fence);
}

xcb_sync_fence_t fences_before_update(struct win *w, int64_t n)
{
    if (!fences_supported())
        return XCB_NONE;
    if (w->nfences == 0) {
        own_cycle();
        return XCB_NONE;
    }
    if (FAULT(NO_FENCE_WAIT)) {
        logmsg("window %u: update %lld shown without waiting on its fence (fault no-fence-wait)", w->id,
               (long long)n);
        return XCB_NONE;
    }
    int64_t L = w->nfences;
    int64_t idx = ((n / 2) % L + L) % L;
    if (FAULT(WRONG_FENCE))
        idx = (idx + 1) % L;
    xcb_sync_fence_t f = w->fences[idx];
    xcb_sync_await_fence(X.pc, 1, &f);
    logmsg("window %u: update %lld: waiting on fence %u (index %lld of %lld)%s", w->id, (long long)n, f,
           (long long)idx, (long long)L, FAULT(WRONG_FENCE) ? " (fault wrong-fence)" : "");
    return f;
}

void fences_after_update(xcb_sync_fence_t f)
{
    xcb_sync_reset_fence(X.pc, f);
}

void fences_own_before_paint(void)
{
    own_cycle();
}

void fences_timeout(xcb_sync_fence_t f, const struct win *w)
{
    logmsg("window %u: fence %u not triggered after %d ms, triggering it to carry on", w ? w->id : 0, f,
           opt.sync_timeout_ms);
    /* the compositor connection is blocked in AwaitFence: release it from the WM connection */
    xcb_sync_trigger_fence(X.c, f);
    xcb_flush(X.c);
}
