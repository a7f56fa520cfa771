/* fake-wm: shared state and the interfaces between its parts.
 *
 * One process, one thread, two X connections:
 *   wm.c   - the window manager connection `X.c`: WM_S0, SubstructureRedirect, MapRequest /
 *            ConfigureRequest, the sync request protocol, counters and alarms.
 *   composite.c - the compositor connection `X.pc`: _NET_WM_CM_S0, Composite redirection,
 *            DAMAGE, XRender painting into the overlay window, SYNC fences.  Fence waits
 *            (AwaitFence) block only this connection, so the WM keeps working while the
 *            compositor waits, as glWaitSync would block only the GPU.
 *   moveresize.c - _NET_WM_MOVERESIZE: checks it, starts keyboard (keyresize.c) or pointer
 *            (pointerresize.c) resizing with a grab retried on a timer; their steps go through
 *            the same ConfigureRequest path (syncreq.c) as a client's own resize.
 * See README.md for the behaviour; this header only describes the code.
 */
#ifndef FAKEWM_H
#define FAKEWM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <xcb/xcb.h>
#include <xcb/sync.h>
#include <xcb/render.h>
#include <xcb/damage.h>

#include "clock.h"
#include "comp.h"
#include "counters.h"
#include "faults.h"
#include "features.h"
#include "injections.h"
#include "log.h"
#include "selection.h"
#include "state.h"
#include "sync.h"
#include "variants.h"
#include "win.h"
#include "winops.h"
#include "xhelpers.h"

/* ---- the control channel (control.c): resizes, moves and drawn messages a test asks for ---- */
bool control_client_message(const xcb_client_message_event_t *e);
int control_drawn_delay_ms(xcb_window_t win, int64_t value);
/* drawn.c: a drawn message the control channel delayed */
void drawn_release_delayed(void);

void wm_start(void);                    /* selections, check window, redirect */
void wm_handle_event(xcb_generic_event_t *ev);
void wm_check_timers(int64_t now);
int64_t wm_next_deadline(void);

/* ---- interactive resizes (moveresize.c): _NET_WM_MOVERESIZE, the grab, one at a time ---- */
void moveresize_client_message(const xcb_client_message_event_t *e);
void moveresize_window_gone(struct win *w);             /* unmanaged: end or forget its resize */
void moveresize_check_timers(int64_t now);              /* grab retries, compressed motion */
int64_t moveresize_next_deadline(void);
void interactive_configure(struct win *w, enum resize_origin o, const struct configure_req *r);

/* ---- keyboard resizing (keyresize.c): SIZE_KEYBOARD + arrow keys ---- */
uint8_t kbd_resize_grab(void);                          /* one GrabKeyboard attempt: its status */
void kbd_resize_begin(struct win *w, uint32_t source);  /* the keyboard is grabbed */
bool kbd_resize_running(xcb_window_t *which);
void kbd_resize_end(const char *why);
void kbd_resize_key_press(const xcb_key_press_event_t *e);
void kbd_resize_mapping_changed(void);                  /* MappingNotify: re-read the keymap */
void kbd_resize_window_gone(struct win *w);             /* unmanaged: end its resize */

/* ---- pointer resizing (pointerresize.c): SIZE_TOPLEFT..SIZE_LEFT + the held button ---- */
struct ptr_start {
    uint32_t dir;           /* 0..7 */
    int16_t root_x, root_y; /* the pointer when the client sent the message */
    uint32_t button;        /* l[3]: the button held (0: any) */
};
bool ptr_resize_button_down(void);                      /* QueryPointer: is any button held? */
uint8_t ptr_resize_grab(void);                          /* one GrabPointer attempt: its status */
void ptr_resize_begin(struct win *w, const struct ptr_start *start, uint32_t source);
bool ptr_resize_running(xcb_window_t *which);
void ptr_resize_end(const char *why);
void ptr_resize_motion(const xcb_motion_notify_event_t *e);
void ptr_resize_button_release(const xcb_button_release_event_t *e);
bool ptr_resize_motion_pending(void);
void ptr_resize_flush_motion(void);                     /* apply the latest motion seen */
void ptr_resize_window_gone(struct win *w);

/* ---- staged frames (stage.c): paint-delay and compress-every ---- */
bool stage_update(struct win *w, int64_t value, int64_t now); /* true: staged, shown later */
bool stage_holding(const struct win *w);
void stage_release_due(int64_t now);
int64_t stage_next_deadline(void);
void stage_forget(struct win *w);

/* ---- fade-in (fade.c): the variant's opacity ramp of newly mapped windows ---- */
void fade_window_mapped(struct win *w);
void fade_window_unmapped(struct win *w);
void fade_update_completed(struct win *w);       /* later updates: full opacity */
uint16_t fade_alpha(struct win *w, int64_t now); /* painting w now: its opacity, 0..0xffff */
bool fade_running(const struct win *w);

/* ---- drawn messages (drawn.c) ---- */
bool drawn_enabled_for(const struct win *w);   /* extended window, compositing, profile */
void drawn_window_mapped(struct win *w, int64_t value, bool odd);
void drawn_update_completed(struct win *w, int64_t value);
/* a paint is being issued and shows w: collect the updates it shows */
void drawn_collect(struct win *w);
/* the server has processed that paint (at server_time): send the messages */
void drawn_paint_done(xcb_timestamp_t server_time);
void drawn_tick(int64_t now);                   /* drawn-delay: send the messages that are due */
int64_t drawn_next_deadline(void);
void drawn_forget(struct win *w);

/* ---- fences (fences.c) ---- */
void fences_read(struct win *w);                 /* at map */
void fences_start(void);                         /* own fence (compositor connection) */
/* before snapshotting update N of w: AwaitFence on the client fence or own fence;
 * returns the client fence awaited (for the timeout) or XCB_NONE */
xcb_sync_fence_t fences_before_update(struct win *w, int64_t n);
void fences_after_update(xcb_sync_fence_t f);
void fences_own_before_paint(void);              /* damage outside updates */
void fences_timeout(xcb_sync_fence_t f, const struct win *w);

/* ---- helpers (main.c) ---- */
void wm_sync_events(void); /* round trip on the WM connection and handle what it brought */
#endif
