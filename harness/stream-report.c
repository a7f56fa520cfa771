/* What the screen stream saw in one start of the compositor: see stream-report.h. */
#include "stream-report.h"
#include "results.h"
#include "stream.h"

void stream_report_stop(struct run *r)
{
    struct stream_stats st;
    if (!r->capture.stream || stream_stats(r->capture.stream, 2000, &st) < 0)
        return;
    char said[512];
    stream_describe(&st, said, sizeof said);
    tap_comment(&r->tap, "screen stream on %s: %s", r->x.display_name, said);
    if (r->results)
        results_capture(r->results, r->wm_profile, r->x.display_name, &st);
}
