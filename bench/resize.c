/* A resize cell, resize-TRIGGER-FORM-PAINTMS[-slow] (bench/README.md, "Resize cells"): one window
 * is resized along a fixed path, driven the way a user drives it, and every frame the compositor
 * shows is captured and later classified (reports/bench_resize.py).
 *
 * Three parts, each on its own connection:
 *   the client (this thread): a window whose every paint tells its size: the whole window in the
 *     colour of its paint number k (common/frame-colour.h), with EDGE_PX strips at its right and
 *     bottom edges in k's edge colour (the same red and green, blue byte EDGE_MARKER).  It paints
 *     the latest size after each batch of events (ConfigureNotify, Expose), the paint costs
 *     paint_ms, and it answers a sync request after painting the size that followed it, in its
 *     form: basic (its one counter to the value), draft (both counters: the draft's l[4] does not
 *     tell the forms apart), defacto (an extended request, l[4] = 1: the second counter odd at
 *     value + 1 before the paint, even at value + 2 after it; a basic one: the first counter, as
 *     GTK does), none (no counter listed: the control);
 *   the driver (a thread): _NET_WM_MOVERESIZE SIZE_BOTTOMRIGHT after an XTEST button press at the
 *     window's corner, then XTEST motion at HZ along the path (grow right, grow down, shrink
 *     diagonally), then the release; or, for cfgHZ, the client's own ConfigureRequests at HZ;
 *   the capture (a thread): woken by root DAMAGE over its two lines, under a server grab it reads
 *     one row and one column of the ROOT (the composited screen) through the window's fixed
 *     top-left corner, and the window's geometry from the server, in the same instant.  Each line
 *     is decoded at once (paint number, where the interior ends, where the edge marker ends, how
 *     far the window's pixels reach, where the backdrop under them is next seen) and kept in
 *     memory.
 * Every wait is an event or a deadline.  The rows (cell, one `resize` row with the traces,
 * cell-end) are written when the cell ends. */
#include "bench.h"
#include "clock.h"
#include "frame-colour.h"
#include "pngwrite.h"
#include "proc.h"
#include "xhelpers.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xcb/damage.h>
#include <xcb/xcb_icccm.h>
#include <xcb/xtest.h>

#define W0 320                 /* the start size, at a user-given position */
#define H0 200
#define X0 100
#define Y0 100
#define GROW_W 200             /* the path's reach */
#define GROW_H 120
#define EDGE_PX 4              /* the edge markers' width */
#define EDGE_MARKER 0xA5u      /* blue byte of an edge colour (frame colours have 0x5A) */
#define BG_RGB 0x203040u       /* the window's background: what the server fills unpainted area with */
#define DESK_RGB 0x3C6E1Eu     /* the backdrop behind the window: neither a paint, a marker nor BG_RGB */
#define PAD 8                  /* the lines start this far before the window's corner */
#define LINE_W (PAD + W0 + GROW_W + 40)
#define LINE_H (PAD + H0 + GROW_H + 40)
#define INSET 4                /* the row and the column run this far inside the top and left edges */
#define MAX_PAINTS 16000       /* < 2^14: a paint number is never ambiguous within a cell */
#define MAX_MOTIONS 20000
#define MAX_CAPTURES 20000
#define SHOW_WAIT_US 15000000
#define WARMUP_US 300000
#define SHOW_AGAIN_US 5000000  /* the window shown again once the backdrop is taken away */
#define BACKDROP_CHECK_US 1000000 /* a window not shown by then: is the backdrop above it? */
#define SETTLE_US 500000
#define SLOW_ANSWER_US 100000
#define CONFIGURE_WAIT_US 100000 /* a request with no ConfigureNotify after it is answered then */
#define GRAB_WAIT_US 2000000
#define PLACE_WAIT_US 2000000
#define MOVERESIZE_SIZE_BOTTOMRIGHT 4
#define MOVERESIZE_SIZE_KEYBOARD 9 /* EWMH: 8 is MOVE, 9 SIZE_KEYBOARD, 10 MOVE_KEYBOARD */
#define KEY_ANSWER_US 100000   /* a key press with no size change by then did nothing (openbox:
                                * the first key of an axis picks the edge); the next may go */
#define STEP_GUESS 8           /* what a key is taken to change before one did (openbox's KEY_DIST) */
#define XK_LEFT 0xff51
#define XK_UP 0xff52
#define XK_RIGHT 0xff53
#define XK_DOWN 0xff54
#define XK_RETURN 0xff0d
#define THUMBS 3               /* the worst-looking frames of a cell kept as pictures (PNG crops) */
#define THUMB_FETCHES 12       /* at most this many crops taken per cell: each is a GetImage of about
                                * 0.8 MB, during which the capture misses frames */

static uint32_t edge_colour(uint32_t k) { return (frame_colour(k) & 0xFFFF00u) | EDGE_MARKER; }
static int32_t frame_of_edge(uint32_t rgb)
{
    return (rgb & 0xFF) == EDGE_MARKER ? frame_of_colour((rgb & 0xFFFF00u) | FRAME_COLOUR_MARKER) : -1;
}
static bool windowish(uint32_t rgb) { return frame_of_colour(rgb) >= 0 || frame_of_edge(rgb) >= 0 || rgb == BG_RGB; }

/* ---- the path: the pointer's offset from where it started, at s in [0, 1] of one pass.  A pass
 * takes PATH_MS whatever the cell's time (so a cell means the same speed everywhere: about
 * 205 px/s); the drive is as many passes as fit --cell-ms, at least one ---- */
#define PATH_MS 2700
static const struct { double s; int dx, dy; } path[] = {
    {0.0, 0, 0}, {0.35, GROW_W, 0}, {0.55, GROW_W, GROW_H}, {0.9, 0, 0}, {1.0, 0, 0}};

static void path_at(double s, int *dx, int *dy)
{
    int n = (int)(sizeof path / sizeof path[0]);
    for (int i = 1; i < n; i++)
        if (s <= path[i].s || i == n - 1) {
            double f = (s - path[i - 1].s) / (path[i].s - path[i - 1].s);
            f = f < 0 ? 0 : f > 1 ? 1 : f;
            *dx = (int)(path[i - 1].dx + f * (path[i].dx - path[i - 1].dx) + 0.5);
            *dy = (int)(path[i - 1].dy + f * (path[i].dy - path[i - 1].dy) + 0.5);
            return;
        }
}

/* ---- what the capture decodes of one line ---- */
struct line_info {
    int16_t start;        /* first window pixel, from the window's start corner (0: where it was) */
    int16_t frame;        /* the paint number there (-1: not a paint: unpainted or foreign) */
    int16_t interior_end; /* where that paint's interior colour ends */
    int16_t marker_end;   /* where its edge marker ends right after (-1: no marker there) */
    int16_t extent;       /* where the window's pixels (paint, marker, background) end */
    int16_t other;        /* another paint number seen on the line (-1: none) */
    int16_t bare;         /* the first backdrop pixel from the extent on (-1: none): what lies between
                           * is neither the window's paint nor what is behind it (a decoration, or
                           * black or garbage where the window has no paint) */
};

struct capture_rec {
    int64_t damage_us, sample_us;
    int16_t gx, gy;
    uint16_t gw, gh;
    struct line_info row, col;
};

struct motion_rec {
    int64_t t_us;
    int16_t w, h; /* the size the pointer (or the request) asks for */
};

struct paint_rec {
    int64_t start_us, end_us;
    int16_t w, h;
    bool answers; /* it answered a request */
};

/* a picture of a frame: the capture's lines' area (LINE_W x LINE_H), 8-bit RGB */
struct thumb {
    int index;  /* the capture it shows (-1: none) */
    long score; /* glitch_score */
    uint8_t *rgb;
};

/* ---- the capture thread ---- */
struct capture {
    pthread_t thread;
    bool started;
    xcb_connection_t *c;
    xcb_window_t root, win;
    uint8_t damage_event;
    int left0, top0;
    int stop[2];
    bool msb_first;
    int bpp;
    struct capture_rec *recs;
    atomic_int n;
    atomic_bool shown; /* a capture saw a paint at the window's corner */
    atomic_bool no_backdrop; /* the backdrop was taken away (it covered the window): bare is -2 */
    struct thumb thumbs[THUMBS];
    int fetches;
    int deco_row, deco_col; /* the decoration's width past the markers, settled (-1: not seen yet) */
};

static uint32_t px_at(const struct capture *cp, const uint8_t *d, int i)
{
    int bytes = cp->bpp / 8;
    uint32_t p = 0;
    for (int b = 0; b < bytes; b++)
        p |= (uint32_t)d[i * bytes + (cp->msb_first ? b : bytes - 1 - b)] << (8 * (bytes - 1 - b));
    return p & 0xffffff;
}

static struct line_info decode(const struct capture *cp, const uint8_t *d, int len, int n)
{
    struct line_info li = {.start = -1, .frame = -1, .interior_end = -1, .marker_end = -1, .extent = -1,
                           .other = -1, .bare = -1};
    if (len < n * (cp->bpp / 8))
        return li;
    int i = 0;
    while (i < n && !windowish(px_at(cp, d, i)))
        i++;
    if (i == n)
        return li;
    li.start = (int16_t)(i - PAD);
    uint32_t first = px_at(cp, d, i);
    li.frame = (int16_t)frame_of_colour(first);
    int j = i;
    if (li.frame >= 0)
        while (j < n && px_at(cp, d, j) == first)
            j++;
    li.interior_end = (int16_t)(j - PAD);
    if (li.frame >= 0) {
        int m = j;
        while (m < n && m < j + EDGE_PX && frame_of_edge(px_at(cp, d, m)) == li.frame)
            m++;
        if (m == j + EDGE_PX)
            li.marker_end = (int16_t)(m - PAD);
    }
    int e = i;
    for (; e < n; e++) {
        uint32_t p = px_at(cp, d, e);
        if (!windowish(p))
            break;
        int32_t f = frame_of_colour(p), g = frame_of_edge(p);
        int32_t any = f >= 0 ? f : g;
        if (any >= 0 && any != li.frame && li.other < 0)
            li.other = (int16_t)any;
    }
    li.extent = (int16_t)(e - PAD);
    if (atomic_load((atomic_bool *)&cp->no_backdrop)) {
        li.bare = -2; /* no backdrop: where the window ends on screen cannot be told */
        return li;
    }
    while (e < n && px_at(cp, d, e) != DESK_RGB)
        e++;
    if (e < n)
        li.bare = (int16_t)(e - PAD);
    return li;
}

/* ---- pictures of the worst-looking frames ---- */
static bool marker_short(const struct line_info *l, int edge, int deco)
{
    /* the markers end before the server's edge, and the backdrop does not follow them (past the
     * decoration): black or garbage, or background, up to the edge (reports/bench_resize.py) */
    return l->marker_end > 0 && l->marker_end < edge && l->bare != -2 &&
           !(l->bare >= 0 && l->bare - l->marker_end <= deco);
}

static void learn_decoration(struct capture *cp, const struct capture_rec *r)
{
    if (cp->deco_row < 0 && r->row.marker_end == r->gw && r->row.extent == r->gw && r->row.bare >= 0)
        cp->deco_row = r->row.bare - r->row.marker_end;
    if (cp->deco_col < 0 && r->col.marker_end == r->gh && r->col.extent == r->gh && r->col.bare >= 0)
        cp->deco_col = r->col.bare - r->col.marker_end;
}

/* How wrong a frame looks from its two lines (0: it looks consistent): the window's area its paint
 * does not cover (or all of it: two paints, a moved corner, no paint at the corner), at least 1
 * for a missing marker.  It only picks which frames get a picture; the report classifies them. */
static long glitch_score(const struct capture *cp, const struct capture_rec *r)
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
static int thumb_slot(const struct capture *cp, long score)
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

/* the crop's own row and column, decoded as the capture's lines were: the same frame? */
static bool crop_matches(const struct capture *cp, const uint8_t *d, int stride, const struct capture_rec *r)
{
    int bytes = cp->bpp / 8;
    struct line_info row = decode(cp, d + (size_t)(PAD + INSET) * (size_t)stride, LINE_W * bytes, LINE_W);
    uint8_t col_px[LINE_H * 4];
    for (int y = 0; y < LINE_H; y++)
        memcpy(col_px + y * bytes, d + (size_t)y * (size_t)stride + (size_t)(PAD + INSET) * (size_t)bytes,
               (size_t)bytes);
    struct line_info col = decode(cp, col_px, LINE_H * bytes, LINE_H);
    return memcmp(&row, &r->row, sizeof row) == 0 && memcmp(&col, &r->col, sizeof col) == 0;
}

/* A capture that looks glitched and is among the worst so far: the area of its lines taken as a
 * picture right after it (the lines were read under a grab that is over; the crop is kept only if
 * its own row and column decode the same, so it shows that very frame). */
static void maybe_thumb(struct capture *cp, const struct capture_rec *r, int index)
{
    long score = glitch_score(cp, r);
    int slot = score > 0 && cp->fetches < THUMB_FETCHES ? thumb_slot(cp, score) : -1;
    if (slot < 0)
        return;
    cp->fetches++;
    xcb_get_image_reply_t *img = xcb_get_image_reply(
        cp->c, xcb_get_image(cp->c, XCB_IMAGE_FORMAT_Z_PIXMAP, cp->root, (int16_t)(cp->left0 - PAD),
                             (int16_t)(cp->top0 - PAD), LINE_W, LINE_H, ~0u), NULL);
    int len = img ? xcb_get_image_data_length(img) : 0, stride = len / LINE_H, bytes = cp->bpp / 8;
    const uint8_t *d = img ? xcb_get_image_data(img) : NULL;
    if (!img || bytes < 3 || bytes > 4 || stride < LINE_W * bytes || !crop_matches(cp, d, stride, r)) {
        free(img);
        return;
    }
    struct thumb *t = &cp->thumbs[slot];
    if (!t->rgb)
        t->rgb = malloc((size_t)LINE_W * LINE_H * 3);
    for (int y = 0; y < LINE_H; y++)
        for (int x = 0; x < LINE_W; x++) {
            uint32_t p = px_at(cp, d + (size_t)y * (size_t)stride, x);
            uint8_t *o = t->rgb + ((size_t)y * LINE_W + (size_t)x) * 3;
            o[0] = (uint8_t)(p >> 16), o[1] = (uint8_t)(p >> 8), o[2] = (uint8_t)p;
        }
    t->index = index;
    t->score = score;
    free(img);
}

static void capture_once(struct capture *cp, int64_t damage_us)
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
        r->row = decode(cp, xcb_get_image_data(ri), xcb_get_image_data_length(ri), LINE_W);
        r->col = decode(cp, xcb_get_image_data(ci), xcb_get_image_data_length(ci), LINE_H);
        r->gx = (int16_t)(t->dst_x - cp->left0);
        r->gy = (int16_t)(t->dst_y - cp->top0);
        r->gw = g->width;
        r->gh = g->height;
        if (r->row.frame >= 0 && r->row.start == 0)
            atomic_store(&cp->shown, true);
        atomic_store(&cp->n, k + 1);
        learn_decoration(cp, r);
        maybe_thumb(cp, r, k);
    }
    free(ri);
    free(ci);
    free(t);
    free(g);
}

static bool crosses_lines(const struct capture *cp, const xcb_rectangle_t *a)
{
    int rx = cp->left0 - PAD, ry = cp->top0 + INSET, cx = cp->left0 + INSET, cy = cp->top0 - PAD;
    bool row = ry >= a->y && ry < a->y + a->height && rx < a->x + a->width && a->x < rx + LINE_W;
    bool col = cx >= a->x && cx < a->x + a->width && cy < a->y + a->height && a->y < cy + LINE_H;
    return row || col;
}

static void *capture_run(void *arg)
{
    struct capture *cp = arg;
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

static void capture_stop(struct capture *cp)
{
    if (cp->started) {
        ssize_t n = write(cp->stop[1], "x", 1);
        (void)n;
        pthread_join(cp->thread, NULL);
        cp->started = false;
    }
    for (int i = 0; i < 2; i++)
        if (cp->stop[i] >= 0)
            close(cp->stop[i]), cp->stop[i] = -1;
    if (cp->c)
        xcb_disconnect(cp->c), cp->c = NULL;
}

static int capture_start(struct capture *cp, xcb_window_t win, int left0, int top0, char *err, size_t errlen)
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
    const xcb_setup_t *setup = xcb_get_setup(cp->c);
    xcb_screen_t *scr = xcb_setup_roots_iterator(setup).data;
    cp->root = scr->root;
    cp->win = win;
    cp->left0 = left0;
    cp->top0 = top0;
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

/* ---- the driver thread: the user ---- */
struct driver {
    pthread_t thread;
    bool started;
    xcb_connection_t *c;
    xcb_window_t root, win;
    xcb_atom_t moveresize;
    const struct resize_spec *rs;
    int corner_x, corner_y; /* the window's bottom-right pixel on the root when it began */
    int64_t duration_us;
    int stop[2];
    struct motion_rec *recs;
    int n;
    int64_t t0_us;           /* when the motion began (set before the thread's first motion) */
    int64_t ran_us;          /* how long it drove: duration_us, or less when stopped (interrupted) */
    bool grabbed;            /* the WM took the pointer (keyboard) grab after _NET_WM_MOVERESIZE */
    atomic_bool done;
    /* kbdHZ: the window's size from its ConfigureNotify; what a key last changed on each axis; the
     * axis of the last key; the last key press, and whether its change is still to come */
    int cw, ch, step_w, step_h;
    bool last_wide, key_pending;
    int keys;
    int64_t key_at;
    xcb_get_keyboard_mapping_reply_t *keymap;
    uint8_t keymap_min;
};

/* wait until `until` or a stop; false on a stop */
static bool driver_wait(struct driver *d, int64_t until)
{
    for (;;) {
        int64_t left = until - clock_now_us();
        if (left <= 0)
            return true;
        struct pollfd p = {.fd = d->stop[0], .events = POLLIN};
        if (poll(&p, 1, (int)((left + 999) / 1000)) > 0)
            return false;
    }
}

/* Asks the WM for an interactive resize of the window (_NET_WM_MOVERESIZE in `direction`, with
 * `button` held or 0), then waits up to GRAB_WAIT_US for it to take the pointer (keyboard) grab:
 * d->grabbed says whether it did. */
static void ask_moveresize(struct driver *d, uint32_t direction, uint32_t button, bool pointer)
{
    xcb_client_message_event_t ev;
    memset(&ev, 0, sizeof ev);
    ev.response_type = XCB_CLIENT_MESSAGE;
    ev.window = d->win;
    ev.format = 32;
    ev.type = d->moveresize;
    ev.data.data32[0] = (uint32_t)d->corner_x;
    ev.data.data32[1] = (uint32_t)d->corner_y;
    ev.data.data32[2] = direction;
    ev.data.data32[3] = button;
    ev.data.data32[4] = 1;
    xcb_send_event(d->c, 0, d->root, XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY,
                   (const char *)&ev);
    xcb_flush(d->c);
    int64_t until = clock_now_us() + GRAB_WAIT_US;
    while (!(d->grabbed = xh_grabbed_by_other(d->c, d->root, pointer)) && clock_now_us() < until)
        if (!driver_wait(d, clock_now_us() + 5000))
            return;
}

static void driver_begin_pointer(struct driver *d)
{
    xcb_test_fake_input(d->c, XCB_MOTION_NOTIFY, 0, XCB_CURRENT_TIME, d->root, (int16_t)d->corner_x,
                        (int16_t)d->corner_y, 0);
    xcb_test_fake_input(d->c, XCB_BUTTON_PRESS, 1, XCB_CURRENT_TIME, XCB_NONE, 0, 0, 0);
    xh_round_trip(d->c);
    ask_moveresize(d, MOVERESIZE_SIZE_BOTTOMRIGHT, 1, true);
}

/* ---- kbdHZ: _NET_WM_MOVERESIZE_SIZE_KEYBOARD, then the arrow keys by XTEST ---- */
static xcb_keycode_t keycode_of(const struct driver *d, xcb_keysym_t sym)
{
    if (!d->keymap)
        return 0;
    int per = d->keymap->keysyms_per_keycode, n = xcb_get_keyboard_mapping_keysyms_length(d->keymap);
    const xcb_keysym_t *syms = xcb_get_keyboard_mapping_keysyms(d->keymap);
    for (int i = 0; per > 0 && i < n; i++)
        if (syms[i] == sym)
            return (xcb_keycode_t)(d->keymap_min + i / per);
    return 0;
}

static void press(struct driver *d, xcb_keysym_t sym)
{
    xcb_keycode_t k = keycode_of(d, sym);
    xcb_test_fake_input(d->c, XCB_KEY_PRESS, k, XCB_CURRENT_TIME, XCB_NONE, 0, 0, 0);
    xcb_test_fake_input(d->c, XCB_KEY_RELEASE, k, XCB_CURRENT_TIME, XCB_NONE, 0, 0, 0);
    xcb_flush(d->c);
}

/* The window's ConfigureNotify events read so far: its size (cw, ch).  A change of size is what
 * the last key press asked for (motion_rec at the press's time): the WM decides what a key does
 * (its step, or nothing for a key that picks an edge), so the driver records what came of it. */
static void read_sizes(struct driver *d)
{
    xcb_generic_event_t *e;
    while ((e = xcb_poll_for_event(d->c))) {
        xcb_configure_notify_event_t *c = (xcb_configure_notify_event_t *)e;
        if ((e->response_type & 0x7f) == XCB_CONFIGURE_NOTIFY && c->window == d->win &&
            (c->width != d->cw || c->height != d->ch)) {
            if (c->width != d->cw)
                d->step_w = abs(c->width - d->cw);
            if (c->height != d->ch)
                d->step_h = abs(c->height - d->ch);
            d->cw = c->width, d->ch = c->height;
            d->key_pending = false;
            if (d->n < MAX_MOTIONS && d->key_at)
                d->recs[d->n++] = (struct motion_rec){.t_us = d->key_at, .w = (int16_t)d->cw, .h = (int16_t)d->ch};
        }
        free(e);
    }
}

static void driver_begin_keyboard(struct driver *d)
{
    uint32_t mask = XCB_EVENT_MASK_STRUCTURE_NOTIFY; /* the window's size: what one key changes */
    xcb_change_window_attributes(d->c, d->win, XCB_CW_EVENT_MASK, &mask);
    const xcb_setup_t *setup = xcb_get_setup(d->c);
    d->keymap_min = setup->min_keycode;
    uint8_t count = (uint8_t)(setup->max_keycode - setup->min_keycode + 1);
    d->keymap = xcb_get_keyboard_mapping_reply(d->c, xcb_get_keyboard_mapping(d->c, setup->min_keycode, count), NULL);
    d->cw = W0;
    d->ch = H0;
    d->step_w = d->step_h = STEP_GUESS;
    ask_moveresize(d, MOVERESIZE_SIZE_KEYBOARD, 0, false); /* no button */
}

/* One key toward the path's size (tw, th) from the window's, once the last key's change came (or
 * KEY_ANSWER_US passed): on the axis of the last key while it is half a step or more away, else on
 * the other.  The first key on an axis is its growing one (Right, Down) whatever the path wants:
 * openbox and marco take that key as picking the edge the keys move (the right or bottom one: the
 * top-left corner stays), where Left or Up would pick the left or top edge; fake-wm grows by it,
 * and the next keys take it back.  Nothing is waited for after it (it may do nothing). */
static void key_toward(struct driver *d, int tw, int th)
{
    read_sizes(d);
    int64_t now = clock_now_us();
    if (d->key_pending && now < d->key_at + KEY_ANSWER_US)
        return;
    int ew = tw - d->cw, eh = th - d->ch;
    bool far_w = 2 * abs(ew) >= d->step_w, far_h = 2 * abs(eh) >= d->step_h;
    if (!far_w && !far_h)
        return;
    bool wide = d->keys && d->last_wide ? far_w : !far_h;
    bool picks_edge = !d->keys || wide != d->last_wide;
    if (picks_edge)
        press(d, wide ? XK_RIGHT : XK_DOWN);
    else
        press(d, wide ? (ew > 0 ? XK_RIGHT : XK_LEFT) : (eh > 0 ? XK_DOWN : XK_UP));
    d->keys++;
    d->last_wide = wide;
    d->key_pending = !picks_edge;
    d->key_at = now;
}

static void *driver_run(void *arg)
{
    struct driver *d = arg;
    if (d->rs->trigger == RT_POINTER)
        driver_begin_pointer(d);
    else if (d->rs->trigger == RT_KEYBOARD)
        driver_begin_keyboard(d);
    d->t0_us = clock_now_us();
    int64_t period = 1000000 / d->rs->hz;
    int lx = 0, ly = 0;
    bool stopped = false;
    for (int64_t i = 1;; i++) {
        int64_t due = d->t0_us + i * period;
        if (due > d->t0_us + d->duration_us)
            break;
        if (!driver_wait(d, due)) {
            stopped = true;
            break;
        }
        int dx, dy;
        int64_t in_pass = (due - d->t0_us) % ((int64_t)PATH_MS * 1000);
        path_at(due - d->t0_us >= d->duration_us ? 1.0 : (double)in_pass / (PATH_MS * 1000.0), &dx, &dy);
        if (d->rs->trigger == RT_KEYBOARD) {
            key_toward(d, W0 + dx, H0 + dy);
            continue;
        }
        if (dx == lx && dy == ly)
            continue; /* a mouse reports motion, not its stillness */
        lx = dx, ly = dy;
        if (d->rs->trigger == RT_POINTER) {
            xcb_test_fake_input(d->c, XCB_MOTION_NOTIFY, 0, XCB_CURRENT_TIME, d->root, (int16_t)(d->corner_x + dx),
                                (int16_t)(d->corner_y + dy), 0);
        } else {
            uint32_t wh[2] = {(uint32_t)(W0 + dx), (uint32_t)(H0 + dy)};
            xcb_configure_window(d->c, d->win, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, wh);
        }
        xcb_flush(d->c);
        if (d->n < MAX_MOTIONS)
            d->recs[d->n++] = (struct motion_rec){.t_us = clock_now_us(), .w = (int16_t)(W0 + dx),
                                                  .h = (int16_t)(H0 + dy)};
    }
    /* an interrupted cell keeps its rows: its rates are over the time it drove */
    d->ran_us = stopped ? clock_now_us() - d->t0_us : d->duration_us;
    if (d->rs->trigger == RT_POINTER) {
        xcb_test_fake_input(d->c, XCB_BUTTON_RELEASE, 1, XCB_CURRENT_TIME, XCB_NONE, 0, 0, 0);
        xh_round_trip(d->c);
    } else if (d->rs->trigger == RT_KEYBOARD) {
        press(d, XK_RETURN); /* ends the keyboard resize where it is */
        xh_round_trip(d->c);
        read_sizes(d);       /* the changes of the last keys */
    }
    atomic_store(&d->done, true);
    return NULL;
}

/* ---- the client ---- */
enum { A_WM_PROTOCOLS, A_WM_DELETE_WINDOW, A_SYNC_REQUEST, A_SYNC_REQUEST_COUNTER, A_MOVERESIZE, A_NET_WM_NAME,
       A_UTF8_STRING, A_FRAME_DRAWN, A_SYNC_DRAWN, A_COUNT };
static const char *const atom_names[A_COUNT] = {
    "WM_PROTOCOLS", "WM_DELETE_WINDOW", "_NET_WM_SYNC_REQUEST", "_NET_WM_SYNC_REQUEST_COUNTER",
    "_NET_WM_MOVERESIZE", "_NET_WM_NAME", "UTF8_STRING", "_NET_WM_FRAME_DRAWN", "_NET_WM_SYNC_DRAWN"};

struct rcell {
    const struct cellspec *spec;
    const struct resize_spec *rs;
    const struct cell_env *env;
    xcb_connection_t *c;
    xcb_screen_t *scr;
    xcb_window_t win;
    xcb_window_t backdrop;    /* DESK_RGB behind the lines: what shows where the window is not */
    xcb_gcontext_t gc;
    xcb_atom_t atom[A_COUNT];
    xcb_sync_counter_t basic, ext;
    int64_t basic_value, ext_value;
    int w, h;                 /* the size of the last ConfigureNotify */
    int left0, top0;
    bool need_paint, mapped;
    bool req_pending, req_configured; /* a request not answered yet; a ConfigureNotify came after it */
    int64_t req_value, req_at_us;
    bool req_extended;        /* defacto: the request's l[4] = 1 (an extended request) */
    bool answer_due;          /* slow: the answer of the last paint is due at answer_at_us */
    int64_t answer_at_us;
    int64_t answer_value;
    bool answer_extended;
    int configures, size_changes, requests, answered, superseded, exposes, drawn;
    struct paint_rec *paints;
    int npaints;
    struct capture cap;
    struct driver drv;
    int64_t t0_us;            /* the cell's clock: when the window was created */
};

static void set_counter(struct rcell *rc, xcb_sync_counter_t c, int64_t v)
{
    xcb_sync_set_counter(rc->c, c, xh_sync_int64(v));
}

static bool extended(const struct rcell *rc) { return rc->rs->form == RF_DRAFT || rc->rs->form == RF_DEFACTO; }

static void create_window(struct rcell *rc)
{
    rc->win = xcb_generate_id(rc->c);
    uint32_t values[3] = {BG_RGB, XCB_GRAVITY_NORTH_WEST,
                          XCB_EVENT_MASK_STRUCTURE_NOTIFY | XCB_EVENT_MASK_EXPOSURE};
    xcb_create_window(rc->c, XCB_COPY_FROM_PARENT, rc->win, rc->scr->root, X0, Y0, W0, H0, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, rc->scr->root_visual,
                      XCB_CW_BACK_PIXEL | XCB_CW_BIT_GRAVITY | XCB_CW_EVENT_MASK, values);
    rc->gc = xcb_generate_id(rc->c);
    xcb_create_gc(rc->c, rc->gc, rc->win, 0, NULL);
    xcb_atom_t protocols[2] = {rc->atom[A_WM_DELETE_WINDOW], rc->atom[A_SYNC_REQUEST]};
    xcb_change_property(rc->c, XCB_PROP_MODE_REPLACE, rc->win, rc->atom[A_WM_PROTOCOLS], XCB_ATOM_ATOM, 32,
                        rc->rs->form == RF_NONE ? 1 : 2, protocols);
    if (rc->rs->form != RF_NONE) {
        rc->basic = xcb_generate_id(rc->c);
        xcb_sync_create_counter(rc->c, rc->basic, xh_sync_int64(0));
        uint32_t counters[2] = {rc->basic, 0};
        if (extended(rc)) {
            rc->ext = xcb_generate_id(rc->c);
            xcb_sync_create_counter(rc->c, rc->ext, xh_sync_int64(0));
            counters[1] = rc->ext;
        }
        xcb_change_property(rc->c, XCB_PROP_MODE_REPLACE, rc->win, rc->atom[A_SYNC_REQUEST_COUNTER],
                            XCB_ATOM_CARDINAL, 32, extended(rc) ? 2 : 1, counters);
    }
    const char *name = "framesync-bench resize";
    xcb_change_property(rc->c, XCB_PROP_MODE_REPLACE, rc->win, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8,
                        (uint32_t)strlen(name), name);
    xcb_change_property(rc->c, XCB_PROP_MODE_REPLACE, rc->win, rc->atom[A_NET_WM_NAME], rc->atom[A_UTF8_STRING], 8,
                        (uint32_t)strlen(name), name);
    xcb_change_property(rc->c, XCB_PROP_MODE_REPLACE, rc->win, XCB_ATOM_WM_CLASS, XCB_ATOM_STRING, 8, 32,
                        "framesync-bench\0framesync-bench");
    xcb_size_hints_t hints;
    memset(&hints, 0, sizeof hints);
    xcb_icccm_size_hints_set_position(&hints, 1, X0, Y0);
    xcb_icccm_size_hints_set_size(&hints, 1, W0, H0);
    xcb_icccm_size_hints_set_min_size(&hints, 32, 32);
    xcb_icccm_set_wm_normal_hints(rc->c, rc->win, &hints);
    rc->w = W0;
    rc->h = H0;
    xcb_map_window(rc->c, rc->win);
    xcb_flush(rc->c);
}

/* defacto answers an extended request (l[4] = 1) with its delimited update, a basic one (a WM
 * that knows only the basic form uses the first of the two counters) on the first counter, as GTK */
static bool defacto_extended(const struct rcell *rc) { return rc->rs->form == RF_DEFACTO && rc->req_extended; }

/* the answer to the request a paint was for, in the client's form */
static void answer(struct rcell *rc, int64_t v, bool extended_request)
{
    if (rc->rs->form == RF_BASIC || (rc->rs->form == RF_DEFACTO && !extended_request)) {
        set_counter(rc, rc->basic, v);
    } else if (rc->rs->form == RF_DRAFT) {
        /* the draft's l[4] does not tell the forms apart: both counters answer */
        set_counter(rc, rc->basic, v);
        int64_t even = (v & 1) ? v + 1 : v;
        if (even > rc->ext_value)
            rc->ext_value = even;
        set_counter(rc, rc->ext, rc->ext_value);
    } else if (rc->rs->form == RF_DEFACTO) {
        rc->ext_value++; /* odd since the paint began: even ends it */
        set_counter(rc, rc->ext, rc->ext_value);
    }
    rc->answered++;
    xcb_flush(rc->c);
}

static void simulate_cost(struct rcell *rc, int64_t start)
{
    /* what painting costs an application: it reads no events meanwhile */
    int64_t until = start + (int64_t)rc->rs->paint_ms * 1000;
    for (int64_t left; (left = until - clock_now_us()) > 0;)
        poll(NULL, 0, (int)((left + 999) / 1000));
}

static void paint(struct rcell *rc)
{
    int64_t start = clock_now_us();
    bool answers = rc->req_pending && (rc->req_configured || start >= rc->req_at_us + CONFIGURE_WAIT_US);
    int64_t v = rc->req_value;
    bool ext_answer = answers && defacto_extended(rc);
    bool delimited = extended(rc) && (rc->rs->form == RF_DEFACTO || !answers);
    if (delimited) {
        /* an update: the second counter odd (defacto's answer: value + 1, as GTK's begin_frame) */
        int64_t odd = ext_answer ? ((v & 1) ? v : v + 1) : rc->ext_value + 1;
        if (odd <= rc->ext_value)
            odd = rc->ext_value + ((rc->ext_value & 1) ? 2 : 1);
        rc->ext_value = odd;
        set_counter(rc, rc->ext, odd);
    }
    int k = rc->npaints;
    uint32_t fill = frame_colour((uint32_t)k), edge = edge_colour((uint32_t)k);
    int w = rc->w, h = rc->h;
    int ew = w > EDGE_PX ? EDGE_PX : w, eh = h > EDGE_PX ? EDGE_PX : h;
    xcb_change_gc(rc->c, rc->gc, XCB_GC_FOREGROUND, &fill);
    xcb_rectangle_t in = {0, 0, (uint16_t)(w - ew > 0 ? w - ew : 1), (uint16_t)(h - eh > 0 ? h - eh : 1)};
    xcb_poly_fill_rectangle(rc->c, rc->win, rc->gc, 1, &in);
    xcb_change_gc(rc->c, rc->gc, XCB_GC_FOREGROUND, &edge);
    xcb_rectangle_t edges[2] = {{(int16_t)(w - ew), 0, (uint16_t)ew, (uint16_t)h},
                                {0, (int16_t)(h - eh), (uint16_t)w, (uint16_t)eh}};
    xcb_poly_fill_rectangle(rc->c, rc->win, rc->gc, 2, edges);
    xcb_flush(rc->c);
    simulate_cost(rc, start);
    if (rc->npaints < MAX_PAINTS)
        rc->paints[rc->npaints++] = (struct paint_rec){.start_us = start, .end_us = clock_now_us(), .w = (int16_t)w,
                                                       .h = (int16_t)h, .answers = answers};
    rc->need_paint = false;
    if (delimited && !ext_answer) {
        /* a frame that is not an extended answer ends its update now */
        rc->ext_value++;
        set_counter(rc, rc->ext, rc->ext_value);
        xcb_flush(rc->c);
    }
    if (answers) {
        rc->req_pending = false;
        if (rc->rs->slow) {
            rc->answer_due = true;
            rc->answer_at_us = clock_now_us() + SLOW_ANSWER_US;
            rc->answer_value = v;
            rc->answer_extended = ext_answer;
        } else {
            answer(rc, v, ext_answer);
        }
    }
}

static int64_t value_of(uint32_t lo, uint32_t hi) { return (int64_t)(((uint64_t)hi << 32) | lo); }

static void handle(struct rcell *rc, xcb_generic_event_t *e)
{
    switch (e->response_type & 0x7f) {
    case XCB_CONFIGURE_NOTIFY: {
        xcb_configure_notify_event_t *c = (xcb_configure_notify_event_t *)e;
        if (c->window != rc->win)
            break;
        rc->configures++;
        if (c->width != rc->w || c->height != rc->h) {
            rc->size_changes++;
            rc->w = c->width;
            rc->h = c->height;
            rc->need_paint = true;
        }
        if (rc->req_pending)
            rc->req_configured = true;
        break;
    }
    case XCB_EXPOSE:
        rc->exposes++;
        rc->need_paint = true;
        break;
    case XCB_MAP_NOTIFY:
        if (((xcb_map_notify_event_t *)e)->window == rc->win)
            rc->mapped = true;
        break;
    case XCB_CLIENT_MESSAGE: {
        xcb_client_message_event_t *m = (xcb_client_message_event_t *)e;
        if (m->window != rc->win || m->format != 32)
            break;
        const uint32_t *l = m->data.data32;
        if (m->type == rc->atom[A_WM_PROTOCOLS] && l[0] == rc->atom[A_SYNC_REQUEST]) {
            rc->requests++;
            if (rc->req_pending)
                rc->superseded++; /* the WM went on without the last answer */
            rc->req_pending = true;
            rc->req_configured = false;
            rc->req_value = value_of(l[2], l[3]);
            rc->req_extended = l[4] == 1;
            rc->req_at_us = clock_now_us();
            rc->need_paint = true; /* a request is answered after a paint, also without a new size */
        } else if (m->type == rc->atom[A_FRAME_DRAWN] ||
                   (m->type == rc->atom[A_WM_PROTOCOLS] && l[0] == rc->atom[A_SYNC_DRAWN])) {
            rc->drawn++;
        }
        break;
    }
    default:
        break;
    }
}

static int pump(struct rcell *rc)
{
    int n = 0;
    xcb_generic_event_t *e;
    while ((e = xcb_poll_for_event(rc->c))) {
        handle(rc, e);
        free(e);
        n++;
    }
    return n;
}

/* one turn of the client: events, then the paint they call for, the answers due; false: stop */
static const char *turn(struct rcell *rc, int64_t until)
{
    int handled = pump(rc);
    int64_t now = clock_now_us();
    if (rc->answer_due && now >= rc->answer_at_us) {
        rc->answer_due = false;
        answer(rc, rc->answer_value, rc->answer_extended);
    }
    /* a request waits (up to CONFIGURE_WAIT_US) for the ConfigureNotify that follows it; a request
     * before the map (a WM that syncs at map) is answered although the window is not mapped yet */
    bool wait_configure = rc->req_pending && !rc->req_configured && now < rc->req_at_us + CONFIGURE_WAIT_US;
    bool can_paint = rc->need_paint && !rc->answer_due && !wait_configure && (rc->mapped || rc->req_pending);
    if (can_paint)
        paint(rc);
    const char *why = bench_session_should_stop(rc->env->session);
    if (why)
        return why;
    if (xcb_connection_has_error(rc->c))
        return "x-error";
    int64_t wake = until;
    if (rc->answer_due && rc->answer_at_us < wake)
        wake = rc->answer_at_us;
    if (wait_configure && rc->req_at_us + CONFIGURE_WAIT_US < wake)
        wake = rc->req_at_us + CONFIGURE_WAIT_US;
    now = clock_now_us();
    if (rc->need_paint && !rc->answer_due && !wait_configure && (rc->mapped || rc->req_pending))
        wake = now;
    int timeout = wake <= now || handled ? 0 : (int)((wake - now + 999) / 1000);
    /* events xcb read into its queue meanwhile (while flushing) would not wake poll(): take them */
    xcb_generic_event_t *q = timeout > 0 ? xcb_poll_for_queued_event(rc->c) : NULL;
    if (q) {
        handle(rc, q);
        free(q);
        timeout = 0;
    }
    if (timeout > 0) {
        struct pollfd p[2] = {{.fd = xcb_get_file_descriptor(rc->c), .events = POLLIN},
                              {.fd = proc_signal_fd(), .events = POLLIN}};
        poll(p, 2, timeout);
        if (p[1].revents)
            proc_handle_signals();
    }
    return NULL;
}

/* ---- rows ---- */
static double ms_of(const struct rcell *rc, int64_t us) { return (double)(us - rc->t0_us) / 1000.0; }

static void write_line(FILE *f, const struct line_info *l)
{
    fprintf(f, "[%d,%d,%d,%d,%d,%d,%d]", l->start, l->frame, l->interior_end, l->marker_end, l->extent, l->other,
            l->bare);
}

/* the kept pictures as PNG files in the rows' folder, thumbs/RUNID-CELL-K.png (worst first), and
 * the row's "thumbs": [[capture index, path relative to that folder], ...]; a file that cannot be
 * written is left out, with a message */
static void write_thumbs(struct rcell *rc, struct row *r)
{
    struct thumb *t = rc->cap.thumbs;
    for (int i = 1; i < THUMBS; i++) /* worst first */
        for (int j = i; j > 0 && t[j].index >= 0 && (t[j - 1].index < 0 || t[j].score > t[j - 1].score); j--) {
            struct thumb x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    const char *dir = rc->env->rows->dir ? rc->env->rows->dir : ".";
    char path[4096], rel[512], err[256];
    snprintf(path, sizeof path, "%s/thumbs", dir);
    mkdir(path, 0777);
    row_key(r, "thumbs");
    fputc('[', r->f);
    for (int i = 0, n = 0; i < THUMBS && t[i].index >= 0; i++) {
        snprintf(rel, sizeof rel, "thumbs/%s-%s-%d.png", rc->env->rows->run_id, rc->spec->name, i);
        snprintf(path, sizeof path, "%s/%s", dir, rel);
        if (png_write_rgb(path, LINE_W, LINE_H, t[i].rgb, err, sizeof err) < 0) {
            fprintf(stderr, "framesync-bench: %s: no thumbnail: %s\n", rc->spec->name, err);
            continue;
        }
        fprintf(r->f, "%s[%d,\"%s\"]", n++ ? "," : "", t[i].index, rel);
    }
    fputc(']', r->f);
}

static void write_rows(struct rcell *rc, const char *ended_by, double wall_ms, struct cell_result *res)
{
    const struct row_sink *out = rc->env->rows;
    struct row r;
    row_begin(&r, out, "cell");
    row_str(&r, "cell", rc->spec->name);
    row_int(&r, "windows", 1);
    row_int(&r, "width", W0);
    row_int(&r, "height", H0);
    row_str(&r, "render", "core");
    row_str(&r, "pacing", "resize");
    row_str(&r, "load", "idle");
    row_end(&r);

    row_begin(&r, out, "resize");
    row_str(&r, "cell", rc->spec->name);
    row_str(&r, "trigger", rc->rs->trigger == RT_POINTER    ? "pointer"
                           : rc->rs->trigger == RT_KEYBOARD ? "keyboard"
                                                            : "configure");
    row_int(&r, "hz", rc->rs->hz);
    row_str(&r, "form", resize_form_name(rc->rs->form));
    row_int(&r, "paint_ms", rc->rs->paint_ms);
    row_bool(&r, "slow", rc->rs->slow);
    row_bool(&r, "backdrop", !atomic_load(&rc->cap.no_backdrop));
    row_int(&r, "start_w", W0);
    row_int(&r, "start_h", H0);
    row_int(&r, "edge_px", EDGE_PX);
    row_bool(&r, "grabbed", rc->drv.grabbed);
    row_num(&r, "drive_from", rc->drv.t0_us ? ms_of(rc, rc->drv.t0_us) : 0.0);
    double drove_ms = rc->drv.t0_us ? (double)rc->drv.ran_us / 1000.0 : 0.0;
    row_num(&r, "drive_ms", drove_ms);
    row_int(&r, "configures", rc->configures);
    row_int(&r, "size_changes", rc->size_changes);
    row_int(&r, "paints", rc->npaints);
    row_int(&r, "requests", rc->requests);
    row_int(&r, "answered", rc->answered);
    row_int(&r, "superseded", rc->superseded);
    row_int(&r, "exposes", rc->exposes);
    row_int(&r, "drawn", rc->drawn);
    /* [t, w, h]: the size the pointer (or request) asked for from t */
    row_key(&r, "motions");
    fputc('[', r.f);
    for (int i = 0; i < rc->drv.n; i++)
        fprintf(r.f, "%s[%.3f,%d,%d]", i ? "," : "", ms_of(rc, rc->drv.recs[i].t_us), rc->drv.recs[i].w,
                rc->drv.recs[i].h);
    fputc(']', r.f);
    /* [k, w, h, start, end, answers] */
    row_key(&r, "paints_log");
    fputc('[', r.f);
    for (int i = 0; i < rc->npaints; i++)
        fprintf(r.f, "%s[%d,%d,%d,%.3f,%.3f,%d]", i ? "," : "", i, rc->paints[i].w, rc->paints[i].h,
                ms_of(rc, rc->paints[i].start_us), ms_of(rc, rc->paints[i].end_us), rc->paints[i].answers);
    fputc(']', r.f);
    /* [damage, sample, gx, gy, gw, gh, row, col]; a line is [start, frame, interior_end,
     * marker_end, extent, other, bare] in pixels from the window's start corner */
    row_key(&r, "captures");
    fputc('[', r.f);
    int n = atomic_load(&rc->cap.n);
    for (int i = 0; i < n; i++) {
        const struct capture_rec *c = &rc->cap.recs[i];
        fprintf(r.f, "%s[%.3f,%.3f,%d,%d,%d,%d,", i ? "," : "", ms_of(rc, c->damage_us), ms_of(rc, c->sample_us),
                c->gx, c->gy, c->gw, c->gh);
        write_line(r.f, &c->row);
        fputc(',', r.f);
        write_line(r.f, &c->col);
        fputc(']', r.f);
    }
    fputc(']', r.f);
    write_thumbs(rc, &r);
    row_end(&r);

    row_begin(&r, out, "cell-end");
    row_str(&r, "cell", rc->spec->name);
    row_str(&r, "ended_by", ended_by);
    row_str(&r, "paced_on", "resize");
    row_num(&r, "wall_ms", wall_ms);
    row_num(&r, "measured_ms", drove_ms);
    row_int(&r, "frames", n);
    row_end(&r);
    res->frames = n;
    res->wall_ms = wall_ms;
    res->ended_by = ended_by;
    res->paced_on = "resize";
}

static void read_corner(struct rcell *rc)
{
    xcb_translate_coordinates_reply_t *t = xcb_translate_coordinates_reply(
        rc->c, xcb_translate_coordinates(rc->c, rc->win, rc->scr->root, 0, 0), NULL);
    if (t) {
        rc->left0 = t->dst_x;
        rc->top0 = t->dst_y;
    }
    free(t);
}

/* A window of a known colour under the capture's lines, at the bottom of the stack (override-
 * redirect: no WM manages or decorates it; every compositor paints it).  Where the window is not,
 * the lines show it: a compositor that shows the window at its old size while the server has it
 * larger (holding the last answered frame: right) shows the backdrop past the old edge, one that
 * shows the new size with black or garbage in the new area (wrong) does not.  A desktop that is
 * black, as fake-wm's is, could not tell the two apart. */
static void create_backdrop(struct rcell *rc)
{
    rc->backdrop = xcb_generate_id(rc->c);
    uint32_t values[2] = {DESK_RGB, 1};
    xcb_create_window(rc->c, XCB_COPY_FROM_PARENT, rc->backdrop, rc->scr->root, (int16_t)(rc->left0 - PAD),
                      (int16_t)(rc->top0 - PAD), LINE_W, LINE_H, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                      rc->scr->root_visual, XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT, values);
    uint32_t below = XCB_STACK_MODE_BELOW; /* no sibling: the bottom of the stack, under every frame */
    xcb_configure_window(rc->c, rc->backdrop, XCB_CONFIG_WINDOW_STACK_MODE, &below);
    xcb_map_window(rc->c, rc->backdrop);
    xcb_flush(rc->c);
}

/* the lines of the capture fit on the screen from where the window is */
static bool fits(const struct rcell *rc)
{
    return rc->left0 >= PAD && rc->top0 >= PAD && rc->left0 + LINE_W <= rc->scr->width_in_pixels &&
           rc->top0 + LINE_H <= rc->scr->height_in_pixels;
}

static const char *warm_up(struct rcell *rc)
{
    int64_t warm = clock_now_us() + WARMUP_US;
    while (clock_now_us() < warm) {
        const char *why = turn(rc, warm);
        if (why)
            return why;
    }
    return NULL;
}

/* Is the backdrop's colour where the window's paint should be (inside its corner)? */
static bool backdrop_covers_window(struct rcell *rc)
{
    xcb_get_image_reply_t *img = xcb_get_image_reply(
        rc->c,
        xcb_get_image(rc->c, XCB_IMAGE_FORMAT_Z_PIXMAP, rc->scr->root, (int16_t)(rc->left0 + INSET),
                      (int16_t)(rc->top0 + INSET), 1, 1, ~0u),
        NULL);
    bool covered = img && xcb_get_image_data_length(img) >= rc->cap.bpp / 8 &&
                   px_at(&rc->cap, xcb_get_image_data(img), 0) == DESK_RGB;
    free(img);
    return covered;
}

/* mutter, KWin and metacity stack override-redirect windows above managed ones, whatever the X
 * stacking says: without the backdrop the lines see the window again, and a frame held at an
 * older size can no longer be told from a black strip (bench/README.md, "Limits") */
static void take_backdrop_away(struct rcell *rc)
{
    atomic_store(&rc->cap.no_backdrop, true);
    atomic_store(&rc->cap.shown, false);
    xcb_unmap_window(rc->c, rc->backdrop);
    xcb_flush(rc->c);
}

/* Until a capture sees the window's paint at its corner; once BACKDROP_CHECK_US has gone by
 * without, the backdrop is looked at once: when it is what shows there, it is taken away. */
static const char *wait_shown(struct rcell *rc, int64_t by)
{
    int64_t check_at = clock_now_us() + BACKDROP_CHECK_US;
    while (!atomic_load(&rc->cap.shown)) {
        const char *why = turn(rc, clock_now_us() + 20000);
        if (why)
            return why;
        if (!atomic_load(&rc->cap.no_backdrop) && clock_now_us() >= check_at && backdrop_covers_window(rc))
            take_backdrop_away(rc);
        if (clock_now_us() >= by)
            return "windows never shown";
    }
    return NULL;
}

static const char *run(struct rcell *rc, char *err, size_t errlen)
{
    int64_t show_by = rc->t0_us + SHOW_WAIT_US;
    while (!rc->mapped) {
        const char *why = turn(rc, show_by);
        if (why)
            return why;
        if (clock_now_us() >= show_by)
            return "windows never shown";
    }
    xh_round_trip(rc->c);
    pump(rc);
    read_corner(rc);
    if (!fits(rc)) {
        /* KWin's smart placement ignores USPosition: ask for it as a client move, and wait for the
         * WM to carry it out (bench/client.c does the same for its grid) */
        uint32_t xy[2] = {X0, Y0};
        xcb_configure_window(rc->c, rc->win, XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y, xy);
        xcb_flush(rc->c);
        int64_t until = clock_now_us() + PLACE_WAIT_US;
        while (!fits(rc) && clock_now_us() < until) {
            const char *why = turn(rc, clock_now_us() + 20000);
            if (why)
                return why;
            read_corner(rc);
        }
    }
    if (!fits(rc)) {
        snprintf(err, errlen, "the window was placed at %d,%d: its path does not fit on the screen", rc->left0,
                 rc->top0);
        return NULL;
    }
    create_backdrop(rc);
    if (capture_start(&rc->cap, rc->win, rc->left0, rc->top0, err, errlen) < 0)
        return NULL;
    rc->need_paint = true;
    const char *shown = wait_shown(rc, show_by);
    if (shown)
        return shown;
    const char *why = warm_up(rc);
    if (why)
        return why;
    if (!atomic_load(&rc->cap.no_backdrop) && backdrop_covers_window(rc)) {
        take_backdrop_away(rc);
        why = wait_shown(rc, clock_now_us() + SHOW_AGAIN_US);
        if (!why)
            why = warm_up(rc);
        if (why)
            return why;
    }
    /* the corner may have moved meanwhile (a WM placing late): the drive starts where it is */
    read_corner(rc);
    rc->drv.corner_x = rc->left0 + rc->w - 1;
    rc->drv.corner_y = rc->top0 + rc->h - 1;
    if (pthread_create(&rc->drv.thread, NULL, driver_run, &rc->drv) != 0) {
        snprintf(err, errlen, "cannot start the driver thread");
        return NULL;
    }
    rc->drv.started = true;
    while (!atomic_load(&rc->drv.done)) {
        const char *why = turn(rc, clock_now_us() + 10000);
        if (why)
            return why;
    }
    int64_t settle = clock_now_us() + SETTLE_US;
    while (clock_now_us() < settle) {
        const char *why = turn(rc, settle);
        if (why)
            return why;
    }
    return "deadline";
}

int resize_cell_run(const struct cellspec *spec, const struct cell_env *env, struct cell_result *res, char *err,
                    size_t errlen)
{
    struct rcell *rc = calloc(1, sizeof *rc);
    rc->spec = spec;
    rc->rs = &spec->rs;
    rc->env = env;
    rc->paints = calloc(MAX_PAINTS, sizeof *rc->paints);
    rc->cap.recs = calloc(MAX_CAPTURES, sizeof *rc->cap.recs);
    rc->cap.stop[0] = rc->cap.stop[1] = rc->drv.stop[0] = rc->drv.stop[1] = -1;
    rc->drv.recs = calloc(MAX_MOTIONS, sizeof *rc->drv.recs);
    rc->drv.rs = rc->rs;
    int passes = (int)(env->opt->cell_ms / PATH_MS + 0.5);
    rc->drv.duration_us = (int64_t)(passes < 1 ? 1 : passes) * PATH_MS * 1000;
    int rcode = -1;
    rc->c = xcb_connect(NULL, NULL);
    rc->drv.c = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(rc->c) || xcb_connection_has_error(rc->drv.c)) {
        snprintf(err, errlen, "the resize client cannot connect to the X server");
        goto out;
    }
    const xcb_query_extension_reply_t *xt = xcb_get_extension_data(rc->drv.c, &xcb_test_id);
    if (!xt || !xt->present) {
        snprintf(err, errlen, "the X server has no XTEST extension");
        goto out;
    }
    if (pipe2(rc->drv.stop, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        goto out;
    }
    rc->scr = xcb_setup_roots_iterator(xcb_get_setup(rc->c)).data;
    free(xcb_sync_initialize_reply(rc->c, xcb_sync_initialize(rc->c, 3, 1), NULL));
    xh_intern_atoms(rc->c, atom_names, A_COUNT, rc->atom);
    rc->drv.root = rc->scr->root;
    rc->drv.moveresize = rc->atom[A_MOVERESIZE];
    rc->t0_us = clock_now_us();
    create_window(rc);
    rc->drv.win = rc->win;
    err[0] = 0;
    const char *ended_by = run(rc, err, errlen);
    if (!ended_by && err[0])
        goto out;
    if (rc->drv.started) {
        ssize_t n = write(rc->drv.stop[1], "x", 1);
        (void)n;
        pthread_join(rc->drv.thread, NULL);
        rc->drv.started = false;
    }
    capture_stop(&rc->cap);
    write_rows(rc, ended_by ? ended_by : "deadline", ms_of(rc, clock_now_us()), res);
    rcode = 0;
out:
    if (rc->drv.started) {
        ssize_t n = write(rc->drv.stop[1], "x", 1);
        (void)n;
        pthread_join(rc->drv.thread, NULL);
    }
    capture_stop(&rc->cap);
    for (int i = 0; i < 2; i++)
        if (rc->drv.stop[i] >= 0)
            close(rc->drv.stop[i]);
    if (rc->c) {
        if (!xcb_connection_has_error(rc->c) && rc->win) {
            xcb_destroy_window(rc->c, rc->win);
            if (rc->backdrop)
                xcb_destroy_window(rc->c, rc->backdrop);
            if (rc->basic)
                xcb_sync_destroy_counter(rc->c, rc->basic);
            if (rc->ext)
                xcb_sync_destroy_counter(rc->c, rc->ext);
            xh_round_trip(rc->c);
        }
        xcb_disconnect(rc->c);
    }
    if (rc->drv.c)
        xcb_disconnect(rc->drv.c);
    free(rc->paints);
    free(rc->cap.recs);
    for (int i = 0; i < THUMBS; i++)
        free(rc->cap.thumbs[i].rgb);
    free(rc->drv.recs);
    free(rc->drv.keymap);
    free(rc);
    return rcode;
}
