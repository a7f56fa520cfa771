#include "xutil.h"

#include <stdlib.h>
#include <string.h>
#include <xcb/xfixes.h>

struct atom_entry {
    char *name;
    xcb_atom_t atom;
};
static struct atom_entry atoms[512];
static int natoms;
/* The connection the atoms were interned on.  A pointer is not an identity: after a disconnect
 * the next xcb_connect may get the same address for a different server (a compositor that brings
 * its own X server is met on a fresh one at every start), so xu_disconnect forgets it. */
static xcb_connection_t *atoms_conn;
static xcb_connection_t *xfixes_conn; /* the connection XFixes' version was asked on */

static void forget_atoms(void)
{
    for (int i = 0; i < natoms; i++)
        free(atoms[i].name);
    natoms = 0;
    atoms_conn = NULL;
}

void xu_disconnect(xcb_connection_t *c)
{
    if (atoms_conn == c)
        forget_atoms();
    if (xfixes_conn == c)
        xfixes_conn = NULL;
    xcb_disconnect(c);
}

xcb_atom_t xu_atom(xcb_connection_t *c, const char *name)
{
    if (atoms_conn != c) { /* another connection, maybe to another server: its values mean nothing */
        forget_atoms();
        atoms_conn = c;
    }
    for (int i = 0; i < natoms; i++)
        if (!strcmp(atoms[i].name, name))
            return atoms[i].atom;
    xcb_intern_atom_reply_t *r =
        xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, (uint16_t)strlen(name), name), NULL);
    xcb_atom_t a = r ? r->atom : XCB_NONE;
    free(r);
    if (a && natoms < (int)(sizeof atoms / sizeof atoms[0]))
        atoms[natoms++] = (struct atom_entry){strdup(name), a};
    return a;
}

int xu_atom_name(xcb_connection_t *c, xcb_atom_t a, char *out, size_t len)
{
    xcb_get_atom_name_reply_t *r = xcb_get_atom_name_reply(c, xcb_get_atom_name(c, a), NULL);
    if (!r)
        return -1;
    int n = xcb_get_atom_name_name_length(r);
    if ((size_t)n >= len)
        n = (int)len - 1;
    memcpy(out, xcb_get_atom_name_name(r), (size_t)n);
    out[n] = 0;
    free(r);
    return 0;
}

static xcb_get_property_reply_t *get_prop(xcb_connection_t *c, xcb_window_t w, xcb_atom_t p,
                                          uint32_t len32)
{
    return xcb_get_property_reply(c, xcb_get_property(c, 0, w, p, XCB_GET_PROPERTY_TYPE_ANY, 0, len32),
                                  NULL);
}

xcb_window_t xu_get_window_prop(xcb_connection_t *c, xcb_window_t w, xcb_atom_t prop)
{
    xcb_get_property_reply_t *r = get_prop(c, w, prop, 1);
    xcb_window_t v = XCB_NONE;
    if (r && r->format == 32 && xcb_get_property_value_length(r) >= 4)
        v = *(xcb_window_t *)xcb_get_property_value(r);
    free(r);
    return v;
}

int xu_get_atom_list(xcb_connection_t *c, xcb_window_t w, xcb_atom_t prop, xcb_atom_t *out, int max)
{
    xcb_get_property_reply_t *r = get_prop(c, w, prop, (uint32_t)max);
    int n = 0;
    if (r && r->format == 32) {
        n = xcb_get_property_value_length(r) / 4;
        if (n > max)
            n = max;
        memcpy(out, xcb_get_property_value(r), (size_t)n * 4);
    }
    free(r);
    return n;
}

int xu_get_utf8_prop(xcb_connection_t *c, xcb_window_t w, xcb_atom_t prop, char *out, size_t len)
{
    xcb_get_property_reply_t *r = get_prop(c, w, prop, 64);
    out[0] = 0;
    if (!r || r->format != 8) {
        free(r);
        return -1;
    }
    size_t n = (size_t)xcb_get_property_value_length(r);
    if (n >= len)
        n = len - 1;
    memcpy(out, xcb_get_property_value(r), n);
    out[n] = 0;
    free(r);
    return 0;
}

xcb_window_t xu_selection_owner(xcb_connection_t *c, const char *selection)
{
    xcb_get_selection_owner_reply_t *r =
        xcb_get_selection_owner_reply(c, xcb_get_selection_owner(c, xu_atom(c, selection)), NULL);
    xcb_window_t o = r ? r->owner : XCB_NONE;
    free(r);
    return o;
}

void xu_watch_selection(xcb_connection_t *c, xcb_window_t root, const char *selection)
{
    if (xfixes_conn != c) {
        free(xcb_xfixes_query_version_reply(c, xcb_xfixes_query_version(c, 5, 0), NULL));
        xfixes_conn = c;
    }
    xcb_xfixes_select_selection_input(c, root, xu_atom(c, selection),
                                      XCB_XFIXES_SELECTION_EVENT_MASK_SET_SELECTION_OWNER |
                                          XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_WINDOW_DESTROY |
                                          XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_CLIENT_CLOSE);
    xcb_flush(c);
}

int xu_drain_events(xcb_connection_t *c)
{
    xcb_generic_event_t *e;
    int n = 0;
    while ((e = xcb_poll_for_event(c))) {
        free(e);
        n++;
    }
    return n;
}
