"""Tests of the release gate (runner/gate.py) and of the submissions it reads (runner/submission.py).

The stored pair (tests/fixtures/gate/): results.json of fake-wm and of fake-wm --inject no-hold,
three cases in draft-2011 (delimited/hold-while-odd, basic/value-nonzero, basic/request-layout),
made with:
    ./run-tests.sh --wm "$PWD/fake-wm/fake-wm --profile {profile}" --profile draft-2011 --jobs 1 \\
        --filter '^(delimited/hold-while-odd|basic/value-nonzero|basic/request-layout)$' --out ref
    (the same with --inject no-hold, --out no-hold)
The last test makes the pair anew against the built fake-wm on Xvfb (about 10 s)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from runner import submission  # noqa: E402

RUNNER = [sys.executable, "-m", "runner"]
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "gate")
REF, NO_HOLD = os.path.join(FIXTURES, "ref"), os.path.join(FIXTURES, "no-hold")
FAKE_WM = os.path.join(ROOT, "fake-wm", "fake-wm")
FILTER = "^(delimited/hold-while-odd|basic/value-nonzero|basic/request-layout)$"


def runner(*args):
    return subprocess.run(RUNNER + list(args), cwd=ROOT, capture_output=True, text=True, timeout=120)


class GateTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="framesync-gate-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def submit(self, src, name, *labels):
        out = os.path.join(self.tmp, name + ".json")
        p = runner("submit", src, "--out", out, *sum((["--label", x] for x in labels), []))
        self.assertEqual(p.returncode, 0, p.stderr)
        return out

    def test_same_run_passes(self):
        p = runner("gate", REF, REF)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("regressions (passed in OLD, FAIL in NEW): 0", p.stdout)

    def test_fault_is_a_regression_named(self):
        p = runner("gate", REF, NO_HOLD)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("delimited/hold-while-odd [draft-2011]  clause draft-2011/delimited/hold-while-odd  PASS -> FAIL",
                      p.stdout)
        self.assertIn("log: ", p.stdout)   # NEW's diagnostic

    def test_the_other_way_is_a_fix(self):
        p = runner("gate", NO_HOLD, REF)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn("fixes (failed or unresolved in OLD, PASS in NEW): 1", p.stdout)

    def test_submissions_gate_alike(self):
        old = self.submit(REF, "ref", "version=1")
        new = self.submit(NO_HOLD, "no-hold", "version=2")
        p = runner("gate", old, new)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("fake-wm 2 (%s)" % new, p.stdout)
        self.assertEqual(runner("gate", old, old).returncode, 0)

    def test_bad_input_exit_2_names_file(self):
        bad = os.path.join(self.tmp, "bad.json")
        with open(bad, "w") as f:
            f.write("{not json")
        for args in ((bad, REF), (REF, os.path.join(self.tmp, "missing"))):
            p = runner("gate", *args)
            self.assertEqual(p.returncode, 2, p.stdout)
            self.assertIn(args[0] if args[0] == bad else args[1], p.stderr)
            self.assertIn("expected", p.stderr)

    def test_submission_keeps_unknown_clauses_and_names_them(self):
        with open(os.path.join(REF, "results.json")) as f:
            doc = json.load(f)
        doc.pop("ran", None)     # a results.json older than "ran" still loads
        doc["cases"][0]["clauses"] = ["draft-2099/new/clause"]
        folder = os.path.join(self.tmp, "old")
        os.makedirs(folder)
        with open(os.path.join(folder, "results.json"), "w") as f:
            json.dump(doc, f)
        out = os.path.join(self.tmp, "s.json")
        p = runner("submit", folder, "--out", out, "--label", "name=otherwm", "--label", "version=3.1")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("draft-2099/new/clause", p.stdout)
        sub = submission.load(out)
        self.assertEqual((sub.name, sub.version), ("otherwm", "3.1"))
        self.assertEqual(sub.cases[0]["clauses"], ["draft-2099/new/clause"])   # taken in as it is
        self.assertTrue(any("draft-2099/new/clause" in line for line in sub.check(
            submission.catalog_record(os.path.join(ROOT, "cases", "clauses.txt")))))

    def test_bad_submission_named(self):
        path = os.path.join(self.tmp, "x.json")
        with open(path, "w") as f:
            json.dump({"format": submission.FORMAT, "implementation": {}}, f)
        with self.assertRaisesRegex(submission.SubmissionError, "x.json: \"results\" is missing"):
            submission.load(path)

    @unittest.skipUnless(os.access(FAKE_WM, os.X_OK) and shutil.which("Xvfb"), "needs the built fake-wm and Xvfb")
    def test_live_pair(self):
        outs = {}
        for name, extra in (("ref", ""), ("fault", " --inject no-hold")):
            outs[name] = os.path.join(self.tmp, name)
            p = subprocess.run(["./run-tests.sh", "--wm", FAKE_WM + " --profile {profile}" + extra, "--filter", FILTER,
                                "--profile", "draft-2011", "--jobs", "1", "--out", outs[name]],
                               cwd=ROOT, capture_output=True, text=True, timeout=120)
            self.assertIn(p.returncode, (0, 1), p.stderr)
        self.assertEqual(runner("gate", outs["ref"], outs["ref"]).returncode, 0)
        p = runner("gate", outs["ref"], outs["fault"])
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("delimited/hold-while-odd [draft-2011]", p.stdout)


if __name__ == "__main__":
    unittest.main()
