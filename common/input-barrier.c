/* The kinds of barrier before a seat's event: see input-barrier.h. */
#include "input-barrier.h"

#include <string.h>

static const char *const names[INPUT_BARRIER_COUNT] = {"none", "fullscreen-monitors"};

int input_barrier_parse(const char *name)
{
    for (int i = 0; name && i < INPUT_BARRIER_COUNT; i++)
        if (!strcmp(name, names[i]))
            return i;
    return -1;
}

const char *input_barrier_name(int kind)
{
    return kind > 0 && kind < INPUT_BARRIER_COUNT ? names[kind] : names[INPUT_BARRIER_NONE];
}
