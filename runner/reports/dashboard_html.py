"""The dashboard's HTML (runner/dashboard.py has the data): one page that opens from its folder,
no network; the profile and level filters are a few lines of plain JavaScript."""
import html

from runner import provenance
from runner.terms import LEVELS, level_label, level_of_keyword

SHORT = {"pass": "pass", "fail": "FAIL", "skip": "skip", "unresolved": "unres"}
CSS = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.2em; color: #1c2833; }
h1 { font-size: 1.5em; margin: 0 0 .3em; } h2 { font-size: 1.2em; margin: 1.4em 0 .4em; }
.meta { color: #566573; font-size: 12px; }
table { border-collapse: collapse; }
th, td { border: 1px solid #d5d8dc; padding: 3px 5px; vertical-align: top; }
th { background: #f4f6f7; font-weight: 600; }
.grid-wrap { overflow-x: auto; max-width: 100%; }
.grid th.col { font-size: 12px; min-width: 54px; max-width: 76px; word-wrap: break-word; }
.grid td.clause { position: sticky; left: 0; background: #fff; min-width: 300px; max-width: 400px; z-index: 1; }
.grid td.clause code { font-size: 12px; font-weight: 600; }
.grid td.clause .wording { font-size: 12px; color: #34495e; display: -webkit-box; -webkit-line-clamp: 2;
  -webkit-box-orient: vertical; overflow: hidden; }
.grid tr.section td { background: #eaf2f8; font-weight: 600; }
.grid tr.section td:first-child { position: sticky; left: 0; z-index: 1; }
.grid td.colname { font-size: 11px; text-align: center; color: #34495e; word-wrap: break-word; max-width: 80px; }
.grid .ver { font-weight: normal; color: #566573; display: block; }
.grid td.cell { text-align: center; font-size: 12px; white-space: nowrap; }
td.pass { background: #d5f5e3; } td.fail { background: #f5b7b1; } td.skip { background: #f2f3f4; color: #7f8c8d; }
td.unresolved { background: #fdebd0; } td.none { color: #bbb; }
td.cell a { color: inherit; } td.cell a.bl { font-size: 10px; margin-left: 2px; color: #6c3483; }
td.newfail { outline: 3px solid #c0392b; outline-offset: -3px; } td.newpass { outline: 3px solid #1e8449; outline-offset: -3px; }
.mark { font-size: 10px; display: block; font-weight: 700; }
.flake { color: #9c640c; }
td.score { text-align: right; white-space: nowrap; font-size: 12px; }
.ready { color: #1e8449; font-weight: 700; }
.level { font-size: 11px; border: 1px solid #aab7b8; border-radius: 3px; padding: 0 3px; white-space: nowrap; }
.lv-MUST { background: #922b21; color: #fff; } .lv-SHOULD { background: #b9770e; color: #fff; }
.lv-must { color: #922b21; border-style: dashed; } .lv-should { color: #9c640c; border-style: dashed; }
.lv-defect { background: #17202a; color: #fff; }
.filters { background: #f8f9f9; border: 1px solid #d5d8dc; padding: 6px 10px; margin: .6em 0; position: sticky; top: 0; z-index: 3; }
.filters label { margin-right: 10px; white-space: nowrap; }
.view { display: none; } .view.on { display: block; }
.note { color: #922b21; } .nowrap { white-space: nowrap; }
ul.tight li { margin: 2px 0; }
"""
SCRIPT = """
function apply() {
  var view = document.querySelector('input[name=view]:checked').value;
  document.querySelectorAll('.view').forEach(function (d) { d.classList.toggle('on', d.dataset.view === view); });
  var off = {};
  document.querySelectorAll('input[name=level]').forEach(function (c) { if (!c.checked) off[c.value] = 1; });
  document.querySelectorAll('tr[data-level]').forEach(function (r) { r.style.display = off[r.dataset.level] ? 'none' : ''; });
}
document.querySelectorAll('.filters input').forEach(function (i) { i.addEventListener('change', apply); });
apply();
"""


def esc(x):
    return html.escape(str(x), quote=True)


def level_badge(level):
    return '<span class="level lv-%s">%s</span>' % (esc(level), esc(level_label(level)))


def record_level(rec):
    return rec.get("level") or level_of_keyword(rec.get("keyword"))


def shown_case(cell, cases):
    """The case a cell links to: one whose verdict made the cell."""
    want = {"pass": "PASS", "fail": "FAIL", "skip": "SKIP", "unresolved": "UNRESOLVED"}[cell]
    return next((c for c in cases if c.get("verdict") == want), cases[0])


def cell_html(col, view, cid, logs, baselines):
    got = col.cells[view].get(cid)
    if not got:
        return '<td class="cell none">&ndash;</td>'
    cell, cases = got
    case = shown_case(cell, cases)
    classes = ["cell", cell]
    marks = []
    before = col.previous.cells[view].get(cid) if col.previous else None
    if before and any(c.get("flake") for c in before[1] + cases):
        before = None   # a flake on either side is no change
    if before and before[0] == "pass" and cell == "fail":
        classes.append("newfail")
        marks.append('<span class="mark">new fail</span>')
    elif before and before[0] in ("fail", "unresolved") and cell == "pass":
        classes.append("newpass")
        marks.append('<span class="mark">new pass</span>')
    if any(c.get("flake") for c in cases):
        marks.append('<span class="mark flake" title="failed, then passed on a re-run">flaky</span>')
    title = "\n".join("%s [%s] %s %s" % (c.get("id"), c.get("profile"), c.get("verdict"), c.get("reason") or "")
                      for c in cases)
    link = logs.get(col.key, {}).get(case.get("log") or "")
    text = ('<a href="%s">%s</a>' % (esc(link), SHORT[cell])) if link else SHORT[cell]
    bl = baselines.get(col.sub.name, {}).get("%s [%s]" % (case.get("id"), case.get("profile")))
    if bl and cell != "pass":
        text += ' <a class="bl" href="%s" title="baseline %s: %s">why</a>' % (esc(bl[2]), esc(bl[0]), esc(bl[1]))
    return '<td class="%s" title="%s">%s%s</td>' % (" ".join(classes), esc(title), text, "".join(marks))


def column_names(dash):
    """The columns' names again on each section's row: the grid is long."""
    return "".join('<td class="colname">%s<span class="ver">%s</span></td>' % (esc(c.sub.name), esc(c.sub.version))
                   for c in dash.columns)


def header_html(dash):
    cols = "".join('<th class="col" title="%s">%s<span class="ver">%s</span></th>' % (
        esc(provenance.summary(c.sub.ran)), esc(c.sub.name), esc(c.sub.version)) for c in dash.columns)
    return '<thead><tr><th>clause and level</th><th title="independent implementations passing / running it">' \
           'score</th>%s</tr></thead>' % cols


def counts_row(dash, view):
    tds = []
    for col in dash.columns:
        n = {}
        for c in col.sub.cases:
            if view == "all" or c.get("profile") == view:
                n[c.get("verdict")] = n.get(c.get("verdict"), 0) + 1
        tds.append('<td class="cell" title="cases: pass / FAIL / skip / unresolved">%d/%d/%d/%d</td>' % (
            n.get("PASS", 0), n.get("FAIL", 0), n.get("SKIP", 0), n.get("UNRESOLVED", 0)))
    return '<tr><td class="clause"><b>cases</b> <span class="meta">pass/FAIL/skip/unresolved (as the matrix counts)' \
           '</span></td><td></td>%s</tr>' % "".join(tds)


def grid_html(dash, view, logs, baselines):
    rows, summary = [], []
    for section, members in dash.sections():
        evs = {ev.clause: ev for ev in dash.evidence(view, [cid for cid, _, _ in members])}
        shares = [p / t for p, t in (dash.score(evs[cid]) for cid, _, _ in members) if t]
        sec_score = ("%d %%" % round(100 * sum(shares) / len(shares))) if shares else "&ndash;"
        ready = sum(1 for ev in evs.values() if ev.ready)
        summary.append((section, sec_score, ready, len(members), len(shares)))
        names = column_names(dash) if rows else '<td colspan="%d"></td>' % len(dash.columns)   # the header is above the first
        rows.append('<tr class="section"><td colspan="2">%s <span class="meta">score %s &middot; %d of %d ready</span></td>'
                    '%s</tr>' % (esc(section), sec_score, ready, len(members), names))
        for cid, rec, known in members:
            passing, tested = dash.score(evs[cid])
            star = ' <span class="ready" title="passed by two or more independent implementations">ready</span>' \
                if evs[cid].ready else ""
            rows.append('<tr data-level="%s"><td class="clause"><code>%s</code>%s %s<div class="wording" title="%s">%s</div>'
                        '</td><td class="score">%s</td>%s</tr>' % (
                            esc(record_level(rec)), esc(cid), star, level_badge(record_level(rec)),
                            esc(rec.get("wording") or ""), esc(rec.get("wording") or ""),
                            "%d/%d" % (passing, tested) if tested else "&ndash;",
                            "".join(cell_html(col, view, cid, logs, baselines) for col in dash.columns)))
    rows.append(counts_row(dash, view))
    table = '<div class="grid-wrap"><table class="grid">%s<tbody>%s</tbody></table></div>' % (header_html(dash), "".join(rows))
    return table, summary


def sections_html(summary):
    rows = "".join('<tr><td>%s</td><td class="score">%s</td><td class="score">%d / %d</td><td class="score">%d / %d</td>'
                   '</tr>' % (esc(s), score, ran, n, ready, n) for s, score, ready, n, ran in summary)
    return ('<table><tr><th>section</th><th>interop score</th><th title="clauses some implementation ran (not skipped):'
            ' the score is their mean">clauses run</th><th>clauses ready</th></tr>%s</table>' % rows)


def submissions_html(dash):
    rows = []
    for col in dash.columns:
        ran, sub = col.sub.ran, col.sub.submitted
        c = ran.get("compositor") or {}
        where = c.get("origin") or c.get("source") or "?"
        if c.get("commit"):
            where += " @ %s" % c["commit"][:12]
        rows.append('<tr><td>%s</td><td>%s</td><td>%s</td><td>%s%s</td><td>%s %s</td><td>%s%s</td>'
                    '<td class="nowrap">%s, %s%s</td></tr>' % (
            esc(col.sub.name), esc(col.sub.version), esc(col.sub.codebase), esc(where),
            ('<div class="meta">recipe: %s</div>' % esc(c["recipe"])) if c.get("recipe") else "",
            esc((ran.get("xserver") or {}).get("name", "?")), esc((ran.get("xserver") or {}).get("version", "")),
            esc(((ran.get("suite") or {}).get("commit") or "not recorded")[:12]), " (dirty)" if (ran.get("suite") or {}).get("dirty") else "",
            esc(sub.get("host", "?")), esc(sub.get("at", "?")), " <b>from another machine</b>" if col.sub.foreign else ""))
    return ("<table><tr><th>implementation</th><th>version</th><th>code base</th><th>source</th><th>X server</th>"
            "<th>suite commit</th><th>submitted</th></tr>%s</table>" % "".join(rows))


def history_html(dash):
    """Each implementation with several versions: every version, against the one before."""
    items = []
    several = {c.previous.sub.name for c in dash.columns if c.previous}
    for col in dash.columns:
        if col.sub.name not in several:
            continue
        h = dash.history(col)
        parts = []
        for what in ("new failures", "new passes", "flakes", "flaky before"):
            if what == "flaky before" and not h[what]:
                continue
            if not col.previous and what in ("new failures", "new passes"):
                continue
            parts.append("<li><b>%s</b> (%d): %s</li>" % (what, len(h[what]), esc(", ".join(h[what])) or "none"))
        title = ("%s &rarr; %s" % (esc(col.previous.sub.version), esc(col.sub.version))) if col.previous else \
            "%s (the first version here)" % esc(col.sub.version)
        items.append("<h3>%s %s</h3><ul class=\"tight\">%s</ul>" % (esc(col.sub.name), title, "".join(parts)))
    return ('<p class="meta">new failures / new passes: against the previous version; flakes: failed, then passed on '
            'a re-run; flaky before: changed only because the previous version\'s result was a flake.</p>'
            + "".join(items)) if items else '<p class="meta">No implementation has two versions here.</p>'


def ready_html(dash):
    draft = [cid for cid, rec, known in dash.records if known and rec.get("testable", True)
             and set(rec.get("profiles") or []) & {"draft-2011", "de-facto"}]
    rows = []
    for ev in dash.evidence("all", draft):
        rows.append('<tr><td><code>%s</code>%s</td><td>%s</td><td>%s</td></tr>' % (
            esc(ev.clause), ' <span class="ready">ready</span>' if ev.ready else "", len(ev.codebases),
            esc("; ".join("%s (%s: %s)" % p for p in ev.proof())) or '<span class="meta">none passes</span>'))
    return ('<table><tr><th>clause (draft-2011 and de-facto texts)</th><th>independent</th><th>code base '
            '(implementation: the case that proves it)</th></tr>%s</table>' % "".join(rows))


def filters_html():
    views = "".join('<label><input type="radio" name="view" value="%s"%s> %s</label>' % (
        v, " checked" if v == "all" else "", v) for v in ("all", "ewmh-1.5", "draft-2011", "de-facto"))
    levels = "".join('<label><input type="checkbox" name="level" value="%s" checked> %s</label>' % (
        lv, esc(level_label(lv))) for lv in reversed(LEVELS))
    return '<div class="filters"><b>profile</b> %s &nbsp; <b>level</b> %s</div>' % (views, levels)


def render(dash, views_shown, logs, baselines, notes):
    """views_shown: the profile filter's choices (runner/dashboard.py's VIEWS)."""
    views, summaries = [], {}
    for view in views_shown:
        table, summary = grid_html(dash, view, logs, baselines)
        summaries[view] = summary
        views.append('<div class="view" data-view="%s"><h2>Interop score by section (%s)</h2>%s'
                      '<h2 id="grid-%s">Clauses &times; implementation &times; version (%s)</h2>%s</div>'
                      % (view, view, sections_html(summary), view, view, table))
    return "\n".join([
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>framesync interop dashboard</title>'
        '<style>%s</style></head><body>' % CSS,
        "<h1>framesync interop dashboard</h1>",
        '<p class="meta">%d submission(s). A cell is the clause\'s verdict for one implementation version (FAIL if any '
        'case failed it, else unresolved, pass, skip); its link opens the case\'s log, <i>why</i> the baseline '
        'line that explains it; hover for every case. <b>new fail</b> / <b>new pass</b>: against the previous version '
        'of that implementation. Score: independent implementations (code bases: mutter, mutter-wayland and muffin are '
        'one; kwin_x11 and kwin_wayland one; metacity and marco one; sway and cage one; picom+openbox counts only '
        'where neither part passes alone; fake-wm never) passing the clause, over those that ran it (not skipped), '
        'each at its newest version; a section\'s score is the mean of its clauses\'. <b>ready</b>: passed by two or '
        'more independent implementations.</p>' % len(dash.columns),
        ('<p class="note">Catalog check: %d note(s), listed under <a href="#ran">What ran</a>.</p>' % len(notes))
        if notes else "",
        filters_html(), "".join(views),
        '<h2 id="history">History across versions</h2>', history_html(dash),
        '<h2 id="evidence">Evidence for spec authors: ready to propose</h2>', ready_html(dash),
        '<h2 id="ran">What ran: the submissions</h2>', submissions_html(dash),
        ("<ul>%s</ul>" % "".join('<li class="note">%s</li>' % esc(n) for n in notes)) if notes else "",
        "<script>%s</script></body></html>\n" % SCRIPT])


def baseline_page(name, lines):
    rows = "".join('<tr id="L%d"><td class="meta">%d</td><td><code>%s</code></td></tr>' % (n, n, esc(line))
                   for n, line in enumerate(lines, 1))
    return ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>baselines/%s.txt</title><style>%s'
            ' tr:target { background: #fcf3cf; } td { border: 0; white-space: pre-wrap; }</style></head><body>'
            '<h1>baselines/%s.txt</h1><table>%s</table></body></html>\n' % (esc(name), CSS, esc(name), rows))
