#include "cli.h"

#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>
#include "compositor-profile.h"
#include "compositor.h"

void cli_root(char *root, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    snprintf(root, len, "%s", dirname(dirname(exe)));
}

int cli_ready(const char *prog, const char *arg, const char **out)
{
    enum ready_kind k;
    if (parse_ready_kind(arg, &k) < 0) {
        fprintf(stderr, "%s: --ready takes wm, cm, wm+cm or auto, not `%s`\n", prog, arg);
        return -1;
    }
    *out = arg;
    return 0;
}

int cli_named_wm(const char *root, const char **wm, const char **ready, struct compositor_profile *p)
{
    int named = compositor_profile_lookup(root, *wm, p);
    if (named > 0) {
        *wm = p->command;
        if (!*ready)
            *ready = p->ready;
    }
    return named;
}

int cli_bad_option(const char *prog, char **argv)
{
    if (optopt)
        fprintf(stderr, "%s: option -%c needs a value or is unknown; see --help\n", prog, optopt);
    else
        fprintf(stderr, "%s: unknown option `%s`; see --help\n", prog, argv[optind - 1]);
    return -1;
}

int cli_no_operands(const char *prog, int argc, char **argv)
{
    if (optind < argc) {
        fprintf(stderr, "%s: unexpected argument `%s`; see --help\n", prog, argv[optind]);
        return -1;
    }
    return 0;
}
