#include "xhelpers.h"

#include <stdlib.h>
#include <string.h>

bool xh_round_trip(xcb_connection_t *c)
{
    xcb_get_input_focus_reply_t *r = xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL);
    if (!r)
        return false;
    free(r);
    return true;
}

void xh_intern_atoms(xcb_connection_t *c, const char *const *names, int n, xcb_atom_t *out)
{
    xcb_intern_atom_cookie_t ck[n > 0 ? n : 1];
    for (int i = 0; i < n; i++)
        ck[i] = xcb_intern_atom(c, 0, (uint16_t)strlen(names[i]), names[i]);
    for (int i = 0; i < n; i++) {
        xcb_intern_atom_reply_t *r = xcb_intern_atom_reply(c, ck[i], NULL);
        out[i] = r ? r->atom : XCB_ATOM_NONE;
        free(r);
    }
}
