"""The run's reports: the workers' results.json merged into OUT/results.json (the harness's
format, in the canonical order, rewritten while the run goes on), then OUT/junit.xml and
OUT/index.html (runner/reports/), and the timing lines that end the TAP summary."""
import os
import re
import time
import traceback

from runner import paths, probe
from runner.reports import html, junit
from runner.results import CaseResult, RunResults, merge_compositors, merge_features
from runner.terms import PROFILES


class Report:
    """incidents: [(TAP text, case dict)] of the probe pass; selection: the --shard slice; dealt: each
    worker's canonical indices (runner/tapstream.deal)."""

    def __init__(self, out, logs, jobs, incidents=(), selection=None, dealt=None):
        self.out, self.logs, self.jobs, self.dealt = out, logs, jobs, dealt
        self.incidents = list(incidents)
        self.selection = selection
        self.start = time.monotonic()
        self.started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        self.path = os.path.join(out, "results.json")
        self.ran = None   # what ran (runner/provenance.py), set by the run

    def worker_runs(self):
        """[(worker, RunResults)] of the workers that have written their results.json."""
        runs = []
        for k in range(self.jobs):
            try:
                runs.append((k, RunResults.load(os.path.join(self.logs.worker_dir(k), "results.json"))))
            except (OSError, ValueError):
                continue
        return runs

    def canonical_index(self, k, i):
        """Where worker k's i-th result stands in the canonical order (past its end: a result no plan had)."""
        if not self.dealt:
            return i * self.jobs + k
        mine = self.dealt[k]
        return mine[i] if i < len(mine) else sum(map(len, self.dealt)) + i * self.jobs + k

    def merged(self, status):
        """The merged results (what the workers have written so far)."""
        runs = self.worker_runs()
        cases = {}
        for k, worker_run in runs:
            for i, case in enumerate(worker_run.cases):
                if case.log:
                    case.log = self.logs.rewrite(k, case.log)
                cases[self.canonical_index(k, i)] = case
        ordered = [CaseResult.from_json(c) for _, c in self.incidents] + [cases[i] for i in sorted(cases)]
        probed = probe.probe_results(self.out)
        # before any worker wrote (a run stopped while probing), the probe runs say what ran
        described = runs or list(enumerate(probed))
        run = RunResults(started=self.started, status=status, wall_ms=(time.monotonic() - self.start) * 1000.0,
                         compositors=self.compositors(described),
                         captures=[dict(c, run="probes") for r in probed for c in r.captures]
                         + [dict(c, run="worker %d" % k) for k, r in runs for c in r.captures],
                         features=merge_features(probed + [r for _, r in runs]),
                         cases=ordered, selection=self.selection,
                         client=next((r.client for _, r in described if r.client), None), ran=self.ran)
        return run.with_findings()

    @staticmethod
    def compositors(runs):
        """One entry per compositor, in profile order, then worker, then as each worker lists them."""
        comps = [(PROFILES.index(c.get("profile")) if c.get("profile") in PROFILES else 99, k, i, c)
                 for k, run in runs for i, c in enumerate(run.compositors)]
        return merge_compositors(c for *_, c in sorted(comps, key=lambda t: t[:3]))

    def write(self, status):
        run = self.merged(status)
        run.write(self.path)
        return run

    def make_reports(self, cases_dir, warn):
        """junit.xml and index.html; a report bug must not hide the verdicts."""
        clauses = paths.clauses_of(cases_dir)
        try:
            junit.write(self.path, os.path.join(self.out, "junit.xml"), clauses_path=clauses)
            html.write(self.path, os.path.join(self.out, "index.html"), clauses_path=clauses)
        except Exception as e:
            traceback.print_exc()
            warn("the reports could not be made: %s" % e)


# ---------------------------------------------------------------- timing

NONE_WINDOW_RE = re.compile(r"^\s*(?:require\s+)?none\s.*\sfor\s+(\d+)\s*(?:ms)?\s*(?:#.*)?$")
LATE_ANSWER_RE = re.compile(r"^\s*\S+\s+answer\s+late\s+(\d+)\b")


def none_windows_ms(path, cache={}):
    """The fixed waits a case file scripts: the sum of its `none ... for MS` windows (the time a
    compositor is watched not doing something) and of its `answer late MS` delays."""
    path = re.sub(r":\d+$", "", path)  # results.json names FILE:LINE
    if path not in cache:
        total = 0
        try:
            with open(path) as f:
                for line in f:
                    m = NONE_WINDOW_RE.match(line) or LATE_ANSWER_RE.match(line)
                    if m:
                        total += int(m.group(1))
        except OSError:
            pass
        cache[path] = total
    return cache[path]


def mandated_ms(case):
    """The part of a passing case's duration its clause requires: the scripted waits, and for a
    clause about a timeout ("must not block indefinitely") the whole case, since what it measures
    is how long the compositor holds."""
    if case.verdict.value != "PASS" or not case.file:
        return 0.0
    if any(c.endswith("/not-indefinitely") for c in case.clauses[:1]):
        return float(case.duration_ms or 0)
    return float(none_windows_ms(case.file))


def timing_text(run, wall, jobs):
    """The `# timing:` line, and the `# floor:` line: the waits the passing cases' clauses require
    (mandated_ms), spread over the workers, plus one start-up (the slowest compositor's readiness)."""
    total_ms = sum(float(c.duration_ms or 0) for c in run.cases)
    workers = "%d worker%s" % (jobs, "" if jobs == 1 else "s")
    text = ("# timing: wall %.2f s, sum of case durations %.2f s, speed-up %.2fx over the sum (%s)\n"
            % (wall, total_ms / 1000.0, (total_ms / 1000.0) / wall if wall > 0 else 0, workers))
    fixed_ms = sum(mandated_ms(c) for c in run.cases)
    startup_ms = max([float(x.get("ready_ms", 0) or 0) for x in run.compositors] or [0])
    floor = (fixed_ms / max(1, jobs) + startup_ms) / 1000.0
    if floor > 0:
        text += ("# floor: %.2f s (the waits the passing cases' clauses require: none windows, late answers, measured "
                 "hold timeouts; %.1f s in all, over %s, plus a start-up of %.0f ms); wall / floor = %.2f\n"
                 % (floor, fixed_ms / 1000.0, workers, startup_ms, wall / floor))
    return text
