#include "listing.h"

#include <stdio.h>
#include <string.h>

/* One case (one profile's, for a file with `vary:` lines) with its clause and profiles. */
static void list_one(const struct testcase *tc, const struct selection *sel)
{
    if (!(tc->profiles & sel->profiles) || !selection_matches(sel, tc))
        return;
    printf("%-40s %-44s", tc->id, tc->clauses[0]);
    for (int p = PROFILE_FIRST; p <= PROFILE_LAST; p <<= 1)
        if (tc->profiles & (unsigned)p)
            printf(" %s", profile_name((enum profile)p));
    printf("\n    %s\n", tc->description);
}

void list_cases(const struct case_set *set, const struct selection *sel)
{
    for (int i = 0; i < set->ncases; i++)
        for (const struct testcase *tc = set->cases[i]; tc; tc = tc->next_variant)
            list_one(tc, sel);
}

/* The ids of the cases that check clause id, comma-separated; their number. */
static int cases_of(const struct case_set *set, const char *id, char *list, size_t len)
{
    int found = 0;
    list[0] = 0;
    for (int j = 0; j < set->ncases; j++)
        for (const struct testcase *tc = set->cases[j]; tc; tc = tc->next_variant) {
            bool checks = false;
            for (int k = 0; k < tc->nclauses; k++)
                checks |= !strcmp(tc->clauses[k], id);
            if (checks) { /* a case once, whichever of its profiles' variants checks the clause */
                size_t o = strlen(list);
                snprintf(list + o, len - o, "%s%s", found++ ? ", " : "", tc->id);
                break;
            }
        }
    return found;
}

int print_coverage(const struct catalog *cat, const struct case_set *set)
{
    int testable = 0, untestable = 0, uncovered = 0;
    printf("%-46s %-9s %-8s %s\n", "clause", "keyword", "binds", "status / cases");
    for (int i = 0; i < cat->n; i++) {
        const struct clause *cl = &cat->clauses[i];
        char list[2048];
        int found = cases_of(set, cl->id, list, sizeof list);
        const char *status;
        if (strncmp(cl->testable, "yes", 3)) {
            untestable++;
            status = cl->testable;
        } else {
            testable++;
            status = found ? "covered" : "NOT COVERED";
            uncovered += !found;
        }
        printf("%-46s %-9s %-8s %s%s%s\n", cl->id, cl->keyword, cl->binds, status, found ? ": " : "", list);
    }
    printf("\n%d clauses: %d testable (%d covered, %d not covered), %d untestable; %d cases\n",
           cat->n, testable, testable - uncovered, uncovered, untestable, set->ncases);
    return uncovered ? 1 : 0;
}
