#include "options.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "input-barrier.h"

void options_usage(FILE *f)
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
          "  --xserver xvfb|own  whose X server the run uses: its own Xvfb (the default), or the one\n"
          "                      the compositor brings (Xwayland): then {report} in the command is a\n"
          "                      command its session must run, which tells the harness the DISPLAY\n"
          "  --input CMD         the keys and pointer of its interactive resizes go into its own seat\n"
          "                      through CMD (a helper speaking harness/input-path.h's lines, as\n"
          "                      `input:` of a conf: tools/mutter-input), not XTEST into the X server\n"
          "  --input-barrier KIND  before each of those events, a round trip through the WM that it\n"
          "                      answers after the X events the client caused before (none or\n"
          "                      fullscreen-monitors; default: input-barrier: of its conf, else none)\n"
          "  --resize-trigger T  how `A resize` makes it send sync requests: configure, keyboard,\n"
          "                      pointer or map (default: what the probes find works)\n"
          "  --replace-with CMD  the command line of a new instance of the compositor that replaces\n"
          "                      the running one (ICCCM 2.8: `my-wm --replace`), for the cases'\n"
          "                      replace-wm step; {profile} as in --wm (default: replace: of its\n"
          "                      conf; the reference fake-wm's command with --replace; else those\n"
          "                      cases SKIP)\n"
          "  --client CMD        test an application instead of a compositor: the client cases\n"
          "                      (cases/client/) run CMD (a shell command line, or NAME of\n"
          "                      clients/NAME.conf: --list-clients) against the reference\n"
          "                      compositor fake-wm, which resizes and moves it itself\n"
          "  --policy NAME       with --client: fake-wm treats the application as the compositor\n"
          "                      the policy names does (fake-wm --list-policies; default reference)\n"
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
          "  --fail-on LEVEL     which findings make the exit status 1: must (MUST/must, and a\n"
          "                      compositor that crashes or hangs), should (also SHOULD/should) or\n"
          "                      any (the default: every finding, implied requirements included)\n"
          "  --allow-empty       exit 0 even when the run tested nothing (every case skipped) or\n"
          "                      the compositor lists protocol atoms and does none of them\n"
          "  --out DIR           where results.tap and logs/ go (default results/latest)\n"
          "  --cases DIR         where the case files are (default cases/)\n"
          "  --timeout-scale F   multiply every deadline of the cases by F (slow machines)\n"
          "  --case-timeout MS   the watchdog: no case runs longer; one that would is\n"
          "                      UNRESOLVED and the run goes on (default 120000 x F)\n"
          "  --shard K/N         run only the K-th of N interleaved parts of the selection\n"
          "                      (0 <= K < N; the runner's parallel workers use it)\n"
          "  --select FILE       run only the cases FILE lists, one `CASE-ID PROFILE` a line,\n"
          "                      in the canonical order (the runner's --shard I/N uses it)\n"
          "  --help\n"
          "exit status: 0 every case passed or was skipped and something was tested, 1 a finding\n"
          "             (of a --fail-on level), an UNRESOLVED case or a run that tested nothing,\n"
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

/* A whole positive number of milliseconds, or -1 with the option named. */
static int parse_ms(const char *opt, const char *arg, int *out)
{
    char *end;
    long v = strtol(arg, &end, 10);
    if (*end || v <= 0 || v > 86400000) {
        fprintf(stderr, "framesync: %s takes milliseconds, not `%s`\n", opt, arg);
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int parse_value(int ch, const char *arg, struct options *o)
{
    char *end;
    switch (ch) {
    case 'r': return cli_ready("framesync", arg, &o->ready);
    case 'R':
        if (strcmp(arg, "configure") && strcmp(arg, "keyboard") && strcmp(arg, "pointer") && strcmp(arg, "map")) {
            fprintf(stderr, "framesync: --resize-trigger takes configure, keyboard, pointer or map, not `%s`\n", arg);
            return -1;
        }
        o->resize_trigger = arg;
        return 0;
    case 'T': return parse_ms("--wm-timeout", arg, &o->wm_timeout_ms);
    case 'K': return parse_ms("--case-timeout", arg, &o->case_timeout_ms);
    case 'p': return parse_profiles(arg, &o->profiles);
    case 's':
        o->timeout_scale = strtod(arg, &end);
        if (*end || o->timeout_scale < 0.1 || o->timeout_scale > 100) {
            fprintf(stderr, "framesync: --timeout-scale takes a factor from 0.1 to 100, not `%s`\n", arg);
            return -1;
        }
        return 0;
    case 'S':
        if (sscanf(arg, "%d/%d", &o->shard, &o->nshards) != 2 || o->nshards < 1 || o->shard < 0 ||
            o->shard >= o->nshards) {
            fprintf(stderr, "framesync: --shard takes K/N with 0 <= K < N, not `%s`\n", arg);
            return -1;
        }
        return 0;
    case 'x':
        if (strcmp(arg, "xvfb") && strcmp(arg, "own")) {
            fprintf(stderr, "framesync: --xserver takes xvfb or own, not `%s`\n", arg);
            return -1;
        }
        o->xserver = arg;
        return 0;
    case 'i':
        if ((o->input_barrier = input_barrier_parse(arg)) < 0) {
            fprintf(stderr, "framesync: --input-barrier takes %s, not `%s`\n", INPUT_BARRIER_KINDS, arg);
            return -1;
        }
        return 0;
    case 'X':
        if (fail_on_parse(arg, &o->fail_on) < 0) {
            fprintf(stderr, "framesync: --fail-on takes must, should or any, not `%s`\n", arg);
            return -1;
        }
        return 0;
    }
    return -1;
}

/* --policy NAME: one of fake-wm's (`fake-wm --list-policies`, the first word of each line), with
 * --client; refused before anything starts, with the names (`all` is the runner's: run-tests.sh). */
static bool policy_known(const struct options *o)
{
    char cmd[PATH_MAX + 64], line[1024], names[1024] = "";
    snprintf(cmd, sizeof cmd, "'%s/fake-wm/fake-wm' --list-policies 2>/dev/null", o->root);
    FILE *f = popen(cmd, "r");
    bool found = false;
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\t\n")] = '\0';
        found |= !strcmp(line, o->policy);
        size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "", line);
    }
    if (f)
        pclose(f);
    if (found && o->client)
        return true;
    if (!names[0])
        fprintf(stderr, "framesync: --policy: cannot list fake-wm's policies (%s/fake-wm/fake-wm --list-policies; run "
                        "make)\n", o->root);
    else
        fprintf(stderr, "framesync: --policy %s: %s (the policies: %s%s)\n", o->policy,
                o->client ? "no such policy of fake-wm" : "a policy goes with --client", names,
                o->client ? "; `all`, each in turn: ./run-tests.sh" : "");
    return false;
}

/* Named compositors and clients: the conf file's command and settings; --client and --wm
 * exclude each other. */
static int resolve_names(struct options *o)
{
    if (o->wm && (o->wm_named = cli_named_wm(o->root, &o->wm, &o->ready, &o->wm_profile)) < 0)
        return -1;
    if (o->client && o->wm) {
        fprintf(stderr, "framesync: --client tests an application against the reference compositor: "
                        "it does not take --wm\n");
        return -1;
    }
    if (o->client && (o->client_named = client_profile_lookup(o->root, o->client, &o->client_profile)) < 0)
        return -1;
    if (o->policy && !policy_known(o))
        return -1;
    if (o->client && !o->policy)
        o->policy = "reference";
    if (o->wm_named && !o->resize_trigger && o->wm_profile.resize_trigger[0])
        o->resize_trigger = o->wm_profile.resize_trigger;
    if (o->wm_named && !o->input && o->wm_profile.input[0])
        o->input = o->wm_profile.input;
    if (o->input_barrier < 0)
        o->input_barrier = o->wm_named ? o->wm_profile.input_barrier : INPUT_BARRIER_NONE;
    if (o->input_barrier != INPUT_BARRIER_NONE && !o->input) {
        fprintf(stderr, "framesync: --input-barrier %s orders the events of an input path into the compositor's "
                        "seat, and there is none (--input, or input: of its conf)\n", input_barrier_name(o->input_barrier));
        return -1;
    }
    if (o->input && o->client) {
        fprintf(stderr, "framesync: --input is the input path of a compositor under test (--wm); --client runs "
                        "the reference compositor on Xvfb, where XTEST reaches it\n");
        return -1;
    }
    o->own_xserver = o->xserver ? !strcmp(o->xserver, "own") : o->wm_named && o->wm_profile.own_xserver;
    if (o->own_xserver && (!o->wm || !strstr(o->wm, "{report}"))) {
        fprintf(stderr, "framesync: --xserver own needs --wm with {report} in it: the command its session runs to "
                        "tell the harness its DISPLAY\n");
        return -1;
    }
    return 0;
}

static void defaults(struct options *o)
{
    memset(o, 0, sizeof *o);
    o->timeout_scale = 1.0;
    o->input_barrier = -1;
    o->wm_timeout_ms = 15000;
    o->nshards = 1;
    cli_root(o->root, sizeof o->root);
}

int options_parse(int argc, char **argv, struct options *o)
{
    static const struct option longopts[] = {
        CLI_COMPOSITOR_OPTIONS,                   {"profile", required_argument, 0, 'p'},
        {"filter", required_argument, 0, 'f'},    {"list", no_argument, 0, 'l'},
        {"out", required_argument, 0, 'o'},       {"cases", required_argument, 0, 'c'},
        {"timeout-scale", required_argument, 0, 's'}, {"help", no_argument, 0, 'h'},
        {"shard", required_argument, 0, 'S'},     {"coverage", no_argument, 0, 'C'},
        {"list-wms", no_argument, 0, 'W'},        {"case-timeout", required_argument, 0, 'K'},
        {"probe", no_argument, 0, 'P'},           {"features", required_argument, 0, 'F'},
        {"resize-trigger", required_argument, 0, 'R'}, {"select", required_argument, 0, 'E'},
        {"client", required_argument, 0, 'A'},    {"list-clients", no_argument, 0, 'L'},
        {"allow-empty", no_argument, 0, 'Y'},     {"fail-on", required_argument, 0, 'X'},
        {"xserver", required_argument, 0, 'x'},   {"input", required_argument, 0, 'I'},
        {"replace-with", required_argument, 0, 'B'}, {"policy", required_argument, 0, 'O'},
        {"input-barrier", required_argument, 0, 'i'},
        {0, 0, 0, 0}};
    defaults(o);
    bool list = false, coverage = false, probe = false;
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (ch) {
        case 'w': o->wm = optarg; break;
        case 'f': o->filter = optarg; break;
        case 'E': o->select_path = optarg; break;
        case 'F': o->features_file = optarg; break;
        case 'A': o->client = optarg; break;
        case 'I': o->input = optarg; break;
        case 'B': o->replace_with = optarg; break;
        case 'O': o->policy = optarg; break;
        case 'o': snprintf(o->out_dir, sizeof o->out_dir, "%s", optarg); break;
        case 'c': snprintf(o->cases_dir, sizeof o->cases_dir, "%s", optarg); break;
        case 'l': list = true; break;
        case 'C': coverage = true; break;
        case 'P': probe = true; break;
        case 'Y': o->allow_empty = true; break;
        case 'h': o->action = ACTION_HELP; return 0;
        case 'W': o->action = ACTION_LIST_WMS; return 0;
        case 'L': o->action = ACTION_LIST_CLIENTS; return 0;
        case 'r': case 'R': case 'T': case 'K': case 'p': case 's': case 'S': case 'X': case 'x': case 'i':
            if (parse_value(ch, optarg, o) < 0)
                return -1;
            break;
        default: return cli_bad_option("framesync", argv);
        }
    }
    if (cli_no_operands("framesync", argc, argv) < 0)
        return -1;
    o->action = coverage ? ACTION_COVERAGE : list ? ACTION_LIST : probe ? ACTION_PROBE : ACTION_RUN;
    if (!o->profiles)
        o->profiles = ALL_PROFILES;
    if (!o->cases_dir[0])
        snprintf(o->cases_dir, sizeof o->cases_dir, "%s/cases", o->root);
    if (!o->out_dir[0])
        snprintf(o->out_dir, sizeof o->out_dir, "%s/results/latest", o->root);
    return resolve_names(o);
}

int options_case_timeout_ms(const struct options *o)
{
    return o->case_timeout_ms ? o->case_timeout_ms : (int)(120000 * o->timeout_scale);
}
