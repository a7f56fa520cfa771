/* framesync: runs the cases in cases/ against one compositor under test and writes TAP.
 * Usage and the case format: README.md and cases/README.md. */
#include "caselog.h"
#include "client-profile.h"
#include "catalog.h"
#include "caseparse.h"
#include "clock.h"
#include "compositor.h"
#include "grabwatch.h"
#include "compositor-profile.h"
#include "featureset.h"
#include "oracles.h"
#include "probe.h"
#include "proc.h"
#include "results.h"
#include "run.h"
#include "session.h"
#include "tap.h"
#include "xserver.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define EXIT_USAGE 2

struct options {
    char root[PATH_MAX];
    char cases_dir[PATH_MAX];
    char out_dir[PATH_MAX];
    const char *wm;              /* NULL: the reference fake-wm */
    const char *ready;
    unsigned profiles;
    const char *filter;
    bool list;
    bool coverage;
    double timeout_scale;
    int wm_timeout_ms;
    int case_timeout_ms;         /* the per-case watchdog; 0: 120000 x timeout_scale */
    int shard, nshards;          /* run only items k with k % nshards == shard */
    const char *select_path;     /* --select FILE: run only the (case, profile) pairs it lists */
    struct compositor_profile wm_profile; /* --wm NAME: compositors/NAME.conf */
    int wm_named;                /* 1 when --wm named one */
    const char *features_file;   /* --features FILE: the probed table (the runner's probe pass) */
    bool probe_only;             /* --probe: probe the compositor(s), write features.tsv, run no case */
    const char *resize_trigger;  /* --resize-trigger T (or resize-trigger: of the conf) */
    const char *client;          /* --client NAME|CMD: the application under test (client mode) */
    struct client_profile client_profile; /* --client NAME: clients/NAME.conf */
    int client_named;
};

static void usage(FILE *f)
{
    fputs("usage: framesync [options]\n"
          "  --wm CMD            the compositor under test, a shell command line; {profile} is\n"
          "                      replaced by the profile being run (default: the reference\n"
          "                      \"fake-wm/fake-wm --profile {profile}\"); a NAME of\n"
          "                      compositors/NAME.conf runs that compositor (--list-wms)\n"
          "  --list-wms          list the named compositors: installed or not, what they composite\n"
          "  --ready wm|cm|wm+cm|auto  when it is ready: WM_S0 + _NET_SUPPORTING_WM_CHECK (wm),\n"
          "                      _NET_WM_CM_S0 (cm), both, or auto (the default: whichever it\n"
          "                      takes first, then the other if it follows within 1 s)\n"
          "  --resize-trigger T  how `A resize` makes it send sync requests: configure, keyboard,\n"
          "                      pointer or map (default: what the probes find works)\n"
          "  --client CMD        test an application instead of a compositor: the client cases\n"
          "                      (cases/client/) run CMD (a shell command line, or NAME of\n"
          "                      clients/NAME.conf: --list-clients) against the reference\n"
          "                      compositor fake-wm, which resizes and moves it itself\n"
          "  --list-clients      list the named clients: installed or not, command\n"
          "  --probe             probe what the compositor implements (cases/probes/), print the\n"
          "                      feature table, write OUT/features.tsv, run no case\n"
          "  --features FILE     take the feature table from FILE (a --probe run's features.tsv)\n"
          "                      instead of probing\n"
          "  --wm-timeout MS     how long it may take to become ready (default 15000)\n"
          "  --profile P         ewmh-1.5, draft-2011 or de-facto; repeat or comma-separate\n"
          "                      (default: all three)\n"
          "  --filter REGEX      only cases whose id or clause matches (POSIX extended regex)\n"
          "  --list              list the cases with their clauses and profiles, run nothing\n"
          "  --coverage          for every clause of cases/clauses.txt: keyword, the cases that\n"
          "                      check it, covered / untestable; exit 1 if a testable clause has\n"
          "                      no case\n"
          "  --out DIR           where results.tap and logs/ go (default reports/latest)\n"
          "  --cases DIR         where the case files are (default cases/)\n"
          "  --timeout-scale F   multiply every deadline of the cases by F (slow machines)\n"
          "  --case-timeout MS   the watchdog: no case runs longer; one that would is\n"
          "                      UNRESOLVED and the run goes on (default 120000 x F)\n"
          "  --shard K/N         run only the K-th of N interleaved parts of the selection\n"
          "                      (0 <= K < N; the runner's parallel workers use it)\n"
          "  --select FILE       run only the cases FILE lists, one `CASE-ID PROFILE` a line,\n"
          "                      in the canonical order (the runner's --shard I/N uses it)\n"
          "  --help\n"
          "exit status: 0 all passed or skipped, 1 a case failed or was unresolved,\n"
          "             2 usage or input error (bad option, malformed case, no X server)\n",
          f);
}

static int parse_profiles(const char *arg, unsigned *out)
{
    char *copy = strdup(arg), *save = NULL;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int bit = profile_parse(t);
        if (!bit) {
            fprintf(stderr, "framesync: unknown profile `%s` (expected ewmh-1.5, draft-2011 or de-facto)\n", t);
            free(copy);
            return -1;
        }
        *out |= (unsigned)bit;
    }
    free(copy);
    return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
    static const struct option longopts[] = {
        {"wm", required_argument, 0, 'w'},        {"ready", required_argument, 0, 'r'},
        {"wm-timeout", required_argument, 0, 'T'}, {"profile", required_argument, 0, 'p'},
        {"filter", required_argument, 0, 'f'},    {"list", no_argument, 0, 'l'},
        {"out", required_argument, 0, 'o'},       {"cases", required_argument, 0, 'c'},
        {"timeout-scale", required_argument, 0, 's'}, {"help", no_argument, 0, 'h'},
        {"shard", required_argument, 0, 'S'},     {"coverage", no_argument, 0, 'C'},
        {"list-wms", no_argument, 0, 'W'},        {"case-timeout", required_argument, 0, 'K'},
        {"probe", no_argument, 0, 'P'},           {"features", required_argument, 0, 'F'},
        {"resize-trigger", required_argument, 0, 'R'}, {"select", required_argument, 0, 'E'},
        {"client", required_argument, 0, 'A'},    {"list-clients", no_argument, 0, 'L'},
        {0, 0, 0, 0}};
    opterr = 0;
    int ch;
    char *end;
    while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (ch) {
        case 'w': o->wm = optarg; break;
        case 'r': {
            enum ready_kind k;
            if (parse_ready_kind(optarg, &k) < 0) {
                fprintf(stderr, "framesync: --ready takes wm, cm, wm+cm or auto, not `%s`\n", optarg);
                return -1;
            }
            o->ready = optarg;
            break;
        }
        case 'P': o->probe_only = true; break;
        case 'F': o->features_file = optarg; break;
        case 'R':
            if (strcmp(optarg, "configure") && strcmp(optarg, "keyboard") && strcmp(optarg, "pointer") &&
                strcmp(optarg, "map")) {
                fprintf(stderr, "framesync: --resize-trigger takes configure, keyboard, pointer or map, not `%s`\n",
                        optarg);
                return -1;
            }
            o->resize_trigger = optarg;
            break;
        case 'T':
            o->wm_timeout_ms = (int)strtol(optarg, &end, 10);
            if (*end || o->wm_timeout_ms <= 0) {
                fprintf(stderr, "framesync: --wm-timeout takes milliseconds, not `%s`\n", optarg);
                return -1;
            }
            break;
        case 'K':
            o->case_timeout_ms = (int)strtol(optarg, &end, 10);
            if (*end || o->case_timeout_ms <= 0) {
                fprintf(stderr, "framesync: --case-timeout takes milliseconds, not `%s`\n", optarg);
                return -1;
            }
            break;
        case 'p':
            if (parse_profiles(optarg, &o->profiles) < 0)
                return -1;
            break;
        case 'f': o->filter = optarg; break;
        case 'E': o->select_path = optarg; break;
        case 'l': o->list = true; break;
        case 'C': o->coverage = true; break;
        case 'o': snprintf(o->out_dir, sizeof o->out_dir, "%s", optarg); break;
        case 'c': snprintf(o->cases_dir, sizeof o->cases_dir, "%s", optarg); break;
        case 's':
            o->timeout_scale = strtod(optarg, &end);
            if (*end || o->timeout_scale < 0.1 || o->timeout_scale > 100) {
                fprintf(stderr, "framesync: --timeout-scale takes a factor from 0.1 to 100, not `%s`\n", optarg);
                return -1;
            }
            break;
        case 'S':
            if (sscanf(optarg, "%d/%d", &o->shard, &o->nshards) != 2 || o->nshards < 1 ||
                o->shard < 0 || o->shard >= o->nshards) {
                fprintf(stderr, "framesync: --shard takes K/N with 0 <= K < N, not `%s`\n", optarg);
                return -1;
            }
            break;
        case 'h': usage(stdout); exit(0);
        case 'W': exit(compositor_profile_list(o->root, stdout));
        case 'L': exit(client_profile_list(o->root, stdout));
        case 'A': o->client = optarg; break;
        default:
            if (optopt)
                fprintf(stderr, "framesync: option -%c needs a value or is unknown; see --help\n", optopt);
            else
                fprintf(stderr, "framesync: unknown option `%s`; see --help\n", argv[optind - 1]);
            return -1;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "framesync: unexpected argument `%s`; see --help\n", argv[optind]);
        return -1;
    }
    if (o->wm && (o->wm_named = compositor_profile_lookup(o->root, o->wm, &o->wm_profile)) < 0)
        return -1;
    if (o->client && o->wm) {
        fprintf(stderr, "framesync: --client tests an application against the reference compositor: "
                        "it does not take --wm\n");
        return -1;
    }
    if (o->client && (o->client_named = client_profile_lookup(o->root, o->client, &o->client_profile)) < 0)
        return -1;
    if (o->wm_named) {
        o->wm = o->wm_profile.command;
        if (!o->ready)
            o->ready = o->wm_profile.ready;
        if (!o->resize_trigger && o->wm_profile.resize_trigger[0])
            o->resize_trigger = o->wm_profile.resize_trigger;
    }
    return 0;
}

/* ---- case discovery ---- */

static char **found_paths;
static int nfound;
/* A run tests one side: the compositor (every case but cases/client/) or, with --client, the
 * application (only cases/client/); --list follows the run's side, --coverage sees both. */
enum side { SIDE_BOTH, SIDE_COMPOSITOR, SIDE_CLIENT };
static enum side run_side = SIDE_BOTH;

static bool on_run_side(const char *path, const char *dir)
{
    char prefix[PATH_MAX + 16];
    snprintf(prefix, sizeof prefix, "%s/client/", dir);
    bool client_case = !strncmp(path, prefix, strlen(prefix));
    return run_side == SIDE_BOTH || (run_side == SIDE_CLIENT) == client_case;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && !strcmp(s + n - m, suffix);
}

static int collect(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (type == FTW_F && (ends_with(path, ".case") || ends_with(path, ".probe"))) {
        found_paths = realloc(found_paths, (size_t)(nfound + 1) * sizeof *found_paths);
        found_paths[nfound++] = strdup(path);
    }
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Parses every probe, then every case (whose `require` lines name the probes' features);
 * reports every malformed file, not just the first. */
static int load_cases(const char *dir, struct testcase ***out, struct testcase ***probes_out, int *nprobes)
{
    if (nftw(dir, collect, 16, FTW_PHYS) < 0) {
        fprintf(stderr, "framesync: cannot read the case folder %s: %s\n", dir, strerror(errno));
        return -1;
    }
    qsort(found_paths, (size_t)nfound, sizeof *found_paths, cmp_str);
    struct testcase **cases = calloc((size_t)nfound + 1, sizeof *cases);
    struct testcase **probes = calloc((size_t)nfound + 1, sizeof *probes);
    int bad = 0, n = 0, np = 0;
    for (int i = 0; i < nfound; i++) {
        if (!ends_with(found_paths[i], ".probe") || !on_run_side(found_paths[i], dir))
            continue;
        char err[1024];
        struct testcase *tc = case_parse_file(found_paths[i], NULL, err, sizeof err);
        if (!tc) {
            fprintf(stderr, "framesync: %s\n", err);
            bad++;
            continue;
        }
        features_register_probe(tc->feature);
        probes[np++] = tc;
    }
    char err[1024];
    if (probes_order(probes, np, err, sizeof err) < 0) {
        fprintf(stderr, "framesync: %s\n", err);
        bad++;
    }
    case_set_feature_check(features_known);
    for (int i = 0; i < np; i++) { /* a probe's own `require` lines name features too */
        struct testcase *again = case_parse_file(probes[i]->path, NULL, err, sizeof err);
        if (!again) {
            fprintf(stderr, "framesync: %s\n", err);
            bad++;
        }
        case_free(again);
    }
    *probes_out = probes;
    *nprobes = np;
    for (int i = 0; i < nfound; i++) {
        if (!ends_with(found_paths[i], ".case") || !on_run_side(found_paths[i], dir))
            continue;
        struct testcase *tc = case_parse_file(found_paths[i], catalog_current_knows, err, sizeof err);
        if (!tc) {
            fprintf(stderr, "framesync: %s\n", err);
            bad++;
            continue;
        }
        for (int j = 0; j < n; j++)
            if (!strcmp(cases[j]->id, tc->id)) {
                fprintf(stderr, "framesync: %s:1: case id `%s` is also used by %s\n", tc->path, tc->id,
                        cases[j]->path);
                bad++;
            }
        cases[n++] = tc;
    }
    *out = cases;
    return bad ? -1 : n;
}

/* --select FILE: the (case, profile) pairs to run; NULL ids: no --select. */
static struct {
    char **ids;
    unsigned *profiles;
    int n;
} select_list;

/* Reads --select FILE (`CASE-ID PROFILE` a line, # comments) and checks every line against the
 * cases found; every bad line is reported as FILE:LINE: what was expected. */
static int load_select(const char *path, struct testcase **cases, int ncases)
{
    FILE *f = fopen(path, "re");
    if (!f) {
        fprintf(stderr, "framesync: cannot read --select %s: %s\n", path, strerror(errno));
        return -1;
    }
    char line[1024];
    int lineno = 0, bad = 0;
    select_list.ids = calloc(1, sizeof *select_list.ids);
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char id[512], prof[64], extra[8];
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        int words = sscanf(line, "%511s %63s %7s", id, prof, extra);
        if (words <= 0)
            continue;
        int bit = words == 2 ? profile_parse(prof) : 0;
        const struct testcase *tc = NULL;
        for (int i = 0; bit && i < ncases && !tc; i++)
            if (!strcmp(cases[i]->id, id))
                tc = cases[i];
        if (words != 2 || !bit) {
            fprintf(stderr, "framesync: %s:%d: expected `CASE-ID PROFILE` (profile ewmh-1.5, draft-2011 or de-facto)\n",
                    path, lineno);
            bad++;
        } else if (!tc) {
            fprintf(stderr, "framesync: %s:%d: no case `%s` in the case folder\n", path, lineno, id);
            bad++;
        } else if (!(tc->profiles & (unsigned)bit)) {
            fprintf(stderr, "framesync: %s:%d: case `%s` does not belong to profile %s\n", path, lineno, id, prof);
            bad++;
        } else {
            select_list.ids = realloc(select_list.ids, (size_t)(select_list.n + 1) * sizeof *select_list.ids);
            select_list.profiles = realloc(select_list.profiles, (size_t)(select_list.n + 1) * sizeof *select_list.profiles);
            select_list.ids[select_list.n] = strdup(id);
            select_list.profiles[select_list.n++] = (unsigned)bit;
        }
    }
    fclose(f);
    return bad ? -1 : 0;
}

static bool in_select_list(const struct testcase *tc, int p)
{
    if (!select_list.ids)
        return true;
    for (int i = 0; i < select_list.n; i++)
        if (select_list.profiles[i] == (unsigned)p && !strcmp(select_list.ids[i], tc->id))
            return true;
    return false;
}

static bool selected(const struct testcase *tc, regex_t *re)
{
    if (!re)
        return true;
    if (regexec(re, tc->id, 0, NULL, 0) == 0)
        return true;
    for (int i = 0; i < tc->nclauses; i++)
        if (regexec(re, tc->clauses[i], 0, NULL, 0) == 0)
            return true;
    return false;
}

/* ---- output folder ---- */

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    return type == FTW_DP ? rmdir(path) : unlink(path);
}

static void remove_tree(const char *path)
{
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int mkdir_p(const char *path, mode_t mode)
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

static void case_log_prefix(const char *out, const struct testcase *tc, enum profile p, char *buf, size_t len)
{
    char id[256];
    snprintf(id, sizeof id, "%s", tc->id);
    for (char *c = id; *c; c++)
        if (*c == '/')
            *c = '-';
    snprintf(buf, len, "%s/logs/%s/%s", out, profile_name(p), id);
}

/* ---- the run ---- */

struct runner {
    struct options *o;
    struct catalog cat;
    struct xserver x;
    struct compositor wm;
    bool wm_running;
    char wm_failed_command[2048];   /* a command that did not start: its cases fail at once */
    char wm_failed_reason[3000];
    struct tap tap;
    FILE *tap_file;
    char client_binary[PATH_MAX];
    char watch_binary[PATH_MAX];
    char tmp_dir[PATH_MAX];
    char wm_log[PATH_MAX];
    struct oracle *oracles[MAX_ORACLES];
    int noracles;
    struct results *results;
    struct testcase **probes;       /* cases/probes/NAME.probe, in the order they must run */
    int nprobes;
    struct features known[4];       /* the feature table of each compositor command of the run */
    int nknown;
    struct features *features;      /* the running compositor's */
};

static struct run_env make_env(struct runner *r)
{
    struct options *o = r->o;
    return (struct run_env){.x = &r->x, .wm = &r->wm, .client_binary = r->client_binary,
                            .watch_binary = r->watch_binary,
                            .timeout_scale = o->timeout_scale, .oracles = r->oracles, .noracles = r->noracles,
                            .case_timeout_ms = o->case_timeout_ms ? o->case_timeout_ms : (int)(120000 * o->timeout_scale),
                            .features = r->features};
}

static void tap_line(void *ctx, const char *text)
{
    tap_comment(ctx, "%s", text);
}

/* The feature table of the running compositor: from an earlier start of the same command, from
 * --features, or probed now (its logs under logs/probes/PROFILE/). */
static void find_features(struct runner *r, enum profile p)
{
    for (int i = 0; i < r->nknown; i++)
        if (!strcmp(r->known[i].command, r->wm.command)) {
            r->features = &r->known[i];
            return;
        }
    struct features *fs = &r->known[r->nknown < 4 ? r->nknown++ : 3];
    snprintf(fs->named_trigger, sizeof fs->named_trigger, "%s", r->o->resize_trigger ? r->o->resize_trigger : "");
    features_init(fs, r->wm.command);
    r->features = fs;
    char err[1024];
    int found = r->o->features_file ? features_read_tsv(r->o->features_file, r->wm.command, fs, err, sizeof err) : 0;
    if (found < 0)
        tap_comment(&r->tap, "%s: probing instead", err);
    if (found <= 0) {
        char dir[PATH_MAX + 64];
        snprintf(dir, sizeof dir, "%s/logs/probes/%s", r->o->out_dir, profile_name(p));
        mkdir_p(dir, 0755);
        struct run_env env = make_env(r);
        probes_run(r->probes, r->nprobes, &env, fs, r->client_binary, dir, p);
    }
    features_print(fs, tap_line, &r->tap);
    results_features(r->results, fs);
}

static void wm_command_for(const struct runner *r, enum profile p, char *buf, size_t len)
{
    char def[PATH_MAX + 64];
    snprintf(def, sizeof def, "exec '%s/fake-wm/fake-wm' --profile {profile}", r->o->root);
    const char *tmpl = r->o->wm ? r->o->wm : def;
    size_t o = 0;
    for (const char *c = tmpl; *c && o + 1 < len;) {
        if (!strncmp(c, "{profile}", 9)) {
            o += (size_t)snprintf(buf + o, len - o, "%s", profile_name(p));
            c += 9;
        } else
            buf[o++] = *c++;
    }
    buf[o < len ? o : len - 1] = 0;
}

static void print_claims(struct runner *r)
{
    char line[4096];
    int o = snprintf(line, sizeof line, "compositor `%s` ready after %.0f ms: %s, %s; _NET_SUPPORTED:",
                     r->wm.command, (double)(r->wm.ready_us - r->wm.start_us) / 1000.0,
                     r->wm.wm_name[0] ? r->wm.wm_name : "(no _NET_WM_NAME)",
                     r->wm.cm_owner ? "composites (owns _NET_WM_CM_S0)" : "does not composite");
    for (int i = 0; i < r->wm.nsupported && o > 0 && (size_t)o < sizeof line; i++)
        o += snprintf(line + o, sizeof line - (size_t)o, " %s", r->wm.supported[i]);
    tap_comment(&r->tap, "%s", line);
}

/* Makes sure the compositor for this profile runs; returns false with a reason when it cannot. */
static bool ensure_compositor(struct runner *r, enum profile p, char *why, size_t len)
{
    char cmd[2048];
    wm_command_for(r, p, cmd, sizeof cmd);
    bool stopped = r->wm_running && proc_is_stopped(r->wm.proc);
    if (r->wm_running && !strcmp(r->wm.command, cmd) && compositor_alive(&r->wm) && !stopped)
        return true;
    if (r->wm_running) {
        char how[128];
        if (!compositor_alive(&r->wm)) /* also when it died between cases, which no verdict shows */
            tap_comment(&r->tap, "restarting the compositor (it had ended: %s)",
                        proc_describe_exit(r->wm.proc, how, sizeof how));
        else if (stopped)
            tap_comment(&r->tap, "restarting the compositor (it was stopped: a hung process)");
        compositor_stop(&r->wm);
        r->wm_running = false;
    }
    if (!strcmp(r->wm_failed_command, cmd)) {
        snprintf(why, len, "%s", r->wm_failed_reason);
        return false;
    }
    enum ready_kind ready = READY_AUTO;
    if (r->o->ready)
        parse_ready_kind(r->o->ready, &ready);
    int tries = r->wm.starts;
    memset(&r->wm, 0, sizeof r->wm);
    r->wm.starts = tries;
    r->wm.env = compositor_profile_env(r->o->wm_named ? &r->o->wm_profile : NULL, r->o->root, r->tmp_dir);
    char err[3000];
    if (compositor_start(&r->wm, &r->x, cmd, ready, r->wm_log, r->o->wm_timeout_ms, err, sizeof err) < 0) {
        compositor_stop(&r->wm);
        snprintf(r->wm_failed_command, sizeof r->wm_failed_command, "%s", cmd);
        snprintf(r->wm_failed_reason, sizeof r->wm_failed_reason, "%s", err);
        snprintf(why, len, "%s", err);
        return false;
    }
    r->wm_running = true;
    print_claims(r);
    results_compositor(r->results, &r->wm, p);
    find_features(r, p);
    return true;
}

static void cleanup(struct runner *r)
{
    /* the compositor first: a server grab it holds would block the oracles' last round trips */
    if (r->wm_running)
        compositor_stop(&r->wm);
    r->wm_running = false;
    oracles_destroy(r->oracles, r->noracles);
    r->noracles = 0;
    grabwatch_stop();
    xserver_stop(&r->x);
    proc_kill_all();
    if (r->tmp_dir[0])
        remove_tree(r->tmp_dir);
}

/* The canonical order of a run: profiles in order, cases by path; item k of it belongs to
 * shard k % N.  Every worker computes the same order, so results merge back into it. */
static bool in_selection(const struct options *o, const struct testcase *tc, int p, regex_t *re, int *index)
{
    if (!(o->profiles & (unsigned)p) || !(tc->profiles & (unsigned)p) || !selected(tc, re) ||
        !in_select_list(tc, p))
        return false;
    return (*index)++ % o->nshards == o->shard;
}

/* SIGINT/SIGTERM/SIGHUP: TAP ends with `Bail out!`, results.json says so; exit 128 + signal. */
static int interrupted(struct runner *r)
{
    char why[64];
    snprintf(why, sizeof why, "interrupted by %s", strsignal(proc_interrupted()));
    tap_bail_out(&r->tap, why);
    results_finish(r->results, why);
    return 128 + proc_interrupted();
}

/* OUT/features.tsv: the feature tables this run used (a --probe run's product; any run's, so
 * that re-runs of its cases judge by the same table with --features). */
static int write_features(struct runner *r)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/features.tsv", r->o->out_dir);
    FILE *f = fopen(path, "we");
    if (!f) {
        fprintf(stderr, "framesync: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    for (int i = 0; i < r->nknown; i++)
        features_write_tsv(&r->known[i], f);
    fclose(f);
    return 0;
}

/* The grab watch killed an X server that answered nobody (grabwatch.h): Bail out!, exit 2. */
static int server_stuck(struct runner *r)
{
    char why[256];
    snprintf(why, sizeof why, "the X server answered nobody for %lld ms, also after the compositor was stopped "
             "(stuck in a request); the watch stopped it, so no later case can be judged",
             (long long)grabwatch_server_killed_ms());
    tap_bail_out(&r->tap, why);
    results_finish(r->results, why);
    fprintf(stderr, "framesync: %s\n", why);
    return EXIT_USAGE;
}

/* --probe: start the compositor of each selected profile (a named or plain command is the same
 * in every profile and is probed once), probe it, and write OUT/features.tsv for the workers. */
static int probe_all(struct runner *r)
{
    for (int p = 1; p <= PROFILE_DEFACTO; p <<= 1) {
        if (!(r->o->profiles & (unsigned)p))
            continue;
        char why[3000];
        if (!ensure_compositor(r, (enum profile)p, why, sizeof why)) {
            if (proc_interrupted())
                return interrupted(r);
            tap_bail_out(&r->tap, why);
            results_finish(r->results, why);
            fprintf(stderr, "framesync: %s\n", why);
            return EXIT_USAGE;
        }
    }
    if (grabwatch_server_killed_ms())
        return server_stuck(r);
    if (write_features(r) < 0)
        return EXIT_USAGE;
    tap_summary(&r->tap);
    results_finish(r->results, "complete");
    return 0;
}

static int run_all(struct runner *r, struct testcase **cases, int ncases, regex_t *re)
{
    struct options *o = r->o;
    int total = 0, index = 0;
    for (int p = 1; p <= PROFILE_DEFACTO && !o->probe_only; p <<= 1)
        for (int i = 0; i < ncases; i++)
            if (in_selection(o, cases[i], p, re, &index))
                total++;
    index = 0;
    tap_plan(&r->tap, total);
    char err[3000];
    if (xserver_start(&r->x, r->tmp_dir, 10000, err, sizeof err) < 0) {
        if (proc_interrupted())
            return interrupted(r);
        tap_bail_out(&r->tap, err);
        results_finish(r->results, err);
        fprintf(stderr, "framesync: %s\n", err);
        return EXIT_USAGE;
    }
    if (o->client)
        results_client(r->results, o->client_named ? o->client_profile.name : "", getenv("FRAMESYNC_CLIENT_COMMAND"));
    if (o->client)
        tap_comment(&r->tap, "client under test: %s%s%s", o->client_named ? o->client_profile.name : "",
                    o->client_named ? ": " : "", getenv("FRAMESYNC_CLIENT_COMMAND"));
    tap_comment(&r->tap, "X server Xvfb %s ready after %.0f ms (no TCP, private auth cookie)",
                r->x.display_name, (double)(r->x.ready_us - r->x.start_us) / 1000.0);
    r->noracles = oracles_create(&r->x, r->oracles, MAX_ORACLES, err, sizeof err);
    if (r->noracles < 0) {
        r->noracles = 0;
        tap_bail_out(&r->tap, err);
        results_finish(r->results, err);
        fprintf(stderr, "framesync: %s\n", err);
        return EXIT_USAGE;
    }
    /* a compositor's server grab of 3 s (scaled) ends with the compositor: see grabwatch.h */
    if (grabwatch_start(r->x.display_name, (int)(3000 * o->timeout_scale), err, sizeof err) < 0) {
        tap_bail_out(&r->tap, err);
        results_finish(r->results, err);
        fprintf(stderr, "framesync: %s\n", err);
        return EXIT_USAGE;
    }
    grabwatch_server(r->x.proc->pid);
    if (o->probe_only)
        return probe_all(r);
    bool first = true;
    for (int p = 1; p <= PROFILE_DEFACTO; p <<= 1) {
        if (!(o->profiles & (unsigned)p))
            continue;
        for (int i = 0; i < ncases; i++) {
            struct testcase *tc = cases[i];
            if (!in_selection(o, tc, p, re, &index))
                continue;
            struct result res = {0};
            struct session s;
            char prefix[PATH_MAX];
            case_log_prefix(o->out_dir, tc, (enum profile)p, prefix, sizeof prefix);
            snprintf(res.log_path, sizeof res.log_path, "%s.log", prefix);
            char why[3000];
            off_t log_from = 0;
            bool wm_ok = ensure_compositor(r, (enum profile)p, why, sizeof why);
            session_init(&s, r->client_binary, prefix); /* times count from here */
            if (!wm_ok && proc_interrupted()) {
                session_free(&s);
                return interrupted(r);
            }
            if (!wm_ok) {
                if (first) { /* the command never started at all: a usage error, not a verdict */
                    tap_bail_out(&r->tap, why);
                    results_finish(r->results, why);
                    fprintf(stderr, "framesync: %s\n", why);
                    session_free(&s);
                    return EXIT_USAGE;
                }
                res.verdict = VERDICT_FAIL;
                snprintf(res.reason, sizeof res.reason, "the compositor could not be (re)started: %s", why);
                res.start_us = res.end_us = clock_now_us();
            } else {
                log_from = compositor_log_offset(&r->wm);
                struct run_env env = make_env(r);
                run_case(tc, &env, &s, &res);
            }
            first = false;
            if (proc_interrupted()) {
                session_free(&s);
                return interrupted(r);
            }
            if (grabwatch_server_killed_ms()) { /* nothing after this can be judged */
                session_free(&s);
                return server_stuck(r);
            }
            write_case_log(res.log_path, tc, (enum profile)p, &res, &s, &r->wm, log_from);
            tap_result(&r->tap, tc, (enum profile)p, &res, &r->cat, &s, r->wm.command);
            results_add(r->results, tc, (enum profile)p, &res);
            session_free(&s);
        }
    }
    write_features(r);
    tap_summary(&r->tap);
    results_finish(r->results, "complete");
    return (r->tap.counts[VERDICT_FAIL] || r->tap.counts[VERDICT_UNRESOLVED]) ? 1 : 0;
}

static void list_cases(struct testcase **cases, int n, unsigned profiles, regex_t *re)
{
    for (int i = 0; i < n; i++) {
        if (!(cases[i]->profiles & profiles) || !selected(cases[i], re))
            continue;
        printf("%-40s %-44s", cases[i]->id, cases[i]->clauses[0]);
        for (int p = 1; p <= PROFILE_DEFACTO; p <<= 1)
            if (cases[i]->profiles & (unsigned)p)
                printf(" %s", profile_name((enum profile)p));
        printf("\n    %s\n", cases[i]->description);
    }
}

/* Which cases check each clause; exit 1 when a testable clause has none. */
static int print_coverage(const struct catalog *cat, struct testcase **cases, int n)
{
    int testable = 0, untestable = 0, uncovered = 0;
    printf("%-46s %-9s %-8s %s\n", "clause", "keyword", "binds", "status / cases");
    for (int i = 0; i < cat->n; i++) {
        const struct clause *cl = &cat->clauses[i];
        bool is_testable = !strncmp(cl->testable, "yes", 3);
        char list[2048] = "";
        int found = 0;
        for (int j = 0; j < n; j++)
            for (int k = 0; k < cases[j]->nclauses; k++)
                if (!strcmp(cases[j]->clauses[k], cl->id)) {
                    size_t len = strlen(list);
                    snprintf(list + len, sizeof list - len, "%s%s", found++ ? ", " : "", cases[j]->id);
                    break;
                }
        const char *status;
        if (!is_testable) {
            untestable++;
            status = cl->testable;
        } else {
            testable++;
            status = found ? "covered" : "NOT COVERED";
            if (!found)
                uncovered++;
        }
        printf("%-46s %-9s %-8s %s%s%s\n", cl->id, cl->keyword, cl->binds, status, found ? ": " : "", list);
    }
    printf("\n%d clauses: %d testable (%d covered, %d not covered), %d untestable; %d cases\n",
           cat->n, testable, testable - uncovered, uncovered, untestable, n);
    return uncovered ? 1 : 0;
}

/* --client: the observer (watch/client-watch) starts the application from
 * $FRAMESYNC_CLIENT_COMMAND in every case that declares `client NAME under-test`. */
static int setup_client(struct runner *r)
{
    struct options *o = r->o;
    snprintf(r->watch_binary, sizeof r->watch_binary, "%s/watch/client-watch", o->root);
    if (access(r->watch_binary, X_OK) < 0) {
        fprintf(stderr, "framesync: the client observer %s is missing: run make\n", r->watch_binary);
        return -1;
    }
    if (o->client_named) {
        client_profile_setenv(&o->client_profile, o->root, r->tmp_dir);
        if (!profile_binary_installed(o->client_profile.binary)) {
            fprintf(stderr, "framesync: client %s is not installed (%s); packages: %s\n", o->client_profile.name,
                    o->client_profile.binary, o->client_profile.packages);
            return -1;
        }
    }
    char cmd[4096];
    if (o->client_named)
        client_profile_command(&o->client_profile, o->root, r->tmp_dir, cmd, sizeof cmd);
    setenv("FRAMESYNC_CLIENT_COMMAND", o->client_named ? cmd : o->client, 1);
    return 0;
}

static void find_root(char *root, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    snprintf(root, len, "%s", dirname(dirname(exe))); /* <root>/harness/framesync */
}

int main(int argc, char **argv)
{
    struct options o = {.timeout_scale = 1.0, .wm_timeout_ms = 15000, .nshards = 1};
    find_root(o.root, sizeof o.root);
    if (parse_options(argc, argv, &o) < 0)
        return EXIT_USAGE;
    if (!o.profiles)
        o.profiles = ALL_PROFILES;
    if (!o.cases_dir[0])
        snprintf(o.cases_dir, sizeof o.cases_dir, "%s/cases", o.root);
    if (!o.out_dir[0])
        snprintf(o.out_dir, sizeof o.out_dir, "%s/reports/latest", o.root);

    struct runner r = {.o = &o};
    char err[1024], path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/clauses.txt", o.cases_dir);
    if (catalog_load(&r.cat, path, err, sizeof err) < 0) {
        fprintf(stderr, "framesync: %s\n", err);
        return EXIT_USAGE;
    }
    catalog_set_current(&r.cat);
    regex_t re;
    if (o.filter) {
        int rc = regcomp(&re, o.filter, REG_EXTENDED | REG_NOSUB);
        if (rc) {
            regerror(rc, &re, err, sizeof err);
            fprintf(stderr, "framesync: --filter `%s`: %s\n", o.filter, err);
            return EXIT_USAGE;
        }
    }
    struct testcase **cases;
    if (!o.coverage) /* --list shows what a run with the same options runs (the runner's order) */
        run_side = o.client ? SIDE_CLIENT : SIDE_COMPOSITOR;
    int ncases = load_cases(o.cases_dir, &cases, &r.probes, &r.nprobes);
    if (ncases < 0)
        return EXIT_USAGE;
    if (o.coverage)
        return print_coverage(&r.cat, cases, ncases);
    if (o.select_path && load_select(o.select_path, cases, ncases) < 0)
        return EXIT_USAGE;
    if (o.list) {
        list_cases(cases, ncases, o.profiles, o.filter ? &re : NULL);
        return 0;
    }

    /* Output: results and logs of this run only. */
    snprintf(path, sizeof path, "%s/logs", o.out_dir);
    if (mkdir_p(o.out_dir, 0755) < 0) {
        fprintf(stderr, "framesync: cannot create the output folder %s: %s\n", o.out_dir, strerror(errno));
        return EXIT_USAGE;
    }
    remove_tree(path);
    for (int p = 1; p <= PROFILE_DEFACTO; p <<= 1) {
        char d[PATH_MAX + 64];
        snprintf(d, sizeof d, "%s/logs/%s", o.out_dir, profile_name((enum profile)p));
        mkdir_p(d, 0755);
    }
    snprintf(path, sizeof path, "%s/results.tap", o.out_dir);
    r.tap_file = fopen(path, "we");
    if (!r.tap_file) {
        fprintf(stderr, "framesync: cannot write %s: %s\n", path, strerror(errno));
        return EXIT_USAGE;
    }
    snprintf(r.wm_log, sizeof r.wm_log, "%s/logs/compositor.log", o.out_dir);
    unlink(r.wm_log);
    snprintf(r.client_binary, sizeof r.client_binary, "%s/fake-clients/fake-client", o.root);
    if (access(r.client_binary, X_OK) < 0) {
        fprintf(stderr, "framesync: the fake client %s is missing: run make\n", r.client_binary);
        return EXIT_USAGE;
    }

    /* Private files (the auth cookie) live in a 0700 temp dir, removed on every exit path. */
    snprintf(r.tmp_dir, sizeof r.tmp_dir, "%s/framesync-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(r.tmp_dir)) {
        fprintf(stderr, "framesync: cannot create a private temp dir: %s\n", strerror(errno));
        return EXIT_USAGE;
    }
    if (o.client && setup_client(&r) < 0) {
        remove_tree(r.tmp_dir);
        return EXIT_USAGE;
    }
    if (proc_init(r.tmp_dir) < 0) {
        fprintf(stderr, "framesync: cannot set up process handling: %s\n", strerror(errno));
        remove_tree(r.tmp_dir);
        return EXIT_USAGE;
    }
    tap_open(&r.tap, stdout, r.tap_file);
    snprintf(path, sizeof path, "%s/results.json", o.out_dir);
    r.results = results_open(path);
    int rc = run_all(&r, cases, ncases, o.filter ? &re : NULL);
    cleanup(&r);
    if (rc <= 1) {
        printf("%d passed, %d failed, %d skipped\n", r.tap.counts[VERDICT_PASS],
               r.tap.counts[VERDICT_FAIL] + r.tap.counts[VERDICT_UNRESOLVED], r.tap.counts[VERDICT_SKIP]);
    }
    fclose(r.tap_file);
    results_close(r.results);
    for (int i = 0; i < ncases; i++)
        case_free(cases[i]);
    free(cases);
    for (int i = 0; i < r.nprobes; i++)
        case_free(r.probes[i]);
    free(r.probes);
    catalog_free(&r.cat);
    if (o.client_named)
        client_profile_free(&o.client_profile);
    return rc;
}
