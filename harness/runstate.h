/* The state of one harness run, shared by its stages: the options and cases it was given, its X
 * server and oracles, the compositor under test (lifecycle.c), the feature tables, the crashes
 * seen while probing, and where the results go (executor.c). */
#ifndef FRAMESYNC_RUNSTATE_H
#define FRAMESYNC_RUNSTATE_H

#include <limits.h>
#include <stdio.h>
#include "app-keep.h"
#include "catalog.h"
#include "compositor.h"
#include "discovery.h"
#include "featureset.h"
#include "input-path.h"
#include "isolation.h"
#include "options.h"
#include "oracles.h"
#include "results.h"
#include "run.h"
#include "tap.h"
#include "xserver.h"

/* A probe during which the compositor crashed or hung: a FAIL under compositor/crash, reported
 * before the cases like a case of its own (`probe/FEATURE [PROFILE]`). */
struct incident {
    const struct testcase *probe;
    enum profile p;
    struct result res;
};

struct run {
    const struct options *o;
    struct catalog cat;
    struct case_set set;
    struct xserver x;
    struct oracle *oracles[MAX_ORACLES];
    int noracles;
    char no_screen[1024];           /* why there is no screen oracle on this server ("": there is one) */
    char screen_oracle[1024];       /* which screen oracle serves on it ("none: WHY" when none does) */
    struct capture capture;         /* the conf's screen-capture: for this start (capture.h) */
    bool have_capture;              /* ... and it is the screen oracle */
    struct input_path input;        /* the conf's input: for this start (input-path.h) */
    bool have_input;                /* ... and it is running */
    char input_error[1024];         /* why the conf's input: did not start ("": it did, or there is none) */
    char input_desc[1024];          /* which input path serves, for the report */
    char start_dir[PATH_MAX];       /* this start's {tmpdir} */
    unsigned char locks_before[XSERVER_MAX_LOCKS]; /* the X locks in /tmp before this start */
    char client_binary[PATH_MAX];
    char observer_binary[PATH_MAX];
    char tmp_dir[PATH_MAX];
    struct isolation home;          /* the run's private home and session bus (every child's) */
    /* the compositor under test */
    struct compositor wm;
    bool wm_running;
    bool wm_ever_ready;             /* some start succeeded: a later failure is a verdict, not a usage error */
    char wm_log[PATH_MAX];
    char wm_failed_command[2048];   /* a command that did not start: its cases fail at once */
    char wm_failed_reason[3000];
    enum profile wm_profile;        /* the profile it was started for */
    char wm_stopped_why[700];       /* why the run stopped it (a crash or hang in a case): the restart says so */
    /* a case's `replace-wm` (lifecycle.c): how to start a replacement ({profile} replaced; "": no
     * way, why_no_replace says why), the instance it replaced until the case is over, and whether
     * the running one is a replacement (the next case then starts it afresh) */
    char replace_template[2048];
    char why_no_replace[512];
    struct compositor replaced;
    bool replaced_running;
    bool wm_is_replacement;
    struct wm_replacer replacer;
    /* what it implements: one table per compositor command (fake-wm's differs per profile) */
    struct features **tables;
    int ntables;
    struct features *features;      /* the running compositor's */
    struct incident *incidents;
    int nincidents;
    /* the application under test (--client) */
    bool app_ever_mapped;           /* it mapped a window in some run: a later end is a crash, not a usage error */
    bool states_pass;               /* the application's states are being found under the reference
                                       policy, before a client run under another (executor.c) */
    char app_not_started[3000];     /* why it does not start (it ended before it ever mapped a window), or "" */
    struct app_keep keep;           /* kept running for the shared cases, under the running compositor */
    /* the output */
    struct tap tap;
    FILE *tap_file;
    struct results *results;
};

#endif
