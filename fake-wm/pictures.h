/* The compositor's pictures of a window (pictures.c), on the compositor connection: its live
 * contents (the Composite-named pixmap), its saved copy (what is painted), and frames (snapshots of
 * its contents kept aside: stage.c). */
#ifndef FAKEWM_PICTURES_H
#define FAKEWM_PICTURES_H

#include <stdbool.h>
#include <xcb/render.h>

#include "win.h"

/* XRender's formats; exits 1 (logged) when they cannot be had */
void pictures_start(void);
xcb_render_pictformat_t pictures_root_format(void);

void learn_attrs(struct win *w);   /* class, visual, depth and picture format, once */
bool paintable(const struct win *w); /* mapped, known, not InputOnly, with live contents */
void name_live(struct win *w);     /* (again) after a map or a resize */
void free_live(struct win *w);
void free_saved(struct win *w);
/* refresh the saved copy from the live contents (the caller took care of fences) */
void copy_live(struct win *w);

/* the snapshot of w's live contents into a new frame (the caller took care of fences) */
bool comp_snapshot(struct win *w, struct frame *f);
void comp_free_frame(struct frame *f);
void comp_show_frame(struct win *w, struct frame *f); /* f becomes the saved copy (w owns it) */

#endif
