#include "client-profile.h"
#include "compositor-profile.h"
#include "conffile.h"

#include <unistd.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* One `key: value` line of a client profile (conf_read has checked its shape). */
static int parse_key(void *ctx, const char *key, const char *val, const char *path, int ln, char *err,
                     size_t errlen)
{
    struct client_profile *p = ctx;
    if (!strcmp(key, "command")) {
        if (p->command[0])
            return conf_fail(err, errlen, path, ln, "`command:` given twice (exactly one)");
        snprintf(p->command, sizeof p->command, "%s", val);
    } else if (!strcmp(key, "env")) {
        if (!conf_valid_env(val) || p->nenv == CLP_MAX_ENV)
            return conf_fail(err, errlen, path, ln, "expected `env: NAME=VALUE` (at most %d)", CLP_MAX_ENV);
        p->env[p->nenv++] = strdup(val);
    } else if (!strcmp(key, "packages")) {
        snprintf(p->packages, sizeof p->packages, "%s", val);
    } else if (!strcmp(key, "binary")) {
        snprintf(p->binary, sizeof p->binary, "%s", val);
    } else if (!strcmp(key, "animates")) {
        /* `animates: forever|once|no [how]`: the client states its command reaches (a command that
         * animates forever is never idle, one that does not animate never animating) */
        size_t n = strcspn(val, " \t");
        if (!((n == 7 && !strncmp(val, "forever", 7)) || (n == 4 && !strncmp(val, "once", 4)) ||
              (n == 2 && !strncmp(val, "no", 2))))
            return conf_fail(err, errlen, path, ln, "expected `animates: forever|once|no [how]`");
        snprintf(p->animates, sizeof p->animates, "%s", val);
        snprintf(p->animates_word, sizeof p->animates_word, "%.*s", (int)n, val);
    } else if (strcmp(key, "notes")) {
        return conf_fail(err, errlen, path, ln,
                         "unknown key `%s` (expected command, env, packages, binary, animates or notes)", key);
    }
    return 0;
}

int client_profile_parse(const char *path, struct client_profile *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    snprintf(p->path, sizeof p->path, "%s", path);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    snprintf(p->name, sizeof p->name, "%.*s", (int)strcspn(base, "."), base);
    int ln = 0;
    int rc = conf_read(path, parse_key, p, &ln, err, errlen);
    if (rc == 0 && !p->command[0])
        rc = conf_fail(err, errlen, path, ln, "expected one `command:` line");
    if (rc == 0 && !p->binary[0])
        conf_derive_binary(p->command, p->binary, sizeof p->binary);
    if (rc < 0)
        client_profile_free(p);
    return rc;
}

/* `binary:` may name a program of the suite's own (clients/glfw-demo, built by the Makefile only
 * where its library's dev package is installed): {root} there is the framesync folder too. */
static void expand_binary_root(struct client_profile *p, const char *root)
{
    char expanded[sizeof p->binary];
    conf_substitute(p->binary, "{root}", root, expanded, sizeof expanded);
    snprintf(p->binary, sizeof p->binary, "%s", expanded);
}

int client_profile_lookup(const char *root, const char *name, struct client_profile *p)
{
    char path[PATH_MAX + 128];
    snprintf(path, sizeof path, "%s/clients/%s.conf", root, name);
    if (!conf_plain_name(name) || access(path, R_OK) < 0)
        return 0;
    char err[2048];
    if (client_profile_parse(path, p, err, sizeof err) < 0) {
        fprintf(stderr, "framesync: %s\n", err);
        return -1;
    }
    expand_binary_root(p, root);
    return 1;
}

static void expand(const char *tmpl, const char *root, const char *tmpdir, char *out, size_t len)
{
    char with_root[4096];
    conf_substitute(tmpl, "{root}", root, with_root, sizeof with_root);
    conf_substitute(with_root, "{tmpdir}", tmpdir, out, len);
}

void client_profile_setenv(const struct client_profile *p, const char *root, const char *tmpdir)
{
    for (int i = 0; i < p->nenv; i++) {
        char v[4096];
        expand(p->env[i], root, tmpdir, v, sizeof v);
        char *eq = strchr(v, '=');
        *eq = 0;
        setenv(v, eq + 1, 1);
    }
}

void client_profile_command(const struct client_profile *p, const char *root, const char *tmpdir, char *out,
                            size_t len)
{
    expand(p->command, root, tmpdir, out, len);
}

void client_profile_free(struct client_profile *p)
{
    for (int i = 0; i < p->nenv; i++)
        free(p->env[i]);
    p->nenv = 0;
}

int client_profile_list(const char *root, FILE *out)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/clients", root);
    char **paths;
    int n = conf_list_dir(dir, &paths);
    if (n < 0)
        return 2;
    int bad = 0, width = 4; /* the name column fits the longest name (NAME.conf) */
    for (int i = 0; i < n; i++) {
        const char *base = strrchr(paths[i], '/');
        int len = (int)strlen(base ? base + 1 : paths[i]) - 5;
        width = len > width ? len : width;
    }
    fprintf(out, "%-*s %-9s %s\n", width, "name", "installed", "command");
    for (int i = 0; i < n; i++) {
        char err[2048];
        struct client_profile p;
        if (client_profile_parse(paths[i], &p, err, sizeof err) < 0) {
            fprintf(stderr, "framesync: %s\n", err);
            bad++;
        } else {
            expand_binary_root(&p, root);
            fprintf(out, "%-*s %-9s %s\n", width, p.name, profile_binary_installed(p.binary) ? "yes" : "no", p.command);
            client_profile_free(&p);
        }
        free(paths[i]);
    }
    free(paths);
    return bad ? 2 : 0;
}
