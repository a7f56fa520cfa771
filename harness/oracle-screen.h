/* The screen oracle (source "screen"): what the compositor put on screen at each window of the
 * case.  It reads the ROOT window (GetImage of one pixel at the window's centre, in root
 * coordinates): under a compositor that is the composited screen, while GetImage of the client
 * window would only show what the client drew (docs/observing-x11.md).  The pixel is
 * decoded with frame_of_colour() (common/frame-colour.h).
 *
 *   shows client=A window=XID frame=K rgb=RRGGBB x=X y=Y mapped=0|1 via=damage|poll|map|create|moved
 *
 * is recorded when the pixel at A's window changes (frame=-1: not a frame colour, nothing of the
 * window is shown there) or the sampled point moves (via=moved: a new geometry showing the same
 * colour at its centre), and with the current state whenever the oracle learns that the window
 * was mapped or unmapped.  t is when the sample was taken (the GetImage was sent; `rtt_us` says
 * how long until its reply).
 *
 * The windows come from the clients' records (`done cmd=create window=XID`; map, unmap,
 * configure and reparent records refresh the position) and from StructureNotify on the oracle's
 * own connection.  Sampling is driven by a DAMAGE object on the root (RawRectangles: each
 * painted rectangle is checked against the sampled points), with a 4 ms timer as a fallback
 * while a case runs and this compositor has not yet been seen to damage the root
 * (FRAMESYNC_SCREEN_POLL=1 in the environment keeps the timer on as well: a check that damage
 * misses nothing).
 * It records nothing when nobody owns _NET_WM_CM_S0.  It never calls GetOverlayWindow, and moves
 * the pointer to the bottom-right corner at each case start (Xvfb's software cursor damages the
 * root). */
#ifndef FRAMESYNC_ORACLE_SCREEN_H
#define FRAMESYNC_ORACLE_SCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xcb/xcb.h>
#include "oracle.h"
#include "xserver.h"

struct oracle *oracle_screen_create(struct xserver *x, char *err, size_t errlen);
void oracle_screen_destroy(struct oracle *o);
/* Writes what the root window shows now (the composited screen) to a PNG at path: the picture
 * of a failure for the reports.  -1 with err. */
int oracle_screen_snapshot(struct oracle *o, const char *path, char *err, size_t errlen);

/* ---- pure parts ---- */

/* How a GetImage (ZPixmap) pixel is laid out: bits per pixel (8, 16, 24 or 32), the server's
 * image byte order (true: MSB first) and the visual's channel masks. */
struct pixel_format {
    int bpp;
    bool msb_first;
    uint32_t red_mask, green_mask, blue_mask;
};

/* The root visual's layout, from the connection setup; false when it is not understood. */
bool screen_pixel_format(const xcb_setup_t *setup, const xcb_screen_t *scr, struct pixel_format *pf);
/* The pixel value of 0x00RRGGBB in that layout (a window background of that colour). */
uint32_t screen_pixel_of_rgb(const struct pixel_format *f, uint32_t rgb);

/* The first pixel of ZPixmap data as 0x00RRGGBB (each channel scaled to 8 bits); returns -1
 * when the data is too short or the format is not understood. */
int screen_decode_pixel(const struct pixel_format *f, const uint8_t *data, size_t len, uint32_t *rgb);

/* "shows client=A window=XID frame=K rgb=RRGGBB x=X y=Y mapped=M via=V rtt_us=R changed=C" (no
 * t); C is 1 or 0 (changed is screen_behind_changed's, oracle-windows.h), or unknown (changed
 * < 0). */
int screen_format_shows(char *out, size_t len, const char *client, uint32_t window, uint32_t rgb,
                        int x, int y, bool mapped, const char *via, int64_t rtt_us, int changed);

#endif
