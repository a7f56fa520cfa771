"""Tests of ./run-tests.sh --spec (python3 -m runner dispatches to runner/spec/cli.py) and of the
interop tables from results.json files.  The texts come from ../shared/spec/docbook/; the tests
that need them skip when it is absent."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from runner import catalog  # noqa: E402
from runner.spec import annotate, cli, interop  # noqa: E402

RUNNER = [sys.executable, "-m", "runner"]   # run with cwd=ROOT
TEXTS = os.path.join(os.path.dirname(ROOT), "shared", "spec", "docbook")
SPEC_15 = os.path.join(TEXTS, "wm-spec-1.5.xml")
DRAFT = os.path.join(TEXTS, "wm-spec-draft-2011.xml")
NO_TEXTS = "the spec texts are not in ../shared/spec/docbook/ (a checkout without shared/)"


def spec(*args):
    return subprocess.run(RUNNER + list(args), cwd=ROOT, capture_output=True, text=True, timeout=120)


def results_doc(command, name, cases, profiles=("ewmh-1.5", "draft-2011", "de-facto")):
    return {"format": "framesync-results-1", "started": "2026-01-01T00:00:00Z", "status": "complete", "wall_ms": 1.0,
            "compositors": [{"profile": p, "command": command.replace("{profile}", p), "name": name,
                             "supported": ["_NET_WM_SYNC_REQUEST"]} for p in profiles],
            "cases": [{"id": cid, "profile": prof, "clauses": clauses, "verdict": verdict, "reason": ""}
                      for cid, prof, clauses, verdict in cases]}


class Cli(unittest.TestCase):
    def setUp(self):
        self.out = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.out)

    @unittest.skipUnless(os.path.exists(SPEC_15) and os.path.exists(DRAFT), NO_TEXTS)
    def test_check_and_outputs(self):
        p = spec("--spec", SPEC_15, "--check", "--out", self.out)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("10 sentences: 4 with capital keywords, 0 with lowercase keywords only, 6 with none", p.stdout)
        self.assertIn("check wm-spec-1.5.xml: passes", p.stdout)
        p = spec("--spec", DRAFT, "--spec", SPEC_15, "--check", "--out", self.out)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("46 sentences: 4 with capital keywords, 15 with lowercase keywords only, 27 with none", p.stdout)
        self.assertIn("check wm-spec-draft-2011.xml: passes", p.stdout)
        self.assertRegex(p.stdout, r"wm-spec-draft-2011.xml:1669: doubled word \"an an\"")
        self.check_fails_on_a_new_sentence()
        self.assertEqual(sorted(os.listdir(self.out)), sorted(
            ["profile-diff.txt"] + ["%s.%s" % (stem, ext) for stem in ("wm-spec-1.5", "wm-spec-draft-2011")
                                    for ext in ("html", "txt", "lint.txt", "json")]))
        with open(os.path.join(self.out, "profile-diff.txt")) as f:
            diff = f.read()
        self.assertIn("picking an even number at least [-100-] {+240+} greater", diff)
        self.assertIn("{+marks the request with data.l[4] = 1 and it+}", diff)
        self.assertIn("changed: Window Manager Protocols > _NET_WM_SYNC_REQUEST > Basic form\n  draft: The initial value of "
                      "[-this-] {+the+} counter", diff)
        with open(os.path.join(self.out, "wm-spec-draft-2011.json")) as f:
            doc = json.load(f)
        self.assertEqual(doc["counts"]["sentences"], 46)

    def check_fails_on_a_new_sentence(self):
        """An author adds a testable sentence that no clause covers: --check exits 1 and names it."""
        with open(DRAFT, encoding="utf-8") as f:
            text = f.read()
        anchor = "<title>_NET_WM_SYNC_FENCES</title>\n      <para>\n"
        self.assertIn(anchor, text)
        edited = os.path.join(self.out, "edited", "wm-spec-draft-2011.xml")
        os.makedirs(os.path.dirname(edited), exist_ok=True)
        with open(edited, "w", encoding="utf-8") as f:
            f.write(text.replace(anchor, anchor + "The window manager MUST repaint every fenced window twice.\n", 1))
        p = spec("--spec", edited, "--check", "--out", os.path.join(self.out, "edited-out"))
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("check wm-spec-draft-2011.xml: FAILS", p.stdout)
        self.assertRegex(p.stdout, r"uncovered sentence .*MUST repaint every fenced window twice")
        shutil.rmtree(os.path.join(self.out, "edited"))
        shutil.rmtree(os.path.join(self.out, "edited-out"))

    def test_bad_input(self):
        bad = os.path.join(self.out, "bad.xml")
        with open(bad, "w") as f:
            f.write("<article>\n<sect1><title>x</title>\n</article>\n")
        p = spec("--spec", bad, "--out", os.path.join(self.out, "o"))
        self.assertEqual(p.returncode, 2)
        self.assertRegex(p.stderr, r"bad.xml:3:\d+: not well-formed XML")
        p = spec("--spec", os.path.join(self.out, "missing.xml"), "--out", os.path.join(self.out, "o"))
        self.assertEqual(p.returncode, 2)
        self.assertIn("missing.xml: No such file", p.stderr)
        p = spec("--spec", bad, "--bogus")
        self.assertEqual(p.returncode, 2)
        self.assertIn("`--bogus` is not an option of --spec", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.out, "o")))

    def test_options(self):
        """`spec` on argparse: the texts as FILE operands or --spec (in the order given), and the
        usage errors in the command's words, exit status 2."""
        o = cli.parse_args(["a.xml", "--spec=b.xml", "--check", "--results", "r1", "--results=r2", "--profile", "ewmh-1.5"])
        self.assertEqual((o.specs, o.check, o.results, o.profile, o.out), (["a.xml", "b.xml"], True, ["r1", "r2"],
                                                                           "ewmh-1.5", None))
        for args, message in ((["--check"], "--spec needs a DocBook file"),
                              (["a.xml", "--out"], "option --out needs a value"),
                              (["a.xml", "--profile", "de-facto"], "--profile with --spec takes ewmh-1.5 or draft-2011"),
                              (["a.xml", "--chec"], "`--chec` is not an option of --spec (options: --spec FILE,")):
            with self.assertRaises(cli.UsageError) as cm:
                cli.parse_args(args)
            self.assertIn(message, str(cm.exception))
        p = spec("spec", "--help")
        self.assertEqual(p.returncode, 0)
        self.assertIn("usage: python3 -m runner spec FILE.xml", p.stdout)
        self.assertIn("--results PATH", p.stdout)
        p = spec("spec", "--out", "x")
        self.assertEqual((p.returncode, p.stderr), (2, "framesync: --spec needs a DocBook file\n"))


class Interop(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def put(self, name, doc):
        os.makedirs(os.path.join(self.dir, name))
        with open(os.path.join(self.dir, name, "results.json"), "w") as f:
            json.dump(doc, f)

    def test_cells_at_risk_and_wording(self):
        a = "ewmh-1.5/basic/value-nonzero"
        b = "de-facto/extended/plus-240"
        self.put("ref", results_doc("fake-wm/fake-wm --profile {profile}", "fake-wm",
                                    [("basic/value-nonzero", "ewmh-1.5", [a], "PASS"),
                                     ("extended/plus-240-defacto", "de-facto", [b], "PASS")]))
        self.put("wm1", results_doc("wm1 --replace", "One", [("basic/value-nonzero", "ewmh-1.5", [a], "PASS"),
                                                              ("extended/plus-240-defacto", "de-facto", [b], "FAIL")],
                                    profiles=("ewmh-1.5",)))
        self.put("wm2", results_doc("wm2", "Two", [("basic/value-nonzero", "ewmh-1.5", [a], "PASS"),
                                                    ("extended/plus-240-defacto", "de-facto", [b], "SKIP")]))
        inter = interop.build([self.dir], {})
        self.assertEqual([im.label for im in inter.impls.values()], ["fake-wm", "One", "Two"])
        cells = inter.cells()
        self.assertEqual({inter.impls[k].label: v[0] for k, v in cells[b].items()},
                         {"fake-wm": "pass", "One": "fail", "Two": "skip"})
        clauses = []
        for cid in (a, b):
            c = catalog.Clause(cid, "clauses.txt", 1)
            c.fields["testable"] = "yes"
            clauses.append(c)
        # the reference compositor is not counted: b is passed by none of the two others
        self.assertEqual(inter.at_risk(clauses), [(b, 0)])
        w = inter.wordings()
        ref = [k for k, im in inter.impls.items() if im.reference][0]
        self.assertEqual(w[ref]["extended increment"][0][:2], ("+240 [de-facto]", "de-facto"))

    def test_code_bases_and_ready(self):
        # mutter and muffin are one code base: a clause they alone pass is at risk; with kwin it is ready
        a = "ewmh-1.5/basic/value-nonzero"
        for name in ("mutter", "muffin"):
            doc = results_doc(name, name, [("basic/value-nonzero", "ewmh-1.5", [a], "PASS")])
            doc["compositors"] = [dict(c, conf=name) for c in doc["compositors"]]
            self.put(name, doc)
        c = catalog.Clause(a, "clauses.txt", 1)
        c.fields.update(testable="yes", profiles="ewmh-1.5 draft-2011 de-facto", binds="wm")
        inter = interop.build([self.dir], {})
        self.assertEqual(inter.at_risk([c]), [(a, 1)])
        self.assertFalse(inter.evidence([c])[0].ready)
        doc = results_doc("kwin_x11", "KWin", [("basic/value-nonzero", "ewmh-1.5", [a], "PASS")])
        doc["compositors"] = [dict(x, conf="kwin_x11") for x in doc["compositors"]]
        self.put("kwin_x11", doc)
        ev = interop.build([self.dir], {}).evidence([c])[0]
        self.assertTrue(ev.ready)
        self.assertEqual([cb for cb, _, _ in ev.proof()], ["kwin", "mutter"])
        self.assertEqual(ev.proof()[0][2], "basic/value-nonzero [ewmh-1.5]")

    def test_failure_only_for_want_of_a_client_initiated_request(self):
        # mutter sends sync requests only in interactive resizes: extended/X fails, interactive/X passes
        b = "de-facto/extended/plus-240"
        self.put("m", results_doc("mutter", "Mutter", [("extended/plus-240-defacto", "de-facto", [b], "FAIL"),
                                                       ("interactive/plus-240-defacto", "de-facto", [b], "PASS")]))
        inter = interop.build([self.dir], {})
        (cell,) = inter.cells()[b].values()
        self.assertEqual(cell[0], "pass")

    def test_each_clause_shows_its_level(self):
        rows = [("ewmh-1.5/basic/value-nonzero", "MUST NOT"), ("draft-2011/extended/even-value", "should"),
                ("draft-2011/delimited/not-indefinitely", "must not"), ("draft-2011/drawn/compress", "may"),
                ("ewmh-1.5/basic/request-message", "implied")]
        clauses = []
        for cid, keyword in rows:
            c = catalog.Clause(cid, "clauses.txt", 1)
            c.fields.update(keyword=keyword, binds="wm", testable="yes")
            clauses.append(c)
        self.assertEqual([interop.clause_level(c) for c in clauses], ["MUST", "should", "must", "implied", "implied"])
        self.put("wm1", results_doc("wm1", "One", [("basic/value-nonzero", "ewmh-1.5", [rows[0][0]], "FAIL"),
                                                    ("extended/even-value", "draft-2011", [rows[1][0]], "FAIL")]))
        page = annotate.render_interop_page(interop.build([self.dir], {}), clauses)
        shown = re.findall(r'<tr id="clause-([^"]+)"><td><code>[^<]*</code><div class="meta">'
                           r'<span class="level ([\w-]+)" title="[^"]*">([^<]*)</span>([^<]*)</div>', page)
        self.assertEqual(shown, [
            ("ewmh-1.5/basic/value-nonzero", "lv-must", "MUST", " MUST NOT &middot; binds wm"),
            ("draft-2011/extended/even-value", "lv-should-lc", "lowercase should", " &middot; binds wm"),
            ("draft-2011/delimited/not-indefinitely", "lv-must-lc", "lowercase must", " must not &middot; binds wm"),
            ("draft-2011/drawn/compress", "lv-implied", "implied", " may &middot; binds wm"),
            ("ewmh-1.5/basic/request-message", "lv-implied", "implied", " &middot; binds wm")])
        # the at-risk list says the level too
        self.assertIn('<code>draft-2011/extended/even-value</code></a> <span class="level lv-should-lc"', page)

    def test_not_a_results_file(self):
        os.makedirs(os.path.join(self.dir, "x"))
        with open(os.path.join(self.dir, "x", "results.json"), "w") as f:
            f.write("{}")
        with self.assertRaises(interop.ResultsError) as cm:
            interop.build([os.path.join(self.dir, "x")], {})
        self.assertIn("x/results.json: not a framesync results file", str(cm.exception))
        with self.assertRaises(interop.ResultsError) as cm:
            interop.build([os.path.join(self.dir, "nothing")], {})
        self.assertIn("nothing: no results.json there", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
