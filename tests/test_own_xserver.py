#!/usr/bin/env python3
"""The `xserver: own` path gives the same verdicts as the normal one (issue 22's proof).

fake-wm run the normal way (on the suite's Xvfb) and through tests/own-xserver-wm.sh (its own
Xvfb, learned from the session's report at every start) must give the same verdict for every
case and profile. Two workers, so that two compositors restart their own servers at once: that is
what showed a harness that kept atom values across servers (a new connection can get the freed
one's address), and read _NET_SUPPORTED as empty after a restart.

Usage: tests/test_own_xserver.py      (make check runs it; about 60 s)
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from runner.results import RunResults  # noqa: E402
FAKE_WM = os.path.join(ROOT, "fake-wm", "fake-wm")
OWN_WM = os.path.join(ROOT, "tests", "own-xserver-wm.sh")
JOBS = "2"
# a compositor that brings its own X server ends it when it ends: no other instance can replace it
# there, so the replace-wm cases SKIP with this reason (harness/lifecycle.c), and pass normally
OWN_SERVER_SKIP = "brings its own X server, which ends with it"


def run(out, extra):
    """One whole run; returns {(case, profile): verdict} from its results.json."""
    cmd = [os.path.join(ROOT, "run-tests.sh"), "--jobs", JOBS, "--out", out] + extra
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    path = os.path.join(out, "results.json")
    if not os.path.exists(path):
        sys.exit("test_own_xserver: %s wrote no results.json (exit %d):\n%s" % (" ".join(cmd), p.returncode,
                                                                                   p.stdout[-3000:]))
    cases = RunResults.load(path).case_dicts()
    return {(c["id"], c["profile"]): (c["verdict"], c.get("reason", "")) for c in cases}


def main():
    with tempfile.TemporaryDirectory(prefix="framesync-own-") as tmp:
        normal = run(os.path.join(tmp, "normal"), [])
        own_cmd = "%s {report} %s --profile {profile}" % (OWN_WM, FAKE_WM)
        own = run(os.path.join(tmp, "own"), ["--xserver", "own", "--wm", own_cmd])
    problems = []
    for key in sorted(set(normal) | set(own)):
        a, b = normal.get(key), own.get(key)
        if a and b and a[0] == "PASS" and b[0] == "SKIP" and OWN_SERVER_SKIP in b[1]:
            continue  # the one difference there must be: the cases that replace the WM (replace-wm)
        if a is None or b is None or a[0] != b[0]:
            problems.append("%s [%s]: normal %s, own X server %s%s" % (
                key[0], key[1], a[0] if a else "not run", b[0] if b else "not run",
                " (%s)" % b[1] if b and b[1] else ""))
    print("test_own_xserver: %d results each way, %d differ" % (len(normal), len(problems)))
    for p in problems:
        print("  " + p)
    return 1 if problems or not normal else 0


if __name__ == "__main__":
    sys.exit(main())
