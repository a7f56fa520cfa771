#!/usr/bin/env python3
"""The proof that the suite's verdicts are true both ways.  It can fail: run every case against
the reference fake-wm (all must pass, in every profile), then against each fault of fake-wm
(`--inject FAULT`): at least one case filed under the fault's clause must fail, and no case may
fail that does not name it.  It does not fail wrongly: run the whole suite against each variant
of fake-wm (`--variant NAME`, a behaviour the texts allow), in every profile and with no option
but --wm, as a user would: no case may FAIL or be UNRESOLVED, and the probes must find the
features the variant has (VARIANT_FEATURES).  And absence is not conformance (issue 19): run the
whole suite as a user would against compositors broken so that they could read as ones that
implement less (fake-wm faults that crash or hang it while it is probed, or that make a probe find
a feature absent, and fake-wm killed a few seconds after each start): each run must exit 1 with a
FAIL under the clause it breaks, and no case of that clause may SKIP.  Prints the fault matrix,
the variant matrix and the absence matrix, and exits 1 when a fault goes uncaught, a case fails
for an unrelated reason, a case is never shown to fail by any fault, a variant gets a FAIL, an
UNRESOLVED or the wrong features, or an absence row does not hold.  A case that fails where it
should not is re-run (up to RERUNS times) first: one that then passes is listed as a FLAKE (shown,
not counted as a failure), one that fails again is a problem.

Usage: tests/selftest.py [--jobs N] [--fault NAME]... [--variant NAME]... [--absence ROW]... [--keep DIR]
(any of --fault, --variant, --absence runs only what it names; --fault NAME also runs NAME's
absence row when it has one)
"""
import argparse
import concurrent.futures
import fnmatch
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARNESS = os.path.join(ROOT, "harness", "framesync-harness")
FAKE_WM = os.path.join(ROOT, "fake-wm", "fake-wm")
sys.path.insert(0, ROOT)
from runner.results import RunResults  # noqa: E402
from runner.terms import PROFILES  # noqa: E402
from runner import catalog as catmod  # noqa: E402


def read_catalog(path):
    """clause id -> list of profiles, from cases/clauses.txt (the one reader: FILE:LINE errors)"""
    return {c.id: c.profiles for c in catmod.parse_clauses(path)}


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


def list_variants():
    out = subprocess.run([FAKE_WM, "--list-variants"], check=True, capture_output=True, text=True).stdout
    return [tuple(line.split("\t", 2)) for line in out.splitlines() if line]


# What the probes must find in each variant (FEATURE=STATE, @PROFILES to restrict): a variant
# that passes everything because the probes took it for something else proves nothing.  The
# extended form, holding, drawn messages and fences exist only in draft-2011 and de-facto.
EXT = "@draft-2011,de-facto"
VARIANT_FEATURES = {
    "keyboard-only": ["trigger-keyboard=present", "trigger-pointer=absent", "trigger-configure=absent"],
    "pointer-only": ["trigger-pointer=present", "trigger-keyboard=absent", "trigger-configure=absent"],
    "interactive-only": ["trigger-keyboard=present", "trigger-pointer=present", "trigger-configure=absent"],
    "configure-unserialised": ["trigger-configure=present"],
    "restart-counter": ["sync-requests=present", "extended=absent@ewmh-1.5"],
    "sync-at-map": ["trigger-map=present", "extended=absent", "hold=present" + EXT],
    "basic-only": ["extended=absent", "hold=present" + EXT, "sync-drawn=absent", "frame-drawn=absent", "fences=absent"],
    "wm-only": ["wm=present", "compositing=absent", "hold=absent", "frame-drawn=absent", "sync-drawn=absent"],
    "cm-only": ["wm=absent", "compositing=present", "sync-requests=absent", "hold=present" + EXT],
    "compress": ["hold=present" + EXT, "frame-drawn=present@de-facto", "sync-drawn=present@draft-2011"],
    "fade-in": ["hold=present" + EXT, "frame-drawn=present@de-facto"],
    "hold-1s": ["hold=present" + EXT],
    "hold-4s": ["hold=present" + EXT],
    "delayed-others": ["hold=present" + EXT],
    "slow-refresh": ["hold=present" + EXT, "frame-drawn=present@de-facto"],
    "no-drawn": ["sync-drawn=absent", "frame-drawn=absent", "hold=present" + EXT],
    "no-fences": ["fences=absent", "hold=present" + EXT],
    "no-timings": ["frame-timings=absent", "frame-drawn=present@de-facto"],
    "answer-4s": ["sync-requests=present", "held-resize=present"],
    "drop-steps": ["trigger-keyboard=present", "trigger-pointer=present", "held-resize=present"],
    "per-output-clock": ["hold=present" + EXT, "frame-drawn=present@de-facto", "sync-drawn=present@draft-2011"],
    "xwayland-commits": ["sync-requests=present"],
}


# The absence matrix (issue 19, "absence is not conformance").  The suite probes what a compositor
# implements and SKIPs the cases of what it lacks, so a compositor broken badly enough (it crashes
# or hangs while it is probed, or a feature is broken so that its probe finds it missing) can read
# as one that implements less: every case SKIPs and the run passes.  Each row runs the suite as a
# user would (no option but --wm, --out and --profile de-facto, the profile with every clause of
# the rows) and holds when the run exits 1 and at least one case FAILs under the expected clause;
# for compositor/crash, also no case at all may SKIP that the reference fake-wm runs.
ABSENCE_FAULTS = ["crash-during-probe", "hang-during-probe", "no-hold", "hold-timeout-5ms", "paint-while-odd",
                  "advertises-sync-sends-none", "holds-whole-screen"]
# fake-wm killed (SIGKILL) that many seconds after each start: while it is probed, or later
ABSENCE_TIMEOUTS = ["0.5", "2", "10"]
ABSENCE_PROFILE = "de-facto"
CRASH_CLAUSE = "compositor/crash"  # the harness's clause for a compositor that dies or hangs
# Faults judged by the absence matrix alone: they break the compositor as a whole (a crash, a hang,
# a frozen screen: failures everywhere, under a clause the catalog does not have) or hide behind a
# feature the probes find absent, where the fault matrix wants one clause's cases to fail and no
# other.  paint-while-odd is older than the matrix and keeps its row in the fault matrix.
ABSENCE_ONLY = set(ABSENCE_FAULTS) - {"paint-while-odd"}


def absence_rows(faults):
    """-> [(row name, --wm command, expected clause or None for a fault fake-wm does not have)]"""
    clause_of = {name: clause for name, clause, _ in faults}
    wm = shlex.quote(FAKE_WM)
    rows = [(name, "%s --profile {profile} --inject %s" % (wm, name), clause_of.get(name)) for name in ABSENCE_FAULTS]
    rows += [("timeout-%ss" % t, "timeout -s KILL %s %s --profile {profile}" % (t, wm), CRASH_CLAUSE)
             for t in ABSENCE_TIMEOUTS]
    return rows


def select_absence_rows(faults, names, problems):
    """The rows to run: every one, or (names not None) the named ones; a fault row whose fault
    fake-wm does not list is a problem."""
    wanted = []
    for row in absence_rows(faults):
        if names is not None and row[0] not in names:
            continue
        if row[2] is None:
            problems.append("absence row %s: fake-wm --list-faults has no such fault" % row[0])
            continue
        wanted.append(row)
    return wanted


def skips_its_way_out(clause, case, reference_skips):
    """A SKIP that hides the clause's defect: a case of the clause, and for compositor/crash any case
    (a compositor crashes or hangs in any, and while it is probed every feature can read as absent),
    that the reference fake-wm does not SKIP."""
    return (case["verdict"] == "SKIP" and (clause == CRASH_CLAUSE or clause in case["clauses"]) and
            (case["id"], case["profile"]) not in reference_skips)


# A fault whose compositor stops painting altogether is seen by the liveness barrier first (a
# compositor that paints no more is a hang: harness/liveness.c), so its FAILs may be filed under
# compositor/crash rather than the clause the fault was written for; either names the defect.
ALSO_CAUGHT_AS = {"holds-whole-screen": CRASH_CLAUSE}


def judge_absence(clause, rc, results, reference_skips, also=None):
    """-> (FAILs filed under clause (or `also`), why the row does not hold: [] when it holds).  For a
    fault row a SKIP of another case of its clause is no way out once the clause has its FAIL (the
    honesty pair: root/sync-advertised skips where root/sync-advertised-is-sent fails); for the
    crash rows every SKIP beyond the reference's is one."""
    fails = ["%s [%s]" % (c["id"], c["profile"]) for c in results["cases"]
             if c["verdict"] == "FAIL" and c.get("failed_clause") in (clause, also)]
    skipped = [c for c in results["cases"] if skips_its_way_out(clause, c, reference_skips)]
    if clause != CRASH_CLAUSE and fails:
        skipped = []
    why = []
    if rc != 1:
        why.append("exit status %d, not 1" % rc)
    if not fails:
        why.append("no FAIL filed under %s (%d cases: %s)" % (clause, len(results["cases"]), verdict_counts(results)))
    if skipped:
        why.append("%d case(s) SKIPped that the reference runs, e.g. %s" % (len(skipped), describe(skipped[0])))
    return fails, why


def verdict_counts(results):
    counts = {}
    for c in results["cases"]:
        counts[c["verdict"]] = counts.get(c["verdict"], 0) + 1
    return ", ".join("%d %s" % (n, v) for v, n in sorted(counts.items())) or "none"


def print_absence_matrix(arows):
    print("\ndefects that look like absences: the suite as a user runs it (profile %s); a row holds when the run exits 1 "
          "with a FAIL under its clause (and, for compositor/crash, no case SKIPs beyond the reference)" % ABSENCE_PROFILE)
    print("%-28s %-5s %4s  %-40s %5s %7s" % ("row", "holds", "exit", "expected clause", "FAILs", "wall s"))
    for (name, _, clause), rc, wall, (fails, why) in arows:
        print("%-28s %-5s %4d  %-40s %5d %7.1f" % (name, "no" if why else "yes", rc, clause, len(fails), wall))


def read_features(path):
    """features.tsv -> {(profile, feature): state}; the profile is read off the command."""
    table = {}
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 3 and parts[1] != "-":
                    prof = next((p for p in PROFILES if "--profile " + p in parts[0]), "?")
                    table[(prof, parts[1])] = parts[2]
    except OSError:
        pass
    return table


def feature_mismatches(variant, table):
    wrong = []
    for spec in VARIANT_FEATURES.get(variant, []):
        spec, _, profs = spec.partition("@")
        feature, state = spec.split("=")
        for prof in (profs.split(",") if profs else PROFILES):
            got = table.get((prof, feature), "not probed")
            if got != state:
                wrong.append("%s [%s] is %s, expected %s" % (feature, prof, got, state))
    return wrong


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
        results = RunResults.load(os.path.join(out_dir, "results.json")).to_json()
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
        expected = [g for g, _ in collateral.get(name, []) if fnmatch.fnmatch(c["id"], g.lstrip("?"))]
        if expected:
            used.update(expected)
        else:
            unrelated.append(c)
    # a `?GLOB` entry breaks its case only when a race goes one way: never stale
    stale = [g for g, _ in collateral.get(name, []) if g not in used and not g.startswith("?")]
    return caught, unrelated, stale


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # a run mostly waits (the cases' deadlines, the frames of fake-wm and the clients): measured
    # on 2 cores, the harness and all it starts use 4 s of CPU in a 50 s reference run
    ap.add_argument("--jobs", type=int, default=5 * (os.cpu_count() or 2))
    ap.add_argument("--fault", action="append", help="only these faults")
    ap.add_argument("--variant", action="append", help="only these variants (with --fault: only those)")
    ap.add_argument("--absence", action="append", help="only these rows of the absence matrix (a fault's name, "
                    "timeout-0.5s, timeout-2s, timeout-10s)")
    ap.add_argument("--keep", help="keep every run's results under DIR")
    ap.add_argument("--whole", action="store_true",
                    help="run every fault against the whole suite, not only the cases that name its clause or "
                         "its collateral: also finds a fault that breaks a case it does not say (make selftest-whole)")
    return ap.parse_args()


class SelfTest:
    """One self-test: what it reads once, and the problems and flakes it finds on the way."""

    def __init__(self, args):
        self.args = args
        self.catalog = read_catalog(os.path.join(ROOT, "cases", "clauses.txt"))
        self.collateral = read_collateral(os.path.join(ROOT, "tests", "fault-collateral.txt"))
        listing = subprocess.run([HARNESS, "--list"], check=True, capture_output=True, text=True).stdout
        self.cases = {}  # id -> clauses (first is primary)
        for line in listing.splitlines():
            if line and not line.startswith(" "):
                parts = line.split()
                self.cases[parts[0]] = parts[1]
        self.covered_clauses = set(self.cases.values())
        self.work = args.keep or tempfile.mkdtemp(prefix="framesync-selftest-")
        os.makedirs(self.work, exist_ok=True)
        self.problems, self.flakes = [], []
        self.reference_skips = set()
        self.selecting = bool(args.fault or args.variant or args.absence)
        self.shown_failing = set()
        self.case_clauses = {case: {clause} for case, clause in self.cases.items()}  # id -> every clause it names

    def reference(self):
        """1. the reference passes every case in every profile"""
        rc, res, wall, output = run_suite(os.path.join(self.work, "reference"))
        # a SKIP is right where a case does not apply to what fake-wm claims (e.g. honesty cases for
        # unadvertised atoms); it must still be shown to fail by a fault, below
        bad = [c for c in res["cases"] if c["verdict"] not in ("PASS", "SKIP")]
        skips = [c for c in res["cases"] if c["verdict"] == "SKIP"]
        self.reference_skips = {(c["id"], c["profile"]) for c in skips}
        for c in res["cases"]:
            self.case_clauses.setdefault(c["id"], set()).update(c["clauses"])
        print("reference fake-wm: %d cases in %.1f s, %d not passing, %d skipped"
              % (len(res["cases"]), wall, len(bad), len(skips)))
        for c in skips:
            print("  skipped: %s [%s]: %s" % (c["id"], c["profile"], c["reason"]))
        flaky = rerun_passing(os.path.join(self.work, "reference"), None, bad)
        self.flakes += ["reference: " + describe(c) for c in flaky]
        self.problems.extend("reference: " + describe(c) for c in bad if c not in flaky)
        if rc not in (0, 1) or not res["cases"]:
            self.problems.append("reference run did not complete (exit %d): %s" % (rc, output[-2000:]))

    # ---- 2. every fault, in the profiles its clause belongs to
    def one_fault(self, fault):
        name, clause, _ = fault
        profiles = [p for p in PROFILES if p in self.catalog.get(clause, PROFILES)]
        wm = "exec %s --profile {profile} --inject %s" % (shlex.quote(FAKE_WM), name)
        out = os.path.join(self.work, "fault-" + name)
        rc, res, wall, output = run_suite(out, wm, profiles, None if self.args.whole else self.fault_targets(fault))
        judged = judge_fault(name, clause, res, self.collateral)
        flaky = rerun_passing(out, wm, judged[1])
        return fault, (rc, res, wall, output), judged, flaky

    def fault_row(self, fault, res, wall, judged, flaky):
        name, clause, what = fault
        caught, unrelated, stale = judged
        self.flakes.extend("fault %s: %s" % (name, describe(c)) for c in flaky)
        unrelated = [describe(c) for c in unrelated if c not in flaky]
        for c in res["cases"]:
            if c["verdict"] == "FAIL":
                self.shown_failing.add(c["id"])
        if clause not in self.catalog:
            status = "UNKNOWN CLAUSE"
            self.problems.append("fault %s names clause %s, which is not in cases/clauses.txt" % (name, clause))
        elif clause not in self.covered_clauses and not caught:
            status = "no case yet"
        elif not caught:
            status = "UNCAUGHT"
            self.problems.append("fault %s (%s) is caught by no case" % (name, clause))
        else:
            status = "caught"
        if unrelated:
            status += ", UNRELATED FAILURES"
            self.problems.extend("fault %s: unrelated failure %s" % (name, u) for u in unrelated)
        if stale:
            status += ", STALE COLLATERAL"
            self.problems.extend("fault %s: tests/fault-collateral.txt lists %s, which no longer fails" % (name, g)
                                 for g in stale)
        return name, clause, status, caught, wall

    def fault_targets(self, fault):
        """The cases a fault's run needs: those that name its clause (the only ones that can catch
        it: a check files its failure under one of its case's clauses) and those fault-collateral
        says it breaks too (so a stale entry is still found).  Only --whole runs every case, and
        so also finds a failure of a case that names neither (the fault breaks more than it says)."""
        name, clause, _ = fault
        globs = [g.lstrip("?") for g, _ in self.collateral.get(name, [])]
        return sorted(case for case, clauses in self.case_clauses.items()
                      if clause in clauses or any(fnmatch.fnmatch(case, g) for g in globs))

    # ---- 3. every variant (behaviour the texts allow), in every profile, exactly as a user runs a
    # compositor: no option but --wm, so readiness and features are worked out by the harness.  A
    # profile a run (the harness starts the compositor anew for each profile anyway): three short
    # runs spread over the jobs better than one long one
    def one_variant(self, variant, profile):
        name = variant[0]
        wm = "exec %s --profile {profile} --variant %s" % (shlex.quote(FAKE_WM), name)
        out = os.path.join(self.work, "variant-%s-%s" % (name, profile))
        rc, res, wall, output = run_suite(out, wm, [profile])
        bad = [c for c in res["cases"] if c["verdict"] in ("FAIL", "UNRESOLVED")]
        flaky = rerun_passing(out, wm, bad)
        features = read_features(os.path.join(out, "features.tsv"))
        return rc, res["cases"], wall, output, [c for c in bad if c not in flaky], flaky, features

    def variant_row(self, variant, shards):
        """the variant's row from its runs, one a profile"""
        name, _, like = variant
        cases, bad, flaky, features, wall, problems = [], [], [], {}, 0.0, []
        for rc, shard_cases, shard_wall, output, shard_bad, shard_flaky, shard_features in shards:
            cases += shard_cases
            bad += shard_bad
            flaky += shard_flaky
            features.update(shard_features)
            wall += shard_wall
            if rc not in (0, 1) or not shard_cases:
                problems.append("variant %s: run did not complete (exit %d): %s" % (name, rc, output[-1000:]))
        wrong = feature_mismatches(name, features)
        self.flakes.extend("variant %s: %s" % (name, describe(c)) for c in flaky)
        self.problems.extend("variant %s: %s" % (name, describe(c)) for c in bad)
        self.problems.extend("variant %s: probed %s" % (name, w) for w in wrong)
        self.problems.extend(problems)
        counts = {v: sum(1 for c in cases if c["verdict"] == v) for v in ("PASS", "SKIP")}
        status = "ok" if not bad and not wrong and not problems else "WRONG"
        return name, status, counts["PASS"], counts["SKIP"], len(bad), wall, like

    # ---- 4. the absence matrix, every row the suite as a user runs it
    def one_absence(self, row):
        name, wm, clause = row
        # one profile is enough to show a defect is no absence (de-facto has every clause of the
        # rows), and a crash or a hang every few cases makes the whole suite long
        rc, res, wall, _ = run_suite(os.path.join(self.work, "absence-" + name), wm, profiles=[ABSENCE_PROFILE])
        return row, rc, wall, res

    def absence_row(self, result):
        """judged once the reference run is in: a row's SKIPs are compared with the reference's"""
        (name, wm, clause), rc, wall, res = result
        return (name, wm, clause), rc, wall, judge_absence(clause, rc, res, self.reference_skips,
                                                           ALSO_CAUGHT_AS.get(name))

    def matrix(self):
        """Faults, variants and absence rows, --jobs runs at a time -> (rows, vrows, arows, wall)."""
        args = self.args
        named_faults = args.fault or []
        all_faults = list_faults()
        faults = [f for f in all_faults if f[0] not in ABSENCE_ONLY and (not self.selecting or f[0] in named_faults)]
        all_variants = list_variants()
        # a name fake-wm does not have would select nothing, and nothing run is no proof
        unknown = sorted(set(named_faults) - {f[0] for f in all_faults}) + sorted(
            set(args.variant or []) - {v[0] for v in all_variants})
        if unknown:
            print("selftest: fake-wm has no fault or variant named %s (fake-wm --list-faults, --list-variants)"
                  % ", ".join(unknown), file=sys.stderr)
            sys.exit(2)
        variants = [v for v in all_variants if not self.selecting or v[0] in (args.variant or [])]
        for name, _, _ in variants:
            if name not in VARIANT_FEATURES:
                self.problems.append("variant %s has no expected features in tests/selftest.py VARIANT_FEATURES" % name)
        arows_wanted = select_absence_rows(all_faults, named_faults + (args.absence or []) if self.selecting else None,
                                           self.problems)
        start = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            # the absence rows first: whole suites with restarts and timeouts, the longest runs
            afutures = [pool.submit(self.one_absence, r) for r in arows_wanted]
            vfutures = [(v, [pool.submit(self.one_variant, v, p) for p in PROFILES]) for v in variants]
            # the reference meanwhile: the fault runs need the clauses its cases name, the absence
            # rows its SKIPs
            self.reference()
            rows = [self.fault_row(fault, run[1], run[2], judged, flaky)
                    for fault, run, judged, flaky in pool.map(self.one_fault, faults)]
            vrows = [self.variant_row(v, [fut.result() for fut in futs]) for v, futs in vfutures]
            arows = [self.absence_row(fut.result()) for fut in afutures]
        for (name, _, clause), _, _, (fails, why) in arows:
            self.problems.extend("absence row %s does not hold: %s" % (name, w) for w in why)
            # a fault the absence matrix alone judges still shows its clause's cases failing
            # (root/sync-advertised-is-sent has no other fault); crash rows fail every case
            if clause != CRASH_CLAUSE and name not in ALSO_CAUGHT_AS:
                self.shown_failing.update(f.split(" [")[0] for f in fails)
        return rows, vrows, arows, time.monotonic() - start

    def report(self, rows, vrows, arows, matrix_wall):
        """The tables, the counts, the flakes and problems, and the closing line CI reads."""
        print_tables(rows, vrows, arows)
        # only the whole fault matrix shows every case failing
        never = sorted(set(self.cases) - self.shown_failing) if not self.selecting else []
        for case_id in never:
            self.problems.append("case %s is never shown to fail by any fault" % case_id)
        uncovered = [r for r in rows if r[2].startswith("no case yet")]
        ncaught = sum(1 for r in rows if r[2].startswith("caught"))
        vok = sum(1 for r in vrows if r[1] == "ok")
        aholds = sum(1 for r in arows if not r[3][1])
        print("\n%d faults, %d caught, %d without a case yet; %d cases, %d never shown to fail; "
              "%d variants, %d with no FAIL or UNRESOLVED and the expected features; %d absence rows, %d holding; "
              "matrix wall time %.1f s with %d jobs"
              % (len(rows), ncaught, len(uncovered), len(self.cases), len(never), len(vrows), vok, len(arows), aholds,
                 matrix_wall, self.args.jobs))
        failed = len(self.problems)
        print_findings(self.flakes, self.problems)
        # the plain closing line CI reads: caught faults pass, problems fail, faults without a case skip
        print("selftest: %d passed, %d failed, %d skipped" % (ncaught + vok + aholds, failed, len(uncovered)))


def print_tables(rows, vrows, arows):
    print("\n%-24s %-40s %-12s %s" % ("fault", "clause", "status", "caught by"))
    for name, clause, status, caught, wall in rows:
        cases_caught = sorted({c.split(" [")[0] for c in caught})
        print("%-24s %-40s %-12s %s" % (name, clause, status, ", ".join(cases_caught) or "-"))
    if vrows:
        print("\n%-24s %-7s %5s %5s %9s %7s  %s" % ("variant", "status", "pass", "skip", "fail/unr", "wall s", "like"))
        for name, status, npass, nskip, nbad, wall, like in vrows:
            print("%-24s %-7s %5d %5d %9d %7.1f  %s" % (name, status, npass, nskip, nbad, wall, like[:60]))
    if arows:
        print_absence_matrix(arows)


def print_findings(flakes, problems):
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


def main():
    args = parse_args()
    t = SelfTest(args)
    t.report(*t.matrix())
    # the runs' output stays only where it is wanted: --keep, or a failure to look into
    if not args.keep:
        if t.problems:
            print("the runs' results are in %s" % t.work)
        else:
            shutil.rmtree(t.work, ignore_errors=True)
    return 1 if t.problems else 0


if __name__ == "__main__":
    sys.exit(main())
