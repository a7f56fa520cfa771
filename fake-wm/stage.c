/* Staged frames, for the benchmark injections paint-delay and compress-every (injections.c).
 * By default the snapshot of a completed update becomes the window's saved copy at once and the
 * next repaint shows it.  With an injection the snapshot goes into a frame of its own, queued on
 * the window, and the window keeps showing its saved copy (it is "kept", like a held window) until
 * the frame is released:
 *   paint-delay=MS      each frame is released MS ms after its update ended;
 *   compress-every=K    every K-th completed update's frame waits for the next update of the
 *                       window to end and is then dropped, unshown and unreported (that later
 *                       update is shown and gets the drawn message), so exactly 1/K of the
 *                       updates are compressed; if no update follows within --hold-timeout-ms it
 *                       is released after all (no window is kept indefinitely).
 * Releasing a frame makes it the saved copy and reports the update to drawn.c, as the default
 * path does when the counter goes even.  Frames are released in order. */
#include "stage.h"

#include "compsched.h"
#include "drawn.h"
#include "fade.h"
#include "log.h"
#include "pictures.h"
#include "state.h"

static int64_t ms(int v) { return (int64_t)v * 1000; }

bool stage_holding(const struct win *w) { return w->nstaged > 0; }

static void pop_head(struct win *w)
{
    for (int i = 1; i < w->nstaged; i++)
        w->staged[i - 1] = w->staged[i];
    w->nstaged--;
}

static void release_head(struct win *w, const char *why)
{
    struct staged s = w->staged[0];
    pop_head(w);
    comp_show_frame(w, &s.frame);
    logmsg("window %u: update %lld released for the next repaint (%s)", w->id, (long long)s.value, why);
    drawn_update_completed(w, s.value);
    fade_update_completed(w);
}

/* a compressed update is superseded by the one that just ended: never shown, never reported */
static void drop_compressed_tail(struct win *w, int64_t later)
{
    if (w->nstaged == 0 || !w->staged[w->nstaged - 1].compressed)
        return;
    struct staged *s = &w->staged[--w->nstaged];
    comp_free_frame(&s->frame);
    logmsg("window %u: update %lld compressed into update %lld: not shown on its own, no drawn message for it "
           "(inject compress-every=%d)",
           w->id, (long long)s->value, (long long)later, opt.compress_every);
}

bool stage_update(struct win *w, int64_t value, int64_t now)
{
    bool compress = opt.compress_every && ++w->updates_completed % opt.compress_every == 0;
    drop_compressed_tail(w, value);
    if (!compress && !opt.paint_delay_ms && w->nstaged == 0)
        return false; /* nothing in front of it and nothing to delay: shown as by default */
    if (w->nstaged == MAX_STAGED)
        release_head(w, "too many updates staged");
    struct staged *s = &w->staged[w->nstaged];
    if (!comp_snapshot(w, &s->frame))
        return false;
    s->value = value;
    s->compressed = compress;
    s->release_at = now + (compress ? ms(opt.hold_timeout_ms) : ms(opt.paint_delay_ms));
    if (w->nstaged > 0 && s->release_at < w->staged[w->nstaged - 1].release_at)
        s->release_at = w->staged[w->nstaged - 1].release_at; /* in order */
    w->nstaged++;
    if (compress)
        logmsg("window %u: update %lld compressed: kept until the next update ends (at most %d ms; inject "
               "compress-every=%d)",
               w->id, (long long)value, opt.hold_timeout_ms, opt.compress_every);
    else
        logmsg("window %u: update %lld shown in %lld ms (inject paint-delay=%d)", w->id, (long long)value,
               (long long)(s->release_at - now) / 1000, opt.paint_delay_ms);
    return true;
}

void stage_release_due(int64_t now)
{
    for (int i = 0; i < nstack; i++) {
        struct win *w = stack[i];
        while (w->nstaged > 0 && now >= w->staged[0].release_at)
            release_head(w, w->staged[0].compressed ? "compressed, but no later update came in time"
                                                    : "inject paint-delay");
    }
}

int64_t stage_next_deadline(void)
{
    int64_t d = -1;
    for (int i = 0; i < nstack; i++)
        if (stack[i]->nstaged > 0 && (d < 0 || stack[i]->staged[0].release_at < d))
            d = stack[i]->staged[0].release_at;
    return d;
}

void stage_forget(struct win *w)
{
    /* like updates not shown yet at an unmap: dropped */
    while (w->nstaged > 0)
        comp_free_frame(&w->staged[--w->nstaged].frame);
    w->updates_completed = 0;
}
