/* The parametrised injections for the benchmark (and one for the input path's proof):
 * `--inject NAME=VALUE`.  They are not clause
 * faults (nothing they do breaks a clause: they only make fake-wm slower or compress more), so
 * --list-faults, whose rows the self-test iterates, does not list them; --help and README.md do.
 *   paint-delay=MS     the repaint that shows a completed update comes MS ms after the update ended
 *   drawn-delay=MS     each drawn message (and its timings) goes out MS ms after its repaint
 *   compress-every=K   every K-th completed update of a window is not painted on its own
 * and for the resize cells (bench/resize.c):
 *   show-before-paint=N  every N-th synced resize is painted at once at its new size, before the
 *                      client painted it (the glitch a compositor that does not wait shows)
 *   resize-lag=MS      a pointer resize applies each pointer position MS ms after it was reached
 *   configure-drop=K   every K-th step of a pointer resize is dropped (never configured)
 *   configure-before-answer=N  every N-th synced step of a pointer resize is not waited for: shown
 *                      at once at its new size, painted for the old one (the glitch of a WM that
 *                      configures before the answer with a compositor that does not hold)
 * and for the proof of the scripted client's input barrier (tests/test_input_path.py):
 *   input-first=MS     keys, buttons and motions are handled at once, the WM connection's other
 *                      events MS ms after they came (inputfirst.h: KWin under Wayland) */
#include "injections.h"

#include "state.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    long lo, hi;
    int *value;
    const char *what;
} injections[] = {
    {"paint-delay=MS", 0, 60000, &opt.paint_delay_ms,
     "the repaint showing a completed update comes MS ms after the update ended"},
    {"drawn-delay=MS", 0, 60000, &opt.drawn_delay_ms, "each drawn message (and its timings) MS ms after its repaint"},
    {"compress-every=K", 2, 1000000, &opt.compress_every,
     "every K-th completed update of a window is shown only with the next one"},
    {"show-before-paint=N", 1, 1000000, &opt.show_before_paint,
     "every N-th synced resize is shown at its new size at once, before the client painted it"},
    {"resize-lag=MS", 0, 60000, &opt.resize_lag_ms, "a pointer resize follows the pointer MS ms late"},
    {"configure-drop=K", 2, 1000000, &opt.configure_drop, "every K-th step of a pointer resize is dropped"},
    {"configure-before-answer=N", 1, 1000000, &opt.configure_before_answer,
     "every N-th synced step of a pointer resize is shown at once, unanswered, and not waited for"},
    {"input-first=MS", 0, 60000, &opt.input_first_ms,
     "keys, buttons, motions at once, the WM connection's other events MS ms late (KWin under Wayland)"},
};

bool injection_parse(const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (!eq)
        return false;
    for (size_t i = 0; i < sizeof injections / sizeof injections[0]; i++) {
        size_t len = (size_t)(strchr(injections[i].name, '=') - injections[i].name);
        if ((size_t)(eq - arg) != len || strncmp(arg, injections[i].name, len) != 0)
            continue;
        char *end;
        errno = 0;
        long v = strtol(eq + 1, &end, 10);
        if (errno || *end || end == eq + 1 || v < injections[i].lo || v > injections[i].hi) {
            fprintf(stderr, "fake-wm: --inject %.*s needs a number from %ld to %ld, not '%s'\n", (int)len + 1,
                    injections[i].name, injections[i].lo, injections[i].hi, eq + 1);
            exit(2);
        }
        *injections[i].value = (int)v;
        return true;
    }
    return false;
}

void injections_describe(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof injections / sizeof injections[0]; i++) {
        if (!*injections[i].value)
            continue;
        int len = (int)(strchr(injections[i].name, '=') - injections[i].name);
        int k = snprintf(buf + used, n - used, "%s%.*s=%d", used ? "," : "", len, injections[i].name,
                         *injections[i].value);
        if (k < 0 || (size_t)k >= n - used)
            break;
        used += (size_t)k;
    }
    if (!used)
        snprintf(buf, n, "none");
}

void injections_help(FILE *f)
{
    for (size_t i = 0; i < sizeof injections / sizeof injections[0]; i++)
        fprintf(f, "  --inject %-25s %s\n", injections[i].name, injections[i].what);
}
