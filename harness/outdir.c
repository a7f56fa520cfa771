#include "outdir.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    return type == FTW_DP ? rmdir(path) : unlink(path);
}

void remove_tree(const char *path)
{
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int mkdir_p(const char *path, mode_t mode)
{
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(tmp, mode) < 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(tmp, mode) < 0 && errno != EEXIST ? -1 : 0;
}

void case_log_prefix(const char *out, const struct testcase *tc, enum profile p, char *buf, size_t len)
{
    char id[256];
    snprintf(id, sizeof id, "%s", tc->id);
    for (char *c = id; *c; c++)
        if (*c == '/')
            *c = '-';
    snprintf(buf, len, "%s/logs/%s/%s", out, profile_name(p), id);
}

int outdir_prepare(const char *out)
{
    char path[PATH_MAX + 64];
    if (mkdir_p(out, 0755) < 0) {
        fprintf(stderr, "framesync: cannot create the output folder %s: %s\n", out, strerror(errno));
        return -1;
    }
    snprintf(path, sizeof path, "%s/logs", out);
    remove_tree(path); /* results and logs of this run only */
    for (int p = PROFILE_FIRST; p <= PROFILE_LAST; p <<= 1) {
        snprintf(path, sizeof path, "%s/logs/%s", out, profile_name((enum profile)p));
        mkdir_p(path, 0755);
    }
    return 0;
}
