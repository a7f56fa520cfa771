"""JUnit XML from a framesync results.json, for GitLab's and GitHub's test reports.

    python3 -m runner.reports.junit OUT/results.json [-o OUT/junit.xml]

<testsuites> holds one <testsuite> per profile (name = the profile), each with a <testcase> per
case (classname = the case's group, e.g. `basic`; name = the case id; time in seconds): FAIL gives
<failure type=LEVEL message="[LEVEL] reason"> (the level of the clause broken: MUST, SHOULD,
lowercase must/should, implied, defect) with the diagnostic (clause, level, expected, observed,
file:line, log), and the case log as <system-out>; UNRESOLVED gives <error>; SKIP gives <skipped
message=reason/>.  Each suite's properties carry the run's verdict (run.verdict, run.reason) when
results.json records one.  The attributes and elements are those of the Jenkins/Ant JUnit schema
(junit-10.xsd).
"""
import os
import re
import socket
import sys
import xml.etree.ElementTree as ET

from runner import paths
from runner.catalog import clause_table
from runner.reports.common import case_group, read_text, report_command, resolve_log
from runner.results import RunResults, case_level
from runner.runverdict import recorded
from runner.terms import PROFILES, describe_level, level_label

# XML 1.0 cannot hold most control characters, not even escaped; a compositor's output may have them
_INVALID_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
LOG_LIMIT = 200_000


def clean(text):
    return _INVALID_XML.sub(lambda m: "\\x%02x" % ord(m.group()) if ord(m.group()) < 0x100 else "?",
                                   str(text if text is not None else ""))


def seconds(ms):
    try:
        return "%.3f" % max(0.0, float(ms) / 1000.0)
    except (TypeError, ValueError):
        return "0.000"


def diagnostic(case, catalog=None):
    lines = []
    for key, label in (("verdict", "verdict"), ("clauses", "clause"), ("level", "level"), ("description", "description"),
                       ("file", "file"), ("step", "step"), ("reason", "reason"), ("expected", "expected"),
                       ("observed", "observed"), ("log", "log")):
        value = case.get(key)
        if key == "clauses":
            value = ", ".join(value or [])
        elif key == "level":
            value = describe_level(case_level(case, catalog)) if case.get("verdict") == "FAIL" else None
        if value:
            lines.append("%-12s %s" % (label + ":", value))
    if case.get("checks") is not None:
        lines.append("%-12s %s of %s ran" % ("checks:", case.get("checks_run"), case.get("checks")))
    return "\n".join(lines) + "\n"


def failure(tc, case, catalog):
    """A FAIL's <failure>: its level first, in the type (for programs) and the message (for the
    reader of a CI page, who weighs a MUST and a lowercase should differently)."""
    level = case_level(case, catalog)
    el = ET.SubElement(tc, "failure", message=clean("[%s] %s" % (level_label(level), case.get("reason") or "FAIL")),
                       type=level)
    el.text = clean(diagnostic(case, catalog))
    return el


def interrupted_suite(root, doc, timestamp, host, n):
    """A run that a signal stopped: one more suite, `run`, whose testcase is an error that says so,
    so that a CI page does not show the cases that ran as a finished, green run."""
    run = recorded(doc)
    suite = ET.SubElement(root, "testsuite", name="run", tests="1", failures="0", errors="1", skipped="0",
                          time="0.000", timestamp=timestamp, hostname=clean(host), id=str(n), package="framesync")
    props = ET.SubElement(suite, "properties")
    ET.SubElement(props, "property", name="status", value=clean(doc.get("status", "")))
    ET.SubElement(props, "property", name="run.verdict", value=clean(run["verdict"]))
    tc = ET.SubElement(suite, "testcase", classname="framesync", name="run", time="0.000")
    el = ET.SubElement(tc, "error", message=clean(run["reason"]), type="interrupted")
    el.text = clean("%s (exit status %s)\n" % (run["reason"], run.get("exit_status", "")))
    ET.SubElement(suite, "system-out")
    ET.SubElement(suite, "system-err")


def build(doc, results_dir=".", catalog=None):
    """results.json document -> ElementTree of <testsuites>.  catalog (runner.catalog.clause_table):
    the levels of results that do not carry one."""
    timestamp = (doc.get("started") or "").rstrip("Z") or "1970-01-01T00:00:00"
    host = socket.gethostname() or "localhost"
    profiles = [p for p in PROFILES if any(c.get("profile") == p for c in doc["cases"])]
    profiles += sorted({c.get("profile") for c in doc["cases"]} - set(PROFILES) - {None})
    root = ET.Element("testsuites", name="framesync")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0, "time": 0.0}
    for n, profile in enumerate(profiles):
        cases = [c for c in doc["cases"] if c.get("profile") == profile]
        counts = {"tests": len(cases),
                  "failures": sum(c.get("verdict") == "FAIL" for c in cases),
                  "errors": sum(c.get("verdict") == "UNRESOLVED" for c in cases),
                  "skipped": sum(c.get("verdict") == "SKIP" for c in cases)}
        total_ms = sum(float(c.get("duration_ms") or 0) for c in cases)
        suite = ET.SubElement(root, "testsuite", name=profile, tests=str(counts["tests"]),
                                     failures=str(counts["failures"]), errors=str(counts["errors"]),
                                     skipped=str(counts["skipped"]), time=seconds(total_ms),
                                     timestamp=timestamp, hostname=clean(host), id=str(n), package="framesync")
        props = ET.SubElement(suite, "properties")
        for comp in doc["compositors"]:
            if comp.get("profile") == profile:
                ET.SubElement(props, "property", name="compositor", value=clean(comp.get("command", "")))
                ET.SubElement(props, "property", name="compositor.name", value=clean(comp.get("name", "")))
                ET.SubElement(props, "property", name="compositor.supported",
                                     value=clean(" ".join(comp.get("supported", []))))
        ET.SubElement(props, "property", name="status", value=clean(doc.get("status", "")))
        run = recorded(doc)
        if run:   # a run that tested nothing is not green, even when every testcase is skipped
            ET.SubElement(props, "property", name="run.verdict", value=clean(run["verdict"]))
            if run["reason"]:
                ET.SubElement(props, "property", name="run.reason", value=clean(run["reason"]))
        for c in cases:
            file_, _, line = (c.get("file") or "").rpartition(":")
            attrs = {"classname": clean(case_group(c)), "name": clean(c.get("id", "")),
                     "time": seconds(c.get("duration_ms"))}
            if file_ and line.isdigit():
                if file_.startswith(paths.ROOT + os.sep):
                    file_ = os.path.relpath(file_, paths.ROOT)  # as the repository names it
                attrs["file"], attrs["line"] = clean(file_), line
            tc = ET.SubElement(suite, "testcase", attrs)
            verdict = c.get("verdict")
            if verdict in ("FAIL", "UNRESOLVED"):
                if verdict == "FAIL":
                    failure(tc, c, catalog)
                else:
                    el = ET.SubElement(tc, "error", message=clean(c.get("reason") or verdict), type=verdict)
                    el.text = clean(diagnostic(c))
                log = read_text(resolve_log(c.get("log"), results_dir), LOG_LIMIT)
                if log:
                    ET.SubElement(tc, "system-out").text = clean(log)
            elif verdict == "SKIP":
                ET.SubElement(tc, "skipped", message=clean(c.get("reason") or "skipped"))
        ET.SubElement(suite, "system-out")
        ET.SubElement(suite, "system-err")
        for k in ("tests", "failures", "errors", "skipped"):
            totals[k] += counts[k]
        totals["time"] += total_ms
    if (recorded(doc) or {}).get("verdict") == "interrupted":
        interrupted_suite(root, doc, timestamp, host, len(profiles))
        totals["tests"] += 1
        totals["errors"] += 1
    for k in ("tests", "failures", "errors", "skipped"):
        root.set(k, str(totals[k]))
    wall = doc.get("wall_ms")
    root.set("time", seconds(wall if wall is not None else totals["time"]))
    return ET.ElementTree(root)


def write(results_path, out_path=None, clauses_path=None):
    catalog = clause_table(clauses_path or paths.clauses_of())
    doc = RunResults.load(results_path).with_findings(catalog).to_json()
    results_dir = os.path.dirname(os.path.abspath(results_path))
    out_path = out_path or os.path.join(results_dir, "junit.xml")
    tree = build(doc, results_dir, catalog)
    ET.indent(tree, space="  ")
    tmp = out_path + ".tmp"
    tree.write(tmp, encoding="UTF-8", xml_declaration=True)
    with open(tmp, "a", encoding="utf-8") as f:
        f.write("\n")
    os.replace(tmp, out_path)
    return out_path


def main(argv=None):
    return report_command(argv, "runner.reports.junit", __doc__, "junit.xml", write,
                          "the clause catalog, for the levels of older results (default: cases/clauses.txt)")


if __name__ == "__main__":
    sys.exit(main())
