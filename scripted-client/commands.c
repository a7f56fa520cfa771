/* The commands of PROTOCOL.md.  Each handler validates its arguments before making any request
 * (a bad argument is an `error` record, never a crash), makes its requests checked (so that the
 * command, not an x-error record, reports an X error on them), and leaves the round trip and the
 * `done`/`error` answer to command_run. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xcb/xcb_icccm.h>

#include "scripted-client.h"
#include "frame-colour.h"

#define MAX_WORDS 2048
#define MSG_LEN 512
#define EXTRA_LEN 4096

bool quit_requested;

typedef bool (*handler_fn)(struct client *cl, struct cmd *cmd, int argc, char **argv,
                           char *extra, char *msg);

/* ---- argument parsing ---- */

static bool parse_i64(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end)
        return false;
    *out = v;
    return true;
}

static bool parse_range(const char *s, int64_t min, int64_t max, int64_t *out)
{
    return parse_i64(s, out) && *out >= min && *out <= max;
}

static bool bad(char *msg, const char *fmt, const char *arg)
{
    snprintf(msg, MSG_LEN, fmt, arg ? arg : "");
    return false;
}

/* W H [X Y] of create and configure. */
static bool parse_geometry(int argc, char **argv, int64_t g[4], char *msg)
{
    g[2] = g[3] = 0;
    if (argc != 3 && argc != 5)
        return bad(msg, "usage: %s W H [X Y]", argv[0]);
    for (int i = 0; i < 2; i++)
        if (!parse_range(argv[1 + i], 1, 32767, &g[i]))
            return bad(msg, "bad size %s (1..32767)", argv[1 + i]);
    for (int i = 2; i < argc - 1; i++)
        if (!parse_range(argv[1 + i], -32768, 32767, &g[i]))
            return bad(msg, "bad position %s (-32768..32767)", argv[1 + i]);
    return true;
}

/* Counter index I (1 or 2) of a counter that `counters` created. */
static bool parse_counter_index(struct client *cl, const char *s, int *index, char *msg)
{
    int64_t i;
    if (!s || !parse_range(s, 1, 2, &i))
        return bad(msg, "bad counter index %s (1 or 2)", s);
    if (!cl->counters[i - 1].id)
        return bad(msg, "no counter %s (use counters N first)", s);
    *index = (int)i;
    return true;
}

static bool no_args(int argc, char **argv, char *msg)
{
    if (argc != 1)
        return bad(msg, "%s takes no arguments", argv[0]);
    return true;
}

/* ---- the window ---- */

static void set_string(struct client *cl, struct cmd *cmd, xcb_atom_t prop, xcb_atom_t type,
                       const char *s, size_t len)
{
    cmd_track(cmd, xcb_change_property_checked(cl->c, XCB_PROP_MODE_REPLACE, cl->win, prop, type,
                                               8, (uint32_t)len, s));
}

static bool cmd_create(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                       char *msg)
{
    int64_t g[4];
    if (!parse_geometry(argc, argv, g, msg))
        return false;
    if (cl->win)
        {
        snprintf(msg, MSG_LEN, "the window %u exists (destroy it first)", cl->win);
        return false;
    }
    cl->win = xcb_generate_id(cl->c);
    cl->win_w = (int)g[0];
    cl->win_h = (int)g[1];
    cl->painted = false;
    /* Background None: the server never paints the window itself, so every pixel the harness
     * sees in it was put there by a fill. */
    uint32_t values[] = {XCB_BACK_PIXMAP_NONE, XCB_EVENT_MASK_STRUCTURE_NOTIFY |
                                                   XCB_EVENT_MASK_PROPERTY_CHANGE |
                                                   XCB_EVENT_MASK_EXPOSURE};
    cmd_track(cmd, xcb_create_window_checked(cl->c, XCB_COPY_FROM_PARENT, cl->win, cl->screen->root,
                                             (int16_t)g[2], (int16_t)g[3], (uint16_t)g[0],
                                             (uint16_t)g[1], 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                                             cl->screen->root_visual,
                                             XCB_CW_BACK_PIXMAP | XCB_CW_EVENT_MASK, values));
    const struct atoms *a = &cl->atoms;
    set_string(cl, cmd, a->wm_name, XCB_ATOM_STRING, cl->name, strlen(cl->name));
    set_string(cl, cmd, a->net_wm_name, a->utf8_string, cl->name, strlen(cl->name));
    static const char wm_class[] = "scripted-client\0scripted-client"; /* instance\0class\0 */
    set_string(cl, cmd, a->wm_class, XCB_ATOM_STRING, wm_class, sizeof wm_class);
    uint32_t pid = (uint32_t)getpid();
    cmd_track(cmd, xcb_change_property_checked(cl->c, XCB_PROP_MODE_REPLACE, cl->win, a->net_wm_pid,
                                               XCB_ATOM_CARDINAL, 32, 1, &pid));
    if (argc == 5) {
        /* A given position is the user's: a placing WM (openbox) keeps it, so the harness knows
         * where to sample. */
        xcb_size_hints_t hints;
        memset(&hints, 0, sizeof hints);
        xcb_icccm_size_hints_set_position(&hints, 1, (int32_t)g[2], (int32_t)g[3]);
        xcb_icccm_size_hints_set_size(&hints, 1, (int32_t)g[0], (int32_t)g[1]);
        cmd_track(cmd, xcb_icccm_set_wm_normal_hints_checked(cl->c, cl->win, &hints));
    }
    snprintf(extra, EXTRA_LEN, "window=%u", cl->win);
    return true;
}

static bool cmd_map(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                    char *msg)
{
    (void)extra;
    if (!no_args(argc, argv, msg))
        return false;
    cmd_track(cmd, xcb_map_window_checked(cl->c, cl->win));
    return true;
}

static bool cmd_unmap(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                      char *msg)
{
    (void)extra;
    if (!no_args(argc, argv, msg))
        return false;
    cmd_track(cmd, xcb_unmap_window_checked(cl->c, cl->win));
    return true;
}

static bool cmd_destroy(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                        char *msg)
{
    (void)extra;
    if (!no_args(argc, argv, msg))
        return false;
    cmd_track(cmd, xcb_destroy_window_checked(cl->c, cl->win));
    cl->win = 0; /* a later `create` makes a new one */
    cl->painted = false;
    return true;
}

static bool cmd_configure(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                          char *msg)
{
    (void)extra;
    int64_t g[4];
    if (!parse_geometry(argc, argv, g, msg))
        return false;
    uint16_t mask = XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT;
    uint32_t values[4];
    int n = 0;
    if (argc == 5) {
        mask |= XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y;
        values[n++] = (uint32_t)(int32_t)g[2]; /* value order follows the mask bits: x y w h */
        values[n++] = (uint32_t)(int32_t)g[3];
    }
    values[n++] = (uint32_t)g[0];
    values[n++] = (uint32_t)g[1];
    cmd_track(cmd, xcb_configure_window_checked(cl->c, cl->win, mask, values));
    return true;
}

/* resize W H TRIGGER [hold] [request] [within MS] (resize.c) */
static bool cmd_resize(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra, char *msg)
{
    (void)extra;
    int64_t g[2], within = 1000;
    enum resize_trigger trigger;
    bool hold = false, want_request = false;
    if (argc < 4)
        return bad(msg, "usage: resize W H configure|keyboard|pointer|map [hold] [request] [within MS]", NULL);
    for (int i = 0; i < 2; i++)
        if (!parse_range(argv[1 + i], 1, 32767, &g[i]))
            return bad(msg, "bad size %s (1..32767)", argv[1 + i]);
    if (!resize_parse_trigger(argv[3], &trigger))
        return bad(msg, "unknown trigger %s (configure, keyboard, pointer, map)", argv[3]);
    for (int i = 4; i < argc; i++) {
        if (!strcmp(argv[i], "hold"))
            hold = true;
        else if (!strcmp(argv[i], "request"))
            want_request = true;
        else if (!strcmp(argv[i], "within") && i + 1 < argc && parse_range(argv[i + 1], 1, 600000, &within))
            i++;
        else
            return bad(msg, "unexpected `%s` (hold, request, within MS)", argv[i]);
    }
    if (!resize_begin(cl, argv[0], (int)g[0], (int)g[1], trigger, hold, want_request, (int)within, msg))
        return false;
    cmd->deferred = true;
    return true;
}

static bool cmd_resize_end(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra, char *msg)
{
    (void)cl;
    (void)extra;
    if (!no_args(argc, argv, msg))
        return false;
    cmd->deferred = true; /* done once the WM lets its grab go (resize.c) */
    return true;
}

static bool cmd_protocols(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                          char *msg)
{
    (void)extra;
    (void)msg;
    static const struct {
        const char *word, *atom;
    } shorts[] = {{"delete", "WM_DELETE_WINDOW"},
                  {"sync", "_NET_WM_SYNC_REQUEST"},
                  {"take-focus", "WM_TAKE_FOCUS"},
                  {"ping", "_NET_WM_PING"}};
    xcb_atom_t atoms[MAX_WORDS];
    int n = 0;
    for (int i = 1; i < argc; i++) {
        const char *name = argv[i];
        for (size_t s = 0; s < sizeof shorts / sizeof shorts[0]; s++)
            if (strcmp(name, shorts[s].word) == 0)
                name = shorts[s].atom;
        atoms[n++] = intern(cl, name, false);
    }
    cmd_track(cmd, xcb_change_property_checked(cl->c, XCB_PROP_MODE_REPLACE, cl->win,
                                               cl->atoms.wm_protocols, XCB_ATOM_ATOM, 32,
                                               (uint32_t)n, atoms));
    return true;
}

/* ---- painting ---- */

static bool cmd_fill_frame(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                           char *msg)
{
    int64_t k;
    if (argc != 2 || !parse_range(argv[1], 0, UINT32_MAX, &k))
        return bad(msg, "usage: fill-frame K (K a frame number >= 0), got %s",
                   argc > 1 ? argv[1] : "nothing");
    cmd_track(cmd, paint(cl, frame_colour((uint32_t)k), true));
    snprintf(extra, EXTRA_LEN, "frame=%lld", (long long)k);
    return true;
}

static bool cmd_fill(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                     char *msg)
{
    (void)extra;
    char *end;
    if (argc != 2)
        return bad(msg, "usage: fill RRGGBB%s", "");
    errno = 0;
    unsigned long rgb = strtoul(argv[1], &end, 16);
    if (errno || end == argv[1] || *end || argv[1][0] == '-' || argv[1][0] == '+' ||
        strlen(argv[1]) > 6 || rgb > 0xFFFFFF)
        return bad(msg, "bad colour %s (RRGGBB, hex, no prefix)", argv[1]);
    cmd_track(cmd, paint(cl, (uint32_t)rgb, true));
    return true;
}

/* ---- counters ---- */

static void set_counter_property(struct client *cl, struct cmd *cmd)
{
    uint32_t ids[FC_MAX_COUNTERS];
    for (int i = 0; i < cl->ncounters; i++)
        ids[i] = cl->counters[i].id;
    cmd_track(cmd, xcb_change_property_checked(cl->c, XCB_PROP_MODE_REPLACE, cl->win,
                                               cl->atoms.net_wm_sync_request_counter,
                                               XCB_ATOM_CARDINAL, 32, (uint32_t)cl->ncounters, ids));
}

static bool cmd_counters(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                         char *msg)
{
    int64_t n, init[2] = {0, 0};
    if (argc < 2 || !parse_range(argv[1], 1, 2, &n))
        return bad(msg, "usage: counters N [INIT1 [INIT2]] (N 1 or 2)%s", "");
    if (argc > 2 + n)
        return bad(msg, "too many initial values for %s counter(s)", argv[1]);
    for (int i = 2; i < argc; i++)
        if (!parse_i64(argv[i], &init[i - 2]))
            return bad(msg, "bad initial value %s (signed 64-bit)", argv[i]);
    counters_destroy_all(cl, cmd); /* a second `counters` replaces the first set */
    for (int i = 1; i <= n; i++)
        counter_create(cl, cmd, i, init[i - 1]);
    cl->ncounters = (int)n;
    set_counter_property(cl, cmd);
    if (n == 1)
        snprintf(extra, EXTRA_LEN, "counter1=%u", cl->counters[0].id);
    else
        snprintf(extra, EXTRA_LEN, "counter1=%u counter2=%u", cl->counters[0].id,
                 cl->counters[1].id);
    return true;
}

static xcb_sync_counter_t bogus_xid(struct client *cl)
{
    /* An XID from our own range that is never given to any resource: not a counter, for sure. */
    static xcb_sync_counter_t bogus;
    if (!bogus)
        bogus = xcb_generate_id(cl->c);
    return bogus;
}

static bool counter_property_value(struct client *cl, const char *s, int format, uint32_t *out,
                                   char *msg)
{
    if (strcmp(s, "c1") == 0 || strcmp(s, "c2") == 0) {
        xcb_sync_counter_t id = cl->counters[s[1] - '1'].id;
        if (!id)
            return bad(msg, "%s: no such counter (use counters N first)", s);
        *out = id;
        return true;
    }
    if (strcmp(s, "bogus") == 0) {
        *out = bogus_xid(cl);
        return true;
    }
    /* Numbers are accepted signed or unsigned within the format's width. */
    int64_t lo = -(INT64_C(1) << (format - 1)), hi = (INT64_C(1) << format) - 1, v;
    if (!parse_range(s, lo, hi, &v))
        return bad(msg, "bad value %s for this format (a number, c1, c2 or bogus)", s);
    *out = (uint32_t)v;
    return true;
}

static bool cmd_counter_property(struct client *cl, struct cmd *cmd, int argc, char **argv,
                                 char *extra, char *msg)
{
    xcb_atom_t prop = cl->atoms.net_wm_sync_request_counter;
    if (argc == 2 && strcmp(argv[1], "delete") == 0) {
        cmd_track(cmd, xcb_delete_property_checked(cl->c, cl->win, prop));
        return true;
    }
    int64_t format;
    if (argc < 3 || !parse_range(argv[2], 8, 32, &format) ||
        (format != 8 && format != 16 && format != 32))
        return bad(msg, "usage: counter-property TYPE 8|16|32 VALUE... | counter-property delete%s",
                   "");
    static uint32_t v32[MAX_WORDS];
    static uint16_t v16[MAX_WORDS];
    static uint8_t v8[MAX_WORDS];
    int n = 0;
    bool used_bogus = false;
    for (int i = 3; i < argc; i++, n++) {
        if (!counter_property_value(cl, argv[i], (int)format, &v32[n], msg))
            return false;
        used_bogus |= strcmp(argv[i], "bogus") == 0;
        v16[n] = (uint16_t)v32[n];
        v8[n] = (uint8_t)v32[n];
    }
    const void *data = format == 32 ? (const void *)v32 : format == 16 ? (const void *)v16 : v8;
    xcb_atom_t type = intern(cl, argv[1], false);
    cmd_track(cmd, xcb_change_property_checked(cl->c, XCB_PROP_MODE_REPLACE, cl->win, prop, type,
                                               (uint8_t)format, (uint32_t)n, data));
    if (used_bogus)
        snprintf(extra, EXTRA_LEN, "bogus=%u", bogus_xid(cl));
    return true;
}

static bool cmd_set_counter(struct client *cl, struct cmd *cmd, int argc, char **argv,
                            char *extra, char *msg)
{
    (void)extra;
    int index;
    int64_t v;
    if (argc != 3)
        return bad(msg, "usage: set-counter I VALUE%s", "");
    if (!parse_counter_index(cl, argv[1], &index, msg))
        return false;
    if (!parse_i64(argv[2], &v))
        return bad(msg, "bad value %s (signed 64-bit)", argv[2]);
    counter_set(cl, cmd, index, v, "command");
    return true;
}

static bool cmd_destroy_counter(struct client *cl, struct cmd *cmd, int argc, char **argv,
                                char *extra, char *msg)
{
    (void)extra;
    int index;
    if (argc != 2)
        return bad(msg, "usage: destroy-counter I%s", "");
    if (!parse_counter_index(cl, argv[1], &index, msg))
        return false;
    counter_destroy(cl, cmd, index);
    return true;
}

static bool cmd_query_counter(struct client *cl, struct cmd *cmd, int argc, char **argv,
                              char *extra, char *msg)
{
    (void)cmd;
    (void)extra;
    int index;
    int64_t v;
    if (argc != 2)
        return bad(msg, "usage: query-counter I%s", "");
    if (!parse_counter_index(cl, argv[1], &index, msg) || !counter_query(cl, index, &v, msg, MSG_LEN))
        return false;
    record("counter", "index=%d value=%lld", index, (long long)v);
    return true;
}

/* ---- delimited updates ---- */

static bool update_counter(struct client *cl, int *index, char *msg)
{
    if (cl->ncounters == 0)
        return bad(msg, "no counters (use counters N first)%s", "");
    *index = update_counter_index(cl);
    return true;
}

/* Sets the update counter to the next odd (odd=true) or even value strictly above `from`. */
static int64_t next_parity_above(int64_t from, bool odd)
{
    int64_t v = (int64_t)((uint64_t)from + 1);
    if (((v & 1) != 0) != odd)
        v = (int64_t)((uint64_t)v + 1);
    return v;
}

/* The current value is asked of the server: the WM may have set the counter since we did. */
static bool step_update(struct client *cl, struct cmd *cmd, bool odd, int64_t *set, char *msg)
{
    int index;
    int64_t now;
    if (!update_counter(cl, &index, msg) || !counter_query(cl, index, &now, msg, MSG_LEN))
        return false;
    *set = next_parity_above(now, odd);
    counter_set(cl, cmd, index, *set, "command");
    return true;
}

static bool cmd_begin_update(struct client *cl, struct cmd *cmd, int argc, char **argv,
                             char *extra, char *msg)
{
    (void)extra;
    int64_t v;
    return no_args(argc, argv, msg) && step_update(cl, cmd, true, &v, msg);
}

static bool cmd_end_update(struct client *cl, struct cmd *cmd, int argc, char **argv,
                           char *extra, char *msg)
{
    (void)extra;
    int64_t v;
    return no_args(argc, argv, msg) && step_update(cl, cmd, false, &v, msg);
}

static bool cmd_update(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                       char *msg)
{
    int64_t k, odd;
    int index;
    if (argc != 2 || !parse_range(argv[1], 0, UINT32_MAX, &k))
        return bad(msg, "usage: update K (K a frame number >= 0)%s", "");
    if (!update_counter(cl, &index, msg) || !step_update(cl, cmd, true, &odd, msg))
        return false;
    cmd_track(cmd, paint(cl, frame_colour((uint32_t)k), true));
    /* The server runs one client's requests in order anyway; the round trip makes "the content
     * is there before the even value" hold in wall time too, as a real client's would. */
    if (!xh_round_trip(cl->c))
        return bad(msg, "X connection lost%s", "");
    counter_set(cl, cmd, index, next_parity_above(odd, false), "command");
    snprintf(extra, EXTRA_LEN, "frame=%lld", (long long)k);
    return true;
}

/* ---- fences ---- */

static bool cmd_fences(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                       char *msg)
{
    int64_t n;
    if (argc != 2 || !parse_range(argv[1], 0, FC_MAX_FENCES, &n))
        return bad(msg, "usage: fences N (0..64)%s", "");
    for (int i = 0; i < cl->nfences; i++) /* a second `fences` replaces the first set */
        cmd_track(cmd, xcb_sync_destroy_fence_checked(cl->c, cl->fences[i]));
    cl->nfences = (int)n;
    size_t off = 0;
    extra[0] = '\0';
    for (int i = 0; i < n; i++) {
        cl->fences[i] = xcb_generate_id(cl->c);
        cmd_track(cmd, xcb_sync_create_fence_checked(cl->c, cl->screen->root, cl->fences[i], 0));
        off += (size_t)snprintf(extra + off, EXTRA_LEN - off, "%sfence%d=%u", i ? " " : "", i,
                                cl->fences[i]);
    }
    cmd_track(cmd, xcb_change_property_checked(cl->c, XCB_PROP_MODE_REPLACE, cl->win,
                                               cl->atoms.net_wm_sync_fences, XCB_ATOM_CARDINAL, 32,
                                               (uint32_t)n, cl->fences));
    return true;
}

static bool parse_fence_index(struct client *cl, int argc, char **argv, int *index, char *msg)
{
    int64_t i;
    if (argc != 2)
        return bad(msg, "usage: %s I (0-based)", argv[0]);
    if (!parse_range(argv[1], 0, cl->nfences - 1, &i))
        return bad(msg, "no fence %s (fences N first; I is 0-based)", argv[1]);
    *index = (int)i;
    return true;
}

static bool cmd_trigger_fence(struct client *cl, struct cmd *cmd, int argc, char **argv,
                              char *extra, char *msg)
{
    (void)extra;
    int i;
    if (!parse_fence_index(cl, argc, argv, &i, msg))
        return false;
    cmd_track(cmd, xcb_sync_trigger_fence_checked(cl->c, cl->fences[i]));
    return true;
}

static bool cmd_reset_fence(struct client *cl, struct cmd *cmd, int argc, char **argv,
                            char *extra, char *msg)
{
    (void)extra;
    int i;
    if (!parse_fence_index(cl, argc, argv, &i, msg))
        return false;
    cmd_track(cmd, xcb_sync_reset_fence_checked(cl->c, cl->fences[i]));
    return true;
}

/* ---- the rest ---- */

static bool cmd_answer(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                       char *msg)
{
    (void)cmd;
    (void)extra;
    if (argc > 3)
        return bad(msg, "usage: answer correct|never|wrong|late MS%s", "");
    return answer_set_policy(cl, argc > 1 ? argv[1] : NULL, argc > 2 ? argv[2] : NULL, msg,
                             MSG_LEN);
}

static bool cmd_sync(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                     char *msg)
{
    (void)cl;
    (void)cmd;
    (void)extra;
    return no_args(argc, argv, msg); /* the round trip is command_run's */
}

static bool cmd_quit(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                     char *msg)
{
    (void)cl;
    (void)cmd;
    (void)extra;
    if (!no_args(argc, argv, msg))
        return false;
    quit_requested = true;
    return true;
}

static const struct {
    const char *word;
    handler_fn fn;
    bool needs_window;
} commands[] = {
    {"create", cmd_create, false},
    {"protocols", cmd_protocols, true},
    {"counters", cmd_counters, true},
    {"counter-property", cmd_counter_property, true},
    {"set-counter", cmd_set_counter, false},
    {"destroy-counter", cmd_destroy_counter, false},
    {"fences", cmd_fences, true},
    {"trigger-fence", cmd_trigger_fence, false},
    {"reset-fence", cmd_reset_fence, false},
    {"answer", cmd_answer, false},
    {"map", cmd_map, true},
    {"unmap", cmd_unmap, true},
    {"destroy", cmd_destroy, true},
    {"fill-frame", cmd_fill_frame, true},
    {"fill", cmd_fill, true},
    {"configure", cmd_configure, true},
    {"resize", cmd_resize, true},
    {"resize-end", cmd_resize_end, true},
    {"begin-update", cmd_begin_update, false},
    {"end-update", cmd_end_update, false},
    {"update", cmd_update, true},
    {"query-counter", cmd_query_counter, false},
    {"sync", cmd_sync, false},
    {"quit", cmd_quit, false},
};

static int split_words(char *line, char **argv)
{
    int argc = 0;
    char *save = NULL;
    for (char *w = strtok_r(line, " \t\r", &save); w && argc < MAX_WORDS;
         w = strtok_r(NULL, " \t\r", &save))
        argv[argc++] = w;
    return argc;
}

void command_run(struct client *cl, char *line)
{
    static char *argv[MAX_WORDS];
    int argc = split_words(line, argv);
    if (argc == 0 || argv[0][0] == '#')
        return; /* blank lines and comments let a script be readable */
    char msg[MSG_LEN] = "", extra[EXTRA_LEN] = "", xmsg[MSG_LEN] = "";

    size_t i;
    for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[0], commands[i].word) == 0)
            break;
    if (i == sizeof commands / sizeof commands[0]) {
        record("error", "cmd=%s msg=unknown command", argv[0]);
        return;
    }
    if (commands[i].needs_window && !cl->win) {
        record("error", "cmd=%s msg=no window (create it first)", argv[0]);
        return;
    }
    if (resize_active(cl)) { /* the harness waits for each `done`: this is a script error */
        record("error", "cmd=%s msg=a resize is still in progress", argv[0]);
        return;
    }
    struct cmd cmd = {.word = argv[0], .ncookies = 0};
    bool ok = commands[i].fn(cl, &cmd, argc, argv, extra, msg);

    /* Answer only once the server has processed the requests, and report first what was
     * observed before that point. */
    cl->alarm_rearms = 0;
    bool connected = xh_round_trip(cl->c);
    events_drain_queued(cl);
    /* A re-arm during that drain fires at once when the counter had moved on again (our own
     * odd-then-even of `update`); one more round trip reports such changes before `done`. */
    for (int n = 0; connected && cl->alarm_rearms && n < 4; n++) {
        cl->alarm_rearms = 0;
        connected = xh_round_trip(cl->c);
        events_drain_queued(cl);
    }
    bool x_ok = cmd_check(cl, &cmd, xmsg, sizeof xmsg);
    if (!x_ok && commands[i].fn == cmd_create)
        cl->win = 0; /* no window was made: a corrected `create` may follow */
    if (!connected)
        record("error", "cmd=%s msg=X connection lost", argv[0]);
    else if (!ok)
        record("error", "cmd=%s msg=%s", argv[0], msg);
    else if (!x_ok)
        record("error", "cmd=%s msg=%s", argv[0], xmsg);
    else if (cmd.deferred && commands[i].fn == cmd_resize_end)
        resize_end(cl); /* its `done` comes when the WM has let its grab go */
    else if (cmd.deferred)
        resize_poll(cl); /* its `done` comes when the WM has reacted */
    else if (extra[0])
        record("done", "cmd=%s %s", argv[0], extra);
    else
        record("done", "cmd=%s", argv[0]);
}
