/* The per-case log under logs/: verdict, the timeline of everything observed, what the compositor
 * printed meanwhile, and where the fake clients' logs are.  Probes get the same log. */
#include "caselog.h"

#include <stdio.h>

/* The per-case log: verdict, timeline, and what the compositor printed meanwhile. */
void write_case_log(const char *path, const struct testcase *tc, enum profile p,
                           const struct result *r, const struct session *s, const struct compositor *wm,
                           off_t wm_log_from)
{
    FILE *f = fopen(path, "we");
    if (!f)
        return;
    fprintf(f, "case:     %s [%s]\nfile:     %s\n%s:   %s\nverdict:  %s\n", tc->id, profile_name(p),
            tc->path, tc->feature ? "feature" : "clause", tc->feature ? tc->feature : tc->clauses[0],
            verdict_name(r->verdict));
    if (r->clause)
        fprintf(f, "failed:   %s (the clause of the check that failed)\n", r->clause);
    if (r->reason[0])
        fprintf(f, "reason:   %s\n", r->reason);
    if (r->expected[0])
        fprintf(f, "expected: %s\n", r->expected);
    if (r->observed[0])
        fprintf(f, "observed: %s\n", r->observed);
    fprintf(f, "checks:   %d of %d ran\ncompositor: %s\n\ntimeline:\n", r->checks_run, tc->checks, wm->command);
    timeline_print(&s->tl, f, "  ", r->mark_seq);
    fprintf(f, "\ncompositor output during the case (%s):\n", wm->log_path);
    FILE *wl = fopen(wm->log_path, "r");
    if (wl) {
        fseek(wl, wm_log_from, SEEK_SET);
        char line[2048];
        while (fgets(line, sizeof line, wl))
            fprintf(f, "  %s", line);
        fclose(wl);
    }
    for (int i = 0; i < s->nclients; i++)
        fprintf(f, "fake client %s log: %s\n", s->clients[i].name, s->clients[i].stderr_path);
    fclose(f);
}

