/* framesync-bench: one session of the benchmark: its own Xvfb and one compositor, then the cells
 * given, one after another; rows appended to --out (JSON lines, bench/README.md).  The runner
 * (runner/bench.py) calls it once per compositor and repetition, interleaving compositors, and
 * makes the statistics and pictures. */
#include "bench.h"
#include "cli.h"
#include "compositor-profile.h"
#include "proc.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_USAGE 2
#define MAX_CELLS 64

struct options {
    struct bench_opts bench;     /* what every cell gets */
    char root[PATH_MAX];
    const char *wm;
    const char *ready;
    const char *out;
    const char *wm_log;
    int wm_timeout_ms;
    struct cellspec cells[MAX_CELLS];
    int ncells;
    struct compositor_profile profile;
    int named;
};

static void usage(FILE *f)
{
    fputs("usage: framesync-bench [options] --out FILE.jsonl --cells CELL[,CELL...]\n"
          "  --wm CMD           the compositor: a shell command line, a NAME of compositors/NAME.conf,\n"
          "                     or `fake-wm [ARGS]` (the reference, --profile de-facto unless ARGS say);\n"
          "                     default fake-wm\n"
          "  --ready KIND       wm, cm, wm+cm or auto (default: the conf's, or auto)\n"
          "  --cells LIST       cells to run in order, each WINDOWSxSIZE-RENDER-PACING-LOAD, e.g.\n"
          "                     1x256-core-drawn-idle,4x256-gl-timer60-stress (SIZE: N or WxH)\n"
          "  --out FILE         append the rows here (one JSON object a line)\n"
          "  --run-id ID        written into every row (default empty)\n"
          "  --cell-ms MS       measured time of each cell, after the warm-up (default 2000)\n"
          "  --warmup-ms MS     frames begun before this are marked warmup (default 300)\n"
          "  --frame-timeout-ms MS  a frame's drawn message or pixel is waited for this long (default 500)\n"
          "  --settle-ms MS     after a cell's time: how long its last frames may take (default 600)\n"
          "  --late-ms MS       even->pixel above this is `late` (default 33.333: two 60 Hz refreshes, so\n"
          "                     the frame missed a refresh it could have made)\n"
          "  --wm-timeout MS    how long the compositor may take to become ready (default 15000)\n"
          "  --wm-log FILE      the compositor's output (default: discarded)\n"
          "exit status: 0 every cell ran, 1 a cell could not run, 2 usage error, 128+N on signal N\n",
          f);
}

static int parse_ms(const char *name, const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || end == s || !(v >= lo && v <= hi)) {
        fprintf(stderr, "framesync-bench: %s takes milliseconds from %g to %g, not `%s`\n", name, lo, hi, s);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_cells(struct options *o, const char *list)
{
    char *copy = strdup(list), *save = NULL;
    int rc = 0;
    for (char *t = strtok_r(copy, ",", &save); t && rc == 0; t = strtok_r(NULL, ",", &save)) {
        char err[512];
        if (o->ncells == MAX_CELLS) {
            fprintf(stderr, "framesync-bench: at most %d cells a session\n", MAX_CELLS);
            rc = -1;
        } else if (cellspec_parse(t, &o->cells[o->ncells], err, sizeof err) < 0) {
            fprintf(stderr, "framesync-bench: %s\n", err);
            rc = -1;
        } else {
            o->ncells++;
        }
    }
    free(copy);
    return rc;
}

static int parse_options(int argc, char **argv, struct options *o)
{
    static const struct option longopts[] = {
        CLI_COMPOSITOR_OPTIONS,                     {"wm-log", required_argument, 0, 'L'},
        {"cells", required_argument, 0, 'c'},       {"out", required_argument, 0, 'o'},
        {"run-id", required_argument, 0, 'i'},      {"cell-ms", required_argument, 0, 'm'},
        {"warmup-ms", required_argument, 0, 'W'},   {"frame-timeout-ms", required_argument, 0, 'f'},
        {"settle-ms", required_argument, 0, 's'},   {"late-ms", required_argument, 0, 'l'},
        {"help", no_argument, 0, 'h'},              {0, 0, 0, 0}};
    opterr = 0;
    int ch;
    double v;
    while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (ch) {
        case 'w': o->wm = optarg; break;
        case 'r':
            if (cli_ready("framesync-bench", optarg, &o->ready) < 0)
                return -1;
            break;
        case 'c':
            if (parse_cells(o, optarg) < 0)
                return -1;
            break;
        case 'o': o->out = optarg; break;
        case 'i': o->bench.run_id = optarg; break;
        case 'm': if (parse_ms("--cell-ms", optarg, 1, 3600000, &o->bench.cell_ms) < 0) return -1; break;
        case 'W': if (parse_ms("--warmup-ms", optarg, 0, 600000, &o->bench.warmup_ms) < 0) return -1; break;
        case 'f': if (parse_ms("--frame-timeout-ms", optarg, 1, 600000, &o->bench.frame_timeout_ms) < 0) return -1; break;
        case 's': if (parse_ms("--settle-ms", optarg, 0, 600000, &o->bench.settle_ms) < 0) return -1; break;
        case 'l': if (parse_ms("--late-ms", optarg, 0.001, 600000, &o->bench.late_ms) < 0) return -1; break;
        case 'T':
            if (parse_ms("--wm-timeout", optarg, 1, 600000, &v) < 0)
                return -1;
            o->wm_timeout_ms = (int)v;
            break;
        case 'L': o->wm_log = optarg; break;
        case 'h': usage(stdout); exit(0);
        default: return cli_bad_option("framesync-bench", argv);
        }
    }
    if (cli_no_operands("framesync-bench", argc, argv) < 0)
        return -1;
    if (!o->out || !o->ncells) {
        fprintf(stderr, "framesync-bench: --out and --cells are required; see --help\n");
        return -1;
    }
    return 0;
}

/* `fake-wm [ARGS]` (or nothing) is the reference compositor built next to us, in the de-facto
 * profile (drawn messages with timestamps, and timings, like mutter) unless ARGS name one */
static void resolve_wm(struct options *o, char *cmd, size_t len)
{
    const char *wm = o->wm ? o->wm : "fake-wm";
    if (!strncmp(wm, "fake-wm", 7) && (wm[7] == 0 || wm[7] == ' ')) {
        const char *args = wm + 7;
        snprintf(cmd, len, "exec '%s/fake-wm/fake-wm'%s%s", o->root, strstr(args, "--profile") ? "" : " --profile de-facto",
                 args);
        return;
    }
    o->named = cli_named_wm(o->root, &wm, &o->ready, &o->profile);
    snprintf(cmd, len, "%s", wm);
}

static void write_error_row(const struct row_sink *rows, const struct cellspec *c, const char *err)
{
    struct row r;
    row_begin(&r, rows, "error");
    row_str(&r, "cell", c ? c->name : "");
    row_str(&r, "error", err);
    row_end(&r);
}

static void progress(const struct cellspec *c, const struct cell_result *r)
{
    fprintf(stderr, "framesync-bench: %s: %d frames in %.0f ms (paced on %s, ended by %s)\n", c->name, r->frames,
            r->wall_ms, r->paced_on, r->ended_by);
}

static int run_cells(const struct options *o, struct bench_session *session, const struct row_sink *rows)
{
    char err[1024];
    struct client *cl = client_open(err, sizeof err);
    if (!cl) {
        write_error_row(rows, NULL, err);
        fprintf(stderr, "framesync-bench: %s\n", err);
        return 1;
    }
    const struct cell_env env = {.opt = &o->bench, .cl = cl, .rows = rows, .session = session};
    int failed = 0;
    for (int i = 0; i < o->ncells && !bench_session_should_stop(session); i++) {
        struct cell_result res = {0};
        if (cell_run(&o->cells[i], &env, &res, err, sizeof err) < 0) {
            write_error_row(rows, &o->cells[i], err);
            fprintf(stderr, "framesync-bench: %s: %s\n", o->cells[i].name, err);
            failed = 1;
            continue;
        }
        progress(&o->cells[i], &res);
    }
    client_close(cl);
    return failed;
}

int main(int argc, char **argv)
{
    struct options o = {.bench = {.cell_ms = 2000, .warmup_ms = 300, .frame_timeout_ms = 500, .settle_ms = 600,
                                  .late_ms = 2000.0 / 60.0, .run_id = ""},
                        .wm_timeout_ms = 15000};
    cli_root(o.root, sizeof o.root);
    if (parse_options(argc, argv, &o) < 0)
        return EXIT_USAGE;
    char cmd[2048];
    resolve_wm(&o, cmd, sizeof cmd);
    if (o.named < 0)
        return EXIT_USAGE;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", o.out);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[slash == dir ? 1 : 0] = '\0'; /* "/rows.jsonl": the root */
    else
        snprintf(dir, sizeof dir, ".");
    struct row_sink rows = {.f = fopen(o.out, "ae"), .run_id = o.bench.run_id, .dir = dir};
    if (!rows.f) {
        fprintf(stderr, "framesync-bench: cannot append to %s: %s\n", o.out, strerror(errno));
        return EXIT_USAGE;
    }
    const struct session_spec spec = {.root = o.root, .command = cmd, .ready = o.ready,
                                      .profile = o.named > 0 ? &o.profile : NULL, .wm_log = o.wm_log,
                                      .wm_timeout_ms = o.wm_timeout_ms};
    struct bench_session *session = bench_session_new();
    char err[3000];
    int rc;
    if (bench_session_start(session, &spec, err, sizeof err) < 0) {
        write_error_row(&rows, NULL, err);
        fprintf(stderr, "framesync-bench: %s\n", err);
        rc = proc_interrupted() ? 128 + proc_interrupted() : 1;
    } else {
        bench_session_write_row(session, &rows, o.wm ? o.wm : "fake-wm");
        rc = run_cells(&o, session, &rows);
        if (proc_interrupted())
            rc = 128 + proc_interrupted();
    }
    bench_session_end(session);
    fclose(rows.f);
    return rc;
}
