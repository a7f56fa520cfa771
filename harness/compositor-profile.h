/* Named compositors: compositors/NAME.conf describes how to run one real compositor (command,
 * environment, readiness, what it composites, its packages).  `--wm NAME` uses the file when NAME
 * is a plain word and the file exists; anything else stays a shell command line.
 * The format is compositors/README.md. */
#ifndef FRAMESYNC_COMPOSITOR_PROFILE_H
#define FRAMESYNC_COMPOSITOR_PROFILE_H

#include <stdbool.h>
#include <stdio.h>

#define CP_MAX_ENV 16

struct compositor_profile {
    char name[64];
    char path[1024];
    char command[2048];
    char replace[2048];      /* `replace:`: the command line of a new instance that replaces a running
                                one (ICCCM 2.8, `mutter --replace`): a case's `replace-wm` step ("": none) */
    char *env[CP_MAX_ENV];   /* NAME=VALUE templates ({tmpdir}, {root} not yet replaced) */
    int nenv;
    char ready[8];           /* wm, cm, wm+cm, auto */
    char resize_trigger[16]; /* configure, keyboard, pointer, map, or "" (probed) */
    bool own_xserver;        /* `xserver: own`: it brings its X server (Xwayland); `{report}` in the
                                command tells the harness which (lifecycle.c) */
    bool composites;
    char screen_capture[1024]; /* `screen-capture:`: a command writing a PPM of {x} {y} {w} {h} ("": none) */
    char screen_stream[1024]; /* `screen-stream:`: a helper streaming every frame (harness/stream.h; "": none) */
    char allow_empty[512];   /* `allow-empty:`: why a run of it may test nothing ("": it may not) */
    char no_xtest[512];      /* `no-xtest:`: why XTEST input does not reach it ("": it does) */
    char input[1024];        /* `input:`: the helper that puts input into its own seat ("": none;
                                harness/input-path.h); it replaces XTEST for interactive resizes */
    int input_barrier;       /* `input-barrier:`: what orders each of input's events after the X events
                                the client caused before it (common/input-barrier.h; 0: none) */
    char packages[512];
    char binary[256];        /* blank-separated programs; derived from command when not given */
    char notes[2048];
    char pacing[512];        /* `pacing:`: what decides its frame pacing, as pinned in command (bench.json) */
};

/* Parses one file.  0 on success; -1 with "FILE:LINE: what was expected" in err. */
int compositor_profile_parse(const char *path, struct compositor_profile *p, char *err, size_t errlen);

/* If `wm` is a plain word naming ROOT/compositors/WM.conf, parses it into *p and returns 1;
 * returns 0 when `wm` is a command line (not a word, or no such file); -1 (message on stderr) when
 * the file is malformed. */
int compositor_profile_lookup(const char *root, const char *wm, struct compositor_profile *p);

/* A fresh private (0700) directory for one start of the compositor, under the run's temp dir
 * (removed with it): what {tmpdir} stands for in its command and environment.  -1 with a message. */
int compositor_start_dir(const char *run_tmp, char *out, size_t len);

/* The environment for one start of the compositor: NULL-terminated NAME=VALUE strings, with
 * {tmpdir} replaced by start_dir (a fresh 0700 directory of this start, under the run's temp dir)
 * and {root} by root.  Valid until the next call.  NULL when p is NULL or has no env lines. */
char **compositor_profile_env(const struct compositor_profile *p, const char *root, const char *start_dir);

/* Every blank-separated program of `binary` is installed (a path, or found in PATH). */
bool profile_binary_installed(const char *binary);

/* --list-wms: one line per compositors/NAME.conf: name, installed or not, composites, ready,
 * command.  Returns 0, or 2 when a file is malformed (each one reported on stderr). */
int compositor_profile_list(const char *root, FILE *out);

#endif
