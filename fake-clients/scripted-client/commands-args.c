/* The argument parsing the command handlers share: numbers in a range, W H [X Y], a counter
 * index, no arguments; each fills msg with what was wrong (the command's `error`). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"

bool parse_i64(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end)
        return false;
    *out = v;
    return true;
}

bool parse_range(const char *s, int64_t min, int64_t max, int64_t *out)
{
    return parse_i64(s, out) && *out >= min && *out <= max;
}

/* W H [X Y] of create and configure. */
bool parse_geometry(int argc, char **argv, int64_t g[4], char *msg)
{
    g[2] = g[3] = 0;
    if (argc != 3 && argc != 5)
        return arg_bad(msg, "usage: %s W H [X Y]", argv[0]);
    for (int i = 0; i < 2; i++)
        if (!parse_range(argv[1 + i], 1, 32767, &g[i]))
            return arg_bad(msg, "bad size %s (1..32767)", argv[1 + i]);
    for (int i = 2; i < argc - 1; i++)
        if (!parse_range(argv[1 + i], -32768, 32767, &g[i]))
            return arg_bad(msg, "bad position %s (-32768..32767)", argv[1 + i]);
    return true;
}

/* Counter index I (1 or 2) of a counter that `counters` created. */
bool parse_counter_index(struct client *cl, const char *s, int *index, char *msg)
{
    int64_t i;
    if (!s || !parse_range(s, 1, 2, &i))
        return arg_bad(msg, "bad counter index %s (1 or 2)", s);
    if (!cl->counters[i - 1].id)
        return arg_bad(msg, "no counter %s (use counters N first)", s);
    *index = (int)i;
    return true;
}

bool arg_none(int argc, char **argv, char *msg)
{
    if (argc != 1)
        return arg_bad(msg, "%s takes no arguments", argv[0]);
    return true;
}
