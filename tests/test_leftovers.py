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
import ctypes
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from runner.results import RunResults  # noqa: E402
HARNESS = os.path.join(ROOT, "harness", "framesync-harness")
FAKE_WM = os.path.join(ROOT, "fake-wm", "fake-wm")
BAD_WM = os.path.join(ROOT, "tests", "bad-wms", "bad-wm")
MODEL_APP = os.path.join(ROOT, "fake-clients", "model-app", "model-app")   # an application under test (--client)
OWN_WM = os.path.join(ROOT, "tests", "own-xserver-wm.sh")  # a compositor that brings its X server
MESSY = os.path.join(ROOT, "tests", "bad-wms", "messy-session.sh")  # writes into its home, leaves daemons
PR_SET_CHILD_SUBREAPER = 36
CASE = "basic/no-request-without-protocol"   # passes against any WM that maps and resizes
VERBOSE = False


def become_subreaper():
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit("test_leftovers: prctl(PR_SET_CHILD_SUBREAPER): %s" % os.strerror(ctypes.get_errno()))


def our_children():
    """Living (non-zombie) processes whose parent is this script: the harness's leftovers."""
    me, found = os.getpid(), []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                stat = f.read()
        except OSError:
            continue
        rest = stat[stat.rfind(")") + 2:].split()
        state, ppid = rest[0], int(rest[1])
        if ppid == me and state != "Z":
            try:
                with open("/proc/%s/cmdline" % entry, "rb") as f:
                    cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
            except OSError:
                cmd = "?"
            found.append((int(entry), cmd))
    return found


def daemon_alive(pid):
    """pid, one of messy-session.sh's daemons, lives (a zombie does not; a pid reused by another
    program is not it)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            cmd = f.read().replace(b"\0", b" ")
    except OSError:
        return False
    return stat[stat.rfind(")") + 2:].split()[0] != "Z" and (b"sleep 600" in cmd or b"dbus-daemon" in cmd)


def reap_zombies():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def wait_until_clean(tmpdir, within):
    """Waits (polling, with a deadline) until no child of ours lives and tmpdir is empty.
    Returns (seconds it took, leftover processes, leftover files)."""
    start = time.monotonic()
    while True:
        reap_zombies()
        procs = our_children()
        files = os.listdir(tmpdir)
        if not procs and not files:
            return time.monotonic() - start, [], []
        if time.monotonic() - start > within:
            return time.monotonic() - start, procs, files
        time.sleep(0.05)  # polling the process table: a test may wait with a deadline


USER_XDG = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME")


class Run:
    """The harness, or with runner=True the runner (in a session of its own, as a terminal runs
    it: interrupt() then signals its process group, as Ctrl-C does)."""

    def __init__(self, args, ctx, out, log_prefix, env=None, runner=False):
        self.out = out
        # the user's session, as far as the harness can see: a home and runtime dir that must
        # stay empty, the XDG homes unset (a program falls back to ~/.config ...), a bus address
        # that must not be the one anything under test gets
        env = dict(os.environ, TMPDIR=ctx.tmpdir, HOME=ctx.home, XDG_RUNTIME_DIR=ctx.user_runtime,
                   DBUS_SESSION_BUS_ADDRESS="unix:path=%s/bus" % ctx.user_runtime, **(env or {}))
        for name in ("DISPLAY", "XAUTHORITY") + USER_XDG:
            env.pop(name, None)
        self.stdout_path = log_prefix + ".stdout"
        self.stderr_path = log_prefix + ".stderr"
        self.fo = open(self.stdout_path, "w")
        self.fe = open(self.stderr_path, "w")
        cmd = [sys.executable, "-m", "runner"] + args if runner else [HARNESS] + args
        self.p = subprocess.Popen(cmd, stdout=self.fo, stderr=self.fe, env=env, stdin=subprocess.DEVNULL,
                                  cwd=ROOT, start_new_session=runner)

    def interrupt(self, sig):
        """The signal to the process group (a terminal's Ctrl-C is SIGINT to the foreground group)."""
        os.killpg(self.p.pid, sig)

    def wait_for_output(self, text, within):
        """Waits until text is in the harness's stdout (it writes each line as it goes)."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            with open(self.stdout_path) as f:
                if text in f.read():
                    return True
            if self.p.poll() is not None:
                return False
            time.sleep(0.05)
        return False

    def finish(self, within=60):
        try:
            rc = self.p.wait(timeout=within)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            rc = "timeout"
        self.fo.close()
        self.fe.close()
        with open(self.stdout_path) as f:
            self.stdout = f.read()
        with open(self.stderr_path) as f:
            self.stderr = f.read()
        return rc


def results(out):
    return RunResults.load(os.path.join(out, "results.json")).to_json()


def wm(*words):
    return "exec " + " ".join(shlex.quote(w) for w in words)


# ---- the exit paths: each returns a list of problems ----

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


def t_malformed_case(ctx):
    cases = os.path.join(ctx.scratch, "bad-cases")
    os.makedirs(os.path.join(cases, "basic"), exist_ok=True)
    shutil.copy(os.path.join(ROOT, "cases", "clauses.txt"), cases)
    with open(os.path.join(cases, "basic", "broken.case"), "w") as f:
        f.write("case: basic/broken\nclause: ewmh-1.5/basic/participation\nprofiles: ewmh-1.5\n"
                "description: broken\nchecks: 1\n\nclient A\nwait A map-notify within soon\n")
    r = ctx.run(["--cases", cases])
    rc = r.finish()
    return (ctx.expect(rc == 2, "exit %s, not 2" % rc)
            + ctx.expect("broken.case:8:" in r.stderr, "no FILE:LINE in %r" % r.stderr[-300:])
            + ctx.expect(not os.path.exists(r.out), "the output folder was created for a malformed case"))


def t_unknown_option(ctx):
    r = ctx.run(["--no-such-option"])
    rc = r.finish()
    return (ctx.expect(rc == 2, "exit %s, not 2" % rc)
            + ctx.expect("unknown option `--no-such-option`" in r.stderr, "message: %r" % r.stderr))


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


def t_crash_at_start(ctx):
    r = ctx.run(["--profile", "ewmh-1.5", "--filter", CASE, "--wm", wm(BAD_WM, "crash-at-start")])
    rc = r.finish()
    return (ctx.expect(rc == 2, "exit %s, not 2" % rc)
            + ctx.expect("killed by signal 11" in r.stderr and "bad-wm: crashing at start" in r.stderr,
                         "message: %r" % r.stderr))


# ---- the application under test (--client) ----

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


def t_out_not_writable(ctx):
    blocker = os.path.join(ctx.scratch, "a-file")
    with open(blocker, "w") as f:
        f.write("not a folder\n")
    r = ctx.run(["--profile", "ewmh-1.5", "--filter", CASE], out=os.path.join(blocker, "out"))
    rc = r.finish()
    return (ctx.expect(rc == 2, "exit %s, not 2" % rc)
            + ctx.expect("cannot create the output folder %s/out" % blocker in r.stderr, "message: %r" % r.stderr))


def messy(ctx, *words):
    """A command line that runs tests/bad-wms/messy-session.sh (its notes in ctx.notes) around words."""
    return "exec " + " ".join(shlex.quote(w) for w in (MESSY, ctx.notes) + words)


def private_env(ctx, what, folder_re):
    """What messy-session.sh noted: its HOME, XDG folders and session bus are in the run's private
    folder (folder_re, under TMPDIR), the runtime dir is 0700, and the bus answered."""
    try:
        with open(os.path.join(ctx.notes, "env")) as f:
            env = dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)
        with open(os.path.join(ctx.notes, "runtime-mode")) as f:
            mode = f.read().strip()
        with open(os.path.join(ctx.notes, "bus")) as f:
            bus = f.read()
    except OSError as e:
        return ["%s left no notes: %s" % (what, e)]
    folder = re.compile("^" + re.escape(ctx.tmpdir) + "/" + folder_re + "/")
    problems = []
    for name in ("HOME", "XDG_RUNTIME_DIR") + USER_XDG:
        value = env.get(name, "")
        problems += ctx.expect(folder.match(value + "/"), "the %s's %s is %r, not in the run's private folder"
                               % (what, name, value))
    address = env.get("DBUS_SESSION_BUS_ADDRESS", "")
    problems += ctx.expect(address.startswith("unix:path=%s/bus," % env.get("XDG_RUNTIME_DIR")),
                           "the %s's DBUS_SESSION_BUS_ADDRESS is %r, not its own bus" % (what, address))
    problems += ctx.expect(mode == "700", "the %s's XDG_RUNTIME_DIR has mode %s, not 700" % (what, mode))
    problems += ctx.expect('string "' in bus, "the %s's session bus did not answer: %r" % (what, bus[-200:]))
    a11y = ctx.a11y_socket()
    problems += ctx.expect(a11y is None or a11y.startswith(env.get("XDG_RUNTIME_DIR", "?") + "/"),
                           "the %s's accessibility bus is at %s, not in its runtime dir" % (what, a11y))
    return problems


def t_isolated_wm(ctx):
    """A compositor given as a command line: a private home and bus of its start, and what it left
    (a bus daemon, a double-forked daemon deaf to SIGTERM) gone with it."""
    r = ctx.run(["--profile", "ewmh-1.5", "--filter", CASE, "--wm", messy(ctx, BAD_WM, "behave")])
    rc = r.finish()
    return (ctx.expect(rc == 0, "exit %s, not 0" % rc)
            + private_env(ctx, "compositor", r"framesync-\w{6}/wm-\w{6}")
            + ctx.expect(len(ctx.daemons()) == 2, "the compositor left %d daemons, not 2" % len(ctx.daemons())))


def t_isolated_client(ctx):
    """The application under --client (started by app-observer in each case): the run's private home
    and bus, and the daemons it left at each start gone."""
    r = ctx.run(["--profile", "ewmh-1.5", "--filter", "client/participation", "--client", messy(ctx, MODEL_APP)],
                env={"FRAMESYNC_CLIENT_ANIMATES": "forever"})
    rc = r.finish()
    return (ctx.expect(rc == 0, "exit %s, not 0" % rc)
            + private_env(ctx, "application", r"framesync-\w{6}")
            + ctx.expect(len(ctx.daemons()) >= 2, "the application left %d daemons" % len(ctx.daemons())))


def t_isolated_sigkill(ctx):
    """The harness killed while the compositor's daemons live: the reaper finds them by their mark."""
    r = ctx.run(["--wm", messy(ctx, FAKE_WM, "--profile", "{profile}")])
    if not r.wait_for_output("\nok ", 30):
        r.finish(5)
        return ["no case finished before the kill"]
    r.p.kill()
    rc = r.finish(10)
    ctx.clean_within = 3.0  # the reaper needs a moment: kill the groups and the marked, remove the temp dir
    return (ctx.expect(rc == -signal.SIGKILL, "exit %s" % rc)
            + ctx.expect(len(ctx.daemons()) >= 2, "the compositor left %d daemons" % len(ctx.daemons())))


TESTS = [("pass", t_pass), ("fail", t_fail), ("compositor-crash", t_compositor_crash),
         ("compositor-exit", t_compositor_exit), ("compositor-hang", t_compositor_hang), ("compositor-grab", t_compositor_grab),
         ("case-timeout", t_case_timeout), ("sigint", t_sigint), ("sigterm", t_sigterm),
         ("sigint-during-grab", t_sigint_during_grab), ("sigint-stubborn-wm", t_sigint_stubborn_wm),         ("sigkill", t_sigkill), ("malformed-case", t_malformed_case), ("unknown-option", t_unknown_option),
         ("wm-not-found", t_wm_not_found), ("never-ready", t_never_ready), ("crash-at-start", t_crash_at_start),
         ("out-not-writable", t_out_not_writable), ("own-pass", t_own_pass), ("own-crash", t_own_crash),
         ("own-sigint", t_own_sigint), ("own-no-report", t_own_no_report), ("client-not-found", t_client_not_found),
         ("client-exits-at-once", t_client_exits_at_once), ("client-not-installed", t_client_not_installed),
         ("client-crash", t_client_crash), ("sigint-during-probes", t_sigint_during_probes),
         ("sigterm-client-probes", t_sigterm_while_client_probed),
         ("isolated-wm", t_isolated_wm), ("isolated-client", t_isolated_client),
         ("isolated-sigkill", t_isolated_sigkill)]


class Ctx:
    def __init__(self, name, base):
        self.name = name
        self.scratch = os.path.join(base, name)
        self.tmpdir = os.path.join(self.scratch, "tmp")
        self.home = os.path.join(self.scratch, "home")            # the user's: must stay empty
        self.user_runtime = os.path.join(self.scratch, "user-run")  # the user's XDG_RUNTIME_DIR: as well
        self.notes = os.path.join(self.scratch, "notes")          # messy-session.sh's
        for d in (self.tmpdir, self.home, self.user_runtime, self.notes):
            os.makedirs(d, mode=0o700)
        self.clean_within = 2.0

    def run(self, args, out=None, env=None, runner=False):
        out = out or os.path.join(self.scratch, "out")
        if "--wm" in args and "--features" not in args:
            args = args + ["--features", self.features_for(args[args.index("--wm") + 1])]
        return Run(["--out", out] + args, self, out, os.path.join(self.scratch, "harness"), env, runner)

    def daemons(self):
        """The pids of the daemons messy-session.sh left behind (none when it did not run)."""
        try:
            with open(os.path.join(self.notes, "daemons")) as f:
                return [int(w) for w in f.read().split()]
        except OSError:
            return []

    def a11y_socket(self):
        """The socket of the accessibility bus messy-session.sh asked its session bus for (None when
        it did not run, or at-spi2-core is not installed)."""
        try:
            with open(os.path.join(self.notes, "a11y")) as f:
                m = re.search(r'string "unix:path=([^,"]+)', f.read())
        except OSError:
            return None
        return m.group(1) if m else None

    def a11y_alive(self):
        """The processes of that accessibility bus still alive (its dbus-daemon names the socket)."""
        socket, found = self.a11y_socket(), []
        for entry in os.listdir("/proc") if socket else []:
            try:
                with open("/proc/%s/cmdline" % entry, "rb") as f:
                    cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if entry.isdigit() and socket in cmd:
                found.append((int(entry), cmd))
        return found

    def written_home(self):
        """What appeared in the user's home or runtime dir."""
        found = []
        for top in (self.home, self.user_runtime):
            for folder, dirs, files in os.walk(top):
                found += [os.path.join(folder, n) for n in dirs + files]
        return found

    def features_for(self, command):
        """A feature table for a misbehaving WM, so the harness does not probe it: each exit path
        is then taken in the first case, as the test expects, not in a probe.  CASE needs a WM
        that maps and resizes (with a ConfigureRequest) and requires `sync-requests`, which the
        table grants: the case checks that a window without the protocol gets no request, which
        bad-wm, sending none at all, passes."""
        path = os.path.join(self.scratch, "features.tsv")
        rows = [("wm", "present", "selection"), ("compositing", "absent", "selection"),
                ("trigger-configure", "present", "probe"), ("trigger-keyboard", "absent", "probe"),
                ("trigger-pointer", "absent", "probe"), ("trigger-map", "absent", "probe"),
                ("sync-requests", "present", "derived")]
        with open(path, "w") as f:
            for name, state, source in rows:
                f.write("%s\t%s\t%s\t%s\t0.0\tgiven by tests/test_leftovers.py\n" % (command, name, state, source))
        return path

    @staticmethod
    def expect(cond, msg):
        return [] if cond else [msg]


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
