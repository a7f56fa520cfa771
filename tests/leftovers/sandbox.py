"""The machinery of the leftover tests: a sandbox of the user's session (a TMPDIR, a HOME and a
XDG_RUNTIME_DIR of its own, which must end empty), a run of the harness or the runner in it, and
the processes it leaves (this script is their child subreaper, so they are found as its children
in /proc)."""
import ctypes
import os
import re
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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


def pid_live(pid):
    """pid is a process that runs (a zombie nobody reaped yet does not)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2:].split()[0] != "Z"


def daemon_alive(pid):
    """pid, one of messy-session.sh's daemons, lives (a zombie does not; a pid reused by another
    program is not it)."""
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            cmd = f.read().replace(b"\0", b" ")
    except OSError:
        return False
    return pid_live(pid) and (b"sleep 600" in cmd or b"dbus-daemon" in cmd)


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

    def run(self, args, out=None, env=None, runner=False, probe=False):
        """probe: the harness probes the compositor (fake-wm) itself, instead of the table below"""
        out = out or os.path.join(self.scratch, "out")
        if "--wm" in args and "--features" not in args and not probe:
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


def results(out):
    return RunResults.load(os.path.join(out, "results.json")).to_json()


def wm(*words):
    return "exec " + " ".join(shlex.quote(w) for w in words)
