"""framesync matrix: the suite against every installed named compositor (compositors/*.conf).

    python3 -m runner.matrix [--jobs 2] [--reruns 2] [--only NAME,...] [--update-baselines]
    ./run-tests.sh --matrix ...        make matrix

For each installed compositor it runs the harness (`--wm NAME`) on the cases in cases/ (plus
any group folder staged in cases-interactive/, merged into OUT/cases; none now), `--jobs` compositors at
a time (each run has its own Xvfb); re-runs the failing cases (`--reruns`) to tell flakes from
failures; compares each with baselines/NAME.txt (runner/baseline.py); and writes
results/matrix.md and results/matrix.html: compositor x case [profile], ok / FAIL / skip with the
reason, plus what each compositor claims (_NET_SUPPORTED, _NET_WM_CM_S0), each compositor's
findings with their levels (MUST, SHOULD, lowercase must/should, implied, defect) and the verdict
of its run (UNRESOLVED when it tested nothing; shown, not gated here: the baseline decides).

Exit status: 0 when every compositor that ran matches its baseline, 1 otherwise (a missing
baseline is a mismatch; --update-baselines writes them), 2 on a usage error.
Standard library only.
"""
import argparse
import concurrent.futures
import html
import os
import shutil
import sys
import time

from runner import baseline as bl, client_matrix, paths
from runner.matrix_runs import findings_of, gate, gate_lines, listing, logger, run_one
from runner.terms import PROFILES, describe_level, level_label

log = logger("matrix")
# the atoms of the protocols under test, shown as the compositor's claims
CLAIM_ATOMS = ["_NET_WM_SYNC_REQUEST", "_NET_WM_SYNC_REQUEST_COUNTER", "_NET_WM_SYNC_DRAWN",
               "_NET_WM_FRAME_DRAWN", "_NET_WM_FRAME_TIMINGS", "_NET_WM_SYNC_FENCES", "_NET_WM_MOVERESIZE"]
# Which text a compositor follows where the profiles differ, and how it must be provoked: when
# the first case fails (in its profile) and the second passes, the first failure is explained by
# the note (in the matrix and in new baseline lines).  (failing id, its profile or None = any,
# passing id, its profile or None = the same as the failing one, note)
READINGS = [
    ("extended/l4-zero-draft", "draft-2011", "extended/l4-marker-defacto", "de-facto",
     "follows de-facto's wording: an extended request carries l[4] = 1, not the draft's \"other data.l[] elements = 0\""),
    ("extended/l4-marker-defacto", "de-facto", "extended/l4-zero-draft", "draft-2011",
     "follows draft-2011's wording: an extended request keeps l[4] = 0 (no de-facto marker)"),
    ("extended/plus-240-defacto", "de-facto", "extended/plus-100-each-request", "de-facto",
     "follows draft-2011's +100, not de-facto's +240"),
]

def annotate(results):
    """Sets r["note"] on failures that READINGS explain."""
    for fid, fprof, pid, pprof, note in READINGS:
        for k, r in results.items():
            c = r["case"]
            if c["id"] != fid or (fprof and c["profile"] != fprof) or r["status"] not in ("Fail", "Unresolved"):
                continue
            other = results.get(bl.key(pid, pprof or c["profile"]))
            if other and other["status"] == "Pass":
                r["note"] = note


CELL = {"Pass": "ok", "Fail": "FAIL", "Unresolved": "UNRESOLVED", "Skip": "skip", "Flake": "FLAKE"}


def list_wms():
    """[(name, installed, composites, ready, command)] from `framesync-harness --list-wms`."""
    return [(r[0], r[1] == "yes", r[2] == "yes", r[3], r[4]) for r in listing("--list-wms", 5, "matrix")]


def merged_cases(out):
    """OUT/cases: cases/ plus every group folder of cases-interactive/."""
    dst = os.path.join(out, "cases")
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(paths.CASES, dst)
    extra = os.path.join(paths.ROOT, "cases-interactive")
    if os.path.isdir(extra):
        for group in sorted(os.listdir(extra)):
            src = os.path.join(extra, group)
            if os.path.isdir(src):
                shutil.copytree(src, os.path.join(dst, group), dirs_exist_ok=True)
    return dst


def run_wm(name, args, cases):
    extra = (["--timeout-scale", args.timeout_scale] if args.timeout_scale else []) + \
        (["--filter", args.filter] if args.filter else [])
    return run_one(name, ["--wm", name, "--cases", cases], args.out, args.reruns, args.reuse, log, extra=extra,
                   annotate=annotate)


# ---------------------------------------------------------------- reports

# the feature table's columns, in the order a user asks about them (featureset.c names them)
FEATURE_COLUMNS = ["wm", "compositing", "trigger-configure", "trigger-keyboard", "trigger-pointer", "trigger-map",
                   "extended", "hold", "sync-drawn", "frame-drawn", "frame-timings", "fences"]


def feature_rows(run):
    """[(profiles, {feature: (state, why)})] of a run: one row per distinct table (a real
    compositor has one; fake-wm one per profile when they differ)."""
    rows = []
    for t in (run.get("doc") or {}).get("features") or []:
        # present is true, false, or null: unknown (its probe could not decide, or cannot see it
        # here) is never shown as absent
        feats = {name: ({True: "present", False: "absent"}.get(f.get("present"), "unknown"), f.get("detail", ""))
                 for name, f in (t.get("features") or {}).items()}
        cmd = t.get("command", "")
        prof = next((p for p in PROFILES if "--profile " + p in cmd), "all")
        for profs, other in rows:
            if {k: v[0] for k, v in other.items()} == {k: v[0] for k, v in feats.items()}:
                profs.append(prof)
                break
        else:
            rows.append(([prof], feats))
    return rows


def finding_md(f):
    return "`%s` [%s] (%s)" % (f["clause"], level_label(f["level"]), ", ".join(f["summary"]))


def failure_status(r):
    """`Fail [MUST]`: a failing result's status with the level of the clause it is filed under."""
    return "%s [%s]" % (r["status"], level_label(bl.level_of(r))) if r["case"].get("verdict") == "FAIL" \
        else r["status"]


def claims(run):
    """(composites, ready_ms, supported set, command, wm name) from the first compositor record."""
    comps = (run.get("doc") or {}).get("compositors") or []
    if not comps:
        return None
    c = comps[0]
    return {"composites": c.get("composites"), "ready_ms": c.get("ready_ms"), "name": c.get("name"),
            "supported": set(c.get("supported", [])), "command": c.get("command"),
            "nsupported": len(c.get("supported", []))}


def rows_of(runs):
    keys = {}
    for run in runs:
        for k, r in run["results"].items():
            c = r["case"]
            keys[k] = (PROFILES.index(c["profile"]) if c["profile"] in PROFILES else 9, c["id"], c["profile"],
                       (c.get("clauses") or [c.get("failed_clause", "")])[0])   # a probe's crash has none
    return sorted(keys.items(), key=lambda kv: kv[1])


def short(text, n=90):
    text = " ".join((text or "").split())
    return text if len(text) <= n else text[: n - 1] + "…"


def md_claims(runs, missing):
    """What each compositor claims at start-up, its run's verdict and its baseline's."""
    L = ["## What each compositor claims at start-up and how it compares with its baseline", "",
         "| compositor | wm name | composites (_NET_WM_CM_S0) | ready ms | "
         + " | ".join(a.replace("_NET_WM_", "") for a in CLAIM_ATOMS) + " | wall s | run | baseline |",
         "|---" * (5 + len(CLAIM_ATOMS) + 2) + "|"]
    for run in runs:
        cl = claims(run)
        verdict = bl.run_verdict_of(run)[0]
        if not cl:
            L.append("| %s | - | - | - | %s | %.0f | %s | %s |" % (run["name"], " | ".join("-" for _ in CLAIM_ATOMS),
                                                                   run["wall"], verdict, run.get("gate", "")))
            continue
        L.append("| %s | %s | %s | %.0f | %s | %.0f | %s | %s |" % (
            run["name"], cl["name"] or "-", "yes" if cl["composites"] else "no", cl["ready_ms"] or 0,
            " | ".join("listed" if a in cl["supported"] else "-" for a in CLAIM_ATOMS), run["wall"],
            verdict, run.get("gate", "")))
    empty = bl.runs_that_tested_nothing(runs)
    if empty:
        L += ["", "Runs that tested nothing (the run column; `./run-tests.sh --baseline` does not pass such a run "
                  "without --allow-empty, the baseline column here compares the results only):", ""]
        L += ["- **%s**: %s: %s" % (name, word, reason) for name, word, reason in empty]
    if missing:
        L += ["", "Not installed here (not run): " + ", ".join(missing) + "."]
    return L


def md_features(runs):
    L = ["", "## What each compositor implements (probed at start-up)", "",
         "`yes` it does, `-` it does not, `?` not decided (its probe could not tell, or cannot see it "
         "here: the reason is in the HTML report and features.tsv)", "",
         "| compositor | profiles | " + " | ".join(FEATURE_COLUMNS) + " |",
         "|---|---|" + "---|" * len(FEATURE_COLUMNS)]
    for run in runs:
        for profs, feats in feature_rows(run):
            L.append("| %s | %s | %s |" % (run["name"], ", ".join(profs), " | ".join(
                {"present": "yes", "absent": "-"}.get(feats.get(f, ("?",))[0], "?")
                for f in FEATURE_COLUMNS)))
    L += ["", "## Findings: distinct clauses broken, each once, with the level of the clause's keyword", ""]
    for run in runs:
        found = findings_of(run)
        L.append("- **%s**: %s" % (run["name"], "none" if not found else "; ".join(finding_md(f) for f in found)))
    return L


def md_results(runs):
    """compositor x case [profile]; a skip's reason is a numbered note below the table."""
    names = [r["name"] for r in runs]
    L = ["", "## Results", "", "| case [profile] | clause | " + " | ".join(names) + " |",
         "|---|---|" + "---|" * len(names)]
    notes, note_ids = [], {}
    for k, (_, cid, prof, clause) in rows_of(runs):
        cells = []
        for run in runs:
            r = run["results"].get(k)
            if not r:
                cells.append("")
                continue
            cell = CELL.get(r["status"], r["status"])
            if r["status"] == "Skip":
                reason = short(r["reason"], 200)
                if reason not in note_ids:
                    note_ids[reason] = len(note_ids) + 1
                    notes.append(reason)
                cell = "skip[%d]" % note_ids[reason]
            cells.append(cell)
        L.append("| %s [%s] | %s | %s |" % (cid, prof, clause, " | ".join(cells)))
    if notes:
        L += ["", "Skip reasons:", ""]
        L += ["%d. %s" % (i + 1, n) for i, n in enumerate(notes)]
    return L


def md_failures(runs):
    L = ["", "## Failures, with the diagnostic's reason", ""]
    for run in runs:
        bad = [(k, r) for k, r in sorted(run["results"].items()) if r["status"] in ("Fail", "Unresolved", "Flake")]
        if run.get("error"):
            L += ["### %s" % run["name"], "", "did not run: `%s`" % short(run["error"], 400), ""]
            continue
        if not bad:
            continue
        L += ["### %s (%d)" % (run["name"], len(bad)), ""]
        for k, r in bad:
            L.append("- `%s` %s: %s%s" % (k, failure_status(r), short(r["reason"], 220),
                                          (" — **%s**" % r["note"]) if r.get("note") else ""))
        L.append("")
    return L


def write_md(path, runs, missing, wall, args):
    L = ["# framesync matrix", "",
         "Generated by `runner/matrix.py` in %.0f s wall time (%d compositor(s) %d at a time, up to %d re-runs of "
         "failing cases). Cells: `ok`, `FAIL`, `UNRESOLVED`, `FLAKE` (failed, passed on a re-run), `skip` "
         "(the reason is in the notes below the table)." % (wall, len(runs), args.jobs, args.reruns), ""]
    L += md_claims(runs, missing) + md_features(runs) + md_results(runs) + md_failures(runs)
    L += ["## Baseline comparison", "", "```"] + gate_lines(runs) + ["```", ""]
    with open(path, "w") as f:
        f.write("\n".join(L))


def write_html(path, runs, missing, wall, args):
    esc = html.escape
    names = [r["name"] for r in runs]
    H = ["<!doctype html><meta charset=utf-8><title>framesync matrix</title>",
         "<style>body{font:13px sans-serif}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
         "padding:2px 6px}td.ok{background:#dfd}td.FAIL,td.UNRESOLVED{background:#fbb}td.FLAKE{background:#fe9}"
         "td.skip{background:#eee;color:#666}th{background:#f4f4f4;position:sticky;top:0}"
         "td.UNRESOLVED-run{background:#fbb;font-weight:bold}.level{font-size:11px;border:1px solid #999;"
         "border-radius:3px;padding:0 4px;white-space:nowrap}.level.lc{border-style:dashed}</style>",
         "<h1>framesync matrix</h1><p>%.0f s wall time, %d compositor(s), %d at a time, up to %d re-runs. "
         "Hover a cell for the reason.</p>" % (wall, len(runs), args.jobs, args.reruns)]
    H.append("<h2>Claims and baselines</h2><table><tr><th>compositor<th>wm name<th>composites<th>ready ms"
             + "".join("<th>%s" % esc(a) for a in CLAIM_ATOMS) + "<th>wall s<th>run<th>baseline</tr>")
    for run in runs:
        cl = claims(run) or {"name": "-", "composites": None, "ready_ms": 0, "supported": set()}
        verdict, reason = bl.run_verdict_of(run)
        H.append('<tr><td>%s<td>%s<td>%s<td>%.0f%s<td>%.0f<td class="%s-run" title="%s">%s<td>%s</tr>' % (
            esc(run["name"]), esc(cl["name"] or "-"), "yes" if cl["composites"] else "no", cl["ready_ms"] or 0,
            "".join("<td>%s" % ("listed" if a in cl["supported"] else "-") for a in CLAIM_ATOMS), run["wall"],
            esc(verdict), esc(reason), esc(verdict), esc(run.get("gate", ""))))
    H.append("</table>")
    empty = bl.runs_that_tested_nothing(runs)
    if empty:
        H.append("<p>Runs that tested nothing (<code>./run-tests.sh --baseline</code> does not pass such a run without "
                 "--allow-empty; the baseline column here compares the results only):</p><ul>%s</ul>"
                 % "".join("<li><b>%s</b>: %s: %s" % (esc(n), esc(w), esc(r)) for n, w, r in empty))
    if missing:
        H.append("<p>Not installed (not run): %s</p>" % esc(", ".join(missing)))
    H.append("<h2>What each compositor implements (probed at start-up)</h2><table><tr><th>compositor<th>profiles"
             + "".join("<th>%s" % esc(f) for f in FEATURE_COLUMNS) + "</tr>")
    for run in runs:
        for profs, feats in feature_rows(run):
            H.append("<tr><td>%s<td>%s%s</tr>" % (esc(run["name"]), esc(", ".join(profs)), "".join(
                '<td class="%s" title="%s">%s' % ("ok" if feats.get(f, ("?",))[0] == "present" else "skip",
                                                  esc(feats.get(f, ("?", ""))[1]),
                                                  {"present": "yes", "absent": "-"}.get(feats.get(f, ("?",))[0], "?"))
                for f in FEATURE_COLUMNS)))
    H.append("</table><h2>Findings: distinct clauses broken, each once, with the level of the clause's keyword</h2><ul>")
    for run in runs:
        found = findings_of(run)
        H.append("<li><b>%s</b>: %s" % (esc(run["name"]), "none" if not found else "; ".join(
            '<code>%s</code> <span class="level%s" title="%s">%s</span> (%s)'
            % (esc(f["clause"]), " lc" if f["level"] in ("must", "should") else "", esc(describe_level(f["level"])),
               esc(level_label(f["level"])), esc(", ".join(f["summary"]))) for f in found)))
    H.append("</ul>")
    H.append("<h2>Results</h2><table><tr><th>case [profile]<th>clause" + "".join("<th>%s" % esc(n) for n in names) + "</tr>")
    for k, (_, cid, prof, clause) in rows_of(runs):
        H.append("<tr><td>%s [%s]<td>%s" % (esc(cid), esc(prof), esc(clause)))
        for run in runs:
            r = run["results"].get(k)
            if not r:
                H.append("<td>")
                continue
            cls = CELL.get(r["status"], r["status"])
            log_path = os.path.relpath(r["case"].get("log", ""), os.path.dirname(path)) if r["case"].get("log") else ""
            H.append('<td class="%s" title="%s">%s%s%s' % (
                cls, esc(r["reason"] or ""), '<a href="%s">' % esc(log_path) if log_path and cls != "ok" else "",
                esc(cls if cls != "skip" else "skip: " + short(r["reason"], 60)), "</a>" if log_path and cls != "ok" else ""))
        H.append("</tr>")
    H.append("</table><h2>Baseline comparison</h2><pre>%s</pre>" % esc(
        "\n".join(gate_lines(runs))))
    with open(path, "w") as f:
        f.write("\n".join(H))


def main(argv=None):
    if "--clients" in (argv if argv is not None else sys.argv[1:]):  # the applications, not compositors
        return client_matrix.main(argv)
    ap = argparse.ArgumentParser(prog="run-tests.sh --matrix", description="the suite against every installed named compositor")
    ap.add_argument("--jobs", type=int, default=2, help="compositors run at a time (default 2)")
    ap.add_argument("--reruns", type=int, default=2, help="re-run failing cases up to N times (default 2)")
    ap.add_argument("--only", help="comma-separated compositor names (default: every installed one)")
    ap.add_argument("--out", default="/tmp/framesync-matrix", help="where each run's output goes")
    ap.add_argument("--report-dir", default=paths.OUTPUT, help="where matrix.md/.html go")
    ap.add_argument("--timeout-scale", help="passed to the harness")
    ap.add_argument("--filter", help="passed to the harness (a partial matrix; baseline lines of cases not run are not mismatches)")
    ap.add_argument("--reuse", action="store_true",
                    help="run nothing: make the reports (and baselines) again from the files of an earlier run in --out")
    ap.add_argument("--update-baselines", action="store_true", help="write baselines/NAME.txt from the results")
    args = ap.parse_args(argv)
    wms = list_wms()
    known = {w[0] for w in wms}
    only = [n for n in args.only.split(",") if n] if args.only else None
    if only:
        unknown = [n for n in only if n not in known]
        if unknown:
            log("unknown compositor(s): %s (known: %s)" % (", ".join(unknown), ", ".join(sorted(known))))
            return 2
    chosen = [w for w in wms if (not only or w[0] in only)]
    missing = [w[0] for w in chosen if not w[1]]
    todo = [w[0] for w in chosen if w[1]]
    if not todo:
        log("no named compositor is installed (see compositors/README.md)")
        return 1
    os.makedirs(args.out, exist_ok=True)
    cases = os.path.join(args.out, "cases") if args.reuse else merged_cases(args.out)
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        runs = list(pool.map(lambda n: run_wm(n, args, cases), todo))
    wall = time.monotonic() - start
    wall_file = os.path.join(args.out, "matrix-wall.txt")
    if args.reuse:
        try:
            with open(wall_file) as f:
                wall = float(f.read())
        except (OSError, ValueError):
            pass
    else:
        with open(wall_file, "w") as f:
            f.write("%.1f\n" % wall)
    for run in runs:
        gate(run, paths.BASELINES, args.update_baselines)
    os.makedirs(args.report_dir, exist_ok=True)
    md, page = os.path.join(args.report_dir, "matrix.md"), os.path.join(args.report_dir, "matrix.html")
    write_md(md, runs, missing, wall, args)
    write_html(page, runs, missing, wall, args)
    print("\n".join(gate_lines(runs)))
    ok = all(run.get("match") for run in runs)
    print("matrix: %d compositor(s) in %.0f s, %s; %s, %s" % (len(runs), wall,
          "all match their baselines" if ok else "NOT all match their baselines", md, page))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
