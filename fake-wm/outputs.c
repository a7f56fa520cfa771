/* The outputs the compositor tells apart (outputs.h).  They are the active RandR 1.5 monitors of
 * the screen (GetMonitors), less any monitor that holds another: on Xvfb, whose
 * one output the server lists as a monitor of the whole screen, a case adds two monitors without
 * an output, the screen's halves (scripted-client `monitors two`), and the whole they divide is no
 * output of its own.  With per-output-clock and fewer than two, the screen's left and right halves
 * are the outputs, so every case runs against two clocks.  SetMonitor and DeleteMonitor make the
 * server send the root a ConfigureNotify (randr/rrmonitor.c, RRSendConfigNotify), not a RandR
 * ScreenChangeNotify: the compositor connection selects StructureNotify on the root to read the
 * monitors again then. */
#include "outputs.h"

#include "faults.h"
#include "log.h"
#include "monitors.h"
#include "state.h"
#include "variants.h"

#include <stdio.h>

static struct output outs[OUTPUTS_MAX];
static int nouts;

bool outputs_in_use(void) { return VARIANT(PER_OUTPUT_CLOCK) || FAULT(DRAWN_PER_OUTPUT_COUNT); }

/* per-output-clock: output 0 at --refresh-hz, the next at 12/5 of it (144 Hz beside 60 Hz, the pair
 * mutter's per-view frame clocks were made for), and so on alternately; one clock otherwise */
static int64_t interval_of(int i)
{
    int64_t hz = VARIANT(PER_OUTPUT_CLOCK) && i % 2 ? (int64_t)opt.refresh_hz * 12 / 5 : opt.refresh_hz;
    return 1000000 / (hz > 0 ? hz : 1);
}

static bool inside(const struct monitor_rect *a, const struct monitor_rect *b) /* a within b */
{
    return a->x >= b->x && a->y >= b->y && a->x + a->w <= b->x + b->w && a->y + a->h <= b->y + b->h;
}

/* m holds another monitor: the whole a client divides (two halves, or the first of them while it
 * sets them up), no output of its own */
static bool divided(const struct monitor_rect *m, const struct monitor_rect *all, int n)
{
    for (int i = 0; i < n; i++)
        if (&all[i] != m && inside(&all[i], m) && !inside(m, &all[i]))
            return true;
    return false;
}

static void add(int x, int y, int w, int h)
{
    if (nouts < OUTPUTS_MAX && w > 0 && h > 0) {
        outs[nouts] = (struct output){.x = x, .y = y, .w = w, .h = h, .interval_us = interval_of(nouts)};
        nouts++;
    }
}

static void describe(const char *why)
{
    char buf[512];
    int o = 0;
    for (int i = 0; i < nouts && o < (int)sizeof buf; i++)
        o += snprintf(buf + o, sizeof buf - (size_t)o, "%s%dx%d+%d+%d (%lld us)", i ? ", " : "", outs[i].w,
                      outs[i].h, outs[i].x, outs[i].y, (long long)outs[i].interval_us);
    logmsg("outputs: %d, %s: %s", nouts, why, buf);
}

static void read_outputs(void)
{
    int sw = X.screen->width_in_pixels, sh = X.screen->height_in_pixels;
    struct monitor_rect all[MONITORS_MAX];
    char why[256] = "";
    int n = monitors_supported(X.pc, why, sizeof why) ? monitors_read(X.pc, X.root, true, all, MONITORS_MAX) : 0;
    nouts = 0;
    for (int i = 0; i < n; i++)
        if (!divided(&all[i], all, n))
            add(all[i].x, all[i].y, all[i].w, all[i].h);
    if (nouts >= 2) {
        describe("the RandR monitors the server lists");
        return;
    }
    nouts = 0;
    if (VARIANT(PER_OUTPUT_CLOCK)) {
        add(0, 0, sw / 2, sh);
        add(sw / 2, 0, sw - sw / 2, sh);
        describe(why[0] ? why : "fewer than two RandR monitors: the screen's halves (variant per-output-clock)");
        return;
    }
    add(0, 0, sw, sh);
    describe(why[0] ? why : "fewer than two RandR monitors: the screen");
}

void outputs_start(void)
{
    if (!outputs_in_use()) {
        nouts = 0;
        add(0, 0, X.screen->width_in_pixels, X.screen->height_in_pixels);
        return;
    }
    uint32_t mask = XCB_EVENT_MASK_STRUCTURE_NOTIFY;
    xcb_change_window_attributes(X.pc, X.root, XCB_CW_EVENT_MASK, &mask);
    read_outputs();
}

void outputs_root_configured(void)
{
    if (outputs_in_use())
        read_outputs();
}

int outputs_count(void) { return nouts > 0 ? nouts : 1; }

const struct output *outputs_get(int i)
{
    if (nouts == 0) /* not started (no compositing): the screen, at --refresh-hz */
        add(0, 0, X.screen->width_in_pixels, X.screen->height_in_pixels);
    return &outs[i >= 0 && i < nouts ? i : 0];
}

static int64_t overlap(const struct win *w, int i)
{
    int64_t x0 = w->x > outs[i].x ? w->x : outs[i].x, y0 = w->y > outs[i].y ? w->y : outs[i].y;
    int64_t x1 = w->x + w->w < outs[i].x + outs[i].w ? w->x + w->w : outs[i].x + outs[i].w;
    int64_t y1 = w->y + w->h < outs[i].y + outs[i].h ? w->y + w->h : outs[i].y + outs[i].h;
    return x1 > x0 && y1 > y0 ? (x1 - x0) * (y1 - y0) : 0;
}

bool outputs_touch(const struct win *w, int output) { return output < nouts && overlap(w, output) > 0; }

int outputs_of(const struct win *w)
{
    int best = 0;
    int64_t most = 0;
    for (int i = 0; i < nouts; i++) {
        int64_t area = overlap(w, i);
        if (area > most) {
            most = area;
            best = i;
        }
    }
    return best;
}
