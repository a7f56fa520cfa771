/* The commands about the window (PROTOCOL.md): create, max-size, map, unmap, withdraw, destroy,
 * configure, resize, resize-end, protocols, and painting it (fill, fill-frame, background-frame). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xcb/xcb_icccm.h>

#include "commands.h"
#include "frame-colour.h"

/* ---- the window ---- */

static void set_string(struct client *cl, struct cmd *cmd, xcb_atom_t prop, xcb_atom_t type,
                       const char *s, size_t len)
{
    cmd_track(cmd, xcb_change_property_checked(cl->c, XCB_PROP_MODE_REPLACE, cl->win, prop, type,
                                               8, (uint32_t)len, s));
}

bool cmd_create(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                       char *msg)
{
    int64_t g[4];
    if (!parse_geometry(argc, argv, g, msg))
        return false;
    if (cl->win)
        {
        snprintf(msg, MSG_LEN, "the window %u exists (destroy it first)", cl->win);
        return false;
    }
    cl->win = xcb_generate_id(cl->c);
    cl->win_w = (int)g[0];
    cl->win_h = (int)g[1];
    cl->painted = false;
    /* Background None: the server never paints the window itself, so every pixel the harness
     * sees in it was put there by a fill. */
    /* On the seat path (input.c) also KeyPress: a key reaching the window shows that the
     * compositor's interactive resize is over (resize.c). */
    uint32_t values[] = {XCB_BACK_PIXMAP_NONE, XCB_EVENT_MASK_STRUCTURE_NOTIFY | XCB_EVENT_MASK_PROPERTY_CHANGE |
                                                   XCB_EVENT_MASK_EXPOSURE |
                                                   (input_via_seat() ? XCB_EVENT_MASK_KEY_PRESS : 0)};
    cmd_track(cmd, xcb_create_window_checked(cl->c, XCB_COPY_FROM_PARENT, cl->win, cl->screen->root,
                                             (int16_t)g[2], (int16_t)g[3], (uint16_t)g[0],
                                             (uint16_t)g[1], 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                                             cl->screen->root_visual,
                                             XCB_CW_BACK_PIXMAP | XCB_CW_EVENT_MASK, values));
    const struct atoms *a = &cl->atoms;
    /* The client's name, and which of its windows this is in the whole run (its pid and a count):
     * a capture that finds a window by its name (tools/weston-capture) must not find an earlier
     * case's window of the same client name that the compositor still shows (weston 10 does). */
    static unsigned created;
    char title[96];
    int tlen = snprintf(title, sizeof title, "%s (pid %d, window %u)", cl->name, (int)getpid(), ++created);
    set_string(cl, cmd, a->wm_name, XCB_ATOM_STRING, title, (size_t)tlen);
    set_string(cl, cmd, a->net_wm_name, a->utf8_string, title, (size_t)tlen);
    static const char wm_class[] = "scripted-client\0scripted-client"; /* instance\0class\0 */
    set_string(cl, cmd, a->wm_class, XCB_ATOM_STRING, wm_class, sizeof wm_class);
    uint32_t pid = (uint32_t)getpid();
    cmd_track(cmd, xcb_change_property_checked(cl->c, XCB_PROP_MODE_REPLACE, cl->win, a->net_wm_pid,
                                               XCB_ATOM_CARDINAL, 32, 1, &pid));
    if (argc == 5) {
        /* A given position is the user's: a placing WM (openbox) keeps it, so the harness knows
         * where to sample. */
        xcb_size_hints_t hints;
        memset(&hints, 0, sizeof hints);
        xcb_icccm_size_hints_set_position(&hints, 1, (int32_t)g[2], (int32_t)g[3]);
        xcb_icccm_size_hints_set_size(&hints, 1, (int32_t)g[0], (int32_t)g[1]);
        cmd_track(cmd, xcb_icccm_set_wm_normal_hints_checked(cl->c, cl->win, &hints));
    }
    snprintf(extra, EXTRA_LEN, "window=%u", cl->win);
    return true;
}

/* `max-size W H`: WM_NORMAL_HINTS' maximum size (PMaxSize, ICCCM 4.1.2.3), added to what the hints
 * already say (create's position and size), so that a WM keeps the window within it */
bool cmd_max_size(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra, char *msg)
{
    (void)extra;
    int64_t w, h;
    if (argc != 3 || !parse_range(argv[1], 1, 32767, &w) || !parse_range(argv[2], 1, 32767, &h))
        return arg_bad(msg, "usage: max-size W H (1..32767)%s", "");
    xcb_size_hints_t hints;
    if (!xcb_icccm_get_wm_normal_hints_reply(cl->c, xcb_icccm_get_wm_normal_hints(cl->c, cl->win), &hints, NULL))
        memset(&hints, 0, sizeof hints); /* none yet */
    xcb_icccm_size_hints_set_max_size(&hints, (int32_t)w, (int32_t)h);
    cmd_track(cmd, xcb_icccm_set_wm_normal_hints_checked(cl->c, cl->win, &hints));
    return true;
}

bool cmd_map(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                    char *msg)
{
    (void)extra;
    if (!arg_none(argc, argv, msg))
        return false;
    cmd_track(cmd, xcb_map_window_checked(cl->c, cl->win));
    return true;
}

bool cmd_unmap(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                      char *msg)
{
    (void)extra;
    if (!arg_none(argc, argv, msg))
        return false;
    cmd_track(cmd, xcb_unmap_window_checked(cl->c, cl->win));
    return true;
}

bool cmd_withdraw(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                  char *msg)
{
    (void)extra;
    if (!arg_none(argc, argv, msg))
        return false;
    withdraw_window(cl, cmd);
    return true;
}

bool cmd_destroy(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                        char *msg)
{
    (void)extra;
    if (!arg_none(argc, argv, msg))
        return false;
    cmd_track(cmd, xcb_destroy_window_checked(cl->c, cl->win));
    cl->win = 0; /* a later `create` makes a new one */
    cl->painted = false;
    return true;
}

bool cmd_configure(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                          char *msg)
{
    (void)extra;
    int64_t g[4];
    if (!parse_geometry(argc, argv, g, msg))
        return false;
    uint16_t mask = XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT;
    uint32_t values[4];
    int n = 0;
    if (argc == 5) {
        mask |= XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y;
        values[n++] = (uint32_t)(int32_t)g[2]; /* value order follows the mask bits: x y w h */
        values[n++] = (uint32_t)(int32_t)g[3];
    }
    values[n++] = (uint32_t)g[0];
    values[n++] = (uint32_t)g[1];
    cmd_track(cmd, xcb_configure_window_checked(cl->c, cl->win, mask, values));
    return true;
}

/* resize W H TRIGGER [hold] [request] [within MS] (resize.c) */
bool cmd_resize(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra, char *msg)
{
    (void)extra;
    int64_t g[2], within = 1000;
    enum resize_trigger trigger;
    bool hold = false, want_request = false;
    if (argc < 4)
        return arg_bad(msg, "usage: resize W H configure|keyboard|pointer|map [hold] [request] [within MS]", NULL);
    for (int i = 0; i < 2; i++)
        if (!parse_range(argv[1 + i], 1, 32767, &g[i]))
            return arg_bad(msg, "bad size %s (1..32767)", argv[1 + i]);
    if (!resize_parse_trigger(argv[3], &trigger))
        return arg_bad(msg, "unknown trigger %s (configure, keyboard, pointer, map)", argv[3]);
    for (int i = 4; i < argc; i++) {
        if (!strcmp(argv[i], "hold"))
            hold = true;
        else if (!strcmp(argv[i], "request"))
            want_request = true;
        else if (!strcmp(argv[i], "within") && i + 1 < argc && parse_range(argv[i + 1], 1, 600000, &within))
            i++;
        else
            return arg_bad(msg, "unexpected `%s` (hold, request, within MS)", argv[i]);
    }
    if (!resize_begin(cl, argv[0], (int)g[0], (int)g[1], trigger, hold, want_request, (int)within, msg))
        return false;
    cmd->deferred = true;
    return true;
}

bool cmd_resize_end(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra, char *msg)
{
    (void)cl;
    (void)extra;
    if (!arg_none(argc, argv, msg))
        return false;
    cmd->deferred = true; /* done once the WM lets its grab go (resize.c) */
    return true;
}

bool cmd_protocols(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                          char *msg)
{
    (void)extra;
    (void)msg;
    static const struct {
        const char *word, *atom;
    } shorts[] = {{"delete", "WM_DELETE_WINDOW"},
                  {"sync", "_NET_WM_SYNC_REQUEST"},
                  {"take-focus", "WM_TAKE_FOCUS"},
                  {"ping", "_NET_WM_PING"}};
    xcb_atom_t atoms[MAX_WORDS];
    int n = 0;
    for (int i = 1; i < argc; i++) {
        const char *name = argv[i];
        for (size_t s = 0; s < sizeof shorts / sizeof shorts[0]; s++)
            if (strcmp(name, shorts[s].word) == 0)
                name = shorts[s].atom;
        atoms[n++] = intern(cl, name, false);
    }
    cmd_track(cmd, xcb_change_property_checked(cl->c, XCB_PROP_MODE_REPLACE, cl->win,
                                               cl->atoms.wm_protocols, XCB_ATOM_ATOM, 32,
                                               (uint32_t)n, atoms));
    return true;
}

/* ---- painting ---- */

bool cmd_fill_frame(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                           char *msg)
{
    int64_t k;
    if (argc != 2 || !parse_range(argv[1], 0, UINT32_MAX, &k))
        return arg_bad(msg, "usage: fill-frame K (K a frame number >= 0), got %s",
                   argc > 1 ? argv[1] : "nothing");
    cmd_track(cmd, paint(cl, frame_colour((uint32_t)k), true));
    snprintf(extra, EXTRA_LEN, "frame=%lld", (long long)k);
    return true;
}

/* The window's background becomes frame K's colour, and K its current frame: the server itself
 * paints it into every exposed part of the window, also as it maps the window (before a WM or
 * compositor hears of the map), so the window's first composite already shows frame K.  Without
 * it (background None) a newly mapped window holds whatever the server copied from the root
 * until the client's Expose repaint, and "first drawn" and "first painted by the client" are two
 * moments a screen oracle cannot tell apart from black on black. */
bool cmd_background_frame(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra, char *msg)
{
    int64_t k;
    if (argc != 2 || !parse_range(argv[1], 0, UINT32_MAX, &k))
        return arg_bad(msg, "usage: background-frame K (K a frame number >= 0), got %s",
                       argc > 1 ? argv[1] : "nothing");
    uint32_t rgb = frame_colour((uint32_t)k);
    uint32_t pixel = rgb_to_pixel(cl, rgb);
    cmd_track(cmd, xcb_change_window_attributes_checked(cl->c, cl->win, XCB_CW_BACK_PIXEL, &pixel));
    cl->colour = rgb; /* what an Expose or a resize repaints */
    cl->painted = true;
    snprintf(extra, EXTRA_LEN, "frame=%lld", (long long)k);
    return true;
}

bool cmd_fill(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                     char *msg)
{
    (void)extra;
    char *end;
    if (argc != 2)
        return arg_bad(msg, "usage: fill RRGGBB%s", "");
    errno = 0;
    unsigned long rgb = strtoul(argv[1], &end, 16);
    if (errno || end == argv[1] || *end || argv[1][0] == '-' || argv[1][0] == '+' ||
        strlen(argv[1]) > 6 || rgb > 0xFFFFFF)
        return arg_bad(msg, "bad colour %s (RRGGBB, hex, no prefix)", argv[1]);
    cmd_track(cmd, paint(cl, (uint32_t)rgb, true));
    return true;
}
