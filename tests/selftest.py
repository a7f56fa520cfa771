#!/usr/bin/env python3
"""The proof that the suite can fail: run every case against the reference fake-wm (all must
pass, in every profile), then against each fault of fake-wm (`--inject FAULT`): at least one case
naming the fault's clause must fail, and no case may fail that does not name it.  Prints the
matrix fault x caught-by and exits 1 when a fault goes uncaught, a case fails for an unrelated
reason, or a case is never shown to fail by any fault.  A case that fails where it should not
is re-run (up to RERUNS times) first: one that then passes is listed as a FLAKE (shown, not
counted as a failure), one that fails again is a problem.

Usage: tests/selftest.py [--jobs N] [--fault NAME]... [--keep DIR]
"""
import argparse
import concurrent.futures
import fnmatch
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARNESS = os.path.join(ROOT, "harness", "framesync")
FAKE_WM = os.path.join(ROOT, "fake-wm", "fake-wm")
PROFILES = ["ewmh-1.5", "draft-2011", "de-facto"]


def read_catalog(path):
    """clause id -> list of profiles, from cases/clauses.txt"""
    clauses, current = {}, None
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                current = None if not line.strip() else current
                continue
            if line[0].isspace():
                continue
            key, _, value = line.partition(":")
            if key == "clause":
                current = value.strip()
                clauses[current] = []
            elif key == "profiles" and current:
                clauses[current] = value.split()
    return clauses


def read_collateral(path):
    """fault -> [(case glob, why)]"""
    table = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 2)
            if len(parts) < 3:
                sys.exit("%s:%d: expected FAULT CASE-GLOB WHY" % (path, n))
            table.setdefault(parts[0], []).append((parts[1], parts[2]))
    return table


def list_faults():
    out = subprocess.run([FAKE_WM, "--list-faults"], check=True, capture_output=True, text=True).stdout
    faults = []
    for line in out.splitlines():
        name, clause, what = line.split("\t", 2)
        faults.append((name, clause, what))
    return faults


def run_suite(out_dir, wm=None, profiles=None, case_ids=None, features=None):
    cmd = [HARNESS, "--out", out_dir]
    if wm:
        cmd += ["--wm", wm]
    if profiles:
        cmd += ["--profile", ",".join(profiles)]
    if case_ids:  # ids are [a-z0-9/-]: nothing to escape
        cmd += ["--filter", "^(%s)$" % "|".join(sorted(set(case_ids)))]
    if features:
        cmd += ["--features", features]
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - start
    try:
        with open(os.path.join(out_dir, "results.json")) as f:
            results = json.load(f)
    except (OSError, ValueError) as e:
        results = {"cases": [], "status": "no results.json: %s" % e}
    return proc.returncode, results, wall, proc.stdout + proc.stderr


RERUNS = 2


def describe(c):
    return "%s [%s]: %s %s" % (c["id"], c["profile"], c["verdict"], c["reason"][:200])


def rerun_passing(out_dir, wm, cases):
    """Re-runs the cases that failed where they should not have (deqp-runner style), all in one
    harness run a time, with the first run's feature table (so a re-run judges by the same
    features): -> the cases that passed (or were skipped) in a re-run, i.e. flakes.  A flake is
    printed, never hidden; a failure that repeats is a problem."""
    left = {(c["id"], c["profile"]): c for c in cases}
    flaky = []
    features = os.path.join(out_dir, "features.tsv")
    for n in range(1, RERUNS + 1):
        if not left:
            break
        _, res, _, _ = run_suite("%s-rerun-%d" % (out_dir, n), wm, sorted({p for _, p in left}),
                                 [i for i, _ in left], features if os.path.exists(features) else None)
        for r in res["cases"]:
            k = (r["id"], r["profile"])
            if k in left and r["verdict"] in ("PASS", "SKIP"):
                flaky.append(left.pop(k))
    return flaky


def judge_fault(name, clause, results, collateral):
    """caught: FAILs filed under the fault's clause (the clause of the check that failed);
    unrelated: failures and unresolved cases nobody expected; stale: collateral entries that
    broke nothing."""
    caught, unrelated, used = [], [], set()
    for c in results["cases"]:
        if c["verdict"] not in ("FAIL", "UNRESOLVED"):
            continue
        key = "%s [%s]" % (c["id"], c["profile"])
        if c["verdict"] == "FAIL" and c.get("failed_clause", (c["clauses"] or [None])[0]) == clause:
            caught.append(key)
            continue
        expected = [g for g, _ in collateral.get(name, []) if fnmatch.fnmatch(c["id"], g)]
        if expected:
            used.update(expected)
        else:
            unrelated.append(c)
    stale = [g for g, _ in collateral.get(name, []) if g not in used]
    return caught, unrelated, stale


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # fault runs mostly wait out deadlines that the fault makes expire: twice the cores
    ap.add_argument("--jobs", type=int, default=2 * (os.cpu_count() or 2))
    ap.add_argument("--fault", action="append", help="only these faults")
    ap.add_argument("--keep", help="keep every run's results under DIR")
    args = ap.parse_args()

    catalog = read_catalog(os.path.join(ROOT, "cases", "clauses.txt"))
    collateral = read_collateral(os.path.join(ROOT, "tests", "fault-collateral.txt"))
    listing = subprocess.run([HARNESS, "--list"], check=True, capture_output=True, text=True).stdout
    cases = {}  # id -> clauses (first is primary)
    for line in listing.splitlines():
        if line and not line.startswith(" "):
            parts = line.split()
            cases[parts[0]] = parts[1]
    covered_clauses = set(cases.values())
    work = args.keep or tempfile.mkdtemp(prefix="framesync-selftest-")
    os.makedirs(work, exist_ok=True)
    problems = []

    # 1. the reference passes every case in every profile
    rc, res, wall, output = run_suite(os.path.join(work, "reference"))
    # a SKIP is right where a case does not apply to what fake-wm claims (e.g. honesty cases for
    # unadvertised atoms); it must still be shown to fail by a fault, below
    bad = [c for c in res["cases"] if c["verdict"] not in ("PASS", "SKIP")]
    skips = [c for c in res["cases"] if c["verdict"] == "SKIP"]
    print("reference fake-wm: %d cases in %.1f s, %d not passing, %d skipped" % (len(res["cases"]), wall, len(bad), len(skips)))
    for c in skips:
        print("  skipped: %s [%s]: %s" % (c["id"], c["profile"], c["reason"]))
    flaky = rerun_passing(os.path.join(work, "reference"), None, bad)
    flakes = ["reference: " + describe(c) for c in flaky]
    problems.extend("reference: " + describe(c) for c in bad if c not in flaky)
    if rc not in (0, 1) or not res["cases"]:
        problems.append("reference run did not complete (exit %d): %s" % (rc, output[-2000:]))

    # 2. every fault, in the profiles its clause belongs to
    faults = [f for f in list_faults() if not args.fault or f[0] in args.fault]
    shown_failing = set()

    def one(fault):
        name, clause, _ = fault
        profiles = [p for p in PROFILES if p in catalog.get(clause, PROFILES)]
        wm = "exec %s --profile {profile} --inject %s" % (shlex.quote(FAKE_WM), name)
        out = os.path.join(work, "fault-" + name)
        rc, res, wall, output = run_suite(out, wm, profiles)
        judged = judge_fault(name, clause, res, collateral)
        flaky = rerun_passing(out, wm, judged[1])
        return fault, (rc, res, wall, output), judged, flaky

    rows = []
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for fault, (rc, res, wall, output), (caught, unrelated, stale), flaky in pool.map(one, faults):
            name, clause, what = fault
            flakes.extend("fault %s: %s" % (name, describe(c)) for c in flaky)
            unrelated = [describe(c) for c in unrelated if c not in flaky]
            for c in res["cases"]:
                if c["verdict"] == "FAIL":
                    shown_failing.add(c["id"])
            if clause not in catalog:
                status = "UNKNOWN CLAUSE"
                problems.append("fault %s names clause %s, which is not in cases/clauses.txt" % (name, clause))
            elif clause not in covered_clauses and not caught:
                status = "no case yet"
            elif not caught:
                status = "UNCAUGHT"
                problems.append("fault %s (%s) is caught by no case" % (name, clause))
            else:
                status = "caught"
            if unrelated:
                status += ", UNRELATED FAILURES"
                problems.extend("fault %s: unrelated failure %s" % (name, u) for u in unrelated)
            if stale:
                status += ", STALE COLLATERAL"
                problems.extend("fault %s: tests/fault-collateral.txt lists %s, which no longer fails" % (name, g)
                                for g in stale)
            rows.append((name, clause, status, caught, wall))
    matrix_wall = time.monotonic() - start

    print("\n%-24s %-40s %-12s %s" % ("fault", "clause", "status", "caught by"))
    for name, clause, status, caught, wall in rows:
        cases_caught = sorted({c.split(" [")[0] for c in caught})
        print("%-24s %-40s %-12s %s" % (name, clause, status, ", ".join(cases_caught) or "-"))
    never = sorted(set(cases) - shown_failing) if not args.fault else []
    for case_id in never:
        problems.append("case %s is never shown to fail by any fault" % case_id)
    uncovered = [r for r in rows if r[2].startswith("no case yet")]
    ncaught = sum(1 for r in rows if r[2].startswith("caught"))
    print("\n%d faults, %d caught, %d without a case yet; %d cases, %d never shown to fail; "
          "matrix wall time %.1f s with %d jobs"
          % (len(rows), ncaught, len(uncovered), len(cases), len(never), matrix_wall, args.jobs))
    failed = len(problems)
    if flakes:
        print("\nFLAKES: these failed where they should not, then passed on a re-run (%d re-runs at most);"
              " not counted as failures, but each one is a timing the suite should not depend on:" % RERUNS)
        for f in flakes:
            print("  - " + f)
    if problems:
        print("\nself-test FAILED:")
        for p in problems:
            print("  - " + p)
    else:
        print("self-test passed")
    # the plain closing line CI reads: caught faults pass, problems fail, faults without a case skip
    print("selftest: %d passed, %d failed, %d skipped" % (ncaught, failed, len(uncovered)))
    # the runs' output stays only where it is wanted: --keep, or a failure to look into
    if not args.keep:
        if problems:
            print("the runs' results are in %s" % work)
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
