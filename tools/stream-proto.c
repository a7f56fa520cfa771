#include "stream-proto.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

void sp_parse_watch(struct sp_points *pts, const char *args)
{
    pts->n = 0;
    int x, y, n;
    while (pts->n < SP_MAX_POINTS && sscanf(args, " %d,%d%n", &x, &y, &n) == 2) {
        pts->x[pts->n] = x;
        pts->y[pts->n++] = y;
        args += n;
    }
}

void sp_print_points(const struct sp_points *pts, sp_pixel_fn pixel, void *ctx)
{
    for (int i = 0; pixel && i < pts->n; i++) {
        int64_t p = pixel(ctx, pts->x[i], pts->y[i]);
        if (p >= 0)
            printf(" px=%d,%d:%06llX", pts->x[i], pts->y[i], (unsigned long long)p);
    }
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
