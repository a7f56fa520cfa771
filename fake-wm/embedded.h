/* A toplevel that its client reparented into another managed window (embedded.c): fake-wm keeps
 * nothing of it; the faults hold-kept-after-reparent and request-to-reparented keep something. */
#ifndef FAKEWM_EMBEDDED_H
#define FAKEWM_EMBEDDED_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/sync.h>

#include "win.h"

/* w, a toplevel fake-wm knew, went into the managed toplevel `into` (wmwindows.c, before it
 * forgets w): with a fault, into keeps w's hold or w as a part of it */
void embedded_reparented(struct win *w, struct win *into);
/* the embedder w is unmanaged (unmapped, destroyed, reparented away): what it kept goes */
void embedded_forget(struct win *w);

/* fault hold-kept-after-reparent: w's picture is kept for a window inside it (comphold.c) */
bool embedded_holds(const struct win *w);
/* a SYNC alarm on the WM connection: true when it was one of the kept holds' (handled) */
bool embedded_alarm(const xcb_sync_alarm_notify_event_t *ev);
void embedded_check(int64_t now);      /* kept holds past their timeout end */
int64_t embedded_next_deadline(void);  /* -1: none */

/* fault request-to-reparented: w was just sent a sync request (syncrequest.c) */
void embedded_request_sent(struct win *w);

#endif
