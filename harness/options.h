/* The harness's command line: what to run (the compositor or application under test, the
 * profiles, the cases) and how (deadlines, output folder, which findings fail the run).
 * README.md and --help describe each option. */
#ifndef FRAMESYNC_OPTIONS_H
#define FRAMESYNC_OPTIONS_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include "client-profile.h"
#include "compositor-profile.h"
#include "terms.h"

/* What the invocation does: run the cases, or one of the ways of asking without running. */
enum action { ACTION_RUN, ACTION_PROBE, ACTION_LIST, ACTION_COVERAGE, ACTION_LIST_WMS, ACTION_LIST_CLIENTS,
              ACTION_HELP };

struct options {
    enum action action;
    char root[PATH_MAX];         /* the framesync folder (the harness binary's grandparent) */
    char cases_dir[PATH_MAX];
    char out_dir[PATH_MAX];
    const char *wm;              /* the command line; NULL: the reference fake-wm */
    const char *ready;
    unsigned profiles;
    const char *filter;
    double timeout_scale;
    int wm_timeout_ms;
    int case_timeout_ms;         /* the per-case watchdog; 0: 120000 x timeout_scale */
    int shard, nshards;          /* run only items k with k % nshards == shard */
    const char *select_path;     /* --select FILE: run only the (case, profile) pairs it lists */
    struct compositor_profile wm_profile; /* --wm NAME: compositors/NAME.conf */
    int wm_named;                /* 1 when --wm named one */
    const char *features_file;   /* --features FILE: the probed table (the runner's probe pass) */
    const char *resize_trigger;  /* --resize-trigger T (or resize-trigger: of the conf) */
    const char *replace_with;    /* --replace-with CMD: a new instance that replaces the running one (or
                                    replace: of the conf; the reference fake-wm: its command + --replace) */
    bool own_xserver;            /* --xserver own (or xserver: own): the compositor brings its X server */
    const char *xserver;         /* --xserver as given, or NULL */
    const char *input;           /* --input CMD (or input: of the conf): the helper that puts input into
                                    the compositor's own seat (input-path.h), or NULL: XTEST */
    int input_barrier;           /* --input-barrier KIND (or input-barrier: of the conf): what orders each
                                    of input's events after the client's earlier X events
                                    (common/input-barrier.h); -1 until settled, then a kind */
    const char *client;          /* --client NAME|CMD: the application under test (client mode) */
    const char *policy;          /* --policy NAME: fake-wm's (fake-wm --list-policies), client mode;
                                    default "reference" */
    struct client_profile client_profile; /* --client NAME: clients/NAME.conf */
    int client_named;
    bool allow_empty;            /* --allow-empty: a run that tested nothing may still exit 0 */
    enum fail_on fail_on;        /* --fail-on must|should|any */
};

/* Defaults, the folder of the harness binary, then the arguments; -1 (with a message on stderr)
 * on a usage error. */
int options_parse(int argc, char **argv, struct options *o);
void options_usage(FILE *f);
/* The case's deadline watchdog in ms. */
int options_case_timeout_ms(const struct options *o);

#endif
