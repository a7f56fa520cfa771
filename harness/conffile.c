#include "conffile.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
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

int conf_fail(char *err, size_t len, const char *path, int line, const char *fmt, ...)
{
    int o = snprintf(err, len, "%s:%d: ", path, line);
    va_list ap;
    va_start(ap, fmt);
    if (o >= 0 && (size_t)o < len)
        vsnprintf(err + o, len - (size_t)o, fmt, ap);
    va_end(ap);
    return -1;
}

static bool valid_key(const char *k)
{
    for (; *k; k++)
        if (!islower((unsigned char)*k) && *k != '-' && *k != '_')
            return false;
    return true;
}

/* One line: 0 (blank, comment, or fn took it) or -1. */
static int read_line(char *line, conf_key_fn fn, void *ctx, const char *path, int lineno, char *err, size_t errlen)
{
    char *s = trim(line);
    if (!*s || *s == '#')
        return 0;
    char *colon = strchr(s, ':');
    if (!colon || colon == s)
        return conf_fail(err, errlen, path, lineno, "expected `key: value`, got `%s`", s);
    *colon = 0;
    char *key = trim(s), *value = trim(colon + 1);
    if (!valid_key(key))
        return conf_fail(err, errlen, path, lineno, "expected `key: value`, got `%s:%s`", key, value);
    if (!*value)
        return conf_fail(err, errlen, path, lineno, "`%s:` needs a value", key);
    return fn(ctx, key, value, path, lineno, err, errlen);
}

int conf_read(const char *path, conf_key_fn fn, void *ctx, int *last_line, char *err, size_t errlen)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return conf_fail(err, errlen, path, 0, "cannot read: %s", strerror(errno));
    char line[4096];
    int lineno = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        size_t n = strlen(line);
        if (n && line[n - 1] != '\n' && !feof(f))
            rc = conf_fail(err, errlen, path, lineno, "line longer than %zu characters", sizeof line - 2);
        else
            rc = read_line(line, fn, ctx, path, lineno, err, errlen);
    }
    fclose(f);
    if (last_line)
        *last_line = lineno;
    return rc;
}

bool conf_valid_env(const char *v)
{
    const char *eq = strchr(v, '=');
    if (!eq || eq == v)
        return false;
    for (const char *c = v; c < eq; c++)
        if (!isalnum((unsigned char)*c) && *c != '_')
            return false;
    return !isdigit((unsigned char)v[0]);
}

bool conf_plain_name(const char *s)
{
    if (!*s || *s == '.' || strlen(s) >= 64)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr("_+.-", *s))
            return false;
    return true;
}

void conf_derive_binary(const char *command, char *out, size_t len)
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

void conf_substitute(const char *tmpl, const char *key, const char *value, char *out, size_t len)
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

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

#define CONF_MAX_FILES 256

int conf_list_dir(const char *dir, char ***paths)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "framesync: cannot read %s: %s\n", dir, strerror(errno));
        return -1;
    }
    char **names = calloc(CONF_MAX_FILES, sizeof *names);
    int n = 0;
    struct dirent *e;
    while (names && (e = readdir(d)) && n < CONF_MAX_FILES) {
        size_t len = strlen(e->d_name);
        if (len > 5 && !strcmp(e->d_name + len - 5, ".conf") && e->d_name[0] != '.') {
            char path[PATH_MAX + 300];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            names[n++] = strdup(path);
        }
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_name);
    *paths = names;
    return n;
}
