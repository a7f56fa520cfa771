"""Exit paths of a compositor replaced mid-case (the replace-wm step): the old and the new instance
both reaped, whether the old one exits as it should, stays (fake-wm replaced-keeps-hold), or the new
one ends before it is ready, and when the run is interrupted while both run."""
import os
import signal
import time

from leftovers.sandbox import FAKE_WM, results, wm

REPLACE_CASE = "^lifecycle/replace-mid-update$"


def wait_for_log(r, text, within):
    """Waits until text is in the compositor's log of run r (both instances write there)."""
    deadline = time.monotonic() + within
    while True:
        try:
            with open(os.path.join(r.out, "logs", "compositor.log")) as f:
                if text in f.read():
                    return True
        except OSError:
            pass
        if r.p.poll() is not None or time.monotonic() >= deadline:
            return False
        time.sleep(0.05)


def t_replace_pass(ctx):
    """The old instance exits when the new one takes over; the new one ends with the run."""
    r = ctx.run(["--profile", "de-facto", "--filter", REPLACE_CASE], probe=True)
    rc = r.finish()
    return (ctx.expect(rc == 0, "exit %s, not 0" % rc) + ctx.expect("1 passed, 0 failed" in r.stdout, "no '1 passed'")
            + ctx.expect(wait_for_log(r, "lost WM_S0 to a new manager", 0), "the old instance was not replaced"))


def t_replace_zombie(ctx):
    """An old instance that keeps running (fault replaced-keeps-hold): the case FAILs, and the old
    one is stopped after it."""
    r = ctx.run(["--profile", "de-facto", "--filter", REPLACE_CASE,
                 "--wm", wm(FAKE_WM, "--profile", "{profile}", "--inject", "replaced-keeps-hold")], probe=True)
    rc = r.finish()
    res = results(r.out)["cases"]
    return (ctx.expect(rc == 1, "exit %s, not 1" % rc)
            + ctx.expect(res and res[0].get("failed_clause") == "lifecycle/replace/update-ended-shown",
                         "not a FAIL of update-ended-shown: %s" % res[:1]))


def t_replace_new_ends(ctx):
    """A new instance that ends before it is ready: compositor/crash, the old one stopped."""
    r = ctx.run(["--profile", "de-facto", "--filter", REPLACE_CASE, "--replace-with", "exec sh -c 'exit 4'"],
                probe=True)
    rc = r.finish()
    res = results(r.out)["cases"]
    return (ctx.expect(rc == 1, "exit %s, not 1" % rc)
            + ctx.expect(res and res[0].get("failed_clause") == "compositor/crash"
                         and "ended before it was ready" in res[0]["reason"], "not a crash of the new one: %s" % res[:1]))


def t_replace_sigint(ctx):
    """Ctrl-C while the replaced zombie and the new instance both run."""
    r = ctx.run(["--profile", "de-facto", "--filter", REPLACE_CASE,
                 "--wm", wm(FAKE_WM, "--profile", "{profile}", "--inject", "replaced-keeps-hold")], probe=True)
    if not wait_for_log(r, "does not exit (fault replaced-keeps-hold)", 30):
        r.finish(5)
        return ["the compositor was not replaced"]
    sent = time.monotonic()
    r.p.send_signal(signal.SIGINT)
    rc = r.finish(10)
    took = time.monotonic() - sent
    ctx.clean_within = max(0.0, 2.0 - took)
    return (ctx.expect(rc == 130, "exit %s, not 130" % rc)
            + ctx.expect(took < 2.0, "the harness took %.1f s to exit" % took))
