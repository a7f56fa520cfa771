/* mutter-screencast X Y W H: the region of mutter's screen as a binary PPM on standard output.
 *
 * The screen-capture command of compositors/mutter-wayland.conf (harness/capture.h): under mutter
 * --wayland the X server is a rootless Xwayland whose root shows nothing, and mutter 43 offers its
 * picture only as a PipeWire stream, through org.gnome.Mutter.ScreenCast on the session bus
 * (src/backends/meta-screen-cast*.c): CreateSession, Session.RecordArea(x, y, w, h), Session.Start;
 * the stream object then says its PipeWire node (PipeWireStreamAdded), and one buffer of it is taken
 * with GStreamer's pipewiresrc (gst-launch-1.0, converted to packed RGB), then Session.Stop.  It
 * needs a PipeWire daemon and a session manager (wireplumber) in mutter's session, which the conf
 * starts before mutter.  One picture takes 0.15 to 0.4 s here (a session, a stream and a GStreamer
 * pipeline each time).
 *
 * Exit status 0 with the PPM, 1 with a message on stderr. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mutter-dbus.h"

#define TIMEOUT_MS 5000

static int fail(const char *what, const char *detail)
{
    fprintf(stderr, "mutter-screencast: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    return 1;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* One buffer of the node as packed RGB rows (GStreamer pads each row to 4 bytes): into buf. */
static int take_buffer(int64_t node, uint8_t *buf, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "path=%lld", (long long)node);
    int p[2];
    if (pipe(p) < 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(p[1], 1);
        close(p[0]);
        close(p[1]);
        execlp("gst-launch-1.0", "gst-launch-1.0", "-q", "pipewiresrc", path, "num-buffers=1", "always-copy=true", "!",
               "videoconvert", "!", "video/x-raw,format=RGB", "!", "fdsink", "fd=1", (char *)NULL);
        _exit(127);
    }
    close(p[1]);
    if (pid < 0) {
        close(p[0]);
        return -1;
    }
    size_t got = 0;
    int64_t deadline = now_ms() + TIMEOUT_MS;
    while (got < size && now_ms() < deadline) {
        struct pollfd pfd = {.fd = p[0], .events = POLLIN};
        if (poll(&pfd, 1, 100) <= 0)
            continue;
        ssize_t n = read(p[0], buf + got, size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(p[0]);
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    return got == size ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 5)
        return fail("usage: mutter-screencast X Y W H (writes a binary PPM of that region to stdout)", NULL);
    int32_t x = atoi(argv[1]), y = atoi(argv[2]), w = atoi(argv[3]), h = atoi(argv[4]);
    if (w <= 0 || h <= 0 || w > 16384 || h > 16384)
        return fail("an empty or too large region", argv[3]);
    struct md_cast cast;
    char err[512];
    if (md_cast_start(&cast, x, y, w, h, TIMEOUT_MS, err, sizeof err) < 0)
        return fail(err, NULL);
    size_t stride = ((size_t)w * 3 + 3) & ~(size_t)3, size = stride * (size_t)h;
    uint8_t *buf = malloc(size);
    int rc = take_buffer(cast.node, buf, size);
    md_cast_stop(&cast);
    if (rc < 0)
        return fail("no buffer of the expected size from gst-launch-1.0 pipewiresrc", NULL);
    printf("P6\n%d %d\n255\n", w, h);
    for (int32_t j = 0; j < h; j++)
        fwrite(buf + (size_t)j * stride, 3, (size_t)w, stdout);
    free(buf);
    return fflush(stdout) == 0 ? 0 : 1;
}
