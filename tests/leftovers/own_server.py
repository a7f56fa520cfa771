"""Exit paths of a compositor that brings its own X server (tests/own-xserver-wm.sh): a pass, a
crash and a restart, an interrupt, a session that never reports its server; no lock or socket of
any server it attached to is left."""
import os
import re
import shlex
import signal
import socket

from leftovers.sandbox import BAD_WM, CASE, FAKE_WM, OWN_WM, pid_live, results

def own(*words):
    """A compositor that brings its own X server (xserver: own) running the WM command words."""
    return " ".join([shlex.quote(OWN_WM), "{report}"] + [shlex.quote(w) for w in words])


def lock_pid(display):
    """The process named by display N's lock file, or None when there is no lock."""
    try:
        with open("/tmp/.X%s-lock" % display) as f:
            return int(f.read().strip() or 0)
    except (OSError, ValueError):
        return None


def served(sock):
    """Does a live server listen on this socket? (A server's remains refuse the connection.)"""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(sock)
        return True
    except OSError:
        return False
    finally:
        s.close()


def own_displays_left(stdout):
    """What is left of the X servers the run attached to ("brings its X server: :N (pid P"): the
    server itself, its lock, or its socket with nobody listening. Once ours is gone, another server
    (make check's other lane) may take the same number, and a starting Xvfb -displayfd makes its
    socket before its lock: a lock naming another process, or a socket somebody serves, is that
    server's, not ours to judge."""
    left = []
    attached = re.findall(r"brings its X server: :(\d+) \(pid (\d+)", stdout)
    if len(attached) != stdout.count("brings its X server"):
        left.append("a server named without its display and pid: cannot tell what is left")
    for n, pid in attached:
        pid = int(pid)
        if pid > 0 and pid_live(pid):
            left.append("X server pid %d of :%s" % (pid, n))
        if lock_pid(n) == pid:
            left.append("/tmp/.X%s-lock" % n)
        sock = "/tmp/.X11-unix/X%s" % n
        if os.path.exists(sock) and not served(sock):
            left.append(sock)
    return sorted(set(left))


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
