"""Exit paths by a signal: the harness interrupted (SIGINT, SIGTERM) during a case, a server grab or
beside a stubborn compositor, killed (SIGKILL: the reaper cleans up), and the runner interrupted
while it probes the compositor or the application."""
import os
import shlex
import signal
import time

from leftovers.sandbox import BAD_WM, CASE, MODEL_APP, results, wm

def interrupt(ctx, sig, rc_want, name):
    r = ctx.run([])  # the whole suite: long enough to interrupt in the middle
    if not r.wait_for_output("\nok ", 30):
        r.finish(5)
        return ["no case finished before the interrupt"]
    sent = time.monotonic()
    r.p.send_signal(sig)
    rc = r.finish(10)
    took = time.monotonic() - sent
    problems = ctx.expect(rc == rc_want, "exit %s, not %s" % (rc, rc_want))
    problems += ctx.expect(took < 2.0, "the harness took %.1f s to exit" % took)
    last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
    problems += ctx.expect(last == "Bail out! interrupted by %s" % name, "TAP ends with %r" % last)
    try:
        doc = results(r.out)
        problems += ctx.expect(doc["status"] == "interrupted by %s" % name, "results.json status %r" % doc["status"])
        problems += ctx.expect(len(doc["cases"]) >= 1, "results.json lost the cases run so far")
    except (OSError, ValueError) as e:
        problems.append("results.json unreadable: %s" % e)
    ctx.clean_within = max(0.0, 2.0 - took)  # every child gone within 2 s of the signal
    return problems


def t_sigint(ctx):
    return interrupt(ctx, signal.SIGINT, 130, "Interrupt")


def t_sigterm(ctx):
    return interrupt(ctx, signal.SIGTERM, 143, "Terminated")


def t_sigint_during_grab(ctx):
    r = ctx.run(["--profile", "ewmh-1.5", "--filter", CASE, "--wm", wm(BAD_WM, "grab-on-map", "1", "0")])
    if not r.wait_for_output("# compositor ", 20):
        r.finish(5)
        return ["the compositor did not start"]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # until it holds the grab (it says so in its log)
        try:
            with open(os.path.join(r.out, "logs", "compositor.log")) as f:
                if "grab-on-map" in f.read():
                    break
        except OSError:
            pass
        time.sleep(0.05)
    time.sleep(0.3)  # the harness is then blocked on the grabbed server: interrupt it there
    sent = time.monotonic()
    r.p.send_signal(signal.SIGINT)
    rc = r.finish(10)
    took = time.monotonic() - sent
    ctx.clean_within = max(0.0, 2.0 - took)
    return (ctx.expect(rc == 130, "exit %s, not 130" % rc)
            + ctx.expect(took < 2.0, "the harness took %.1f s to exit" % took))


def t_sigint_stubborn_wm(ctx):
    """A compositor that ignores SIGTERM (and is stopped): still gone within 2 s of the SIGINT."""
    r = ctx.run(["--profile", "ewmh-1.5", "--filter", CASE, "--wm", wm(BAD_WM, "--ignore-term", "stop-on-map", "1")])
    if not r.wait_for_output("# compositor ", 20):
        r.finish(5)
        return ["the compositor did not start"]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # until it has stopped itself
        try:
            with open(os.path.join(r.out, "logs", "compositor.log")) as f:
                if "stop-on-map" in f.read():
                    break
        except OSError:
            pass
        time.sleep(0.05)
    sent = time.monotonic()
    r.p.send_signal(signal.SIGINT)
    rc = r.finish(10)
    took = time.monotonic() - sent
    ctx.clean_within = max(0.0, 2.0 - took)
    return (ctx.expect(rc == 130, "exit %s, not 130" % rc)
            + ctx.expect(took < 2.0, "the harness took %.1f s to exit" % took))


def t_sigkill(ctx):
    r = ctx.run([])
    if not r.wait_for_output("\nok ", 30):
        r.finish(5)
        return ["no case finished before the kill"]
    r.p.kill()
    rc = r.finish(10)
    ctx.clean_within = 3.0  # the reaper needs a moment: kill the groups, remove the temp dir
    return ctx.expect(rc == -signal.SIGKILL, "exit %s" % rc)


def interrupt_probes(ctx, sig, name, args, env=None):
    """The runner interrupted while it probes (its probe pass, before any worker): every output says
    so, and no X server or other process is left."""
    r = ctx.run(["--jobs", "1", "--profile", "de-facto"] + args, env=env, runner=True)
    probing = os.path.join(r.out, "probes", "0", "logs", "probes", "de-facto")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (os.path.isdir(probing) and os.listdir(probing)):
        if r.p.poll() is not None:
            break
        time.sleep(0.05)  # polling the file system, with a deadline: the first probe's log
    if not (os.path.isdir(probing) and os.listdir(probing)):
        r.finish(5)
        return ["the probes did not start"]
    sent = time.monotonic()
    r.interrupt(sig)
    rc = r.finish(15)
    took = time.monotonic() - sent
    why = "interrupted by %s" % name
    problems = ctx.expect(rc == 128 + sig, "exit %s, not %d" % (rc, 128 + sig))
    problems += ctx.expect(took < 3.0, "the run took %.1f s to end" % took)
    with open(os.path.join(r.out, "results.tap")) as f:
        tap = f.read().splitlines()
    problems += ctx.expect(tap[-1:] == ["Bail out! " + why], "results.tap ends with %r" % tap[-1:])
    problems += ctx.expect(any(line.startswith("# X server") for line in tap), "results.tap has nothing of what ran")
    doc = results(r.out)
    problems += ctx.expect(doc["status"] == why and (doc.get("run") or {}).get("verdict") == "interrupted"
                           and doc["run"].get("exit_status") == 128 + sig,
                           "results.json: status %r, run %r" % (doc["status"], doc.get("run")))
    try:
        with open(os.path.join(r.out, "junit.xml")) as f:
            junit = f.read()
        with open(os.path.join(r.out, "index.html")) as f:
            page = f.read()
        problems += ctx.expect('type="interrupted"' in junit, "junit.xml has no error for the interrupted run")
        problems += ctx.expect("<b>Run interrupted</b>" in page, "index.html does not say the run was interrupted")
    except OSError as e:
        problems.append("no report: %s" % e)
    ctx.clean_within = max(0.0, 3.0 - took)
    return problems


def t_sigint_during_probes(ctx):
    return interrupt_probes(ctx, signal.SIGINT, "Interrupt", [])


def t_sigterm_while_client_probed(ctx):
    return interrupt_probes(ctx, signal.SIGTERM, "Terminated", ["--client", shlex.quote(MODEL_APP)],
                            env={"FRAMESYNC_CLIENT_ANIMATES": "forever"})
