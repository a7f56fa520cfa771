#!/usr/bin/env python3
"""The input path into a compositor's own seat (`input:` of a conf, `--input`; harness/input-path.h).

A Wayland compositor's X window manager reads the compositor's seat, not the X server's, so the
keys and pointer of the interactive resizes go through a helper the harness starts once per start
of the compositor (tools/mutter-input for mutter --wayland).  The proof runs without a Wayland
compositor: fake-wm on an X server of its own (tests/own-xserver-wm.sh, the `xserver: own` path),
with tests/xtest-seat/xtest-seat as the helper (its "seat" is that X server, through XTEST).

- Same verdicts: the keyboard and pointer trigger probes and the request cases give what the
  scripted client's own XTEST gives on the normal path, and their logs show that every key,
  motion and button went through the helper (`input via=seat`).
- A helper whose monitor is not the X root (root coordinates would not be the seat's) is refused
  at start: the run says why, and the interactive resizes are UNRESOLVED, never SKIP or FAIL.
- A helper that refuses an event makes that resize UNRESOLVED with its message.
- The input barrier (`--input-barrier fullscreen-monitors`, common/input-barrier.h) orders each event
  through the seat after the X events the client caused before it.  fake-wm with
  `--inject input-first=MS` handles the seat's input (xtest-seat's XTEST events) at once and its
  other events MS ms late, as KWin under Wayland does, and with `--variant drop-steps` drops a step
  that comes before the alarm of the last answer, as KWin does: without the barrier some verdicts
  are then not those of the same fake-wm driven by XTEST (the race is real), with it every one is,
  and each event after a barrier is logged so.  A WM that does not answer the barrier (bad-wm)
  makes the resize UNRESOLVED with the barrier's message, never SKIP or FAIL.
- No helper is left behind (the harness stops it with the compositor; this script is a child
  subreaper, so a helper that outlived the harness would be found as its child).

Usage: tests/test_input_path.py      (make check runs it; about 1-1.5 min)
"""
import ctypes
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARNESS = os.path.join(ROOT, "harness", "framesync-harness")
FAKE_WM = os.path.join(ROOT, "fake-wm", "fake-wm")
OWN_WM = os.path.join(ROOT, "tests", "own-xserver-wm.sh")
SEAT = os.path.join(ROOT, "tests", "xtest-seat", "xtest-seat")
BAD_WM = os.path.join(ROOT, "tests", "bad-wms", "bad-wm")
# fake-wm handles its X events this late, the seat's input at once (KWin's order under Wayland)
INPUT_FIRST_MS = 200
BARRIER_NO_ANSWER = ("the input barrier fullscreen-monitors got no answer within 2000 ms: the WM did not write "
                     "_NET_WM_FULLSCREEN_MONITORS of window ")
PROFILE = "de-facto"
# the cases whose verdicts rest on requests provoked by interactive resizes
CASES = r"^basic/(request-before-configure|value-increases|set-at-manage)$|^extended/second-counter-used$"
PR_SET_CHILD_SUBREAPER = 36


def harness(out, extra, filt=CASES):
    """One harness run; (exit status, its output, {case: (verdict, reason)})."""
    cmd = [HARNESS, "--profile", PROFILE, "--filter", filt, "--out", out] + extra
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    path = os.path.join(out, "results.json")
    if not os.path.exists(path):
        sys.exit("test_input_path: %s wrote no results.json (exit %d):\n%s" % (" ".join(cmd), p.returncode,
                                                                                 p.stdout[-3000:]))
    with open(path) as f:
        results = json.load(f)
    return p.returncode, p.stdout, results


def verdicts(results):
    return {c["id"]: (c["verdict"].lower(), c.get("reason", "")) for c in results["cases"]}


def seat_wm(*seat_args, wm=None):
    own = "%s {report} %s" % (OWN_WM, wm or FAKE_WM + " --profile {profile}")
    return ["--xserver", "own", "--wm", own, "--input", " ".join([SEAT] + list(seat_args))]


def logs_with(out, pattern):
    """The case and probe logs under out/logs that contain pattern."""
    found = []
    for folder, _, files in os.walk(os.path.join(out, "logs")):
        for name in files:
            if name.endswith(".log") and ".client-" not in name:
                with open(os.path.join(folder, name), errors="replace") as f:
                    if re.search(pattern, f.read()):
                        found.append(os.path.relpath(os.path.join(folder, name), out))
    return found


def leftover_children():
    me, left = os.getpid(), []
    for entry in os.listdir("/proc"):
        try:
            with open("/proc/%s/stat" % entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == me and fields[0] != "Z":
            with open("/proc/%s/cmdline" % entry, "rb") as f:
                left.append(f.read().replace(b"\0", b" ").decode(errors="replace"))
    return left


def same_verdicts(tmp, problems):
    _, _, normal = harness(os.path.join(tmp, "normal"), ["--wm", FAKE_WM + " --profile {profile}"])
    status, out, seat = harness(os.path.join(tmp, "seat"), seat_wm())
    a, b = verdicts(normal), verdicts(seat)
    if not a:
        problems.append("the normal run ran no case")
    for case in sorted(set(a) | set(b)):
        if a.get(case, ("not run",))[0] != b.get(case, ("not run",))[0]:
            problems.append("%s: XTEST %s, through the seat %s (%s)" % (case, a.get(case, ("not run",))[0],
                                                                       b.get(case, ("not run", ""))[0],
                                                                       b.get(case, ("", ""))[1][:300]))
    served = [c.get("input_path", "") for c in seat.get("compositors", [])]
    if not served or not all(s.startswith("the compositor's own seat: `%s`" % SEAT) for s in served):
        problems.append("results.json does not say the seat served: %r" % served)
    for kind in ("key 0x", "motion ", "button 1 press", "button 1 release"):
        if not logs_with(os.path.join(tmp, "seat"), r"input via=seat answer=done msg=%s" % kind):
            problems.append("no log shows `%s` through the seat" % kind)
    features = open(os.path.join(tmp, "seat", "features.tsv")).read()
    for trigger in ("trigger-keyboard", "trigger-pointer"):
        if not re.search(r"\t%s\tpresent\t" % trigger, features):
            problems.append("%s is not present through the seat:\n%s" % (trigger, features))
    return len(a)


def refused_geometry(tmp, problems):
    status, out, res = harness(os.path.join(tmp, "geometry"), seat_wm("--geometry", "0,0,100,100"),
                               filt="^basic/request-before-configure$")
    if "did not start: its monitor is 100x100 at 0,0 on the stage, but the X root is 1280x1024" not in out:
        problems.append("a monitor that is not the root was not refused with its reason:\n%s" % out[-2000:])
    for case, (verdict, reason) in verdicts(res).items():
        if verdict in ("fail", "skip"):
            problems.append("%s is %s without an input path (expected unresolved): %s" % (case, verdict, reason))


def refused_event(tmp, problems):
    _, out, res = harness(os.path.join(tmp, "refuse"), seat_wm("--refuse", "key") + ["--resize-trigger", "keyboard"],
                          filt="^basic/request-before-configure$")
    v = verdicts(res).get("basic/request-before-configure", ("not run", ""))
    if v[0] != "unresolved" or "refused (--refuse key)" not in v[1]:
        problems.append("a refused key: basic/request-before-configure is %s (%s), expected unresolved with the "
                        "helper's message" % v)


def differing(a, b):
    """The cases whose verdicts differ between two runs' verdicts: [(case, verdict a, verdict b, reason b)]."""
    none = ("not run", "")
    return [(c, a.get(c, none)[0], b.get(c, none)[0], b.get(c, none)[1][:300])
            for c in sorted(set(a) | set(b)) if a.get(c, none)[0] != b.get(c, none)[0]]


def barrier_orders(tmp, problems):
    """KWin's race, made by fake-wm, shows without the barrier and is gone with it."""
    variant = FAKE_WM + " --profile {profile} --variant drop-steps"
    _, _, xtest = harness(os.path.join(tmp, "drop-xtest"), ["--wm", variant])
    racy_wm = variant + " --inject input-first=%d" % INPUT_FIRST_MS
    _, _, racy = harness(os.path.join(tmp, "racy"), seat_wm(wm=racy_wm) + ["--input-barrier", "none"])
    _, _, ordered = harness(os.path.join(tmp, "barrier"),
                            seat_wm(wm=racy_wm) + ["--input-barrier", "fullscreen-monitors"])
    a, r, o = verdicts(xtest), verdicts(racy), verdicts(ordered)
    if not differing(a, r):
        problems.append("input-first=%d without the barrier gave XTEST's verdicts: the race the barrier is for "
                        "was not made, so this proves nothing" % INPUT_FIRST_MS)
    for case, va, vo, reason in differing(a, o):
        problems.append("%s: XTEST %s, through the seat after a barrier %s (%s)" % (case, va, vo, reason))
    if not logs_with(os.path.join(tmp, "barrier"), r"input via=seat barrier=fullscreen-monitors barrier_us=\d+ "
                     r"answer=done msg=key 0x"):
        problems.append("no log shows a key sent after a fullscreen-monitors barrier")
    return len(differing(a, r))


def barrier_unanswered(tmp, problems):
    """A WM that does not answer the barrier (bad-wm writes no _NET_WM_FULLSCREEN_MONITORS): UNRESOLVED."""
    features = os.path.join(tmp, "seat", "features.tsv")
    wm = BAD_WM + " behave"
    _, _, res = harness(os.path.join(tmp, "unanswered"), seat_wm(wm=wm) + [
        "--input-barrier", "fullscreen-monitors", "--features", features, "--resize-trigger", "keyboard"],
        filt="^basic/request-before-configure$")
    v = verdicts(res).get("basic/request-before-configure", ("not run", ""))
    if v[0] != "unresolved" or BARRIER_NO_ANSWER not in v[1]:
        problems.append("a barrier the WM does not answer: basic/request-before-configure is %s (%s), expected "
                        "unresolved with the barrier's message" % v)


def main():
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit("test_input_path: prctl(PR_SET_CHILD_SUBREAPER) failed")
    problems = []
    with tempfile.TemporaryDirectory(prefix="framesync-input-") as tmp:
        n = same_verdicts(tmp, problems)
        refused_geometry(tmp, problems)
        refused_event(tmp, problems)
        raced = barrier_orders(tmp, problems)
        barrier_unanswered(tmp, problems)
    left = leftover_children()
    if left:
        problems.append("left behind: %s" % "; ".join(left))
    print("test_input_path: %d cases each way, %d of them raced without the input barrier, %d problems"
          % (n, raced, len(problems)))
    for p in problems:
        print("  " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
