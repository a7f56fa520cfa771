/* The harness's commands: each answered by one `done cmd=WORD` or `error cmd=WORD msg=...`.
 *   wm-resize W H      fake-wm resizes the application's toplevel (a sync request, then the configure)
 *   wm-move DX DY      fake-wm moves it without resizing (a sync request, the configure, ICCCM's
 *                      synthetic ConfigureNotify)
 *   wm-drawn on|off|delay MS   fake-wm sends its drawn messages as usual, never, or MS late
 *   sync               a round trip
 *   quit               stops the application and exits
 * The wm-* commands are ClientMessages of fake-wm's control channel (fake-wm/control.c). */
#include "app-observer.h"
#include "xhelpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void control(struct observer *ob, uint32_t op, uint32_t a, uint32_t b, uint32_t c)
{
    xcb_client_message_event_t m;
    memset(&m, 0, sizeof m);
    m.response_type = XCB_CLIENT_MESSAGE;
    m.format = 32;
    m.window = ob->toplevel;
    m.type = ob->atoms[WA_CONTROL];
    m.data.data32[0] = op;
    m.data.data32[1] = a;
    m.data.data32[2] = b;
    m.data.data32[3] = c;
    xcb_send_event(ob->ctl, 0, ob->root, XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY,
                   (const char *)&m);
    xh_round_trip(ob->ctl);
}

static bool number(const char *s, long min, long max, long *out)
{
    char *end;
    if (!s)
        return false;
    *out = strtol(s, &end, 10);
    return !*end && *out >= min && *out <= max;
}

void commands_reset_compositor(struct observer *ob)
{
    control(ob, 3, 0, 0, 0); /* drawn messages as usual: an earlier case may have withheld them */
}

void command_run(struct observer *ob, char *line)
{
    char *save = NULL, *word = strtok_r(line, " ", &save);
    if (!word || word[0] == '#')
        return;
    char *a1 = strtok_r(NULL, " ", &save), *a2 = strtok_r(NULL, " ", &save);
    long x, y;
    if (!strcmp(word, "sync")) {
        xh_round_trip(ob->ctl);
    } else if (!strcmp(word, "quit")) {
        out_record("done", "cmd=quit");
        out_record("bye", "reason=quit");
        exit(0);
    } else if (!strncmp(word, "wm-", 3) && !ob->toplevel) {
        out_record("error", "cmd=%s msg=the application has mapped no toplevel yet", word);
        return;
    } else if (!strcmp(word, "wm-resize") || !strcmp(word, "wm-move")) {
        bool resize = word[3] == 'r';
        if (!number(a1, resize ? 1 : -32768, 32767, &x) || !number(a2, resize ? 1 : -32768, 32767, &y)) {
            out_record("error", "cmd=%s msg=expected %s", word, resize ? "W H (1..32767)" : "DX DY");
            return;
        }
        control(ob, resize ? 1 : 2, ob->toplevel, (uint32_t)x, (uint32_t)y);
    } else if (!strcmp(word, "wm-drawn")) {
        int mode = a1 && !strcmp(a1, "on") ? 0 : a1 && !strcmp(a1, "off") ? 1 : a1 && !strcmp(a1, "delay") ? 2 : -1;
        if (mode < 0 || (mode == 2 && !number(a2, 0, 600000, &x))) {
            out_record("error", "cmd=wm-drawn msg=expected on, off or delay MS");
            return;
        }
        control(ob, 3, (uint32_t)mode, mode == 2 ? (uint32_t)x : 0, 0);
    } else {
        out_record("error", "cmd=%s msg=unknown command", word);
        return;
    }
    out_record("done", "cmd=%s", word);
}
