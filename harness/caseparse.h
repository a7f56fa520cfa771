/* Case files (cases/<group>/<name>.case): a header of `key: value` lines, then one step per line.
 * The format is documented in cases/README.md.  The case language knows the protocol's words
 * (clients, counters, requests, drawn messages); it knows nothing of xcb. */
#ifndef FRAMESYNC_CASEPARSE_H
#define FRAMESYNC_CASEPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include "terms.h"

#define MAX_FILTERS 8
#define MAX_CLAUSES 4


enum step_kind {
    STEP_CLIENT,    /* client NAME [ARGS]         start a fake client */
    STEP_COMMAND,   /* NAME CMD ARGS...           a scripted-client command (also `resize`) */
    STEP_WAIT,      /* wait SRC KIND [K=V]... within MS [as VAR] */
    STEP_NONE,      /* none SRC KIND [K=V]... for MS */
    STEP_EXPECT,    /* expect EXPR */
    STEP_REQUIRE,   /* require FEATURE | require no FEATURE | require supported ATOM | require
                       unsupported ATOM (require wait/none: a WAIT/NONE step with `precondition`) */
    STEP_CHECK,     /* check CLAUSE-ID: the checks that follow check this clause */
    STEP_MARK,      /* mark NAME: a point in the timeline, bound to NAME (for after=/before=) */
    STEP_REPLACE,   /* replace-wm [within MS] [as VAR]: a new instance of the compositor replaces the
                       running one (ICCCM 2.8); VAR is its `wm-replaced` record */
    STEP_FIGURE,    /* figure NAME EXPR...: a measured value (EXPR of bound records) kept in the
                       case's result; not a check */
};

/* KEY=V KEY!=V KEY<V KEY<=V KEY>V KEY>=V; `after=VAR` / `before=VAR` compare timeline order */
enum filter_op { FILTER_EQ, FILTER_NE, FILTER_LT, FILTER_LE, FILTER_GT, FILTER_GE };

struct filter {
    char *key;
    enum filter_op op;
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
    int ms;                /* WAIT: within; NONE: for; REPLACE: within (0: the run's --wm-timeout) */
    char *as;              /* WAIT: bind the record to this name */
    bool precondition;     /* WAIT/NONE written `require wait|none ...`: when it does not hold, the
                              case does not apply (SKIP with what was seen); not a check */
    bool setup;            /* WAIT/NONE before the first `check` line (or under `when`): what the
                              scenario needs to go on; when it does not hold the case is
                              UNRESOLVED (it cannot tell), never a FAIL; not a check */
    const char *clause;    /* checks: the clause of the `check` line above (STEP_CHECK: its own) */
    char *when;            /* `when FEATURE STEP` / `unless FEATURE STEP`: run STEP only if the
                              compositor has (does not have) FEATURE */
    bool unless;
    bool optional;         /* WAIT written `try wait ...`: a measurement's record, which may never come:
                              when it does not, VAR stays unbound and the case goes on (set-up) */
    char *fallback;        /* FIGURE written `figure NAME EXPR or WORD`: WORD is the figure when EXPR
                              names a record a `try wait` did not bind */
    char **tokens;         /* EXPECT / REQUIRE: the expression's tokens */
    int ntokens;
};

struct testcase {
    char *path;
    char *id;              /* cases: `case:`; probes: "probe/" + the feature */
    char *feature;         /* probes (*.probe): the feature the probe establishes */
    char *absent;          /* probes: why a case needing the feature does not apply without it */
    char *detail;          /* probes: what is reported when present ({EXPR} of bound records) */
    int attempts;          /* probes: runs before "absent" is believed (`attempts:`; 0 = 1) */
    bool start_shared;     /* `start: shared`: its `client NAME under-test` may take the application an
                              earlier case of the same compositor left running (`start: fresh`, the
                              default: a new start) */
    char *clauses[MAX_CLAUSES];
    int nclauses;
    unsigned profiles;
    char *description;
    char *why;
    int checks;
    struct step *steps;
    int nsteps;
    struct testcase *next_variant; /* `vary:`: the same case for the next profile (one profile each) */
};

/* Validates clause IDs against this list when non-NULL (see catalog.h). */
typedef bool (*clause_known_fn)(const char *id);
/* Validates feature names (`require FEATURE`, `when FEATURE`) when non-NULL (see featureset.h). */
typedef bool (*feature_known_fn)(const char *name);
void case_set_feature_check(feature_known_fn known);
/* The registered check (true when none is registered). */
bool case_feature_known(const char *name);

/* Parses one file: a case (*.case) or a feature probe (*.probe: `feature:` instead of `case:`,
 * `clause:` and `profiles:`).  On error returns NULL and writes "FILE:LINE: what was expected"
 * to err. */
struct testcase *case_parse_file(const char *path, clause_known_fn known, char *err, size_t errlen);
/* Same from a buffer (unit tests, fuzzing); path is only used in messages (and a path ending in
 * .probe parses a probe). */
struct testcase *case_parse_buffer(const char *path, const char *text, clause_known_fn known,
                                   char *err, size_t errlen);
void case_free(struct testcase *tc);

/* Number of check steps (wait, none, expect after a `check` line). */
int case_count_checks(const struct testcase *tc);

#endif
