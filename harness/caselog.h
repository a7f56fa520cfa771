#ifndef FRAMESYNC_CASELOG_H
#define FRAMESYNC_CASELOG_H

#include <sys/types.h>
#include "caseparse.h"
#include "compositor.h"
#include "run.h"
#include "session.h"

/* Writes the log of one case (or probe) to path; wm_log_from: where the compositor's output of
 * this case starts in its log. */
void write_case_log(const char *path, const struct testcase *tc, enum profile p, const struct result *r,
                    const struct session *s, const struct compositor *wm, off_t wm_log_from);

#endif
