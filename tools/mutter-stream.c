/* mutter-stream: every frame mutter paints, through its ScreenCast API and PipeWire: the screen
 * stream of compositors/mutter-wayland.conf (`screen-stream:`, harness/stream.h; the protocol's
 * shared half is tools/stream-proto.h).
 *
 * A stream of the primary monitor (RecordMonitor "", tools/mutter-dbus.h) is read with libpipewire.
 * mutter 43 records a frame of it after each paint of the stage (stage_painted schedules
 * maybe_record_frame_on_idle, meta-screen-cast-monitor-stream-src.c) and stamps the buffer with the
 * time it recorded it (header->pts = g_get_monotonic_time, meta_screen_cast_stream_src_
 * maybe_record_frame, meta-screen-cast-stream-src.c: CLOCK_MONOTONIC, the suite's clock).  That
 * time is after the paint, not the paint's own: the frame was painted after the previous frame was
 * recorded and no later than its own time, which the `ready` line says with `timing=recorded` (the
 * harness then knows a change only within that span: oracle-stream.c).
 *
 * What it cannot miss and what it can: mutter records at most once per refresh (a paint sooner than
 * 1/refresh after the last recorded frame is recorded later, by a repaint it asks for:
 * maybe_schedule_follow_up_frame), so two paints within one refresh show as one frame, and a paint
 * whose buffer PipeWire has no free buffer for is not recorded at all ("Couldn't dequeue a buffer").
 * Neither can be seen from here; both are rare while a case paints a few frames a second, and the
 * `stats` line gives frames per second against the refresh so a run can tell.  A frame mutter
 * failed to record (its chunk CORRUPTED) is counted as failed and its interval reported as a gap.
 *
 *   start-up            ready width=W height=H refresh_mhz=R timing=recorded   or  error msg=..., exit 1
 *   every frame         frame seq=N t_us=T gap_us=G px=X,Y:RRGGBB...
 *   watch X,Y ... [row=X,Y,LEN] [col=X,Y,LEN]   the points (and a row and a column of pixels,
 *                       run-length coded: tools/stream-proto.h) each frame line reports, answered
 *                       by `still seq=N t_us=NOW px=...`
 *                       (the latest frame; a frame painted but not yet recorded comes after it)
 *   ppm X Y W H         `ppm len=L` and L bytes: a binary PPM of that region of the latest frame
 *   stats               stats frames=N span_us=S gaps=G gap_us=U failed=F refresh_mhz=R
 *   end of input        the stats line, stops the session, exit 0 */
#include <errno.h>
#include <pipewire/pipewire.h>
#include <spa/param/video/format-utils.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mutter-dbus.h"
#include "stream-proto.h"

/* each of the two waits of the start (the stream's node, its first frame): the harness waits 5 s
 * for `ready` in all, and an `error` line before that says why */
#define START_TIMEOUT_MS 2400

struct ms {
    struct md_cast cast;
    struct pw_main_loop *loop;
    struct pw_context *context;
    struct pw_core *core;
    struct pw_stream *stream;
    struct spa_hook listener;
    struct spa_source *input;
    uint32_t format;              /* SPA_VIDEO_FORMAT_BGRx or BGRA */
    int width, height, refresh_mhz;
    uint8_t *latest;              /* the latest frame, width x height x 4, its format's byte order */
    uint64_t seq, failed, gaps;
    int64_t first_us, latest_us, gap_us_total, failed_since_us;
    struct sp_points points;
    char inbuf[4096];
    size_t inlen;
    bool started;
};

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void die(struct ms *m, const char *msg)
{
    printf("error msg=%s\n", msg);
    fflush(stdout);
    md_cast_stop(&m->cast);
    exit(1);
}

static int64_t latest_pixel(void *ctx, int x, int y)
{
    const struct ms *m = ctx;
    if (x < 0 || y < 0 || x >= m->width || y >= m->height)
        return -1;
    const uint8_t *p = m->latest + ((size_t)y * (size_t)m->width + (size_t)x) * 4;
    return (int64_t)((uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0]); /* B, G, R, x in memory */
}

static sp_pixel_fn have_latest(const struct ms *m)
{
    return m->seq ? latest_pixel : NULL;
}

static void print_stats(const struct ms *m)
{
    printf("stats frames=%llu span_us=%lld gaps=%llu gap_us=%lld failed=%llu refresh_mhz=%d\n",
           (unsigned long long)m->seq, (long long)(m->seq ? m->latest_us - m->first_us : 0),
           (unsigned long long)m->gaps, (long long)m->gap_us_total, (unsigned long long)m->failed, m->refresh_mhz);
    fflush(stdout);
}

/* ---- PipeWire ---- */

static void on_param_changed(void *data, uint32_t id, const struct spa_pod *param)
{
    struct ms *m = data;
    if (!param || id != SPA_PARAM_Format)
        return;
    struct spa_video_info_raw info;
    if (spa_format_video_raw_parse(param, &info) < 0)
        die(m, "mutter's stream has a format that is not raw video");
    m->format = info.format;
    m->width = (int)info.size.width;
    m->height = (int)info.size.height;
    m->refresh_mhz = info.max_framerate.denom ? (int)(1000LL * info.max_framerate.num / info.max_framerate.denom) : 0;
    free(m->latest);
    m->latest = calloc((size_t)m->width * (size_t)m->height, 4);
    uint8_t buf[1024];
    struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof buf);
    const struct spa_pod *params[2];
    params[0] = spa_pod_builder_add_object(
        &b, SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers, SPA_PARAM_BUFFERS_dataType,
        SPA_POD_CHOICE_FLAGS_Int((1 << SPA_DATA_MemPtr) | (1 << SPA_DATA_MemFd)));
    params[1] = spa_pod_builder_add_object(&b, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta, SPA_PARAM_META_type,
                                           SPA_POD_Id(SPA_META_Header), SPA_PARAM_META_size,
                                           SPA_POD_Int(sizeof(struct spa_meta_header)));
    pw_stream_update_params(m->stream, params, 2);
}

/* One buffer: a frame line, or a failed recording (counted, and the next frame says the gap). */
static void take_frame(struct ms *m, struct spa_buffer *sb)
{
    struct spa_data *d = &sb->datas[0];
    struct spa_meta_header *h = spa_buffer_find_meta_data(sb, SPA_META_Header, sizeof *h);
    int64_t t = h && h->pts > 0 ? (int64_t)(h->pts / 1000) : now_us();
    bool corrupted = (h && (h->flags & SPA_META_HEADER_FLAG_CORRUPTED)) || !d->chunk ||
                     (d->chunk->flags & SPA_CHUNK_FLAG_CORRUPTED);
    if (!d->data || corrupted || d->chunk->size == 0 || !m->latest) {
        m->failed++;
        if (!m->failed_since_us)
            m->failed_since_us = m->seq ? m->latest_us : t;
        return;
    }
    size_t stride = d->chunk->stride > 0 ? (size_t)d->chunk->stride : (size_t)m->width * 4;
    const uint8_t *src = (const uint8_t *)d->data + d->chunk->offset;
    for (int y = 0; y < m->height && (size_t)(y + 1) * stride <= d->chunk->size; y++)
        memcpy(m->latest + (size_t)y * (size_t)m->width * 4, src + (size_t)y * stride, (size_t)m->width * 4);
    int64_t gap = m->failed_since_us ? t - m->failed_since_us : 0;
    if (gap > 0) {
        m->gaps++;
        m->gap_us_total += gap;
    }
    m->failed_since_us = 0;
    if (!m->seq)
        m->first_us = t;
    m->seq++;
    m->latest_us = t;
    if (!m->started)
        return;
    printf("frame seq=%llu t_us=%lld gap_us=%lld", (unsigned long long)m->seq, (long long)t, (long long)gap);
    sp_print_points(&m->points, have_latest(m), m);
    putchar('\n');
    fflush(stdout);
}

static void on_process(void *data)
{
    struct ms *m = data;
    struct pw_buffer *b;
    while ((b = pw_stream_dequeue_buffer(m->stream))) { /* in order: each one is a frame */
        take_frame(m, b->buffer);
        pw_stream_queue_buffer(m->stream, b);
    }
}

static void on_state_changed(void *data, enum pw_stream_state old, enum pw_stream_state state, const char *error)
{
    (void)old;
    struct ms *m = data;
    if (state == PW_STREAM_STATE_ERROR || (state == PW_STREAM_STATE_UNCONNECTED && m->started)) {
        char msg[300];
        snprintf(msg, sizeof msg, "mutter's stream ended: %s", error ? error : "unconnected");
        die(m, msg);
    }
}

static const struct pw_stream_events stream_events = {
    PW_VERSION_STREAM_EVENTS,
    .state_changed = on_state_changed,
    .param_changed = on_param_changed,
    .process = on_process,
};

/* ---- the commands ---- */

static bool command(void *ctx, char *line)
{
    struct ms *m = ctx;
    if (!strncmp(line, "watch", 5)) {
        sp_parse_watch(&m->points, line + 5);
        printf("still seq=%llu t_us=%lld", (unsigned long long)m->seq, (long long)now_us());
        sp_print_points(&m->points, have_latest(m), m);
        putchar('\n');
        fflush(stdout);
    } else if (!strncmp(line, "ppm ", 4)) {
        sp_answer_ppm(line + 4, m->width, m->height, have_latest(m), m);
    } else if (!strcmp(line, "stats")) {
        print_stats(m);
    } else if (!strcmp(line, "quit")) {
        return false;
    } else if (line[0]) {
        printf("error msg=unknown command: %s\n", line);
        fflush(stdout);
    }
    return true;
}

static void on_input(void *data, int fd, uint32_t mask)
{
    struct ms *m = data;
    if (!(mask & (SPA_IO_IN | SPA_IO_HUP)) ||
        !sp_read_commands(fd, m->inbuf, &m->inlen, sizeof m->inbuf, command, m))
        pw_main_loop_quit(m->loop);
}

/* ---- start-up ---- */

static void connect_stream(struct ms *m)
{
    m->loop = pw_main_loop_new(NULL);
    m->context = pw_context_new(pw_main_loop_get_loop(m->loop), NULL, 0);
    if (!m->context || !(m->core = pw_context_connect(m->context, NULL, 0)))
        die(m, "cannot connect to the PipeWire daemon of mutter's session");
    m->stream = pw_stream_new(m->core, "framesync mutter-stream",
                              pw_properties_new(PW_KEY_MEDIA_TYPE, "Video", PW_KEY_MEDIA_CATEGORY, "Capture",
                                                PW_KEY_MEDIA_ROLE, "Screen", NULL));
    pw_stream_add_listener(m->stream, &m->listener, &stream_events, m);
    uint8_t buf[1024];
    struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof buf);
    const struct spa_pod *params[1];
    params[0] = spa_pod_builder_add_object(
        &b, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat, SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
        SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw), SPA_FORMAT_VIDEO_format,
        SPA_POD_CHOICE_ENUM_Id(3, SPA_VIDEO_FORMAT_BGRx, SPA_VIDEO_FORMAT_BGRx, SPA_VIDEO_FORMAT_BGRA),
        SPA_FORMAT_VIDEO_size,
        SPA_POD_CHOICE_RANGE_Rectangle(&SPA_RECTANGLE(1024, 768), &SPA_RECTANGLE(1, 1), &SPA_RECTANGLE(16384, 16384)),
        SPA_FORMAT_VIDEO_framerate, SPA_POD_Fraction(&SPA_FRACTION(0, 1)), SPA_FORMAT_VIDEO_maxFramerate,
        /* the most mutter offers (its monitor's refresh): every refresh it paints can be recorded */
        SPA_POD_CHOICE_RANGE_Fraction(&SPA_FRACTION(1000, 1), &SPA_FRACTION(1, 1), &SPA_FRACTION(1000, 1)));
    if (pw_stream_connect(m->stream, PW_DIRECTION_INPUT, (uint32_t)m->cast.node,
                          PW_STREAM_FLAG_AUTOCONNECT | PW_STREAM_FLAG_MAP_BUFFERS, params, 1) < 0)
        die(m, "cannot connect to mutter's PipeWire stream");
}

/* Iterates the loop until the first frame came (the stage is painted at least once when the stream
 * starts: mutter records its current picture). */
static void await_first_frame(struct ms *m)
{
    int64_t deadline = now_us() + (int64_t)START_TIMEOUT_MS * 1000;
    struct pw_loop *l = pw_main_loop_get_loop(m->loop);
    pw_loop_enter(l);
    while (!m->seq && now_us() < deadline)
        pw_loop_iterate(l, 100);
    pw_loop_leave(l);
    if (!m->seq)
        die(m, "mutter's stream brought no frame within 2.4 s");
}

int main(void)
{
    static struct ms m;
    char err[512];
    pw_init(NULL, NULL);
    if (md_cast_start(&m.cast, 0, 0, 0, 0, START_TIMEOUT_MS, err, sizeof err) < 0) {
        printf("error msg=%s\n", err);
        return 1;
    }
    connect_stream(&m);
    await_first_frame(&m);
    printf("ready width=%d height=%d refresh_mhz=%d timing=recorded\n", m.width, m.height, m.refresh_mhz);
    fflush(stdout);
    m.started = true;
    m.input = pw_loop_add_io(pw_main_loop_get_loop(m.loop), 0, SPA_IO_IN | SPA_IO_HUP, false, on_input, &m);
    pw_main_loop_run(m.loop);
    print_stats(&m);
    md_cast_stop(&m.cast);
    pw_stream_destroy(m.stream);
    pw_core_disconnect(m.core);
    pw_context_destroy(m.context);
    pw_main_loop_destroy(m.loop);
    pw_deinit();
    return 0;
}
