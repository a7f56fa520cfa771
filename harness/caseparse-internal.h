/* What the case parser's files share: the parser's state while it reads one file, and their
 * helpers.  From the top down, each calling only those below it: casefile.c (a file: one case, or
 * one per profile), casevary.c (`vary:` lines), caseparse.c (one case: its lines and header),
 * casesteps.c (each step), caseparse-base.c (errors, words, names, the feature check, freeing). */
#ifndef FRAMESYNC_CASEPARSE_INTERNAL_H
#define FRAMESYNC_CASEPARSE_INTERNAL_H

#include "caseparse.h"

#define MAX_TOKENS 128 /* a hostile property of 100 items is one command line */
#define MAX_CLIENTS 8
#define MAX_VARS 64

/* What the parser knows while it reads one file. */
struct parser {
    const char *path;
    int line;
    char *err;
    size_t errlen;
    bool failed;
    struct testcase *tc;
    char *clients[MAX_CLIENTS];
    int nclients;
    char *vars[MAX_VARS];
    int nvars;
    clause_known_fn known;
    int checks_line;
    int start_line;        /* where `start:` was given (0: not given) */
    bool probe;                 /* a *.probe file */
    const char *clause;         /* the `check` line in force, NULL before the first */
    bool in_checks;
    int ncheck_lines;
};

/* caseparse-base.c: "FILE:LINE: message" into p->err (the first error only); returns false. */
bool cp_fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Splits s at blanks, up to max words, stopping at a `#` word; -1 when there are more. */
int cp_tokenize(char *s, char **tok, int max);
/* Letters, digits, - and _, starting with a letter. */
bool cp_is_name(const char *s);
/* A feature cases may name (the registered check, when there is one); fails otherwise. */
bool cp_known_feature(struct parser *p, const char *name);
/* casesteps.c: one step line (after the header). */
bool cp_parse_step(struct parser *p, char *line);
/* caseparse.c: one case from the text, without `vary:` lines. */
struct testcase *case_parse_one(const char *path, const char *text, clause_known_fn known, char *err, size_t errlen);
/* The cases of a file with `vary:` lines, one per profile (casevary.c); *varies says whether the
 * file has any (NULL then: not such a file, or an error in its `vary:` lines, in err). */
struct testcase *case_parse_variants(const char *path, const char *text, clause_known_fn known, char *err,
                                     size_t errlen, bool *varies);

#endif
