#!/usr/bin/env python3
"""Stability under load: runs the whole suite N times (default 20) against fake-wm while
`stress-ng --cpu C` saturates the CPUs, and reports every case whose verdict changed between
runs (a flaky case), with the reasons it gave.  Exit 1 when a verdict changed or a run did not
complete, 0 otherwise.  (make stress; installs stress-ng when missing and root.)

Usage: tests/stress.py [--runs N] [--cpu C] [--out DIR] [-- HARNESS-ARGS...]
"""
import argparse
import collections
import os
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from runner.results import RunResults  # noqa: E402
HARNESS = os.path.join(ROOT, "harness", "framesync-harness")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--cpu", type=int, default=2, help="stress-ng CPU workers (default 2)")
    ap.add_argument("--out", default="/tmp/fs-stress")
    ap.add_argument("harness_args", nargs="*")
    args = ap.parse_args()
    if not shutil.which("stress-ng"):
        sys.exit("stress: stress-ng is not installed (make stress installs it as root)")
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # runs the finally: stops stress-ng
    load = subprocess.Popen(["stress-ng", "--cpu", str(args.cpu), "--quiet"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    verdicts = collections.defaultdict(list)   # (id, profile) -> [(run, verdict, reason)]
    problems, walls = [], []
    try:
        for n in range(1, args.runs + 1):
            out = os.path.join(args.out, "run-%02d" % n)
            start = time.monotonic()
            p = subprocess.run([HARNESS, "--out", out] + args.harness_args, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
            walls.append(time.monotonic() - start)
            try:
                doc = RunResults.load(os.path.join(out, "results.json")).to_json()
            except (OSError, ValueError) as e:
                problems.append("run %d: no results.json (%s); exit %d: %s" % (n, e, p.returncode, p.stderr[-500:]))
                continue
            if doc["status"] != "complete" or p.returncode not in (0, 1):
                problems.append("run %d: status %r, exit %d" % (n, doc["status"], p.returncode))
            counts = collections.Counter(c["verdict"] for c in doc["cases"])
            for c in doc["cases"]:
                verdicts[(c["id"], c["profile"])].append((n, c["verdict"], c["reason"]))
            print("run %2d: %5.1f s, exit %d, %s" % (n, walls[-1], p.returncode,
                                                    ", ".join("%d %s" % (v, k) for k, v in sorted(counts.items()))),
                  flush=True)
    finally:
        os.killpg(load.pid, signal.SIGTERM)
        load.wait()
    changed = {k: v for k, v in verdicts.items() if len({verdict for _, verdict, _ in v}) > 1}
    always_bad = {k: v for k, v in verdicts.items() if k not in changed and v[0][1] not in ("PASS", "SKIP")}
    print("\n%d runs under stress-ng --cpu %d (%.1f s per run, %.1f s at most), %d case x profile items"
          % (len(walls), args.cpu, sum(walls) / max(1, len(walls)), max(walls or [0]), len(verdicts)))
    print("verdicts that changed between runs: %d" % len(changed))
    for (cid, prof), v in sorted(changed.items()):
        tally = collections.Counter(verdict for _, verdict, _ in v)
        print("  %s [%s]: %s" % (cid, prof, ", ".join("%s x%d" % kv for kv in sorted(tally.items()))))
        for n, verdict, reason in v:
            if verdict != "PASS":
                print("      run %d %s: %s" % (n, verdict, reason[:200]))
    if always_bad:
        print("not passing in every run (no change): %d" % len(always_bad))
        for (cid, prof), v in sorted(always_bad.items()):
            print("  %s [%s]: %s %s" % (cid, prof, v[0][1], v[0][2][:160]))
    for p in problems:
        print("problem: " + p)
    return 1 if changed or problems else 0


if __name__ == "__main__":
    sys.exit(main())
