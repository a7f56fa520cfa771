"""Tests of runner/reports/ (junit.xml, index.html and what they share), without X: a sample
results.json, case logs and screenshots are made in a temp folder."""
import base64
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import urllib.parse
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from runner import catalog  # noqa: E402
from runner.reports import common, html as html_report, junit  # noqa: E402
from runner.results import RunResults  # noqa: E402
from runner.terms import PROFILES  # noqa: E402

# a 1x1 PNG
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")

CLAUSES = """\
# The clause catalog (a sample)
#   wording:  the exact words

clause:   ewmh-1.5/basic/value-nonzero
profiles: ewmh-1.5 draft-2011
keyword:  MUST NOT
wording:  The update request number in the client message is determined by the window
          manager subject to the restriction that it MUST NOT be 0.
note:     a note

clause:   draft-2011/extended/even-value
profiles: draft-2011
wording:  the value MUST be even
"""

TIMELINE = """\
case:     basic/value-nonzero [ewmh-1.5]
verdict:  FAIL

timeline:
     +0.192 ms  harness  step line=7 msg=client A
     +1.857 ms  A        ready pid=20348
     +2.330 ms  wm       create-alarm alarm=1 counter=2 value=1
     +2.532 ms  screen   shows client=A window=3 frame=-1 mapped=1
     +2.805 ms  A        sync-request window=3 value=0 sendevent=1   <-- here
     +2.857 ms  A        counter-set index=1 value=0 reason=answer
     +9.100 ms  B        counter-change index=1 value=9223372036854775806 sendevent=0
    +40.000 ms  A        counter-change index=1 value=100 sendevent=0
   +3000.000 ms  harness  step line=15 msg=expect req.value != 0

compositor output during the case (/x/compositor.log):
  fake-wm: hello
"""


def sample(tmp):
    """results.json with every verdict in two profiles, logs, screenshots; returns its path."""
    logs = os.path.join(tmp, "logs")
    for p in PROFILES:
        os.makedirs(os.path.join(logs, p))

    def log(profile, name, text="case log\n"):
        path = os.path.join(logs, profile, name + ".log")
        with open(path, "w") as f:
            f.write(text)
        return path
    cases = [
        {"id": "basic/value", "profile": "ewmh-1.5", "clauses": ["ewmh-1.5/basic/value-nonzero"],
         "verdict": "PASS", "description": "a pass", "file": "/w/cases/basic/value.case:1", "step": "",
         "reason": "", "expected": "", "observed": "", "log": log("ewmh-1.5", "basic-value"),
         "checks_run": 2, "checks": 2, "duration_ms": 12.5},
        {"id": "basic/value-nonzero", "profile": "ewmh-1.5", "clauses": ["ewmh-1.5/basic/value-nonzero",
                                                                         "draft-2011/extended/even-value"],
         "verdict": "FAIL", "description": "the value is <not> 0 & \"quoted\"",
         "file": "/w/cases/basic/value-nonzero.case:15", "step": "expect req.value != 0",
         "reason": "req.value = 0; wanted req.value != 0 \x01\x1b[31m", "expected": "req.value != 0",
         "observed": "req.value = 0", "log": log("ewmh-1.5", "basic-value-nonzero", TIMELINE),
         "checks_run": 3, "checks": 3, "duration_ms": 2.9},
        {"id": "extended/even-value", "profile": "draft-2011", "clauses": ["draft-2011/extended/even-value"],
         "verdict": "UNRESOLVED", "description": "even", "file": "/w/cases/extended/even-value.case:9",
         "step": "A frobnicate", "reason": "fake client A died", "expected": "", "observed": "",
         "log": log("draft-2011", "extended-even-value"), "checks_run": 1, "checks": 4, "duration_ms": 1500.0},
        {"id": "drawn/after-update", "profile": "draft-2011", "clauses": ["draft-2011/drawn/after-update"],
         "verdict": "SKIP", "description": "drawn", "file": "/w/cases/drawn/after-update.case:1", "step": "",
         "reason": "the compositor does not list _NET_WM_SYNC_DRAWN in _NET_SUPPORTED", "expected": "",
         "observed": "", "log": log("draft-2011", "drawn-after-update"), "checks_run": 0, "checks": 3,
         "duration_ms": 0.4},
    ]
    # screenshots: two of the failing case, one of basic/value (a shorter prefix of the same name)
    for name in ("basic-value-nonzero.1-before.png", "basic-value-nonzero.2-after.png", "basic-value.png"):
        with open(os.path.join(logs, "ewmh-1.5", name), "wb") as f:
            f.write(PNG)
    doc = {"format": "framesync-results-1", "started": "2026-12-03T07:50:11Z", "status": "complete",
           "wall_ms": 2100.0,
           "compositors": [{"profile": "ewmh-1.5", "command": "mywm --replace", "name": "MyWM", "composites": True,
                            "ready_ms": 11.9, "supported": ["_NET_SUPPORTED", "_NET_WM_SYNC_REQUEST"]},
                           {"profile": "draft-2011", "command": "mywm --replace", "name": "MyWM",
                            "composites": False, "ready_ms": 9.0, "supported": ["_NET_WM_SYNC_FENCES"]}],
           "cases": cases}
    path = os.path.join(tmp, "results.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    with open(os.path.join(tmp, "clauses.txt"), "w") as f:
        f.write(CLAUSES)
    return path


class Shared(unittest.TestCase):
    def test_clause_parser(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "c.txt")
            with open(path, "w") as f:
                f.write(CLAUSES)
            c = catalog.clause_table(path)
        self.assertEqual(sorted(c), ["draft-2011/extended/even-value", "ewmh-1.5/basic/value-nonzero"])
        self.assertEqual(c["ewmh-1.5/basic/value-nonzero"]["wording"],
                         "The update request number in the client message is determined by the window "
                         "manager subject to the restriction that it MUST NOT be 0.")
        self.assertEqual(c["ewmh-1.5/basic/value-nonzero"]["keyword"], "MUST NOT")
        self.assertEqual(c["draft-2011/extended/even-value"]["wording"], "the value MUST be even")

    def test_clause_parser_real_catalog(self):
        c = catalog.clause_table(os.path.join(ROOT, "cases", "clauses.txt"))
        self.assertGreater(len(c), 10)
        for cid, rec in c.items():
            self.assertEqual(cid.count("/"), 2, cid)
            self.assertTrue(rec.get("wording"), cid)

    def test_timeline_parser(self):
        recs = common.parse_timeline(TIMELINE)
        self.assertEqual(len(recs), 9)
        self.assertEqual([r.source for r in recs[:4]], ["harness", "A", "wm", "screen"])
        self.assertEqual(recs[0].fields["msg"], "client A")
        here = [r for r in recs if r.here]
        self.assertEqual(len(here), 1)
        self.assertEqual((here[0].kind, here[0].t_ms, here[0].fields["value"]), ("sync-request", 2.805, "0"))
        self.assertEqual(recs[-1].t_ms, 3000.0)
        self.assertEqual(common.parse_timeline("no timeline here\n"), [])

    def test_resolve_log_in_a_moved_folder(self):
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "logs", "de-facto"))
            local = os.path.join(tmp, "logs", "de-facto", "a-b.log")
            open(local, "w").close()
            self.assertEqual(common.resolve_log("/gone/build/results/latest/logs/de-facto/a-b.log", tmp), local)
            self.assertIsNone(common.resolve_log("/gone/logs/de-facto/other.log", tmp))
            self.assertIsNone(common.resolve_log("", tmp))

    def test_screenshots_belong_to_the_longest_prefix(self):
        with tempfile.TemporaryDirectory() as tmp:
            sample(tmp)
            d = os.path.join(tmp, "logs", "ewmh-1.5")
            logs = [os.path.join(d, "basic-value.log"), os.path.join(d, "basic-value-nonzero.log")]
            self.assertEqual([os.path.basename(p) for p in common.screenshots(logs[1], logs)],
                             ["basic-value-nonzero.1-before.png", "basic-value-nonzero.2-after.png"])
            self.assertEqual([os.path.basename(p) for p in common.screenshots(logs[0], logs)], ["basic-value.png"])


# The structure of the JUnit schema (Jenkins junit-10.xsd, whose required attributes include the
# Ant junit.xsd's): element -> (required attributes, optional attributes, allowed children)
SCHEMA = {
    "testsuites": ({"name"} - {"name"}, {"name", "time", "tests", "failures", "errors", "skipped", "disabled"},
                   {"testsuite"}),
    "testsuite": ({"name", "tests"}, {"failures", "errors", "skipped", "time", "timestamp", "hostname", "id",
                                      "package", "disabled", "file", "log", "url", "version", "group"},
                  {"properties", "testcase", "system-out", "system-err"}),
    "properties": (set(), set(), {"property"}),
    "property": ({"name", "value"}, set(), set()),
    "testcase": ({"name"}, {"classname", "time", "assertions", "status", "file", "line", "group"},
                 {"skipped", "error", "failure", "system-out", "system-err"}),
    "failure": (set(), {"message", "type"}, set()),
    "error": (set(), {"message", "type"}, set()),
    "skipped": (set(), {"message"}, set()),
    "system-out": (set(), set(), set()),
    "system-err": (set(), set(), set()),
}
DECIMAL = re.compile(r"^\d+(\.\d+)?$")             # xs:decimal, as the schema's time is (no exponent)
DATETIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$")  # the Ant schema's ISO8601_DATETIME_PATTERN
XML_CHARS = re.compile("^[\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]*$")


class JUnit(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.results = sample(self.tmp)
        self.path = junit.write(self.results)
        self.tree = ET.parse(self.path)  # strict: an error here is a malformed document

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def check_element(self, el):
        self.assertIn(el.tag, SCHEMA, "unknown element <%s>" % el.tag)
        required, optional, children = SCHEMA[el.tag]
        missing = required - set(el.attrib)
        self.assertFalse(missing, "<%s> lacks %s" % (el.tag, missing))
        extra = set(el.attrib) - required - optional
        self.assertFalse(extra, "<%s> has attributes outside the schema: %s" % (el.tag, extra))
        for child in el:
            self.assertIn(child.tag, children, "<%s> inside <%s>" % (child.tag, el.tag))
            self.check_element(child)
        for key in ("tests", "failures", "errors", "skipped", "id", "line", "assertions"):
            if key in el.attrib and el.tag != "property":
                self.assertTrue(el.attrib[key].isdigit(), "%s=%r in <%s>" % (key, el.attrib[key], el.tag))
        if "time" in el.attrib:
            self.assertRegex(el.attrib["time"], DECIMAL)
        if "timestamp" in el.attrib:
            self.assertRegex(el.attrib["timestamp"], DATETIME)
        for value in list(el.attrib.values()) + [el.text or ""]:
            self.assertRegex(value, XML_CHARS)

    def test_schema_structure(self):
        root = self.tree.getroot()
        self.assertEqual(root.tag, "testsuites")
        self.check_element(root)
        for suite in root:
            tags = [c.tag for c in suite]
            # the order of the schema's sequence: properties, testcase*, system-out, system-err
            order = {"properties": 0, "testcase": 1, "system-out": 2, "system-err": 3}
            self.assertEqual(tags, sorted(tags, key=order.get))
            self.assertLessEqual(tags.count("properties"), 1)
            for tc in suite.iter("testcase"):
                results = [c.tag for c in tc if c.tag in ("failure", "error", "skipped")]
                self.assertLessEqual(len(results), 1, tc.attrib["name"])

    def test_counts_and_names(self):
        root = self.tree.getroot()
        suites = root.findall("testsuite")
        self.assertEqual([s.get("name") for s in suites], ["ewmh-1.5", "draft-2011"])
        ewmh, draft = suites
        self.assertEqual((ewmh.get("tests"), ewmh.get("failures"), ewmh.get("errors"), ewmh.get("skipped")),
                         ("2", "1", "0", "0"))
        self.assertEqual((draft.get("tests"), draft.get("failures"), draft.get("errors"), draft.get("skipped")),
                         ("2", "0", "1", "1"))
        self.assertEqual((root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")),
                         ("4", "1", "1", "1"))
        self.assertEqual(ewmh.get("time"), "0.015")
        self.assertEqual(root.get("time"), "2.100")
        cases = [(tc.get("classname"), tc.get("name"), tc.get("time")) for tc in root.iter("testcase")]
        self.assertEqual(cases, [("basic", "basic/value", "0.013"), ("basic", "basic/value-nonzero", "0.003"),
                                 ("extended", "extended/even-value", "1.500"), ("drawn", "drawn/after-update", "0.000")])
        props = {p.get("name"): p.get("value") for p in ewmh.iter("property")}
        self.assertEqual(props["compositor"], "mywm --replace")

    def test_failure_error_skipped(self):
        tcs = {(tc.get("name")): tc for tc in self.tree.getroot().iter("testcase")}
        self.assertEqual(list(tcs["basic/value"]), [])
        failure = tcs["basic/value-nonzero"].find("failure")
        # no level in the results: the catalog's keyword (MUST NOT) gives it
        self.assertTrue(failure.get("message").startswith("[MUST] req.value = 0; wanted req.value != 0"))
        self.assertEqual(failure.get("type"), "MUST")
        self.assertIn("level:       MUST\n", failure.text)
        self.assertNotIn("\x1b", failure.get("message"))
        for wanted in ("ewmh-1.5/basic/value-nonzero", "expected:    req.value != 0", "observed:    req.value = 0",
                       "/w/cases/basic/value-nonzero.case:15",
                       os.path.join(self.tmp, "logs", "ewmh-1.5", "basic-value-nonzero.log")):
            self.assertIn(wanted, failure.text)
        self.assertIn("sync-request", tcs["basic/value-nonzero"].find("system-out").text)
        error = tcs["extended/even-value"].find("error")
        self.assertEqual((error.get("message"), error.get("type")), ("fake client A died", "UNRESOLVED"))
        self.assertIsNone(tcs["extended/even-value"].find("failure"))
        skipped = tcs["drawn/after-update"].find("skipped")
        self.assertEqual(skipped.get("message"), "the compositor does not list _NET_WM_SYNC_DRAWN in _NET_SUPPORTED")

    def test_command_line(self):
        out = os.path.join(self.tmp, "other.xml")
        p = subprocess.run([sys.executable, "-m", "runner.reports.junit", self.results, "-o", out], cwd=ROOT,
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        ET.parse(out)
        p = subprocess.run([sys.executable, "-m", "runner.reports.junit", os.path.join(self.tmp, "nope.json")], cwd=ROOT,
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)


VOID = {"meta", "br", "img", "input", "hr", "link", "source", "wbr", "col", "area", "base", "embed", "param", "track"}
SVG_LEAVES = {"rect", "circle", "line", "path", "polyline"}


class PageParser(html.parser.HTMLParser):
    """Checks that tags nest, and collects the links, sources, ids and text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.links, self.sources, self.ids, self.text = [], [], [], [], [], []
        self.tags = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        for key in ("src", "href", "xlink:href", "action", "data"):
            if key in a and tag != "a":
                self.sources.append((tag, a[key]))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("</%s> closes <%s>" % (tag, self.stack[-1] if self.stack else "nothing"))
            return
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


class Html(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.results = sample(self.tmp)
        self.path = html_report.write(self.results, clauses_path=os.path.join(self.tmp, "clauses.txt"))
        with open(self.path, encoding="utf-8") as f:
            self.page = f.read()
        self.p = PageParser()
        self.p.feed(self.page)
        self.p.close()
        self.text = " ".join(self.p.text)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_well_formed(self):
        self.assertEqual(self.p.errors, [])
        self.assertEqual(self.p.stack, [])
        self.assertTrue(self.page.startswith("<!DOCTYPE html>"))
        self.assertEqual(len(self.p.ids), len(set(self.p.ids)), "duplicate ids")

    def test_self_contained(self):
        for tag, value in self.p.sources:
            self.assertTrue(value.startswith("data:"), "<%s> loads %s" % (tag, value))
        self.assertNotIn("<link", self.page)
        self.assertNotRegex(self.page, r"<script[^>]+src=")
        self.assertNotRegex(self.page, r"url\((?!data:)")
        self.assertNotRegex(self.page, r"@import")
        for href in self.p.links:
            self.assertFalse(href.startswith(("http:", "https:", "//")), href)

    def test_summary_and_compositors(self):
        self.assertIn("ewmh-1.5/basic", self.text)       # a clause group
        self.assertIn("draft-2011/extended", self.text)
        self.assertIn("mywm --replace", self.text)
        self.assertIn("MyWM", self.text)
        self.assertIn("_NET_WM_SYNC_FENCES", self.text)
        self.assertIn("framesync: 1 passed, 1 failed, 1 skipped, 1 unresolved", self.page)

    def test_case_table_and_filters(self):
        rows = [a for t, a in self.p.tags if t == "tr" and "data-verdict" in a]
        self.assertEqual([r["data-verdict"] for r in rows], ["PASS", "FAIL", "UNRESOLVED", "SKIP"])
        self.assertEqual([r["data-profile"] for r in rows], ["ewmh-1.5", "ewmh-1.5", "draft-2011", "draft-2011"])
        boxes = [a["value"] for t, a in self.p.tags if t == "input" and a.get("name") == "verdict"]
        self.assertEqual(boxes, ["PASS", "FAIL", "SKIP", "UNRESOLVED"])
        self.assertIn("f-profile", self.p.ids)
        self.assertIn("f-text", self.p.ids)
        self.assertIn("addEventListener", self.page)

    def test_failures(self):
        arts = [a for t, a in self.p.tags if t == "article"]
        self.assertEqual([a["data-verdict"] for a in arts], ["FAIL", "UNRESOLVED"])
        self.assertIn("MUST NOT be 0.", self.text)            # the clause's wording from the catalog
        self.assertIn("the value MUST be even", self.text)    # a second clause of the case
        self.assertIn("req.value != 0", self.text)
        self.assertIn('the value is <not> 0 & "quoted"', self.text)  # escaped, then read back
        # the log links are relative to the page and lead to the logs
        for href in self.p.links:
            if href.endswith(".log"):
                self.assertFalse(href.startswith(("/", "file:")), href)
                self.assertTrue(os.path.exists(os.path.join(self.tmp, urllib.parse.unquote(href))), href)
        self.assertIn("logs/ewmh-1.5/basic-value-nonzero.log", self.p.links)

    def test_timeline_svg(self):
        self.assertEqual(self.page.count("<svg"), 1)         # only the failing case with a timeline
        svg = self.page[self.page.index("<svg"):self.page.index("</svg>")]
        for lane in ("A", "B", "screen", "wm", "harness"):
            self.assertIn('class="lanelabel">%s</text>' % lane, svg)
        self.assertEqual(svg.count('class="here"'), 1)
        self.assertEqual(svg.count("here-mark"), 1)
        self.assertIn("here: sync-request", svg)
        self.assertEqual(svg.count('class="step"'), 2)        # A counter 1 and B counter 1
        self.assertIn("9223372036854775806", svg)
        self.assertIn("+2.96 s", svg)                         # the long gap is labelled
        self.assertEqual(svg.count("<circle"), 9 + 3)         # every record, and the counter points

    def test_screenshots(self):
        imgs = [a for t, a in self.p.tags if t == "img"]
        self.assertEqual([a["alt"] for a in imgs], ["basic-value-nonzero.1-before.png", "basic-value-nonzero.2-after.png"])
        self.assertTrue(all(a["src"].startswith("data:image/png;base64,") for a in imgs))

    def test_empty_and_command_line(self):
        doc = {"format": "framesync-results-1", "started": "x", "status": "running", "wall_ms": 0,
               "compositors": [], "cases": []}
        path = os.path.join(self.tmp, "empty.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        out = os.path.join(self.tmp, "empty.html")
        p = subprocess.run([sys.executable, "-m", "runner.reports.html", path, "-o", out], cwd=ROOT,
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out) as f:
            self.assertIn("No case failed", f.read())


def levels_sample(tmp, run=None):
    """results.json with a FAIL of each kind of level (the harness's "level", and one without it
    whose level comes from the catalog), a probe's crash (probe/FEATURE, no clauses of its own)
    and the run object `run`; returns its path."""
    os.makedirs(os.path.join(tmp, "logs", "probes", "ewmh-1.5"), exist_ok=True)
    crash_log = os.path.join(tmp, "logs", "probes", "ewmh-1.5", "hold-map.crashed.log")
    with open(crash_log, "w") as f:
        f.write(TIMELINE)
    base = {"profile": "ewmh-1.5", "description": "", "file": "/w/cases/x.case:1", "step": "", "expected": "",
            "observed": "", "log": "", "checks_run": 1, "checks": 1, "duration_ms": 1.0}
    cases = [
        dict(base, id="probe/hold-map", clauses=[], verdict="FAIL", failed_clause="compositor/crash", level="defect",
             reason="the compositor under test exited with status 137", log=crash_log),
        dict(base, id="basic/value-nonzero", clauses=["ewmh-1.5/basic/value-nonzero"], verdict="FAIL",
             reason="req.value = 0"),   # no failed_clause, no level: an older file; the catalog says MUST NOT
        dict(base, id="extended/even-value", profile="draft-2011", clauses=["draft-2011/extended/even-value"],
             verdict="FAIL", failed_clause="draft-2011/extended/even-value", level="should", reason="odd"),
        dict(base, id="basic/value", clauses=["ewmh-1.5/basic/value-nonzero"], verdict="PASS"),
        dict(base, id="drawn/x", profile="draft-2011", clauses=["draft-2011/drawn/x"], verdict="UNRESOLVED",
             reason="fake client A died"),
    ]
    doc = {"format": "framesync-results-1", "started": "2026-12-03T07:50:11Z", "status": "complete",
           "wall_ms": 10.0, "compositors": [], "cases": cases}
    if run:
        doc["run"] = run
    path = os.path.join(tmp, "results.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    with open(os.path.join(tmp, "clauses.txt"), "w") as f:
        f.write(CLAUSES)
    return path


UNRESOLVED_RUN = {"verdict": "UNRESOLVED", "exit_status": 1,
                  "reason": "the compositor lists _NET_WM_SYNC_REQUEST and was seen doing none of the protocol"}


class Levels(unittest.TestCase):
    """The level of each finding and failing case, and the run's verdict, in junit.xml and index.html."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def page(self, run=None):
        path = html_report.write(levels_sample(self.tmp, run), clauses_path=os.path.join(self.tmp, "clauses.txt"))
        with open(path, encoding="utf-8") as f:
            page = f.read()
        p = PageParser()
        p.feed(page)
        p.close()
        self.assertEqual((p.errors, p.stack), ([], []))
        self.assertEqual(len(p.ids), len(set(p.ids)), "duplicate ids")
        return page

    def test_findings_carry_levels(self):
        found = RunResults.load(levels_sample(self.tmp)).with_findings(catalog.clause_table(
            os.path.join(self.tmp, "clauses.txt"))).findings
        self.assertEqual([(f["clause"], f["level"]) for f in found],
                         [("compositor/crash", "defect"), ("ewmh-1.5/basic/value-nonzero", "MUST"),
                          ("draft-2011/extended/even-value", "should")])

    def test_junit_type_and_message(self):
        tree = ET.parse(junit.write(levels_sample(self.tmp, UNRESOLVED_RUN),
                                    clauses_path=os.path.join(self.tmp, "clauses.txt")))
        fails = {tc.get("name"): tc.find("failure") for tc in tree.getroot().iter("testcase")
                 if tc.find("failure") is not None}
        self.assertEqual({k: (f.get("type"), f.get("message")) for k, f in fails.items()},
                         {"probe/hold-map": ("defect", "[defect] the compositor under test exited with status 137"),
                          "basic/value-nonzero": ("MUST", "[MUST] req.value = 0"),
                          "extended/even-value": ("should", "[lowercase should] odd")})
        self.assertIn("level:       should: lowercase, not RFC 2119 normative as written", fails["extended/even-value"].text)
        error = next(tc.find("error") for tc in tree.getroot().iter("testcase") if tc.find("error") is not None)
        self.assertEqual(error.get("type"), "UNRESOLVED")
        for suite in tree.getroot().findall("testsuite"):
            props = {p.get("name"): p.get("value") for p in suite.iter("property")}
            self.assertEqual((props["run.verdict"], props["run.reason"]), ("UNRESOLVED", UNRESOLVED_RUN["reason"]))

    def test_html_badges(self):
        page = self.page()
        findings = page[page.index('<ol class="findings">'):page.index("</ol>")]
        self.assertEqual(re.findall(r'<span class="level (lv-[\w-]+)" title="([^"]*)">([^<]*)</span>', findings),
                         [("lv-defect", "defect: the compositor or the application under test crashed or hung", "defect"),
                          ("lv-must", "MUST", "MUST"),
                          ("lv-should-lc", "should: lowercase, not RFC 2119 normative as written", "lowercase should")])
        self.assertIn('Findings (3) <span class="meta">by level: 1 defect, 1 MUST, 1 lowercase should</span>', page)
        # each failing card says its level; the UNRESOLVED one has none
        cards = re.findall(r'<h3><span class="badge (\w+)">\w+</span> (?:<span class="level (lv-[\w-]+)")?', page)
        self.assertEqual(cards, [("FAIL", "lv-defect"), ("FAIL", "lv-must"), ("FAIL", "lv-should-lc"), ("UNRESOLVED", "")])
        self.assertIn("<dt>level</dt><dd>should: lowercase, not RFC 2119 normative as written</dd>", page)
        self.assertNotIn("run-banner", page.split("</style>", 1)[1])   # no run object: no banner

    def test_probe_crash_card(self):
        page = self.page()
        card = page[page.index('id="case-ewmh-1-5-probe-hold-map"'):]
        card = card[:card.index("</article>")]
        self.assertIn("<code>compositor/crash</code>", card)
        self.assertIn("the compositor under test crashed", card)       # the pseudo-clause's wording
        self.assertNotIn("also checks", card)                          # it has no clause of its own
        self.assertIn("logs/probes/ewmh-1.5/hold-map.crashed.log", card)
        self.assertIn('<svg class="timeline"', card)
        self.assertRegex(page, r'<a href="#case-ewmh-1-5-probe-hold-map">probe/hold-map</a></td><td><code>compositor/crash</code>')

    def test_run_banner(self):
        page = self.page(UNRESOLVED_RUN)
        self.assertIn('<div class="run-banner unresolved" role="alert"><b>Run UNRESOLVED</b>: '
                      + UNRESOLVED_RUN["reason"], page)
        self.assertIn("<title>framesync (run UNRESOLVED): ", page)
        self.assertIn("run verdict <b>UNRESOLVED</b>", page)
        self.assertLess(page.index("run-banner unresolved"), page.index('class="totals"'))  # on top
        page = self.page({"verdict": "complete", "reason": "nothing was tested: every one of the 2 cases was skipped",
                          "exit_status": 0})
        self.assertIn('<div class="run-banner accepted"><b>Run accepted by --allow-empty</b>: nothing was tested', page)
        page = self.page({"verdict": "complete", "reason": "", "exit_status": 1})
        self.assertNotIn('<div class="run-banner', page)
        self.assertIn("run verdict <b>complete</b>", page)

    def test_interrupted_run_is_not_finished(self):
        """Ctrl-C: index.html says so on top, and junit.xml has an error for the run, so that neither
        shows the cases that ran as a finished run."""
        page = self.page(INTERRUPTED_RUN)
        self.assertIn('<div class="run-banner unresolved" role="alert"><b>Run interrupted</b>: '
                      + INTERRUPTED_RUN["reason"], page)
        self.assertIn("<title>framesync (run interrupted): ", page)
        self.assertNotIn('<div class="run-banner accepted"', page)
        root = ET.parse(junit.write(levels_sample(self.tmp, INTERRUPTED_RUN),
                                    clauses_path=os.path.join(self.tmp, "clauses.txt"))).getroot()
        run = next(s for s in root.findall("testsuite") if s.get("name") == "run")
        error = run.find("testcase").find("error")
        self.assertEqual((error.get("type"), error.get("message")), ("interrupted", INTERRUPTED_RUN["reason"]))
        self.assertEqual((root.get("tests"), root.get("errors")), ("6", "2"))   # 5 cases + the run; drawn/x, the run


INTERRUPTED_RUN = {"verdict": "interrupted", "exit_status": 130,
                   "reason": "interrupted by Interrupt: 5 of the 40 selected cases ran, the others did not"}


if __name__ == "__main__":
    unittest.main()
