/* The case's windows as the two screen oracles see them (oracle-screen.c: the root; oracle-
 * capture.c: the compositor's own picture): which windows the clients created (their records),
 * where each is on the root and whether it is mapped (StructureNotify on the oracle's own
 * connection, and the clients' map, unmap, configure and reparent records), which are gone, and
 * where the last case's windows were, until their frame colours have left the screen.  The
 * tracker only keeps that state; when to sample and what to record is each oracle's. */
#ifndef FRAMESYNC_ORACLE_WINDOWS_H
#define FRAMESYNC_ORACLE_WINDOWS_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>

struct record;
struct session;

#define OW_MAX_WINDOWS 16

/* What is behind a window where it is sampled: the last colour seen at that point while the
 * window was unmapped.  A window moves when a WM reparents it (a title bar pushes it down), so a
 * colour sampled before the map elsewhere says nothing about the new point; a frame colour is
 * never taken for the background (it is a window's, seen before the oracle heard of the map). */
struct screen_behind {
    bool known;
    int x, y;
    uint32_t rgb;
};
void screen_behind_note(struct screen_behind *b, bool mapped, int x, int y, uint32_t rgb);
/* 1 when rgb at (x, y) differs from what was behind the window there, 0 when it is the same, -1
 * when nothing was seen behind it at that point. */
int screen_behind_changed(const struct screen_behind *b, int x, int y, uint32_t rgb);

struct ow_window {
    char client[16];
    xcb_window_t window;
    bool mapped;
    bool geom_valid, geom_dirty;
    int cx, cy;                 /* the sampled point, root coordinates */
    int rx, ry, rw, rh;         /* the whole window, root coordinates */
    bool gone;
    uint32_t select_seq;        /* events before this request are about an earlier window of this XID */
    /* what the oracle last recorded of it, and what was behind it; the tracker leaves these alone */
    bool have_value;
    uint32_t rgb;
    int shown_x, shown_y;       /* the point of the last record: a new one is made when the point moves,
                                 * even to the same colour (a new geometry showing the same paint is news) */
    struct screen_behind behind;
    const char *force;          /* oracle-screen.c: emit the current state at the next sample, with this via */
    bool shown_mapped;          /* oracle-capture.c: the mapped state of the last record about it */
    int64_t last_begin;         /* oracle-capture.c: when the last capture that sampled it began (0: none) */
    int job_x, job_y;           /* oracle-capture.c: where the capture under way samples it; -1: not in it */
};

struct ow_tracker {
    xcb_connection_t *c;        /* the oracle's own connection */
    xcb_window_t root;
    int width, height;
    struct ow_window wins[OW_MAX_WINDOWS];
    int nwins;
    xcb_rectangle_t old[OW_MAX_WINDOWS]; /* where the last case's windows were */
    int nold;
};

void ow_init(struct ow_tracker *t, xcb_connection_t *c, xcb_window_t root, int width, int height);
/* the window of this XID that is not gone, or NULL */
struct ow_window *ow_find(struct ow_tracker *t, xcb_window_t id);
/* The window an event on the oracle's connection is about, or NULL.  XIDs are reused: a client
 * of this case gets the window ID of the last case's client, whose DestroyNotify may still be
 * queued.  An event about w older than the oracle's selection on it is not about w. */
struct ow_window *ow_event_window(struct ow_tracker *t, const xcb_generic_event_t *e, xcb_window_t id);
/* Asks the server where every window whose geometry may have changed is (pipelined). */
void ow_refresh_geometry(struct ow_tracker *t);
/* not gone, and its point is on the screen */
bool ow_on_screen(const struct ow_tracker *t, const struct ow_window *w);
/* Sets the mapped state (the geometry is asked again); true when it changed. */
bool ow_set_mapped(struct ow_window *w, bool mapped);
/* What a picture of w's point (x, y) showing rgb is news of, for a `shows` record: "create" (the
 * first), "map" or "unmap" (its mapped state changed since the last record), `kind` (the colour
 * changed) or "moved" (the point moved); NULL when nothing changed.  A change is taken as recorded:
 * the next one is against it.  For the oracles that see pictures (stream, capture); oracle-screen.c
 * forces its own records. */
const char *ow_shows_news(struct ow_window *w, uint32_t rgb, int x, int y, const char *kind);

/* What an event or a client's record says about the case's windows.  The tracker applies
 * geometry (OW_GEOMETRY) and destruction (OW_GONE, OW_DESTROY) itself; OW_MAP and OW_UNMAP are
 * for the oracle to apply (ow_set_mapped and what it does on a change); OW_CREATE is for the
 * oracle to add with ow_add once it has taken what is queued about an earlier window of the ID. */
enum ow_change { OW_NOTHING, OW_GEOMETRY, OW_MAP, OW_UNMAP, OW_GONE, OW_CREATE, OW_DESTROY };
enum ow_change ow_event(struct ow_tracker *t, const xcb_generic_event_t *e, struct ow_window **w);
/* a client's record: `done cmd=create window=XID` (OW_CREATE with *xid), `done cmd=destroy`
 * (the client's windows are gone), map-notify, unmap-notify, configure-notify, reparent-notify */
enum ow_change ow_record(struct ow_tracker *t, const struct record *r, xcb_window_t *xid, struct ow_window **w);
/* The client's new window (one window per client: its earlier ones are gone), selected for
 * StructureNotify (not flushed); NULL when the case has OW_MAX_WINDOWS already. */
struct ow_window *ow_add(struct ow_tracker *t, const char *client, xcb_window_t xid);

/* At a case's end: where its windows were (for ow_settle), and no window any more. */
void ow_case_end(struct ow_tracker *t);

/* How an oracle looks for the last case's frame colours, and waits for the screen to change. */
struct ow_settle_ops {
    bool (*frame_colour_in)(void *ctx, xcb_rectangle_t r); /* any pixel of r shows a frame colour */
    bool (*wait)(void *ctx, int64_t left_us);               /* false: stop waiting (an error, a signal) */
    void *ctx;
};
/* At a case's start, under a compositor (active): the last case's windows are gone, but the
 * compositor may not have repainted yet, and their frame colours would be taken for this case's
 * windows.  Waits (at most max_ms) until none is left where they were; when some still is, a
 * `stale` record says so.  Then it forgets where they were. */
void ow_settle(struct ow_tracker *t, struct session *s, bool active, int max_ms, const struct ow_settle_ops *ops);

/* ow_settle_ops for the oracles that take pictures (oracle-capture.c, oracle-stream.c), their ctx
 * the struct capture they take them with: does any pixel of r show a frame colour; and the next
 * look, 20 ms or a signal (false once the run is interrupted) */
bool ow_capture_shows_frame(void *capture, xcb_rectangle_t r);
bool ow_wait_signal(void *ctx, int64_t left_us);

#endif
