/* The commands of PROTOCOL.md: the table of handlers and command_run, which runs one line.  The
 * handlers are commands-window.c (the window, painting) and commands-sync.c (counters, updates,
 * fences), and the few here (answer, answer-missed, sync, quit).  Each handler validates its
 * arguments before making any request (a bad argument is an `error` record, never a crash), makes
 * its requests checked (so that the command, not an x-error record, reports an X error on them),
 * and leaves the round trip and the `done`/`error` answer to command_run. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

static bool cmd_answer(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                       char *msg)
{
    (void)cmd;
    (void)extra;
    if (argc > 3)
        return arg_bad(msg, "usage: answer correct|never|wrong|late MS%s", "");
    return answer_set_policy(cl, argc > 1 ? argv[1] : NULL, argc > 2 ? argv[2] : NULL, msg,
                             MSG_LEN);
}

static bool cmd_answer_missed(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                            char *msg)
{
    if (!arg_none(argc, argv, msg))
        return false;
    return answer_missed(cl, cmd, extra, EXTRA_LEN, msg, MSG_LEN);
}

static bool cmd_sync(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                     char *msg)
{
    (void)cl;
    (void)cmd;
    (void)extra;
    return arg_none(argc, argv, msg); /* the round trip is command_run's */
}

static bool cmd_quit(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra,
                     char *msg)
{
    (void)cmd;
    (void)extra;
    if (!arg_none(argc, argv, msg))
        return false;
    cl->quit_requested = true;
    return true;
}

static const struct {
    const char *word;
    handler_fn *fn;
    bool needs_window;
} commands[] = {
    {"create", cmd_create, false},
    {"max-size", cmd_max_size, true},
    {"protocols", cmd_protocols, true},
    {"counters", cmd_counters, true},
    {"counter-property", cmd_counter_property, true},
    {"set-counter", cmd_set_counter, false},
    {"destroy-counter", cmd_destroy_counter, false},
    {"fences", cmd_fences, true},
    {"trigger-fence", cmd_trigger_fence, false},
    {"reset-fence", cmd_reset_fence, false},
    {"answer", cmd_answer, false},
    {"answer-missed", cmd_answer_missed, false},
    {"map", cmd_map, true},
    {"unmap", cmd_unmap, true},
    {"withdraw", cmd_withdraw, true},
    {"reparent", cmd_reparent, true},
    {"destroy", cmd_destroy, true},
    {"fill-frame", cmd_fill_frame, true},
    {"fill", cmd_fill, true},
    {"background-frame", cmd_background_frame, true},
    {"configure", cmd_configure, true},
    {"resize", cmd_resize, true},
    {"resize-end", cmd_resize_end, true},
    {"begin-update", cmd_begin_update, false},
    {"end-update", cmd_end_update, false},
    {"update", cmd_update, true},
    {"query-counter", cmd_query_counter, false},
    {"monitors", cmd_monitors, false},
    {"to-monitor", cmd_to_monitor, true},
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
