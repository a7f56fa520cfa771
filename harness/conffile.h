/* The NAME.conf format shared by compositors/ and clients/: `key: value` lines, `#` comments,
 * blank lines.  This file reads it and reports bad input as "FILE:LINE: what was expected"; each
 * profile (compositor-profile.c, client-profile.c) gives the meaning of its keys. */
#ifndef FRAMESYNC_CONFFILE_H
#define FRAMESYNC_CONFFILE_H

#include <stdbool.h>
#include <stddef.h>

/* Called for each `key: value` line (key lowercase letters, '-' and '_'; value not empty, both
 * trimmed): 0, or -1 after conf_fail. */
typedef int (*conf_key_fn)(void *ctx, const char *key, const char *value, const char *path, int line, char *err,
                           size_t errlen);

/* Reads path line by line into fn.  0, or -1 with the message in err.  *last_line (may be NULL) is
 * the number of the last line read, for messages about what the whole file lacks. */
int conf_read(const char *path, conf_key_fn fn, void *ctx, int *last_line, char *err, size_t errlen);

/* Writes "PATH:LINE: message" into err; returns -1. */
int conf_fail(char *err, size_t len, const char *path, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* NAME=VALUE with NAME a C identifier. */
bool conf_valid_env(const char *v);
/* A word that can name NAME.conf (not a path, not a command line). */
bool conf_plain_name(const char *s);
/* The program a command runs: its first word after exec, env and its NAME=VALUE words, and
 * dbus-run-session [options] --. */
void conf_derive_binary(const char *command, char *out, size_t len);
/* tmpl with every `key` replaced by value (truncated to len). */
void conf_substitute(const char *tmpl, const char *key, const char *value, char *out, size_t len);

/* The paths of DIR/ *.conf, sorted by name: *paths (free each, then the array), their count, or
 * -1 (message on stderr) when DIR cannot be read. */
int conf_list_dir(const char *dir, char ***paths);

#endif
