"""The interop dashboard: submissions as clause x implementation x version, static HTML.

    python3 -m runner dashboard SUBMISSION... --out DIR [--cases DIR]

Rows are the clauses of the catalog here (cases/clauses.txt), grouped by their section, with
their wording and level; clauses a submission names that this catalog lacks come last, as the
submission's catalog words them.  Columns are the submissions, by implementation, then version
in release order.  A cell is the clause's verdict for that column (runner/spec/interop.py: fail
if any case failed it, else unresolved, pass, skip) and links to its diagnostic (the case's log,
written into DIR/logs/ from the submission, so the link works offline) and, where the
implementation's baselines/NAME.txt has a line for the case, to that line and its cause.

The interop score of a clause is the share of independent implementations (code bases,
runner/interop_table.py) that pass it, of those that ran it (not skipped), each implementation at
its newest version; a section's score is the mean of its clauses' scores.  Per implementation with
several versions: the history, each version against the one before (new failures, new passes,
flakes).  Filters by profile and level are plain JavaScript; nothing is fetched.

Writes DIR/index.html, DIR/logs/, DIR/baselines/.  Exit status 0, or 2 on bad input (a
submission that is not one, named)."""
import argparse
import os
import re
import sys

from runner import catalog, interop_table, paths, submission
from runner.baseline import LINE_RE, key as baseline_key
from runner.reports import dashboard_html
from runner.spec.interop import Implementation, Interop
from runner.terms import PROFILES, level_of_clause

VIEWS = ("all",) + PROFILES   # the profile filter's choices
DEFECT_SECTION = "defects: the compositor crashed or hung"


def slug(text):
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-")[:60] or "impl"


class Column:
    """One submission as a column: its cells in each view, its logs' folder, its predecessor."""

    def __init__(self, sub, index):
        self.sub, self.key, self.slug = sub, "c%d" % index, slug(sub.label)
        self.previous = None      # the column of the same implementation's previous version
        self.newest = True        # the newest version of its implementation
        self.cells = {}           # view -> {clause: (cell, [cases])}


def section_of(record):
    """A clause's group on the page: its section up to the first parenthesis (robustness ones
    share one)."""
    text = (record.get("section") or "").strip()
    if text.startswith("robustness"):
        return "robustness"
    head = text.split(" (")[0].strip() if not text.startswith("(") else text.strip("()")
    return head or "(no section)"


class Dashboard:
    def __init__(self, subs, cases_dir):
        self.subs = subs
        self.ours = submission.catalog_record(paths.clauses_of(cases_dir))
        self.refs = catalog.parse_cases(cases_dir)
        self.columns = [Column(s, i) for i, s in enumerate(subs)]
        last = {}
        for col in self.columns:
            if col.sub.name in last:
                col.previous = last[col.sub.name]
                col.previous.newest = False
            last[col.sub.name] = col
        for view in VIEWS:
            inter = Interop()
            inter.case_refs = self.refs
            for col in self.columns:
                im = Implementation(col.key, "compositor", col.sub.name, col.sub.name)
                im.reference = col.sub.reference
                im.cases = [c for c in col.sub.cases if view == "all" or c.get("profile") == view]
                inter.impls[col.key] = im
            cells = inter.cells()
            for col in self.columns:
                col.cells[view] = {cl: d[col.key] for cl, d in cells.items() if col.key in d}
        self.records = self.clause_records()

    def clause_records(self):
        """[(clause id, record, known here)] in catalog order, then the others by id."""
        named = set()
        for col in self.columns:
            named.update(col.cells["all"])
        # the clauses that bind applications only where a submission ran them (a --client run)
        out = [(cid, rec, True) for cid, rec in self.ours.items() if rec.get("binds") != "client" or cid in named]
        for cid in sorted(named - set(self.ours)):
            theirs = next((c.sub.theirs[cid] for c in self.columns if cid in c.sub.theirs), None)
            if theirs is None and cid.endswith("/crash"):
                theirs = {"section": DEFECT_SECTION, "level": "defect", "wording": "the compositor crashed, was stopped "
                          "or did not answer the liveness barrier", "profiles": list(PROFILES)}
            out.append((cid, theirs or {"section": "(not in any catalog given)", "level": level_of_clause(cid, {}),
                                        "wording": "", "profiles": []}, cid.endswith("/crash")))
        return out

    def sections(self):
        """[(section, [(clause id, record, known)])] in first-appearance order."""
        order, groups = [], {}
        for cid, rec, known in self.records:
            sec = section_of(rec) if known else (rec.get("section") if rec.get("section") == DEFECT_SECTION
                                                  else "not in this catalog (as the submission words them)")
            if sec not in groups:
                groups[sec] = []
                order.append(sec)
            groups[sec].append((cid, rec, known))
        return [(s, groups[s]) for s in order]

    # ---- scores and evidence (the newest version of each implementation)
    def newest(self):
        return [c for c in self.columns if c.newest and not c.sub.reference]

    def evidence(self, view, clause_ids):
        cells = {}
        for col in self.newest():
            for cl, v in col.cells[view].items():
                cells.setdefault(cl, {})[col.key] = v
        return interop_table.evidence(cells, {c.key: c.sub.name for c in self.newest()}, clause_ids)

    def score(self, ev):
        """(passing independent, tested independent) of one ClauseEvidence."""
        tested = interop_table.independent({interop_table.codebase_of(n) for n in ev.tested})
        return len(ev.codebases), len(tested)

    # ---- history
    def history(self, col):
        """This version against the previous one: {"new failures", "new passes", "flakes" (this
        version's: failed, then passed on a re-run), "flaky before" (a change that is only the
        previous version's flake, not counted as new)}."""
        out = {"new failures": [], "new passes": [], "flakes": [], "flaky before": []}
        before = {(c.get("id"), c.get("profile")): c for c in col.previous.sub.cases} if col.previous else {}
        for c in col.sub.cases:
            k = (c.get("id"), c.get("profile"))
            label = "%s [%s]" % k
            if c.get("flake"):
                out["flakes"].append(label)
                continue
            old = before.get(k)
            if not old or old.get("verdict") == c.get("verdict"):
                continue
            if old.get("flake"):
                out["flaky before"].append(label)
            elif old.get("verdict") == "PASS" and c.get("verdict") == "FAIL":
                out["new failures"].append(label)
            elif old.get("verdict") in ("FAIL", "UNRESOLVED") and c.get("verdict") == "PASS":
                out["new passes"].append(label)
        return out


# ---------------------------------------------------------------- files

def write_logs(dash, out):
    """Each submission's case logs into OUT/logs/COLUMN/: {column key: {log key: relative path}}."""
    where = {}
    for col in dash.columns:
        mine = where.setdefault(col.key, {})
        for key, text in col.sub.logs.items():
            rel = os.path.join("logs", col.slug, *[p for p in key.split("/") if p not in ("", ".", "..")])
            os.makedirs(os.path.dirname(os.path.join(out, rel)), exist_ok=True)
            with open(os.path.join(out, rel), "w", encoding="utf-8") as f:
                f.write(text)
            mine[key] = rel
    return where


def read_baselines(dash, out):
    """baselines/NAME.txt of each implementation as OUT/baselines/NAME.html (a line anchor each):
    {name: {`CASE-ID [PROFILE]`: (status, cause, relative link)}}."""
    found = {}
    for name in sorted({c.sub.name for c in dash.columns}):
        path = os.path.join(paths.BASELINES, name + ".txt")
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        entries = {}
        for n, line in enumerate(lines, 1):
            m = LINE_RE.match(line.strip())
            if m and not line.startswith("#"):
                k = baseline_key(m.group("id"), m.group("profile")) if m.group("profile") else m.group("id")
                entries[k] = (m.group("status"), (m.group("comment") or "").strip(), "baselines/%s.html#L%d" % (name, n))
        os.makedirs(os.path.join(out, "baselines"), exist_ok=True)
        with open(os.path.join(out, "baselines", name + ".html"), "w", encoding="utf-8") as f:
            f.write(dashboard_html.baseline_page(name, lines))
        found[name] = entries
    return found


def build(inputs, out, cases_dir):
    subs = submission.load_all(inputs)
    dash = Dashboard(subs, cases_dir)
    os.makedirs(out, exist_ok=True)
    logs = write_logs(dash, out)
    baselines = read_baselines(dash, out)
    notes = [line for s in subs for line in s.check(dash.ours)]
    page = dashboard_html.render(dash, VIEWS, logs, baselines, notes)
    with open(os.path.join(out, "index.html"), "w", encoding="utf-8") as f:
        f.write(page)
    return dash, notes


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m runner dashboard", description=__doc__.split("\n\n")[0])
    ap.add_argument("submissions", nargs="+", metavar="SUBMISSION", help="files made by python3 -m runner submit")
    ap.add_argument("--out", required=True, metavar="DIR", help="the folder to write (index.html, logs/, baselines/)")
    ap.add_argument("--cases", default=paths.CASES, help="the case folder whose catalog gives the rows")
    a = ap.parse_args(argv)
    try:
        dash, notes = build(a.submissions, a.out, a.cases)
    except (submission.SubmissionError, catalog.CatalogError) as e:
        sys.stderr.write("runner dashboard: %s\n" % e)
        return 2
    except OSError as e:
        sys.stderr.write("runner dashboard: %s: %s\n" % (e.filename, e.strerror))
        return 2
    cells = sum(1 for col in dash.columns for _ in col.cells["all"])
    print("runner dashboard: %d submission(s), %d implementation(s), %d clause rows, %d cells: %s"
          % (len(dash.columns), len({c.sub.name for c in dash.columns}), len(dash.records), cells,
             os.path.join(a.out, "index.html")))
    for line in notes:
        print("runner dashboard: note: " + line)
    return 0
