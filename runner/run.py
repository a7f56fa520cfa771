"""The `run` command (what ./run-tests.sh runs by default): the suite on N parallel workers, merged.

Each worker is one harness process (harness/framesync-harness --shard k/N --out OUT/workers/k)
with its own Xvfb and compositor.  The stages, one module each:

    probe.py      the probe pass: the feature table, once, for every worker
    workers.py    the worker pool: spawning, reading, signals
    tapstream.py  one TAP 13 stream in the canonical order (profiles ewmh-1.5, draft-2011,
                  de-facto; cases by path), identical to what --jobs 1 gives
    report.py     OUT/results.json (the harness's format), junit.xml, index.html
    outdir.py     OUT itself: what a run clears, the workers' logs linked into OUT/logs/

Every harness option is passed through; see --help.  Standard library only.
"""
import argparse
import hashlib
import os
import re
import signal
import subprocess
import sys
import time

from runner import baseline, paths, policies, probe, provenance, runverdict, tapstream
from runner.console import Console
from runner.outdir import Logs, OutError, clear_out
from runner.paths import HARNESS
from runner.report import Report, timing_text
from runner.reports import certifier
from runner.tapstream import TapStream, bail_out, findings_tap
from runner.terms import FAIL_ON, PROFILES
from runner.workers import WorkerPool

EXIT_USAGE = 2
# harness options that run nothing (they print and exit): the harness is run in the runner's place
DELEGATED = ("--list", "--list-wms", "--list-clients", "--coverage", "--probe")
# what a re-run of the failing cases keeps, to reach the same compositor the same way: its input
# path and barrier and its X server too (a re-run without --input drove no resize of kwin_wayland)
RERUN_KEEPS = ("--wm", "--ready", "--wm-timeout", "--timeout-scale", "--replace-with", "--xserver", "--input",
               "--input-barrier", "--resize-trigger")

RUNNER_HELP = """\
runner options (python3 -m runner run, what run-tests.sh runs):
  --jobs N            run on N parallel workers, each with its own Xvfb and compositor
                      (default: the number of cores); the output is the same as --jobs 1
  --out DIR           where results.tap, results.json, junit.xml, index.html and logs/ go
                      (default results/latest); the run's files replace the previous run's
  --shard I/N         run only the I-th of N interleaved slices of the cases (1 <= I <= N,
                      e.g. $CI_NODE_INDEX/$CI_NODE_TOTAL: one CI job of N); python3 -m
                      runner.merge DIR... merges the N folders (and those of other
                      compositors) as if they were one run
  --spec FILE.xml     the spec author's report on a DocBook text of wm-spec instead of a run:
                      sentences, coverage, lint, profile diff, interop (--check, --results PATH,
                      --out DIR; see python3 -m runner spec --help)
  --bench             benchmark the compositor(s) instead (--wm repeatable, --bench-time S);
                      see --bench --help
on a terminal a status line (done/total, failures, ETA) is shown on stderr.
baselines and the matrix (runner/baseline.py, runner/matrix.py):
  --baseline FILE     exit 0 exactly when the results match FILE (baselines/NAME.txt); new
                      failures (with their levels), new passes, new flakes and new skips are
                      listed; a run that tested nothing matches nothing without --allow-empty
  --update-baseline FILE  write FILE from the results (keeps the comments of its lines; Fail
                      lines get [level LEVEL])
  --reruns N          re-run failing cases up to N times to tell flakes (default 2)
  --label KEY=VALUE   what ran that the run cannot find by itself (repeatable): version, source,
                      commit, recipe, name, xserver, xserver_version replace what was found;
                      any other key is kept as given (results.json "ran", runner/provenance.py)
  --policy all        with --client: a whole run under each of fake-wm's policies in turn
                      (fake-wm --list-policies), each in OUT/POLICY; OUT/index.html links them
                      and shows their figures
  --matrix            every installed compositor of compositors/ with its baseline; writes
                      results/matrix.md and .html (python3 -m runner.matrix --help)
the runner's commands (python3 -m runner COMMAND ...; the options above are their aliases):
  run (the default), matrix (--matrix; --matrix --clients), bench (--bench), spec (--spec FILE),
  merge (python3 -m runner.merge), baseline (python3 -m runner.baseline)
"""


class Parser(argparse.ArgumentParser):
    """An option error is one line, `framesync: ...`, and exit status 2."""

    def error(self, message):
        sys.stderr.write("framesync: %s\n" % message)
        sys.exit(EXIT_USAGE)


def die_usage(msg):
    sys.stderr.write("framesync: %s\n" % msg)
    sys.exit(EXIT_USAGE)


def jobs_count(text):
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError("--jobs takes a number of workers (1 or more), not `%s`" % text)
    return n


def reruns_count(text):
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError("--reruns takes a number (0 or more), not `%s`" % text)
    return n


def shard_slice(text):
    """--shard I/N counts from 1, as CI systems number their parallel jobs (GitLab's
    CI_NODE_INDEX/CI_NODE_TOTAL, jest, Playwright, deqp-runner)."""
    m = re.match(r"^(\d+)/(\d+)$", text)
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
        raise argparse.ArgumentTypeError("--shard takes I/N with 1 <= I <= N (the I-th of N slices, counting from 1, "
                                         "as $CI_NODE_INDEX/$CI_NODE_TOTAL), not `%s`" % text)
    return int(m.group(1)), int(m.group(2))


def fail_on_level(text):
    if text not in FAIL_ON:
        raise argparse.ArgumentTypeError("--fail-on takes must, should or any, not `%s`" % text)
    return text


def own_options():
    """The runner's own options: taken out of the command line; the rest goes to the harness."""
    ap = Parser(prog="run-tests.sh", add_help=False, allow_abbrev=False)
    ap.add_argument("-h", "--help", action="store_true")
    ap.add_argument("--jobs", type=jobs_count)
    ap.add_argument("--out", type=lambda s: s or die_usage("--out needs a folder"))
    ap.add_argument("--shard", type=shard_slice)
    ap.add_argument("--baseline")
    ap.add_argument("--update-baseline")
    ap.add_argument("--reruns", type=reruns_count, default=2)
    ap.add_argument("--label", action="append", default=[])
    return ap


def read_options():
    """The harness options the runner reads too (they stay in what is passed through)."""
    ap = Parser(prog="run-tests.sh", add_help=False, allow_abbrev=False)
    ap.add_argument("--profile", action="append", default=[])
    ap.add_argument("--fail-on", type=fail_on_level, default="any")
    ap.add_argument("--allow-empty", action="store_true")
    ap.add_argument("--features")
    ap.add_argument("--cases")
    for name in RERUN_KEEPS:
        ap.add_argument(name)
    for name in DELEGATED:
        ap.add_argument(name, action="store_true")
    return ap


def parse_args(argv):
    """-> the options: the runner's own, `passthrough` (the harness's, in the order given) and
    what the runner reads of those (profiles, fail_on, cases, wm, delegate ...)."""
    opts, passthrough = own_options().parse_known_args(argv)
    seen, _ = read_options().parse_known_args(passthrough)
    for k, v in vars(seen).items():
        setattr(opts, k, v)
    opts.passthrough = passthrough
    try:
        opts.labels = provenance.parse_labels(opts.label)
    except ValueError as e:
        die_usage(str(e))
    opts.profiles = [p for v in seen.profile for p in v.split(",") if p]
    opts.delegate = next((a for a in DELEGATED if getattr(seen, a[2:].replace("-", "_"))), None)
    return opts


def show_help():
    """The harness's options (less those the runner sets itself) and the runner's."""
    try:
        p = subprocess.run([HARNESS, "--help"], capture_output=True, text=True)
    except OSError as e:
        die_usage("cannot run the harness %s: %s (run make)" % (HARNESS, e))
    lines, skip = [], False
    for line in p.stdout.splitlines():
        if line.startswith("  --shard") or line.startswith("  --select"):
            skip = True  # the runner sets --shard and --select itself
            continue
        if skip and line.startswith("      "):
            continue
        skip = False
        if line.startswith("  --out"):
            continue  # the runner's own, below
        lines.append(line)
    text = "\n".join(lines).replace("usage: framesync [options]",
                                    "usage: run-tests.sh [options]   (python3 -m runner run)")
    sys.stdout.write(text + "\n" + RUNNER_HELP)
    sys.stderr.write(p.stderr)
    return p.returncode


# ---------------------------------------------------------------- the selection

def canonical_order(opts):
    """[(case id, profile)] in the canonical order, from `harness --list`: also checks every
    option and case file once before any worker starts."""
    try:
        p = subprocess.run([HARNESS] + opts.passthrough + ["--list"], capture_output=True, text=True)
    except OSError as e:
        die_usage("cannot run the harness %s: %s (run make)" % (HARNESS, e))
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        sys.exit(EXIT_USAGE if p.returncode in (0, 1, 2) else p.returncode)
    wanted = [p_ for p_ in PROFILES if not opts.profiles or p_ in opts.profiles]
    cases = []
    for line in p.stdout.splitlines():
        if not line.strip() or line[0].isspace():
            continue
        words = line.split()
        cases.append((words[0], set(w for w in words[2:] if w in PROFILES)))
    return [(cid, prof) for prof in wanted for cid, profs in cases if prof in profs]


def shard_of(expected, shard):
    """The runner's --shard I/N: every N-th case of the canonical order from the I-th (counting
    from 1), and what runner.merge needs to put the slices back together and to refuse mixed case
    sets."""
    digest = hashlib.sha256("".join("%s %s\n" % c for c in expected).encode()).hexdigest()[:16]
    selection = {"cases": len(expected), "digest": digest, "shard": None}
    if shard is None:
        return expected, selection
    selection["shard"] = "%d/%d" % shard
    return expected[shard[0] - 1::shard[1]], selection


def write_select(path, expected):
    """The harness's --select file: this slice, one `CASE-ID PROFILE` a line."""
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join("%s %s\n" % c for c in expected))


# ---------------------------------------------------------------- the run

class Run:
    """One run: the probe pass, the workers, the merged stream, the reports.  It is the worker
    pool's handler (on_line, on_eof, on_exit, tick)."""

    def __init__(self, opts, expected, selection, jobs, out):
        self.opts, self.expected, self.jobs, self.out = opts, expected, jobs, out
        self.console = Console(os.path.join(out, "results.tap"))
        self.logs = Logs(out, jobs, self.console.warn)
        self.pool = WorkerPool(self.console)
        self.report = Report(out, self.logs, jobs, selection=selection, dealt=tapstream.deal(expected, jobs))
        own = any(a in ("--xserver=own",) for a in opts.passthrough) or "own" in [
            b for a, b in zip(opts.passthrough, opts.passthrough[1:]) if a == "--xserver"]
        self.report.ran = provenance.describe(opts.wm, opts.labels, own_xserver=own)
        self.stream = None
        self.error = None          # (worker, reason): a worker ended with an error
        self.json_at = (0.0, -1)   # when results.json was last written, and with how many results

    def execute(self):
        self.pool.install_signals()
        self.report.write("running")
        try:
            features = self.probe()
        except probe.ProbeFailed as e:
            return self.probe_failed(e)
        self.stream = TapStream(self.expected, self.jobs, self.console, self.report.incidents,
                                rewrite=self.logs.rewrite,
                                on_result=lambda k, r: self.logs.link_case(k, r.profile, r.case_id))
        try:
            self.pool.start([self.worker_cmd(k, features) for k in range(self.jobs)])
        except OSError as e:
            die_usage("cannot start the harness %s: %s" % (HARNESS, e.strerror))
        self.pool.run(self, tick_s=0.5 if self.console.progress else None)
        return self.conclude()

    def worker_cmd(self, k, features):
        cmd = [HARNESS] + self.opts.passthrough + ["--shard", "%d/%d" % (k, self.jobs),
                                                   "--out", self.logs.worker_dir(k)]
        return cmd + (["--features", features] if features else [])

    def probe(self):
        """The probe pass (runner/probe.py) -> OUT/features.tsv, or None (a table was given, or
        there is nothing to run)."""
        if self.opts.features is not None or not self.expected:
            return None
        groups = probe.profile_groups(self.expected, self.opts.wm)
        folders = probe.run_probes(HARNESS, self.opts.passthrough, groups, self.out, self.jobs, self.pool)
        for pout in folders:
            self.report.incidents += probe.read_incidents(pout)
        path = os.path.join(self.out, "features.tsv")
        probe.write_features(folders, path)
        for pout in folders:
            self.logs.link_probes(pout)
        return path

    def probe_failed(self, e):
        """The probe pass did not complete: a signal stopped the run (every output says so), or the
        harness stopped, with an input error (a compositor or application that does not start) or
        killed: the same ending as a worker whose compositor does not start: what the probe runs
        said and Bail out! on the TAP stream (CI logs show stdout), the reason on stderr once, a
        results.json without cases, exit status 2."""
        before = "".join(line + "\n" for line in e.comments())
        if e.signal:
            return self.interrupted_while_probing(e.signal, before)
        text = e.text.strip()
        if text:
            sys.stderr.write(text + "\n")
        what = "the application under test" if self.client_run() else "the compositor"
        if e.rc < 0:
            reason = "probing %s: the harness was killed by signal %d (%s)" % (what, -e.rc, signal.strsignal(-e.rc))
        else:
            reason = e.bail_reason() or next((ln for ln in text.splitlines() if ln.strip()), "") \
                or "probing %s failed (exit status %d)" % (what, e.rc)
        if not text.startswith("framesync:"):  # the harness said nothing of its own
            sys.stderr.write("framesync: %s\n" % reason)
        self.console.emit("TAP version 13\n" + before + bail_out(reason))
        self.console.close_tap()
        self.report.write("bailed out")
        return EXIT_USAGE

    def client_run(self):
        return any(a == "--client" or a.startswith("--client=") for a in self.opts.passthrough)

    def interrupted_while_probing(self, sig, before):
        """Ctrl-C or SIGTERM during the probe pass: results.tap ends with what the probe runs had
        said and Bail out!, results.json says interrupted (status and run verdict), junit.xml and
        index.html are made from it; exit status 128 + the signal."""
        why = "interrupted by %s" % signal.strsignal(sig)
        what = "the application under test" if self.client_run() else "the compositor"
        self.console.emit("TAP version 13\n" + before + "# %s while %s was probed: no case ran\n" % (why, what)
                          + bail_out(why))
        self.console.close_tap()
        run = self.report.merged(why)
        run.run = runverdict.interrupted(why, 0, len(self.expected), 128 + sig)
        run.write(self.report.path)
        self.report.make_reports(self.opts.cases, self.console.warn)
        return 128 + sig

    # ---- the worker pool's handler
    def on_line(self, k, text):
        self.stream.on_line(k, text)

    def on_eof(self, k):
        self.stream.on_eof(k)

    def tick(self):
        """After each round of reading: the status line, and results.json at most twice a second."""
        self.console.show_status(self.stream.status_line(self.pool.active()))
        now = time.monotonic()
        if self.stream.done != self.json_at[1] and now - self.json_at[0] > 0.5:
            self.report.write("running")
            self.json_at = (now, self.stream.done)

    def on_exit(self, w):
        tap = self.stream.workers[w.k]
        if self.pool.interrupted or self.error:
            if not self.error or w is self.error[0]:
                self.pool.show_stderr(w, dedupe=True)
            return  # the runner stopped it: what it says about that is noise
        if w.rc in (0, 1):
            self.pool.show_stderr(w, dedupe=True)
            if tap.plan is None:
                self.fail_worker(w, "worker %d ended (exit status %d) without a TAP plan" % (w.k, w.rc))
            elif tap.results < tap.plan:
                self.fail_worker(w, "worker %d stopped after %d of its %d cases" % (w.k, tap.results, tap.plan))
            return
        if w.rc == EXIT_USAGE:
            why = tap.bail or "worker %d ended with exit status 2" % w.k
        elif w.rc < 0:
            why = "worker %d was killed by signal %d (%s)" % (w.k, -w.rc, signal.strsignal(-w.rc))
        else:
            why = tap.bail or "worker %d ended with exit status %d" % (w.k, w.rc)
        self.pool.show_stderr(w, dedupe=False)
        self.fail_worker(w, why)

    def fail_worker(self, w, why):
        if self.error:
            return
        self.error = (w, why)
        self.pool.forward(signal.SIGTERM)  # the others stop too; their Bail out! is not shown

    # ---- the end
    def stop_reason(self):
        """Why the run stopped early, or None."""
        if self.pool.interrupted:
            return "interrupted by %s" % signal.strsignal(self.pool.interrupted)
        return self.error[1] if self.error else None

    def conclude(self):
        self.stream.flush()
        self.console.end_status()
        self.logs.link_all(range(self.jobs))
        if self.pool.interrupted:
            status = "interrupted by %s" % signal.strsignal(self.pool.interrupted)
        else:
            status = self.error[1] if self.error else "complete"
        run = self.report.merged(status)
        # a CI shard is judged with the others by runner.merge, not alone: an all-skipped slice is fine
        verdict = runverdict.decide(run.to_json(), allow_empty=self.opts.allow_empty or self.opts.shard is not None,
                                    fail_on=self.opts.fail_on)
        if self.pool.interrupted:  # whatever the cases that ran say, the run did not end
            verdict = dict(verdict, **runverdict.interrupted(status, len(run.cases) - len(self.report.incidents),
                                                             len(self.expected), 128 + self.pool.interrupted))
        run.run = {k: verdict[k] for k in ("verdict", "reason", "exit_status")}
        run.write(self.report.path)
        wall = time.monotonic() - self.report.start
        if self.stream.plan_emitted:
            self.summary(run, verdict, wall)
        elif self.stop_reason():  # stopped before every worker had its plan
            self.console.emit("TAP version 13\n" + bail_out(self.stop_reason()))
        self.console.close_tap()
        self.report.make_reports(self.opts.cases, self.console.warn)
        if self.pool.interrupted:
            return 128 + self.pool.interrupted
        if self.error:
            return EXIT_USAGE
        self.console.emit(self.stream.closing_line(), tap=False)
        return verdict["exit_status"]

    def summary(self, run, verdict, wall):
        """The end of the TAP stream: the run's verdict, findings, counts, timing."""
        stopped = self.stop_reason()
        if not stopped:
            self.stream.trailing_comments()
        line = runverdict.summary_line(verdict)
        if line:
            self.console.emit(line)
        self.console.emit(findings_tap(run.findings))
        if not stopped:  # a client run: the screen a toolkit developer acts on (runner/reports/certifier.py)
            self.console.emit(certifier.console_text(run.to_json()))
        self.console.emit(self.stream.count_line())
        if self.stream.done or not self.error:
            self.console.emit(timing_text(run, wall, self.jobs))
        if stopped:
            unemitted = len(run.cases) - self.stream.next
            if unemitted > 0:
                self.console.emit("# %d more case%s finished out of order: see results.json\n"
                                  % (unemitted, "" if unemitted == 1 else "s"))
            self.console.emit(bail_out(stopped))


# ---------------------------------------------------------------- the command

def gate(opts, results_json, rc):
    """--baseline / --update-baseline after the run: re-runs and comparison (runner/baseline.py).
    The exit status: the run's own without them, else 0 exactly when the results match (or were
    written)."""
    if not opts.baseline and not opts.update_baseline:
        return rc
    if rc not in (0, 1):
        return rc  # the run itself did not complete: a usage error or an interrupt
    argv = ["--results", results_json, "--reruns", str(opts.reruns)]
    argv += ["--allow-empty"] if opts.allow_empty else []
    argv += ["--baseline", opts.baseline] if opts.baseline else []
    argv += ["--update-baseline", opts.update_baseline] if opts.update_baseline else []
    keep = []   # re-runs reach the same compositor and cases
    for option in RERUN_KEEPS + ("--cases",):
        name = option[2:].replace("-", "_")
        if getattr(opts, name) is not None:
            keep += [option, getattr(opts, name)]
    return baseline.main(argv, rerun_args=keep)


def run_each_policy(argv, opts):
    """--client CMD --policy all: a whole run per compositor policy, in OUT/POLICY (runner/policies.py)."""
    if not any(a == "--client" or a.startswith("--client=") for a in opts.passthrough):
        die_usage("--policy all: the policies are the compositor's ways with an application: it goes with --client")
    if opts.baseline or opts.update_baseline:
        die_usage("--policy all: a baseline is one run's (the reference policy's): give --policy reference with "
                  "--baseline")
    return policies.run_each(argv, main, os.path.abspath(opts.out or paths.LATEST), die_usage)


def main(argv):
    opts = parse_args(argv)
    if opts.help:
        return show_help()
    if policies.requested(opts.passthrough) == "all" and not opts.delegate:
        return run_each_policy(argv, opts)
    if opts.delegate:
        try:
            os.execv(HARNESS, [HARNESS] + opts.passthrough)
        except OSError as e:
            die_usage("cannot run the harness %s: %s (run make)" % (HARNESS, e.strerror))
    expected, selection = shard_of(canonical_order(opts), opts.shard)
    jobs = opts.jobs or len(os.sched_getaffinity(0)) or 1
    jobs = max(1, min(jobs, len(expected)))
    out = os.path.abspath(opts.out or paths.LATEST)
    try:
        clear_out(out)
    except OutError as e:
        die_usage(str(e))
    if opts.shard:
        select = os.path.join(out, "workers", "select.txt")
        write_select(select, expected)
        opts.passthrough += ["--select", select]
    rc = Run(opts, expected, selection, jobs, out).execute()
    return gate(opts, os.path.join(out, "results.json"), rc)
