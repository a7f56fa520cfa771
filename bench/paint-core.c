/* Frames drawn with the core protocol: one PolyFillRectangle over the whole window, as a toolkit
 * without GL fills its background.  The compositor sees it as damage on the window. */
#include "bench.h"

#include <stdlib.h>

struct core_painter {
    struct painter p;
    struct client *cl;
    xcb_gcontext_t gc;
    xcb_visualtype_t *visual;
};

static xcb_visualtype_t *root_visual(xcb_screen_t *s)
{
    for (xcb_depth_iterator_t d = xcb_screen_allowed_depths_iterator(s); d.rem; xcb_depth_next(&d))
        for (xcb_visualtype_iterator_t v = xcb_depth_visuals_iterator(d.data); v.rem; xcb_visualtype_next(&v))
            if (v.data->visual_id == s->root_visual)
                return v.data;
    return NULL;
}

/* 0xRRGGBB into a pixel of a TrueColor visual with any channel masks */
static uint32_t to_pixel(const xcb_visualtype_t *v, uint32_t rgb)
{
    uint32_t masks[3] = {v->red_mask, v->green_mask, v->blue_mask}, pixel = 0;
    for (int c = 0; c < 3; c++) {
        uint32_t m = masks[c], value = (rgb >> (16 - 8 * c)) & 0xff;
        if (!m)
            continue;
        int shift = __builtin_ctz(m);
        uint32_t max = m >> shift;
        pixel |= ((value * max + 127) / 255) << shift;
    }
    return pixel;
}

static void core_paint(struct painter *p, int win, uint32_t rgb)
{
    struct core_painter *cp = (struct core_painter *)p;
    xcb_connection_t *c = client_conn(cp->cl);
    const struct bench_window *w = client_window(cp->cl, win);
    uint32_t pixel = to_pixel(cp->visual, rgb);
    xcb_change_gc(c, cp->gc, XCB_GC_FOREGROUND, &pixel);
    xcb_rectangle_t all = {0, 0, (uint16_t)w->w, (uint16_t)w->h};
    xcb_poly_fill_rectangle(c, w->id, cp->gc, 1, &all);
}

static void core_destroy(struct painter *p)
{
    struct core_painter *cp = (struct core_painter *)p;
    xcb_free_gc(client_conn(cp->cl), cp->gc);
    free(cp);
}

struct painter *painter_core(struct client *cl, char *err, size_t errlen)
{
    xcb_connection_t *c = client_conn(cl);
    xcb_screen_t *s = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
    struct core_painter *cp = calloc(1, sizeof *cp);
    cp->visual = root_visual(s);
    if (!cp->visual || cp->visual->_class != XCB_VISUAL_CLASS_TRUE_COLOR) {
        snprintf(err, errlen, "the root visual is not TrueColor: frame colours cannot be drawn exactly");
        free(cp);
        return NULL;
    }
    cp->cl = cl;
    cp->gc = xcb_generate_id(c);
    uint32_t no_exposures = 0;
    xcb_create_gc(c, cp->gc, s->root, XCB_GC_GRAPHICS_EXPOSURES, &no_exposures);
    cp->p = (struct painter){.name = "core", .paint = core_paint, .destroy = core_destroy};
    return &cp->p;
}
