#include "oracles.h"
#include "oracle-record.h"
#include "oracle-screen.h"

#include <stdio.h>

/* An oracle that cannot start is left out with a note on stderr: its cases then find no records
 * of that source (and fail or stay unresolved on their own terms); the run goes on. */
int oracles_create(struct xserver *x, struct oracle **out, int max, char *no_screen, size_t len)
{
    int n = 0;
    char why[512];
    struct oracle *o;
    no_screen[0] = 0;
    if (n < max) {
        if ((o = oracle_screen_create(x, why, sizeof why)))
            out[n++] = o;
        else
            snprintf(no_screen, len, "%s", why);
    }
    if (n < max) {
        if ((o = oracle_record_create(x, why, sizeof why)))
            out[n++] = o;
        else
            fprintf(stderr, "framesync: no request oracle (source `wm`): %s\n", why);
    }
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
