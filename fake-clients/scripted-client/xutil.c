/* Small X helpers of the scripted client: the checked requests of a command, atoms, painting,
 * withdrawing the window.
 * (The round trip and the SYNC 64-bit conversions are common/xhelpers.h's.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scripted-client.h"

void cmd_track(struct cmd *cmd, xcb_void_cookie_t cookie)
{
    if (!cmd)
        return;
    if (cmd->ncookies < FC_MAX_TRACKED)
        cmd->cookies[cmd->ncookies++] = cookie;
}

bool cmd_check(struct client *cl, struct cmd *cmd, char *msg, size_t len)
{
    /* Called after a round trip, so no check below waits on the server.  Every cookie must be
     * checked (xcb keeps the error until then); the first error is the one reported. */
    bool ok = true;
    for (int i = 0; i < cmd->ncookies; i++) {
        xcb_generic_error_t *e = xcb_request_check(cl->c, cmd->cookies[i]);
        if (e && ok) {
            x_error_text(msg, len, e);
            ok = false;
        }
        free(e);
    }
    cmd->ncookies = 0;
    return ok;
}

xcb_atom_t intern(struct client *cl, const char *name, bool only_if_exists)
{
    xcb_intern_atom_reply_t *r = xcb_intern_atom_reply(
        cl->c, xcb_intern_atom(cl->c, only_if_exists, (uint16_t)strlen(name), name), NULL);
    if (!r)
        return XCB_ATOM_NONE;
    xcb_atom_t a = r->atom;
    free(r);
    return a;
}

static uint32_t scale_into_mask(uint32_t component8, uint32_t mask)
{
    if (!mask)
        return 0;
    int shift = __builtin_ctz(mask);
    int bits = __builtin_popcount(mask);
    uint32_t v = bits >= 8 ? component8 << (bits - 8) : component8 >> (8 - bits);
    return (v << shift) & mask;
}

uint32_t rgb_to_pixel(const struct client *cl, uint32_t rgb)
{
    /* The pixel oracle reads 0xRRGGBB back from the root; on a 24-bit TrueColor visual the pixel
     * is the RGB value itself, the masks keep it right on any other TrueColor layout. */
    const xcb_visualtype_t *v = cl->visual;
    if (!v || (v->_class != XCB_VISUAL_CLASS_TRUE_COLOR &&
               v->_class != XCB_VISUAL_CLASS_DIRECT_COLOR))
        return rgb;
    return scale_into_mask((rgb >> 16) & 0xFF, v->red_mask) |
           scale_into_mask((rgb >> 8) & 0xFF, v->green_mask) |
           scale_into_mask(rgb & 0xFF, v->blue_mask);
}

xcb_void_cookie_t paint(struct client *cl, uint32_t rgb, bool checked)
{
    /* One rectangle larger than any window: the fill covers the whole window whatever size the
     * server has just given it, without racing against our own idea of the size.  Not 65535:
     * the server computes damage boxes in 16 bits with the window's position added, so a box
     * that large wraps and no DAMAGE is reported at all (compositors then never see the fill).
     * 8192 is larger than any screen the suite uses and cannot wrap. */
    uint32_t fg = rgb_to_pixel(cl, rgb);
    xcb_change_gc(cl->c, cl->gc, XCB_GC_FOREGROUND, &fg);
    xcb_rectangle_t all = {0, 0, 8192, 8192};
    cl->colour = rgb;
    cl->painted = true;
    return checked ? xcb_poly_fill_rectangle_checked(cl->c, cl->win, cl->gc, 1, &all)
                   : xcb_poly_fill_rectangle(cl->c, cl->win, cl->gc, 1, &all);
}

void repaint_current(struct client *cl)
{
    if (!cl->win || !cl->painted)
        return;
    /* Not a command's request: an error here is an asynchronous x-error. */
    paint(cl, cl->colour, false);
}

void withdraw_window(struct client *cl, struct cmd *cmd)
{
    xcb_unmap_notify_event_t ev;
    memset(&ev, 0, sizeof ev);
    ev.response_type = XCB_UNMAP_NOTIFY;
    ev.event = cl->screen->root;
    ev.window = cl->win;
    const uint32_t mask = XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY;
    if (cmd) {
        cmd_track(cmd, xcb_unmap_window_checked(cl->c, cl->win));
        cmd_track(cmd, xcb_send_event_checked(cl->c, 0, cl->screen->root, mask, (const char *)&ev));
    } else {
        xcb_unmap_window(cl->c, cl->win);
        xcb_send_event(cl->c, 0, cl->screen->root, mask, (const char *)&ev);
    }
    xcb_flush(cl->c);
}
