"""Tests of the matrices' reports without X: runner/matrix.py's matrix.md and matrix.html and
runner/client_matrix.py's client-matrix.md show each finding with its level and each run's verdict
(UNRESOLVED when it tested nothing), from made-up runs."""
import argparse
import os
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from runner import baseline as bl, client_matrix, matrix, matrix_runs  # noqa: E402
from runner.results import RunResults  # noqa: E402

NOTHING_TESTED = "nothing was tested: every one of the 2 cases was skipped"


def made_up_run(name, cases, run):
    doc = {"format": "framesync-results-1", "status": "complete", "compositors": [], "features": [],
           "cases": cases, "run": run}
    return {"name": name, "doc": doc, "results": bl.statuses_of(doc), "wall": 3.0, "gate": "matches baseline"}


def case(cid, verdict, clause, profile="ewmh-1.5", **extra):
    return dict({"id": cid, "profile": profile, "clauses": [clause], "verdict": verdict,
                 "reason": "the reason of " + cid}, **extra)


class Matrix(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.runs = [
            made_up_run("mywm", [
                case("basic/value-nonzero", "FAIL", "ewmh-1.5/basic/value-nonzero"),   # no level: the catalog's
                case("extended/even-value", "FAIL", "draft-2011/extended/even-value", profile="draft-2011",
                     failed_clause="draft-2011/extended/even-value", level="should"),
                case("probe/hold-map", "FAIL", "", failed_clause="compositor/crash", level="defect", clauses=[]),
                case("basic/request-layout", "PASS", "ewmh-1.5/basic/request-message")],
                {"verdict": "complete", "reason": "", "exit_status": 1}),
            made_up_run("mycm", [case("basic/value-nonzero", "SKIP", "ewmh-1.5/basic/value-nonzero"),
                                 case("basic/request-layout", "SKIP", "ewmh-1.5/basic/request-message")],
                        {"verdict": "UNRESOLVED", "reason": NOTHING_TESTED, "exit_status": 1})]
        self.args = argparse.Namespace(jobs=2, reruns=0)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def read(self, name):
        with open(os.path.join(self.dir, name), encoding="utf-8") as f:
            return f.read()

    def test_reuse_adds_the_earlier_walls(self):
        """--reuse: an earlier run's wall time is its results.json's, its re-runs' included."""
        for sub, wall_ms in ((".", 2500.0), ("rerun-1", 1000.0)):
            os.makedirs(os.path.join(self.dir, sub), exist_ok=True)
            RunResults(started="", status="complete", wall_ms=wall_ms).write(os.path.join(self.dir, sub, "results.json"))
        self.assertAlmostEqual(matrix_runs.earlier_wall(self.dir), 3.5)

    def test_markdown(self):
        matrix.write_md(os.path.join(self.dir, "matrix.md"), self.runs, [], 10.0, self.args)
        md = self.read("matrix.md")
        self.assertIn("- **mywm**: `ewmh-1.5/basic/value-nonzero` [MUST] (basic/value-nonzero [ewmh-1.5]); "
                      "`draft-2011/extended/even-value` [lowercase should] (extended/even-value [draft-2011]); "
                      "`compositor/crash` [defect] (probe/hold-map [ewmh-1.5])", md)
        self.assertIn("| probe/hold-map [ewmh-1.5] | compositor/crash | FAIL |  |", md)
        self.assertIn("- **mycm**: none", md)
        self.assertIn("| wall s | run | baseline |", md)
        self.assertRegex(md, r"\| mycm \|.*\| UNRESOLVED \| matches baseline \|")
        self.assertIn("- **mycm**: UNRESOLVED: " + NOTHING_TESTED, md)
        self.assertIn("- `extended/even-value [draft-2011]` Fail [lowercase should]: the reason of extended/even-value", md)
        self.assertIn("- `probe/hold-map [ewmh-1.5]` Fail [defect]:", md)

    def test_html(self):
        matrix.write_html(os.path.join(self.dir, "matrix.html"), self.runs, [], 10.0, self.args)
        page = self.read("matrix.html")
        self.assertIn('<span class="level" title="MUST">MUST</span>', page)
        self.assertIn('<span class="level lc" title="should: lowercase, not RFC 2119 normative as written">'
                      'lowercase should</span>', page)
        self.assertIn('<td class="UNRESOLVED-run" title="%s">UNRESOLVED' % NOTHING_TESTED, page)
        self.assertIn("<li><b>mycm</b>: UNRESOLVED: " + NOTHING_TESTED, page)

    def test_client_markdown(self):
        runs = [made_up_run("myapp", [
                    case("client/sets-counter", "FAIL", "ewmh-1.5/basic/client-sets-counter"),   # MUST, binds client
                    case("client/drawn-wait-draft", "FAIL", "draft-2011/delimited/client-wait-drawn", profile="draft-2011",
                         failed_clause="draft-2011/delimited/client-wait-drawn", level="should")],
                    {"verdict": "complete", "reason": "", "exit_status": 1}),
                made_up_run("myterm", [case("client/sets-counter", "SKIP", "ewmh-1.5/basic/client-sets-counter")],
                            {"verdict": "UNRESOLVED", "reason": NOTHING_TESTED, "exit_status": 1})]
        client_matrix.write_md(os.path.join(self.dir, "client-matrix.md"), runs, [])
        md = self.read("client-matrix.md")
        self.assertIn("  - `ewmh-1.5/basic/client-sets-counter` (MUST): client/sets-counter [ewmh-1.5]", md)
        self.assertIn("  - `draft-2011/delimited/client-wait-drawn` (should: lowercase, not RFC 2119 normative as "
                      "written): client/drawn-wait-draft [draft-2011]", md)
        self.assertRegex(md, r"\| myterm \| 3 s \| 1 Skip \| UNRESOLVED \| matches baseline \|")
        self.assertIn("- **myterm**: UNRESOLVED: " + NOTHING_TESTED, md)
        # one MUST and one lowercase should are not "2 Fail" alike (issue 23)
        self.assertIn("| 2 Fail (1 MUST, 1 lowercase should) |", md)

    def test_client_policies_and_figures(self):
        """runs under two compositor policies: rows grouped per policy, the figures per policy (issue 31)"""
        runs = []
        for policy, show in (("reference", None), ("show-after-first-answer", 16)):
            extra = {"figures": {"first_show_ms": show}} if show else {}
            runs.append(made_up_run("myapp", [
                case("client/policy/first-show", "PASS" if show else "SKIP", "ewmh-1.5/basic/client-sets-counter",
                     profile="de-facto", **extra),
                case("client/policy/drawn-missed-stall", "PASS", "draft-2011/delimited/client-wait-drawn",
                     profile="de-facto", figures={"stall_ms": "frozen"})],
                {"verdict": "complete", "reason": "", "exit_status": 0}))
            runs[-1]["policy"] = policy
        client_matrix.write_html(os.path.join(self.dir, "client-matrix.html"), runs, [])
        client_matrix.write_md(os.path.join(self.dir, "client-matrix.md"), runs, [])
        page, md = self.read("client-matrix.html"), self.read("client-matrix.md")
        self.assertLess(page.index("policy <b>reference</b>"), page.index("policy <b>show-after-first-answer</b>"))
        self.assertIn("<tr><td>show-after-first-answer<td>myapp<td>client/policy/first-show<td><code>first_show_ms"
                      "</code><td><td><td>16 ms</tr>", page)
        self.assertIn("| reference | myapp | client/policy/drawn-missed-stall | stall_ms |  |  | frozen |", md)

    def test_client_html_states(self):
        """the answer cases are one column group with their two states; each Fail shows its level"""
        runs = [made_up_run("myapp", [
                    case("client/answer-same-size/animating", "PASS", "ewmh-1.5/basic/client-sets-counter"),
                    case("client/answer-same-size/idle", "FAIL", "ewmh-1.5/basic/client-sets-counter"),
                    case("client/participation", "PASS", "ewmh-1.5/basic/client-participation")],
                    {"verdict": "complete", "reason": "", "exit_status": 1})]
        client_matrix.write_html(os.path.join(self.dir, "client-matrix.html"), runs, [])
        page = self.read("client-matrix.html")
        self.assertIn("<th colspan=2>answer-same-size", page)
        self.assertIn("<th>animating<th>idle", page)
        self.assertIn(">Fail [MUST]", page)
        self.assertRegex(page, r"<tr><td>myapp<td>ewmh-1.5<td class=\"ok\"[^>]*>Pass<td class=\"FAIL\"")


if __name__ == "__main__":
    unittest.main()
