"""Exit paths of a compositor that brings its own X server (tests/own-xserver-wm.sh): a pass, a
crash and a restart, an interrupt, a session that never reports its server; no lock or socket of
any server it attached to is left."""
import os
import re
import shlex
import signal

from leftovers.sandbox import BAD_WM, CASE, FAKE_WM, OWN_WM, results

def own(*words):
    """A compositor that brings its own X server (xserver: own) running the WM command words."""
    return " ".join([shlex.quote(OWN_WM), "{report}"] + [shlex.quote(w) for w in words])


def own_displays_left(stdout):
    """The X servers the run attached to ("the compositor brings its X server: :N") whose lock or
    socket is still there (other suites' servers are not ours to judge)."""
    left = []
    for n in re.findall(r"brings its X server: :(\d+)", stdout):
        for path in ("/tmp/.X11-unix/X%s" % n, "/tmp/.X%s-lock" % n):
            if os.path.exists(path):
                left.append(path)
    return left


def t_own_pass(ctx):
    r = ctx.run(["--profile", "ewmh-1.5", "--filter", CASE, "--xserver", "own",
                 "--wm", own(FAKE_WM, "--profile", "{profile}")])
    rc = r.finish()
    return (ctx.expect(rc == 0, "exit %s, not 0" % rc) + ctx.expect("1 passed" in r.stdout, "no '1 passed'")
            + ctx.expect("brings its X server" in r.stdout, "no word of its own X server")
            + ctx.expect(not own_displays_left(r.stdout), "left: %s" % own_displays_left(r.stdout)))


def t_own_crash(ctx):
    """A compositor with its own X server crashes: its server goes with it, the harness attaches to
    the next one, and nothing of either is left."""
    once = os.path.join(ctx.scratch, "crashed-once")
    r = ctx.run(["--profile", "ewmh-1.5,draft-2011", "--filter", CASE, "--xserver", "own",
                 "--wm", own(BAD_WM, "--once", once, "crash-on-map", "1")])
    rc = r.finish()
    res = results(r.out)["cases"]
    return (ctx.expect(rc == 1, "exit %s, not 1" % rc)
            + ctx.expect(len(res) == 2 and res[0]["verdict"] == "FAIL" and res[0].get("failed_clause") == "compositor/crash",
                         "first case not the crash: %s" % res[:1])
            + ctx.expect(len(res) == 2 and res[1]["verdict"] == "PASS", "the case after the restart did not pass")
            + ctx.expect(not own_displays_left(r.stdout), "left: %s" % own_displays_left(r.stdout)))


def t_own_sigint(ctx):
    r = ctx.run(["--xserver", "own", "--wm", own(FAKE_WM, "--profile", "{profile}")])
    if not r.wait_for_output("\nok ", 30):
        r.finish(5)
        return ["no case finished before the interrupt"]
    r.p.send_signal(signal.SIGINT)
    rc = r.finish(10)
    ctx.clean_within = 2.0
    return (ctx.expect(rc == 130, "exit %s, not 130" % rc)
            + ctx.expect(not own_displays_left(r.stdout), "left: %s" % own_displays_left(r.stdout)))


def t_own_no_report(ctx):
    r = ctx.run(["--profile", "ewmh-1.5", "--filter", CASE, "--wm-timeout", "1000", "--xserver", "own",
                 "--wm", "exec sleep 30 # never runs {report}"])
    rc = r.finish()
    return (ctx.expect(rc == 2, "exit %s, not 2" % rc)
            + ctx.expect("started no session that reported its X server" in r.stderr, "message: %r" % r.stderr))
