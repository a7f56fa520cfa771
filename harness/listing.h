/* The ways of asking without running: --list (the cases a run with the same options runs, in its
 * order) and --coverage (every clause of the catalog and the cases that check it). */
#ifndef FRAMESYNC_LISTING_H
#define FRAMESYNC_LISTING_H

#include "catalog.h"
#include "discovery.h"
#include "selection.h"

void list_cases(const struct case_set *set, const struct selection *sel);
/* Exit status: 1 when a testable clause has no case. */
int print_coverage(const struct catalog *cat, const struct case_set *set);

#endif
