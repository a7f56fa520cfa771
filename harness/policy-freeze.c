/* Why a frozen application's other failures are not findings of their own.  GTK 3 and 4 stop their
 * frame clock until the drawn message of the last update comes, with no timeout
 * (gdk_x11_window_end_frame / gdk_x11_surface_end_frame set frame_pending, which only
 * _NET_WM_FRAME_DRAWN clears): under drawn-missed-once every window of theirs freezes 500 ms after
 * it is first shown, and the answer cases that come later fail because nothing is drawn or
 * answered any more.  That is the freeze client/policy/drawn-missed-stall measures (stall_ms
 * `frozen`), not one failure per case: the case SKIPs and names the message left out.  A case whose
 * application began an update after the missed message was not frozen by it and keeps its FAIL. */
#include "policy-freeze.h"
#include "app-exit.h"
#include "featureset.h"

#include <stdio.h>
#include <string.h>

#define MISSES_DRAWN "policy-misses-drawn"

/* Does the case say `require FEATURE` (not `require no FEATURE`)? */
static bool requires_feature(const struct testcase *tc, const char *feature)
{
    for (int i = 0; i < tc->nsteps; i++) {
        const struct step *st = &tc->steps[i];
        if (st->kind == STEP_REQUIRE && st->ntokens == 2 && !strcmp(st->tokens[1], feature))
            return true;
    }
    return false;
}

static bool field_is(const struct record *r, const char *key, const char *value)
{
    const char *v = record_get(r, key);
    return v && !strcmp(v, value);
}

/* The application's last drawn-missed note, when no update of it began after it; else NULL. */
static const struct record *frozen_since(const struct session *s)
{
    const struct record *missed = NULL;
    for (int i = 0; i < s->tl.n; i++) {
        const struct record *r = s->tl.recs[i];
        if (!strcmp(r->kind, "wm-note") && field_is(r, "what", "drawn-missed"))
            missed = r;
        else if (missed && !strcmp(r->kind, "set-counter") && field_is(r, "parity", "odd") && strcmp(r->source, "wm"))
            missed = NULL; /* it began another update: not frozen by that one */
    }
    return missed;
}

bool policy_freeze_explains(const struct testcase *tc, const struct features *fs, const struct session *s,
                            struct result *res)
{
    const struct feature *f = fs ? features_find(fs, MISSES_DRAWN) : NULL;
    if (res->verdict != VERDICT_FAIL || app_is_crash(res) || !f || f->state != FEATURE_PRESENT ||
        requires_feature(tc, MISSES_DRAWN))
        return false;
    const struct record *missed = frozen_since(s);
    if (!missed)
        return false;
    char failed[sizeof res->reason];
    snprintf(failed, sizeof failed, "%s", res->reason);
    res->verdict = VERDICT_SKIP;
    res->clause = NULL;
    snprintf(res->reason, sizeof res->reason,
             "the application is frozen: the compositor's policy left out the drawn message of update %s at "
             "+%.0f ms (%s), and the application began no update after it; its failure here (%.1200s) has "
             "that one cause, which client/policy/drawn-missed-stall reports (stall_ms)",
             record_get(missed, "value") ? record_get(missed, "value") : "?",
             (double)(missed->t_us - s->tl.start_us) / 1000.0, f->detail, failed);
    return true;
}
