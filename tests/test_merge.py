"""Tests of runner/merge.py and the runner's --shard I/N: merged shards are the unsharded run
(same verdicts, same TAP, same JUnit and HTML report, case by case), and inconsistent inputs are
refused with the folders named.  The first tests use made-up run folders (no X); the last runs a
few cases against fake-wm (built binaries and Xvfb), once whole and once in 3 shards."""
import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from runner import merge  # noqa: E402
from runner.results import RunResults  # noqa: E402

RUNNER = [sys.executable, "-m", "runner"]   # run with cwd=ROOT
HARNESS = os.path.join(ROOT, "harness", "framesync-harness")
FAKE_WM = os.path.join(ROOT, "fake-wm", "fake-wm")
# quick cases that pass against fake-wm, in all three profiles and in two
FILTER = "^(basic/(request-layout|value-nonzero|set-at-manage)|extended/even-value)$"

CANON = [("basic/a", "ewmh-1.5"), ("basic/b", "ewmh-1.5"), ("basic/a", "draft-2011"), ("basic/b", "draft-2011"),
         ("ext/c", "draft-2011")]


def default_verdict(cid):
    return "FAIL" if cid == "basic/b" else "PASS"


def fake_run(folder, cases, command="wm --replace", name="WM", shard=None, digest="d1", total=5, started=True,
             verdict_of=default_verdict, level=None, incidents=()):
    """A run folder as the runner writes it: results.json (with the selection) and results.tap.
    level: the harness's "level" on each FAIL (None: none, as in older files); incidents: ids of
    probes during which the compositor crashed (probe/FEATURE results, before the cases)."""
    os.makedirs(os.path.join(folder, "logs"), exist_ok=True)
    found = [{"id": cid, "profile": p, "clauses": ["ewmh-1.5/basic/value-nonzero"], "verdict": verdict_of(cid),
              "reason": "x" if verdict_of(cid) != "PASS" else "", "file": "/c/%s.case:1" % cid, "log": ""}
             for cid, p in cases]
    for c in found:
        if c["verdict"] == "FAIL" and level:
            c.update(failed_clause=c["clauses"][0], level=level)
    crashes = [{"id": pid, "profile": "ewmh-1.5", "clauses": [], "verdict": "FAIL", "failed_clause": "compositor/crash",
                "level": "defect", "reason": "exited", "file": "/c/probes/x.probe:1",
                "log": os.path.join(folder, "logs", "probes", "ewmh-1.5", pid[len("probe/"):] + ".crashed.log")}
               for pid in incidents]
    for c in crashes:   # the runner copies the probes' logs into logs/probes/PROFILE/
        os.makedirs(os.path.dirname(c["log"]), exist_ok=True)
        with open(c["log"], "w") as f:
            f.write("case: %s\n" % c["id"])
    cases = [(c["id"], c["profile"]) for c in crashes] + list(cases)
    doc = {"format": "framesync-results-1", "started": "2026-01-01T00:00:00Z", "status": "complete", "wall_ms": 5.0,
           "selection": {"cases": total, "digest": digest, "shard": shard},
           "compositors": [{"profile": "ewmh-1.5", "command": command, "name": name, "supported": []}] if started else [],
           "cases": crashes + found}
    with open(os.path.join(folder, "results.json"), "w") as f:
        json.dump(doc, f)
    tap = ["TAP version 13", "1..%d" % len(cases)]
    for n, c in enumerate(doc["cases"], 1):
        tap.append("%sok %d - %s [%s]" % ("not " if c["verdict"] == "FAIL" else "", n, c["id"], c["profile"]))
        if c["verdict"] == "FAIL":
            tap += ["  ---", "  verdict: FAIL", "  ..."]
    with open(os.path.join(folder, "results.tap"), "w") as f:
        f.write("\n".join(tap) + "\n")
    return folder


class MadeUp(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.out = os.path.join(self.dir, "merged")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def shards(self, n=3, **kw):
        return [fake_run(os.path.join(self.dir, "s%d" % i), CANON[i - 1::n], shard="%d/%d" % (i, n), **kw)
                for i in range(1, n + 1)]

    def refused(self, folders):
        with self.assertRaises(merge.MergeError) as cm:
            merge.merge(folders, self.out, os.path.join(ROOT, "cases"))
        return str(cm.exception)

    def test_shards_back_in_canonical_order(self):
        doc, _, _ = merge.merge(list(reversed(self.shards())), self.out, os.path.join(ROOT, "cases"))
        self.assertEqual([(c["id"], c["profile"]) for c in doc["cases"]], CANON)
        with open(os.path.join(self.out, "results.tap")) as f:
            tap = f.read()
        self.assertIn("1..5\nok 1 - basic/a [ewmh-1.5]\nnot ok 2 - basic/b [ewmh-1.5]\n  ---\n  verdict: FAIL\n  ...\n", tap)
        self.assertIn("# framesync: 3 passed, 2 failed, 0 skipped, 0 unresolved", tap)
        for name in ("results.json", "junit.xml", "index.html", "interop.html"):
            self.assertTrue(os.path.exists(os.path.join(self.out, name)), name)

    def test_an_empty_shard_belongs_to_its_case_set(self):
        # 5 cases in 7 shards: shards 6 and 7 run nothing and start no compositor
        s = [fake_run(os.path.join(self.dir, "s%d" % i), CANON[i - 1::7], shard="%d/7" % i, started=i <= 5)
             for i in range(1, 8)]
        doc, _, groups = merge.merge(s, self.out, os.path.join(ROOT, "cases"))
        self.assertEqual(([(c["id"], c["profile"]) for c in doc["cases"]], len(groups)), (CANON, 1))

    def test_missing_repeated_and_mixed_shards(self):
        s = self.shards()
        self.assertIn("shard 2/3 of WM is missing (given: %s, %s)" % (s[0], s[2]), self.refused([s[0], s[2]]))
        self.assertIn("two results for shard 1/3 of WM: %s and %s" % (s[0], s[0]), self.refused([s[0], s[0], s[1], s[2]]))
        other = fake_run(os.path.join(self.dir, "other"), CANON[1::3], shard="2/3", digest="d2", total=6)
        msg = self.refused([s[0], other, s[2]])
        self.assertIn("the shards of WM were cut from different case sets", msg)
        self.assertIn("%s has 6 cases (digest d2, shard 2/3)" % other, msg)
        whole = fake_run(os.path.join(self.dir, "whole"), CANON)
        self.assertIn("two results for every case of WM: %s is a whole run" % whole, self.refused(s + [whole]))
        self.assertIn("two results for one case: basic/a [ewmh-1.5] of WM is in %s and in %s" % (whole, whole),
                      self.refused([whole, whole]))
        self.assertIn("nowhere: no results.json", self.refused([os.path.join(self.dir, "nowhere")]))

    def test_two_implementations(self):
        a = fake_run(os.path.join(self.dir, "a"), CANON, command="wm-a", name="A")
        b = fake_run(os.path.join(self.dir, "b"), CANON, command="wm-b", name="B")
        doc, _, groups = merge.merge([a, b], self.out, os.path.join(ROOT, "cases"))
        self.assertEqual(len(groups), 2)
        self.assertEqual([c["compositor"] for c in doc["cases"]], ["wm-a"] * 5 + ["wm-b"] * 5)
        with open(os.path.join(self.out, "index.html")) as f:   # each finding's links reach the cards
            page = f.read()
        findings = page[page.index('<ol class="findings">'):page.index("</ol>")]
        links = re.findall(r'href="#([^"]+)"', findings)
        self.assertEqual(len(links), 4)
        self.assertEqual([l for l in links if 'id="%s"' % l not in page], [])
        short = fake_run(os.path.join(self.dir, "c"), CANON[:4], command="wm-c", name="C", total=4, digest="d3")
        msg = self.refused([a, short])
        self.assertIn("the implementations ran different case sets: A has 5 cases, C has 4 "
                      "(ext/c [draft-2011] only in A)", msg)

    def main(self, folders, *options):
        """runner.merge's command line -> (exit status, its output, the merged results.json)."""
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = merge.main(["--out", self.out] + list(options) + folders)
        return rc, out.getvalue(), RunResults.load(os.path.join(self.out, "results.json")).to_json()

    def test_findings_levels_and_run_verdict(self):
        rc, text, doc = self.main(self.shards())   # the FAILs carry no level: the catalog's MUST NOT
        self.assertEqual(rc, 1)
        self.assertEqual([(f["clause"], f["level"]) for f in doc["findings"]], [("ewmh-1.5/basic/value-nonzero", "MUST")])
        self.assertEqual(doc["run"], {"verdict": "complete", "reason": "", "exit_status": 1})
        line = "#   ewmh-1.5/basic/value-nonzero (MUST): basic/b [ewmh-1.5, draft-2011]\n"
        self.assertIn(line, text)
        with open(os.path.join(self.out, "results.tap")) as f:
            tap = f.read()
        self.assertIn("# findings: 1 clause broken (each FAIL is filed under the clause of the check that failed)\n"
                      + line + "# framesync: 3 passed, 2 failed, 0 skipped, 0 unresolved\n", tap)
        with open(os.path.join(self.out, "index.html")) as f:
            self.assertIn('<span class="level lv-must" title="MUST">MUST</span>', f.read())
        with open(os.path.join(self.out, "junit.xml")) as f:
            self.assertIn('<failure message="[MUST] x" type="MUST">', f.read())

    def test_fail_on(self):
        shards = self.shards(level="should")
        self.assertEqual(self.main(shards)[0], 1)
        self.assertEqual(self.main(shards, "--fail-on", "should")[0], 1)
        rc, text, doc = self.main(shards, "--fail-on", "must")   # a lowercase should does not fail the run
        self.assertEqual((rc, doc["run"]["exit_status"]), (0, 0))
        self.assertIn("(should: lowercase, not RFC 2119 normative as written)", text)

    def test_a_merged_run_that_tested_nothing(self):
        # each shard alone is accepted (the runner skips the rule for a single --shard); together
        # they skipped every case
        shards = self.shards(verdict_of=lambda cid: "SKIP")
        rc, text, doc = self.main(shards)
        reason = "nothing was tested: every one of the 5 cases was skipped"
        self.assertEqual((rc, doc["run"]["verdict"], doc["run"]["exit_status"]), (1, "UNRESOLVED", 1))
        self.assertTrue(doc["run"]["reason"].startswith(reason), doc["run"])
        self.assertIn("# run: UNRESOLVED: " + reason, text)
        with open(os.path.join(self.out, "results.tap")) as f:
            self.assertIn("# run: UNRESOLVED: " + reason, f.read())
        with open(os.path.join(self.out, "index.html")) as f:
            self.assertIn('<b>Run UNRESOLVED</b>: ' + reason, f.read())
        rc, text, doc = self.main(shards, "--allow-empty")
        self.assertEqual((rc, doc["run"]["verdict"]), (0, "complete"))
        self.assertIn("# run: accepted by --allow-empty: " + reason, text)

    def test_one_implementation_that_tested_nothing_is_named(self):
        a = fake_run(os.path.join(self.dir, "a"), CANON, command="wm-a", name="A")
        b = fake_run(os.path.join(self.dir, "b"), CANON, command="wm-b", name="B", verdict_of=lambda cid: "SKIP")
        rc, _, doc = self.main([a, b])
        self.assertEqual((rc, doc["run"]["verdict"]), (1, "UNRESOLVED"))
        self.assertTrue(doc["run"]["reason"].startswith("B: nothing was tested"), doc["run"])

    def test_probe_crashes_come_first_once(self):
        # every shard probes: two saw the same crash, one another
        s = [fake_run(os.path.join(self.dir, "s%d" % i), CANON[i - 1::3], shard="%d/3" % i,
                      incidents=[["probe/hold-map"], ["probe/hold-map", "probe/fences"], []][i - 1]) for i in range(1, 4)]
        doc, _, _ = merge.merge(s, self.out, os.path.join(ROOT, "cases"))
        self.assertEqual([(c["id"], c["profile"]) for c in doc["cases"]],
                         [("probe/hold-map", "ewmh-1.5"), ("probe/fences", "ewmh-1.5")] + CANON)
        self.assertEqual([(f["clause"], f["level"], f["count"]) for f in doc["findings"]],
                         [("compositor/crash", "defect", 2), ("ewmh-1.5/basic/value-nonzero", "MUST", 2)])
        with open(os.path.join(self.out, "results.tap")) as f:
            self.assertIn("1..7\nnot ok 1 - probe/hold-map [ewmh-1.5]\n", f.read())
        crash = doc["cases"][0]   # its log came along, where a run keeps a probe's
        self.assertEqual(crash["log"], os.path.join(self.out, "logs", "probes", "ewmh-1.5", "hold-map.crashed.log"))
        self.assertTrue(os.path.exists(crash["log"]))
        # a crash is the compositor's: another implementation without it ran the same cases
        a = fake_run(os.path.join(self.dir, "a"), CANON, command="wm-a", name="A", incidents=["probe/hold-map"])
        b = fake_run(os.path.join(self.dir, "b"), CANON, command="wm-b", name="B")
        doc, _, _ = merge.merge([a, b], self.out, os.path.join(ROOT, "cases"))
        self.assertEqual(len(doc["cases"]), 11)


def have_x():
    return all(os.access(p, os.X_OK) for p in (HARNESS, FAKE_WM)) and shutil.which("Xvfb")


@unittest.skipUnless(have_x(), "needs the built harness and fake-wm, and Xvfb (make)")
class ShardsEqualWholeRun(unittest.TestCase):
    """A 3-shard run merged equals the unsharded run: same verdicts, same report."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp()
        cls.whole = os.path.join(cls.dir, "whole")
        cls.run_suite(["--jobs", "2", "--out", cls.whole])
        cls.parts = []
        for i in range(1, 4):   # --shard counts from 1
            part = os.path.join(cls.dir, "shard-%d" % i)
            cls.run_suite(["--jobs", "1", "--shard", "%d/3" % i, "--out", part])
            cls.parts.append(part)
        cls.merged = os.path.join(cls.dir, "merged")
        p = subprocess.run([sys.executable, "-m", "runner.merge", "--out", cls.merged] + cls.parts,
                           cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stderr

    @classmethod
    def run_suite(cls, args):
        p = subprocess.run(RUNNER + ["--filter", FILTER] + args, cwd=ROOT, capture_output=True, text=True,
                           timeout=300, stdin=subprocess.DEVNULL)
        assert p.returncode == 0, p.stdout + p.stderr

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def load(self, folder):
        return RunResults.load(os.path.join(folder, "results.json")).to_json()

    def test_verdicts(self):
        whole, merged = self.load(self.whole), self.load(self.merged)
        key = lambda d: [(c["id"], c["profile"], c["verdict"], c["reason"], c["clauses"]) for c in d["cases"]]
        self.assertEqual(len(whole["cases"]), 11)
        self.assertEqual(key(merged), key(whole))
        self.assertEqual(merged["selection"], whole["selection"])
        self.assertEqual([s["selection"]["shard"] for s in map(self.load, self.parts)], ["1/3", "2/3", "3/3"])
        for c in merged["cases"]:   # each log is in the merged folder
            self.assertTrue(c["log"].startswith(self.merged + "/logs/") and os.path.exists(c["log"]), c["log"])

    def test_tap(self):
        def tests(folder):
            with open(os.path.join(folder, "results.tap")) as f:
                return [l for l in f.read().splitlines() if re.match(r"^(not )?ok |^1\.\.|^# framesync:", l)]
        self.assertEqual(tests(self.merged), tests(self.whole))

    def test_junit_and_html(self):
        def junit(folder):
            root = ET.parse(os.path.join(folder, "junit.xml")).getroot()
            return [(s.get("name"), s.get("tests"), s.get("failures"), s.get("skipped"),
                     [(t.get("classname"), t.get("name"), [ch.tag for ch in t]) for t in s.findall("testcase")])
                    for s in root.findall("testsuite")]
        self.assertEqual(junit(self.merged), junit(self.whole))

        def html_rows(folder):
            with open(os.path.join(folder, "index.html")) as f:
                page = f.read()
            return re.findall(r'<tr class="(\w+)-row" data-verdict="\w+" data-profile="([^"]+)".*?<td class="nw">[^<]*</td><td>([^<]+)<',
                              page)
        self.assertEqual(len(html_rows(self.whole)), 11)
        self.assertEqual(html_rows(self.merged), html_rows(self.whole))


@unittest.skipUnless(os.access(HARNESS, os.X_OK), "needs the built harness (make)")
class Select(unittest.TestCase):
    def test_bad_select_file_names_every_bad_line(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("basic/request-layout\n# a comment\nnope/x ewmh-1.5\nfences/wait ewmh-1.5\nbasic/value-nonzero de-facto\n")
        try:
            p = subprocess.run([HARNESS, "--select", f.name, "--out", tempfile.gettempdir() + "/never-used"],
                               capture_output=True, text=True, timeout=30)
        finally:
            os.unlink(f.name)
        self.assertEqual(p.returncode, 2)
        self.assertIn("%s:1: expected `CASE-ID PROFILE`" % f.name, p.stderr)
        self.assertIn("%s:3: no case `nope/x` in the case folder" % f.name, p.stderr)
        self.assertIn("%s:4: case `fences/wait` does not belong to profile ewmh-1.5" % f.name, p.stderr)
        self.assertNotIn(":5:", p.stderr)

    def test_runner_shard_option(self):
        for bad in ("0/3", "4/3", "1/0", "x"):   # counting from 1, as CI_NODE_INDEX/CI_NODE_TOTAL
            p = subprocess.run(RUNNER + ["--shard", bad], cwd=ROOT, capture_output=True, text=True, timeout=30)
            self.assertEqual(p.returncode, 2, bad)
            self.assertIn("--shard takes I/N with 1 <= I <= N", p.stderr)
            self.assertEqual(len(p.stderr.splitlines()), 1, p.stderr)

    def test_merge_refuses_a_shard_counted_from_0(self):
        folder = fake_run(os.path.join(tempfile.mkdtemp(), "s0"), CANON[0::3], shard="0/3")
        with self.assertRaises(merge.MergeError) as e:
            merge.Run(folder)
        self.assertIn("shards count from 1", str(e.exception))


if __name__ == "__main__":
    unittest.main()
