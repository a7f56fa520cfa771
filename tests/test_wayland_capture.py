#!/usr/bin/env python3
"""The screen stream (`screen-stream:`, harness/stream.h, tools/wlr-capture) sees what an X
compositor composites, frame by frame, through a Wayland compositor: the proof of the path the
verdicts of sway and cage rest on.

fake-wm is the WM and compositor of a rootful Xwayland that runs as cage's one client
(tests/confs/fake-wm-in-cage.conf, tests/xwayland-rootful-wm.sh): cage fills its headless output
with Xwayland's one toplevel, so the X root is the output's 0,0, and what fake-wm paints reaches
the output through Xwayland's commits.  With the stream as the screen oracle (not the X root, which
a rootful Xwayland would answer too),
- fake-wm without a fault passes delimited/hold-while-odd and delimited/map-odd [draft-2011];
- `--inject paint-while-odd` fails hold-while-odd and `--inject paint-odd-map` fails map-odd;
- `--variant xwayland-commits` (it holds the commits and its picture, as mutter does) passes
  xwayland/new-geometry-after-answer and xwayland/old-geometry-not-new-buffer [de-facto];
  `--inject shown-while-held` fails the first, `--inject new-buffer-in-old-geometry` the second;
- each run's screen oracle is the stream, which saw frames and no failed copy;
- no process is left behind (this script is a child subreaper: an orphan would be its child).
Without cage or Xwayland (debian-packages.txt has both) or tools/wlr-capture (built where
libwayland-client is), it says SKIP and why, and exits 0.

Usage: tests/test_wayland_capture.py      (make wayland-capture; about 45 s)
"""
import ctypes
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from runner.results import RunResults  # noqa: E402
HARNESS = os.path.join(ROOT, "harness", "framesync-harness")
CONF = os.path.join(ROOT, "tests", "confs", "fake-wm-in-cage.conf")
CAPTURE = os.path.join(ROOT, "tools", "wlr-capture")
HOLD = "^delimited/(hold-while-odd|map-odd)$"
XWAYLAND = "^xwayland/(new-geometry-after-answer|old-geometry-not-new-buffer)$"
NEW, OLD = "xwayland/new-geometry-after-answer", "xwayland/old-geometry-not-new-buffer"
# (fake-wm's arguments, profile, cases, the verdict each case must have: None for any)
RUNS = [
    ("", "draft-2011", HOLD, {"delimited/hold-while-odd": "PASS", "delimited/map-odd": "PASS"}),
    ("--inject paint-while-odd", "draft-2011", HOLD, {"delimited/hold-while-odd": "FAIL", "delimited/map-odd": None}),
    ("--inject paint-odd-map", "draft-2011", HOLD, {"delimited/hold-while-odd": None, "delimited/map-odd": "FAIL"}),
    # the Xwayland commit order on screen: fake-wm holds the commits (and its own picture) as mutter does
    ("--variant xwayland-commits", "de-facto", XWAYLAND, {NEW: "PASS", OLD: "PASS"}),
    ("--inject shown-while-held", "de-facto", XWAYLAND, {NEW: "FAIL", OLD: None}),
    ("--inject new-buffer-in-old-geometry", "de-facto", XWAYLAND, {NEW: None, OLD: "FAIL"}),
]
STREAM_ORACLE = "every frame the compositor composites"
PR_SET_CHILD_SUBREAPER = 36


def missing():
    """Why the proof cannot run here, or None."""
    for prog in ("cage", "Xwayland"):
        if not shutil.which(prog):
            return "%s is not installed (apt-get install cage xwayland: debian-packages.txt)" % prog
    if not os.access(CAPTURE, os.X_OK):
        return "tools/wlr-capture is not built (it needs libwayland-client: libwayland-dev)"
    return None


def conf_with(tmp, args, name):
    """The conf, with fake-wm's arguments appended to its command."""
    path = os.path.join(tmp, "fake-wm-in-cage-%s.conf" % name)
    with open(CONF) as f, open(path, "w") as out:
        for line in f:
            if line.startswith("command:") and args:
                line = line.rstrip("\n") + " %s\n" % args
            out.write(line)
    return path


def run(tmp, args, profile, cases):
    """One harness run; (its output, RunResults)."""
    name = args.replace("--inject ", "").replace("--variant ", "").replace(" ", "_") or "clean"
    out = os.path.join(tmp, name)
    cmd = [HARNESS, "--wm", conf_with(tmp, args, name), "--profile", profile, "--filter", cases, "--out", out]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=180)
    try:
        return p.stdout, RunResults.load(os.path.join(out, "results.json"))
    except (OSError, ValueError) as e:
        sys.exit("test_wayland_capture: %s: no results (%s), exit %d:\n%s" % (" ".join(cmd), e, p.returncode,
                                                                             p.stdout[-3000:]))


def check(args, wants, output, results, problems):
    """The verdicts the run asks for, seen through the stream."""
    name = "fake-wm" + (" " + args if args else "")
    verdicts = {c.id: c.verdict.value for c in results.cases}
    reasons = {c.id: c.reason for c in results.cases}
    for case, want in wants.items():
        if case not in verdicts:
            problems.append("%s: %s did not run" % (name, case))
        elif want and verdicts[case] != want:
            problems.append("%s: %s is %s, not %s: %s" % (name, case, verdicts[case], want, reasons[case]))
    oracles = {c.get("screen_oracle", "") for c in results.compositors}
    if not oracles or any(not o.startswith(STREAM_ORACLE) for o in oracles):
        problems.append("%s: the screen oracle was not the stream: %s" % (name, "; ".join(sorted(oracles))))
    caps = results.captures
    if not caps or any(c["frames"] == 0 or c["failed"] for c in caps):
        problems.append("%s: the stream saw no frame or failed copies: %s\n%s" % (name, caps, output[-2000:]))
    return verdicts


def leftover_children():
    me, left = os.getpid(), []
    for entry in os.listdir("/proc"):
        try:
            with open("/proc/%s/stat" % entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[1]) == me and fields[0] != "Z":
                with open("/proc/%s/cmdline" % entry, "rb") as f:
                    left.append(f.read().replace(b"\0", b" ").decode(errors="replace"))
        except (OSError, IndexError, ValueError):
            continue
    return left


def main():
    why = missing()
    if why:
        print("test_wayland_capture: SKIP: %s" % why)
        return 0
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit("test_wayland_capture: prctl(PR_SET_CHILD_SUBREAPER) failed")
    problems, seen = [], []
    with tempfile.TemporaryDirectory(prefix="framesync-wlcap-") as tmp:
        for args, profile, cases, wants in RUNS:
            output, results = run(tmp, args, profile, cases)
            verdicts = check(args, wants, output, results, problems)
            frames = sum(c["frames"] for c in results.captures)
            seen.append("%s: %s (%d frames seen)" % (args or "fake-wm as it is", ", ".join(
                "%s %s" % (k, v) for k, v in sorted(verdicts.items())), frames))
    left = leftover_children()
    if left:
        problems.append("left behind: " + "; ".join(left))
    for line in seen:
        print("test_wayland_capture: " + line)
    print("test_wayland_capture: %d runs through cage's screen stream, %d problems" % (len(RUNS), len(problems)))
    for p in problems:
        print("  " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
