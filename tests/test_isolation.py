#!/usr/bin/env python3
"""Isolation of a run: its Xvfb takes no client without the run's cookie (no cookie, a wrong
cookie, another run's cookie; a control with the right cookie must get in), does not listen on
TCP, its temp dir is 0700 and the cookie file 0600; two full runs at the same time do not
interfere (different displays and temp dirs, both pass everything).

Usage: tests/test_isolation.py      (make check runs it; about 20 s)
"""
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARNESS = os.path.join(ROOT, "harness", "framesync-harness")
BAD_WM = os.path.join(ROOT, "tests", "bad-wms", "bad-wm")
# groups that pass against fake-wm whatever else is being worked on; enough for two runs to overlap
STABLE = "^(basic|extended|forms|robustness)/"


def read_cookie(path):
    """The MIT-MAGIC-COOKIE-1 data of the first entry of an Xauthority file."""
    with open(path, "rb") as f:
        data = f.read()
    off = 2
    fields = []
    for _ in range(4):  # address, display number, auth name, auth data
        n = struct.unpack(">H", data[off:off + 2])[0]
        fields.append(data[off + 2:off + 2 + n])
        off += 2 + n
    return fields[2], fields[3]


def x_setup(address, name=b"", data=b""):
    """Sends an X11 connection setup; returns ('success'|'failed'|'authenticate'|'error', detail)."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(5)
    try:
        s.connect(address)
        pad = lambda b: b + b"\0" * (-len(b) % 4)
        s.sendall(struct.pack("<cxHHHHxx", b"l", 11, 0, len(name), len(data)) + pad(name) + pad(data))
        head = s.recv(8)
        if len(head) < 8:
            return "error", "short reply"
        status, reason_len = head[0], head[1]
        if status == 1:
            return "success", ""
        rest = b""
        while len(rest) < reason_len:
            more = s.recv(4096)
            if not more:
                break
            rest += more
        return ("failed" if status == 0 else "authenticate"), rest[:reason_len].decode(errors="replace")
    except OSError as e:
        return "error", str(e)
    finally:
        s.close()


def tcp_refused(display):
    try:
        with socket.create_connection(("127.0.0.1", 6000 + display), timeout=2):
            return False
    except OSError:
        return True


class Run:
    def __init__(self, name, base, args):
        self.tmpdir = os.path.join(base, name, "tmp")
        self.out = os.path.join(base, name, "out")
        os.makedirs(self.tmpdir)
        env = dict(os.environ, TMPDIR=self.tmpdir)
        env.pop("DISPLAY", None)
        env.pop("XAUTHORITY", None)
        self.log = open(os.path.join(base, name, "stdout"), "w+")
        self.p = subprocess.Popen([HARNESS, "--out", self.out] + args, stdout=self.log,
                                  stderr=subprocess.STDOUT, env=env, stdin=subprocess.DEVNULL)

    def display(self, within=20):
        """The display number from the TAP comment, once the server is up."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            self.log.seek(0)
            m = re.search(r"# X server Xvfb :(\d+) ready", self.log.read())
            if m:
                return int(m.group(1))
            if self.p.poll() is not None:
                return None
            time.sleep(0.05)  # polling the harness's output, with a deadline
        return None

    def private_dir(self):
        dirs = [d for d in os.listdir(self.tmpdir) if d.startswith("framesync-")]
        return os.path.join(self.tmpdir, dirs[0]) if len(dirs) == 1 else None

    def finish(self, within=120):
        try:
            rc = self.p.wait(timeout=within)
        except subprocess.TimeoutExpired:
            self.p.kill()
            rc = "timeout"
        self.log.seek(0)
        self.output = self.log.read()
        self.log.close()
        return rc


def main():
    for b in (HARNESS, BAD_WM):
        if not os.access(b, os.X_OK):
            sys.exit("test_isolation: %s is missing: run make" % b)
    base = tempfile.mkdtemp(prefix="fs-isolation-")
    problems, checks = [], 0

    def check(cond, msg):
        nonlocal checks
        checks += 1
        if not cond:
            problems.append(msg)

    start = time.monotonic()
    one = Run("one", base, ["--filter", STABLE])
    two = Run("two", base, ["--filter", STABLE])
    d1, d2 = one.display(), two.display()
    check(d1 is not None and d2 is not None, "a run did not report its display")
    if d1 is not None and d2 is not None:
        check(d1 != d2, "both runs use display :%d" % d1)
        p1, p2 = one.private_dir(), two.private_dir()
        check(p1 and p2 and p1 != p2, "temp dirs: %s and %s" % (p1, p2))
        for p in (p1, p2):
            if not p:
                continue
            mode = os.stat(p).st_mode & 0o777
            check(mode == 0o700, "%s has mode %o, not 700" % (p, mode))
            auth = os.path.join(p, "Xauthority")
            amode = os.stat(auth).st_mode & 0o777 if os.path.exists(auth) else None
            check(amode == 0o600, "%s has mode %s, not 600" % (auth, amode and oct(amode)))
        name1, cookie1 = read_cookie(os.path.join(p1, "Xauthority"))
        name2, cookie2 = read_cookie(os.path.join(p2, "Xauthority"))
        check(cookie1 != cookie2, "both runs have the same cookie")
        for d, name, right, other in ((d1, name1, cookie1, cookie2), (d2, name2, cookie2, cookie1)):
            for addr, label in (("/tmp/.X11-unix/X%d" % d, "socket"), ("\0/tmp/.X11-unix/X%d" % d, "abstract socket")):
                if label == "socket" and not os.path.exists(addr):
                    continue
                st, why = x_setup(addr, name, right)
                check(st == "success", ":%d %s: the right cookie was refused (%s %s): the probe is broken"
                      % (d, label, st, why))
                st, why = x_setup(addr)
                check(st == "failed", ":%d %s: a client without a cookie got %s %s" % (d, label, st, why))
                st, why = x_setup(addr, name, bytes(16))
                check(st == "failed", ":%d %s: a wrong cookie got %s %s" % (d, label, st, why))
                st, why = x_setup(addr, name, other)
                check(st == "failed", ":%d %s: the other run's cookie got %s %s" % (d, label, st, why))
            check(tcp_refused(d), ":%d listens on TCP port %d" % (d, 6000 + d))
    rc1, rc2 = one.finish(), two.finish()
    for run, rc, label in ((one, rc1, "first"), (two, rc2, "second")):
        check(rc == 0, "the %s of two simultaneous runs exited %s: %s" % (label, rc, run.output[-1500:]))
    print("test_isolation: %d checks, %.1f s" % (checks, time.monotonic() - start))
    if problems:
        print("test_isolation: FAILED (outputs in %s)" % base)
        for p in problems:
            print("  - " + p)
        return 1
    shutil.rmtree(base, ignore_errors=True)
    print("test_isolation: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
