#include "client-profile.h"
#include "compositor-profile.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <unistd.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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

/* The program a command runs: its first word that is not env, exec or NAME=VALUE. */
static void first_program(const char *command, char *out, size_t len)
{
    char copy[2048], *save = NULL;
    snprintf(copy, sizeof copy, "%s", command);
    out[0] = 0;
    for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
        if (strcmp(w, "exec") && strcmp(w, "env") && !strchr(w, '=')) {
            snprintf(out, len, "%s", w);
            return;
        }
}

static int parse_line(struct client_profile *p, char *key, char *val, int *ncommand, const char *path, int ln,
                      char *err, size_t errlen)
{
    if (!strcmp(key, "command")) {
        if ((*ncommand)++)
            return fail(err, errlen, path, ln, "`command:` given twice (exactly one)");
        snprintf(p->command, sizeof p->command, "%s", val);
    } else if (!strcmp(key, "env")) {
        char *eq = strchr(val, '=');
        if (!eq || eq == val || p->nenv == CLP_MAX_ENV)
            return fail(err, errlen, path, ln, "expected `env: NAME=VALUE` (at most %d)", CLP_MAX_ENV);
        p->env[p->nenv++] = strdup(val);
    } else if (!strcmp(key, "packages")) {
        snprintf(p->packages, sizeof p->packages, "%s", val);
    } else if (!strcmp(key, "binary")) {
        snprintf(p->binary, sizeof p->binary, "%s", val);
    } else if (!strcmp(key, "animates")) {
        snprintf(p->animates, sizeof p->animates, "%s", val);
    } else if (strcmp(key, "notes")) {
        return fail(err, errlen, path, ln,
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
    FILE *f = fopen(path, "re");
    if (!f)
        return fail(err, errlen, path, 0, "cannot read: %s", strerror(errno));
    char line[4096];
    int ln = 0, ncommand = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        ln++;
        char *s = trim(line);
        if (!*s || *s == '#')
            continue;
        char *colon = strchr(s, ':');
        if (!colon || colon == s) {
            rc = fail(err, errlen, path, ln, "expected `key: value`");
            break;
        }
        *colon = 0;
        rc = parse_line(p, trim(s), trim(colon + 1), &ncommand, path, ln, err, errlen);
    }
    fclose(f);
    if (rc == 0 && ncommand != 1)
        rc = fail(err, errlen, path, ln, "expected one `command:` line");
    if (rc == 0 && !p->binary[0])
        first_program(p->command, p->binary, sizeof p->binary);
    if (rc < 0)
        client_profile_free(p);
    return rc;
}

static bool plain_word(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr("_+.-", *s))
            return false;
    return true;
}

int client_profile_lookup(const char *root, const char *name, struct client_profile *p)
{
    char path[PATH_MAX + 128];
    snprintf(path, sizeof path, "%s/clients/%s.conf", root, name);
    if (!plain_word(name) || access(path, R_OK) < 0)
        return 0;
    char err[2048];
    if (client_profile_parse(path, p, err, sizeof err) < 0) {
        fprintf(stderr, "framesync: %s\n", err);
        return -1;
    }
    return 1;
}

static void expand(const char *tmpl, const char *root, const char *tmpdir, char *out, size_t len)
{
    size_t o = 0;
    for (const char *c = tmpl; *c && o + 1 < len;) {
        const char *with = !strncmp(c, "{root}", 6) ? root : !strncmp(c, "{tmpdir}", 8) ? tmpdir : NULL;
        if (with) {
            o += (size_t)snprintf(out + o, len - o, "%s", with);
            c += c[1] == 'r' ? 6 : 8;
        } else {
            out[o++] = *c++;
        }
    }
    out[o < len ? o : len - 1] = 0;
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

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int client_profile_list(const char *root, FILE *out)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/clients", root);
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "framesync: cannot read %s: %s\n", dir, strerror(errno));
        return 2;
    }
    char *names[256];
    int n = 0, bad = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 256) {
        size_t len = strlen(e->d_name);
        if (len > 5 && !strcmp(e->d_name + len - 5, ".conf") && e->d_name[0] != '.')
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_name);
    fprintf(out, "%-12s %-9s %s\n", "name", "installed", "command");
    for (int i = 0; i < n; i++) {
        char path[PATH_MAX + 300], err[2048];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct client_profile p;
        if (client_profile_parse(path, &p, err, sizeof err) < 0) {
            fprintf(stderr, "framesync: %s\n", err);
            bad++;
        } else {
            fprintf(out, "%-12s %-9s %s\n", p.name, profile_binary_installed(p.binary) ? "yes" : "no", p.command);
            client_profile_free(&p);
        }
        free(names[i]);
    }
    return bad ? 2 : 0;
}
