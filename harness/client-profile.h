/* Named clients under test: clients/NAME.conf says how to run one real application for the
 * client side of the suite (`--client NAME`): its command line (made to animate or redraw by
 * itself where the program can), its environment, its Debian packages and notes.  `--client`
 * with anything that is not the name of such a file is a shell command line.  Format:
 * clients/README.md. */
#ifndef FRAMESYNC_CLIENT_PROFILE_H
#define FRAMESYNC_CLIENT_PROFILE_H

#include <stdio.h>

#define CLP_MAX_ENV 16

struct client_profile {
    char name[64];
    char path[1024];
    char command[2048];
    char *env[CLP_MAX_ENV];  /* NAME=VALUE, {tmpdir} and {root} not yet replaced */
    int nenv;
    char packages[512];
    char binary[256];
    char animates[512];      /* how the command makes it redraw by itself, or "" */
    char animates_word[16];  /* its first word: forever, once or no ("" when not said) */
};

/* 0, or -1 with "FILE:LINE: what was expected" in err. */
int client_profile_parse(const char *path, struct client_profile *p, char *err, size_t errlen);
/* 1 and *p when `name` is a plain word naming ROOT/clients/NAME.conf; 0 when it is a command
 * line; -1 (message on stderr) when the file is malformed. */
int client_profile_lookup(const char *root, const char *name, struct client_profile *p);
/* Sets the profile's env entries in this process's environment (inherited by the observer and
 * the application), {tmpdir} and {root} replaced. */
void client_profile_setenv(const struct client_profile *p, const char *root, const char *tmpdir);
/* The command line with {tmpdir} and {root} replaced. */
void client_profile_command(const struct client_profile *p, const char *root, const char *tmpdir, char *out,
                            size_t len);
void client_profile_free(struct client_profile *p);
/* --list-clients: name, installed or not, command.  0, or 2 when a file is malformed. */
int client_profile_list(const char *root, FILE *out);

#endif
