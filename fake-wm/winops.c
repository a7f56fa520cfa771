/* What the window manager does to a client window on its connection (winops.h). */
#include "winops.h"

#include <stdlib.h>

#include "log.h"
#include "state.h"

void wm_configure_raw(xcb_window_t id, const struct configure_req *r)
{
    uint32_t v[7];
    int n = 0;
    uint16_t mask = r->mask & (XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y | XCB_CONFIG_WINDOW_WIDTH |
                               XCB_CONFIG_WINDOW_HEIGHT | XCB_CONFIG_WINDOW_BORDER_WIDTH |
                               XCB_CONFIG_WINDOW_SIBLING | XCB_CONFIG_WINDOW_STACK_MODE);
    if (mask & XCB_CONFIG_WINDOW_X) v[n++] = (uint32_t)(int32_t)r->x;
    if (mask & XCB_CONFIG_WINDOW_Y) v[n++] = (uint32_t)(int32_t)r->y;
    if (mask & XCB_CONFIG_WINDOW_WIDTH) v[n++] = r->width;
    if (mask & XCB_CONFIG_WINDOW_HEIGHT) v[n++] = r->height;
    if (mask & XCB_CONFIG_WINDOW_BORDER_WIDTH) v[n++] = r->border_width;
    if (mask & XCB_CONFIG_WINDOW_SIBLING) v[n++] = r->sibling;
    if (mask & XCB_CONFIG_WINDOW_STACK_MODE) v[n++] = r->stack_mode;
    if (mask)
        xcb_configure_window(X.c, id, mask, v);
}

/* what fake-wm gave the window (the ConfigureNotify comes later) */
void wm_note_given_geometry(struct win *w, const struct configure_req *r)
{
    if (r->mask & XCB_CONFIG_WINDOW_X)
        w->wm_x = r->x;
    if (r->mask & XCB_CONFIG_WINDOW_Y)
        w->wm_y = r->y;
    if (r->mask & XCB_CONFIG_WINDOW_WIDTH)
        w->wm_w = r->width;
    if (r->mask & XCB_CONFIG_WINDOW_HEIGHT)
        w->wm_h = r->height;
}

void wm_apply_configure(struct win *w, const struct configure_req *r)
{
    wm_configure_raw(w->id, r);
    wm_note_given_geometry(w, r);
}

void wm_map(struct win *w)
{
    xcb_map_window(X.c, w->id);
    logv("window %u: mapped", w->id);
}

void wm_set_state(xcb_window_t id, uint32_t state)
{
    uint32_t v[2] = {state, XCB_NONE};
    xcb_change_property(X.c, XCB_PROP_MODE_REPLACE, id, atom(A_WM_STATE), atom(A_WM_STATE), 32, 2, v);
}

bool wm_on_root(xcb_window_t id)
{
    xcb_query_tree_reply_t *t = xcb_query_tree_reply(X.c, xcb_query_tree(X.c, id), NULL);
    bool on_root = t && t->parent == X.root;
    free(t);
    return on_root;
}
