/* The compositor's pictures of a window (pictures.h). */
#include "pictures.h"

#include "compsched.h"
#include "log.h"
#include "state.h"

#include <stdlib.h>
#include <xcb/composite.h>
#include <xcb/xcb_renderutil.h>

static const xcb_render_query_pict_formats_reply_t *formats;
static xcb_render_pictformat_t root_format;

static xcb_render_pictformat_t format_for_visual(xcb_visualid_t v, bool *argb)
{
    xcb_render_pictvisual_t *pv = xcb_render_util_find_visual_format(formats, v);
    *argb = false;
    if (!pv)
        return root_format;
    xcb_render_pictforminfo_iterator_t it = xcb_render_query_pict_formats_formats_iterator(formats);
    for (; it.rem; xcb_render_pictforminfo_next(&it))
        if (it.data->id == pv->format)
            *argb = it.data->direct.alpha_mask != 0;
    return pv->format;
}

void pictures_start(void)
{
    formats = xcb_render_util_query_formats(X.pc);
    if (!formats) {
        logmsg("cannot query XRender formats");
        exit(1);
    }
    bool argb;
    root_format = format_for_visual(X.screen->root_visual, &argb);
}

xcb_render_pictformat_t pictures_root_format(void) { return root_format; }

void learn_attrs(struct win *w)
{
    if (w->attrs_known)
        return;
    xcb_get_window_attributes_reply_t *a =
        xcb_get_window_attributes_reply(X.c, xcb_get_window_attributes(X.c, w->id), NULL);
    xcb_get_geometry_reply_t *g = xcb_get_geometry_reply(X.c, xcb_get_geometry(X.c, w->id), NULL);
    if (a && g) {
        w->attrs_known = true;
        w->input_only = a->_class == XCB_WINDOW_CLASS_INPUT_ONLY;
        w->visual = a->visual;
        w->depth = g->depth;
        if (!w->input_only)
            w->format = format_for_visual(w->visual, &w->argb);
    }
    free(a);
    free(g);
}

bool paintable(const struct win *w)
{
    return !w->own && w->mapped && w->attrs_known && !w->input_only && w->live_pic;
}

void free_live(struct win *w)
{
    if (w->live_pic)
        xcb_render_free_picture(X.pc, w->live_pic);
    if (w->live_pix)
        xcb_free_pixmap(X.pc, w->live_pix);
    w->live_pic = w->live_pix = XCB_NONE;
}

void free_saved(struct win *w)
{
    if (w->saved_pic)
        xcb_render_free_picture(X.pc, w->saved_pic);
    if (w->saved_pix)
        xcb_free_pixmap(X.pc, w->saved_pix);
    w->saved_pic = w->saved_pix = XCB_NONE;
    w->shown = false;
}

void name_live(struct win *w)
{
    free_live(w);
    w->live_pix = xcb_generate_id(X.pc);
    xcb_composite_name_window_pixmap(X.pc, w->id, w->live_pix);
    w->live_pic = xcb_generate_id(X.pc);
    uint32_t mode = XCB_SUBWINDOW_MODE_INCLUDE_INFERIORS;
    xcb_render_create_picture(X.pc, w->live_pic, w->live_pix, w->format, XCB_RENDER_CP_SUBWINDOW_MODE, &mode);
}

static uint16_t outer_w(const struct win *w) { return (uint16_t)(w->w + 2 * w->bw); }
static uint16_t outer_h(const struct win *w) { return (uint16_t)(w->h + 2 * w->bw); }

/* a pixmap of the window's depth and outer size, with a picture of its format on it */
static void new_picture(const struct win *w, uint16_t ow, uint16_t oh, xcb_pixmap_t *pix, xcb_render_picture_t *pic)
{
    *pix = xcb_generate_id(X.pc);
    xcb_create_pixmap(X.pc, w->depth, *pix, X.root, ow, oh);
    *pic = xcb_generate_id(X.pc);
    xcb_render_create_picture(X.pc, *pic, *pix, w->format, 0, NULL);
}

/* the live contents into dst, damage taken: the window is clean until its next update */
static void take_live(struct win *w, xcb_render_picture_t dst, uint16_t ow, uint16_t oh)
{
    if (w->damage)
        xcb_damage_subtract(X.pc, w->damage, XCB_NONE, XCB_NONE);
    xcb_render_composite(X.pc, XCB_RENDER_PICT_OP_SRC, w->live_pic, XCB_NONE, dst, 0, 0, 0, 0, 0, 0, ow, oh);
    w->dirty = false;
}

/* refresh the saved copy from the live contents (the caller took care of fences) */
void copy_live(struct win *w)
{
    uint16_t ow = outer_w(w), oh = outer_h(w);
    if (ow == 0 || oh == 0)
        return;
    if (!w->saved_pix || w->saved_w != ow || w->saved_h != oh) {
        bool was_shown = w->shown;
        free_saved(w);
        w->shown = was_shown;
        new_picture(w, ow, oh, &w->saved_pix, &w->saved_pic);
        w->saved_w = ow;
        w->saved_h = oh;
    }
    take_live(w, w->saved_pic, ow, oh);
    w->shown = true;
}

bool comp_snapshot(struct win *w, struct frame *f)
{
    uint16_t ow = outer_w(w), oh = outer_h(w);
    if (ow == 0 || oh == 0 || !w->live_pic)
        return false;
    new_picture(w, ow, oh, &f->pix, &f->pic);
    f->w = ow;
    f->h = oh;
    take_live(w, f->pic, ow, oh);
    return true;
}

void comp_free_frame(struct frame *f)
{
    if (f->pic)
        xcb_render_free_picture(X.pc, f->pic);
    if (f->pix)
        xcb_free_pixmap(X.pc, f->pix);
    f->pic = f->pix = XCB_NONE;
}

void comp_show_frame(struct win *w, struct frame *f)
{
    free_saved(w);
    w->saved_pix = f->pix;
    w->saved_pic = f->pic;
    w->saved_w = f->w;
    w->saved_h = f->h;
    w->shown = true;
    w->show_released = true; /* not overwritten by later damage before a paint has shown it */
    comp_schedule();
}
