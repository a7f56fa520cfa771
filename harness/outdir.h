/* The run's output folder (results.tap, results.json, logs/PROFILE/, features.tsv) and its
 * private temp dir: created at the start, the previous run's logs cleared, the temp dir removed
 * on every exit path. */
#ifndef FRAMESYNC_OUTDIR_H
#define FRAMESYNC_OUTDIR_H

#include <stddef.h>
#include <sys/types.h>
#include "caseparse.h"

int mkdir_p(const char *path, mode_t mode);
void remove_tree(const char *path);
/* OUT/logs/PROFILE/<case id with / as ->: the logs, screenshots and attempts of one case. */
void case_log_prefix(const char *out, const struct testcase *tc, enum profile p, char *buf, size_t len);
/* Creates OUT and an empty OUT/logs/<profile>/ for each profile; -1 with a message on stderr. */
int outdir_prepare(const char *out);

#endif
