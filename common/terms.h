/* The suite's own vocabulary, defined once for every C program: the three profiles (the texts
 * under test), the four verdicts, and the levels of a finding (the keyword of the clause it
 * breaks).  The Python side has the same in runner/terms.py; a test checks the two agree. */
#ifndef FRAMESYNC_TERMS_H
#define FRAMESYNC_TERMS_H

#include <stdbool.h>

/* Profiles are bits, so a case's set of profiles is one unsigned. */
enum profile { PROFILE_EWMH15 = 1, PROFILE_DRAFT2011 = 2, PROFILE_DEFACTO = 4 };
#define ALL_PROFILES (PROFILE_EWMH15 | PROFILE_DRAFT2011 | PROFILE_DEFACTO)
#define PROFILE_FIRST PROFILE_EWMH15
#define PROFILE_LAST PROFILE_DEFACTO
const char *profile_name(enum profile p);
int profile_parse(const char *name); /* its bit, or 0 */

/* PASS: every declared check ran and held; FAIL: the compositor (or application) broke the
 * clause; SKIP: does not apply, with the reason; UNRESOLVED: the suite could not decide. */
enum verdict { VERDICT_PASS, VERDICT_FAIL, VERDICT_SKIP, VERDICT_UNRESOLVED };
#define VERDICT_COUNT 4
const char *verdict_name(enum verdict v);

/* How strongly the text asks for what a finding breaks: the clause's keyword (cases/clauses.txt).
 * RFC 2119 capitals and the lowercase words the drafts use are kept apart, since a lowercase
 * "should" is not normative as written; `implied` is a requirement stated without a keyword (a
 * message layout, "a window manager uses this protocol by ..."); a crash or hang of the
 * compositor, or a crash of the application under test, is a defect whatever the text. */
enum level { LEVEL_IMPLIED, LEVEL_SHOULD_LC, LEVEL_SHOULD, LEVEL_MUST_LC, LEVEL_MUST, LEVEL_DEFECT };
enum level level_of_keyword(const char *keyword); /* "MUST NOT" -> LEVEL_MUST, "should" -> LEVEL_SHOULD_LC */
const char *level_name(enum level l);             /* "MUST", "SHOULD", "must", "should", "implied", "defect" */
/* For a reader: "should: lowercase, not RFC 2119 normative as written", "MUST", ... */
const char *level_describe(enum level l);

/* --fail-on: which findings make the exit status 1.  must: MUST/must and defects; should: also
 * SHOULD/should; any (the default): every finding, implied requirements included. */
enum fail_on { FAIL_ON_ANY, FAIL_ON_SHOULD, FAIL_ON_MUST };
int fail_on_parse(const char *s, enum fail_on *out);
bool level_fails(enum level l, enum fail_on f);

#endif
