/* Two outputs to move the window between (PROTOCOL.md `monitors`, `to-monitor`): the cases about
 * outputs need a screen that a compositor can paint as two, and Xvfb 21.1 has one output and one
 * CRTC, which no client can add to.  RandR 1.5 monitors are what a client can add: rectangles of
 * the root with a name, listed by GetMonitors to every client that asks (GDK, i3, a compositor
 * that paints per monitor).  So `monitors two` uses the first two the server lists when it has two
 * already (a server with two real outputs: the Xwayland of a compositor with two), and otherwise
 * makes two of its own, the left and right halves of the screen, with no output; the server's own
 * monitor for its one output stays, so what a compositor that reads outputs sees is unchanged.
 * The monitors made are the server's until deleted, not the client's: this client deletes them
 * with `monitors remove` and at every exit it makes (commands, end of input), and deletes any
 * left over from an earlier client (one that was killed) before it makes its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/randr.h>

#include "commands.h"

/* the leftover monitors of the suite (named MONITORS_OWN_PREFIX...), whoever made them */
static void delete_leftovers(struct client *cl, struct cmd *cmd)
{
    struct monitor_rect all[MONITORS_MAX];
    int n = monitors_read(cl->c, cl->screen->root, false, all, MONITORS_MAX);
    for (int i = 0; i < n; i++)
        if (monitors_is_own(cl->c, all[i].name)) {
            xcb_void_cookie_t ck = xcb_randr_delete_monitor_checked(cl->c, cl->screen->root, all[i].name);
            if (cmd)
                cmd_track(cmd, ck);
            else
                free(xcb_request_check(cl->c, ck));
        }
}

void monitors_remove_own(struct client *cl, struct cmd *cmd)
{
    if (!cl->made_monitors)
        return;
    delete_leftovers(cl, cmd);
    cl->made_monitors = false;
    cl->nmonitors = 0;
}

/* the left and right halves of the screen, as monitors named FRAMESYNC-0 and FRAMESYNC-1 */
static void make_halves(struct client *cl, struct cmd *cmd)
{
    int w = cl->screen->width_in_pixels, h = cl->screen->height_in_pixels;
    for (int i = 0; i < 2; i++) {
        char name[32];
        snprintf(name, sizeof name, "%s%d", MONITORS_OWN_PREFIX, i);
        xcb_randr_monitor_info_t m = {.name = intern(cl, name, false),
                                      .x = (int16_t)(i * (w / 2)),
                                      .width = (uint16_t)(i ? w - w / 2 : w / 2),
                                      .height = (uint16_t)h};
        cmd_track(cmd, monitors_set(cl->c, cl->screen->root, &m));
    }
    cl->made_monitors = true;
}

/* the suite's monitors among the active ones, or every active one when none is the suite's */
static int pick(struct client *cl, struct monitor_rect *out, int max)
{
    struct monitor_rect all[MONITORS_MAX];
    int n = monitors_read(cl->c, cl->screen->root, true, all, MONITORS_MAX), k = 0;
    for (int i = 0; i < n && cl->made_monitors; i++)
        if (monitors_is_own(cl->c, all[i].name) && k < max)
            out[k++] = all[i];
    for (int i = 0; i < n && !cl->made_monitors && k < max; i++)
        out[k++] = all[i];
    return n < 0 ? -1 : k;
}

static void report(struct client *cl, const char *why)
{
    char f[512] = "";
    int o = 0;
    for (int i = 0; i < cl->nmonitors; i++) {
        const struct monitor_rect *m = &cl->monitors[i];
        o += snprintf(f + o, sizeof f - (size_t)o, " m%dx=%d m%dy=%d m%dw=%d m%dh=%d m%dright=%d", i, m->x, i, m->y, i,
                      m->w, i, m->h, i, m->x + m->w);
    }
    record("monitors", "count=%d made=%d%s%s%s", cl->nmonitors, cl->made_monitors ? 1 : 0, f, why ? " msg=" : "",
           why ? why : "");
}

/* `monitors two`: two monitors side by side (reported in a `monitors` record: count=2 and their
 * rectangles, or count<2 and why); `monitors remove`: deletes the ones this client made */
bool cmd_monitors(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra, char *msg)
{
    (void)extra;
    if (argc != 2 || (strcmp(argv[1], "two") && strcmp(argv[1], "remove")))
        return arg_bad(msg, "usage: monitors two|remove%s", "");
    if (!strcmp(argv[1], "remove")) {
        monitors_remove_own(cl, cmd);
        return true;
    }
    char why[256];
    cl->nmonitors = 0;
    if (!monitors_supported(cl->c, why, sizeof why)) {
        report(cl, why);
        return true;
    }
    monitors_remove_own(cl, cmd);
    delete_leftovers(cl, cmd);
    struct monitor_rect found[2];
    if (pick(cl, found, 2) < 2) {
        make_halves(cl, cmd);
        if (!cmd_check(cl, cmd, msg, MSG_LEN)) {
            cl->made_monitors = false;
            return false;
        }
    }
    int n = pick(cl, found, 2);
    cl->nmonitors = n < 0 ? 0 : n;
    memcpy(cl->monitors, found, sizeof found[0] * (size_t)cl->nmonitors);
    report(cl, cl->nmonitors == 2 ? NULL
               : cl->made_monitors ? "the X server does not list the two monitors made"
                                   : "the X server lists fewer than two monitors");
    return true;
}

/* `to-monitor I`: the window moved (ConfigureWindow X Y, its size kept) so that its centre is at
 * the centre of monitor I (0 or 1) of the last `monitors two` */
bool cmd_to_monitor(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra, char *msg)
{
    int64_t i;
    if (argc != 2 || !parse_range(argv[1], 0, 1, &i))
        return arg_bad(msg, "usage: to-monitor 0|1%s", "");
    if (cl->nmonitors < 2)
        return arg_bad(msg, "no two monitors (use monitors two first)%s", "");
    const struct monitor_rect *m = &cl->monitors[i];
    int x = m->x + (m->w - cl->win_w) / 2, y = m->y + (m->h - cl->win_h) / 2;
    uint32_t values[] = {(uint32_t)x, (uint32_t)y};
    cmd_track(cmd, xcb_configure_window_checked(cl->c, cl->win, XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y, values));
    snprintf(extra, EXTRA_LEN, "monitor=%d x=%d y=%d", (int)i, x, y);
    return true;
}
