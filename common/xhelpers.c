#include "xhelpers.h"

#include <stdlib.h>

bool xh_round_trip(xcb_connection_t *c)
{
    xcb_get_input_focus_reply_t *r = xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL);
    if (!r)
        return false;
    free(r);
    return true;
}
