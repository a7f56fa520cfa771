/* One clock for every process of a run: CLOCK_MONOTONIC in microseconds.  The harness, the fake
 * clients and fake-wm all stamp what they see with it, so their reports merge into one timeline. */
#ifndef FRAMESYNC_CLOCK_H
#define FRAMESYNC_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline int64_t clock_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

#endif
