"""Where things are, defined once: the checkout the runner runs from, the programs it starts, the
case folder, and the folder every command writes to unless told otherwise (--out)."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARNESS = os.path.join(ROOT, "harness", "framesync-harness")
BENCH = os.path.join(ROOT, "bench", "framesync-bench")
CASES = os.path.join(ROOT, "cases")
BASELINES = os.path.join(ROOT, "baselines")

# the default outputs, apart from the code: results/ (git ignores it)
OUTPUT = os.path.join(ROOT, "results")
LATEST = os.path.join(OUTPUT, "latest")      # a run, the benchmark
SPEC = os.path.join(OUTPUT, "spec")          # the spec author's report
MERGED = os.path.join(OUTPUT, "merged")      # runner.merge
# and the matrices' matrix.md, matrix.html, client-matrix.md and client-matrix.html in OUTPUT


def clauses_of(cases_dir=None):
    """The clause catalog of a case folder (default: the checkout's)."""
    return os.path.join(cases_dir or CASES, "clauses.txt")
