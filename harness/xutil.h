/* Small synchronous X helpers for the harness's own connection (atoms, properties, selections).
 * The harness is not performance-critical here; clarity beats pipelining. */
#ifndef FRAMESYNC_XUTIL_H
#define FRAMESYNC_XUTIL_H

#include <stddef.h>
#include <xcb/xcb.h>

xcb_atom_t xu_atom(xcb_connection_t *c, const char *name);   /* interned, cached */
/* xcb_disconnect, and forget what was cached for c (its address may come back for another server) */
void xu_disconnect(xcb_connection_t *c);
int xu_atom_name(xcb_connection_t *c, xcb_atom_t a, char *out, size_t len);
xcb_window_t xu_get_window_prop(xcb_connection_t *c, xcb_window_t w, xcb_atom_t prop);
int xu_get_atom_list(xcb_connection_t *c, xcb_window_t w, xcb_atom_t prop, xcb_atom_t *out, int max);
int xu_get_utf8_prop(xcb_connection_t *c, xcb_window_t w, xcb_atom_t prop, char *out, size_t len);
xcb_window_t xu_selection_owner(xcb_connection_t *c, const char *selection);
/* XFixes SelectionNotify for owner changes of the selection, so waits are event-driven. */
void xu_watch_selection(xcb_connection_t *c, xcb_window_t root, const char *selection);
/* Discards queued events (the harness only uses them as wake-ups); returns how many. */
int xu_drain_events(xcb_connection_t *c);

#endif
