"""Exit paths through the compositor under test: it passes, fails, crashes, exits, hangs, grabs the
server, outlives the case watchdog, or never starts (an input error: exit 2 and one message)."""
import os

from leftovers.sandbox import BAD_WM, CASE, FAKE_WM, results, wm

def t_pass(ctx):
    r = ctx.run(["--profile", "ewmh-1.5", "--filter", CASE])
    rc = r.finish()
    return ctx.expect(rc == 0, "exit %s, not 0" % rc) + ctx.expect("1 passed, 0 failed" in r.stdout, "no '1 passed'")


def t_fail(ctx):
    r = ctx.run(["--profile", "ewmh-1.5", "--filter", CASE,
                 "--wm", wm(FAKE_WM, "--profile", "{profile}", "--inject", "sync-to-all")])
    rc = r.finish()
    return ctx.expect(rc == 1, "exit %s, not 1" % rc) + ctx.expect("not ok 1 - " + CASE in r.stdout, "no 'not ok'")


def t_compositor_crash(ctx):
    once = os.path.join(ctx.scratch, "crashed-once")
    r = ctx.run(["--profile", "ewmh-1.5,draft-2011", "--filter", CASE,
                 "--wm", wm(BAD_WM, "--once", once, "crash-on-map", "1")])
    rc = r.finish()
    res = results(r.out)["cases"]
    return (ctx.expect(rc == 1, "exit %s, not 1" % rc)
            + ctx.expect(len(res) == 2 and res[0]["verdict"] == "FAIL"
                         and "killed by signal 11" in res[0]["reason"], "first case not FAIL by signal 11: %s" % res[:1])
            + ctx.expect("restarting the compositor" in r.stdout, "no restart")
            + ctx.expect(len(res) == 2 and res[1]["verdict"] == "PASS", "the case after the restart did not pass"))


def t_compositor_exit(ctx):
    r = ctx.run(["--profile", "ewmh-1.5", "--filter", CASE, "--wm", wm(BAD_WM, "exit-on-map", "1", "3")])
    rc = r.finish()
    res = results(r.out)["cases"]
    return (ctx.expect(rc == 1, "exit %s, not 1" % rc)
            + ctx.expect(res and res[0]["verdict"] == "FAIL" and "exited with status 3" in res[0]["reason"],
                         "compositor exit not a FAIL with its status: %s" % res[:1]))


def t_compositor_hang(ctx):
    r = ctx.run(["--profile", "ewmh-1.5", "--filter", CASE, "--wm", wm(BAD_WM, "stop-on-map", "1")])
    rc = r.finish()
    res = results(r.out)["cases"]
    return (ctx.expect(rc == 1, "exit %s, not 1" % rc)
            + ctx.expect(res and res[0]["verdict"] == "FAIL" and "stopped" in res[0]["observed"],
                         "hung compositor not a FAIL naming it stopped: %s" % res[:1]))


def t_compositor_grab(ctx):
    r = ctx.run(["--profile", "ewmh-1.5", "--filter", CASE, "--wm", wm(BAD_WM, "grab-on-map", "1", "0")])
    rc = r.finish()
    res = results(r.out)["cases"]
    return (ctx.expect(rc == 1, "exit %s, not 1" % rc)
            + ctx.expect(res and res[0]["verdict"] == "FAIL" and "grabbed the server for" in res[0]["reason"],
                         "server grab not reported: %s" % res[:1]))


def t_case_timeout(ctx):
    r = ctx.run(["--profile", "ewmh-1.5,draft-2011", "--filter", CASE, "--case-timeout", "500",
                 "--wm", wm(BAD_WM, "stop-on-map", "1")])
    rc = r.finish()
    res = results(r.out)["cases"]
    # the watchdog ends each case after 500 ms; the WM it waited for is stopped (state T), so the
    # case is the compositor's crash, with the watchdog named in what the case had seen
    return (ctx.expect(rc == 1, "exit %s, not 1" % rc)
            + ctx.expect(len(res) == 2 and all(c["verdict"] == "FAIL" and c.get("failed_clause") == "compositor/crash"
                                               and "--case-timeout 500" in c["reason"] and c["duration_ms"] < 1500
                                               for c in res), "watchdog did not bound both cases: %s" % res))


def t_wm_not_found(ctx):
    r = ctx.run(["--profile", "ewmh-1.5", "--filter", CASE, "--wm", "no-such-compositor-xyz --replace"])
    rc = r.finish()
    doc = results(r.out)
    return (ctx.expect(rc == 2, "exit %s, not 2" % rc)
            + ctx.expect("no-such-compositor-xyz" in r.stderr and "not found" in r.stderr, "message: %r" % r.stderr)
            + ctx.expect(not doc["cases"] and "exited before it was ready" in doc["status"],
                         "results.json passes something off as a result: %s" % doc["status"][:100]))


def t_never_ready(ctx):
    r = ctx.run(["--profile", "ewmh-1.5", "--filter", CASE, "--wm-timeout", "1000",
                 "--wm", wm(BAD_WM, "never-ready")])
    rc = r.finish()
    return (ctx.expect(rc == 2, "exit %s, not 2" % rc)
            + ctx.expect("was not ready after 1000 ms" in r.stderr and "never taking WM_S0" in r.stderr,
                         "message: %r" % r.stderr))


def t_crash_at_start(ctx):
    r = ctx.run(["--profile", "ewmh-1.5", "--filter", CASE, "--wm", wm(BAD_WM, "crash-at-start")])
    rc = r.finish()
    return (ctx.expect(rc == 2, "exit %s, not 2" % rc)
            + ctx.expect("killed by signal 11" in r.stderr and "bad-wm: crashing at start" in r.stderr,
                         "message: %r" % r.stderr))
