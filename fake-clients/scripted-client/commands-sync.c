/* The commands of the protocol's objects (PROTOCOL.md): the counters and their property, the
 * delimited updates (begin-update, end-update, update), and the fences. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "frame-colour.h"

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

bool cmd_counters(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                         char *msg)
{
    int64_t n, init[2] = {0, 0};
    if (argc < 2 || !parse_range(argv[1], 1, 2, &n))
        return arg_bad(msg, "usage: counters N [INIT1 [INIT2]] (N 1 or 2)%s", "");
    if (argc > 2 + n)
        return arg_bad(msg, "too many initial values for %s counter(s)", argv[1]);
    for (int i = 2; i < argc; i++)
        if (!parse_i64(argv[i], &init[i - 2]))
            return arg_bad(msg, "bad initial value %s (signed 64-bit)", argv[i]);
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
            return arg_bad(msg, "%s: no such counter (use counters N first)", s);
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
        return arg_bad(msg, "bad value %s for this format (a number, c1, c2 or bogus)", s);
    *out = (uint32_t)v;
    return true;
}

bool cmd_counter_property(struct client *cl, struct cmd *cmd, int argc, char **argv,
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
        return arg_bad(msg, "usage: counter-property TYPE 8|16|32 VALUE... | counter-property delete%s",
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

bool cmd_set_counter(struct client *cl, struct cmd *cmd, int argc, char **argv,
                            char *extra, char *msg)
{
    (void)extra;
    int index;
    int64_t v;
    if (argc != 3)
        return arg_bad(msg, "usage: set-counter I VALUE%s", "");
    if (!parse_counter_index(cl, argv[1], &index, msg))
        return false;
    if (!parse_i64(argv[2], &v))
        return arg_bad(msg, "bad value %s (signed 64-bit)", argv[2]);
    counter_set(cl, cmd, index, v, "command");
    return true;
}

bool cmd_destroy_counter(struct client *cl, struct cmd *cmd, int argc, char **argv,
                                char *extra, char *msg)
{
    (void)extra;
    int index;
    if (argc != 2)
        return arg_bad(msg, "usage: destroy-counter I%s", "");
    if (!parse_counter_index(cl, argv[1], &index, msg))
        return false;
    counter_destroy(cl, cmd, index);
    return true;
}

bool cmd_query_counter(struct client *cl, struct cmd *cmd, int argc, char **argv,
                              char *extra, char *msg)
{
    (void)cmd;
    (void)extra;
    int index;
    int64_t v;
    if (argc != 2)
        return arg_bad(msg, "usage: query-counter I%s", "");
    if (!parse_counter_index(cl, argv[1], &index, msg) || !counter_query(cl, index, &v, msg, MSG_LEN))
        return false;
    record("counter", "index=%d value=%lld", index, (long long)v);
    return true;
}

/* ---- delimited updates ---- */

static bool update_counter(struct client *cl, int *index, char *msg)
{
    if (cl->ncounters == 0)
        return arg_bad(msg, "no counters (use counters N first)%s", "");
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

bool cmd_begin_update(struct client *cl, struct cmd *cmd, int argc, char **argv,
                             char *extra, char *msg)
{
    (void)extra;
    int64_t v;
    return arg_none(argc, argv, msg) && step_update(cl, cmd, true, &v, msg);
}

bool cmd_end_update(struct client *cl, struct cmd *cmd, int argc, char **argv,
                           char *extra, char *msg)
{
    (void)extra;
    int64_t v;
    return arg_none(argc, argv, msg) && step_update(cl, cmd, false, &v, msg);
}

bool cmd_update(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                       char *msg)
{
    int64_t k, odd;
    int index;
    if (argc != 2 || !parse_range(argv[1], 0, UINT32_MAX, &k))
        return arg_bad(msg, "usage: update K (K a frame number >= 0)%s", "");
    if (!update_counter(cl, &index, msg) || !step_update(cl, cmd, true, &odd, msg))
        return false;
    cmd_track(cmd, paint(cl, frame_colour((uint32_t)k), true));
    /* The server runs one client's requests in order anyway; the round trip makes "the content
     * is there before the even value" hold in wall time too, as a real client's would. */
    if (!xh_round_trip(cl->c))
        return arg_bad(msg, "X connection lost%s", "");
    counter_set(cl, cmd, index, next_parity_above(odd, false), "command");
    snprintf(extra, EXTRA_LEN, "frame=%lld", (long long)k);
    return true;
}

/* ---- fences ---- */

bool cmd_fences(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                       char *msg)
{
    int64_t n;
    if (argc != 2 || !parse_range(argv[1], 0, FC_MAX_FENCES, &n))
        return arg_bad(msg, "usage: fences N (0..64)%s", "");
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
        return arg_bad(msg, "usage: %s I (0-based)", argv[0]);
    if (!parse_range(argv[1], 0, cl->nfences - 1, &i))
        return arg_bad(msg, "no fence %s (fences N first; I is 0-based)", argv[1]);
    *index = (int)i;
    return true;
}

bool cmd_trigger_fence(struct client *cl, struct cmd *cmd, int argc, char **argv,
                              char *extra, char *msg)
{
    (void)extra;
    int i;
    if (!parse_fence_index(cl, argc, argv, &i, msg))
        return false;
    cmd_track(cmd, xcb_sync_trigger_fence_checked(cl->c, cl->fences[i]));
    return true;
}

bool cmd_reset_fence(struct client *cl, struct cmd *cmd, int argc, char **argv,
                            char *extra, char *msg)
{
    (void)extra;
    int i;
    if (!parse_fence_index(cl, argc, argv, &i, msg))
        return false;
    cmd_track(cmd, xcb_sync_reset_fence_checked(cl->c, cl->fences[i]));
    return true;
}
