"""framesync client matrix: the client cases against every installed named application
(clients/*.conf), against the reference compositor.

    python3 -m runner.client_matrix [--only NAME,...] [--reruns 1] [--update-baselines] [--reuse]
    ./run-tests.sh --matrix --clients ...

For each installed client it runs the harness (`--client NAME`), one at a time (a browser takes
both cores of a small machine); re-runs the failing cases (`--reruns`) to tell flakes from
failures; compares each with baselines/clients/NAME.txt (runner/baseline.py's format); and writes
results/client-matrix.md: per client its features (the client probes, per profile: participates,
extended form, maps odd, animates, fences, how long it stalls without drawn messages), its
findings (the client clauses it breaks, each with the level of its keyword and the cases), the
verdict of its run (UNRESOLVED: it tested nothing, as a client that does not take part) and the
wall time of its run; and results/client-matrix.html beside it: one row per client and profile,
one column per client case, grouped by clause with its keyword level, the answer cases split into
their two states (animating, idle), a cell per result (hover: the reason).

Exit status: 0 when every client that ran matches its baseline, 1 otherwise, 2 on a usage error.
Standard library only.
"""
import argparse
import html
import os
import sys

from runner import baseline as bl, matrix_runs, paths
from runner.terms import PROFILES, describe_level, level_label

FEATURES = ["client-participates", "client-counter", "client-extended", "client-maps-odd", "client-animates", "client-fences",
            "client-drawn-timeout"]


log = matrix_runs.logger("client-matrix")


def list_clients():
    """[(name, installed, command)] from `framesync-harness --list-clients`."""
    return [(r[0], r[1] == "yes", r[2]) for r in matrix_runs.listing("--list-clients", 3, "client-matrix")]


def run_client(name, args):
    # one at a time: a browser takes both cores of a small machine
    return matrix_runs.run_one(name, ["--client", name], args.out, args.reruns, args.reuse, log)


def features_by_profile(run):
    """{profile: {feature: (present, detail)}} from the feature tables of results.json."""
    out = {}
    for t in (run.get("doc") or {}).get("features") or []:
        prof = next((p for p in PROFILES if "--profile " + p in t.get("command", "")), "?")
        out[prof] = {n: (f.get("present"), f.get("detail", "")) for n, f in (t.get("features") or {}).items()
                     if n in FEATURES}
    return out


def counts(run):
    """"14 Pass, 19 Skip, 4 Fail (3 MUST, 1 implied)": a failure (or flake) is weighed by the
    keyword of its clause, so one MUST and one lowercase should are not "2 Fail" alike."""
    c, levels = {}, {}
    for r in run["results"].values():
        c[r["status"]] = c.get(r["status"], 0) + 1
        if r["status"] in ("Fail", "Flake"):
            lv = levels.setdefault(r["status"], {})
            name = level_label(bl.level_of(r))
            lv[name] = lv.get(name, 0) + 1
    order = ["Pass", "Skip", "Fail", "Flake", "Unresolved"]
    out = []
    for s, n in sorted(c.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 9):
        lv = levels.get(s)
        out.append("%d %s%s" % (n, s, " (%s)" % ", ".join("%d %s" % (k, name) for name, k in sorted(lv.items()))
                                if lv else ""))
    return ", ".join(out)


def write_md(path, runs, missing):
    lines = ["# Client matrix", "",
             "The client cases (cases/client/) against each installed named application "
             "(clients/*.conf), with fake-wm as the compositor. `./run-tests.sh --matrix --clients`.", ""]
    lines += ["| client | wall | results | run | gate |", "|---|---|---|---|---|"]
    for run in runs:
        lines.append("| %s | %.0f s | %s | %s | %s |" % (run["name"], run.get("wall", 0), counts(run),
                                                        bl.run_verdict_of(run)[0], run.get("gate", "")))
    empty = bl.runs_that_tested_nothing(runs)
    if empty:   # a client that does not take part: every case skipped
        lines += ["", "Runs that tested nothing (`./run-tests.sh --client NAME --baseline` does not pass such a run "
                      "without --allow-empty; the gate column here compares the results only):", ""]
        lines += ["- **%s**: %s: %s" % (name, word, reason) for name, word, reason in empty]
    if missing:
        lines += ["", "Not installed: %s." % ", ".join(missing)]
    lines += ["", "## Features (client probes)", "",
              "| client | profile | " + " | ".join(FEATURES) + " |", "|---|---|" + "---|" * len(FEATURES)]
    for run in runs:
        for prof, feats in sorted(features_by_profile(run).items(), key=lambda kv: PROFILES.index(kv[0])
                                  if kv[0] in PROFILES else 9):
            cells, last = [], None
            for n in FEATURES:
                present, detail = feats.get(n, (None, ""))
                # a feature absent for the reason of the one it requires says only "no"
                said = detail if present or detail != last else ""
                last = detail if not present else last
                cells.append(("yes" if present else "no") + (": " + said.replace("|", "/") if said else ""))
            lines.append("| %s | %s | %s |" % (run["name"], prof, " | ".join(cells)))
    lines += ["", "## Findings (client clauses broken)", ""]
    for run in runs:
        fs = matrix_runs.findings_of(run)
        lines.append("- **%s**: %s" % (run["name"], "none" if not fs else ""))
        for f in fs:
            lines.append("  - `%s` (%s): %s" % (f["clause"], describe_level(f["level"]), "; ".join(f["summary"])))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


STATES = ("animating", "idle")
CELL_CLASS = {"Pass": "ok", "Fail": "FAIL", "Flake": "FLAKE", "Unresolved": "UNRESOLVED", "Skip": "skip"}


def case_columns(runs):
    """[(clause, level, base case id, [state or None])]: each client case once, by clause, an
    answer case (client/answer-X/STATE) as one column group with its states."""
    seen = {}
    for run in runs:
        for r in run["results"].values():
            c = r["case"]
            cid = c["id"]
            base, _, state = cid.rpartition("/")
            if state not in STATES:
                base, state = cid, None
            clause = c.get("clause") or ""
            key = (clause, base)
            if key not in seen:
                seen[key] = [clause, bl.level_of(r) or "", base, []]
            if state not in seen[key][3]:
                seen[key][3].append(state)
    out = sorted(seen.values(), key=lambda v: (v[0], v[2]))
    for v in out:
        v[3].sort(key=lambda st: STATES.index(st) if st in STATES else -1)
    return [tuple(v) for v in out]


def write_html(path, runs, missing):
    esc = html.escape
    cols = case_columns(runs)
    H = ["<!doctype html><meta charset=utf-8><title>framesync client matrix</title>",
         "<style>body{font:13px sans-serif}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
         "padding:2px 5px}td.ok{background:#dfd}td.FAIL,td.UNRESOLVED{background:#fbb}td.FLAKE{background:#fe9}"
         "td.skip{background:#eee;color:#777}th{background:#f4f4f4;font-weight:normal}.level{font-size:11px;"
         "border:1px solid #999;border-radius:3px;padding:0 3px;white-space:nowrap}.level.lc{border-style:dashed}"
         "</style>",
         "<h1>framesync client matrix</h1><p>The client cases (cases/client/) against each installed named "
         "application (clients/*.conf), with fake-wm as the compositor: one row per client and profile. The answer "
         "cases run with the application <b>animating</b> (drawing by itself) and <b>idle</b> (not drawing for "
         "1 s): a toolkit that answers only in its own frames fails only idle. Hover a cell for the reason.</p>"]
    H.append("<table><tr><th rowspan=3>client<th rowspan=3>profile")
    H.append("".join('<th colspan=%d><code>%s</code> <span class="level%s" title="%s">%s</span>'
                     % (sum(len(c[3]) for c in cols if c[0] == clause), esc(clause),
                        " lc" if level in ("must", "should") else "", esc(describe_level(level) if level else ""),
                        esc(level_label(level) if level else "?"))
                     for clause, level in dict.fromkeys((c[0], c[1]) for c in cols)) + "</tr><tr>")
    H.append("".join("<th colspan=%d%s>%s" % (len(states), "" if states != [None] else " rowspan=2",
                                               esc(base.replace("client/", "")))
                     for _, _, base, states in cols) + "</tr><tr>")
    H.append("".join("".join("<th>%s" % esc(st) for st in states if st) for _, _, _, states in cols) + "</tr>")
    for run in runs:
        for prof in PROFILES:
            by_id = {r["case"]["id"]: r for r in run["results"].values() if r["case"]["profile"] == prof}
            if not by_id:
                continue
            cells = []
            for _, _, base, states in cols:
                for st in states:
                    r = by_id.get(base + "/" + st if st else base)
                    if not r:
                        cells.append("<td>")
                        continue
                    cls = CELL_CLASS.get(r["status"], r["status"])
                    word = r["status"] if r["status"] not in ("Fail", "Flake") else "%s [%s]" % (
                        r["status"], level_label(bl.level_of(r)))
                    cells.append('<td class="%s" title="%s">%s' % (cls, esc(r.get("reason") or ""), esc(word)))
            H.append("<tr><td>%s<td>%s%s</tr>" % (esc(run["name"]), esc(prof), "".join(cells)))
    H.append("</table>")
    if missing:
        H.append("<p>Not installed (not run): %s</p>" % esc(", ".join(missing)))
    H.append("<h2>Runs</h2><table><tr><th>client<th>wall<th>results<th>run<th>baseline</tr>")
    for run in runs:
        H.append("<tr><td>%s<td>%.0f s<td>%s<td>%s<td>%s</tr>" % (
            esc(run["name"]), run.get("wall", 0), esc(counts(run)), esc(bl.run_verdict_of(run)[0]),
            esc(run.get("gate", ""))))
    H.append("</table>")
    with open(path, "w") as f:
        f.write("\n".join(H) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="run-tests.sh --matrix --clients",
                                 description="the client cases against every installed named application")
    ap.add_argument("--clients", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--jobs", type=int, default=1,
                    help="clients run at a time: 1 only (a browser takes both cores of a small machine, and "
                         "the wall times are per client)")
    ap.add_argument("--only", help="comma-separated client names (default: every installed one)")
    ap.add_argument("--reruns", type=int, default=1, help="re-run failing cases up to N times (default 1)")
    ap.add_argument("--out", default="/tmp/framesync-client-matrix", help="where each run's output goes")
    ap.add_argument("--report-dir", default=paths.OUTPUT,
                    help="where client-matrix.md and client-matrix.html go")
    ap.add_argument("--reuse", action="store_true", help="run nothing: the report from an earlier run in --out")
    ap.add_argument("--update-baselines", action="store_true", help="write baselines/clients/NAME.txt")
    args = ap.parse_args(argv)
    if args.jobs != 1:
        ap.error("--jobs %d: the clients run one at a time (--jobs 1)" % args.jobs)
    known = list_clients()
    only = [n for n in args.only.split(",") if n] if args.only else None
    if only and [n for n in only if n not in {k[0] for k in known}]:
        log("unknown client(s) in --only (known: %s)" % ", ".join(k[0] for k in known))
        return 2
    chosen = [k for k in known if not only or k[0] in only]
    missing = [k[0] for k in chosen if not k[1]]
    runs = [run_client(k[0], args) for k in chosen if k[1]]
    for run in runs:
        matrix_runs.gate(run, os.path.join(paths.BASELINES, "clients"), args.update_baselines)
        log("%s: %.0f s, %s; %s" % (run["name"], run.get("wall", 0), counts(run), run["gate"]))
    os.makedirs(args.report_dir, exist_ok=True)
    md = os.path.join(args.report_dir, "client-matrix.md")
    write_md(md, runs, missing)
    write_html(os.path.join(args.report_dir, "client-matrix.html"), runs, missing)
    for run in runs:
        if run.get("gate_text"):
            print(run["gate_text"])
    ok = bool(runs) and all(run.get("match") for run in runs)
    print("client-matrix: %d client(s), %s; %s" % (len(runs), "all match their baselines" if ok
                                                  else "NOT all match their baselines", md))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
