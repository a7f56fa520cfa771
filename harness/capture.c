#include "capture.h"
#include "stream.h"
#include "clock.h"
#include "conffile.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- pure parts ---- */

/* The next header token of a PPM: skips blanks and `#` comments; -1 at the end of the data. */
static long ppm_token(const uint8_t *d, size_t len, size_t *at)
{
    for (;;) {
        while (*at < len && (d[*at] == ' ' || d[*at] == '\t' || d[*at] == '\n' || d[*at] == '\r'))
            (*at)++;
        if (*at < len && d[*at] == '#') {
            while (*at < len && d[*at] != '\n')
                (*at)++;
            continue;
        }
        break;
    }
    if (*at >= len || d[*at] < '0' || d[*at] > '9')
        return -1;
    long v = 0;
    while (*at < len && d[*at] >= '0' && d[*at] <= '9' && v < 1000000)
        v = v * 10 + (d[(*at)++] - '0');
    return v;
}

int ppm_decode(const uint8_t *data, size_t len, struct image *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (len < 2 || data[0] != 'P' || data[1] != '6') {
        snprintf(err, errlen, "not a binary PPM (P6): %zu bytes starting `%.*s`", len, len < 2 ? (int)len : 2,
                 (const char *)data);
        return -1;
    }
    size_t at = 2;
    long w = ppm_token(data, len, &at), h = ppm_token(data, len, &at), max = ppm_token(data, len, &at);
    if (w <= 0 || h <= 0 || max <= 0 || max > 255 || w > 16384 || h > 16384) {
        snprintf(err, errlen, "a PPM header that is not understood (width %ld, height %ld, maxval %ld; 8-bit only)",
                 w, h, max);
        return -1;
    }
    at++; /* the one blank after maxval */
    size_t need = (size_t)w * (size_t)h * 3;
    if (at > len || len - at < need) {
        snprintf(err, errlen, "a %ldx%ld PPM with %zu of its %zu bytes of pixels", w, h, at > len ? 0 : len - at, need);
        return -1;
    }
    out->w = (int)w;
    out->h = (int)h;
    out->rgb = malloc(need);
    if (max == 255)
        memcpy(out->rgb, data + at, need);
    else
        for (size_t i = 0; i < need; i++)
            out->rgb[i] = (uint8_t)((data[at + i] * 255 + max / 2) / max);
    return 0;
}

void capture_command_for(const char *tmpl, uint32_t window, int x, int y, int w, int h, char *out, size_t len)
{
    char a[4096], b[4096], v[16];
    snprintf(v, sizeof v, "%u", window);
    conf_substitute(tmpl, "{window}", v, b, sizeof b);
    snprintf(v, sizeof v, "%d", x);
    conf_substitute(b, "{x}", v, a, sizeof a);
    snprintf(v, sizeof v, "%d", y);
    conf_substitute(a, "{y}", v, b, sizeof b);
    snprintf(v, sizeof v, "%d", w);
    conf_substitute(b, "{w}", v, a, sizeof a);
    snprintf(v, sizeof v, "%d", h);
    conf_substitute(a, "{h}", v, out, len);
}

bool capture_per_window(const struct capture *c)
{
    return strstr(c->command, "{window}") != NULL;
}

int64_t image_pixel(const struct image *im, int x, int y)
{
    if (!im->rgb || x < 0 || y < 0 || x >= im->w || y >= im->h)
        return -1;
    const uint8_t *p = im->rgb + 3 * ((size_t)y * (size_t)im->w + (size_t)x);
    return (int64_t)((uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2]);
}

void image_free(struct image *im)
{
    free(im->rgb);
    memset(im, 0, sizeof *im);
}

/* ---- running it ---- */

int capture_begin(const struct capture *c, uint32_t window, int x, int y, int w, int h, struct capture_job *job,
                  char *err, size_t errlen)
{
    memset(job, 0, sizeof *job);
    job->fd = -1;
    int x1 = x + w, y1 = y + h;
    if (x < 0)
        x = 0;
    if (y < 0)
        y = 0;
    if (x1 > c->width)
        x1 = c->width;
    if (y1 > c->height)
        y1 = c->height;
    if (x1 <= x || y1 <= y) {
        snprintf(err, errlen, "the region is off the screen");
        return -1;
    }
    job->x = x, job->y = y, job->w = x1 - x, job->h = y1 - y;
    if (c->stream)
        return 0; /* only the clipping: capture_region reads the stream */
    char command[4096];
    capture_command_for(c->command, window, job->x, job->y, job->w, job->h, command, sizeof command);
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    const char *argv[] = {"/bin/sh", "-c", command, NULL};
    struct spawn_opts o = {.argv = argv, .env = (const char *const *)c->env, .stdin_fd = -1, .stdout_fd = p[1],
                           .stderr_fd = c->log_fd, .keep_fd = -1};
    job->t_begin = clock_now_us();
    job->proc = proc_spawn("screen capture", &o);
    close(p[1]);
    if (!job->proc) {
        close(p[0]);
        snprintf(err, errlen, "cannot run /bin/sh for the screen capture: %s", strerror(errno));
        return -1;
    }
    job->fd = p[0];
    fcntl(job->fd, F_SETFL, O_NONBLOCK);
    return 0;
}

int capture_read(struct capture_job *job)
{
    if (job->fd < 0)
        return 1;
    for (;;) {
        if (job->cap - job->len < 65536) {
            job->cap = job->cap ? job->cap * 2 : 262144;
            job->buf = realloc(job->buf, job->cap);
        }
        ssize_t n = read(job->fd, job->buf + job->len, job->cap - job->len);
        if (n > 0) {
            job->len += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return 0;
        close(job->fd);
        job->fd = -1;
        job->t_end = clock_now_us();
        return n == 0 ? 1 : -1;
    }
}

/* Waits for the capture process to exit, at most ms; false when it did not. */
static bool await_exit(struct proc *p, int ms)
{
    int64_t deadline = clock_now_us() + (int64_t)ms * 1000;
    proc_handle_signals();
    while (!p->exited) {
        int64_t left = (deadline - clock_now_us()) / 1000;
        if (left <= 0 || proc_interrupted())
            return false;
        struct pollfd pfd = {.fd = proc_signal_fd(), .events = POLLIN};
        poll(&pfd, 1, (int)left + 1);
        proc_handle_signals();
    }
    return true;
}

int capture_end(struct capture_job *job, struct image *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    int rc = -1;
    if (job->fd >= 0) {
        snprintf(err, errlen, "the capture's output had not ended");
    } else if (!await_exit(job->proc, 1000)) {
        snprintf(err, errlen, "the capture command did not exit after its output ended");
    } else if (!WIFEXITED(job->proc->status) || WEXITSTATUS(job->proc->status) != 0) {
        char how[128];
        snprintf(err, errlen, "the capture command %s (its messages are in the compositor's log)",
                 proc_describe_exit(job->proc, how, sizeof how));
    } else if (ppm_decode(job->buf, job->len, out, err, errlen) == 0) {
        if (out->w != job->w || out->h != job->h) {
            snprintf(err, errlen, "the capture of a %dx%d region is %dx%d", job->w, job->h, out->w, out->h);
            image_free(out);
        } else {
            rc = 0;
        }
    }
    if (job->proc) {
        if (job->proc->exited)
            proc_release(job->proc);
        else
            proc_stop(job->proc, 200);
    }
    job->proc = NULL;
    free(job->buf);
    job->buf = NULL;
    job->len = job->cap = 0;
    return rc;
}

void capture_cancel(struct capture_job *job)
{
    if (job->fd >= 0)
        close(job->fd);
    job->fd = -1;
    if (job->proc)
        proc_stop(job->proc, 200);
    job->proc = NULL;
    free(job->buf);
    job->buf = NULL;
    job->len = job->cap = 0;
}

int capture_region(const struct capture *c, uint32_t window, int x, int y, int w, int h, struct image *out,
                   char *err, size_t errlen)
{
    struct capture_job job;
    memset(out, 0, sizeof *out);
    if (c->stream) /* the latest frame of the stream: clipped as capture_begin clips */
        return capture_begin(c, window, x, y, w, h, &job, err, errlen) < 0
                   ? -1
                   : stream_region(c->stream, job.x, job.y, job.w, job.h, c->timeout_ms, out, err, errlen);
    if (capture_begin(c, window, x, y, w, h, &job, err, errlen) < 0)
        return -1;
    int64_t deadline = job.t_begin + (int64_t)c->timeout_ms * 1000;
    int r;
    while ((r = capture_read(&job)) == 0) {
        int64_t left = (deadline - clock_now_us()) / 1000;
        if (left <= 0 || proc_interrupted()) {
            capture_cancel(&job);
            snprintf(err, errlen, "the capture took more than %d ms", c->timeout_ms);
            return -1;
        }
        struct pollfd pfd[2] = {{.fd = job.fd, .events = POLLIN}, {.fd = proc_signal_fd(), .events = POLLIN}};
        poll(pfd, 2, (int)left + 1);
        if (pfd[1].revents)
            proc_handle_signals();
    }
    if (r < 0) {
        capture_cancel(&job);
        snprintf(err, errlen, "cannot read the capture's output");
        return -1;
    }
    return capture_end(&job, out, err, errlen);
}
