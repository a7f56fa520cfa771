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
- each run's screen oracle is the stream, which saw frames and no failed copy;
- no process is left behind (this script is a child subreaper: an orphan would be its child).
Without cage or Xwayland (debian-packages.txt has both) or tools/wlr-capture (built where
libwayland-client is), it says SKIP and why, and exits 0.

Usage: tests/test_wayland_capture.py      (make wayland-capture; about 20 s)
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
PROFILE = "draft-2011"
CASES = "^delimited/(hold-while-odd|map-odd)$"
# fault -> the case it must fail (None: fake-wm as it is, which must pass both)
RUNS = {None: None, "paint-while-odd": "delimited/hold-while-odd", "paint-odd-map": "delimited/map-odd"}
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


def conf_with(tmp, fault):
    """The conf, with fake-wm's --inject appended to its command."""
    path = os.path.join(tmp, "fake-wm-in-cage-%s.conf" % (fault or "clean"))
    with open(CONF) as f, open(path, "w") as out:
        for line in f:
            if line.startswith("command:") and fault:
                line = line.rstrip("\n") + " --inject %s\n" % fault
            out.write(line)
    return path


def run(tmp, fault):
    """One harness run; (its output, RunResults)."""
    out = os.path.join(tmp, fault or "clean")
    cmd = [HARNESS, "--wm", conf_with(tmp, fault), "--profile", PROFILE, "--filter", CASES, "--out", out]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=180)
    try:
        return p.stdout, RunResults.load(os.path.join(out, "results.json"))
    except (OSError, ValueError) as e:
        sys.exit("test_wayland_capture: %s: no results (%s), exit %d:\n%s" % (" ".join(cmd), e, p.returncode,
                                                                             p.stdout[-3000:]))


def check(fault, output, results, problems):
    """The verdicts the fault asks for, seen through the stream."""
    name = "fake-wm" + (" --inject " + fault if fault else "")
    verdicts = {c.id: c.verdict.value for c in results.cases}
    for case in ("delimited/hold-while-odd", "delimited/map-odd"):
        want = "FAIL" if RUNS[fault] == case else "PASS" if not fault else None
        if case not in verdicts:
            problems.append("%s: %s did not run" % (name, case))
        elif want and verdicts[case] != want:
            problems.append("%s: %s is %s, not %s" % (name, case, verdicts[case], want))
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
        for fault in RUNS:
            output, results = run(tmp, fault)
            verdicts = check(fault, output, results, problems)
            frames = sum(c["frames"] for c in results.captures)
            seen.append("%s: %s (%d frames seen)" % (fault or "no fault", ", ".join(
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
