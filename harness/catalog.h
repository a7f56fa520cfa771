/* The clause catalog (cases/clauses.txt): the single list of clause IDs.  Cases, faults of
 * fake-wm, coverage and reports all refer to clauses by these IDs. */
#ifndef FRAMESYNC_CATALOG_H
#define FRAMESYNC_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include "terms.h"

struct clause {
    char *id;
    char *profiles;     /* space-separated */
    char *section;
    char *keyword;      /* MUST SHOULD MAY implied */
    char *binds;        /* wm | client */
    char *testable;     /* "yes" or "no: reason" */
    char *wording;
    char *note;
    int line;
};

struct catalog {
    struct clause *clauses;
    int n;
};

/* Loads the file; on error fills err with FILE:LINE: ... and returns -1. */
int catalog_load(struct catalog *cat, const char *path, char *err, size_t errlen);
const struct clause *catalog_find(const struct catalog *cat, const char *id);
/* How strongly the text asks for the clause (its keyword's level); compositor/crash and client/crash are defects. */
enum level catalog_level(const struct catalog *cat, const char *id);
void catalog_free(struct catalog *cat);

/* The catalog in use, for case_parse's clause check. */
void catalog_set_current(const struct catalog *cat);
bool catalog_current_knows(const char *id);

#endif
