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

--policy NAME,...|all runs every client under each of those compositor policies of fake-wm
(fake-wm --list-policies; default reference): the tables group their rows per policy, and a
figures table (map to first show, answer latency after the configure, stall without a drawn
message: runner/reports/figures.py) has a line per client, policy and case.  Only the reference
policy's runs are gated by baselines/clients/NAME.txt (the baselines are of that policy); a
policy's own runs go to OUT/POLICY/NAME.

Exit status: 0 when every client that ran matches its baseline, 1 otherwise, 2 on a usage error.
Standard library only.
"""
import argparse
import html
import os
import sys

from runner import baseline as bl, matrix_runs, paths, policies
from runner.reports import figures
from runner.terms import PROFILES, describe_level, level_label

FEATURES = ["client-participates", "client-counter", "client-extended", "client-maps-odd", "client-animates", "client-fences",
            "client-drawn-timeout"]


log = matrix_runs.logger("client-matrix")


def list_clients():
    """[(name, installed, command)] from `framesync-harness --list-clients`."""
    return [(r[0], r[1] == "yes", r[2]) for r in matrix_runs.listing("--list-clients", 3, "client-matrix")]


REFERENCE = "reference"


# the workers of one client's run: the clients run one at a time (a browser takes both cores of a
# small machine), each on two workers, as `--client NAME` runs it by default on 2 cores (its shared
# application starts and its probe pass: harness/app-keep.c, runner/probe.py)
CLIENT_WORKERS = 2


def run_client(name, args, policy=REFERENCE):
    # the re-runs keep the policy
    out = args.out if policy == REFERENCE else os.path.join(args.out, policy)
    # the reference policy's Fail lines as the baseline expects them are not re-run (the other policies
    # have no baselines); an unexpected failure is, to tell a flake
    expected = None
    if policy == REFERENCE and not args.update_baselines:
        try:
            expected = bl.parse_baseline(os.path.join(paths.BASELINES, "clients", name + ".txt"))[0]
        except bl.BaselineError:
            expected = None  # the gate reports the malformed file
    run = matrix_runs.run_one(name, ["--client", name, "--policy", policy], out, args.reruns, args.reuse, log,
                              workers=CLIENT_WORKERS, expected=expected)
    run["policy"] = policy
    return run


def chosen_policies(text):
    """--policy NAME,...|all -> the names, in fake-wm's order; None (and why, logged) on a name it
    does not know."""
    known = policies.names()
    asked = known if text == "all" else [n for n in text.split(",") if n]
    unknown = [n for n in asked if n not in known]
    if unknown or not asked:
        log("unknown policy %s (the policies: %s, or all)" % (", ".join(unknown) or "''", ", ".join(known)))
        return None
    return [n for n in known if n in asked]


def gate_run(run, update):
    """The reference policy's runs against baselines/clients/NAME.txt; another policy's are shown,
    not gated (no baseline is of them)."""
    if run["policy"] == REFERENCE:
        matrix_runs.gate(run, os.path.join(paths.BASELINES, "clients"), update)
    else:
        run["gate"], run["match"] = "not gated (policy %s: the baselines are the reference's)" % run["policy"], True


def figures_md(runs):
    lines = ["", "## Figures per policy (measured, not judged)", "",
             "| policy | client | case | figure | " + " | ".join(PROFILES) + " |", "|---|---|---|---|" + "---|" * len(PROFILES)]
    for run in runs:
        for (cid, name), vals in figures.by_case((run.get("doc") or {}).get("cases") or []).items():
            lines.append("| %s | %s | %s | %s | %s |" % (run["policy"], run["name"], cid, name, " | ".join(
                figures.fmt(name, vals[p]) if p in vals else "" for p in PROFILES)))
    return lines


def figures_html(runs):
    esc = html.escape
    H = ["<h2>Figures per policy</h2><p>Measured, not judged (no text bounds them): "
         + "; ".join("<code>%s</code>: %s" % (esc(k), esc(v)) for k, v in figures.MEANINGS.items())
         + ".</p><table><tr><th>policy<th>client<th>case<th>figure" + "".join("<th>%s" % p for p in PROFILES) + "</tr>"]
    for run in runs:
        for (cid, name), vals in figures.by_case((run.get("doc") or {}).get("cases") or []).items():
            H.append("<tr><td>%s<td>%s<td>%s<td><code>%s</code>%s</tr>" % (
                esc(run["policy"]), esc(run["name"]), esc(cid), esc(name), "".join(
                    "<td>%s" % esc(figures.fmt(name, vals[p])) if p in vals else "<td>" for p in PROFILES)))
    H.append("</table>")
    return H


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
    for run in runs:
        run.setdefault("policy", REFERENCE)  # a run made before the policies (tests, --reuse of old output)
    lines = ["# Client matrix", "",
             "The client cases (cases/client/) against each installed named application "
             "(clients/*.conf), with fake-wm as the compositor. `./run-tests.sh --matrix --clients`.", ""]
    lines += ["| policy | client | wall | results | run | gate |", "|---|---|---|---|---|---|"]
    for run in runs:
        lines.append("| %s | %s | %.0f s | %s | %s | %s |" % (run["policy"], run["name"], run.get("wall", 0), counts(run),
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
        if run["policy"] != REFERENCE and any(r["name"] == run["name"] and r["policy"] == REFERENCE for r in runs):
            continue  # the probes see the same application under every policy
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
        lines.append("- **%s** (policy %s): %s" % (run["name"], run["policy"], "none" if not fs else ""))
        for f in fs:
            lines.append("  - `%s` (%s): %s" % (f["clause"], describe_level(f["level"]), "; ".join(f["summary"])))
    lines += figures_md(runs)
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


def row_cells(by_id, cols):
    """One row's cells: a result per case column (hover: its reason)."""
    esc = html.escape
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
    return "".join(cells)


def result_rows(runs, cols):
    """The matrix's rows: per policy a heading row, then one row per client and profile."""
    esc = html.escape
    H, ncells = [], sum(len(c[3]) for c in cols)
    for policy in dict.fromkeys(run["policy"] for run in runs):
        H.append('<tr><th colspan=%d class="policy">policy <b>%s</b></tr>' % (ncells + 2, esc(policy)))
        for run in (r for r in runs if r["policy"] == policy):
            for prof in PROFILES:
                by_id = {r["case"]["id"]: r for r in run["results"].values() if r["case"]["profile"] == prof}
                if by_id:
                    H.append("<tr><td>%s<td>%s%s</tr>" % (esc(run["name"]), esc(prof), row_cells(by_id, cols)))
    return H


def write_html(path, runs, missing):
    esc = html.escape
    for run in runs:
        run.setdefault("policy", REFERENCE)
    cols = case_columns(runs)
    H = ["<!doctype html><meta charset=utf-8><title>framesync client matrix</title>",
         "<style>body{font:13px sans-serif}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
         "padding:2px 5px}td.ok{background:#dfd}td.FAIL,td.UNRESOLVED{background:#fbb}td.FLAKE{background:#fe9}"
         "td.skip{background:#eee;color:#777}th{background:#f4f4f4;font-weight:normal}th.policy{text-align:left;"
         "background:#dde6f4}.level{font-size:11px;"
         "border:1px solid #999;border-radius:3px;padding:0 3px;white-space:nowrap}.level.lc{border-style:dashed}"
         "</style>",
         "<h1>framesync client matrix</h1><p>The client cases (cases/client/) against each installed named "
         "application (clients/*.conf), with fake-wm as the compositor: one row per client and profile. The answer "
         "cases run with the application <b>animating</b> (drawing by itself) and <b>idle</b> (not drawing for "
         "1 s): a toolkit that answers only in its own frames fails only idle. The rows are grouped per compositor policy "
         "of fake-wm (fake-wm --list-policies). Hover a cell for the reason.</p>"]
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
    H += result_rows(runs, cols)
    H.append("</table>")
    if missing:
        H.append("<p>Not installed (not run): %s</p>" % esc(", ".join(missing)))
    H += figures_html(runs)
    H.append("<h2>Runs</h2><table><tr><th>policy<th>client<th>wall<th>results<th>run<th>baseline</tr>")
    for run in runs:
        H.append("<tr><td>%s<td>%s<td>%.0f s<td>%s<td>%s<td>%s</tr>" % (
            esc(run["policy"]), esc(run["name"]), run.get("wall", 0), esc(counts(run)), esc(bl.run_verdict_of(run)[0]),
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
                         "the wall times are per client); each client's run has %d workers" % CLIENT_WORKERS)
    ap.add_argument("--only", help="comma-separated client names (default: every installed one)")
    ap.add_argument("--reruns", type=int, default=1, help="re-run failing cases up to N times (default 1)")
    ap.add_argument("--out", default="/tmp/framesync-client-matrix", help="where each run's output goes")
    ap.add_argument("--report-dir", default=paths.OUTPUT,
                    help="where client-matrix.md and client-matrix.html go")
    ap.add_argument("--reuse", action="store_true", help="run nothing: the report from an earlier run in --out")
    ap.add_argument("--update-baselines", action="store_true", help="write baselines/clients/NAME.txt")
    ap.add_argument("--policy", default=REFERENCE,
                    help="fake-wm's compositor policies to run each client under: NAME,... or all (fake-wm "
                         "--list-policies; default reference, the only one with baselines)")
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
    pols = chosen_policies(args.policy)
    if pols is None:
        return 2
    runs = [run_client(k[0], args, pol) for pol in pols for k in chosen if k[1]]
    for run in runs:
        gate_run(run, args.update_baselines)
        log("%s [%s]: %.0f s, %s; %s" % (run["name"], run["policy"], run.get("wall", 0), counts(run), run["gate"]))
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
