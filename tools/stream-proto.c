#include "stream-proto.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static bool parse_line(const char *tok, const char *key, struct sp_line *l)
{
    size_t k = strlen(key);
    if (strncmp(tok, key, k))
        return false;
    struct sp_line v;
    if (sscanf(tok + k, "%d,%d,%d", &v.x, &v.y, &v.len) == 3 && v.len > 0 && v.len <= SP_MAX_LINE)
        *l = v;
    return true;
}

void sp_parse_watch(struct sp_points *pts, const char *args)
{
    memset(pts, 0, sizeof *pts);
    char tok[64];
    int x, y, n;
    while (sscanf(args, " %63s%n", tok, &n) == 1) {
        args += n;
        if (parse_line(tok, "row=", &pts->row) || parse_line(tok, "col=", &pts->col))
            continue;
        if (pts->n < SP_MAX_POINTS && sscanf(tok, "%d,%d", &x, &y) == 2) {
            pts->x[pts->n] = x;
            pts->y[pts->n++] = y;
        }
    }
}

static void print_run(int64_t colour, int count, bool first)
{
    if (!first)
        putchar(',');
    if (colour < 0)
        putchar('-');
    else
        printf("%06llX", (unsigned long long)colour);
    if (count > 1)
        printf("x%d", count);
}

/* ` KEY=RUNS` of a line: its pixels, run-length coded */
static void print_line(const char *key, const struct sp_line *l, bool vertical, sp_pixel_fn pixel, void *ctx)
{
    if (l->len <= 0)
        return;
    printf(" %s=", key);
    int64_t run = pixel(ctx, l->x, l->y);
    int count = 1;
    bool first = true;
    for (int i = 1; i < l->len; i++) {
        int64_t p = vertical ? pixel(ctx, l->x, l->y + i) : pixel(ctx, l->x + i, l->y);
        if (p == run) {
            count++;
            continue;
        }
        print_run(run, count, first);
        first = false;
        run = p;
        count = 1;
    }
    print_run(run, count, first);
}

void sp_print_points(const struct sp_points *pts, sp_pixel_fn pixel, void *ctx)
{
    if (!pixel)
        return;
    for (int i = 0; i < pts->n; i++) {
        int64_t p = pixel(ctx, pts->x[i], pts->y[i]);
        if (p >= 0)
            printf(" px=%d,%d:%06llX", pts->x[i], pts->y[i], (unsigned long long)p);
    }
    print_line("row", &pts->row, false, pixel, ctx);
    print_line("col", &pts->col, true, pixel, ctx);
}

void sp_answer_ppm(const char *args, int width, int height, sp_pixel_fn pixel, void *ctx)
{
    int x, y, w, h;
    if (sscanf(args, "%d %d %d %d", &x, &y, &w, &h) != 4 || w <= 0 || h <= 0 || x < 0 || y < 0 || x + w > width ||
        y + h > height) {
        printf("error msg=ppm wants X Y W H inside the %dx%d output\n", width, height);
    } else if (!pixel) {
        printf("error msg=no frame was composited yet\n");
    } else {
        char head[64];
        int hl = snprintf(head, sizeof head, "P6\n%d %d\n255\n", w, h);
        printf("ppm len=%zu\n%s", (size_t)hl + (size_t)w * (size_t)h * 3, head);
        for (int j = 0; j < h; j++)
            for (int i = 0; i < w; i++) {
                uint32_t p = (uint32_t)pixel(ctx, x + i, y + j);
                putchar((int)(p >> 16) & 0xFF), putchar((int)(p >> 8) & 0xFF), putchar((int)p & 0xFF);
            }
    }
    fflush(stdout);
}

bool sp_read_commands(int fd, char *buf, size_t *len, size_t cap, bool (*command)(void *ctx, char *line),
                      void *ctx)
{
    ssize_t n = read(fd, buf + *len, cap - 1 - *len);
    if (n <= 0)
        return false;
    *len += (size_t)n;
    buf[*len] = 0;
    char *nl;
    while ((nl = strchr(buf, '\n'))) {
        *nl = 0;
        if (!command(ctx, buf))
            return false;
        memmove(buf, nl + 1, *len - (size_t)(nl + 1 - buf) + 1);
        *len -= (size_t)(nl + 1 - buf);
    }
    if (*len == cap - 1)
        *len = 0; /* a line too long to be a command */
    return true;
}
