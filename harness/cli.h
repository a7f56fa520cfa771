/* The command-line pieces the harness (options.c) and framesync-bench (bench/main.c) share, so
 * both say the same things the same way: where the framesync folder is, --ready's values, what
 * --wm NAME of a named compositor stands for, and getopt_long's usage errors.  PROG is the name
 * the messages start with ("framesync", "framesync-bench"). */
#ifndef FRAMESYNC_CLI_H
#define FRAMESYNC_CLI_H

#include <getopt.h>
#include <stddef.h>

struct compositor_profile;

/* The compositor options of both getopt_long tables: --wm CMD|NAME ('w'), --ready KIND ('r'),
 * --wm-timeout MS ('T'). */
#define CLI_COMPOSITOR_OPTIONS                                                                     \
    {"wm", required_argument, 0, 'w'}, {"ready", required_argument, 0, 'r'},                       \
        {"wm-timeout", required_argument, 0, 'T'}

/* The framesync folder: the grandparent of the running binary (<root>/harness/framesync-harness,
 * <root>/bench/framesync-bench). */
void cli_root(char *root, size_t len);

/* --ready KIND: wm, cm, wm+cm or auto into *out; -1 with the message on stderr. */
int cli_ready(const char *prog, const char *arg, const char **out);

/* --wm NAME of compositors/NAME.conf: its command replaces *wm and its ready kind fills *ready
 * unless --ready gave one.  1 when named, 0 when *wm is a command line (left alone), -1 (message
 * on stderr) when the conf is malformed. */
int cli_named_wm(const char *root, const char **wm, const char **ready, struct compositor_profile *p);

/* getopt_long returned '?': an unknown option, or one missing its value.  Says so; -1. */
int cli_bad_option(const char *prog, char **argv);

/* Arguments left after the options (neither program takes any): 0 when none, else says so; -1. */
int cli_no_operands(const char *prog, int argc, char **argv);

#endif
