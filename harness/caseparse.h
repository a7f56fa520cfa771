/* Case files (cases/<group>/<name>.case): a header of `key: value` lines, then one step per line.
 * The format is documented in cases/README.md.  The case language knows the protocol's words
 * (clients, counters, requests, drawn messages); it knows nothing of xcb. */
#ifndef FRAMESYNC_CASEPARSE_H
#define FRAMESYNC_CASEPARSE_H

#include <stdbool.h>
#include <stddef.h>

#define MAX_FILTERS 8
#define MAX_CLAUSES 4

enum profile { PROFILE_EWMH15 = 1, PROFILE_DRAFT2011 = 2, PROFILE_DEFACTO = 4 };
#define ALL_PROFILES (PROFILE_EWMH15 | PROFILE_DRAFT2011 | PROFILE_DEFACTO)
const char *profile_name(enum profile p);
int profile_parse(const char *name); /* bit, or 0 */

enum step_kind {
    STEP_CLIENT,    /* client NAME [ARGS]         start a fake client */
    STEP_COMMAND,   /* NAME CMD ARGS...           a fake-client command */
    STEP_WAIT,      /* wait SRC KIND [K=V]... within MS [as VAR] */
    STEP_NONE,      /* none SRC KIND [K=V]... for MS */
    STEP_EXPECT,    /* expect EXPR */
    STEP_REQUIRE,   /* require supported ATOM | require compositing (require wait/none: a WAIT/NONE
                       step with `precondition` set) */
};

struct filter {
    char *key;
    char *value;   /* a term: number, atom name, VAR.FIELD, or literal text */
};

struct step {
    enum step_kind kind;
    int line;
    char *text;            /* the line as written, for diagnostics */
    char *source;          /* client name (or another source) */
    char *command;         /* STEP_COMMAND: the command line for the client; STEP_CLIENT: args */
    char *event;           /* WAIT/NONE: record kind */
    struct filter filters[MAX_FILTERS];
    int nfilters;
    int ms;                /* WAIT: within; NONE: for */
    char *as;              /* WAIT: bind the record to this name */
    bool precondition;     /* WAIT/NONE written `require wait|none ...`: when it does not hold, the
                              case does not apply (SKIP with what was seen); not a check */
    char **tokens;         /* EXPECT / REQUIRE: the expression's tokens */
    int ntokens;
};

struct testcase {
    char *path;
    char *id;
    char *clauses[MAX_CLAUSES];
    int nclauses;
    unsigned profiles;
    char *description;
    char *why;
    int checks;
    struct step *steps;
    int nsteps;
};

/* Validates clause IDs against this list when non-NULL (see catalog.h). */
typedef bool (*clause_known_fn)(const char *id);

/* Parses one file.  On error returns NULL and writes "FILE:LINE: what was expected" to err. */
struct testcase *case_parse_file(const char *path, clause_known_fn known, char *err, size_t errlen);
/* Same from a buffer (unit tests, fuzzing); path is only used in messages. */
struct testcase *case_parse_buffer(const char *path, const char *text, clause_known_fn known,
                                   char *err, size_t errlen);
void case_free(struct testcase *tc);

/* Number of check steps (wait, none, expect). */
int case_count_checks(const struct testcase *tc);

#endif
