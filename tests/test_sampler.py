#!/usr/bin/env python3
"""A sampling screen oracle (`screen-capture:`, harness/oracle-capture.c) decides what its pictures
can tell and says UNRESOLVED for what they cannot, never a guess: the proof behind the verdicts of
kwin_wayland and mutter-wayland, whose screens are seen only through such pictures.

fake-wm runs on an X server of its own (tests/confs/fake-wm-sampled.conf) and is seen only through
tests/slow-capture, whose pictures are true but slow (each is taken 60 ms into a 120 ms process):
- drawn/after-paint [draft-2011]: fake-wm sends the drawn message right after its repaint, inside
  the span of the picture that first shows the frame: UNRESOLVED, with the reason that the order
  cannot be told; with `--inject drawn-delay=300` the message comes after that span: PASS;
- delimited/hold-while-odd [draft-2011]: fake-wm holds the odd frame: PASS; with
  `--inject paint-while-odd` the odd frame stays on screen for the case's 300 ms and a picture
  shows it: FAIL;
- the same, clean and paint-while-odd, with a template that takes {window} (one window a picture, in
  turn, as for weston's capture);
- the screen oracle of each run is the capture, not the root (which answers here);
- no process is left behind (this script is a child subreaper: an orphan would be its child).

Usage: tests/test_sampler.py      (make sampler; about a minute)
"""
import ctypes
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))
from runner.results import RunResults  # noqa: E402
from test_wayland_capture import PR_SET_CHILD_SUBREAPER, leftover_children  # noqa: E402

HARNESS = os.path.join(ROOT, "harness", "framesync-harness")
CONF = os.path.join(ROOT, "tests", "confs", "fake-wm-sampled.conf")
PROFILE = "draft-2011"
CASES = "^(drawn/after-paint|delimited/hold-while-odd)$"
CAPTURE_ORACLE = "the compositor's own picture"
UNTOLD = "cannot be told"
# fake-wm's injections -> {case: the verdict it must get (and a reason it must give)}
RUNS = {
    "": {"drawn/after-paint": ("UNRESOLVED", UNTOLD), "delimited/hold-while-odd": ("PASS", None)},
    "drawn-delay=300": {"drawn/after-paint": ("PASS", None)},
    "paint-while-odd": {"delimited/hold-while-odd": ("FAIL", None)},
}
# the same with a template that takes {window}: one window a picture, in turn (weston's capture)
PER_WINDOW = ["", "paint-while-odd"]


def run(tmp, fault, per_window=False):
    """One harness run with fake-wm --inject fault; (its folder, its output, RunResults)."""
    name = (fault.split("=")[0] or "clean") + ("-per-window" if per_window else "")
    conf, out = os.path.join(tmp, name + ".conf"), os.path.join(tmp, name)
    with open(CONF) as f, open(conf, "w") as w:
        for line in f:
            if line.startswith("command:") and fault:
                line = line.rstrip("\n") + " --inject %s\n" % fault
            if line.startswith("screen-capture:") and per_window:
                line = line.replace("slow-capture {x}", "slow-capture --window {window} {x}")
            w.write(line)
    cmd = [HARNESS, "--wm", conf, "--profile", PROFILE, "--filter", CASES, "--out", out]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    try:
        return out, p.stdout, RunResults.load(os.path.join(out, "results.json"))
    except (OSError, ValueError) as e:
        sys.exit("test_sampler: %s: no results (%s), exit %d:\n%s" % (" ".join(cmd), e, p.returncode,
                                                                     p.stdout[-3000:]))


def pictures_of_one_window(out):
    """How many pictures of the run were of one window: slow-capture --window says so in the
    compositor's log (a window id other than 0)."""
    try:
        with open(os.path.join(out, "logs", "compositor.log"), errors="replace") as f:
            return sum(1 for line in f if line.startswith("slow-capture: a picture of window ") and
                       line.split()[-1] != "0")
    except OSError:
        return 0


def check(fault, out, output, results, problems, per_window=False):
    """The verdicts the run must give, under the sampler; the line printed for it."""
    name = "fake-wm" + (" --inject " + fault if fault else "") + (" (a window a picture)" if per_window else "")
    got = {c.id: c for c in results.cases}
    seen = []
    for case, (want, reason) in RUNS[fault].items():
        c = got.get(case)
        if not c:
            problems.append("%s: %s did not run\n%s" % (name, case, output[-2000:]))
            continue
        seen.append("%s %s" % (case, c.verdict.value))
        if c.verdict.value != want:
            problems.append("%s: %s is %s, not %s: %s" % (name, case, c.verdict.value, want, c.reason))
        elif reason and reason not in (c.reason or ""):
            problems.append("%s: %s is %s without saying why (%r not in %r)" % (name, case, want, reason, c.reason))
    if per_window and not pictures_of_one_window(out):
        problems.append("%s: no picture was of one window (slow-capture said none in logs/compositor.log)" % name)
    oracles = {c.get("screen_oracle", "") for c in results.compositors}
    if not oracles or any(not o.startswith(CAPTURE_ORACLE) for o in oracles):
        problems.append("%s: the screen oracle was not the capture: %s" % (name, "; ".join(sorted(oracles))))
    if per_window:
        seen.append("%d pictures of one window" % pictures_of_one_window(out))
    return "%s: %s" % (name, ", ".join(seen))


def main():
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit("test_sampler: prctl(PR_SET_CHILD_SUBREAPER) failed")
    problems, seen = [], []
    with tempfile.TemporaryDirectory(prefix="framesync-sampler-") as tmp:
        for fault, per_window in [(f, False) for f in RUNS] + [(f, True) for f in PER_WINDOW]:
            out, output, results = run(tmp, fault, per_window)
            seen.append(check(fault, out, output, results, problems, per_window))
    left = leftover_children()
    if left:
        problems.append("left behind: " + "; ".join(left))
    for line in seen:
        print("test_sampler: " + line)
    print("test_sampler: %d runs through a sampling capture, %d problems" % (len(seen), len(problems)))
    for p in problems:
        print("  " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
