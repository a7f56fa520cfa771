"""Tests of the runner (python3 -m runner run): the merge of the workers' TAP (runner/tapstream.py,
no X), its options, and runs against fake-wm (built binaries and Xvfb): --jobs 2 gives the same
TAP and verdicts as --jobs 1, an interrupt stops every worker and leaves complete files, a usage
error is reported once."""
import contextlib
import io
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from runner import run as runner  # noqa: E402
from runner.__main__ import command_line  # noqa: E402
from runner.console import Console  # noqa: E402
from runner.outdir import Logs  # noqa: E402
from runner.results import RunResults  # noqa: E402
from runner.tapstream import TapStream  # noqa: E402
from runner.terms import Verdict  # noqa: E402

RUNNER = [sys.executable, "-m", "runner"]   # run with cwd=ROOT
HARNESS = os.path.join(ROOT, "harness", "framesync-harness")
FAKE_WM = os.path.join(ROOT, "fake-wm", "fake-wm")

# cases that pass against fake-wm and are quick; the runs take ~15 s in all
STABLE = "^(basic|extended|forms)/"


class Merge(unittest.TestCase):
    """Worker streams fed by hand, in an order that makes the stream buffer."""

    def setUp(self):
        self.out = tempfile.mkdtemp()
        os.makedirs(os.path.join(self.out, "logs", "ewmh-1.5"))
        os.makedirs(os.path.join(self.out, "workers"))
        expected = [("g/c1", "ewmh-1.5"), ("g/c2", "ewmh-1.5"), ("g/c3", "ewmh-1.5")]
        self.console = Console(os.path.join(self.out, "results.tap"))
        self.console.progress = False
        logs = Logs(self.out, 2, self.console.warn)
        self.r = TapStream(expected, 2, self.console, rewrite=logs.rewrite)
        self.stdout = io.StringIO()

    def tearDown(self):
        self.console.close_tap()
        shutil.rmtree(self.out)

    def feed(self, k, text):
        with contextlib.redirect_stdout(self.stdout):
            for line in text.splitlines():
                self.r.on_line(k, line)

    def test_canonical_order_and_renumbering(self):
        w1log = os.path.join(self.out, "workers", "1", "logs", "ewmh-1.5", "g-c2.log")
        self.feed(1, "TAP version 13\n1..1\n# X server Xvfb :3 ready after 50 ms (no TCP)\n"
                     "not ok 1 - g/c2 [ewmh-1.5]\n  ---\n  verdict: FAIL\n  log: \"%s\"\n  ...\n"
                     "# framesync: 0 passed, 1 failed, 0 skipped, 0 unresolved\n0 passed, 1 failed, 0 skipped\n" % w1log)
        self.assertEqual(self.stdout.getvalue(), "")  # no plan before every worker has one
        self.feed(0, "TAP version 13\n1..2\n# X server Xvfb :1 ready after 41 ms (no TCP)\nok 1 - g/c1 [ewmh-1.5]\n")
        self.feed(0, "# restarting the compositor (it had ended)\n"
                     "ok 2 - g/c3 [ewmh-1.5] # SKIP the compositor does not composite\n")
        self.assertEqual(self.stdout.getvalue(),
                         "TAP version 13\n1..3\n# X server Xvfb :1 ready after 41 ms (no TCP)\n"
                         "ok 1 - g/c1 [ewmh-1.5]\n"
                         "not ok 2 - g/c2 [ewmh-1.5]\n  ---\n  verdict: FAIL\n  log: \"%s\"\n  ...\n"
                         "# restarting the compositor (it had ended)\n"
                         "ok 3 - g/c3 [ewmh-1.5] # SKIP the compositor does not composite\n"
                         % os.path.join(self.out, "logs", "ewmh-1.5", "g-c2.log"))
        self.assertEqual(self.r.counts, {Verdict.PASS: 1, Verdict.FAIL: 1, Verdict.SKIP: 1, Verdict.UNRESOLVED: 0})
        self.assertEqual(self.console.warned, set())

    def test_unresolved_without_a_following_line(self):
        self.feed(0, "1..2\nok 1 - g/c1 [ewmh-1.5]\n")
        self.feed(1, "1..1\nnot ok 1 - g/c2 [ewmh-1.5] # UNRESOLVED: fake client A died\n  ---\n  verdict: UNRESOLVED\n")
        with contextlib.redirect_stdout(self.stdout):
            self.r.on_eof(1)
        self.assertIn("not ok 2 - g/c2 [ewmh-1.5] # UNRESOLVED: fake client A died\n  ---\n  verdict: UNRESOLVED\n",
                      self.stdout.getvalue())
        self.assertEqual(self.r.counts[Verdict.UNRESOLVED], 1)

    def test_a_workers_run_verdict_is_not_the_runs(self):
        # worker 1's share was all skipped; the whole run is judged by the runner (runverdict)
        self.feed(0, "1..2\nok 1 - g/c1 [ewmh-1.5]\nok 2 - g/c3 [ewmh-1.5]\n")
        self.feed(1, "1..1\nok 1 - g/c2 [ewmh-1.5] # SKIP no\n# run: UNRESOLVED: nothing was tested: every one of "
                     "the 1 cases was skipped\n# findings: none (no clause broken)\n"
                     "# framesync: 0 passed, 0 failed, 1 skipped, 0 unresolved\n")
        self.assertNotIn("# run:", self.stdout.getvalue())
        self.assertEqual([w.pending for w in self.r.workers], [[], []])

    def test_a_mismatch_with_the_canonical_order_is_reported(self):
        with contextlib.redirect_stderr(io.StringIO()) as err:
            self.feed(0, "1..2\nok 1 - g/c2 [ewmh-1.5]\n")
        self.assertIn("the canonical order has g/c1 [ewmh-1.5] there", err.getvalue())


class Options(unittest.TestCase):
    def test_passthrough(self):
        o = runner.parse_args(["--jobs", "3", "--wm", "openbox --x", "--profile=de-facto", "--out", "/tmp/x",
                               "--filter", "basic/", "--timeout-scale", "2", "--cases", "c", "--bogus"])
        self.assertEqual((o.jobs, o.out, o.profiles, o.cases), (3, "/tmp/x", ["de-facto"], "c"))
        self.assertEqual(o.passthrough, ["--wm", "openbox --x", "--profile=de-facto", "--filter", "basic/",
                                         "--timeout-scale", "2", "--cases", "c", "--bogus"])

    def test_gate_options(self):
        o = runner.parse_args(["--baseline", "b.txt", "--reruns=3", "--update-baseline", "u.txt", "--allow-empty"])
        self.assertEqual((o.baseline, o.update_baseline, o.reruns, o.allow_empty), ("b.txt", "u.txt", 3, True))
        self.assertEqual(o.passthrough, ["--allow-empty"])

    def test_shard(self):
        self.assertEqual(runner.parse_args(["--shard", "2/3"]).shard, (2, 3))
        self.assertEqual(runner.parse_args(["--shard", "3/3"]).shard, (3, 3))   # the last of 3, as CI_NODE_INDEX
        expected = [("c%d" % i, "ewmh-1.5") for i in range(7)]
        part, selection = runner.shard_of(expected, (2, 3))
        self.assertEqual(part, [expected[1], expected[4]])
        self.assertEqual((selection["cases"], selection["shard"]), (7, "2/3"))

    def test_usage_errors(self):
        for args in (["--jobs", "0"], ["--jobs", "x"], ["--jobs"], ["--shard", "3/2"], ["--shard", "0/2"], ["--shard", "x"], ["--wm"],
                     ["--fail-on", "sometimes"], ["--reruns", "-1"]):
            with self.subTest(args=args), contextlib.redirect_stderr(io.StringIO()) as err:
                with self.assertRaises(SystemExit) as e:
                    runner.parse_args(args)
                self.assertEqual(e.exception.code, 2)
                self.assertEqual(len(err.getvalue().splitlines()), 1, err.getvalue())


class Commands(unittest.TestCase):
    """python3 -m runner: the old options of run-tests.sh name the commands."""

    def test_aliases(self):
        self.assertEqual(command_line(["--wm", "x"]), ["run", "--wm", "x"])
        self.assertEqual(command_line(["--matrix", "--clients", "--only", "xterm"]),
                         ["matrix", "--clients", "--only", "xterm"])
        self.assertEqual(command_line(["--bench", "--bench-time", "5"]), ["bench", "--bench-time", "5"])
        self.assertEqual(command_line(["--spec", "f.xml", "--check"]), ["spec", "--spec", "f.xml", "--check"])
        self.assertEqual(command_line(["merge", "a", "b"]), ["merge", "a", "b"])


def have_x():
    return all(os.access(p, os.X_OK) for p in (HARNESS, FAKE_WM)) and shutil.which("Xvfb")


def normalized_tap(text, out):
    """The TAP without comments and measured quantities: the output that must not depend on --jobs."""
    lines, skip_indented = [], False
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        if skip_indented and line.startswith("    "):
            continue
        skip_indented = False
        key = line.strip().split(":", 1)[0]
        if line.startswith("  ") and key in ("observed", "duration_ms", "timeline"):
            skip_indented = key == "timeline"
            continue
        # the record numbers in an order diagnostic depend on how events interleave
        lines.append(re.sub(r"record #\d+", "record #N", line.replace(out, "OUT")))
    return lines


def running_with(marker):
    """pids of processes whose command line mentions marker (the test's own output folder)."""
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                if marker.encode() in f.read():
                    pids.append(int(pid))
        except OSError:
            pass
    return pids


@unittest.skipUnless(have_x(), "needs the built harness and fake-wm (make) and Xvfb")
class Runs(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="framesync-test-runner-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_suite(self, name, *args):
        out = os.path.join(self.tmp, name)
        start = time.monotonic()
        p = subprocess.run(RUNNER + ["--out", out] + list(args), cwd=ROOT, capture_output=True, text=True,
                           timeout=180)
        return p, out, time.monotonic() - start

    def verdicts(self, out):
        doc = RunResults.load(os.path.join(out, "results.json")).to_json()
        return doc, [(c["id"], c["profile"], c["verdict"]) for c in doc["cases"]]

    def compare(self, *args):
        p1, out1, t1 = self.run_suite("j1", "--jobs", "1", *args)
        p2, out2, t2 = self.run_suite("j2", "--jobs", "2", *args)
        self.assertIn(p1.returncode, (0, 1), p1.stderr)
        self.assertEqual(p1.returncode, p2.returncode, p2.stderr)
        self.assertEqual(normalized_tap(p1.stdout, out1), normalized_tap(p2.stdout, out2))
        doc1, v1 = self.verdicts(out1)
        doc2, v2 = self.verdicts(out2)
        self.assertEqual(v1, v2)
        self.assertEqual(doc2["status"], "complete")
        self.assertEqual(len(doc2["compositors"]), len({c["profile"] for c in doc2["compositors"]}))
        for out, p in ((out1, p1), (out2, p2)):
            last = p.stdout.splitlines()[-1]
            self.assertRegex(last, r"^\d+ passed, \d+ failed, \d+ skipped$")
            self.assertRegex(p.stdout, r"(?m)^# timing: wall [\d.]+ s, sum of case durations [\d.]+ s, speed-up")
            with open(os.path.join(out, "results.tap")) as f:
                self.assertEqual(f.read() + last + "\n", p.stdout)
            for f in ("junit.xml", "index.html"):
                self.assertTrue(os.path.exists(os.path.join(out, f)), f)
            doc, _ = self.verdicts(out)
            for c in doc["cases"]:
                self.assertTrue(c["log"].startswith(os.path.join(out, "logs") + "/"), c["log"])
                self.assertTrue(os.path.exists(c["log"]), c["log"])
        return p1, p2

    def test_jobs_2_same_as_jobs_1_passing(self):
        p1, p2 = self.compare("--filter", STABLE)
        self.assertEqual(p1.returncode, 0, p1.stdout[-2000:])
        plan = re.search(r"(?m)^1\.\.(\d+)$", p2.stdout)
        self.assertGreater(int(plan.group(1)), 20)

    def test_jobs_2_same_as_jobs_1_failing(self):
        wm = "'%s' --profile {profile} --inject value-zero" % FAKE_WM
        p1, p2 = self.compare("--wm", wm, "--profile", "ewmh-1.5", "--filter", "^basic/")
        self.assertEqual(p1.returncode, 1)
        self.assertIn("not ok", p2.stdout)
        self.assertRegex(p2.stdout, r'(?m)^  log: ".*/j2/logs/ewmh-1.5/basic-value-nonzero.log"$')

    def test_levels_and_run_verdict_in_every_output(self):
        # a lowercase should broken (fake-wm's odd-value fault): a finding, yet not one --fail-on must counts
        wm = "'%s' --profile {profile} --inject odd-value" % FAKE_WM
        p, out, _ = self.run_suite("should", "--jobs", "1", "--wm", wm, "--profile", "draft-2011",
                                   "--filter", "^extended/even-value$", "--fail-on", "must")
        self.assertEqual(p.returncode, 0, p.stdout[-3000:] + p.stderr)
        self.assertIn("#   draft-2011/extended/even-value (should: lowercase, not RFC 2119 normative as written): "
                      "extended/even-value [draft-2011]\n", p.stdout)
        doc, _ = self.verdicts(out)
        self.assertEqual([(f["clause"], f["level"]) for f in doc["findings"]], [("draft-2011/extended/even-value", "should")])
        self.assertEqual(doc["run"], {"verdict": "complete", "reason": "", "exit_status": 0})
        with open(os.path.join(out, "junit.xml")) as f:
            self.assertRegex(f.read(), r'<failure message="\[lowercase should\] [^"]*" type="should">')
        with open(os.path.join(out, "index.html")) as f:
            self.assertIn('<span class="level lv-should-lc"', f.read())
        # a run that tested nothing: fake-wm in ewmh-1.5 does not list _NET_WM_SYNC_DRAWN, the case skips
        wm = "'%s' --profile ewmh-1.5" % FAKE_WM
        p, out, _ = self.run_suite("empty", "--jobs", "1", "--wm", wm, "--profile", "draft-2011",
                                   "--filter", "^drawn/after-update-draft$")
        self.assertEqual(p.returncode, 1, p.stdout[-3000:] + p.stderr)
        self.assertEqual(len(re.findall(r"(?m)^# run: UNRESOLVED: nothing was tested", p.stdout)), 1, p.stdout)
        doc, _ = self.verdicts(out)
        self.assertEqual((doc["run"]["verdict"], doc["run"]["exit_status"]), ("UNRESOLVED", 1))
        with open(os.path.join(out, "index.html")) as f:
            self.assertIn("<b>Run UNRESOLVED</b>: nothing was tested", f.read())

    def interrupt(self, sig):
        out = os.path.join(self.tmp, "int%d" % sig)
        p = subprocess.Popen(RUNNER + ["--jobs", "2", "--out", out, "--filter", STABLE], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        lines = []
        try:
            for line in p.stdout:  # a result is out: the workers are in the middle of the run
                lines.append(line)
                if line.startswith("ok "):
                    break
            p.send_signal(sig)
            rest, err = p.communicate(timeout=60)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
        tap = "".join(lines) + rest
        self.assertEqual(p.returncode, 128 + sig, err)
        self.assertEqual(tap.splitlines()[-1], "Bail out! interrupted by %s" % signal.strsignal(sig))
        doc = RunResults.load(os.path.join(out, "results.json")).to_json()
        self.assertTrue(doc["status"].startswith("interrupted"), doc["status"])
        self.assertEqual((doc["run"]["verdict"], doc["run"]["exit_status"]), ("interrupted", 128 + sig))
        self.assertGreaterEqual(len(doc["cases"]), 1)
        with open(os.path.join(out, "results.tap")) as f:
            self.assertEqual(f.read().splitlines()[-1], "Bail out! interrupted by %s" % signal.strsignal(sig))
        self.assertTrue(os.path.exists(os.path.join(out, "junit.xml")))
        self.assertEqual(running_with(out), [], "workers left running")

    def test_sigint(self):
        self.interrupt(signal.SIGINT)

    def test_sigterm(self):
        self.interrupt(signal.SIGTERM)

    def test_usage_error_once(self):
        p, out, _ = self.run_suite("bad", "--jobs", "2", "--ready", "nonsense")
        self.assertEqual(p.returncode, 2)
        self.assertEqual(p.stdout, "")
        self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)

    def test_compositor_that_does_not_start(self):
        p, out, _ = self.run_suite("nowm", "--jobs", "2", "--wm", "/nonexistent/wm", "--filter", "^basic/",
                                   "--wm-timeout", "3000")
        self.assertEqual(p.returncode, 2)
        self.assertEqual(p.stderr.count("exited before it was ready"), 1, p.stderr)  # one worker's stderr
        self.assertRegex(p.stdout.splitlines()[-1], r"^Bail out! ")
        self.assertEqual(running_with(out), [])


if __name__ == "__main__":
    unittest.main()
