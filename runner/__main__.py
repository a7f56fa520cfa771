"""python3 -m runner [COMMAND] [options]: the runner's entry (./run-tests.sh execs it).

    run       the suite on N parallel workers, merged (the default)    runner/run.py
    matrix    every installed named compositor (--clients: application) runner/matrix.py
    bench     the benchmark                                             runner/bench.py
    spec      the spec author's report on a DocBook text of wm-spec     runner/spec/cli.py
    merge     several runs' output folders as one run                   runner/merge.py
    baseline  results.json against an expectation baseline             runner/baseline.py
    submit    one implementation's results as one submission file      runner/submission.py
    dashboard submissions as clause x implementation x version (HTML)  runner/dashboard.py
    gate      a release gate: exit 1 when NEW fails a clause OLD passed runner/gate.py

The options of ./run-tests.sh before the commands existed still work, as aliases: --spec FILE
is `spec`, --bench is `bench`, --matrix is `matrix` (--matrix --clients: `matrix --clients`);
anything else is `run`.
"""
import argparse
import signal
import sys

from runner import baseline, bench, dashboard, gate, matrix, merge, run, submission
from runner.spec import cli as spec

# command -> (module, what it does)
COMMANDS = {
    "run": (run, "the suite on N parallel workers, merged (the default)"),
    "matrix": (matrix, "every installed named compositor, or with --clients application"),
    "bench": (bench, "the benchmark"),
    "spec": (spec, "the spec author's report on a DocBook text of wm-spec"),
    "merge": (merge, "several runs' output folders as one run"),
    "baseline": (baseline, "results.json against an expectation baseline"),
    "submit": (submission, "one implementation's results as one submission file"),
    "dashboard": (dashboard, "submissions as clause x implementation x version, static HTML"),
    "gate": (gate, "a release gate: exit 1 when NEW fails a clause OLD passed"),
}


def command_line(argv):
    """The command line with its command first: the old options name theirs."""
    if argv and argv[0] in COMMANDS:
        return argv
    if any(a == "--spec" or a.startswith("--spec=") for a in argv):
        return ["spec"] + argv
    if "--bench" in argv:
        return ["bench"] + [a for a in argv if a != "--bench"]
    if "--matrix" in argv:
        return ["matrix"] + [a for a in argv if a != "--matrix"]
    return ["run"] + argv


def parser():
    ap = argparse.ArgumentParser(prog="python3 -m runner", add_help=False, allow_abbrev=False)
    sub = ap.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (_, what) in COMMANDS.items():
        # each command parses its own options (and answers --help)
        sub.add_parser(name, help=what, add_help=False, allow_abbrev=False)
    return ap


def main(argv):
    ns, args = parser().parse_known_args(command_line(argv))
    return COMMANDS[ns.command][0].main(args)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:  # before any worker started
        sys.exit(128 + signal.SIGINT)
