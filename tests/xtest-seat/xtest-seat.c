/* xtest-seat: an input helper (harness/input-path.h) whose seat is the X server itself, through
 * XTEST: the proof of the harness's input path (`--input`, `input:` of a conf) without a Wayland
 * compositor.  It speaks tools/mutter-input's lines (motion X Y, button N press|release,
 * key KEYSYM press|release, keycode CODE press|release, quit) and answers each `done` after a
 * round trip (the X server has the event), so a WM on that server (fake-wm) is driven through the
 * same path as mutter's seat under mutter --wayland, and must give the same verdicts as with the
 * scripted client's own XTEST (tests/test_input_path.py).
 *
 *   xtest-seat [--geometry X,Y,W,H] [--refuse WORD]
 *
 * It reports its monitor as the root (0,0 and the root's size) unless --geometry says otherwise
 * (the harness must refuse a monitor that is not the root), and answers every command WORD with
 * `error` under --refuse WORD (the harness must make the resize UNRESOLVED). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/xcb.h>
#include <xcb/xtest.h>

static xcb_connection_t *c;
static xcb_screen_t *screen;

static xcb_keycode_t keycode_of(uint32_t keysym)
{
    const xcb_setup_t *setup = xcb_get_setup(c);
    uint8_t min = setup->min_keycode, max = setup->max_keycode;
    xcb_get_keyboard_mapping_reply_t *r =
        xcb_get_keyboard_mapping_reply(c, xcb_get_keyboard_mapping(c, min, (uint8_t)(max - min + 1)), NULL);
    if (!r)
        return 0;
    xcb_keysym_t *syms = xcb_get_keyboard_mapping_keysyms(r);
    xcb_keycode_t found = 0;
    for (int k = 0; k <= max - min && !found; k++)
        for (int j = 0; j < r->keysyms_per_keycode && !found; j++)
            if (syms[k * r->keysyms_per_keycode + j] == keysym)
                found = (xcb_keycode_t)(min + k);
    free(r);
    return found;
}

static bool number(const char *w, long min, long max, long *out)
{
    char *end;
    errno = 0;
    long v = w ? strtol(w, &end, 0) : 0;
    if (!w || errno || *end || end == w || v < min || v > max)
        return false;
    *out = v;
    return true;
}

/* One command: 0 done, -1 with msg. */
static int run(char **w, int n, char *msg, size_t len)
{
    long a, b;
    bool press = n == 3 && !strcmp(w[2], "press");
    bool state = n == 3 && (press || !strcmp(w[2], "release"));
    if (!strcmp(w[0], "motion") && n == 3 && number(w[1], -32768, 32767, &a) && number(w[2], -32768, 32767, &b))
        xcb_test_fake_input(c, XCB_MOTION_NOTIFY, 0, XCB_CURRENT_TIME, screen->root, (int16_t)a, (int16_t)b, 0);
    else if (!strcmp(w[0], "button") && state && number(w[1], 1, 3, &a))
        xcb_test_fake_input(c, press ? XCB_BUTTON_PRESS : XCB_BUTTON_RELEASE, (uint8_t)a, XCB_CURRENT_TIME, XCB_NONE,
                            0, 0, 0);
    else if ((!strcmp(w[0], "key") || !strcmp(w[0], "keycode")) && state && number(w[1], 1, 0x1ffffff, &a)) {
        xcb_keycode_t k = !strcmp(w[0], "key") ? keycode_of((uint32_t)a) : (xcb_keycode_t)(a + 8);
        if (!k) {
            snprintf(msg, len, "no key has keysym %s", w[1]);
            return -1;
        }
        xcb_test_fake_input(c, press ? XCB_KEY_PRESS : XCB_KEY_RELEASE, k, XCB_CURRENT_TIME, XCB_NONE, 0, 0, 0);
    } else {
        snprintf(msg, len, "expected motion X Y, button N press|release, key KEYSYM press|release, "
                           "keycode CODE press|release or quit");
        return -1;
    }
    free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL)); /* the server has it */
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *refuse = NULL, *geometry = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--refuse") && i + 1 < argc)
            refuse = argv[++i];
        else if (!strcmp(argv[i], "--geometry") && i + 1 < argc)
            geometry = argv[++i];
        else {
            fprintf(stderr, "usage: xtest-seat [--geometry X,Y,W,H] [--refuse WORD]\n");
            return 2;
        }
    }
    c = xcb_connect(NULL, NULL);
    const xcb_query_extension_reply_t *xt = xcb_connection_has_error(c) ? NULL : xcb_get_extension_data(c, &xcb_test_id);
    if (!xt || !xt->present) {
        printf("error msg=no X server with XTEST on DISPLAY=%s\n", getenv("DISPLAY") ? getenv("DISPLAY") : "");
        return 1;
    }
    screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
    int x = 0, y = 0, w = screen->width_in_pixels, h = screen->height_in_pixels;
    if (geometry && sscanf(geometry, "%d,%d,%d,%d", &x, &y, &w, &h) != 4) {
        printf("error msg=--geometry takes X,Y,W,H, not `%s`\n", geometry);
        return 1;
    }
    printf("ready x=%d y=%d width=%d height=%d\n", x, y, w, h);
    char line[1024];
    while (fgets(line, sizeof line, stdin)) {
        char *words[8], *save = NULL, msg[256];
        int n = 0;
        for (char *t = strtok_r(line, " \t\r\n", &save); t && n < 8; t = strtok_r(NULL, " \t\r\n", &save))
            words[n++] = t;
        if (n == 0)
            continue;
        if (!strcmp(words[0], "quit")) {
            printf("done cmd=quit\n");
            break;
        }
        if (refuse && !strcmp(words[0], refuse))
            printf("error cmd=%s msg=refused (--refuse %s)\n", words[0], refuse);
        else if (run(words, n, msg, sizeof msg) < 0)
            printf("error cmd=%s msg=%s\n", words[0], msg);
        else
            printf("done cmd=%s\n", words[0]);
        if (xcb_connection_has_error(c))
            return 1;
    }
    xcb_disconnect(c);
    return 0;
}
