#!/usr/bin/env python3
"""The proof that the client cases (cases/client/) are true both ways, against model-app, the
self-driven application of model-app/model-app.c, as the client under test (--client):

  * it does not fail wrongly: the correct model-app, in the extended form with fences, passes
    every client case in every profile, and in the basic form it passes the basic cases and the
    extended ones SKIP (the client has one counter);
  * nor on a behaviour the texts allow: each --variant of model-app (VARIANTS) gives no FAIL and
    no UNRESOLVED in the profiles whose text allows it;
  * it can fail: each --fault of model-app makes the client cases listed for it in FAULTS FAIL
    (filed under the clause that fault breaks), run only in the profiles and cases that show it,
    to keep the proof short.

Prints the fault matrix; exits 1 when a correct run has a FAIL or UNRESOLVED, or a fault is not
caught by the cases expected to catch it.  Usage: tests/client_selftest.py [--keep DIR]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARNESS = os.path.join(ROOT, "harness", "framesync-harness")
APP = os.path.join(ROOT, "model-app", "model-app")
LINE_RE = re.compile(r"^(not )?ok \d+ - (\S+) \[([^\]]+)\](?: # (SKIP|UNRESOLVED))?")

# fault -> (profiles, --filter, the cases [case, profile] that must FAIL, the clause they break)
FAULTS = {
    "answer-early": ("ewmh-1.5,de-facto", "client/answer-after-paint",
                     ["client/answer-after-paint [ewmh-1.5]", "client/answer-after-paint [de-facto]"],
                     "ewmh-1.5/basic/client-sets-counter"),
    "wrong-counter": ("draft-2011,de-facto", "client/answer-extended",
                      ["client/answer-extended-draft [draft-2011]", "client/answer-extended-defacto [de-facto]"],
                      "draft-2011/extended/client-answer"),
    "odd-end": ("draft-2011", "client/(map-odd|delimited)", ["client/map-odd [draft-2011]"],
                "draft-2011/delimited/odd-even"),
    "no-drawn-wait": ("draft-2011,de-facto", "client/drawn-wait",
                      ["client/drawn-wait [draft-2011]", "client/drawn-wait [de-facto]"],
                      "draft-2011/delimited/client-wait-drawn"),
    "wrong-fence-index": ("draft-2011", "client/fences", ["client/fences [draft-2011]"],
                          "draft-2011/fences/client-trigger"),
    "same-size-unanswered": ("de-facto", "client/answer-same-size", ["client/answer-same-size [de-facto]"],
                             "ewmh-1.5/basic/client-sets-counter"),
    "late-counter": ("ewmh-1.5", "client/participation", ["client/participation [ewmh-1.5]"],
                     "ewmh-1.5/basic/client-participation"),
}


# variant -> the profiles whose text allows it (frame-answer: GTK's answer by a frame, V + 1 then
# V + 2, is de-facto's; the draft asks for the second counter at exactly the next even value)
VARIANTS = {
    "frame-answer": "de-facto",
    "map-even": "ewmh-1.5,draft-2011,de-facto",
    "plus3": "draft-2011,de-facto",
    "slow-answer": "ewmh-1.5,draft-2011,de-facto",
}


def run(app_args, out, profiles=None, filt=None):
    cmd = [HARNESS, "--client", " ".join([APP] + app_args), "--out", out]
    if profiles:
        cmd += ["--profile", profiles]
    if filt:
        cmd += ["--filter", filt]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    verdicts = {}
    for line in p.stdout.splitlines():
        m = LINE_RE.match(line)
        if m:
            v = m.group(4) or ("FAIL" if m.group(1) else "PASS")
            verdicts["%s [%s]" % (m.group(2), m.group(3))] = v
    if p.returncode >= 2:
        sys.stderr.write(p.stderr)
    return verdicts, p.returncode, time.monotonic() - t0


# A fault not caught is run again (at most this many times) before the self-test fails: once in
# CI (2026-12-04) odd-end's run ended in 1 s with map-odd SKIPped, which 11 runs here did not
# repeat; the miss is printed with each SKIP's reason and the probed features, and listed under
# FLAKES when a re-run catches the fault, as tests/selftest.py does for the compositor faults.
FAULT_RERUNS = 1


def skip_reasons(out, cases):
    """why each of cases did not FAIL (results.json), and the features the run probed (features.tsv)"""
    import json
    parts = []
    try:
        with open(os.path.join(out, "results.json")) as f:
            doc = json.load(f)
        for r in doc.get("cases", []):
            name = "%s [%s]" % (r.get("id"), r.get("profile"))
            if name in cases:
                parts.append("%s: %s" % (name, r.get("reason") or r.get("verdict")))
    except (OSError, ValueError) as e:
        parts.append("no results.json (%s)" % e)
    try:
        with open(os.path.join(out, "features.tsv")) as f:
            parts.append("features: " + "; ".join(l.strip().replace("\t", " ") for l in f if l.strip()))
    except OSError:
        parts.append("no features.tsv")
    return " | ".join(parts)


def clauses_failed(out):
    """the clauses broken (results.json's findings)"""
    import json
    try:
        with open(os.path.join(out, "results.json")) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return set()
    return {f.get("clause") for f in doc.get("findings", [])}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--keep", help="keep the runs' output folders here")
    args = ap.parse_args()
    base = args.keep or tempfile.mkdtemp(prefix="fs-client-selftest-")
    problems = []
    # it does not fail wrongly
    for label, app_args, profiles in (("correct, extended, 2 fences", ["--fences", "2"], None),
                                      ("correct, basic form", ["--form", "basic"], "ewmh-1.5,de-facto")):
        out = os.path.join(base, "correct-" + app_args[-1])
        verdicts, rc, secs = run(app_args, out, profiles)
        bad = sorted(k for k, v in verdicts.items() if v in ("FAIL", "UNRESOLVED"))
        counts = {v: sum(1 for x in verdicts.values() if x == v) for v in ("PASS", "SKIP", "FAIL", "UNRESOLVED")}
        print("%-32s %3d PASS %3d SKIP %3d FAIL %3d UNRESOLVED  (%.0f s)" % (
            label, counts["PASS"], counts["SKIP"], counts["FAIL"], counts["UNRESOLVED"], secs))
        if bad or not verdicts or rc >= 2:
            problems.append("%s: %s" % (label, ", ".join(bad) or "no results (exit %d)" % rc))
    for variant, profiles in VARIANTS.items():
        out = os.path.join(base, "variant-" + variant)
        verdicts, rc, secs = run(["--fences", "2", "--variant", variant], out, profiles)
        bad = sorted(k for k, v in verdicts.items() if v in ("FAIL", "UNRESOLVED"))
        print("%-32s %3d PASS %3d SKIP, %s  (%.0f s)" % (
            "variant " + variant, sum(1 for v in verdicts.values() if v == "PASS"),
            sum(1 for v in verdicts.values() if v == "SKIP"), "FAIL/UNRESOLVED: " + ", ".join(bad) if bad else "no FAIL",
            secs))
        if bad or not verdicts or rc >= 2:
            problems.append("variant %s: %s" % (variant, ", ".join(bad) or "no results (exit %d)" % rc))
    # it can fail
    print("\n%-22s %-46s %s" % ("fault", "caught by (FAIL)", "time"))
    flakes = []
    for fault, (profiles, filt, must, clause) in FAULTS.items():
        for attempt in range(1 + FAULT_RERUNS):
            out = os.path.join(base, "fault-%s-%d" % (fault, attempt))
            verdicts, rc, secs = run(["--fences", "2", "--fault", fault], out, profiles, filt)
            caught = sorted(k for k, v in verdicts.items() if v == "FAIL")
            missing = [c for c in must if verdicts.get(c) != "FAIL"]
            print("%-22s %-46s %.0f s" % (fault, ", ".join(caught) or "NOT CAUGHT", secs))
            if not missing:
                break
            miss = "fault %s: not caught by %s (verdicts: %s; %s)" % (
                fault, ", ".join(missing), ", ".join("%s=%s" % kv for kv in sorted(verdicts.items())),
                skip_reasons(out, missing))
            print("  " + miss)
        if missing:
            problems.append(miss)
            continue
        if attempt:
            flakes.append(miss)
        if clause not in clauses_failed(out):
            problems.append("fault %s: no FAIL filed under %s" % (fault, clause))
    if flakes:
        print("\nFLAKES: faults caught only on a re-run (each a timing the suite should not depend on):\n  - "
              + "\n  - ".join(flakes))
    if not args.keep:
        shutil.rmtree(base, ignore_errors=True)
    if problems:
        print("\nclient-selftest: FAILED\n  " + "\n  ".join(problems))
        return 1
    print("\nclient-selftest: every fault caught, the correct client and every variant pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
