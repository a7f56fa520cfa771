"""What the compositor matrix (runner/matrix.py) and the client matrix (runner/client_matrix.py)
share: the named targets the harness knows, one run of the suite against one of them (with its
re-runs, or the files of an earlier run with --reuse), its gate against its baseline, and its
findings.  A matrix run is a dict: name, out, wall, doc (its results.json), results (baseline
statuses by `CASE-ID [PROFILE]`), and error when it did not run; the gate adds gate, match,
report and gate_text."""
import os
import subprocess
import sys
import time

from runner import baseline as bl
from runner import provenance
from runner.paths import HARNESS, ROOT
from runner.results import RunResults, findings
from runner.workers import dies_with_us


def logger(prefix):
    def log(msg):
        sys.stderr.write("%s: %s\n" % (prefix, msg))
        sys.stderr.flush()
    return log


def listing(flag, columns, prefix):
    """The rows of `harness --list-wms` / `--list-clients` (less the heading), split into
    `columns` fields, the last one the rest of the line."""
    p = subprocess.run([HARNESS, flag], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("%s: framesync-harness %s failed:\n%s" % (prefix, flag, p.stderr))
    rows = [line.split(None, columns - 1) for line in p.stdout.splitlines()[1:]]
    return [r for r in rows if len(r) == columns]


def earlier_wall(out):
    """--reuse: the wall time of an earlier run in out, its re-runs included."""
    total = 0.0
    subs = ["."] + sorted(d for d in os.listdir(out) if d.startswith("rerun-")) if os.path.isdir(out) else []
    for sub in subs:
        try:
            total += RunResults.load(os.path.join(out, sub, "results.json")).wall_ms / 1000.0
        except (OSError, ValueError):
            pass
    return total


def record_ran(path, wm):
    """The harness ran alone: what ran (runner/provenance.py) is added to its results.json."""
    try:
        results = RunResults.load(path)
    except (OSError, ValueError):
        return   # said below, when the results are read
    results.ran = provenance.describe(wm, {})
    results.write(path)


def run_one(name, target, out_root, reruns, reuse, log, extra=(), annotate=None, workers=None, expected=None):
    """The suite against one named target: target is how the harness reaches it (["--wm", NAME,
    "--cases", DIR] or ["--client", NAME]), also on re-runs; extra: options of the first run only
    (--timeout-scale, --filter).  annotate(results): explains failures after the re-runs.  workers:
    the first run through the runner with that many workers (its probe pass first), else one harness.
    expected: the baseline's entries, whose Fail lines are not re-run (baseline.rerun_failures)."""
    out = os.path.join(out_root, name)
    os.makedirs(out, exist_ok=True)
    start, rc = time.monotonic(), None
    if reuse:  # the reports again from an earlier run's files, nothing is run
        start -= earlier_wall(out)
    else:
        log("%s: running" % name)
        with open(os.path.join(out, "tap.txt"), "w") as tap:
            # the harness dies with the matrix (SIGTERM: it stops its Xvfb and compositor), also
            # when the matrix is killed: it was left running a whole suite after a SIGTERM
            first = [sys.executable, "-m", "runner", "run", "--jobs", str(workers)] if workers else [HARNESS]
            rc = subprocess.run(first + list(target) + ["--out", out] + list(extra), cwd=ROOT,
                                stdout=tap, stderr=subprocess.STDOUT, preexec_fn=dies_with_us()).returncode
    run = {"name": name, "rc": rc, "wall": time.monotonic() - start, "out": out, "results": {}, "doc": None}
    if not reuse and target[:1] == ["--wm"]:
        record_ran(os.path.join(out, "results.json"), target[1])
    try:
        run["doc"] = bl.load_results(os.path.join(out, "results.json"))
    except (OSError, ValueError, bl.BaselineError) as e:
        run["error"] = "no results.json: %s" % e
        return run
    if rc == 2 or not run["doc"].get("cases"):
        run["error"] = run["doc"].get("status", "exit %s" % rc)
        return run
    run["results"] = bl.statuses_of(run["doc"])
    if reuse:
        k = 1
        while bl.apply_rerun(run["results"], os.path.join(out, "rerun-%d" % k, "results.json")):
            k += 1
    elif reruns > 0:
        rr = time.monotonic()
        bl.rerun_failures(run["results"], out, reruns, list(target), log=lambda m: log("%s: %s" % (name, m)),
                          expected=expected)
        run["rerun_wall"] = time.monotonic() - rr
    run["wall"] = time.monotonic() - start
    if annotate:
        annotate(run["results"])
    if not reuse:
        log("%s: done in %.0f s (exit %d)" % (name, run["wall"], rc))
    return run


def gate(run, baselines, update):
    """The run against baselines/.../NAME.txt (runner/baseline.py's gate)."""
    bl.gate(run, os.path.join(baselines, run["name"] + ".txt"), update)


def findings_of(run):
    """The clauses a run broke, each once, with their levels (older results: from the catalog)."""
    return findings((run.get("doc") or {}).get("cases", []), bl.catalog())


def gate_lines(runs):
    """Each run's comparison with its baseline, as printed at the end."""
    return [run.get("gate_text") or "%s: %s" % (run["name"], run.get("gate", "")) for run in runs]
