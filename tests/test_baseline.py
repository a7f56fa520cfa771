"""Tests of runner/baseline.py without X: the [level LEVEL] tag of Fail lines (written by
--update-baseline, optional when read), the level of new failures in the comparison, and the gate
that never passes a run that tested nothing unless --allow-empty."""
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from runner import baseline as bl  # noqa: E402
from runner import run as runmod  # noqa: E402

NOTHING_TESTED = "nothing was tested: every one of the 2 cases was skipped"


def case(cid, verdict, profile="ewmh-1.5", **extra):
    return dict({"id": cid, "profile": profile, "clauses": ["ewmh-1.5/basic/value-nonzero"], "verdict": verdict,
                 "reason": "req.value = 0" if verdict == "FAIL" else ""}, **extra)


def results_doc(cases, run=None):
    doc = {"format": "framesync-results-1", "status": "complete", "compositors": [], "cases": cases}
    if run:
        doc["run"] = run
    return doc


class Tmp(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def results(self, cases, run=None):
        return self.write("results.json", json.dumps(results_doc(cases, run)))


class LevelTag(Tmp):
    def test_update_writes_the_level_of_each_fail_line(self):
        path = self.write("b.txt", "# header\n"
                          "basic/a [ewmh-1.5],Fail  # the old words [level MUST] [seen 00000000]\n"
                          "basic/s [ewmh-1.5],Skip  # does not list it\n")
        results = bl.statuses_of(results_doc([
            case("basic/a", "FAIL", failed_clause="draft-2011/extended/even-value", level="should"),
            case("basic/b", "FAIL"),          # no level in the results: the catalog's MUST NOT
            case("probe/hold-map", "FAIL", clauses=[], failed_clause="compositor/crash", level="defect"),
            case("basic/s", "SKIP", reason="does not list it"),
            case("basic/p", "PASS")]))
        entries, header = bl.parse_baseline(path)
        bl.write_baseline(path, results, entries, header)
        with open(path) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[0], "# header")
        self.assertRegex(lines[1], r"^basic/a \[ewmh-1\.5\],Fail  # the old words \[level should\] \[seen 00000000\]$")
        self.assertRegex(lines[2], r"^basic/b \[ewmh-1\.5\],Fail  # req\.value = 0 \[level MUST\] \[seen [0-9a-f]{8}\]$")
        self.assertRegex(lines[3], r"^basic/s \[ewmh-1\.5\],Skip  # does not list it \[seen [0-9a-f]{8}\]$")
        self.assertRegex(lines[4], r"^probe/hold-map \[ewmh-1\.5\],Fail  # .* \[level defect\] \[seen [0-9a-f]{8}\]$")
        entries, _ = bl.parse_baseline(path)   # and it reads back
        self.assertEqual(bl.comment_parts(entries["basic/a [ewmh-1.5]"][1]), ("the old words", "should", "00000000"))
        self.assertEqual(entries["basic/s [ewmh-1.5]"][0], "Skip")

    def test_lines_without_the_tag_still_parse(self):
        path = self.write("old.txt", "basic/a [ewmh-1.5],Fail  # words [seen 1234abcd]\nbasic/b,Skip  # why\n"
                                     "basic/c [de-facto],Fail\n")
        entries, _ = bl.parse_baseline(path)
        self.assertEqual(entries["basic/a [ewmh-1.5]"], ("Fail", "words [seen 1234abcd]"))
        self.assertEqual(bl.comment_parts(entries["basic/a [ewmh-1.5]"][1]), ("words", None, "1234abcd"))
        self.assertEqual(bl.comment_parts(entries["basic/b"][1]), ("why", None, None))
        self.assertEqual(entries["basic/c [de-facto]"], ("Fail", ""))

    def test_new_failures_say_their_level(self):
        results = bl.statuses_of(results_doc([case("basic/a", "FAIL", failed_clause="x/y/z", level="should")]))
        text = bl.format_report(bl.compare(results, {}))
        self.assertIn("  basic/a [ewmh-1.5]: Fail [lowercase should], baseline Pass  (req.value = 0)", text)


class Gate(Tmp):
    """runner.run.gate: the runner's --baseline and --update-baseline after a run."""

    def finish(self, run, harness_args=(), update=False, baseline="basic/a [ewmh-1.5],Skip\nbasic/b [ewmh-1.5],Skip\n"):
        results = self.results([case("basic/a", "SKIP"), case("basic/b", "SKIP")], run)
        path = self.write("b.txt", baseline)
        opts = runmod.parse_args(list(harness_args) + ["--reruns", "0"] +
                                 ["--update-baseline" if update else "--baseline", path])
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = runmod.gate(opts, results, run.get("exit_status", 0) if run else 0)
        return rc, out.getvalue()

    def test_a_run_that_tested_nothing_matches_no_baseline(self):
        rc, text = self.finish({"verdict": "UNRESOLVED", "reason": NOTHING_TESTED, "exit_status": 1})
        self.assertEqual(rc, 1)
        self.assertIn("MATCH: 2 results", text)   # the lines match; the run does not
        self.assertIn("baseline: the run is UNRESOLVED, so it matches no baseline: " + NOTHING_TESTED, text)

    def test_allow_empty(self):
        run = {"verdict": "UNRESOLVED", "reason": NOTHING_TESTED, "exit_status": 1}
        self.assertEqual(self.finish(run, ["--wm", "x", "--allow-empty"])[0], 0)
        # given to the run, it is recorded as accepted: complete with a reason
        self.assertEqual(self.finish({"verdict": "complete", "reason": NOTHING_TESTED, "exit_status": 0})[0], 0)

    def test_update_writes_yet_does_not_pass(self):
        rc, text = self.finish({"verdict": "UNRESOLVED", "reason": NOTHING_TESTED, "exit_status": 1}, update=True,
                               baseline="")
        self.assertEqual(rc, 1)
        self.assertIn("baseline: wrote", text)
        with open(os.path.join(self.dir, "b.txt")) as f:
            self.assertEqual(len([l for l in f if l.startswith("basic/")]), 2)

    def test_complete_and_older_runs_pass(self):
        self.assertEqual(self.finish({"verdict": "complete", "reason": "", "exit_status": 0})[0], 0)
        self.assertEqual(self.finish(None)[0], 0)    # results.json older than the run verdict


if __name__ == "__main__":
    unittest.main()
