#include "compositor-profile.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *trim(char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    return s;
}

static int fail(char *err, size_t len, const char *path, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int fail(char *err, size_t len, const char *path, int line, const char *fmt, ...)
{
    int o = snprintf(err, len, "%s:%d: ", path, line);
    va_list ap;
    va_start(ap, fmt);
    if (o >= 0 && (size_t)o < len)
        vsnprintf(err + o, len - (size_t)o, fmt, ap);
    va_end(ap);
    return -1;
}

/* The programs a command runs: the first word after exec, dbus-run-session [options] --, env and
 * its NAME=VALUE words. */
static void derive_binary(const char *command, char *out, size_t len)
{
    char copy[2048], *save = NULL;
    snprintf(copy, sizeof copy, "%s", command);
    bool in_dbus = false;
    out[0] = 0;
    for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (in_dbus) {
            if (!strcmp(w, "--"))
                in_dbus = false;
            continue;
        }
        if (!strcmp(w, "exec") || !strcmp(w, "env") || strchr(w, '='))
            continue;
        if (!strcmp(w, "dbus-run-session")) {
            in_dbus = true;
            continue;
        }
        snprintf(out, len, "%s", w);
        return;
    }
}

static bool valid_env(const char *v)
{
    const char *eq = strchr(v, '=');
    if (!eq || eq == v)
        return false;
    for (const char *c = v; c < eq; c++)
        if (!isalnum((unsigned char)*c) && *c != '_')
            return false;
    return !isdigit((unsigned char)v[0]);
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
    FILE *f = fopen(path, "re");
    if (!f)
        return fail(err, errlen, path, 0, "cannot read: %s", strerror(errno));
    char line[4096];
    int lineno = 0, rc = 0, seen_composites = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t n = strlen(line);
        if (n && line[n - 1] != '\n' && !feof(f)) {
            rc = fail(err, errlen, path, lineno, "line longer than %zu characters", sizeof line - 2);
            break;
        }
        char *s = trim(line);
        if (!*s || *s == '#')
            continue;
        char *colon = strchr(s, ':');
        if (!colon || colon == s) {
            rc = fail(err, errlen, path, lineno, "expected `key: value`, got `%s`", s);
            break;
        }
        *colon = 0;
        char *key = trim(s), *value = trim(colon + 1);
        for (char *k = key; *k; k++)
            if (!islower((unsigned char)*k) && *k != '-' && *k != '_') {
                rc = fail(err, errlen, path, lineno, "expected `key: value`, got `%s:%s`", key, value);
                goto out;
            }
        if (!*value) {
            rc = fail(err, errlen, path, lineno, "`%s:` needs a value", key);
            break;
        }
        if (!strcmp(key, "command")) {
            if (p->command[0]) {
                rc = fail(err, errlen, path, lineno, "a second `command:` (one is allowed)");
                break;
            }
            snprintf(p->command, sizeof p->command, "%s", value);
        } else if (!strcmp(key, "env")) {
            if (!valid_env(value)) {
                rc = fail(err, errlen, path, lineno, "`env:` takes NAME=VALUE, got `%s`", value);
                break;
            }
            if (p->nenv == CP_MAX_ENV) {
                rc = fail(err, errlen, path, lineno, "more than %d `env:` lines", CP_MAX_ENV);
                break;
            }
            p->env[p->nenv++] = strdup(value);
        } else if (!strcmp(key, "ready")) {
            if (p->ready[0]) {
                rc = fail(err, errlen, path, lineno, "a second `ready:` (one is allowed)");
                break;
            }
            if (strcmp(value, "wm") && strcmp(value, "cm") && strcmp(value, "wm+cm") && strcmp(value, "auto")) {
                rc = fail(err, errlen, path, lineno, "`ready:` takes wm, cm, wm+cm or auto, not `%s`", value);
                break;
            }
            snprintf(p->ready, sizeof p->ready, "%s", value);
        } else if (!strcmp(key, "composites")) {
            if (seen_composites++) {
                rc = fail(err, errlen, path, lineno, "a second `composites:` (one is allowed)");
                break;
            }
            if (strcmp(value, "yes") && strcmp(value, "no")) {
                rc = fail(err, errlen, path, lineno, "`composites:` takes yes or no, not `%s`", value);
                break;
            }
            p->composites = !strcmp(value, "yes");
        } else if (!strcmp(key, "resize-trigger")) {
            if (p->resize_trigger[0]) {
                rc = fail(err, errlen, path, lineno, "a second `resize-trigger:` (one is allowed)");
                break;
            }
            if (strcmp(value, "configure") && strcmp(value, "keyboard") && strcmp(value, "pointer") &&
                strcmp(value, "map")) {
                rc = fail(err, errlen, path, lineno, "`resize-trigger:` takes configure, keyboard, pointer or map, not `%s`",
                          value);
                break;
            }
            snprintf(p->resize_trigger, sizeof p->resize_trigger, "%s", value);
        } else if (!strcmp(key, "packages")) {
            snprintf(p->packages, sizeof p->packages, "%s", value);
        } else if (!strcmp(key, "binary")) {
            snprintf(p->binary, sizeof p->binary, "%s", value);
        } else if (!strcmp(key, "notes")) {
            size_t o = strlen(p->notes);
            snprintf(p->notes + o, sizeof p->notes - o, "%s%s", o ? " " : "", value);
        } else {
            rc = fail(err, errlen, path, lineno,
                      "unknown key `%s:` (expected command, env, ready, composites, resize-trigger, packages, binary or notes)",
                      key);
            break;
        }
    }
out:
    fclose(f);
    if (rc == 0) {
        if (!p->command[0])
            rc = fail(err, errlen, path, lineno, "no `command:` line");
        else if (!p->ready[0])
            rc = fail(err, errlen, path, lineno, "no `ready:` line (wm, cm or wm+cm)");
        else if (!seen_composites)
            rc = fail(err, errlen, path, lineno, "no `composites:` line (yes or no)");
    }
    if (rc == 0 && !p->binary[0])
        derive_binary(p->command, p->binary, sizeof p->binary);
    if (rc < 0) {
        for (int i = 0; i < p->nenv; i++)
            free(p->env[i]);
        p->nenv = 0;
    }
    return rc;
}

static bool plain_name(const char *s)
{
    if (!*s || *s == '.' || strlen(s) >= 64)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr("_+.-", *s))
            return false;
    return true;
}

int compositor_profile_lookup(const char *root, const char *wm, struct compositor_profile *p)
{
    if (!plain_name(wm))
        return 0;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/compositors/%s.conf", root, wm);
    if (access(path, F_OK) < 0)
        return 0;
    char err[2048];
    if (compositor_profile_parse(path, p, err, sizeof err) < 0) {
        fprintf(stderr, "framesync: %s\n", err);
        return -1;
    }
    return 1;
}

static void substitute(const char *tmpl, const char *key, const char *value, char *out, size_t len)
{
    size_t o = 0, klen = strlen(key);
    for (const char *c = tmpl; *c && o + 1 < len;) {
        if (!strncmp(c, key, klen)) {
            o += (size_t)snprintf(out + o, len - o, "%s", value);
            if (o >= len)
                o = len - 1;
            c += klen;
        } else
            out[o++] = *c++;
    }
    out[o] = 0;
}

char **compositor_profile_env(const struct compositor_profile *p, const char *root, const char *run_tmp)
{
    static char *env[CP_MAX_ENV + 1];
    for (int i = 0; env[i]; i++) {
        free(env[i]);
        env[i] = NULL;
    }
    if (!p || !p->nenv)
        return NULL;
    char tmpdir[PATH_MAX] = "";
    for (int i = 0; i < p->nenv; i++) {
        if (strstr(p->env[i], "{tmpdir}") && !tmpdir[0]) {
            snprintf(tmpdir, sizeof tmpdir, "%s/wm-XXXXXX", run_tmp);
            if (!mkdtemp(tmpdir)) /* 0700 */
                fprintf(stderr, "framesync: cannot create %s: %s\n", tmpdir, strerror(errno));
        }
        char a[4096], b[4096];
        substitute(p->env[i], "{tmpdir}", tmpdir, a, sizeof a);
        substitute(a, "{root}", root, b, sizeof b);
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

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int compositor_profile_list(const char *root, FILE *out)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/compositors", root);
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "framesync: cannot read %s: %s\n", dir, strerror(errno));
        return 2;
    }
    char *names[256];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 256) {
        size_t len = strlen(e->d_name);
        if (len > 5 && !strcmp(e->d_name + len - 5, ".conf") && e->d_name[0] != '.')
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_name);
    int bad = 0;
    fprintf(out, "%-16s %-9s %-10s %-6s %s\n", "name", "installed", "composites", "ready", "command");
    for (int i = 0; i < n; i++) {
        char path[PATH_MAX + 300], err[2048];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct compositor_profile p;
        if (compositor_profile_parse(path, &p, err, sizeof err) < 0) {
            fprintf(stderr, "framesync: %s\n", err);
            bad++;
        } else {
            fprintf(out, "%-16s %-9s %-10s %-6s %s\n", p.name, profile_binary_installed(p.binary) ? "yes" : "no",
                    p.composites ? "yes" : "no", p.ready, p.command);
            for (int k = 0; k < p.nenv; k++)
                free(p.env[k]);
        }
        free(names[i]);
    }
    return bad ? 2 : 0;
}
