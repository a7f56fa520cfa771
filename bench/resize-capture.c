/* The resize cell's capture (resize.h): a thread on its own connection, woken by root DAMAGE over
 * its two lines (one row and one column of the root through the window's fixed top-left corner);
 * under a server grab it reads them and the window's geometry in the same instant, decodes each
 * line at once and keeps it in memory, with PNG crops of the worst-looking frames. */
#include "resize.h"
#include "clock.h"
#include "stream.h"
#include "xhelpers.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xcb/damage.h>

#define THUMB_FETCHES 12       /* at most this many crops taken per cell: each is a GetImage of about
                                * 0.8 MB, during which the capture misses frames */

static int32_t frame_of_edge(uint32_t rgb)
{
    return (rgb & 0xFF) == EDGE_MARKER ? frame_of_colour((rgb & 0xFFFF00u) | FRAME_COLOUR_MARKER) : -1;
}
static bool windowish(uint32_t rgb) { return frame_of_colour(rgb) >= 0 || frame_of_edge(rgb) >= 0 || rgb == BG_RGB; }

uint32_t resize_capture_px(const struct resize_capture *cp, const uint8_t *d, int i)
{
    int bytes = cp->bpp / 8;
    uint32_t p = 0;
    for (int b = 0; b < bytes; b++)
        p |= (uint32_t)d[i * bytes + (cp->msb_first ? b : bytes - 1 - b)] << (8 * (bytes - 1 - b));
    return p & 0xffffff;
}

/* a line read off the root as 0xRRGGBB pixels; false when the reply is short */
static bool image_line(const struct resize_capture *cp, const uint8_t *d, int len, int n, uint32_t *out)
{
    if (len < n * (cp->bpp / 8))
        return false;
    for (int i = 0; i < n; i++)
        out[i] = resize_capture_px(cp, d, i);
    return true;
}

struct line_info resize_decode_line(const struct resize_capture *cp, const uint32_t *px, int n)
{
    struct line_info li = {.start = -1, .frame = -1, .interior_end = -1, .marker_end = -1, .extent = -1,
                           .other = -1, .bare = -1};
    int i = 0;
    while (i < n && !windowish(px[i]))
        i++;
    if (i == n)
        return li;
    li.start = (int16_t)(i - PAD);
    uint32_t first = px[i];
    li.frame = (int16_t)frame_of_colour(first);
    int j = i;
    if (li.frame >= 0)
        while (j < n && px[j] == first)
            j++;
    li.interior_end = (int16_t)(j - PAD);
    if (li.frame >= 0) {
        int m = j;
        while (m < n && m < j + EDGE_PX && frame_of_edge(px[m]) == li.frame)
            m++;
        if (m == j + EDGE_PX)
            li.marker_end = (int16_t)(m - PAD);
    }
    int e = i;
    for (; e < n && windowish(px[e]); e++) {
        int32_t f = frame_of_colour(px[e]), g = frame_of_edge(px[e]);
        int32_t any = f >= 0 ? f : g;
        if (any >= 0 && any != li.frame && li.other < 0)
            li.other = (int16_t)any;
    }
    li.extent = (int16_t)(e - PAD);
    if (atomic_load((atomic_bool *)&cp->no_backdrop)) {
        li.bare = -2; /* no backdrop: where the window ends on screen cannot be told */
        return li;
    }
    while (e < n && px[e] != DESK_RGB)
        e++;
    if (e < n)
        li.bare = (int16_t)(e - PAD);
    return li;
}

static struct line_info decode_image(const struct resize_capture *cp, const uint8_t *d, int len, int n)
{
    uint32_t px[LINE_W > LINE_H ? LINE_W : LINE_H];
    if (!image_line(cp, d, len, n, px))
        return (struct line_info){.start = -1, .frame = -1, .interior_end = -1, .marker_end = -1, .extent = -1,
                                  .other = -1, .bare = -1};
    return resize_decode_line(cp, px, n);
}

/* ---- pictures of the worst-looking frames ---- */
static bool marker_short(const struct line_info *l, int edge, int deco)
{
    /* the markers end before the server's edge, and the backdrop does not follow them (past the
     * decoration): black or garbage, or background, up to the edge (runner/reports/bench_resize.py) */
    return l->marker_end > 0 && l->marker_end < edge && l->bare != -2 &&
           !(l->bare >= 0 && l->bare - l->marker_end <= deco);
}

static void learn_decoration(struct resize_capture *cp, const struct capture_rec *r)
{
    if (cp->deco_row < 0 && r->row.marker_end == r->gw && r->row.extent == r->gw && r->row.bare >= 0)
        cp->deco_row = r->row.bare - r->row.marker_end;
    if (cp->deco_col < 0 && r->col.marker_end == r->gh && r->col.extent == r->gh && r->col.bare >= 0)
        cp->deco_col = r->col.bare - r->col.marker_end;
}

/* How wrong a frame looks from its two lines (0: it looks consistent): the window's area its paint
 * does not cover (or all of it: two paints, a moved corner, no paint at the corner), at least 1
 * for a missing marker.  It only picks which frames get a picture; the report classifies them. */
static long glitch_score(const struct resize_capture *cp, const struct capture_rec *r)
{
    const struct line_info *a = &r->row, *b = &r->col;
    if (a->start < 0 && b->start < 0)
        return 0; /* not on screen */
    long whole = (long)(a->extent > r->gw ? a->extent : r->gw) * (b->extent > r->gh ? b->extent : r->gh);
    if (a->start != 0 || b->start != 0 || r->gx || r->gy || a->frame < 0 || a->frame != b->frame ||
        a->other >= 0 || b->other >= 0)
        return whole > 0 ? whole : 1;
    int sw = marker_short(a, r->gw, cp->deco_row < 0 ? 0 : cp->deco_row) ? r->gw : a->extent;
    int sh = marker_short(b, r->gh, cp->deco_col < 0 ? 0 : cp->deco_col) ? r->gh : b->extent;
    int pw = a->marker_end > 0 ? a->marker_end : a->interior_end;
    int ph = b->marker_end > 0 ? b->marker_end : b->interior_end;
    long hole = (long)sw * sh - (long)pw * ph;
    if (hole > 0)
        return hole;
    return a->marker_end < 0 || b->marker_end < 0 ? 1 : 0;
}

/* the slot a frame of this score takes: a free one, else the least bad if it is worse (-1: none) */
static int thumb_slot(const struct resize_capture *cp, long score)
{
    int least = 0;
    for (int i = 0; i < THUMBS; i++) {
        if (cp->thumbs[i].index < 0)
            return i;
        if (cp->thumbs[i].score < cp->thumbs[least].score)
            least = i;
    }
    return score > cp->thumbs[least].score ? least : -1;
}

void resize_picture_lines(const uint8_t *rgb, uint32_t *row, uint32_t *col)
{
    for (int x = 0; x < LINE_W; x++) {
        const uint8_t *p = rgb + ((size_t)(PAD + INSET) * LINE_W + (size_t)x) * 3;
        row[x] = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
    }
    for (int y = 0; y < LINE_H; y++) {
        const uint8_t *p = rgb + ((size_t)y * LINE_W + (size_t)(PAD + INSET)) * 3;
        col[y] = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
    }
}

/* the crop's own row and column (LINE_W x LINE_H, 8-bit RGB), decoded as the capture's lines were:
 * the same frame? */
static bool crop_matches(const struct resize_capture *cp, const uint8_t *rgb, const struct capture_rec *r)
{
    uint32_t row_px[LINE_W], col_px[LINE_H];
    resize_picture_lines(rgb, row_px, col_px);
    struct line_info row = resize_decode_line(cp, row_px, LINE_W), col = resize_decode_line(cp, col_px, LINE_H);
    return memcmp(&row, &r->row, sizeof row) == 0 && memcmp(&col, &r->col, sizeof col) == 0;
}

/* The area of the lines off the root, 8-bit RGB (malloc'd), or NULL */
static uint8_t *root_crop(const struct resize_capture *cp)
{
    xcb_get_image_reply_t *img = xcb_get_image_reply(
        cp->c, xcb_get_image(cp->c, XCB_IMAGE_FORMAT_Z_PIXMAP, cp->root, (int16_t)(cp->left0 - PAD),
                             (int16_t)(cp->top0 - PAD), LINE_W, LINE_H, ~0u), NULL);
    int len = img ? xcb_get_image_data_length(img) : 0, stride = len / LINE_H, bytes = cp->bpp / 8;
    if (!img || bytes < 3 || bytes > 4 || stride < LINE_W * bytes) {
        free(img);
        return NULL;
    }
    const uint8_t *d = xcb_get_image_data(img);
    uint8_t *rgb = malloc((size_t)LINE_W * LINE_H * 3);
    for (int y = 0; y < LINE_H; y++)
        for (int x = 0; x < LINE_W; x++) {
            uint32_t p = resize_capture_px(cp, d + (size_t)y * (size_t)stride, x);
            uint8_t *o = rgb + ((size_t)y * LINE_W + (size_t)x) * 3;
            o[0] = (uint8_t)(p >> 16), o[1] = (uint8_t)(p >> 8), o[2] = (uint8_t)p;
        }
    free(img);
    return rgb;
}

/* A capture that looks glitched and is among the worst so far: the area of its lines taken as a
 * picture right after it (off the root, the lines were read under a grab that is over; off the
 * stream, its latest frame, which may be a newer one): the crop is kept only if its own row and
 * column decode the same, so it shows that very frame. */
static void maybe_thumb(struct resize_capture *cp, const struct capture_rec *r, int index)
{
    long score = glitch_score(cp, r);
    int slot = score > 0 && cp->fetches < THUMB_FETCHES ? thumb_slot(cp, score) : -1;
    if (slot < 0)
        return;
    cp->fetches++;
    uint8_t *rgb = cp->stream ? resize_stream_crop(cp) : cp->sampler ? resize_sampled_crop(cp) : root_crop(cp);
    if (!rgb || !crop_matches(cp, rgb, r)) {
        free(rgb);
        return;
    }
    struct thumb *t = &cp->thumbs[slot];
    free(t->rgb);
    t->rgb = rgb;
    t->index = index;
    t->score = score;
}

void resize_capture_keep(struct resize_capture *cp, int k)
{
    struct capture_rec *r = &cp->recs[k];
    if (r->row.frame >= 0 && r->row.start == 0)
        atomic_store(&cp->shown, true);
    atomic_store(&cp->n, k + 1);
    learn_decoration(cp, r);
    maybe_thumb(cp, r, k);
}

static void capture_once(struct resize_capture *cp, int64_t damage_us)
{
    int k = atomic_load(&cp->n);
    if (k >= MAX_CAPTURES)
        return;
    struct capture_rec *r = &cp->recs[k];
    r->damage_us = damage_us;
    r->sample_us = clock_now_us();
    xcb_grab_server(cp->c);
    xcb_get_image_cookie_t row = xcb_get_image(cp->c, XCB_IMAGE_FORMAT_Z_PIXMAP, cp->root,
                                               (int16_t)(cp->left0 - PAD), (int16_t)(cp->top0 + INSET), LINE_W, 1, ~0u);
    xcb_get_image_cookie_t col = xcb_get_image(cp->c, XCB_IMAGE_FORMAT_Z_PIXMAP, cp->root,
                                               (int16_t)(cp->left0 + INSET), (int16_t)(cp->top0 - PAD), 1, LINE_H, ~0u);
    xcb_translate_coordinates_cookie_t tc = xcb_translate_coordinates(cp->c, cp->win, cp->root, 0, 0);
    xcb_get_geometry_cookie_t gc = xcb_get_geometry(cp->c, cp->win);
    xcb_ungrab_server(cp->c);
    xcb_flush(cp->c);
    xcb_get_image_reply_t *ri = xcb_get_image_reply(cp->c, row, NULL);
    xcb_get_image_reply_t *ci = xcb_get_image_reply(cp->c, col, NULL);
    xcb_translate_coordinates_reply_t *t = xcb_translate_coordinates_reply(cp->c, tc, NULL);
    xcb_get_geometry_reply_t *g = xcb_get_geometry_reply(cp->c, gc, NULL);
    if (ri && ci && t && g) {
        r->row = decode_image(cp, xcb_get_image_data(ri), xcb_get_image_data_length(ri), LINE_W);
        r->col = decode_image(cp, xcb_get_image_data(ci), xcb_get_image_data_length(ci), LINE_H);
        r->gx = (int16_t)(t->dst_x - cp->left0);
        r->gy = (int16_t)(t->dst_y - cp->top0);
        r->gw = g->width;
        r->gh = g->height;
        resize_capture_keep(cp, k);
    }
    free(ri);
    free(ci);
    free(t);
    free(g);
}

static bool crosses_lines(const struct resize_capture *cp, const xcb_rectangle_t *a)
{
    int rx = cp->left0 - PAD, ry = cp->top0 + INSET, cx = cp->left0 + INSET, cy = cp->top0 - PAD;
    bool row = ry >= a->y && ry < a->y + a->height && rx < a->x + a->width && a->x < rx + LINE_W;
    bool col = cx >= a->x && cx < a->x + a->width && cy < a->y + a->height && a->y < cy + LINE_H;
    return row || col;
}

static void *capture_run(void *arg)
{
    struct resize_capture *cp = arg;
    capture_once(cp, clock_now_us()); /* what is there before anything changes */
    for (;;) {
        int64_t first = -1;
        xcb_generic_event_t *e;
        while ((e = xcb_poll_for_event(cp->c))) {
            if ((e->response_type & 0x7f) == cp->damage_event &&
                crosses_lines(cp, &((xcb_damage_notify_event_t *)e)->area) && first < 0)
                first = clock_now_us();
            free(e);
        }
        if (first >= 0) {
            capture_once(cp, first);
            continue;
        }
        struct pollfd p[2] = {{.fd = xcb_get_file_descriptor(cp->c), .events = POLLIN},
                              {.fd = cp->stop[0], .events = POLLIN}};
        poll(p, 2, 1000);
        if (p[1].revents || xcb_connection_has_error(cp->c))
            break;
    }
    return NULL;
}

void resize_capture_stop(struct resize_capture *cp)
{
    if (cp->sampler) {
        resize_sampler_stop(cp);
        cp->started = false;
    }
    if (cp->started) {
        ssize_t n = write(cp->stop[1], "x", 1);
        (void)n;
        pthread_join(cp->thread, NULL);
        cp->started = false;
    }
    if (cp->stream)
        stream_watch(cp->stream, NULL, NULL, 0); /* its lines no longer reported */
    for (int i = 0; i < 2; i++)
        if (cp->stop[i] >= 0)
            close(cp->stop[i]), cp->stop[i] = -1;
    if (cp->c)
        xcb_disconnect(cp->c), cp->c = NULL;
}

int resize_capture_init(struct resize_capture *cp, xcb_window_t win, int left0, int top0, char *err, size_t errlen)
{
    cp->stop[0] = cp->stop[1] = -1;
    cp->deco_row = cp->deco_col = -1;
    for (int i = 0; i < THUMBS; i++)
        cp->thumbs[i].index = -1;
    cp->c = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(cp->c)) {
        snprintf(err, errlen, "the capture cannot connect to the X server");
        return -1;
    }
    cp->root = xcb_setup_roots_iterator(xcb_get_setup(cp->c)).data->root;
    cp->win = win;
    cp->left0 = left0;
    cp->top0 = top0;
    return 0;
}

int resize_capture_start(struct resize_capture *cp, xcb_window_t win, int left0, int top0, char *err, size_t errlen)
{
    if (resize_capture_init(cp, win, left0, top0, err, errlen) < 0)
        return -1;
    const xcb_setup_t *setup = xcb_get_setup(cp->c);
    xcb_screen_t *scr = xcb_setup_roots_iterator(setup).data;
    cp->msb_first = setup->image_byte_order == XCB_IMAGE_ORDER_MSB_FIRST;
    cp->bpp = 32;
    for (xcb_format_iterator_t f = xcb_setup_pixmap_formats_iterator(setup); f.rem; xcb_format_next(&f))
        if (f.data->depth == scr->root_depth)
            cp->bpp = f.data->bits_per_pixel;
    const xcb_query_extension_reply_t *ext = xcb_get_extension_data(cp->c, &xcb_damage_id);
    if (!ext || !ext->present) {
        snprintf(err, errlen, "the X server has no DAMAGE extension");
        return -1;
    }
    free(xcb_damage_query_version_reply(cp->c, xcb_damage_query_version(cp->c, 1, 1), NULL));
    cp->damage_event = ext->first_event + XCB_DAMAGE_NOTIFY;
    xcb_damage_create(cp->c, xcb_generate_id(cp->c), cp->root, XCB_DAMAGE_REPORT_LEVEL_RAW_RECTANGLES);
    xh_round_trip(cp->c);
    if (pipe2(cp->stop, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    if (pthread_create(&cp->thread, NULL, capture_run, cp) != 0) {
        snprintf(err, errlen, "cannot start the capture thread");
        return -1;
    }
    cp->started = true;
    return 0;
}
