/* Notes to the observer.  Under a --policy (the client runs), fake-wm tells app-observer when it
 * first painted a window and which drawn message it left out: a ClientMessage of type
 * _FRAMESYNC_WM_NOTE whose window field names the application's window, sent to fake-wm's own
 * check window (so the application never receives it).  app-observer's RECORD sees the SendEvent
 * in the server's order, among the application's requests (app-observer/README.md, `wm-note`):
 * the time from the application's MapWindow to its first showing is read from one stream.
 * Without --policy nothing is sent: the compositor cases' request oracle would see these. */
#include "policynotes.h"

#include "log.h"
#include "policies.h"
#include "state.h"

#include <string.h>

enum { NOTE_SHOWN = 1, NOTE_DRAWN_MISSED = 2 };

static void send_note(const struct win *w, uint32_t what, int64_t value)
{
    if (POLICY(NONE) || !X.check_win)
        return;
    xcb_client_message_event_t m;
    memset(&m, 0, sizeof m);
    m.response_type = XCB_CLIENT_MESSAGE;
    m.format = 32;
    m.window = w->id;
    m.type = atom(A_FRAMESYNC_WM_NOTE);
    m.data.data32[0] = what;
    m.data.data32[1] = (uint32_t)((uint64_t)value & 0xffffffffu);
    m.data.data32[2] = (uint32_t)((uint64_t)value >> 32);
    xcb_send_event(X.c, 0, X.check_win, XCB_EVENT_MASK_NO_EVENT, (const char *)&m);
    xcb_flush(X.c);
}

void note_first_shown(const struct win *w)
{
    logv("window %u: first shown since its map (note to the observer)", w->id);
    send_note(w, NOTE_SHOWN, 0);
}

void note_drawn_missed(const struct win *w, int64_t value)
{
    logmsg("window %u: no drawn message for update %lld (policy drawn-missed-once)", w->id, (long long)value);
    send_note(w, NOTE_DRAWN_MISSED, value);
}
