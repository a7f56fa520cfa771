#!/usr/bin/env python3
"""No leftovers, ever: runs the harness (and, for an interrupt while the compositor or the
application is probed, the runner: python3 -m runner) through each of its exit paths and checks,
after each, the exit status, message and result files it documents, that no process it started
(an X server above all) is still alive, that its private temp dir is gone, and that nothing was
written into the user's home.

Processes are tracked without looking at the rest of the machine (other suites may run): this
script makes itself a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so everything the harness
started that outlives it is re-parented to this script, and is found as a child of ours in
/proc.  The harness gets a TMPDIR of its own, which must be empty afterwards, and a HOME and
XDG_RUNTIME_DIR of its own (the "user's", with no XDG_*_HOME set), which must stay empty: what the
suite starts has a private home and session bus in the run's temp dir.  The isolated-* paths run
tests/bad-wms/messy-session.sh as the compositor or the application: it notes the environment it
sees (which must point into the run's private folder, with a session bus that answers), writes
into its home and XDG folders, has the accessibility bus started (at-spi-bus-launcher and its
dbus-daemon, activated on its session bus), and leaves a bus daemon and a double-forked daemon
that ignores SIGTERM behind, all of which must be gone when the harness has exited.

Usage: tests/test_leftovers.py [-v] [NAME...]     (make check runs it; about 80 s)
"""
import os
import shutil
import signal
import sys
import tempfile
import time

from leftovers import client, compositor, inputs, isolation, own_server, replace, signals
from leftovers.sandbox import BAD_WM, FAKE_WM, HARNESS, MODEL_APP, Ctx, become_subreaper, daemon_alive, wait_until_clean

VERBOSE = False

TESTS = [("pass", compositor.t_pass), ("fail", compositor.t_fail),
         ("compositor-crash", compositor.t_compositor_crash), ("compositor-exit", compositor.t_compositor_exit),
         ("compositor-hang", compositor.t_compositor_hang), ("compositor-grab", compositor.t_compositor_grab),
         ("case-timeout", compositor.t_case_timeout), ("sigint", signals.t_sigint), ("sigterm", signals.t_sigterm),
         ("sigint-during-grab", signals.t_sigint_during_grab), ("sigint-stubborn-wm", signals.t_sigint_stubborn_wm),
         ("sigkill", signals.t_sigkill), ("malformed-case", inputs.t_malformed_case),
         ("unknown-option", inputs.t_unknown_option), ("wm-not-found", compositor.t_wm_not_found),
         ("never-ready", compositor.t_never_ready), ("crash-at-start", compositor.t_crash_at_start),
         ("out-not-writable", inputs.t_out_not_writable), ("own-pass", own_server.t_own_pass),
         ("own-crash", own_server.t_own_crash), ("own-sigint", own_server.t_own_sigint),
         ("own-no-report", own_server.t_own_no_report), ("client-not-found", client.t_client_not_found),
         ("client-exits-at-once", client.t_client_exits_at_once),
         ("client-not-installed", client.t_client_not_installed), ("client-crash", client.t_client_crash),
         ("sigint-during-probes", signals.t_sigint_during_probes),
         ("sigterm-client-probes", signals.t_sigterm_while_client_probed), ("isolated-wm", isolation.t_isolated_wm),
         ("isolated-client", isolation.t_isolated_client), ("isolated-sigkill", isolation.t_isolated_sigkill),
         ("replace-pass", replace.t_replace_pass), ("replace-zombie", replace.t_replace_zombie),
         ("replace-new-ends", replace.t_replace_new_ends), ("replace-sigint", replace.t_replace_sigint)]


def main():
    global VERBOSE
    args = sys.argv[1:]
    if "-v" in args:
        VERBOSE = True
        args.remove("-v")
    for b in (HARNESS, BAD_WM, FAKE_WM, MODEL_APP):
        if not os.access(b, os.X_OK):
            sys.exit("test_leftovers: %s is missing: run make" % b)
    become_subreaper()
    base = tempfile.mkdtemp(prefix="fs-leftovers-")
    failed = 0
    start = time.monotonic()
    for name, fn in TESTS:
        if args and name not in args:
            continue
        ctx = Ctx(name, base)
        t0 = time.monotonic()
        try:
            problems = fn(ctx)
        except Exception as e:  # a broken expectation is a failure, not a crash of the test
            problems = ["%s: %s" % (type(e).__name__, e)]
        took, procs, files = wait_until_clean(ctx.tmpdir, ctx.clean_within)
        problems += ["still alive after the harness ended: pid %d %s" % p for p in procs]
        problems += ["left in TMPDIR: %s" % f for f in files]
        problems += ["a daemon left by what the harness started still lives: pid %d" % pid
                     for pid in ctx.daemons() if daemon_alive(pid)]
        problems += ["the accessibility bus still lives: pid %d %s" % p for p in ctx.a11y_alive()]
        problems += ["written into the user's home: %s" % f for f in ctx.written_home()]
        left = [p for p, _ in procs + ctx.a11y_alive()] + [p for p in ctx.daemons() if daemon_alive(p)]
        for pid in left:  # do not let one failure spoil the next
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        wait_until_clean(ctx.tmpdir, 2.0)
        status = "ok" if not problems else "FAIL"
        print("%-4s %-18s %5.1f s%s" % (status, name, time.monotonic() - t0,
                                        "" if not problems else "\n       " + "\n       ".join(problems)))
        if problems:
            failed += 1
            for ext in (".stdout", ".stderr"):
                path = os.path.join(ctx.scratch, "harness" + ext)
                if VERBOSE and os.path.exists(path):
                    print(open(path).read()[-3000:])
    if not failed:
        shutil.rmtree(base, ignore_errors=True)
    else:
        print("test_leftovers: outputs kept in %s" % base)
    print("test_leftovers: %s (%d exit paths, %.1f s)" % ("FAILED" if failed else "passed",
                                                          sum(1 for n, _ in TESTS if not args or n in args),
                                                          time.monotonic() - start))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
