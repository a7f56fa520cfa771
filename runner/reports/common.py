"""What the reports share: results.json, the clause catalog, the case logs and their timelines."""
import json
import os
import re

from runner.terms import PROFILES, VERDICTS, level_of_clause  # noqa: F401 (the reports import them from here)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_results(path, catalog=None):
    """results.json -> its document, with the findings made again from the cases (catalog: for
    the levels of files older than the harness's "level")."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if doc.get("format") != "framesync-results-1":
        raise ValueError("%s: not a framesync results file (format %r)" % (path, doc.get("format")))
    doc.setdefault("cases", [])
    doc.setdefault("compositors", [])
    doc.setdefault("features", [])
    doc["findings"] = findings(doc["cases"], catalog)  # always from the cases: merged runs included
    return doc


PSEUDO_CLAUSES = {
    "compositor/crash": "the compositor under test crashed, exited, was stopped or stopped answering during a case "
                        "or a probe",
    "client/crash": "the application under test (--client) crashed or exited by itself during a case or a probe, "
                    "after it had started",
}


def failed_clause(case):
    """The clause a FAIL is filed under: the clause of the check that failed (results.json's
    failed_clause; older files: the case's first clause)."""
    return case.get("failed_clause") or (case.get("clauses") or ["(no clause)"])[0]


def case_level(case, catalog=None):
    """The level of a FAIL: what the harness wrote on the case, else the keyword of the clause it
    is filed under in the catalog (results.json files older than the levels)."""
    return case.get("level") or level_of_clause(failed_clause(case), catalog or {})


def findings(cases, catalog=None):
    """The findings of a run: one per clause broken, with the cases and profiles that show it,
    in catalog order of their first appearance, and the level of the clause's keyword (what the
    harness wrote on the case, else from the catalog).  One root cause is one finding."""
    by, order = {}, []
    for c in cases:
        if c.get("verdict") != "FAIL":
            continue
        cl = failed_clause(c)
        if cl not in by:
            by[cl] = []
            order.append(cl)
        by[cl].append(c)
    out = []
    for cl in order:
        ids = []
        for c in by[cl]:
            if c["id"] not in ids:
                ids.append(c["id"])
        level = case_level(by[cl][0], catalog)
        out.append({"clause": cl, "level": level, "count": len(by[cl]),
                    "cases": ["%s [%s]" % (c["id"], c["profile"]) for c in by[cl]],
                    "summary": ["%s [%s]" % (i, ", ".join(c["profile"] for c in by[cl] if c["id"] == i)) for i in ids]})
    return out


def case_group(case):
    """The case's group: `basic` for basic/value-nonzero."""
    cid = case.get("id", "")
    return cid.split("/", 1)[0] if "/" in cid else "(none)"


def clause_group(clause_id):
    """The clause's group: `ewmh-1.5/basic` for ewmh-1.5/basic/value-nonzero."""
    return clause_id.rsplit("/", 1)[0] if "/" in clause_id else clause_id


def report_command(argv, module, doc, default_name, write, clauses_help):
    """`python3 -m runner.reports.MODULE results.json [-o FILE] [--clauses FILE]`: the command of a report
    whose write(results, out, clauses) returns the path it wrote."""
    import argparse
    import sys
    ap = argparse.ArgumentParser(prog="python3 -m " + module, description=doc.split("\n\n")[0])
    ap.add_argument("results", help="a framesync results.json")
    ap.add_argument("-o", "--output", help="where to write (default: %s beside results.json)" % default_name)
    ap.add_argument("--clauses", help=clauses_help)
    a = ap.parse_args(argv)
    try:
        print(write(a.results, a.output, a.clauses))
    except (OSError, ValueError) as e:
        print("framesync: %s" % e, file=sys.stderr)
        return 2
    return 0


def resolve_log(log, results_dir):
    """Where a case's log is: the path results.json names, or the same file under the folder of
    results.json (a report folder that was moved or downloaded as a CI artifact)."""
    if not log:
        return None
    norm = log.replace("\\", "/")
    if "/logs/" in norm:
        local = os.path.join(results_dir, "logs", *norm.rsplit("/logs/", 1)[1].split("/"))
        if os.path.exists(local):
            return local
    if os.path.exists(log):
        return log
    return None


def read_text(path, limit=None):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read(limit) if limit else f.read()
    except (OSError, TypeError):
        return None


TIMELINE_RE = re.compile(r"^\s*([+-]?\d+(?:\.\d+)?) ms\s+(\S+)\s+(\S+)(.*?)(\s+<-- here)?\s*$")


class Record:
    __slots__ = ("t_ms", "source", "kind", "fields", "text", "here", "seq")

    def __init__(self, t_ms, source, kind, fields, text, here, seq):
        self.t_ms, self.source, self.kind, self.fields = t_ms, source, kind, fields
        self.text, self.here, self.seq = text, here, seq


def parse_fields(rest):
    """` key=value key=value msg=free text` -> dict (msg= takes the rest of the line)."""
    fields = {}
    rest = rest.strip()
    while rest:
        word, _, tail = rest.partition(" ")
        k, eq, v = word.partition("=")
        if not eq:
            rest = tail.strip()
            continue
        if k == "msg":
            fields[k] = (v + " " + tail).strip() if tail else v
            break
        fields[k] = v
        rest = tail.strip()
    return fields


def parse_timeline(log_text):
    """The `timeline:` section of a case log -> [Record], in the log's order."""
    records, inside = [], False
    for line in (log_text or "").splitlines():
        if not inside:
            if line.strip() == "timeline:":
                inside = True
            continue
        if not line.strip():
            break
        m = TIMELINE_RE.match(line)
        if not m:
            continue
        t, source, kind, rest, here = m.groups()
        records.append(Record(float(t), source, kind, parse_fields(rest), line.strip(), bool(here),
                              len(records) + 1))
    return records


def log_prefix(log_path):
    """logs/ewmh-1.5/basic-value-nonzero.log -> logs/ewmh-1.5/basic-value-nonzero"""
    return log_path[:-4] if log_path.endswith(".log") else log_path


def screenshots(log_path, all_logs):
    """The PNGs of the case whose log is log_path: `<prefix>*.png` in its folder, where a file that
    also matches a longer prefix of another case (basic-value-x.png for basic-value and
    basic-value-x) belongs to the longer one."""
    if not log_path:
        return []
    folder = os.path.dirname(log_path)
    prefix = os.path.basename(log_prefix(log_path))
    others = [os.path.basename(log_prefix(p)) for p in all_logs
              if p and os.path.dirname(p) == folder and os.path.basename(log_prefix(p)) != prefix]
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    found = []
    for name in names:
        if not name.lower().endswith(".png") or not name.startswith(prefix):
            continue
        if any(len(o) > len(prefix) and name.startswith(o) for o in others):
            continue
        found.append(os.path.join(folder, name))
    return found
