/* framesync (the harness): runs the cases in cases/ against one compositor under test (or, with
 * --client, one application) and writes TAP, results.json and logs.  A short pipeline over one
 * file per stage: options (options.c), discovery (discovery.c) and selection (selection.c), the
 * output folder (outdir.c), the run (executor.c, with lifecycle.c for the compositor and guarded.c
 * for each case), the verdict of the whole run (run-verdict.c).  Usage: README.md and --help; the
 * case format: cases/README.md. */
#include "executor.h"
#include "listing.h"
#include "outdir.h"
#include "proc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXIT_USAGE 2

/* --client: the observer (app-observer/app-observer) starts the application from
 * $FRAMESYNC_CLIENT_COMMAND in every case that declares `client NAME under-test`. */
static int setup_client(struct run *r)
{
    const struct options *o = r->o;
    snprintf(r->observer_binary, sizeof r->observer_binary, "%s/app-observer/app-observer", o->root);
    if (access(r->observer_binary, X_OK) < 0) {
        fprintf(stderr, "framesync: the client observer %s is missing: run make\n", r->observer_binary);
        return -1;
    }
    if (o->client_named) {
        /* the states its command reaches (app-observer's `state` command); for a command line,
         * FRAMESYNC_CLIENT_ANIMATES may be given in the environment */
        if (o->client_profile.animates_word[0])
            setenv("FRAMESYNC_CLIENT_ANIMATES", o->client_profile.animates_word, 1);
        if (!profile_binary_installed(o->client_profile.binary)) { /* an input error, before any X server */
            const struct client_profile *p = &o->client_profile;
            fprintf(stderr, "framesync: client %s (%s) cannot start: its program `%s` is not installed%s%s%s\n",
                    p->name, p->path, p->binary, p->packages[0] ? " (Debian packages: " : "", p->packages,
                    p->packages[0] ? ")" : "");
            return -1;
        }
    }
    char cmd[4096];
    if (o->client_named)
        client_profile_command(&o->client_profile, o->root, r->tmp_dir, cmd, sizeof cmd);
    setenv("FRAMESYNC_CLIENT_COMMAND", o->client_named ? cmd : o->client, 1);
    setenv("FRAMESYNC_CLIENT_POLICY", o->policy, 1); /* the declared policy-* features (featureset.c) */
    return 0;
}

/* Everything the run starts gets a private home and session bus in its temp dir (isolation.h),
 * through this process's environment; a named client's env: goes on top (a compositor's start
 * gets its own: lifecycle.c). */
static int isolate(struct run *r)
{
    char err[1024];
    if (isolation_open(&r->home, r->tmp_dir, true, 10000, err, sizeof err) < 0) {
        fprintf(stderr, "framesync: %s\n", err);
        return -1;
    }
    isolation_export(&r->home);
    if (r->o->client_named)
        client_profile_setenv(&r->o->client_profile, r->o->root, r->tmp_dir);
    return 0;
}

/* The output files, the fake client, the private temp dir (the auth cookie lives there, removed on
 * every exit path) and process handling; -1 with a message. */
static int prepare(struct run *r)
{
    const struct options *o = r->o;
    char path[PATH_MAX + 32];
    if (outdir_prepare(o->out_dir) < 0)
        return -1;
    snprintf(path, sizeof path, "%s/results.tap", o->out_dir);
    if (!(r->tap_file = fopen(path, "we"))) {
        fprintf(stderr, "framesync: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    snprintf(r->wm_log, sizeof r->wm_log, "%s/logs/compositor.log", o->out_dir);
    unlink(r->wm_log);
    snprintf(r->client_binary, sizeof r->client_binary, "%s/fake-clients/scripted-client/scripted-client", o->root);
    if (access(r->client_binary, X_OK) < 0) {
        fprintf(stderr, "framesync: the scripted client %s is missing: run make\n", r->client_binary);
        return -1;
    }
    snprintf(r->tmp_dir, sizeof r->tmp_dir, "%s/framesync-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(r->tmp_dir)) {
        fprintf(stderr, "framesync: cannot create a private temp dir: %s\n", strerror(errno));
        r->tmp_dir[0] = 0;
        return -1;
    }
    if ((o->client && setup_client(r) < 0))
        return -1;
    if (proc_init(r->tmp_dir) < 0) {
        fprintf(stderr, "framesync: cannot set up process handling: %s\n", strerror(errno));
        return -1;
    }
    if (isolate(r) < 0)
        return -1;
    tap_open(&r->tap, stdout, r->tap_file);
    snprintf(path, sizeof path, "%s/results.json", o->out_dir);
    r->results = results_open(path, &r->cat);
    return 0;
}

static int run(struct run *r, const struct selection *sel)
{
    struct item *items;
    int nitems = selection_items(sel, &r->set, &items);
    int rc = EXIT_USAGE;
    if (prepare(r) == 0) {
        rc = executor_run(r, items, nitems);
        executor_cleanup(r);
        if (rc <= 1)
            printf("%d passed, %d failed, %d skipped\n", r->tap.counts[VERDICT_PASS],
                   r->tap.counts[VERDICT_FAIL] + r->tap.counts[VERDICT_UNRESOLVED], r->tap.counts[VERDICT_SKIP]);
    } else if (r->tmp_dir[0]) {
        proc_kill_all(); /* the run's session bus, when it was started */
        remove_tree(r->tmp_dir);
    }
    if (r->tap_file)
        fclose(r->tap_file);
    results_close(r->results);
    free(items);
    return rc;
}

int main(int argc, char **argv)
{
    struct options o;
    if (options_parse(argc, argv, &o) < 0)
        return EXIT_USAGE;
    switch (o.action) {
    case ACTION_HELP: options_usage(stdout); return 0;
    case ACTION_LIST_WMS: return compositor_profile_list(o.root, stdout);
    case ACTION_LIST_CLIENTS: return client_profile_list(o.root, stdout);
    default: break;
    }
    struct run r = {.o = &o};
    char err[1024], path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/clauses.txt", o.cases_dir);
    if (catalog_load(&r.cat, path, err, sizeof err) < 0) {
        fprintf(stderr, "framesync: %s\n", err);
        return EXIT_USAGE;
    }
    catalog_set_current(&r.cat);
    /* --list shows what a run with the same options runs (the runner's order); --coverage both sides */
    enum side side = o.action == ACTION_COVERAGE ? SIDE_BOTH : o.client ? SIDE_CLIENT : SIDE_COMPOSITOR;
    struct selection sel = {0};
    int rc = EXIT_USAGE;
    if (case_set_load(&r.set, o.cases_dir, side) < 0 || selection_init(&sel, &o, &r.set) < 0)
        ;
    else if (o.action == ACTION_COVERAGE)
        rc = print_coverage(&r.cat, &r.set);
    else if (o.action == ACTION_LIST) {
        list_cases(&r.set, &sel);
        rc = 0;
    } else
        rc = run(&r, &sel);
    selection_free(&sel);
    case_set_free(&r.set);
    catalog_free(&r.cat);
    if (o.client_named)
        client_profile_free(&o.client_profile);
    return rc;
}
