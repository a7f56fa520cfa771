/* A cell is named by what it measures, "WINDOWSxSIZE-RENDER-PACING-LOAD" (e.g. 4x256-core-drawn-idle,
 * 1x1200x900-gl-timer60-stress), so that a cell means the same on every machine and results of
 * different runs can be compared by name. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const renders[] = {"core", "gl"};
static const char *const pacings[] = {"drawn", "timer60", "pixel"};
static const char *const loads[] = {"idle", "stress"};

const char *render_name(enum render r) { return renders[r]; }
const char *pacing_name(enum pacing p) { return pacings[p]; }
const char *load_name(enum load l) { return loads[l]; }

static int word_index(const char *word, const char *const *words, int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(word, words[i]))
            return i;
    return -1;
}

/* "256" or "1200x900" */
static int parse_size(const char *s, int *w, int *h)
{
    char *end;
    long a = strtol(s, &end, 10), b = a;
    if (*end == 'x')
        b = strtol(end + 1, &end, 10);
    if (*end || a < 16 || b < 16 || a > 4096 || b > 4096)
        return -1;
    *w = (int)a;
    *h = (int)b;
    return 0;
}

static const char *const forms[] = {"basic", "draft", "defacto", "none"};
const char *resize_form_name(enum resize_form f) { return forms[f]; }

/* a whole number from lo to hi that is all of s */
static int whole(const char *s, int lo, int hi)
{
    char *end;
    long v = strtol(s, &end, 10);
    return (*s && !*end && v >= lo && v <= hi) ? (int)v : -1;
}

/* resize-TRIGGER-FORM-PAINTMS[-slow]: TRIGGER ptrHZ (pointer motion, _NET_WM_MOVERESIZE), kbdHZ
 * (arrow keys, _NET_WM_MOVERESIZE_SIZE_KEYBOARD) or cfgHZ (the client's own ConfigureRequests), HZ 1..1000; FORM basic, draft, defacto or none; PAINTMS
 * 0..1000 */
static int parse_resize(const char *name, struct cellspec *c, char *err, size_t errlen)
{
    char buf[96], *parts[6], *save = NULL;
    snprintf(buf, sizeof buf, "%s", name);
    int n = 0;
    for (char *t = strtok_r(buf, "-", &save); t; t = strtok_r(NULL, "-", &save))
        parts[n < 6 ? n : 5] = t, n++;
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->is_resize = true;
    c->windows = 1;
    c->width = c->height = 0;
    int hz = -1, f = -1, ms = -1;
    if (n == 4 || (n == 5 && !strcmp(parts[4], "slow"))) {
        if (!strncmp(parts[1], "ptr", 3))
            c->rs.trigger = RT_POINTER, hz = whole(parts[1] + 3, 1, 1000);
        else if (!strncmp(parts[1], "kbd", 3))
            c->rs.trigger = RT_KEYBOARD, hz = whole(parts[1] + 3, 1, 1000);
        else if (!strncmp(parts[1], "cfg", 3))
            c->rs.trigger = RT_CONFIGURE, hz = whole(parts[1] + 3, 1, 1000);
        f = word_index(parts[2], forms, 4);
        ms = whole(parts[3], 0, 1000);
        c->rs.slow = n == 5;
    }
    if (hz < 0 || f < 0 || ms < 0) {
        snprintf(err, errlen, "cell `%s`: expected resize-TRIGGER-FORM-PAINTMS[-slow], e.g. resize-ptr125-basic-1 "
                 "(trigger ptrHZ, kbdHZ or cfgHZ, HZ 1..1000; form basic|draft|defacto|none; paint 0..1000 ms)", name);
        return -1;
    }
    c->rs.hz = hz;
    c->rs.form = (enum resize_form)f;
    c->rs.paint_ms = ms;
    return 0;
}

int cellspec_parse(const char *name, struct cellspec *c, char *err, size_t errlen)
{
    if (!strncmp(name, "resize-", 7))
        return parse_resize(name, c, err, errlen);
    char buf[96], *parts[4], *save = NULL;
    if (snprintf(buf, sizeof buf, "%s", name) >= (int)sizeof buf) {
        snprintf(err, errlen, "cell name `%s` is too long", name);
        return -1;
    }
    int n = 0;
    for (char *t = strtok_r(buf, "-", &save); t; t = strtok_r(NULL, "-", &save))
        parts[n < 4 ? n : 3] = t, n++;
    const char *usage = "expected WINDOWSxSIZE-RENDER-PACING-LOAD, e.g. 4x256-core-drawn-idle (render core|gl, "
                        "pacing drawn|timer60|pixel, load idle|stress, size N or WxH from 16)";
    if (n != 4) {
        snprintf(err, errlen, "cell `%s`: %s", name, usage);
        return -1;
    }
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    char *x = strchr(parts[0], 'x');
    char *end;
    long windows = x ? strtol(parts[0], &end, 10) : 0;
    int r = word_index(parts[1], renders, 2), p = word_index(parts[2], pacings, 3), l = word_index(parts[3], loads, 2);
    if (!x || end != x || windows < 1 || windows > BENCH_MAX_WINDOWS || parse_size(x + 1, &c->width, &c->height) < 0 ||
        r < 0 || p < 0 || l < 0) {
        snprintf(err, errlen, "cell `%s`: %s; 1 to %d windows", name, usage, BENCH_MAX_WINDOWS);
        return -1;
    }
    c->windows = (int)windows;
    c->render = (enum render)r;
    c->pacing = (enum pacing)p;
    c->load = (enum load)l;
    return 0;
}
