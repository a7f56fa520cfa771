/* What fake-wm does, from the profile and the variants (faults aside): the answers every part
 * asks the same way, so that what is listed in _NET_SUPPORTED and what is done agree. */
#ifndef FAKEWM_FEATURES_H
#define FAKEWM_FEATURES_H

#include <stdbool.h>

#include "state.h"
#include "variants.h"

/* a window manager (WM_S0, SubstructureRedirect, sync requests); cm-only is a compositor alone */
static inline bool is_wm(void) { return !VARIANT(CM_ONLY); }
/* windows with two counters use the extended form */
static inline bool extended_form_available(void) { return profile_extended() && !VARIANT(BASIC_ONLY); }
/* drawn messages (_NET_WM_SYNC_DRAWN / _NET_WM_FRAME_DRAWN) are sent and listed */
static inline bool drawn_supported(void)
{
    /* cm-only cannot advertise them (no _NET_SUPPORTED), and clients wait only for what is listed */
    return opt.composite && is_wm() && extended_form_available() && !VARIANT(NO_DRAWN);
}
/* _NET_WM_FRAME_TIMINGS follows each _NET_WM_FRAME_DRAWN, and is listed */
static inline bool timings_supported(void)
{
    return drawn_supported() && opt.profile == PROFILE_DEFACTO && !VARIANT(NO_TIMINGS);
}
/* client fences are awaited, the own fence used, _NET_WM_SYNC_FENCES listed */
static inline bool fences_supported(void)
{
    return opt.composite && is_wm() && opt.profile == PROFILE_DRAFT2011 && extended_form_available() &&
           !VARIANT(NO_FENCES);
}

#endif
