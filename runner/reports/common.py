"""What the reports share: the clauses of the crashes, the case logs, their timelines and
screenshots, and the command line of a report (results.json itself is runner/results.py's)."""
import argparse
import os
import re
import sys


PSEUDO_CLAUSES = {
    "compositor/crash": "the compositor under test crashed, exited, was stopped or stopped answering during a case "
                        "or a probe",
    "client/crash": "the application under test (--client) crashed or exited by itself during a case or a probe, "
                    "after it had started",
}


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
