"""Tests of runner/dashboard.py and runner/interop_table.py on the stored fake-wm pair
(tests/fixtures/gate/: fake-wm, and fake-wm --inject no-hold, three draft-2011 cases), submitted as
two versions of one implementation and as two implementations: every link of the page resolves
inside its folder, the history marks the new failure, and the scores count code bases."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from runner import catalog, interop_table  # noqa: E402
from runner.spec.interop import Interop  # noqa: E402

RUNNER = [sys.executable, "-m", "runner"]
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "gate")


def runner(*args):
    return subprocess.run(RUNNER + list(args), cwd=ROOT, capture_output=True, text=True, timeout=120)


class DashboardTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="framesync-dash-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def submit(self, fixture, *labels):
        out = os.path.join(self.tmp, "%s-%d.json" % (fixture, len(os.listdir(self.tmp))))
        p = runner("submit", os.path.join(FIXTURES, fixture), "--out", out, *sum((["--label", x] for x in labels), []))
        self.assertEqual(p.returncode, 0, p.stderr)
        return out

    def dashboard(self, *subs):
        out = os.path.join(self.tmp, "dash")
        p = runner("dashboard", *subs, "--out", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(out, "index.html"), encoding="utf-8") as f:
            return out, f.read(), p.stdout

    def test_two_versions_history_and_links(self):
        old = self.submit("ref", "name=somewm", "version=1.0")
        new = self.submit("no-hold", "name=somewm", "version=1.10")
        out, page, said = self.dashboard(new, old)    # columns in version order whatever the order given
        self.assertLess(page.index("1.0</span>"), page.index("1.10</span>"))
        self.assertIn("new fail", page)
        self.assertRegex(page, r"new failures</b> \(1\): delimited/hold-while-odd \[draft-2011\]")
        links = re.findall(r'href="([^"#]+)', page)
        self.assertTrue(links)
        for link in links:
            self.assertTrue(os.path.isfile(os.path.join(out, link)), link)
        self.assertIn("2 submission(s), 1 implementation(s)", said)

    def test_ready_needs_two_code_bases(self):
        a = self.submit("ref", "name=mutter", "version=43")
        b = self.submit("ref", "name=muffin", "version=5")
        _, page, _ = self.dashboard(a, b)
        self.assertNotIn('<span class="ready">ready</span></td><td>2</td>', page)   # one code base: mutter
        c = self.submit("ref", "name=kwin_x11", "version=5.27")
        _, page, _ = self.dashboard(a, b, c)
        self.assertIn("ewmh-1.5/basic/value-nonzero</code> <span class=\"ready\">ready</span></td><td>2</td>", page)

    def test_bad_submission_exit_2(self):
        bad = os.path.join(self.tmp, "bad.json")
        with open(bad, "w") as f:
            f.write("[]")
        p = runner("dashboard", bad, "--out", os.path.join(self.tmp, "d"))
        self.assertEqual(p.returncode, 2)
        self.assertIn("bad.json: not a framesync submission", p.stderr)


class VaryingCaseTest(unittest.TestCase):
    """A case with `vary:` lines checks one clause per profile: its de-facto result counts for the
    de-facto clause only (the draft's _NET_WM_SYNC_DRAWN row had been credited with mutter's
    de-facto pass of drawn/advertised-is-sent, and listed as ready to propose)."""

    def test_checks_in_the_profiles_form(self):
        ref = catalog.parse_cases(os.path.join(ROOT, "cases"))["drawn/advertised-is-sent"]
        self.assertEqual(ref.checks_of("de-facto"), ["de-facto/frame-drawn/advertised"])
        self.assertEqual(ref.checks_of("draft-2011"), ["draft-2011/drawn/advertised"])
        self.assertEqual(sorted(ref.checks), ["de-facto/frame-drawn/advertised", "draft-2011/drawn/advertised"])
        inter = Interop()
        inter.case_refs = {ref.id: ref}
        passed = {"id": ref.id, "profile": "de-facto", "verdict": "PASS", "clauses": ["de-facto/frame-drawn/advertised"]}
        self.assertEqual(inter.clauses_of_case(passed), ["de-facto/frame-drawn/advertised"])


class CodeBaseTest(unittest.TestCase):
    def test_independent(self):
        cb = interop_table.codebase_of
        self.assertEqual({cb("mutter"), cb("muffin"), cb("mutter-wayland")}, {"mutter"})
        self.assertEqual(cb("kwin_wayland"), cb("kwin_x11"))
        self.assertEqual(cb("picom+openbox"), "openbox+picom")
        # a combination counts only where neither part passes alone; fake-wm never
        self.assertEqual(interop_table.independent({"openbox", "openbox+picom", "fake-wm"}), ["openbox"])
        self.assertEqual(interop_table.independent({"mutter", "openbox+picom"}), ["mutter", "openbox+picom"])


if __name__ == "__main__":
    unittest.main()
