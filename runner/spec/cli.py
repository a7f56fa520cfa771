"""./run-tests.sh --spec FILE.xml [--spec FILE.xml ...] [--check] [--out DIR] [--results PATH ...]

For each DocBook text: its sync sections' sentences (classified), message layouts, coverage by
the catalog and the cases, lint; with an ewmh-1.5 and a draft-2011 text, the profile diff; with
results, the interop table, the at-risk clauses and which wording each implementation follows.

Writes into --out (default results/spec), for each text STEM (the file name without .xml):
  STEM.html       the annotated spec, lint, stale clauses, interop, at-risk, wordings, profile diff
  STEM.txt        every sentence with its classification, clauses, cases and faults
  STEM.lint.txt   the lint, FILE:LINE: message
  STEM.json       the same for programs
and prints a summary, the lint and what --check found.  Nothing else is written.

Exit status: 0; with --check, 1 when a text has a stale clause or an uncovered normative sentence;
2 on bad input (a file that is not DocBook, a malformed catalog or results file).
"""
import argparse
import json
import os
import re
import sys

from . import annotate
from runner import catalog as catmod
from runner import interop_table
from runner import paths
from . import coverage as covmod
from . import docbook
from . import interop as intermod
from . import lint as lintmod
from . import profilediff
from . import sentences as sentmod

EXIT_USAGE = 2
OPTIONS = "--spec FILE, --check, --out DIR, --results PATH, --cases DIR, --notes FILE, --profile P"
MISSING_VALUE_RE = re.compile(r"^argument (--[a-z-]+): expected one argument$")


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    """An option error is a UsageError (one line, `framesync: ...`, exit status 2), in the words
    the command has always used."""

    def error(self, message):
        m = MISSING_VALUE_RE.match(message)
        raise UsageError("option %s needs a value" % m.group(1) if m else message)


def parser():
    head, _, body = __doc__.partition("\n\n")
    ap = Parser(prog="python3 -m runner spec", usage=head.replace("./run-tests.sh --spec", "%(prog)s"),
                description=body, formatter_class=argparse.RawDescriptionHelpFormatter, add_help=False,
                allow_abbrev=False)
    ap.add_argument("files", nargs="*", metavar="FILE.xml", help="a DocBook text of wm-spec (as --spec FILE.xml)")
    ap.add_argument("--spec", action="append", default=[], metavar="FILE.xml", help="a DocBook text of wm-spec; repeatable")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 when a text has a stale clause or an uncovered normative sentence")
    ap.add_argument("--out", metavar="DIR", help="where the reports go (default results/spec)")
    ap.add_argument("--results", action="append", default=[], metavar="PATH",
                    help="a results.json, a run's --out folder or a folder of them (a matrix's); repeatable")
    ap.add_argument("--cases", default=paths.CASES, metavar="DIR", help="the case folder (default cases/)")
    ap.add_argument("--notes", default=os.path.join(paths.ROOT, "docs", "profiles.md"), metavar="FILE",
                    help="the three texts in the suite's words (default docs/profiles.md)")
    ap.add_argument("--profile", metavar="P", help="read every text as this one's: ewmh-1.5 or draft-2011")
    ap.add_argument("-h", "--help", action="store_true", help="this help")
    return ap


def parse_args(argv):
    """-> the options (specs: the texts, in the order given); raises UsageError, or returns None for
    --help (after printing it)."""
    ap = parser()
    o, unknown = ap.parse_known_args(argv)
    if o.help:
        ap.print_help(sys.stdout)
        return None
    if unknown:
        raise UsageError("`%s` is not an option of --spec (options: %s)" % (unknown[0], OPTIONS))
    if o.profile is not None and o.profile not in catmod.PROFILES[:2]:
        raise UsageError("--profile with --spec takes ewmh-1.5 or draft-2011 (the texts that exist), not `%s`" % o.profile)
    o.specs = o.files + o.spec
    if not o.specs:
        raise UsageError("--spec needs a DocBook file")
    return o


class Report:
    """Everything about one text."""

    def __init__(self, path, extract, whole, profile, coverage, lint, clauses, interop):
        self.path, self.extract, self.whole, self.profile = path, extract, whole, profile
        self.name = os.path.basename(path)
        self.stem = os.path.splitext(self.name)[0]
        self.coverage, self.lint, self.clauses, self.interop = coverage, lint, clauses, interop
        self.diff_rows = []

    def check_failures(self):
        return self.coverage.check_failures()

    def check_summary(self):
        f = self.check_failures()
        if not f:
            return "passes (no stale clause, every normative sentence covered)"
        return "fails: %d stale clause(s), %d uncovered sentence(s)" % (
            len(self.coverage.stale()), len(self.coverage.uncovered()))


def analyse(path, clauses, cases, faults, fault_notes, interop, profile=None):
    doc = docbook.read(path)
    ex = sentmod.extract(doc)
    if not ex.sections:
        raise docbook.DocBookError("%s:1: no section's title names a _NET_WM_SYNC* or _NET_WM_FRAME_* atom "
                                   "(expected wm-spec's DocBook, with its _NET_WM_SYNC_REQUEST section)" % path)
    whole = sentmod.extract(doc, [doc.root])
    profile = profile or covmod.text_profile(ex)
    cov = covmod.build(ex, whole, profile, clauses, cases, faults, fault_notes)
    facts_here = profilediff.facts_of_text(ex, profile)
    facts_other = profilediff.facts_of_clauses(clauses, profile)
    findings = lintmod.lint(ex, path, facts_here, facts_other)
    return Report(path, ex, whole, profile, cov, findings, clauses, interop)


# ---------------------------------------------------------------- text outputs

def summary_lines(r):
    ex, cov = r.extract, r.coverage
    c = ex.counts()
    out = ["%s: read as the %s text%s" % (r.path, r.profile, (" (release %s)" % ex.doc.releaseinfo) if ex.doc.releaseinfo else "")]
    out.append("  sections: %s" % "; ".join("%s (line %d)" % (" > ".join(s.path), s.line) for s in ex.sections))
    out.append("  %d sentences: %d with capital keywords, %d with lowercase keywords only, %d with none"
               % (c["sentences"], c["capital"], c["lowercase only"], c["none"]))
    out.append("  %d requirements, %d permissions, %d information; %d not normative as written (lowercase keywords "
               "only; RFC 8174)" % (c["requirement"], c["permission"], c["information"], len(ex.not_normative())))
    out.append("  %d message layouts: %s" % (len(ex.layouts), ", ".join("%s (line %d)" % (l.name(), l.line) for l in ex.layouts)))
    st = {}
    for s in ex.sentences:
        st[cov.sentence_status(s)[0]] = st.get(cov.sentence_status(s)[0], 0) + 1
    out.append("  sentences: " + ", ".join("%d %s" % (n, k) for k, n in sorted(st.items())))
    ms = {}
    for m in cov.matches.values():
        ms[m.status] = ms.get(m.status, 0) + 1
    out.append("  catalog clauses: " + ", ".join("%d %s" % (n, k) for k, n in sorted(ms.items())))
    unproven = sorted({"%s (%s)" % (cid, ", ".join(ref.id for ref in cov.unproven_cases(cid)))
                       for s in ex.units for cid in cov.clauses_of(s)
                       if cov.clause(cid) and cov.clause(cid).testable and cov.unproven_cases(cid)})
    if unproven:
        out.append("  cases no fault is known to make fail (of their clauses or in tests/fault-collateral.txt): "
                   + "; ".join(unproven))
    if cov.fault_notes:
        out.append("  faults: " + "; ".join(cov.fault_notes))
    return out


def sentence_report(r):
    """STEM.txt: every sentence with its classification and coverage."""
    cov = r.coverage
    out = ["# %s (%s text): the sync sections, sentence by sentence" % (r.path, r.profile), ""]
    last = None
    for u in r.extract.units:
        if u.path != last:
            out += ["", "== %s" % " > ".join(u.path)]
            last = u.path
        if isinstance(u, sentmod.Layout):
            out.append("%s (line %d) layout of %s:" % (u.id, u.line, u.name()))
            out += ["    %-28s %s" % (f, v) for f, v, _ in u.rows]
        else:
            status, detail = cov.sentence_status(u)
            out.append("%s (line %d) [%s%s; %s%s; binds %s%s] %s" % (
                u.id, u.line, u.keyword_class, (": " + ", ".join(u.keywords())) if u.keywords() else "", u.type,
                " + permission" if u.also_permits else "", u.binds, " (inferred)" if u.binds_note else "",
                "NOT NORMATIVE AS WRITTEN" if u.keyword_class == "lowercase only" else ""))
            out.append("    " + u.text)
            out.append("    coverage: %s%s" % (status, (" (" + detail + ")") if detail else ""))
        for cid in cov.clauses_of(u):
            cl = cov.clause(cid)
            cases = cov.cases_of(cid)
            faults = cov.faults_of(cid)
            via = [f for f in cov.faults_via_cases(cid) if f not in faults]
            out.append("    clause %s%s: %s; cases: %s; faults: %s" % (
                cid, (" (" + cov.via[id(u)][cid] + ")") if cid in cov.via.get(id(u), {}) else "",
                "testable" if cl and cl.testable else (cl.get("testable") if cl else "?"),
                ", ".join(c.id for c in cases) or "none",
                ", ".join("%s %s" % (f[3], f[0]) for f in faults) or (
                    ("none of its own; its cases fail under " + ", ".join("%s %s" % (f[3], f[0]) for f in via)) if via
                    else "none: no fault shows these cases can fail" if cases else "-")))
    out += ["", "# catalog clauses against this text"]
    for m in cov.matches.values():
        if m.status in ("stale", "reworded"):
            out.append("%s %s (%s:%d): %s" % (m.status, m.clause.id, m.clause.path,
                                              m.clause.field_lines.get("wording", m.clause.line),
                                              m.closest[2] if m.closest else ""))
    return "\n".join(out) + "\n"


def diff_text(rows):
    out = ["# profile diff: ewmh-1.5 -> draft-2011 -> de-facto ([-removed-] {+added+})", ""]
    for r in rows:
        out.append("%s: %s" % (r.kind, r.section))
        out.append("  draft: " + profilediff.plain(r.ops))
        if r.defacto and r.defacto[0] != "same":
            kind, text, ops, cid, why = r.defacto
            out.append("  de-facto (%s): %s" % (cid or kind, profilediff.plain(ops)))
            out.append("    why: " + why)
        for text, cid, why in (r.defacto_added if r.defacto else []):
            out.append("  de-facto adds (%s): %s" % (cid, text))
            out.append("    why: " + why)
    return "\n".join(out) + "\n"


def to_json(r):
    cov = r.coverage
    sents = []
    for u in r.extract.units:
        d = {"id": u.id, "line": u.line, "section": u.path, "clauses": cov.clauses_of(u)}
        if isinstance(u, sentmod.Layout):
            d.update(kind="layout", message=u.name(), fields=[{"field": f, "value": v, "line": l} for f, v, l in u.rows])
        else:
            status, detail = cov.sentence_status(u)
            d.update(kind="sentence", text=u.text, keywords=u.keywords(), keyword_class=u.keyword_class,
                     type=u.type, binds=u.binds, binds_note=u.binds_note, coverage=status, coverage_detail=detail,
                     normative_as_written=u.keyword_class != "lowercase only")
        sents.append(d)
    doc = {"format": "framesync-spec-1", "file": r.path, "profile": r.profile, "counts": r.extract.counts(),
           "units": sents, "lint": [{"line": f.line, "check": f.check, "message": f.message} for f in r.lint],
           "clauses": {cid: {"status": m.status, "where": m.where, "units": [u.id for u in m.units]}
                       for cid, m in cov.matches.items()},
           "check": r.check_failures()}
    if r.interop and r.interop.impls:
        cells = r.interop.cells()
        doc["interop"] = {"implementations": [{"key": k, "label": im.label, "kind": im.kind}
                                              for k, im in r.interop.impls.items()],
                          "cells": {cl: {k: v[0] for k, v in d.items()} for cl, d in cells.items()},
                          "at_risk": [{"clause": c, "passes": n} for c, n in r.interop.at_risk(r.clauses)],
                          "ready": [{"clause": ev.clause, "proof": [{"codebase": cb, "implementation": n, "case": case}
                                                                    for cb, n, case in ev.proof()]}
                                    for ev in r.interop.evidence(r.clauses) if ev.ready],
                          "levels": {c.id: intermod.clause_level(c) for c in r.clauses if c.id in cells}}
    return doc


def write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


# ---------------------------------------------------------------- main

def main(argv):
    try:
        o = parse_args(argv)
    except UsageError as e:
        sys.stderr.write("framesync: %s\n" % e)
        return EXIT_USAGE
    if o is None:
        return 0
    try:
        clauses = catmod.parse_clauses(os.path.join(o.cases, "clauses.txt"))
        cases = catmod.parse_cases(o.cases)
        faults, fault_notes = catmod.faults_by_clause(paths.ROOT)
        collateral = catmod.collateral_faults(os.path.join(paths.ROOT, "tests", "fault-collateral.txt"), faults)
        inter = intermod.build(o.results, cases) if o.results else None
        notes = None
        if o.notes and os.path.exists(o.notes):
            with open(o.notes, encoding="utf-8") as f:
                notes = f.read()
        reports = [analyse(p, clauses, cases, faults, fault_notes, inter, o.profile) for p in o.specs]
        for r in reports:
            r.coverage.collateral = collateral
    except (docbook.DocBookError, catmod.CatalogError, intermod.ResultsError) as e:
        sys.stderr.write("framesync: %s\n" % e)
        return EXIT_USAGE
    except OSError as e:
        sys.stderr.write("framesync: %s: %s\n" % (e.filename, e.strerror))
        return EXIT_USAGE
    by_profile = {}
    for r in reports:
        by_profile.setdefault(r.profile, r)
    old, new = by_profile.get("ewmh-1.5"), by_profile.get("draft-2011")
    rows = profilediff.build(old.extract if old else None, new.extract if new else None, clauses, notes) if new else []
    out = os.path.abspath(o.out or paths.SPEC)
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        sys.stderr.write("framesync: cannot create the output folder %s: %s\n" % (out, e.strerror))
        return EXIT_USAGE
    failed = False
    stems = {}
    for r in reports:
        r.diff_rows = rows
        stem = r.stem if r.stem not in stems else "%s-%d" % (r.stem, len(stems))
        stems[stem] = r
        write(os.path.join(out, stem + ".html"), annotate.render(r))
        write(os.path.join(out, stem + ".txt"), sentence_report(r))
        write(os.path.join(out, stem + ".lint.txt"), "".join("%s\n" % f for f in r.lint))
        write(os.path.join(out, stem + ".json"), json.dumps(to_json(r), indent=1, ensure_ascii=False) + "\n")
        for line in summary_lines(r):
            print(line)
        print("lint: %d finding%s" % (len(r.lint), "" if len(r.lint) == 1 else "s"))
        for f in r.lint:
            print(f)
        if o.check:
            problems = r.check_failures()
            print("check %s: %s" % (r.name, "passes" if not problems else "FAILS"))
            for p in problems:
                print(p)
            failed = failed or bool(problems)
        print("wrote %s.{html,txt,lint.txt,json}" % os.path.join(out, stem))
        print()
    if rows:
        write(os.path.join(out, "profile-diff.txt"), diff_text(rows))
        print("wrote %s" % os.path.join(out, "profile-diff.txt"))
    if inter and inter.impls:
        risk = inter.at_risk(clauses)
        print("interop: %d implementation(s) from %d results file(s); %d testable clause(s) at risk (passed by fewer "
              "than two independent ones): %s" % (len(inter.impls), len(inter.files), len(risk),
                                                  ", ".join("%s (%d)" % (c, n) for c, n in risk) or "none"))
        ready = interop_table.ready_text(inter.evidence(clauses))
        print("ready to propose (two or more independent implementations pass): %d\n%s"
              % (len(ready), "".join("  %s\n" % line for line in ready)), end="")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
