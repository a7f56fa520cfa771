"""Merges the output folders of several runs into one, as if they were one run.

    python3 -m runner.merge [--out DIR] [--cases DIR] [--allow-empty] [--fail-on LEVEL] RUN-DIR...

The runs are shards of one run (./run-tests.sh --shard I/N, e.g. one CI job each), runs of
different compositors (or clients), or both.  The merged folder has what a run writes:
results.json, results.tap, junit.xml, index.html and logs/, plus interop.html (clauses x
implementations, at-risk clauses, which wording each implementation follows).

It refuses inconsistent inputs, naming the folders: a folder without results.json; two results
for one case of one implementation; shards of one implementation that were cut from different
case sets (another checkout, --filter or --profile) or do not add up to the whole (a shard missing
or given twice); implementations that ran different case sets.

With one implementation the merged results.json is the unsharded run's, case by case, in the
canonical order (shard I/N counts from 1: its k-th case is case k*N+I-1, counting from 0).  With several, each case also names its
"compositor" (or "client"), and the reports tell the implementations apart.  The probes' crashes
(probe/FEATURE results) come first; every shard probes, so one crash seen by several shards is
kept once.

The merged run is judged here, as a whole: each shard was run without the rule for a run that
tested nothing (one shard may well skip every case of its slice), so runner/runverdict.py decides
it on each implementation's merged cases and feature table: UNRESOLVED when one tested nothing,
unless --allow-empty.  The findings carry their levels; --fail-on must|should|any (default any)
says which levels make the exit status 1.  results.json gets the "run" object, results.tap the
run line and the findings.

Exit status: 0 merged and green, 1 merged with a finding of a --fail-on level, an UNRESOLVED case
or an UNRESOLVED run, 2 refused (the reason on stderr).  Nothing is written outside --out (default
results/merged).
"""
import argparse
import os
import re
import shutil
import sys
import xml.etree.ElementTree as ET

from runner import catalog, paths, runverdict
from runner.catalog import clause_table
from runner.outdir import log_prefix_name
from runner.reports import html, junit
from runner.results import CaseResult, RunResults, findings, merge_compositors, merge_features
from runner.spec import annotate
from runner.spec import interop as intermod
from runner.tapstream import findings_tap, yaml_quoted
from runner.terms import FAIL_ON, PROFILES

RESULT_RE = re.compile(r"^(not )?ok (\d+)(.*)$")
ID_RE = re.compile(r"^ - (\S+) \[([^\]]+)\]")


class MergeError(Exception):
    pass


class Run:
    """One input folder."""

    def __init__(self, folder):
        self.folder = folder
        path = os.path.join(folder, "results.json")
        if not os.path.isfile(path):
            raise MergeError("%s: no results.json (expected the --out folder of a framesync run)" % folder)
        try:
            self.doc = intermod.load(path)
        except intermod.ResultsError as e:
            raise MergeError(str(e))
        self.selection = self.doc.get("selection")
        self.shard = None
        if self.selection and self.selection.get("shard"):
            m = re.match(r"^(\d+)/(\d+)$", str(self.selection["shard"]))
            if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
                raise MergeError("%s: \"selection\" has shard %r (expected I/N with 1 <= I <= N: shards count "
                                 "from 1)" % (path, self.selection["shard"]))
            self.shard = (int(m.group(1)), int(m.group(2)))
        impls, _ = intermod.implementations_of(self.doc, path)
        self.impl_keys = list(impls)
        self.impls = impls
        self.tap = parse_tap(os.path.join(folder, "results.tap"))

    def key_of(self, case):
        for field in ("compositor", "client", "implementation"):
            if case.get(field):
                return intermod.impl_key(case[field], case.get("profile"))
        if len(self.impl_keys) == 1:
            return self.impl_keys[0]
        for k, im in self.impls.items():
            if case.get("profile") in im.supported:
                return k
        raise MergeError("%s: cannot tell which compositor case %s [%s] belongs to"
                         % (self.folder, case.get("id"), case.get("profile")))


def parse_tap(path):
    """results.tap -> {(id, profile): (ok, rest after the number, [yaml lines], [comments before])}"""
    out = {}
    if not os.path.isfile(path):
        return out
    comments, current = [], None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f.read().splitlines():
            if current is not None and line.startswith("  "):
                current[2].append(line)
                continue
            current = None
            m = RESULT_RE.match(line)
            if m:
                idm = ID_RE.match(m.group(3))
                if idm:
                    current = (not m.group(1), m.group(3), [], comments)
                    out[(idm.group(1), idm.group(2))] = current
                comments = []
            elif line.startswith("# ") and not line.startswith(("# framesync:", "# timing:", "# floor:")):
                comments.append(line)
    return out


# ---------------------------------------------------------------- consistency

def group_runs(runs):
    """{implementation key: [Run]} in the order first given; each run belongs to one."""
    groups = {}
    empty = []
    for r in runs:
        keys = {r.key_of(c) for c in r.doc["cases"]} or set(r.impl_keys[:1])
        if not keys:
            empty.append(r)
        for k in keys:
            groups.setdefault(k, [])
            if r not in groups[k]:
                groups[k].append(r)
    # a shard with no case (N larger than the cases) started no compositor: it belongs to the
    # runs cut from the same case set into as many shards
    for r in empty:
        cut = ((r.selection or {}).get("digest"), r.shard[1] if r.shard else None)
        owners = [k for k, rs in groups.items()
                  if any(((x.selection or {}).get("digest"), x.shard[1] if x.shard else None) == cut for x in rs)]
        if not owners:
            raise MergeError("%s has no case and no compositor, and no other run was cut from its case set" % r.folder)
        for k in owners:
            groups[k].append(r)
    return groups


def is_incident(case):
    """A probe's crash (probe/FEATURE): a result of the run's probing, not a case of the selection."""
    return case.get("id", "").startswith("probe/")


def incidents_of(key, runs):
    """The probes' crashes of one implementation, [(case, run)], each (id, profile) once: every
    shard probes the compositor, and the same crash seen twice is one result of the merged run."""
    out, seen = [], set()
    for r in sorted(runs, key=lambda r: r.shard or (0, 0)):
        for c in r.doc["cases"]:
            k = (c.get("id"), c.get("profile"))
            if is_incident(c) and r.key_of(c) == key and k not in seen:
                seen.add(k)
                out.append((c, r))
    return out


def order_cases(key, runs, label):
    """The cases of one implementation in the canonical order, after its probes' crashes:
    [(case, run)].  Raises MergeError on shards that do not fit together."""
    return incidents_of(key, runs) + order_selected(key, runs, label)


def order_selected(key, runs, label):
    """The selected cases (no probe's crash) of one implementation in the canonical order."""
    sharded = [r for r in runs if r.shard]
    if sharded:
        whole = [r for r in runs if not r.shard]
        if whole:
            raise MergeError("two results for every case of %s: %s %s a whole run (no --shard) and %s %s its shards"
                             % (label, ", ".join(r.folder for r in whole), "is" if len(whole) == 1 else "are",
                                ", ".join(r.folder for r in sharded), "is one of" if len(sharded) == 1 else "are"))
        digests = {(r.selection.get("digest"), r.selection.get("cases")) for r in runs if r.selection}
        if len(digests) > 1:
            raise MergeError("the shards of %s were cut from different case sets: %s; run every shard from the same "
                             "checkout with the same --filter and --profile"
                             % (label, "; ".join("%s has %s cases (digest %s, shard %s)" % (
                                 r.folder, (r.selection or {}).get("cases", "?"), (r.selection or {}).get("digest", "-"),
                                 (r.selection or {}).get("shard") or "none") for r in runs)))
        n = sharded[0].shard[1]
        seen = {}
        for r in sharded:
            if r.shard[1] != n:
                raise MergeError("%s is shard %d/%d but %s is shard %d/%d: the shards of one run share N"
                                 % (r.folder, r.shard[0], r.shard[1], sharded[0].folder, *sharded[0].shard))
            if r.shard[0] in seen:
                raise MergeError("two results for shard %d/%d of %s: %s and %s"
                                 % (r.shard[0], n, label, seen[r.shard[0]].folder, r.folder))
            seen[r.shard[0]] = r
        missing = [i for i in range(1, n + 1) if i not in seen]
        if missing:
            raise MergeError("shard%s %s of %s %s missing (given: %s)" % (
                "s" if len(missing) > 1 else "", ", ".join("%d/%d" % (i, n) for i in missing), label,
                "are" if len(missing) > 1 else "is", ", ".join(r.folder for r in sharded)))
        placed = {}
        for r in sharded:
            mine = [c for c in r.doc["cases"] if r.key_of(c) == key and not is_incident(c)]
            for k, c in enumerate(mine):
                placed[k * n + r.shard[0] - 1] = (c, r)
        ordered = [placed[i] for i in sorted(placed)]
    else:
        ordered = [(c, r) for r in runs for c in r.doc["cases"] if r.key_of(c) == key and not is_incident(c)]
        if len(runs) > 1:   # several whole runs of one implementation: by profile, then case file
            ordered.sort(key=lambda cr: (PROFILES.index(cr[0].get("profile")) if cr[0].get("profile") in PROFILES else 9,
                                         re.sub(r":\d+$", "", cr[0].get("file") or cr[0].get("id", ""))))
    where = {}
    for c, r in ordered:
        k = (c.get("id"), c.get("profile"))
        if k in where:
            raise MergeError("two results for one case: %s [%s] of %s is in %s and in %s"
                             % (k[0], k[1], label, where[k].folder, r.folder))
        where[k] = r
    return ordered


def check_same_cases(ordered_by_impl, labels):
    # a probe's crash is the compositor's, not a case: implementations differ in them
    sets = {k: {(c.get("id"), c.get("profile")) for c, _ in v if not is_incident(c)} for k, v in ordered_by_impl.items()}
    keys = list(sets)
    for k in keys[1:]:
        if sets[k] != sets[keys[0]]:
            only_a = sorted(sets[keys[0]] - sets[k])
            only_b = sorted(sets[k] - sets[keys[0]])
            first = ("%s [%s] only in %s" % (only_a[0][0], only_a[0][1], labels[keys[0]]) if only_a else
                     "%s [%s] only in %s" % (only_b[0][0], only_b[0][1], labels[k]))
            raise MergeError("the implementations ran different case sets: %s has %d cases, %s has %d (%s); run them "
                             "with the same cases, --filter and --profile"
                             % (labels[keys[0]], len(sets[keys[0]]), labels[k], len(sets[k]), first))


# ---------------------------------------------------------------- output

def slug(text):
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-")[:60] or "impl"


def log_place(case):
    """Where a result's logs are in a run's logs/, and how their names begin: PROFILE/ and
    basic-value-nonzero. for a case; probes/PROFILE/ and hold-map. for a probe's crash (its log
    is hold-map.crashed.log, beside the probe's own runs)."""
    if is_incident(case):
        return os.path.join("probes", case.get("profile", "")), case["id"].split("/", 1)[1] + "."
    return case.get("profile", ""), log_prefix_name(case.get("id", "")) + "."


def copy_logs(case, run, out, sub):
    """The case's log files into OUT/logs/[sub/]PROFILE/ (a probe's crash: .../probes/PROFILE/);
    -> the new path of its main log."""
    log = case.get("log")
    if not log:
        return log
    folder, stem = log_place(case)
    src_dir = os.path.join(run.folder, "logs", folder)
    dst_dir = os.path.join(out, "logs", *([sub] if sub else []), folder)
    os.makedirs(dst_dir, exist_ok=True)
    if os.path.isdir(src_dir):
        for name in os.listdir(src_dir):
            if name.startswith(stem):
                shutil.copy2(os.path.join(src_dir, name), os.path.join(dst_dir, name))
    return os.path.join(dst_dir, os.path.basename(log))


def merged_features(runs):
    """Each compositor command's probed feature table, once (shards of one compositor share it)."""
    return merge_features(r.doc for r in runs)


def merged_compositors(runs):
    out = merge_compositors(c for r in runs for c in r.doc.get("compositors", []))
    return sorted(out, key=lambda c: PROFILES.index(c.get("profile")) if c.get("profile") in PROFILES else 9)


def tap_text(entries, multi, labels, doc, verdict):
    """entries: [(case, run, key, new log path)] in order; doc: the merged results, for its
    findings; verdict: the merged run's (runverdict.decide).  The summary is the runner's: the
    run line, the findings with their levels, the counts."""
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0, "UNRESOLVED": 0}
    lines = ["TAP version 13", "1..%d" % len(entries)]
    seen_comments = set()
    last_key = None
    for n, (c, run, key, new_log) in enumerate(entries, 1):
        counts[c.get("verdict", "UNRESOLVED")] = counts.get(c.get("verdict", "UNRESOLVED"), 0) + 1
        if multi and key != last_key:
            lines.append("# implementation: %s" % labels[key])
            last_key = key
        t = run.tap.get((c.get("id"), c.get("profile")))
        if t is None:   # no results.tap: the line from results.json
            ok = c.get("verdict") in ("PASS", "SKIP")
            rest = " - %s [%s]" % (c.get("id"), c.get("profile"))
            if c.get("verdict") == "SKIP":
                rest += " # SKIP %s" % (c.get("reason") or "")
            elif c.get("verdict") == "UNRESOLVED":
                rest += " # UNRESOLVED: %s" % (c.get("reason") or "")
            yaml, comments = [], []
        else:
            ok, rest, yaml, comments = t
        for cm in comments:
            k = re.sub(r"\d+(?:\.\d+)?", "N", cm)
            if k not in seen_comments:
                seen_comments.add(k)
                lines.append(cm)
        lines.append("%sok %d%s" % ("" if ok else "not ", n, rest))
        for y in yaml:   # the log is where the merged folder has it now
            if c.get("log") and new_log:
                y = y.replace(yaml_quoted(c["log"])[1:-1], yaml_quoted(new_log)[1:-1])
            lines.append(y)
    summary = (runverdict.summary_line(verdict) or "") + findings_tap(doc["findings"])
    lines += summary.splitlines()
    lines.append("# framesync: %d passed, %d failed, %d skipped, %d unresolved"
                 % (counts["PASS"], counts["FAIL"], counts["SKIP"], counts["UNRESOLVED"]))
    return "\n".join(lines) + "\n"


def display_doc(doc, labels):
    """For the reports of several implementations: each case's id names its implementation."""
    d = dict(doc)
    d["cases"] = []
    for c in doc["cases"]:
        c = dict(c)
        key = intermod.impl_key(c.get("compositor") or c.get("client") or "", c.get("profile"))
        c["id"] = "%s @ %s" % (c.get("id"), labels.get(key, key))
        d["cases"].append(c)
    return d


def write_reports(out, doc, multi, labels, cases_dir, interop):
    shown = display_doc(doc, labels) if multi else doc
    clauses_path = os.path.join(cases_dir, "clauses.txt")
    tree = junit.build(shown, out, clause_table(clauses_path))   # the levels of results without them
    ET.indent(tree, space="  ")
    tree.write(os.path.join(out, "junit.xml"), encoding="UTF-8", xml_declaration=True)
    with open(os.path.join(out, "junit.xml"), "a", encoding="utf-8") as f:
        f.write("\n")
    page = html.render(shown, clause_table(clauses_path), out, out)
    with open(os.path.join(out, "index.html"), "w", encoding="utf-8") as f:
        f.write(page)
    try:
        clauses = catalog.parse_clauses(clauses_path)
    except (OSError, catalog.CatalogError):
        clauses = []
    with open(os.path.join(out, "interop.html"), "w", encoding="utf-8") as f:
        f.write(annotate.render_interop_page(interop, clauses))


def judge(ordered, groups, labels, catalog, allow_empty=False, fail_on="any"):
    """The merged run's verdict (runverdict.decide's shape): the rule of a whole run applied to
    each implementation's merged cases and feature tables, so that one compositor that tested
    nothing is not hidden by another that did; the reasons name the implementation when there are
    several."""
    reasons, status = [], 0
    for k, items in ordered.items():
        cases = [c for c, _ in items]
        v = runverdict.decide({"cases": cases, "features": merged_features(groups[k]),
                               "findings": findings(cases, catalog)}, allow_empty=allow_empty, fail_on=fail_on)
        if v["reason"]:
            reasons.append(("%s: %s" % (labels[k], v["reason"])) if len(ordered) > 1 else v["reason"])
        status = max(status, v["exit_status"])
    reason = "; and ".join(reasons)
    return {"verdict": "UNRESOLVED" if reason and not allow_empty else "complete", "reason": reason,
            "exit_status": status, "accepted": bool(reason) and allow_empty}


def merge(folders, out, cases_dir, allow_empty=False, fail_on="any"):
    runs = [Run(f) for f in folders]
    if os.path.abspath(out) in [os.path.abspath(f) for f in folders]:
        raise MergeError("--out %s is one of the inputs" % out)
    groups = group_runs(runs)
    labels = {}
    for k in groups:
        for r in runs:
            if k in r.impls:
                labels[k] = r.impls[k].label
                break
        labels.setdefault(k, k)
    ordered = {k: order_cases(k, rs, labels[k]) for k, rs in groups.items()}
    check_same_cases(ordered, labels)
    multi = len(groups) > 1
    for name in ("results.json", "results.tap", "junit.xml", "index.html", "interop.html", "logs"):
        p = os.path.join(out, name)
        if os.path.isdir(p):
            shutil.rmtree(p)
        elif os.path.exists(p):
            os.unlink(p)
    os.makedirs(os.path.join(out, "logs"), exist_ok=True)
    entries, cases = [], []
    for k, items in ordered.items():
        sub = slug(labels[k]) if multi else ""
        for c, run in items:
            c2 = dict(c)
            c2["log"] = copy_logs(c, run, out, sub)
            if multi and not any(c.get(f) for f in ("compositor", "client")):
                c2["client" if run.impls.get(k) and run.impls[k].kind == "client" else "compositor"] = k
            entries.append((c, run, k, c2["log"]))
            cases.append(c2)
    for r in runs:   # the compositors' own logs
        src = os.path.join(r.folder, "logs")
        for name in sorted(os.listdir(src)) if os.path.isdir(src) else []:
            if name.startswith("compositor") and name.endswith(".log"):
                tag = ("shard%d-" % r.shard[0]) if r.shard else ""
                shutil.copy2(os.path.join(src, name), os.path.join(out, "logs", "%s%s%s" % (
                    (slug(labels[r.key_of(r.doc["cases"][0])]) + "-") if multi and r.doc["cases"] else "", tag, name)))
    statuses = ["%s: %s" % (r.folder, r.doc.get("status")) for r in runs if r.doc.get("status") != "complete"]
    selections = [r.selection for r in runs if r.selection]
    table = clause_table(os.path.join(cases_dir, "clauses.txt"))   # the levels of results without them
    verdict = judge(ordered, groups, labels, table, allow_empty, fail_on)
    merged = RunResults(started=min((r.doc.get("started") or "") for r in runs),
                        status="complete" if not statuses else "; ".join(statuses),
                        run={k: verdict[k] for k in ("verdict", "reason", "exit_status")},
                        wall_ms=max(float(r.doc.get("wall_ms") or 0) for r in runs),
                        compositors=merged_compositors(runs), features=merged_features(runs),
                        captures=[c for r in runs for c in r.doc.get("captures", [])],
                        findings=findings(cases, table), cases=[CaseResult.from_json(c) for c in cases],
                        ran=None if multi else next((r.doc.get("ran") for r in runs if r.doc.get("ran")), None))
    one_cut = len({(s.get("cases"), s.get("digest")) for s in selections}) == 1
    if (selections and len(selections) == len(runs) and not multi) or (one_cut and multi):
        merged.selection = {"cases": selections[0].get("cases"), "digest": selections[0].get("digest"), "shard": None}
    merged.write(os.path.join(out, "results.json"))
    doc = merged.to_json()
    with open(os.path.join(out, "results.tap"), "w", encoding="utf-8") as f:
        f.write(tap_text(entries, multi, labels, doc, verdict))
    try:
        refs = catalog.parse_cases(cases_dir)
    except OSError:
        refs = {}
    inter = intermod.build([os.path.join(out, "results.json")], refs)
    write_reports(out, doc, multi, labels, cases_dir, inter)
    return doc, runs, groups


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m runner.merge", description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="+", metavar="RUN-DIR", help="the --out folders of the runs to merge")
    ap.add_argument("--out", default=paths.MERGED,
                    help="where the merged run goes (default results/merged)")
    ap.add_argument("--cases", default=paths.CASES, help="the case folder (for the clause catalog)")
    ap.add_argument("--allow-empty", action="store_true",
                    help="exit 0 even when an implementation tested nothing (every case skipped, or protocol atoms "
                         "listed and none of the protocol seen)")
    ap.add_argument("--fail-on", choices=FAIL_ON, default="any",
                    help="which findings make the exit status 1: must (MUST/must and defects), should (also "
                         "SHOULD/should) or any (the default, implied requirements too)")
    a = ap.parse_args(argv)
    try:
        os.makedirs(a.out, exist_ok=True)
        doc, runs, groups = merge(a.folders, a.out, a.cases, a.allow_empty, a.fail_on)
    except MergeError as e:
        sys.stderr.write("runner.merge: refused: %s\n" % e)
        return 2
    except OSError as e:
        sys.stderr.write("runner.merge: %s: %s\n" % (e.filename, e.strerror))
        return 2
    counts = {}
    for c in doc["cases"]:
        counts[c.get("verdict")] = counts.get(c.get("verdict"), 0) + 1
    print("runner.merge: %d folder(s), %d implementation(s), %d cases: %d passed, %d failed, %d skipped, %d unresolved; "
          "%s/{results.json,results.tap,junit.xml,index.html,interop.html}"
          % (len(runs), len(groups), len(doc["cases"]), counts.get("PASS", 0), counts.get("FAIL", 0),
             counts.get("SKIP", 0), counts.get("UNRESOLVED", 0), a.out))
    verdict = runverdict.recorded(doc)
    sys.stdout.write((runverdict.summary_line(verdict) or "") + findings_tap(doc["findings"]))
    return verdict["exit_status"]


if __name__ == "__main__":
    sys.exit(main())
