#include "compositor-profile.h"
#include "conffile.h"
#include "input-barrier.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct parse_state {
    struct compositor_profile *p;
    int seen_composites, seen_barrier;
};

static int one_of(const char *value, const char *const *allowed)
{
    for (; *allowed; allowed++)
        if (!strcmp(value, *allowed))
            return 1;
    return 0;
}

/* A key that may come on several lines: its values, one space between them. */
static void append_words(char *dst, size_t size, const char *value)
{
    size_t o = strlen(dst);
    snprintf(dst + o, size - o, "%s%s", o ? " " : "", value);
}

/* The keys of the helpers that speak to the compositor (screen capture and stream, the input path
 * and its barrier) and of what its run may lack: 0 taken, -1 wrong (err), 1 not one of them. */
static int parse_helper_key(struct parse_state *st, const char *key, const char *value, const char *path,
                            int lineno, char *err, size_t errlen)
{
    struct compositor_profile *p = st->p;
    if (!strcmp(key, "screen-capture")) {
        if (p->screen_capture[0])
            return conf_fail(err, errlen, path, lineno, "a second `screen-capture:` (one is allowed)");
        if (!strstr(value, "{x}") || !strstr(value, "{y}") || !strstr(value, "{w}") || !strstr(value, "{h}"))
            return conf_fail(err, errlen, path, lineno, "`screen-capture:` needs {x}, {y}, {w} and {h} (the region "
                             "its PPM must show)");
        snprintf(p->screen_capture, sizeof p->screen_capture, "%s", value);
    } else if (!strcmp(key, "allow-empty")) {
        append_words(p->allow_empty, sizeof p->allow_empty, value);
    } else if (!strcmp(key, "no-xtest")) {
        append_words(p->no_xtest, sizeof p->no_xtest, value);
    } else if (!strcmp(key, "input") || !strcmp(key, "screen-stream")) { /* input-path.h, stream.h */
        bool input = !strcmp(key, "input");
        char *dst = input ? p->input : p->screen_stream;
        if (dst[0])
            return conf_fail(err, errlen, path, lineno, "a second `%s:` (one is allowed)", key);
        snprintf(dst, input ? sizeof p->input : sizeof p->screen_stream, "%s", value);
    } else if (!strcmp(key, "input-barrier")) { /* common/input-barrier.h */
        if (st->seen_barrier++)
            return conf_fail(err, errlen, path, lineno, "a second `input-barrier:` (one is allowed)");
        if ((p->input_barrier = input_barrier_parse(value)) < 0)
            return conf_fail(err, errlen, path, lineno, "`input-barrier:` takes %s, not `%s`", INPUT_BARRIER_KINDS,
                             value);
    } else {
        return 1;
    }
    return 0;
}

/* One `key: value` line of a compositor profile (conf_read has checked its shape). */
static int parse_key(void *ctx, const char *key, const char *value, const char *path, int lineno, char *err,
                     size_t errlen)
{
    struct parse_state *st = ctx;
    struct compositor_profile *p = st->p;
    int helper = parse_helper_key(st, key, value, path, lineno, err, errlen);
    if (helper <= 0)
        return helper;
    if (!strcmp(key, "command")) {
        if (p->command[0])
            return conf_fail(err, errlen, path, lineno, "a second `command:` (one is allowed)");
        snprintf(p->command, sizeof p->command, "%s", value);
    } else if (!strcmp(key, "replace")) {
        if (p->replace[0])
            return conf_fail(err, errlen, path, lineno, "a second `replace:` (one is allowed)");
        snprintf(p->replace, sizeof p->replace, "%s", value);
    } else if (!strcmp(key, "env")) {
        if (!conf_valid_env(value))
            return conf_fail(err, errlen, path, lineno, "`env:` takes NAME=VALUE, got `%s`", value);
        if (p->nenv == CP_MAX_ENV)
            return conf_fail(err, errlen, path, lineno, "more than %d `env:` lines", CP_MAX_ENV);
        p->env[p->nenv++] = strdup(value);
    } else if (!strcmp(key, "ready")) {
        if (p->ready[0])
            return conf_fail(err, errlen, path, lineno, "a second `ready:` (one is allowed)");
        if (!one_of(value, (const char *const[]){"wm", "cm", "wm+cm", "auto", NULL}))
            return conf_fail(err, errlen, path, lineno, "`ready:` takes wm, cm, wm+cm or auto, not `%s`", value);
        snprintf(p->ready, sizeof p->ready, "%s", value);
    } else if (!strcmp(key, "composites")) {
        if (st->seen_composites++)
            return conf_fail(err, errlen, path, lineno, "a second `composites:` (one is allowed)");
        if (!one_of(value, (const char *const[]){"yes", "no", NULL}))
            return conf_fail(err, errlen, path, lineno, "`composites:` takes yes or no, not `%s`", value);
        p->composites = !strcmp(value, "yes");
    } else if (!strcmp(key, "resize-trigger")) {
        if (p->resize_trigger[0])
            return conf_fail(err, errlen, path, lineno, "a second `resize-trigger:` (one is allowed)");
        if (!one_of(value, (const char *const[]){"configure", "keyboard", "pointer", "map", NULL}))
            return conf_fail(err, errlen, path, lineno,
                             "`resize-trigger:` takes configure, keyboard, pointer or map, not `%s`", value);
        snprintf(p->resize_trigger, sizeof p->resize_trigger, "%s", value);
    } else if (!strcmp(key, "xserver")) {
        if (!one_of(value, (const char *const[]){"xvfb", "own", NULL}))
            return conf_fail(err, errlen, path, lineno, "`xserver:` takes xvfb or own, not `%s`", value);
        p->own_xserver = !strcmp(value, "own");
    } else if (!strcmp(key, "packages")) {
        snprintf(p->packages, sizeof p->packages, "%s", value);
    } else if (!strcmp(key, "binary")) {
        snprintf(p->binary, sizeof p->binary, "%s", value);
    } else if (!strcmp(key, "pacing")) {
        append_words(p->pacing, sizeof p->pacing, value);
    } else if (!strcmp(key, "notes")) {
        append_words(p->notes, sizeof p->notes, value);
    } else {
        return conf_fail(err, errlen, path, lineno,
                         "unknown key `%s:` (expected command, replace, env, ready, composites, resize-trigger, "
                         "xserver, screen-capture, screen-stream, allow-empty, no-xtest, input, input-barrier, packages, binary, "
                         "pacing or notes)",
                         key);
    }
    return 0;
}

static void free_env(struct compositor_profile *p)
{
    for (int i = 0; i < p->nenv; i++)
        free(p->env[i]);
    p->nenv = 0;
}

int compositor_profile_parse(const char *path, struct compositor_profile *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    snprintf(p->path, sizeof p->path, "%s", path);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    snprintf(p->name, sizeof p->name, "%s", base);
    char *dot = strstr(p->name, ".conf");
    if (dot)
        *dot = 0;
    struct parse_state st = {.p = p};
    int lineno = 0;
    int rc = conf_read(path, parse_key, &st, &lineno, err, errlen);
    if (rc == 0) {
        if (!p->command[0])
            rc = conf_fail(err, errlen, path, lineno, "no `command:` line");
        else if (!p->ready[0])
            rc = conf_fail(err, errlen, path, lineno, "no `ready:` line (wm, cm or wm+cm)");
        else if (!st.seen_composites)
            rc = conf_fail(err, errlen, path, lineno, "no `composites:` line (yes or no)");
    }
    if (rc == 0 && p->own_xserver && !strstr(p->command, "{report}"))
        rc = conf_fail(err, errlen, path, lineno, "`xserver: own` needs `{report}` in `command:` (the command the "
                       "session runs to tell the harness its DISPLAY)");
    if (rc == 0 && p->replace[0] && p->own_xserver)
        rc = conf_fail(err, errlen, path, lineno, "`replace:` is for a compositor on the suite's Xvfb: one that brings "
                       "its own X server takes that server with it when it ends");
    if (rc == 0 && p->screen_capture[0] && !p->own_xserver)
        rc = conf_fail(err, errlen, path, lineno, "`screen-capture:` is for a compositor that brings its own X "
                       "server (`xserver: own`): on the suite's Xvfb the root shows the screen");
    if (rc == 0 && p->screen_stream[0] && !p->own_xserver)
        rc = conf_fail(err, errlen, path, lineno, "`screen-stream:` is for a compositor that brings its own X "
                       "server (`xserver: own`): on the suite's Xvfb the root shows the screen");
    if (rc == 0 && p->input_barrier && !p->input[0])
        rc = conf_fail(err, errlen, path, lineno, "`input-barrier:` orders the events of `input:`, and there is none");
    if (rc == 0 && !p->binary[0])
        conf_derive_binary(p->command, p->binary, sizeof p->binary);
    if (rc < 0)
        free_env(p);
    return rc;
}

/* A conf named by its path (a word with a `/` ending in .conf): one outside compositors/, such as
 * the proofs' in tests/confs/, which --list-wms and the matrix must not pick up. */
static bool conf_path(const char *wm)
{
    size_t n = strlen(wm);
    return strchr(wm, '/') && !strpbrk(wm, " \t") && n > 5 && !strcmp(wm + n - 5, ".conf");
}

int compositor_profile_lookup(const char *root, const char *wm, struct compositor_profile *p)
{
    char path[PATH_MAX];
    if (conf_path(wm)) {
        if (access(wm, R_OK) < 0) {
            fprintf(stderr, "framesync: --wm %s: %s (a path ending in .conf names a compositor's conf)\n", wm,
                    strerror(errno));
            return -1;
        }
        snprintf(path, sizeof path, "%s", wm);
    } else {
        if (!conf_plain_name(wm))
            return 0;
        snprintf(path, sizeof path, "%s/compositors/%s.conf", root, wm);
        if (access(path, F_OK) < 0)
            return 0;
    }
    char err[2048];
    if (compositor_profile_parse(path, p, err, sizeof err) < 0) {
        fprintf(stderr, "framesync: %s\n", err);
        return -1;
    }
    return 1;
}

int compositor_start_dir(const char *run_tmp, char *out, size_t len)
{
    snprintf(out, len, "%s/wm-XXXXXX", run_tmp);
    if (mkdtemp(out)) /* 0700 */
        return 0;
    fprintf(stderr, "framesync: cannot create %s: %s\n", out, strerror(errno));
    return -1;
}

char **compositor_profile_env(const struct compositor_profile *p, const char *root, const char *start_dir)
{
    static char *env[CP_MAX_ENV + 1];
    for (int i = 0; env[i]; i++) {
        free(env[i]);
        env[i] = NULL;
    }
    if (!p || !p->nenv)
        return NULL;
    for (int i = 0; i < p->nenv; i++) {
        char a[4096], b[4096];
        conf_substitute(p->env[i], "{tmpdir}", start_dir, a, sizeof a);
        conf_substitute(a, "{root}", root, b, sizeof b);
        env[i] = strdup(b);
    }
    return env;
}

bool profile_binary_installed(const char *binary)
{
    char copy[256], *save = NULL;
    snprintf(copy, sizeof copy, "%s", binary);
    int n = 0;
    for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save), n++) {
        if (strchr(w, '/')) {
            if (access(w, X_OK) < 0)
                return false;
            continue;
        }
        const char *path = getenv("PATH");
        char dirs[4096], *s2 = NULL;
        snprintf(dirs, sizeof dirs, "%s", path ? path : "/usr/bin:/bin");
        bool found = false;
        for (char *d = strtok_r(dirs, ":", &s2); d && !found; d = strtok_r(NULL, ":", &s2)) {
            char full[PATH_MAX];
            snprintf(full, sizeof full, "%s/%s", *d ? d : ".", w);
            struct stat st;
            found = stat(full, &st) == 0 && S_ISREG(st.st_mode) && access(full, X_OK) == 0;
        }
        if (!found)
            return false;
    }
    return n > 0;
}

int compositor_profile_list(const char *root, FILE *out)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/compositors", root);
    char **paths;
    int n = conf_list_dir(dir, &paths);
    if (n < 0)
        return 2;
    int bad = 0;
    fprintf(out, "%-16s %-9s %-10s %-6s %s\n", "name", "installed", "composites", "ready", "command");
    for (int i = 0; i < n; i++) {
        char err[2048];
        struct compositor_profile p;
        if (compositor_profile_parse(paths[i], &p, err, sizeof err) < 0) {
            fprintf(stderr, "framesync: %s\n", err);
            bad++;
        } else {
            fprintf(out, "%-16s %-9s %-10s %-6s %s\n", p.name, profile_binary_installed(p.binary) ? "yes" : "no",
                    p.composites ? "yes" : "no", p.ready, p.command);
            free_env(&p);
        }
        free(paths[i]);
    }
    free(paths);
    return bad ? 2 : 0;
}
