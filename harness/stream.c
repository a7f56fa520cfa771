/* The compositor's every frame, through a stream helper: see stream.h. */
#include "stream.h"
#include "clock.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* ---- pure parts ---- */

static int64_t field_i64(const char *line, const char *key, bool *ok)
{
    const char *p = strstr(line, key);
    if (!p) {
        *ok = false;
        return 0;
    }
    return strtoll(p + strlen(key), NULL, 10);
}

/* The px=X,Y:RRGGBB fields of a line. */
static int parse_points(const char *line, struct stream_frame *f)
{
    f->npx = 0;
    for (const char *p = strstr(line, " px="); p; p = strstr(p + 1, " px=")) {
        int x, y;
        unsigned rgb;
        if (f->npx == STREAM_MAX_POINTS || sscanf(p, " px=%d,%d:%x", &x, &y, &rgb) != 3)
            return -1;
        f->px_x[f->npx] = x, f->px_y[f->npx] = y, f->px_rgb[f->npx] = rgb & 0xFFFFFFu;
        f->npx++;
    }
    return 0;
}

int stream_parse_frame(const char *line, struct stream_frame *f)
{
    memset(f, 0, sizeof *f);
    if (strncmp(line, "frame ", 6) && strncmp(line, "still ", 6))
        return 0;
    f->still = line[0] == 's';
    bool ok = true;
    f->seq = (uint64_t)field_i64(line, " seq=", &ok);
    f->t_us = field_i64(line, " t_us=", &ok);
    if (!f->still)
        f->gap_us = field_i64(line, " gap_us=", &ok);
    return ok && f->t_us > 0 && parse_points(line, f) == 0 ? 1 : -1;
}

int stream_parse_stats(const char *line, struct stream_stats *st)
{
    memset(st, 0, sizeof *st);
    bool ok = !strncmp(line, "stats ", 6);
    st->frames = (uint64_t)field_i64(line, " frames=", &ok);
    st->span_us = field_i64(line, " span_us=", &ok);
    st->gaps = (uint64_t)field_i64(line, " gaps=", &ok);
    st->gap_us = field_i64(line, " gap_us=", &ok);
    st->failed = (uint64_t)field_i64(line, " failed=", &ok);
    st->refresh_mhz = (int)field_i64(line, " refresh_mhz=", &ok);
    return ok ? 0 : -1;
}

static void drop_front(struct stream *s, size_t n)
{
    memmove(s->buf, s->buf + n, s->len - n);
    s->len -= n;
}

bool stream_take_line(struct stream *s, char *line, size_t len)
{
    char *nl = s->len ? memchr(s->buf, '\n', s->len) : NULL;
    if (!nl || !strncmp(s->buf, "ppm len=", 8))
        return false;
    size_t n = (size_t)(nl - s->buf);
    snprintf(line, len, "%.*s", (int)n, s->buf);
    drop_front(s, n + 1);
    return true;
}

/* ---- running it ---- */

int stream_fill(struct stream *s)
{
    for (;;) {
        if (s->cap - s->len < 65536) {
            s->cap = s->cap ? s->cap * 2 : 1 << 20;
            s->buf = realloc(s->buf, s->cap);
        }
        ssize_t n = read(s->fd, s->buf + s->len, s->cap - s->len);
        if (n > 0) {
            s->len += (size_t)n;
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            return 0;
        return -1;
    }
}

/* Waits until fd is readable or the deadline passed; false at the deadline or an interrupt. */
static bool wait_readable(int fd, int64_t deadline)
{
    int64_t left = (deadline - clock_now_us()) / 1000;
    if (left <= 0 || proc_interrupted())
        return false;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    poll(&p, 1, (int)left + 1);
    return true;
}

static int send_line(struct stream *s, const char *text)
{
    size_t n = strlen(text), o = 0;
    while (o < n) {
        ssize_t w = send(s->fd, text + o, n - o, MSG_NOSIGNAL);
        if (w < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (w <= 0)
            return -1;
        o += (size_t)w;
    }
    return 0;
}

/* The first complete line in the buffer starting with prefix, taken out of it (other lines stay);
 * returns where it was (what followed it is there now), or -1 when there is none yet. */
static long take_prefixed(struct stream *s, const char *prefix, char *line, size_t len)
{
    size_t plen = strlen(prefix);
    for (size_t o = 0; o < s->len;) {
        char *nl = memchr(s->buf + o, '\n', s->len - o);
        if (!nl)
            break;
        size_t n = (size_t)(nl - (s->buf + o));
        if (n >= plen && !strncmp(s->buf + o, prefix, plen)) {
            snprintf(line, len, "%.*s", (int)n, s->buf + o);
            memmove(s->buf + o, nl + 1, s->len - (size_t)(nl + 1 - s->buf));
            s->len -= n + 1;
            return (long)o;
        }
        o += n + 1;
    }
    return -1;
}

/* Reads what the helper wrote, waiting (until the deadline) only when it wrote nothing new: what
 * one read brought is looked at before the next wait, or an answer already read would wait for
 * the helper's next line (on an idle screen, the next frame: seconds).  False when the helper
 * ended its output or the deadline passed with nothing new. */
static bool read_more(struct stream *s, int64_t deadline)
{
    size_t had = s->len;
    int rc = stream_fill(s);
    if (s->len > had)
        return true;
    return rc == 0 && wait_readable(s->fd, deadline);
}

/* Waits for a line starting with prefix (take_prefixed), up to timeout_ms. */
static long await_line(struct stream *s, const char *prefix, int timeout_ms, char *line, size_t len)
{
    int64_t deadline = clock_now_us() + (int64_t)timeout_ms * 1000;
    for (;;) {
        long at = take_prefixed(s, prefix, line, len);
        if (at >= 0)
            return at;
        if (!read_more(s, deadline))
            return -1;
    }
}

int stream_start(struct stream *s, const char *command, char *const *env, int log_fd, int timeout_ms, char *err,
                 size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->fd = -1;
    if (proc_check_program(command, err, errlen) < 0)
        return -1;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
        snprintf(err, errlen, "socketpair: %s", strerror(errno));
        return -1;
    }
    const char *argv[] = {"/bin/sh", "-c", command, NULL};
    struct spawn_opts o = {.argv = argv, .env = (const char *const *)env, .stdin_fd = sv[1], .stdout_fd = sv[1],
                           .stderr_fd = log_fd, .keep_fd = -1};
    s->proc = proc_spawn("screen stream", &o);
    close(sv[1]);
    if (!s->proc) {
        close(sv[0]);
        snprintf(err, errlen, "cannot run /bin/sh for it: %s", strerror(errno));
        return -1;
    }
    s->fd = sv[0];
    fcntl(s->fd, F_SETFL, fcntl(s->fd, F_GETFL) | O_NONBLOCK);
    char line[1024];
    if (await_line(s, "ready ", timeout_ms, line, sizeof line) < 0 ||
        sscanf(line, "ready width=%d height=%d refresh_mhz=%d", &s->width, &s->height, &s->refresh_mhz) != 3) {
        char said[1024] = "";
        if (await_line(s, "error ", 0, said, sizeof said) < 0)
            snprintf(said, sizeof said, "no `ready` line within %d ms", timeout_ms);
        snprintf(err, errlen, "`%s`: %s", command, said);
        stream_stop(s);
        return -1;
    }
    s->recorded_times = strstr(line, " timing=recorded") != NULL;
    return 0;
}

int stream_watch(struct stream *s, const int *xs, const int *ys, int n)
{
    char line[STREAM_MAX_POINTS * 24 + 16] = "watch";
    size_t o = strlen(line);
    for (int i = 0; i < n && i < STREAM_MAX_POINTS; i++)
        o += (size_t)snprintf(line + o, sizeof line - o, " %d,%d", xs[i], ys[i]);
    snprintf(line + o, sizeof line - o, "\n");
    return s->fd < 0 ? -1 : send_line(s, line);
}

int stream_watch_lines(struct stream *s, int rx, int ry, int rlen, int cx, int cy, int clen)
{
    char line[128];
    snprintf(line, sizeof line, "watch row=%d,%d,%d col=%d,%d,%d\n", rx, ry, rlen, cx, cy, clen);
    return s->fd < 0 ? -1 : send_line(s, line);
}

int stream_parse_runs(const char *line, const char *key, uint32_t *px, int n)
{
    char want[16];
    snprintf(want, sizeof want, " %s=", key);
    const char *p = strstr(line, want);
    if (!p)
        return -1;
    p += strlen(want);
    int got = 0;
    while (*p && *p != ' ') {
        uint32_t colour = STREAM_OUTSIDE;
        char *end = (char *)p;
        if (*p == '-')
            end++;
        else
            colour = (uint32_t)strtoul(p, &end, 16);
        if (end == p || (end - p != 6 && *p != '-'))
            return -1;
        long count = 1;
        if (*end == 'x') {
            p = end + 1;
            count = strtol(p, &end, 10);
            if (end == p || count < 2)
                return -1;
        }
        for (long i = 0; i < count; i++) {
            if (got == n)
                return -1;
            px[got++] = colour;
        }
        if (*end == ',')
            end++;
        else if (*end && *end != ' ')
            return -1;
        p = end;
    }
    return got == n ? 0 : -1;
}

int stream_region(struct stream *s, int x, int y, int w, int h, int timeout_ms, struct image *out, char *err,
                  size_t errlen)
{
    char cmd[96], head[64];
    snprintf(cmd, sizeof cmd, "ppm %d %d %d %d\n", x, y, w, h);
    long at = s->fd < 0 || send_line(s, cmd) < 0 ? -1 : await_line(s, "ppm len=", timeout_ms, head, sizeof head);
    if (at < 0) {
        snprintf(err, errlen, "the screen stream gave no picture of %dx%d at %d,%d within %d ms", w, h, x, y,
                 timeout_ms);
        return -1;
    }
    size_t want = strtoull(head + 8, NULL, 10);
    int64_t deadline = clock_now_us() + (int64_t)timeout_ms * 1000;
    /* the helper writes the picture's bytes right after the header, where await_line took it out */
    size_t o = (size_t)at;
    while (s->len < o + want)
        if (!read_more(s, deadline)) {
            snprintf(err, errlen, "the screen stream's picture was cut short");
            return -1;
        }
    int rc = ppm_decode((const uint8_t *)s->buf + o, want, out, err, errlen);
    memmove(s->buf + o, s->buf + o + want, s->len - o - want);
    s->len -= want;
    return rc;
}

int stream_stats(struct stream *s, int timeout_ms, struct stream_stats *out)
{
    char line[512];
    if (s->fd < 0 || send_line(s, "stats\n") < 0 || await_line(s, "stats ", timeout_ms, line, sizeof line) < 0)
        return -1;
    return stream_parse_stats(line, out);
}

void stream_describe(const struct stream_stats *st, char *out, size_t len)
{
    double secs = (double)st->span_us / 1e6;
    snprintf(out, len, "%" PRIu64 " frames in %.1f s (%.1f frames/s; the output refreshes at %.3f Hz), %" PRIu64
             " gaps (%.1f ms in all) in which frames may be missing, %" PRIu64 " failed copies", st->frames, secs,
             secs > 0 ? (double)st->frames / secs : 0.0, st->refresh_mhz / 1000.0, st->gaps,
             (double)st->gap_us / 1000.0, st->failed);
}

void stream_stop(struct stream *s)
{
    if (s->fd >= 0)
        close(s->fd); /* the end of its input: it exits */
    s->fd = -1;
    if (s->proc) {
        proc_await_exit(s->proc, 500);
        proc_stop(s->proc, 500);
    }
    s->proc = NULL;
    free(s->buf);
    s->buf = NULL;
    s->len = s->cap = 0;
}
