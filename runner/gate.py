"""The release gate: did NEW break a clause OLD passed?

    python3 -m runner gate OLD NEW

OLD and NEW are submissions (runner/submission.py), results.json files or run folders: two
versions of one compositor, or the last release and a candidate in a compositor's CI (next to the
baseline check, which compares a run with what is expected of this version).

A regression is a case (id and profile) that passed in OLD and FAILs in NEW: it is listed with its
clause (the one NEW's failure is filed under), both verdicts and NEW's diagnostic (reason,
expected, observed, log).  A case that failed in NEW and passed on a re-run (a flake) is listed
apart, as are fixes (FAIL or UNRESOLVED in OLD, PASS in NEW; not when OLD's was a flake), cases now
UNRESOLVED and cases OLD ran that NEW did not.

Exit status: 1 when there is a regression, 0 otherwise, 2 on bad input (a file that is not a
submission or a results.json: the message names it and what was expected)."""
import argparse
import os
import sys

from runner import submission
from runner.results import ResultsError, RunResults, failed_clause
from runner.spec.interop import find_results


class Side:
    """One side of the comparison: its label and {(id, profile): case record}."""

    def __init__(self, path):
        self.path = path
        self.logs_in = None
        if os.path.isfile(path) and looks_like_submission(path):
            sub = submission.load(path)
            self.label, cases = "%s (%s)" % (sub.label, path), sub.cases
            self.logs_in = path
        else:
            files = find_results([path])
            if len(files) != 1:
                raise ResultsError("%s: %d results.json files there (expected one run: a results.json, a run's --out "
                                   "folder or a submission)" % (path, len(files)))
            try:
                run = RunResults.load(files[0])
            except OSError as e:
                raise ResultsError("%s: cannot read: %s" % (files[0], e.strerror))
            cases = run.case_dicts()
            submission.fold_reruns({"cases": cases}, os.path.dirname(files[0]))
            self.label = path
        self.cases = {(c.get("id"), c.get("profile")): c for c in cases}


def looks_like_submission(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        head = f.read(4096)
    return submission.FORMAT in head


def diagnostic(case, side):
    """NEW's diagnostic of a failed case, in one or two lines."""
    parts = [case.get("reason") or ""]
    if case.get("expected") or case.get("observed"):
        parts.append("expected %s, observed %s" % (case.get("expected") or "?", case.get("observed") or "?"))
    log = case.get("log")
    if log:
        parts.append("log: %s" % (("%s in %s" % (log, side.logs_in)) if side.logs_in else log))
    return "; ".join(p for p in parts if p)


def compare(old, new):
    """-> {"regressions": [...], "flakes": [...], "fixes": [...], "unresolved": [...], "not_run": [...]},
    each entry (case id, profile, clause, old verdict, new verdict, diagnostic)."""
    out = {k: [] for k in ("regressions", "flakes", "fixes", "flaky_old", "unresolved", "not_run")}
    for key, o in old.cases.items():
        n = new.cases.get(key)
        ov = o.get("verdict")
        if n is None:
            if ov == "PASS":
                out["not_run"].append((key[0], key[1], (o.get("clauses") or [""])[0], ov, "not run", ""))
            continue
        nv = n.get("verdict")
        clause = failed_clause(n) if nv == "FAIL" else (n.get("clauses") or [""])[0]
        item = (key[0], key[1], clause, ov, nv, diagnostic(n, new) if nv != "PASS" else "")
        if ov == "PASS" and nv == "FAIL":
            out["flakes" if n.get("flake") else "regressions"].append(item)
        elif ov == "PASS" and nv == "UNRESOLVED":
            out["unresolved"].append(item)
        elif ov in ("FAIL", "UNRESOLVED") and nv == "PASS":
            out["flaky_old" if o.get("flake") else "fixes"].append(item)
    return out


TITLES = (("regressions", "regressions (passed in OLD, FAIL in NEW)"),
          ("flakes", "flakes in NEW (passed in OLD, failed in NEW and passed on a re-run: not counted)"),
          ("unresolved", "now UNRESOLVED (passed in OLD; NEW could not decide: not counted, look at them)"),
          ("not_run", "not run in NEW (passed in OLD)"),
          ("fixes", "fixes (failed or unresolved in OLD, PASS in NEW)"),
          ("flaky_old", "flaky in OLD (failed, then passed on a re-run), PASS in NEW: not counted as fixes"))


def report_text(old, new, result):
    lines = ["gate: OLD %s" % old.label, "gate: NEW %s" % new.label]
    for key, title in TITLES:
        items = result[key]
        lines.append("%s: %d" % (title, len(items)))
        for cid, profile, clause, ov, nv, diag in items:
            lines.append("  %s [%s]  clause %s  %s -> %s" % (cid, profile, clause, ov, nv))
            if diag:
                lines.append("      %s" % diag)
    lines.append("gate: %s" % ("FAILED: %d regression(s)" % len(result["regressions"]) if result["regressions"]
                               else "passed: no clause OLD passed fails in NEW"))
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m runner gate", description=__doc__.split("\n\n")[0])
    ap.add_argument("old", metavar="OLD", help="the earlier release: a submission, results.json or run folder")
    ap.add_argument("new", metavar="NEW", help="the candidate: a submission, results.json or run folder")
    a = ap.parse_args(argv)
    try:
        old, new = Side(a.old), Side(a.new)
    except (ResultsError, submission.SubmissionError) as e:
        sys.stderr.write("runner gate: %s (expected a submission, a results.json or a run's --out folder)\n" % e)
        return 2
    except OSError as e:
        sys.stderr.write("runner gate: %s: %s\n" % (e.filename, e.strerror))
        return 2
    result = compare(old, new)
    sys.stdout.write(report_text(old, new, result))
    return 1 if result["regressions"] else 0
