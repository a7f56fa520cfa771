"""Expectation baselines for CI gating (deqp-runner style), on framesync results.json files.

A baseline lists the results of one compositor that are known not to be passes:

    # comments and blank lines are ignored
    basic/request-layout [ewmh-1.5],Fail  # mutter sends requests only during interactive resizes
    drawn/after-update [draft-2011],Skip  # does not list _NET_WM_SYNC_DRAWN
    interactive/value-increases [ewmh-1.5],Flake  # the second request sometimes comes after 2 s

One line per `CASE-ID [PROFILE],STATUS`, STATUS one of Fail, Unresolved, Flake, Skip; an optional
`# comment` says why, in the compositor's terms (its function or file), never a copied
diagnostic.  `--update-baseline` ends each comment with `[seen XXXXXXXX]`, a fingerprint of the
diagnostic the comment was written for (its clause and wording, numbers left out); when a kept
comment's diagnostic changes, the update lists that line as "comment to re-check" and leaves the
old fingerprint, until someone reads the line again and deletes the tag.  Before it, a Fail line
(and a Flake line) gets `[level LEVEL]`: the level of the clause the failure is filed under (MUST, SHOULD, must,
should: lowercase, implied, defect: a crash or hang), so that a reader of the baseline can weigh
the failures it accepts; the update writes it afresh each time, and a line without it (older
baselines, or written by hand) is read as well.  `CASE-ID,STATUS` without a profile applies to
every profile of the case.
Every result not listed must be a Pass.  The results match the baseline exactly when there is no
new failure (Fail/Unresolved where the baseline expects Pass or Skip), no new pass (a listed
Fail/Unresolved/Skip that passed: fixed, remove it from the baseline), no new flake (a result that
failed and then passed on a re-run, where the baseline does not say Flake) and no new skip.  A
Flake line accepts Pass, Fail and Flake.  Lines for cases that were not run are reported, not
counted as mismatches (a --filter run).

Failing cases are re-run (`--reruns N`, default 2) with the harness's `--filter '^(id|...)$'
--profile P,... --out OUT/rerun-K` (one harness run per re-run); a case that passes on any re-run is a Flake.

A run that tested nothing (results.json's "run" verdict is UNRESOLVED: every case skipped, or
protocol atoms listed and none of the protocol seen) matches no baseline, not even one that
lists every case as Skip, unless --allow-empty was given (to the run or here): a gate that stays
green on such a run would hide a compositor that stopped doing the protocol.

    python3 -m runner.baseline --results OUT/results.json --baseline baselines/mutter.txt \
        [--reruns N --wm mutter] [--update-baseline] [--allow-empty]

Exit status: 0 the results match the baseline (or it was written), 1 they do not (or the run is
UNRESOLVED), 2 usage error.
"""
import argparse
import functools
import hashlib
import os
import re
import subprocess
import sys

from runner import paths, runverdict
from runner.catalog import clause_table
from runner.paths import HARNESS
from runner.results import RunResults, case_level
from runner.terms import level_label

STATUSES = ("Fail", "Unresolved", "Flake", "Skip")
VERDICT_STATUS = {"PASS": "Pass", "FAIL": "Fail", "UNRESOLVED": "Unresolved", "SKIP": "Skip"}
LINE_RE = re.compile(r"^(?P<id>[A-Za-z0-9_./+-]+)(?:\s+\[(?P<profile>[A-Za-z0-9_.-]+)\])?\s*,\s*"
                     r"(?P<status>[A-Za-z]+)\s*(?:#\s?(?P<comment>.*))?$")


class BaselineError(Exception):
    pass


def key(case_id, profile):
    return "%s [%s]" % (case_id, profile)


def parse_baseline(path):
    """-> (entries {key or bare id: (status, comment)}, header lines).  Raises BaselineError."""
    entries, header, errors = {}, [], []
    if not os.path.exists(path):
        return entries, header
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                if not entries:
                    header.append(raw.rstrip("\n"))
                continue
            m = LINE_RE.match(line)
            if not m:
                errors.append("%s:%d: expected `CASE-ID [PROFILE],STATUS  # comment`, got `%s`" % (path, n, line))
                continue
            if m.group("status") not in STATUSES:
                errors.append("%s:%d: status `%s` is not one of %s" % (path, n, m.group("status"), ", ".join(STATUSES)))
                continue
            k = key(m.group("id"), m.group("profile")) if m.group("profile") else m.group("id")
            if k in entries:
                errors.append("%s:%d: `%s` is listed twice" % (path, n, k))
                continue
            entries[k] = (m.group("status"), (m.group("comment") or "").strip())
    if errors:
        raise BaselineError("\n".join(errors))
    return entries, header


def load_results(path):
    """results.json as a document (runner.results reads it: OSError, or ResultsError for a file that
    is not one)."""
    return RunResults.load(path).to_json()


def statuses_of(doc):
    """{key: {"status", "reason", "case"}} from a results document."""
    out = {}
    for c in doc.get("cases", []):
        out[key(c["id"], c["profile"])] = {"status": VERDICT_STATUS.get(c["verdict"], "Unresolved"),
                                           "reason": c.get("reason", ""), "case": c}
    return out


SEEN_RE = re.compile(r"\s*\[seen ([0-9a-f]{8})\]\s*$")


def fingerprint(r):
    """The diagnostic of a result, reduced to what a comment explains: the clause it was filed
    under and the wording without numbers (times, XIDs, counter values change run to run)."""
    c = r.get("case", {})
    text = "%s|%s|%s" % (r["status"], c.get("failed_clause", ""), re.sub(r"0x[0-9a-f]+|\d+", "#", r.get("reason", "")))
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


def split_seen(comment):
    """-> (comment without its tag, the fingerprint or None)."""
    m = SEEN_RE.search(comment or "")
    return ((comment[:m.start()], m.group(1)) if m else (comment or "", None))


LEVEL_TAG_RE = re.compile(r"\s*\[level ([A-Za-z]+)\]\s*$")


def split_level(comment):
    """A comment without its [seen] tag -> (the comment without its [level] tag, the level or None)."""
    m = LEVEL_TAG_RE.search(comment or "")
    return ((comment[:m.start()], m.group(1)) if m else (comment or "", None))


def comment_parts(comment):
    """A baseline line's comment -> (the words someone wrote, level or None, fingerprint or None)."""
    rest, seen = split_seen(comment)
    words, level = split_level(rest)
    return words, level, seen


@functools.lru_cache(maxsize=None)
def catalog():
    return clause_table(paths.clauses_of())


def level_of(r):
    """The level of a failing result: the harness's, else its clause's in the catalog (results
    older than the levels)."""
    c = r.get("case", {})
    return c.get("level") or case_level(c, catalog())


def expected_for(entries, case_id, profile):
    k = key(case_id, profile)
    if k in entries:
        return entries[k]
    return entries.get(case_id, ("Pass", ""))


# ---- re-runs ----

def rerun_failures(results, out_dir, reruns, harness_args, log=None, expected=None):
    """Re-runs every Fail/Unresolved result up to `reruns` times; a case that passes once becomes
    Flake (with the verdicts seen).  harness_args: how to reach the same compositor (--wm ...,
    --cases ...).  expected: baseline entries (parse_baseline); a Fail they expect is not re-run
    (it is as expected already; a re-run would only tell a flake the baseline does not list).
    Mutates and returns results."""
    for k in range(1, reruns + 1):
        failing = {}
        for r in results.values():
            known = expected is not None and r["status"] == "Fail" and \
                expected_for(expected, r["case"]["id"], r["case"]["profile"])[0] == "Fail"
            if r["status"] in ("Fail", "Unresolved") and not known:
                failing.setdefault(r["case"]["profile"], []).append(r["case"]["id"])
        if not failing:
            break
        # one harness run per re-run: every failing id, in every profile one of them failed in
        # (a case re-run in a profile where it passed is ignored)
        ids = sorted({i for v in failing.values() for i in v})
        out = os.path.join(out_dir, "rerun-%d" % k)
        flt = "^(%s)$" % "|".join(re.escape(i) for i in ids)
        cmd = [HARNESS] + harness_args + ["--filter", flt, "--profile", ",".join(sorted(failing)), "--out", out]
        features = os.path.join(out_dir, "features.tsv")  # judge by the first run's probed features
        if os.path.exists(features) and "--features" not in harness_args:
            cmd += ["--features", features]
        if log:
            log("re-run %d/%d of %d case(s) in %s" % (k, reruns, len(ids), ",".join(sorted(failing))))
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        apply_rerun(results, os.path.join(out, "results.json"))
    return results


def apply_rerun(results, rerun_json):
    """Folds one re-run's results.json into results: a Fail/Unresolved that passed is a Flake."""
    try:
        again = statuses_of(load_results(rerun_json))
    except (OSError, ValueError, BaselineError):
        return False
    for kk, r2 in again.items():
        r = results.get(kk)
        if not r or r["status"] not in ("Fail", "Unresolved"):
            continue
        r.setdefault("reruns", []).append(r2["status"])
        if r2["status"] == "Pass":
            r["flake_of"] = r["status"]
            r["status"] = "Flake"
    return True


# ---- comparison ----

def compare(results, entries):
    """-> dict of lists: new_failures, new_passes, new_flakes, new_skips, not_run, ok."""
    report = {"new_failures": [], "new_passes": [], "new_flakes": [], "new_skips": [], "not_run": [],
              "ok": []}
    for k, r in sorted(results.items()):
        c = r["case"]
        want, _ = expected_for(entries, c["id"], c["profile"])
        got = r["status"]
        # a reader weighs new failures (and flakes) by their level
        shown = "%s [%s]" % (got, level_label(level_of(r))) if got in ("Fail", "Flake") else got
        item = (k, shown, want, r.get("reason", ""))
        if want == "Flake" or got == want:
            report["ok"].append(item)
        elif got in ("Fail", "Unresolved"):
            report["new_failures"].append(item)
        elif got == "Flake":
            report["new_flakes"].append(item)
        elif got == "Skip":
            report["new_skips"].append(item)
        elif got == "Pass":
            report["new_passes"].append(item)
    run_ids = {r["case"]["id"] for r in results.values()}
    for k in sorted(entries):
        if k not in results and k.split(" [")[0] not in run_ids:
            report["not_run"].append((k, "-", entries[k][0], ""))
    return report


def matches(report):
    return not (report["new_failures"] or report["new_passes"] or report["new_flakes"] or report["new_skips"])


def format_report(report, name=""):
    lines = []
    titles = [("new_failures", "new failures (fix them, or add them to the baseline)"),
              ("new_passes", "new passes (fixed: remove them from the baseline)"),
              ("new_flakes", "new flakes (failed, then passed on a re-run: mark them Flake)"),
              ("new_skips", "new skips (the compositor claims less than before: add them as Skip)"),
              ("not_run", "baseline lines for cases that were not run")]
    for field, title in titles:
        if field == "not_run" and len(report[field]) > 5:
            lines.append("%s%d %s (a --filter run)" % (name + ": " if name else "", len(report[field]), title))
            continue
        if report[field]:
            lines.append("%s%s:" % (name + ": " if name else "", title))
            for k, got, want, reason in report[field]:
                lines.append("  %s: %s, baseline %s%s" % (k, got, want, ("  (" + reason[:160] + ")") if reason else ""))
    lines.append("%s%s: %d results, %d as expected, %d new failures, %d new passes, %d new flakes, %d new skips"
                 % (name + ": " if name else "", "MATCH" if matches(report) else "MISMATCH",
                    sum(len(report[f]) for f in ("ok", "new_failures", "new_passes", "new_flakes", "new_skips")),
                    len(report["ok"]), len(report["new_failures"]), len(report["new_passes"]),
                    len(report["new_flakes"]), len(report["new_skips"])))
    return "\n".join(lines)


def write_baseline(path, results, entries, header, name="", recheck=None):
    """Writes every non-Pass result; keeps the comments of lines that stay, with the fingerprint
    of the diagnostic they were written for (see the module's comment); the keys of kept
    comments whose diagnostic changed are appended to `recheck` when given."""
    if not header:
        header = ["# framesync baseline%s: the results that are not passes (runner/baseline.py documents the format)."
                  % (" for " + name if name else ""),
                  "# CASE-ID [PROFILE],Fail|Unresolved|Flake|Skip  # why"]
    out = list(header)
    for k, r in sorted(results.items()):
        c = r["case"]
        status = r["status"]
        if status == "Pass":
            old = entries.get(k) or entries.get(c["id"])
            if not old or old[0] != "Flake":
                continue
            status = "Flake"
        old = entries.get(k) or entries.get(c["id"])
        comment, _, seen = comment_parts(old[1] if old else "")
        now = fingerprint(dict(r, status=status))
        if not comment:
            comment, seen = auto_comment(r), None
        elif seen and seen != now and recheck is not None:
            recheck.append((k, r.get("reason", "")))
        # the result's, not the old line's; a Flake too is a failure of that level, some of the time
        level = " [level %s]" % level_of(r) if status in ("Fail", "Flake") else ""
        comment = "%s%s [seen %s]" % (comment.rstrip(), level, seen or now)
        out.append("%s,%s  # %s" % (k, status, comment))
    # lines of cases that were not run (a --filter run) stay as they are
    run_ids = {r["case"]["id"] for r in results.values()}
    kept = ["%s,%s%s" % (k, st, ("  # " + cm) if cm else "") for k, (st, cm) in sorted(entries.items())
            if k not in results and k.split(" [")[0] not in run_ids]
    if kept:
        out = header + sorted(out[len(header):] + kept)
    tmp = path + ".tmp"
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(tmp, "w") as f:
        f.write("\n".join(out) + "\n")
    os.replace(tmp, path)


def format_recheck(recheck, name=""):
    if not recheck:
        return "%sno kept comment has a changed diagnostic" % (name + ": " if name else "")
    lines = ["%s%d comment(s) to re-check: the diagnostic changed since the comment was written "
             "(read the line again, then delete its [seen ...] tag):" % (name + ": " if name else "", len(recheck))]
    lines += ["  %s: now %s" % (k, " ".join(reason.split())[:160]) for k, reason in recheck]
    return "\n".join(lines)


def gate(run, path, update=False):
    """Judges one matrix run (a dict with name, results and maybe error) by its baseline at path,
    for the compositor matrix and the client matrix alike: sets run's gate (one line), match,
    report and gate_text; with update, first writes the baseline and sets recheck (the kept
    comments whose diagnostic changed)."""
    run["baseline_path"] = path
    if run.get("error"):
        run["gate"] = "did not run: " + run["error"].splitlines()[0][:200]
        run["match"] = False
        return
    try:
        entries, header = parse_baseline(path)
    except BaselineError as e:
        run["gate"] = "malformed baseline: %s" % e
        run["match"] = False
        return
    if update:
        recheck = []
        write_baseline(path, run["results"], entries, header, run["name"], recheck=recheck)
        run["recheck"] = format_recheck(recheck, run["name"])
        entries, _ = parse_baseline(path)
    report = compare(run["results"], entries)
    run["report"] = report
    if not os.path.exists(path):
        run["gate"] = "no baseline (%s): run with --update-baselines" % os.path.relpath(path, paths.ROOT)
        run["match"] = False
    else:
        run["match"] = matches(report)
        run["gate"] = "matches baseline" if run["match"] else "MISMATCH"
    run["gate_text"] = format_report(report, run["name"])


def run_verdict_of(run):
    """A matrix run's own verdict (results.json's "run"), for a column: (word, reason); the word is
    complete, UNRESOLVED (it tested nothing), accepted (by --allow-empty), or "-" (not recorded)."""
    v = runverdict.recorded(run.get("doc") or {})
    if not v:
        return "-", ""
    return ("accepted" if v["accepted"] else v["verdict"]), v["reason"]


def runs_that_tested_nothing(runs):
    """[(name, word, reason)] of the matrix runs whose verdict has a reason: UNRESOLVED or accepted."""
    out = []
    for run in runs:
        word, reason = run_verdict_of(run)
        if reason:
            out.append((run["name"], word, reason))
    return out


def auto_comment(r):
    if r.get("note"):
        return r["note"]
    reason = " ".join((r.get("reason") or "").split())
    if r["status"] == "Flake":
        return "flaky: %s, then %s on a re-run (%s)" % (r.get("flake_of", "Fail"), "/".join(r.get("reruns", [])),
                                                         reason[:120])
    return reason[:160]


def main(argv=None, rerun_args=None):
    ap = argparse.ArgumentParser(prog="python3 -m runner.baseline",
                                 description="compare framesync results with an expectation baseline")
    ap.add_argument("--results", required=True, help="results.json (the merged one in OUT/)")
    ap.add_argument("--baseline", help="the baseline file to compare with")
    ap.add_argument("--update-baseline", metavar="FILE", help="write FILE from the results (keeps existing comments)")
    ap.add_argument("--reruns", type=int, default=2, help="re-run failing cases up to N times (default 2; 0: none)")
    ap.add_argument("--wm", help="the compositor to re-run with (default: the command in results.json)")
    ap.add_argument("--cases", help="the case folder to re-run from")
    ap.add_argument("--timeout-scale", help="passed to the harness on re-runs")
    ap.add_argument("--allow-empty", action="store_true",
                    help="a run that tested nothing (results.json's run verdict UNRESOLVED) may match")
    args = ap.parse_args(argv)
    if not args.baseline and not args.update_baseline:
        ap.error("give --baseline FILE and/or --update-baseline FILE")
    try:
        doc = load_results(args.results)
        entries, header = parse_baseline(args.update_baseline or args.baseline)
        if args.baseline and args.update_baseline and args.baseline != args.update_baseline:
            entries, _ = parse_baseline(args.baseline)
    except (OSError, ValueError, BaselineError) as e:
        print("baseline: %s" % e, file=sys.stderr)
        return 2
    results = statuses_of(doc)
    # gating only: the Fail lines the baseline expects are not re-run (an update re-runs them all)
    expected = entries if not args.update_baseline else None
    if args.reruns > 0 and rerun_args is not None:
        rerun_failures(results, os.path.dirname(os.path.abspath(args.results)), args.reruns, rerun_args,
                       log=lambda m: print("baseline: " + m, file=sys.stderr), expected=expected)
    elif args.reruns > 0 and any(r["status"] in ("Fail", "Unresolved") for r in results.values()):
        harness_args = []
        wm = args.wm
        if not wm:
            cmds = {c.get("command") for c in doc.get("compositors", [])}
            cmds.discard(None)
            if len(cmds) == 1 and "fake-wm/fake-wm" not in next(iter(cmds)):
                wm = next(iter(cmds))
        if wm:
            harness_args += ["--wm", wm]
        if args.cases:
            harness_args += ["--cases", args.cases]
        if args.timeout_scale:
            harness_args += ["--timeout-scale", args.timeout_scale]
        rerun_failures(results, os.path.dirname(os.path.abspath(args.results)), args.reruns, harness_args,
                       log=lambda m: print("baseline: " + m, file=sys.stderr), expected=expected)
    report = compare(results, entries)
    if args.update_baseline:
        if entries:
            print(format_report(report))  # what changed against the old lines
        recheck = []
        write_baseline(args.update_baseline, results, entries, header, recheck=recheck)
        print("baseline: wrote %s (%d lines)" % (args.update_baseline,
                                                 sum(1 for r in results.values() if r["status"] != "Pass")))
        print(format_recheck(recheck))
        return unresolved_status(doc, args.allow_empty, 0)
    print(format_report(report))
    return unresolved_status(doc, args.allow_empty, 0 if matches(report) else 1)


def unresolved_status(doc, allow_empty, status):
    """The gate's exit status: never 0 for a run that tested nothing, unless --allow-empty."""
    why = runverdict.unresolved(doc, allow_empty)
    if not why:
        return status
    print("baseline: the run is UNRESOLVED, so it matches no baseline: %s (--allow-empty accepts a run that "
          "tested nothing)" % why)
    return 1


if __name__ == "__main__":
    sys.exit(main())
