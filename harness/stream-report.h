/* What the screen stream (stream.h) saw in one start of the compositor, said when the compositor
 * stops, since the stream ends with it: a comment in the run's TAP output and an entry of
 * results.json's "captures" (results.h), which the HTML report shows in its run header. */
#ifndef FRAMESYNC_STREAM_REPORT_H
#define FRAMESYNC_STREAM_REPORT_H

#include "runstate.h"

/* Nothing when this start has no stream, or the helper does not answer. */
void stream_report_stop(struct run *r);

#endif
