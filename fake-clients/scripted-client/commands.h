/* The command handlers of PROTOCOL.md and what they share (commands.c runs them): each gets the
 * command's words, fills `extra` with the fields of its `done` or `msg` with why it failed, and
 * makes its requests checked through cmd_track. */
#ifndef FRAMESYNC_SCRIPTED_CLIENT_COMMANDS_H
#define FRAMESYNC_SCRIPTED_CLIENT_COMMANDS_H

#include <stdio.h>

#include "scripted-client.h"

#define MAX_WORDS 2048 /* words of one command line */
#define MSG_LEN 512    /* msg: why a command failed */
#define EXTRA_LEN 4096 /* extra: the fields of its `done` */

typedef bool handler_fn(struct client *cl, struct cmd *cmd, int argc, char **argv, char *extra, char *msg);

/* commands-window.c: the window and its painting */
handler_fn cmd_create, cmd_max_size, cmd_map, cmd_unmap, cmd_withdraw, cmd_destroy, cmd_configure, cmd_resize,
    cmd_resize_end, cmd_protocols, cmd_fill_frame, cmd_fill, cmd_background_frame;

/* reparent.c: the toplevel into another client's window, once the WM has let it go */
handler_fn cmd_reparent;

/* commands-sync.c: counters, delimited updates, fences */
handler_fn cmd_counters, cmd_counter_property, cmd_set_counter, cmd_destroy_counter, cmd_query_counter,
    cmd_begin_update, cmd_end_update, cmd_update, cmd_fences, cmd_trigger_fence, cmd_reset_fence;

/* monitors.c: two RandR monitors to move the window between */
handler_fn cmd_monitors, cmd_to_monitor;

/* commands-args.c: argument parsing; the false ones have filled msg */
bool parse_i64(const char *s, int64_t *out);
bool parse_range(const char *s, int64_t min, int64_t max, int64_t *out);
/* fmt with arg (NULL: "") into msg; false (inline: the compiler sees a failed parse fill nothing) */
static inline bool arg_bad(char *msg, const char *fmt, const char *arg)
{
    snprintf(msg, MSG_LEN, fmt, arg ? arg : "");
    return false;
}
/* W H [X Y] of create and configure into g (X Y 0 0 when not given) */
bool parse_geometry(int argc, char **argv, int64_t g[4], char *msg);
/* counter index I (1 or 2) of a counter that `counters` created */
bool parse_counter_index(struct client *cl, const char *s, int *index, char *msg);
bool arg_none(int argc, char **argv, char *msg);

#endif
