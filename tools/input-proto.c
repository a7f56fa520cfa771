#include "input-proto.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One line: false when the helper is to end (quit is true here: it ends the loop by `*quit`). */
static bool serve_line(ipr_command_fn command, void *ctx, char *line, bool *quit)
{
    char *w[IPR_WORDS] = {0}, *save = NULL, msg[256];
    int n = 0;
    for (char *t = strtok_r(line, " \t\r\n", &save); t && n < IPR_WORDS; t = strtok_r(NULL, " \t\r\n", &save))
        w[n++] = t;
    if (n == 0 || w[0][0] == '#')
        return true;
    if (!strcmp(w[0], "quit")) {
        printf("done cmd=quit\n");
        *quit = true;
        return true;
    }
    msg[0] = 0;
    int rc = command(ctx, w, n, msg, sizeof msg);
    if (rc > 0)
        printf("done cmd=%s\n", w[0]);
    else
        printf("error cmd=%s msg=%s\n", w[0], msg);
    return rc >= 0;
}

bool ipr_serve(ipr_command_fn command, void *ctx)
{
    char line[IPR_LINE_MAX];
    bool quit = false;
    while (!quit && fgets(line, sizeof line, stdin)) {
        if (!strchr(line, '\n') && !feof(stdin)) {
            int ch;
            while ((ch = getchar()) != EOF && ch != '\n')
                ;
            printf("error cmd=? msg=a line longer than %d bytes\n", IPR_LINE_MAX - 2);
            continue;
        }
        if (!serve_line(command, ctx, line, &quit))
            return false;
    }
    return true;
}

bool ipr_int(const char *word, long min, long max, long *out)
{
    if (!word)
        return false;
    char *end;
    errno = 0;
    long v = strtol(word, &end, 0);
    if (errno || *end || end == word || v < min || v > max)
        return false;
    *out = v;
    return true;
}

bool ipr_state(const char *word, bool *pressed)
{
    if (word && (!strcmp(word, "press") || !strcmp(word, "release"))) {
        *pressed = !strcmp(word, "press");
        return true;
    }
    return false;
}

unsigned ipr_evdev_of_keysym(long keysym)
{
    static const struct { long keysym; unsigned code; } keys[] = {
        {0xff51, 105}, {0xff52, 103}, {0xff53, 106}, {0xff54, 108}, /* Left Up Right Down */
        {0xff0d, 28},  {0xffe1, 42},                                 /* Return Shift_L */
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (keys[i].keysym == keysym)
            return keys[i].code;
    return 0;
}
