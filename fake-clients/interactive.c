/* `interactive-resize DX DY [hold]`: a resize the way a user makes one with the keyboard, for
 * WMs that send sync requests only during interactive resizes (mutter, openbox).  It sends
 * _NET_WM_MOVERESIZE (direction 9 = _NET_WM_MOVERESIZE_SIZE_KEYBOARD, source 1 = application)
 * to the root, waits until the WM holds the keyboard grab of its resize mode, then presses (XTEST)
 * Right DX times (Left when DX < 0), Down DY times (Up when DY < 0), and Return to finish unless
 * `hold` is given.  After `hold` the next interactive-resize continues the same resize (no new
 * message) while the WM still holds the grab.  PROTOCOL.md has the contract. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xcb/xtest.h>

#include "fake-client.h"

#define MSG_LEN 512     /* the sizes command_run gives every handler */
#define EXTRA_LEN 4096
#define GRAB_WAIT_MS 2000
#define KEY_GAP_MS 30   /* between key presses, as a (fast) user would; lets the WM resize each */

#define XK_Left 0xff51
#define XK_Up 0xff52
#define XK_Right 0xff53
#define XK_Down 0xff54
#define XK_Return 0xff0d

static bool holding; /* a `hold` left a keyboard resize open */

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static xcb_keycode_t keycode_of(struct client *cl, uint32_t keysym)
{
    const xcb_setup_t *setup = xcb_get_setup(cl->c);
    uint8_t min = setup->min_keycode, max = setup->max_keycode;
    xcb_get_keyboard_mapping_reply_t *r = xcb_get_keyboard_mapping_reply(
        cl->c, xcb_get_keyboard_mapping(cl->c, min, (uint8_t)(max - min + 1)), NULL);
    if (!r)
        return 0;
    xcb_keysym_t *syms = xcb_get_keyboard_mapping_keysyms(r);
    int per = r->keysyms_per_keycode;
    xcb_keycode_t found = 0;
    for (int k = 0; k <= max - min && !found; k++)
        for (int j = 0; j < per && !found; j++)
            if (syms[k * per + j] == keysym)
                found = (xcb_keycode_t)(min + k);
    free(r);
    return found;
}

/* Is the keyboard grabbed by another client (the WM's resize mode)?  The probe is a GrabKeyboard
 * with the timestamp 1 (far in the past): AlreadyGrabbed is checked first, and otherwise the
 * server refuses it (InvalidTime) or, before any grab ever happened, grants it at that old time.
 * A probe at CurrentTime would move the keyboard's last-grab time to now, and a WM that then
 * grabs with the (older) timestamp of the event it is handling gets InvalidTime (xfwm4, KWin).
 * Grab and ungrab are sent back to back, so a granted probe lasts for no other client's request. */
static bool keyboard_grabbed_by_other(struct client *cl)
{
    xcb_grab_keyboard_cookie_t ck = xcb_grab_keyboard(cl->c, 0, cl->screen->root, 1,
                                                      XCB_GRAB_MODE_ASYNC, XCB_GRAB_MODE_ASYNC);
    xcb_ungrab_keyboard(cl->c, XCB_CURRENT_TIME);
    xcb_grab_keyboard_reply_t *r = xcb_grab_keyboard_reply(cl->c, ck, NULL);
    bool other = r && (r->status == XCB_GRAB_STATUS_ALREADY_GRABBED || r->status == XCB_GRAB_STATUS_FROZEN);
    free(r);
    return other;
}

static bool press(struct client *cl, xcb_keycode_t key)
{
    xcb_test_fake_input(cl->c, XCB_KEY_PRESS, key, XCB_CURRENT_TIME, XCB_NONE, 0, 0, 0);
    xcb_test_fake_input(cl->c, XCB_KEY_RELEASE, key, XCB_CURRENT_TIME, XCB_NONE, 0, 0, 0);
    return round_trip(cl);
}

bool cmd_interactive_resize(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                            char *msg)
{
    (void)cmd;
    char *end;
    long d[2];
    bool hold = argc == 4 && !strcmp(argv[3], "hold");
    if (argc != 3 && !hold) {
        snprintf(msg, MSG_LEN, "usage: interactive-resize DX DY [hold] (key presses: Right/Left, Down/Up)");
        return false;
    }
    for (int i = 0; i < 2; i++) {
        d[i] = strtol(argv[1 + i], &end, 10);
        if (*end || end == argv[1 + i] || d[i] < -100 || d[i] > 100) {
            snprintf(msg, MSG_LEN, "bad key count %s (-100..100)", argv[1 + i]);
            return false;
        }
    }
    xcb_keycode_t kx = keycode_of(cl, d[0] < 0 ? XK_Left : XK_Right);
    xcb_keycode_t ky = keycode_of(cl, d[1] < 0 ? XK_Up : XK_Down);
    xcb_keycode_t kret = keycode_of(cl, XK_Return);
    if (!kx || !ky || !kret) {
        snprintf(msg, MSG_LEN, "the keyboard map has no arrow or Return key");
        return false;
    }
    const xcb_query_extension_reply_t *xt = xcb_get_extension_data(cl->c, &xcb_test_id);
    if (!xt || !xt->present) {
        snprintf(msg, MSG_LEN, "no XTEST extension on the server");
        return false;
    }
    int64_t start = now_ms();
    bool continued = holding && keyboard_grabbed_by_other(cl);
    if (!continued) {
        xcb_client_message_event_t ev;
        memset(&ev, 0, sizeof ev);
        ev.response_type = XCB_CLIENT_MESSAGE;
        ev.window = cl->win;
        ev.format = 32;
        ev.type = intern(cl, "_NET_WM_MOVERESIZE", false);
        ev.data.data32[0] = 0; /* x_root, y_root: unused for keyboard resizing */
        ev.data.data32[1] = 0;
        ev.data.data32[2] = 9; /* _NET_WM_MOVERESIZE_SIZE_KEYBOARD */
        ev.data.data32[3] = 0; /* no button */
        ev.data.data32[4] = 1; /* source indication: a normal application */
        xcb_send_event(cl->c, 0, cl->screen->root,
                       XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY,
                       (const char *)&ev);
        round_trip(cl);
        while (!keyboard_grabbed_by_other(cl)) {
            if (now_ms() - start > GRAB_WAIT_MS) {
                holding = false;
                snprintf(msg, MSG_LEN,
                         "the WM took no keyboard grab within %d ms of _NET_WM_MOVERESIZE "
                         "(SIZE_KEYBOARD): it does not start a keyboard resize", GRAB_WAIT_MS);
                return false;
            }
            sleep_ms(5);
        }
    }
    int64_t grabbed = now_ms() - start;
    int presses = 0;
    for (int i = 0; i < 2; i++)
        for (long n = labs(d[i]); n > 0; n--, presses++) {
            if (presses)
                sleep_ms(KEY_GAP_MS);
            if (!press(cl, i == 0 ? kx : ky)) {
                snprintf(msg, MSG_LEN, "X connection lost");
                return false;
            }
        }
    if (!hold) {
        if (presses)
            sleep_ms(KEY_GAP_MS);
        press(cl, kret);
    }
    holding = hold;
    snprintf(extra, EXTRA_LEN, "keys=%d grab_ms=%lld continued=%d finished=%d", presses,
             (long long)grabbed, continued ? 1 : 0, hold ? 0 : 1);
    return true;
}
