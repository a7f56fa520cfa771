#include "run-verdict.h"

#include <string.h>

/* Does a finding of a level --fail-on counts exist? */
static bool failing_findings(const struct run *r)
{
    for (int i = 0; i < r->tap.nfindings; i++)
        if (level_fails(r->tap.findings[i].level, r->o->fail_on))
            return true;
    return false;
}

static void add_reason(struct run_verdict *v, const char *text)
{
    size_t o = strlen(v->reason);
    snprintf(v->reason + o, sizeof v->reason - o, "%s%s", o ? "; and " : "", text);
}

void run_verdict_decide(struct run_verdict *v, const struct run *r, int nitems)
{
    memset(v, 0, sizeof *v);
    const int *n = r->tap.counts;
    char text[1200];
    if (nitems == 0)
        add_reason(v, "nothing was tested: no case was selected");
    else if (n[VERDICT_PASS] + n[VERDICT_FAIL] == 0 && n[VERDICT_SKIP] == nitems && !r->o->client) {
        /* (an application that does not take part SKIPs everything, and that is its answer: the
         * protocol is optional for clients, and the client's feature table says so) */
        snprintf(text, sizeof text, "nothing was tested: every one of the %d cases was skipped (the reasons are "
                 "on each case; the feature table says what the compositor was seen to do)", nitems);
        add_reason(v, text);
    }
    for (int i = 0; i < r->ntables; i++)
        if (features_unbacked(r->tables[i], text, sizeof text))
            add_reason(v, text);
    const char *conf = r->o->wm_named && !r->o->client && r->o->wm_profile.allow_empty[0] ? r->o->wm_profile.allow_empty
                                                                                        : NULL;
    v->accepted = v->reason[0] && (r->o->allow_empty || conf);
    if (r->o->allow_empty)
        snprintf(v->accepted_by, sizeof v->accepted_by, "--allow-empty");
    else if (conf)
        snprintf(v->accepted_by, sizeof v->accepted_by, "allow-empty: %s (compositors/%s.conf)", conf,
                 r->o->wm_profile.name);
    bool empty = v->reason[0] && !v->accepted;
    v->exit_status = n[VERDICT_UNRESOLVED] || failing_findings(r) || empty ? 1 : 0;
}
