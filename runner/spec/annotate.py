"""The spec author's page: one self-contained HTML file (inline CSS, no script needed, no network)
with the annotated sync sections, the lint, stale clauses, the interop table, the at-risk
clauses, which wording each implementation follows, and the profile diff."""
import html
import re

from . import coverage as covmod
from . import sentences as sentmod
from .interop import WORDING_COLUMNS, clause_level
from runner.terms import describe_level, level_label

esc = html.escape

VERDICT_WORD = {"PASS": "pass", "FAIL": "fail", "SKIP": "skip", "UNRESOLVED": "unresolved"}
STATUS_CLASS = {"covered": "st-covered", "untestable": "st-untestable", "uncovered": "st-uncovered",
                "not tested": "st-uncovered", "information": "st-info"}
CSS = """
:root { --pass:#1e8449; --fail:#c0392b; --skip:#95a5a6; --unres:#d35400; --line:#d5d8dc; }
* { box-sizing: border-box; }
body { font: 14px/1.5 system-ui, sans-serif; margin: 0 auto; padding: 16px 24px 60px; max-width: 1320px; color: #1c2833; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 30px 0 8px; border-bottom: 1px solid var(--line); }
h3 { font-size: 15px; margin: 18px 0 6px; color: #34495e; }
code, .mono { font: 12.5px ui-monospace, "DejaVu Sans Mono", monospace; }
.meta { color: #566573; } nav a { margin-right: 12px; }
table { border-collapse: collapse; } th, td { border: 1px solid var(--line); padding: 3px 7px; vertical-align: top; text-align: left; }
th { background: #f4f6f7; }
.unit { display: grid; grid-template-columns: 1fr 400px; gap: 14px; padding: 7px 10px; margin: 4px 0;
        border-left: 5px solid #ccc; border-radius: 3px; }
.st-covered { border-left-color: var(--pass); background: #eef8f1; }
.st-untestable { border-left-color: #8e44ad; background: #f6effa; }
.st-uncovered { border-left-color: var(--fail); background: #fdecea; }
.st-info { border-left-color: #d5d8dc; background: #fbfcfc; }
.st-stale { outline: 2px dashed var(--fail); }
.side { font-size: 12.5px; color: #34495e; }
.kw-cap { font-weight: 700; color: #1a5276; } .kw-low { background: #fdebd0; border-bottom: 2px solid #e67e22; }
.chip { display: inline-block; border-radius: 3px; padding: 0 5px; margin: 1px 2px 1px 0; font: 11.5px ui-monospace, monospace;
        background: #ebf5fb; }
.res { display: inline-block; border-radius: 3px; padding: 0 5px; margin: 1px 2px; font-size: 11.5px; color: #fff; }
.pass { background: var(--pass); } .fail { background: var(--fail); } .skip { background: var(--skip); }
.unresolved { background: var(--unres); } .none { background: #eee; color: #888; }
td.pass, td.fail, td.skip, td.unresolved { text-align: center; color: #fff; font-weight: 600; }
td.none { text-align: center; }
.risk { color: var(--fail); font-weight: 700; }
.mixed { font-size: 10.5px; font-weight: 400; opacity: .9; }
.legend span { margin-right: 14px; } .legend i { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: -1px; }
del { background: #fadbd8; color: #922b21; } ins { background: #d5f5e3; color: #145a32; text-decoration: none; }
table.layout td:first-child { font-family: ui-monospace, monospace; white-space: nowrap; }
.lint li { font: 12.5px ui-monospace, monospace; }
.diff td { width: 33%; font-size: 13px; } .why { color: #566573; font-size: 12px; margin-top: 4px; }
.empty { color: #7f8c8d; font-style: italic; }
.level { display: inline-block; border: 1px solid; border-radius: 3px; padding: 0 5px; font-size: 11px; font-weight: 600;
         white-space: nowrap; }
.lv-must { background: #922b21; border-color: #922b21; color: #fff; }
.lv-should { background: #b9770e; border-color: #b9770e; color: #fff; }
.lv-must-lc { color: #922b21; border-style: dashed; } .lv-should-lc { color: #9c640c; border-style: dashed; }
.lv-implied { color: #566573; border-color: #aab7b8; background: #f4f6f7; }
"""


def highlight(s):
    """The sentence with its keywords marked: capitals bold, lowercase-only underlined."""
    marks = [(off, sentmod.CAPITAL_RE.match(s.text, off).end(), "kw-cap") for _, off in s.capitals]
    marks += [(off, off + len(k), "kw-low") for k, off in s.lowercase]
    out, pos = [], 0
    for a, b, cls in sorted(marks):
        if a < pos:
            continue
        out.append(esc(s.text[pos:a]))
        out.append('<span class="%s">%s</span>' % (cls, esc(s.text[a:b])))
        pos = b
    out.append(esc(s.text[pos:]))
    return "".join(out)


def results_html(clause_ids, interop, cells):
    if interop is None or not interop.impls:
        return ""
    parts = []
    for key, im in interop.impls.items():
        got = [cells.get(c, {}).get(key) for c in clause_ids]
        got = [g for g in got if g]
        if not got:
            continue
        cell = min((g[0] for g in got), key=lambda v: {"fail": 0, "unresolved": 1, "pass": 2, "skip": 3}[v])
        cases = sorted({"%s [%s] %s" % (c.get("id"), c.get("profile"), c.get("verdict")) for g in got for c in g[1]})
        parts.append('<span class="res %s" title="%s">%s: %s</span>' % (cell, esc("\n".join(cases)), esc(im.label), cell))
    return "<div>%s</div>" % "".join(parts) if parts else ""


def unit_html(u, cov, interop, cells, stale_units):
    ids = cov.clauses_of(u) if cov else []
    via = cov.via.get(id(u), {}) if cov else {}
    side = []
    if isinstance(u, sentmod.Sentence):
        status, detail = cov.sentence_status(u) if cov else ("information", "")
        side.append('<div><code>%s</code> &middot; line %d</div>' % (esc(u.id), u.line))
        kw = ", ".join(u.keywords()) or "no keyword"
        side.append("<div>keyword: <b>%s</b> (%s) &middot; %s%s &middot; binds %s</div>" % (
            esc(kw), esc(u.keyword_class), esc(u.type), " (also a permission)" if u.also_permits else "",
            esc({"wm": "the WM", "client": "the client"}.get(u.binds, "nobody")) + (
                ' <span class="meta" title="%s">(inferred)</span>' % esc(u.binds_note) if u.binds_note else "")))
        if u.keyword_class == "lowercase only":
            side.append('<div class="risk">not normative as written (RFC 8174)</div>')
        side.append("<div>%s%s</div>" % (esc(status), (": " + esc(detail)) if detail else ""))
        body = highlight(u)
    else:
        status = "covered" if ids else "information"
        side.append('<div><code>%s</code> &middot; line %d &middot; layout of <b>%s</b></div>' % (esc(u.id), u.line, esc(u.name())))
        body = layout_table(u)
    for c in ids:
        cl = cov.clause(c)
        cases = cov.cases_of(c)
        faults = cov.faults_of(c)
        via = cov.faults_via_cases(c) if not faults else []
        side.append('<div><a class="chip" href="#clause-%s">%s</a>%s %s %s</div>' % (
            esc(c), esc(c), (' <span class="meta">(%s)</span>' % esc(via[c])) if c in via else "",
            ('<span class="meta">%d case%s</span>' % (len(cases), "" if len(cases) == 1 else "s")) if cl and cl.testable
            else '<span class="meta">untestable</span>',
            ('<span class="meta" title="%s">&middot; fault-proven</span>' % esc(", ".join("%s %s" % (f[3], f[0]) for f in faults)))
            if faults else
            ('<span class="meta" title="its cases fail under %s">&middot; no fault of its own</span>'
             % esc(", ".join("%s %s" % (f[3], f[0]) for f in via))) if via else
            ('<span class="risk">&middot; no fault</span>' if cl and cl.testable and cases else "")))
    side.append(results_html(ids, interop, cells))
    cls = STATUS_CLASS.get(status, "st-info") + (" st-stale" if id(u) in stale_units else "")
    anchor = "u-" + u.id.replace("/", "-")
    return '<div class="unit %s" id="%s"><div>%s</div><div class="side">%s</div></div>' % (cls, esc(anchor), body, "".join(side))


def layout_table(lay):
    rows = "".join("<tr><td>%s</td><td>%s</td><td class=\"meta\">%d</td></tr>" % (esc(f), esc(v), line)
                   for f, v, line in lay.rows)
    return '<table class="layout"><tr><th>field</th><th>value</th><th>line</th></tr>%s</table>' % rows


def plain_diff_html(text):
    """`[-old-] {+new+}` (coverage.word_diff) as <del>/<ins>."""
    out = esc(text)
    out = re.sub(r"\[-(.*?)-\]", r"<del>\1</del>", out)
    return re.sub(r"\{\+(.*?)\+\}", r"<ins>\1</ins>", out)


def ops_html(ops):
    return " ".join(esc(t) if op == "=" else "<%s>%s</%s>" % ("del" if op == "-" else "ins", esc(t),
                                                              "del" if op == "-" else "ins") for op, t in ops)


LEVEL_CLASS = {"MUST": "lv-must", "SHOULD": "lv-should", "must": "lv-must-lc", "should": "lv-should-lc"}


def level_html(clause):
    """The clause's level as a badge (dashed: lowercase, not normative as written), and its keyword
    when that says more (MUST NOT, MAY)."""
    level = clause_level(clause)
    keyword = clause.get("keyword")
    return '<span class="level %s" title="%s">%s</span>%s' % (
        LEVEL_CLASS.get(level, "lv-implied"), esc(describe_level(level)), esc(level_label(level)),
        (" " + esc(keyword)) if keyword and keyword not in (level, "implied") else "")


def risk_html(interop, clauses):
    """The at-risk clauses, each with its level and how many implementations pass it."""
    by_id = {c.id: c for c in clauses}
    return "<ul>%s</ul>" % "".join('<li><a href="#clause-%s"><code>%s</code></a> %s: %d</li>' % (
        esc(cid), esc(cid), level_html(by_id[cid]), n) for cid, n in interop.at_risk(clauses))


def ready_html(interop, clauses):
    """The clauses ready to propose: passed by two or more independent implementations, each with
    the case that proves it (runner/interop_table.py)."""
    items = []
    for ev in interop.evidence(clauses):
        if ev.ready:
            items.append('<li><a href="#clause-%s"><code>%s</code></a>: %s</li>' % (esc(ev.clause), esc(ev.clause), "; ".join(
                "%s (%s: <code>%s</code>)" % (esc(cb), esc(name), esc(case)) for cb, name, case in ev.proof())))
    return "<ul>%s</ul>" % ("".join(items) or '<li class="empty">none yet</li>')


def interop_html(interop, clauses, cov):
    if interop is None or not interop.impls:
        return '<p class="empty">No results given: add <code>--results DIR</code> (a run\'s --out folder, a results.json, or a folder of them) for each implementation.</p>'
    cells = interop.cells()
    keys = list(interop.impls)
    head = "".join("<th>%s%s</th>" % (esc(interop.impls[k].label),
                                       '<div class="meta">reference, not counted</div>' if interop.impls[k].reference else "")
                   for k in keys)
    rows = []
    for c in clauses:
        cc = cells.get(c.id, {})
        if not c.testable and not cc:
            continue
        n = interop.passes(cc)
        risk = c.testable and n < 2
        tds = []
        for k in keys:
            got = cc.get(k)
            if not got:
                tds.append('<td class="none">&ndash;</td>')
                continue
            title = "\n".join(sorted("%s [%s] %s %s" % (x.get("id"), x.get("profile"), x.get("verdict"), x.get("reason") or "")
                                     for x in got[1]))
            others = sorted({VERDICT_WORD.get(x.get("verdict"), "?") for x in got[1]} - {got[0]})
            tds.append('<td class="%s" title="%s">%s%s</td>' % (
                got[0], esc(title), got[0], ('<div class="mixed">also %s</div>' % esc(", ".join(others))) if others else ""))
        in_text = ""
        if cov and cov.matches.get(c.id) and cov.matches[c.id].units:
            u = cov.matches[c.id].units[0]
            in_text = '<a href="#u-%s">%s</a>' % (esc(u.id.replace("/", "-")), esc(u.id))
        rows.append('<tr id="clause-%s"><td><code>%s</code><div class="meta">%s &middot; binds %s</div></td>%s%s<td>%d%s</td></tr>' % (
            esc(c.id), esc(c.id), level_html(c), esc(c.get("binds")),
            "<td>%s</td>" % in_text if cov else "", "".join(tds), n,
            ' <span class="risk">at risk</span>' if risk else ""))
    return ('<table><tr><th>clause</th>%s%s<th>independent implementations passing</th></tr>%s</table>'
            % ("<th>in the text</th>" if cov else "", head, "".join(rows)))


def wording_html(interop):
    if interop is None or not interop.impls:
        return '<p class="empty">No results given.</p>'
    w = interop.wordings()
    rows = []
    for k, im in interop.impls.items():
        tds = []
        for col in WORDING_COLUMNS:
            items = w.get(k, {}).get(col, [])
            tds.append("<td>%s</td>" % ("<br>".join('<span title="%s">%s</span>%s' % (
                esc(ev), esc(text), (' <span class="meta">(%s)</span>' % esc(wd)) if wd else "") for text, wd, ev in items)
                or '<span class="empty">no evidence</span>'))
        rows.append("<tr><td>%s</td>%s</tr>" % (esc(im.label), "".join(tds)))
    return "<table><tr><th>implementation</th>%s</tr>%s</table>" % (
        "".join("<th>%s</th>" % esc(c) for c in WORDING_COLUMNS), "".join(rows))


def diff_html(rows):
    if not rows:
        return '<p class="empty">Give the ewmh-1.5 and the draft-2011 texts (two --spec options) for the diff.</p>'
    out = ['<table class="diff"><tr><th>ewmh-1.5</th><th>draft-2011 (changes from 1.5)</th><th>de-facto (changes from the draft, and why)</th></tr>']
    for r in rows:
        old = esc(covmod.unit_text(r.old)) if r.old else '<span class="empty">(not in 1.5)</span>'
        new = ops_html(r.ops) if r.new else '<span class="empty">(removed)</span>'
        if r.new and r.kind == "added":
            new = "<ins>%s</ins>" % esc(covmod.unit_text(r.new))
        d = ""
        if r.defacto:
            kind, text, ops, cid, why = r.defacto
            if kind == "same":
                d = '<span class="meta">as the draft</span>'
            elif kind == "dropped":
                d = '<del>%s</del><div class="why">%s</div>' % (esc(covmod.unit_text(r.new)), esc(why))
            else:
                d = '%s<div class="why"><code>%s</code>: %s</div>' % (ops_html(ops), esc(cid), esc(why))
        out.append("<tr><td>%s</td><td>%s</td><td>%s</td></tr>" % (old, new, d))
        for text, cid, why in (r.defacto_added if r.defacto else []):
            out.append('<tr><td></td><td></td><td><ins>%s</ins><div class="why"><code>%s</code>: %s</div></td></tr>'
                       % (esc(text), esc(cid), esc(why)))
    out.append("</table>")
    return "".join(out)


def render(report):
    """report: the cli's Report for one text."""
    ex, cov, interop = report.extract, report.coverage, report.interop
    cells = interop.cells() if interop else {}
    c = ex.counts()
    stale = cov.stale() if cov else []
    stale_units = set()
    h = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>framesync spec: %s</title><style>%s</style></head><body>'
         % (esc(report.name), CSS)]
    h.append('<h1>%s</h1><div class="meta">%s &middot; read as the <b>%s</b> text &middot; %s</div>' % (
        esc(report.name), esc(ex.doc.path), esc(report.profile),
        esc("release: " + ex.doc.releaseinfo if ex.doc.releaseinfo else "")))
    h.append('<nav><a href="#text">annotated text</a><a href="#layouts">layouts</a><a href="#rfc8174">not normative as written</a>'
             '<a href="#lint">lint</a><a href="#stale">stale</a><a href="#interop">interop</a><a href="#risk">at risk</a>'
             '<a href="#wording">wordings</a><a href="#diff">profile diff</a></nav>')
    h.append("<p><b>%d sentences</b>: %d with capital keywords, %d with lowercase keywords only, %d with none; "
             "%d requirements, %d permissions, %d information. <b>--check: %s</b></p>" % (
                 c["sentences"], c["capital"], c["lowercase only"], c["none"], c["requirement"], c["permission"],
                 c["information"], esc(report.check_summary())))
    h.append('<div class="legend"><span><i class="st-covered" style="background:var(--pass)"></i>tested</span>'
             '<span><i style="background:#8e44ad"></i>untestable (the catalog says why)</span>'
             '<span><i style="background:var(--fail)"></i>uncovered / not tested</span>'
             '<span><i style="background:#d5d8dc"></i>information</span>'
             '<span><span class="kw-cap">MUST</span> capital keyword</span><span><span class="kw-low">must</span> lowercase only</span></div>')
    h.append('<h2 id="text">The sync sections, annotated</h2>')
    last_path = None
    for u in ex.units:
        if u.path != last_path:
            h.append("<h3>%s</h3>" % esc(" > ".join(u.path)))
            last_path = u.path
        h.append(unit_html(u, cov, interop, cells, stale_units))
    if cov and cov.outside_units:
        h.append("<h3>Quoted by the catalog from elsewhere in the text</h3>")
        for u in cov.outside_units:
            h.append('<div class="unit st-info" id="u-%s"><div>%s</div><div class="side">%s, line %d: %s</div></div>' % (
                esc(u.id.replace("/", "-")), esc(covmod.unit_text(u)), esc(" > ".join(u.path)), u.line,
                ", ".join('<a class="chip" href="#clause-%s">%s</a>' % (esc(m.clause.id), esc(m.clause.id))
                          for m in cov.matches.values() if u in m.units)))
    h.append('<h2 id="layouts">Message layouts</h2>')
    for lay in ex.layouts:
        h.append("<h3>%s <span class=\"meta\">(%s, line %d)</span></h3>%s" % (esc(lay.name()), esc(" > ".join(lay.path)),
                                                                               lay.line, layout_table(lay)))
    h.append('<h2 id="rfc8174">Not normative as written</h2><p>The text declares RFC 2119; RFC 8174 says only the '
             'capitalised keywords have that meaning. These %d sentences state requirements or permissions with '
             'lowercase keywords only:</p><ul>' % len(ex.not_normative()))
    for s in ex.not_normative():
        h.append('<li><a href="#u-%s">line %d</a>: %s <span class="meta">(%s, binds %s)</span></li>' % (
            esc(s.id.replace("/", "-")), s.line, highlight(s), esc(s.type), esc(s.binds)))
    h.append("</ul>")
    h.append('<h2 id="lint">Lint (%d)</h2><ul class="lint">%s</ul>' % (
        len(report.lint), "".join("<li>%s</li>" % esc(str(f)) for f in report.lint) or '<li class="empty">nothing</li>'))
    h.append('<h2 id="stale">Catalog wording against this text</h2>')
    if cov:
        items = []
        for m in stale + cov.reworded():
            cl = m.clause
            items.append("<li><b>%s</b> <code>%s</code> (%s:%d): %s</li>" % (
                esc(m.status), esc(cl.id), esc(cl.path), cl.field_lines.get("wording", cl.line),
                plain_diff_html(m.closest[2]) if m.closest else ""))
        h.append("<ul>%s</ul>" % ("".join(items) or '<li class="empty">every clause quoted from this text is in it</li>'))
    h.append('<h2 id="interop">Interop: clauses &times; implementations</h2>')
    h.append('<p class="meta">pass, fail, skip (not implemented or does not apply), unresolved (the suite could not '
             'decide); hover a cell for its cases. Results: %s</p>' % esc(", ".join(interop.files) if interop else "none"))
    h.append(interop_html(interop, report.clauses, cov))
    h.append('<h2 id="risk">At risk: passed by fewer than two independent implementations</h2>')
    if interop and interop.impls:
        h.append(risk_html(interop, report.clauses))
        h.append('<h2 id="ready">Ready to propose: passed by two or more independent implementations</h2>')
        h.append(ready_html(interop, report.clauses))
    else:
        h.append('<p class="empty">No results given.</p>')
    h.append('<h2 id="wording">Which wording each implementation follows</h2>')
    h.append(wording_html(interop))
    h.append('<h2 id="diff">Profile diff: ewmh-1.5, draft-2011, de-facto</h2>')
    h.append(diff_html(report.diff_rows))
    h.append("</body></html>\n")
    return "\n".join(h)


def render_interop_page(interop, clauses):
    """interop.html of runner.merge: the tables without a spec text."""
    files = ", ".join(interop.files) if interop else ""
    return "\n".join([
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>framesync interop</title><style>%s</style>'
        "</head><body><h1>Interop: clauses &times; implementations</h1>" % CSS,
        '<p class="meta">From %s. pass, fail, skip (not implemented or does not apply), unresolved (the suite could '
        "not decide); hover a cell for its cases. The spec text annotated with these results: "
        "<code>./run-tests.sh --spec wm-spec.xml --results THIS-FOLDER</code>.</p>" % esc(files),
        interop_html(interop, clauses, None),
        '<h2 id="risk">At risk: passed by fewer than two independent implementations</h2>',
        risk_html(interop, clauses) if interop and interop.impls else "",
        '<h2 id="ready">Ready to propose: passed by two or more independent implementations</h2>',
        ready_html(interop, clauses) if interop and interop.impls else "",
        '<h2 id="wording">Which wording each implementation follows</h2>', wording_html(interop),
        "</body></html>\n"])
