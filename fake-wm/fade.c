/* fade-in (the variant): every newly mapped window fades in over FADE_US, its opacity ramping from
 * 0 to 1 one step per repaint (the compositor repaints at the refresh rate while a fade runs),
 * as mutter's default plugin, muffin and cinnamon do.  The ramp starts at the window's first paint,
 * which already shows one step, so the first-paint drawn message follows a paint that shows the
 * window (faintly): the window is then first drawn.  A later completed update of the window (its
 * extended counter going even) ends the fade: updates are shown at full opacity.
 *
 * The window is painted with XRender Over through a solid alpha mask. */
#include "fade.h"

#include "log.h"
#include "state.h"
#include "variants.h"

#define FADE_US 250000

static int64_t frame_us(void) { return 1000000 / opt.refresh_hz; }

void fade_window_mapped(struct win *w)
{
    w->fade_pending = VARIANT(FADE_IN);
    w->fade_start = 0;
}

void fade_window_unmapped(struct win *w)
{
    w->fade_pending = false;
    w->fade_start = 0;
}

void fade_update_completed(struct win *w)
{
    if (!w->fade_start)
        return; /* not fading (or not shown yet: the fade starts with the first paint) */
    w->fade_start = 0;
    logmsg("window %u: update completed during its fade-in: shown at full opacity from now on (variant fade-in)",
           w->id);
}

/* the opacity w is painted with now, in 0..0xffff; starts the fade at the first paint */
uint16_t fade_alpha(struct win *w, int64_t now)
{
    if (w->fade_pending) {
        w->fade_pending = false;
        w->fade_start = now - frame_us(); /* the first paint shows the first step, not nothing */
        logmsg("window %u: fading in over %d ms (variant fade-in)", w->id, FADE_US / 1000);
    }
    if (!w->fade_start)
        return 0xffff;
    int64_t t = now - w->fade_start;
    if (t >= FADE_US) {
        w->fade_start = 0;
        logmsg("window %u: fade-in done (variant fade-in)", w->id);
        return 0xffff;
    }
    return (uint16_t)(t * 0xffff / FADE_US);
}

bool fade_running(const struct win *w) { return w->fade_start != 0; }
