#include "discovery.h"
#include "catalog.h"
#include "featureset.h"
#include "probe.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct paths {
    char **v;
    int n;
};

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && !strcmp(s + n - m, suffix);
}

/* Every case and probe file under dir (not following symbolic links). */
static int walk(const char *dir, struct paths *out)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) < 0)
            continue;
        if (S_ISDIR(st.st_mode))
            walk(path, out);
        else if (S_ISREG(st.st_mode) && (ends_with(path, ".case") || ends_with(path, ".probe"))) {
            out->v = realloc(out->v, (size_t)(out->n + 1) * sizeof *out->v);
            out->v[out->n++] = strdup(path);
        }
    }
    closedir(d);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool on_side(const char *path, const char *dir, enum side side)
{
    char prefix[PATH_MAX + 16];
    snprintf(prefix, sizeof prefix, "%s/client/", dir);
    bool client_case = !strncmp(path, prefix, strlen(prefix));
    return side == SIDE_BOTH || (side == SIDE_CLIENT) == client_case;
}

static struct testcase *parse_one(const char *path, clause_known_fn known, int *bad)
{
    char err[1024];
    struct testcase *tc = case_parse_file(path, known, err, sizeof err);
    if (!tc) {
        fprintf(stderr, "framesync: %s\n", err);
        (*bad)++;
    }
    return tc;
}

/* The probes first: their features are the names the cases' `require` lines may use. */
static void load_probes(struct case_set *set, const struct paths *found, const char *dir, enum side side, int *bad)
{
    for (int i = 0; i < found->n; i++) {
        if (!ends_with(found->v[i], ".probe") || !on_side(found->v[i], dir, side))
            continue;
        struct testcase *tc = parse_one(found->v[i], NULL, bad);
        if (!tc)
            continue;
        features_register_probe(tc->feature);
        set->probes[set->nprobes++] = tc;
    }
    char err[1024];
    if (probes_order(set->probes, set->nprobes, err, sizeof err) < 0) {
        fprintf(stderr, "framesync: %s\n", err);
        (*bad)++;
    }
    case_set_feature_check(features_known);
    for (int i = 0; i < set->nprobes; i++) /* a probe's own `require` lines name features too */
        case_free(parse_one(set->probes[i]->path, NULL, bad));
}

static void load_cases(struct case_set *set, const struct paths *found, const char *dir, enum side side, int *bad)
{
    for (int i = 0; i < found->n; i++) {
        if (!ends_with(found->v[i], ".case") || !on_side(found->v[i], dir, side))
            continue;
        struct testcase *tc = parse_one(found->v[i], catalog_current_knows, bad);
        for (int j = 0; tc && j < set->ncases; j++)
            if (!strcmp(set->cases[j]->id, tc->id)) {
                fprintf(stderr, "framesync: %s:1: case id `%s` is also used by %s\n", tc->path, tc->id,
                        set->cases[j]->path);
                (*bad)++;
            }
        if (tc)
            set->cases[set->ncases++] = tc; /* its `vary:` variants follow it (case_variant) */
    }
}

int case_set_load(struct case_set *set, const char *dir, enum side side)
{
    memset(set, 0, sizeof *set);
    struct paths found = {0};
    if (walk(dir, &found) < 0) {
        fprintf(stderr, "framesync: cannot read the case folder %s: %s\n", dir, strerror(errno));
        return -1;
    }
    qsort(found.v, (size_t)found.n, sizeof *found.v, cmp_str);
    set->cases = calloc((size_t)found.n + 1, sizeof *set->cases);
    set->probes = calloc((size_t)found.n + 1, sizeof *set->probes);
    int bad = 0;
    load_probes(set, &found, dir, side, &bad);
    load_cases(set, &found, dir, side, &bad);
    for (int i = 0; i < found.n; i++)
        free(found.v[i]);
    free(found.v);
    return bad ? -1 : 0;
}

const struct testcase *case_for_profile(const struct testcase *tc, enum profile p)
{
    for (; tc; tc = tc->next_variant)
        if (tc->profiles & (unsigned)p)
            return tc;
    return NULL;
}

void case_set_free(struct case_set *set)
{
    for (int i = 0; i < set->ncases; i++)
        case_free(set->cases[i]);
    for (int i = 0; i < set->nprobes; i++)
        case_free(set->probes[i]);
    free(set->cases);
    free(set->probes);
    memset(set, 0, sizeof *set);
}
