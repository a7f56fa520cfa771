#include "oracles.h"
#include "oracle-capture.h"
#include "oracle-record.h"
#include "oracle-screen.h"
#include "oracle-stream.h"

#include <stdio.h>

/* An oracle that cannot start is left out with a note on stderr: its cases then find no records
 * of that source (and fail or stay unresolved on their own terms); the run goes on. */
int oracles_create(struct xserver *x, struct capture *cap, struct oracle **out, int max, char *served,
                   char *no_screen, size_t len)
{
    int n = 0;
    char why[1024], capwhy[1024];
    struct oracle *o;
    no_screen[0] = served[0] = 0;
    if (n < max) {
        /* a stream or capture the conf names is what it means to be seen through, even where the root
         * answers (a rootful Xwayland's root is the X server's picture, not the compositor's) */
        if (cap && cap->stream_command[0]) {
            if ((o = oracle_stream_create(x, cap, cap->stream_command, served, len, capwhy, sizeof capwhy))) {
                out[n++] = o;
            } else if (cap->command[0] && (o = oracle_capture_create(x, cap, served, len, why, sizeof why))) {
                /* the conf's capture, one picture at a time: what can be seen is decided by its rules */
                out[n++] = o;
                fprintf(stderr, "framesync: the screen stream does not work here (%s): the screen is sampled\n",
                        capwhy);
            } else if (cap->command[0]) {
                snprintf(no_screen, len, "its screen stream does not work here: %s; nor its screen capture: %s", capwhy,
                         why);
            } else {
                snprintf(no_screen, len, "its screen stream does not work here: %s", capwhy);
            }
        } else if (cap) {
            if ((o = oracle_capture_create(x, cap, served, len, capwhy, sizeof capwhy)))
                out[n++] = o;
            else
                snprintf(no_screen, len, "its screen capture does not work here: %s", capwhy);
        } else if ((o = oracle_screen_create(x, why, sizeof why))) {
            out[n++] = o;
            snprintf(served, len, "the root window (GetImage of the composited screen, woken by DAMAGE)");
        } else {
            snprintf(no_screen, len, "%s", why);
        }
    }
    if (n < max) {
        if ((o = oracle_record_create(x, why, sizeof why)))
            out[n++] = o;
        else
            fprintf(stderr, "framesync: no request oracle (source `wm`): %s\n", why);
    }
    if (!served[0])
        snprintf(served, len, "none: %s", no_screen);
    return n;
}

void oracles_destroy(struct oracle **o, int n)
{
    for (int i = 0; i < n; i++) {
        if (!o[i])
            continue;
        o[i]->destroy(o[i]);
        o[i] = NULL;
    }
}
