"""Exit paths of the application under test (--client): one that cannot start (not found, exits at
once, not installed: input errors) and one that crashes in a case (client/crash)."""
import shlex
import subprocess

from leftovers.sandbox import HARNESS, MODEL_APP, results

def t_client_not_found(ctx):
    """An application that cannot start is an input error, as a compositor that cannot: exit 2 and
    one message with the command and why, before any case runs (not 37 UNRESOLVED)."""
    r = ctx.run(["--client", "no-such-app-xyz --demo", "--profile", "ewmh-1.5"])
    rc = r.finish()
    doc = results(r.out)
    return (ctx.expect(rc == 2, "exit %s, not 2" % rc)
            + ctx.expect("`no-such-app-xyz --demo` exited with status 127" in r.stderr and "before it mapped a window"
                         in r.stderr and "no-such-app-xyz: not found" in r.stderr, "message: %r" % r.stderr)
            + ctx.expect(r.stderr.count("framesync:") == 1, "more than one message: %r" % r.stderr)
            + ctx.expect(not doc["cases"] and "`no-such-app-xyz --demo` exited with status 127" in doc["status"],
                         "results.json passes something off as a result: %s" % doc["status"][:100])
            + ctx.expect(r.stdout.strip().splitlines()[-1].startswith("Bail out! the application under test"),
                         "TAP does not end with the Bail out!: %r" % r.stdout[-300:]))


def t_client_exits_at_once(ctx):
    r = ctx.run(["--client", "echo starting; echo no display for me >&2; exit 3", "--profile", "ewmh-1.5"])
    rc = r.finish()
    return (ctx.expect(rc == 2, "exit %s, not 2" % rc)
            + ctx.expect("exited with status 3," in r.stderr and "no display for me" in r.stderr,
                         "message: %r" % r.stderr))


def t_client_not_installed(ctx):
    """A named client (clients/NAME.conf) whose program is not installed: exit 2, its package named."""
    listing = subprocess.run([HARNESS, "--list-clients"], capture_output=True, text=True).stdout.splitlines()[1:]
    missing = [line.split()[0] for line in listing if line.split()[1:2] == ["no"]]
    if not missing:
        return []  # every named client is installed here: nothing to show
    r = ctx.run(["--client", missing[0], "--profile", "ewmh-1.5"])
    rc = r.finish()
    return (ctx.expect(rc == 2, "exit %s, not 2" % rc)
            + ctx.expect("client %s (" % missing[0] in r.stderr and "is not installed (Debian packages: " in r.stderr,
                         "message: %r" % r.stderr))


def t_client_crash(ctx):
    """An application that starts and then crashes in a case: that case FAILs under client/crash
    (level defect) with its signal and its last output, the others are judged as usual."""
    r = ctx.run(["--client", "%s --fault crash-on-request" % shlex.quote(MODEL_APP), "--profile", "ewmh-1.5",
                 "--filter", "client/(answer-basic/animating|participation)"], env={"FRAMESYNC_CLIENT_ANIMATES": "forever"})
    rc = r.finish()
    res = {c["id"]: c for c in results(r.out)["cases"]}
    crash = res.get("client/answer-basic/animating", {})
    return (ctx.expect(rc == 1, "exit %s, not 1" % rc)
            + ctx.expect(crash.get("verdict") == "FAIL" and crash.get("failed_clause") == "client/crash"
                         and crash.get("level") == "defect", "not a FAIL under client/crash: %s" % crash)
            + ctx.expect("signal 6" in crash.get("reason", "") and "crashing on a sync request" in crash.get("reason", ""),
                         "the reason has not what it did and printed: %r" % crash.get("reason"))
            + ctx.expect(res.get("client/participation", {}).get("verdict") == "PASS", "participation did not pass"))
