"""A self-contained HTML report from a framesync results.json: one file, inline CSS and JS, no
external resources, opens from the local folder without a server.

    python3 -m runner.reports.html OUT/results.json [-o OUT/index.html] [--clauses cases/clauses.txt]

It shows the run's verdict when the run tested nothing (UNRESOLVED, or accepted by
--allow-empty), the counts per profile and per clause group, the compositors (command, name,
claimed features), the findings with their levels (the keyword of the clause broken), a table of
the cases with filters (verdict, profile, text), and for each failing case its level, the
clause's wording, expected/observed, a link to the case log, an SVG timeline drawn from the log's
`timeline:` section and the case's PNG screenshots, if the log folder has any.
"""
import base64
import html
import os
import re
import sys
import urllib.parse

from runner import paths
from runner.catalog import clause_table
from runner.reports import certifier, figures
from runner.reports.common import (PSEUDO_CLAUSES, clause_group, parse_timeline, read_text, report_command,
                                   resolve_log, screenshots)
from runner.reports.timeline_svg import fmt_ms, svg_timeline
from runner.results import RunResults, case_level, failed_clause, findings
from runner.runverdict import recorded
from runner.terms import LEVELS, PROFILES, VERDICTS, describe_level, level_label

SYNC_ATOMS = ["_NET_WM_SYNC_REQUEST", "_NET_WM_SYNC_REQUEST_COUNTER", "_NET_WM_SYNC_DRAWN",
              "_NET_WM_FRAME_DRAWN", "_NET_WM_FRAME_TIMINGS", "_NET_WM_SYNC_FENCES"]
IMAGE_EMBED_LIMIT = 3 * 1024 * 1024     # per image; bigger ones are linked
IMAGES_TOTAL_LIMIT = 24 * 1024 * 1024

esc = html.escape


def anchor(case):
    return "case-" + "".join(ch if ch.isalnum() else "-" for ch in "%s-%s" % (case.get("profile"), case.get("id")))


def href_for(path, page_dir):
    """A link from the page to a local file: relative when it is inside the page's folder (the
    folder can then be moved or downloaded), a file: URL otherwise."""
    path = os.path.abspath(path)
    rel = os.path.relpath(path, page_dir)
    if not rel.startswith(".." + os.sep) and rel != "..":
        return urllib.parse.quote(rel.replace(os.sep, "/"))
    return "file://" + urllib.parse.quote(path)


# ---------------------------------------------------------------- the page

CSS = """
:root { --pass:#1e8449; --fail:#c0392b; --skip:#7f8c8d; --unres:#d35400; --line:#d5d8dc; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto;
       padding: 16px 24px 48px; max-width: 1240px; color: #1c2833; background: #fff; }
h1 { font-size: 22px; margin: 4px 0 2px; } h2 { font-size: 18px; margin: 28px 0 8px;
     border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 0 0 8px; }
code, .mono, pre { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 4px 8px;
       border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #f4f6f7; font-weight: 600; } td.nw { white-space: nowrap; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; min-width: 88px; text-align: center; border-radius: 3px; color: #fff;
         font-weight: 600; font-size: 12px; padding: 1px 6px; }
.PASS { background: var(--pass); } .FAIL { background: var(--fail); } .SKIP { background: var(--skip); }
.UNRESOLVED { background: var(--unres); }
.totals { display: flex; gap: 10px; margin: 10px 0; flex-wrap: wrap; }
.total { border: 1px solid var(--line); border-radius: 4px; padding: 6px 14px; min-width: 120px; }
.total b { font-size: 22px; display: block; } .meta { color: #566573; }
.grid2 { display: grid; grid-template-columns: 1fr 1fr; gap: 24px; }
.yes { color: var(--pass); font-weight: 700; } .no { color: #b2babb; }
.filters { display: flex; gap: 16px; align-items: center; flex-wrap: wrap; margin: 8px 0;
           padding: 8px 10px; background: #f4f6f7; border-radius: 4px; }
.filters input[type=search] { width: 280px; padding: 3px 6px; }
tr.FAIL-row td:first-child, tr.UNRESOLVED-row td:first-child { font-weight: 600; }
article.failure { border: 1px solid var(--line); border-left: 5px solid var(--fail); border-radius: 4px;
                  padding: 12px 14px; margin: 14px 0; }
article.failure.UNRESOLVED-art { border-left-color: var(--unres); }
dl.diag { display: grid; grid-template-columns: 110px 1fr; gap: 3px 12px; margin: 0 0 10px; }
dl.diag dt { color: #566573; } dl.diag dd { margin: 0; }
blockquote { margin: 0; padding: 4px 10px; border-left: 3px solid #aeb6bf; background: #f8f9f9; }
.timeline { display: block; max-width: 100%; height: auto; margin: 8px 0; }
.timeline .lane0 { fill: #fbfcfc; } .timeline .lane1 { fill: #f2f4f4; }
.timeline .lanelabel { font: 11px ui-monospace, monospace; text-anchor: end; fill: #34495e; }
.timeline .kind { font: 9.5px system-ui, sans-serif; fill: #4d5656; }
.timeline .herelabel { fill: #c0392b; font-weight: 700; }
.timeline .gap { fill: #eaeded; opacity: .8; } .timeline .gaplabel { font: 10px sans-serif; fill: #7f8c8d; text-anchor: middle; }
.timeline .here { stroke: #c0392b; stroke-width: 1.5; stroke-dasharray: 4 3; }
.timeline .here-mark { stroke: #c0392b; stroke-width: 2.5; }
.timeline .counterbox { fill: #fdfefe; stroke: #d5d8dc; }
.timeline .step { fill: none; stroke-width: 1.8; } .timeline .value { font: 10px ui-monospace, monospace; }
.timeline .legend { font: 11px ui-monospace, monospace; }
.timeline .axis { stroke: #566573; } .timeline .tick { font: 10px sans-serif; text-anchor: middle; fill: #566573; }
.timeline .axistitle { font: 11px sans-serif; fill: #7f8c8d; }
.shots { display: flex; gap: 12px; flex-wrap: wrap; } .shots figure { margin: 0; }
.shots img { max-width: 360px; border: 1px solid var(--line); image-rendering: pixelated; }
.shots figcaption { font-size: 12px; color: #566573; }
details > summary { cursor: pointer; color: #2874a6; } pre { white-space: pre; overflow-x: auto;
       background: #f8f9f9; padding: 8px; border: 1px solid var(--line); max-height: 420px; }
table.features td { font-size: 12px; vertical-align: top; }
ol.findings li { margin-bottom: 10px; }
code.finding { font-weight: bold; color: var(--fail); }
.chip { display: inline-block; background: #ebf5fb; border-radius: 3px; padding: 0 5px; margin: 1px;
        font: 11.5px ui-monospace, monospace; }
.empty { color: #7f8c8d; font-style: italic; }
.level { display: inline-block; border: 1px solid; border-radius: 3px; padding: 0 6px; font-size: 11.5px;
         font-weight: 600; white-space: nowrap; vertical-align: 1px; }
.lv-must { background: #922b21; border-color: #922b21; color: #fff; }
.lv-should { background: #b9770e; border-color: #b9770e; color: #fff; }
.lv-must-lc { color: #922b21; border-style: dashed; background: #fff; }
.lv-should-lc { color: #9c640c; border-style: dashed; background: #fff; }
.lv-implied { color: #566573; border-color: #aab7b8; background: #f4f6f7; }
.lv-defect { background: #1c2833; border-color: #1c2833; color: #fff; }
h2 .meta { font-size: 14px; font-weight: 400; }
.run-banner { margin: 10px 0; padding: 8px 12px; border-radius: 4px; border: 1px solid; }
.run-banner.unresolved { background: #fbeee6; border-color: var(--unres); border-left-width: 6px; }
.run-banner.accepted { background: #f4f6f7; border-color: #aab7b8; border-left-width: 6px; }
[hidden] { display: none !important; }
"""

JS = """
(function () {
  var rows = Array.prototype.slice.call(document.querySelectorAll('#case-table tbody tr'));
  var arts = Array.prototype.slice.call(document.querySelectorAll('article.failure'));
  var boxes = Array.prototype.slice.call(document.querySelectorAll('input[name=verdict]'));
  var prof = document.getElementById('f-profile'), text = document.getElementById('f-text');
  var count = document.getElementById('f-count');
  function shown(el, verdicts, p, q) {
    return verdicts[el.getAttribute('data-verdict')] && (!p || el.getAttribute('data-profile') === p) &&
           (!q || el.getAttribute('data-text').indexOf(q) >= 0);
  }
  function apply() {
    var verdicts = {}; boxes.forEach(function (b) { verdicts[b.value] = b.checked; });
    var p = prof.value, q = text.value.trim().toLowerCase(), n = 0;
    rows.forEach(function (r) { var s = shown(r, verdicts, p, q); r.hidden = !s; if (s) n++; });
    arts.forEach(function (a) { a.hidden = !shown(a, verdicts, p, q); });
    count.textContent = n + ' of ' + rows.length + ' shown';
  }
  boxes.forEach(function (b) { b.addEventListener('change', apply); });
  prof.addEventListener('change', apply); text.addEventListener('input', apply);
  document.getElementById('f-failures').addEventListener('click', function () {
    boxes.forEach(function (b) { b.checked = b.value === 'FAIL' || b.value === 'UNRESOLVED'; }); apply();
  });
  document.getElementById('f-all').addEventListener('click', function () {
    boxes.forEach(function (b) { b.checked = true; }); prof.value = ''; text.value = ''; apply();
  });
  apply();
})();
"""


def counts_of(cases):
    c = {v: 0 for v in VERDICTS}
    for case in cases:
        if case.get("verdict") in c:
            c[case["verdict"]] += 1
    return c


def count_row(label, cases, label_html=None):
    c = counts_of(cases)
    cells = "".join('<td class="num">%s</td>' % (c[v] if c[v] else '<span class="no">0</span>') for v in VERDICTS)
    return "<tr><td>%s</td>%s<td class=\"num\">%d</td></tr>" % (label_html or esc(label), cells, len(cases))


def count_table(title, groups):
    head = "".join('<th class="num">%s</th>' % v for v in VERDICTS)
    rows = "".join(count_row(k, v) for k, v in groups)
    return ('<table class="counts"><thead><tr><th>%s</th>%s<th class="num">cases</th></tr></thead>'
            "<tbody>%s</tbody></table>" % (esc(title), head, rows or '<tr><td colspan="6" class="empty">none</td></tr>'))


def captures_html(doc):
    """The screen stream's figures, one row a start of the compositor (results.json's "captures"):
    how many frames it composited and each was seen, against the output's refresh, and the gaps
    in which frames may be missing (a `none` over one is UNRESOLVED)."""
    caps = doc.get("captures") or []
    if not caps:
        return ""
    rows = "".join(
        '<tr><td>%s</td><td>%s</td><td>%s</td><td class="num">%d</td><td class="num">%.1f s</td>'
        '<td class="num">%.1f</td><td class="num">%.3f Hz</td><td class="num">%d</td><td class="num">%.1f ms</td>'
        '<td class="num">%d</td></tr>' % (
            esc(c.get("profile", "")), esc(c.get("run", "")), esc(c.get("display", "")), c.get("frames", 0),
            c.get("seconds", 0.0), c.get("fps", 0.0), c.get("refresh_hz", 0.0), c.get("gaps", 0),
            c.get("gap_ms", 0.0), c.get("failed", 0)) for c in caps)
    return ('<h3>Screen stream</h3><p class="meta">Every frame the compositor composited, one row a start of it: '
            'frames seen, frames/s against the output\'s refresh, gaps (no copy pending: frames may be missing '
            'there) and copies that failed.</p><table><thead><tr><th>profile</th><th>run</th><th>display</th>'
            '<th class="num">frames</th><th class="num">over</th><th class="num">frames/s</th>'
            '<th class="num">refresh</th><th class="num">gaps</th><th class="num">gap time</th>'
            '<th class="num">failed copies</th></tr></thead><tbody>%s</tbody></table>' % rows)


def compositors_html(doc):
    comps = doc.get("compositors", [])
    if not comps:
        return '<p class="empty">No compositor was started.</p>'
    head = "".join('<th title="%s">%s</th>' % (esc(a), esc(a.replace("_NET_WM_", "").lower().replace("_", " ")))
                   for a in SYNC_ATOMS)
    rows = []
    for c in comps:
        sup = set(c.get("supported", []))
        marks = "".join('<td>%s</td>' % ('<span class="yes">&#10003;</span>' if a in sup else '<span class="no">&ndash;</span>')
                        for a in SYNC_ATOMS)
        rows.append("<tr><td>%s</td><td>%s</td><td><code>%s</code></td><td>%s</td><td class=\"num\">%s</td>%s</tr>"
                    % (esc(c.get("profile", "")), esc(c.get("name") or "(no _NET_WM_NAME)"),
                       esc(c.get("command", "")),
                       '<span class="yes">yes</span>' if c.get("composites") else '<span class="no">no</span>',
                       esc(fmt_ms(c.get("ready_ms"))), marks))
    chips = []
    for c in comps:
        chips.append("<p><b>%s</b> _NET_SUPPORTED: %s</p>" % (
            esc(c.get("profile", "")), "".join('<span class="chip">%s</span>' % esc(a) for a in c.get("supported", []))
            or '<span class="empty">(empty)</span>'))
    return ('<table><thead><tr><th>profile</th><th>name</th><th>command</th><th>composites</th>'
            '<th class="num">ready after</th>%s</tr></thead><tbody>%s</tbody></table>'
            '<details><summary>every atom in _NET_SUPPORTED</summary>%s</details>'
            % (head, "".join(rows), "".join(chips)))


FEATURE_ORDER = ["wm", "compositing", "trigger-configure", "trigger-keyboard", "trigger-pointer", "trigger-map",
                 "sync-requests", "driven-resize", "held-resize", "extended-counter", "extended-marker",
                 "extended", "hold-update", "hold-map", "hold", "sync-drawn", "frame-drawn",
                 "frame-timings", "fences"]


def feature_rank(name):
    return (FEATURE_ORDER.index(name) if name in FEATURE_ORDER else len(FEATURE_ORDER), name)


def features_html(doc):
    """What each compositor implements, as the probes saw it: the first thing a reader asks."""
    tables = doc.get("features") or []
    if not tables:
        return '<p class="empty">No feature table (the compositor was not probed).</p>'
    names = sorted({n for t in tables for n in t.get("features", {})}, key=feature_rank)
    head = "".join('<th title="%s">%s</th>' % (esc(t.get("command", "")), esc(short_command(t.get("command", ""))))
                   for t in tables)
    rows = []
    for n in names:
        cells = []
        for t in tables:
            f = t.get("features", {}).get(n)
            if not f:
                cells.append('<td class="empty">&ndash;</td>')
                continue
            p = f.get("present")
            word, cls = ("yes", "yes") if p is True else ("no", "no") if p is False else ("unknown", "unres")
            cells.append('<td><span class="%s">%s</span> <span class="meta">%s</span></td>' % (cls, word, esc(f.get("detail", ""))))
        rows.append('<tr><td class="nw"><code>%s</code></td>%s</tr>' % (esc(n), "".join(cells)))
    trig = "".join('<td><b>%s</b> <span class="meta">driven: %s, held: %s</span></td>'
                   % (esc(t.get("trigger") or "none"), esc(t.get("driven") or "none"), esc(t.get("held") or "none"))
                   for t in tables)
    # which screen oracle the probes read: the root, the compositor's own picture, or none
    oracle = "".join('<td><span class="meta">%s</span></td>' % esc(t.get("screen_oracle") or "-") for t in tables)
    trig += '</tr><tr><td class="nw"><code>screen oracle</code></td>%s' % oracle
    return ('<table class="features"><thead><tr><th>feature</th>%s</tr></thead><tbody>%s'
            '<tr><td class="nw"><code>resize trigger</code></td>%s</tr></tbody></table>'
            '<p class="meta">How each feature is decided: <code>cases/probes/NAME.probe</code>; the probes\' logs are in '
            '<code>logs/probes/</code>. A case that needs a feature the compositor does not have is a SKIP with this reason.</p>'
            % (head, "".join(rows), trig))


def short_command(cmd):
    """fake-wm's long path, or a dbus wrapper, hides what the column is about."""
    cmd = re.sub(r"^exec\s+", "", cmd)
    cmd = re.sub(r"^dbus-run-session --\s+", "", cmd)
    cmd = re.sub(r"'?\S*/fake-wm/fake-wm'?", "fake-wm", cmd)
    return cmd if len(cmd) <= 48 else cmd[:45] + "..."


LEVEL_CLASS = {"MUST": "lv-must", "SHOULD": "lv-should", "must": "lv-must-lc", "should": "lv-should-lc",
               "implied": "lv-implied", "defect": "lv-defect"}


def level_badge(level):
    """A finding's level: filled for RFC 2119 capitals and defects, dashed for the lowercase words
    (not normative as written), grey for implied requirements; the hover says what it means."""
    return '<span class="level %s" title="%s">%s</span>' % (LEVEL_CLASS.get(level, "lv-implied"),
                                                                   esc(describe_level(level)), esc(level_label(level)))


def levels_count(found):
    """`1 MUST, 2 lowercase should`: the findings by level, strongest first."""
    n = {}
    for f in found:
        n[f.get("level", "implied")] = n.get(f.get("level", "implied"), 0) + 1
    order = [lv for lv in reversed(LEVELS) if lv in n] + sorted(set(n) - set(LEVELS))
    return ", ".join("%d %s" % (n[lv], level_label(lv)) for lv in order)


def run_banner_html(doc):
    """A run that did not end (interrupted) or tested nothing is said first: interrupted (exit
    status 128 + the signal), UNRESOLVED (exit status 1), or accepted by --allow-empty; a complete
    run that tested something has no banner."""
    v = recorded(doc)
    if not v or not v["reason"]:
        return ""
    if v["verdict"] == "interrupted":
        return ('<div class="run-banner unresolved" role="alert"><b>Run interrupted</b>: %s <span class="meta">(exit '
                'status %s; the results below are those of the cases that ran)</span></div>'
                % (esc(v["reason"]), esc(str(v.get("exit_status", "")))))
    if v["accepted"]:
        conf = [c.get("allow_empty") for c in doc.get("compositors") or []]
        by = "its compositor's allow-empty: %s" % conf[0] if conf and all(conf) else "--allow-empty"
        return ('<div class="run-banner accepted"><b>Run accepted by %s</b>: %s</div>' % (esc(by), esc(v["reason"])))
    return ('<div class="run-banner unresolved" role="alert"><b>Run UNRESOLVED</b>: %s <span class="meta">(exit status '
            '%s; --allow-empty accepts such a run)</span></div>' % (esc(v["reason"]), esc(str(v.get("exit_status", 1)))))


def findings_html(doc, clauses):
    """Each clause broken once, with the cases and profiles that show it, above the per-case lines."""
    found = doc.get("findings") or []
    if not found:
        return '<p class="empty">No finding: no check failed.</p>'
    items = []
    for f in found:
        cl = f.get("clause", "")
        wording = clauses.get(cl, {}).get("wording") or PSEUDO_CLAUSES.get(cl, "")
        links = []
        for key in f.get("cases", []):
            cid, _, prof = key.partition(" [")
            links.append('<a href="#%s">%s</a>' % (anchor({"id": cid, "profile": prof.rstrip("]")}), esc(key)))
        items.append('<li>%s <code class="finding">%s</code> <span class="meta">%d failing result%s</span>'
                     '<blockquote>%s</blockquote><div class="meta">%s</div></li>'
                     % (level_badge(f.get("level", "implied")), esc(cl), f.get("count", 0),
                        "" if f.get("count") == 1 else "s", esc(wording), ", ".join(links)))
    return '<ol class="findings">%s</ol>' % "".join(items)


def image_html(path, page_dir, budget):
    name = os.path.basename(path)
    try:
        size = os.path.getsize(path)
    except OSError:
        return ""
    src = href_for(path, page_dir)
    if size <= IMAGE_EMBED_LIMIT and budget[0] + size <= IMAGES_TOTAL_LIMIT:
        try:
            with open(path, "rb") as f:
                data = f.read()
            budget[0] += size
            src = "data:image/png;base64," + base64.b64encode(data).decode("ascii")
        except OSError:
            pass
    return ('<figure><a href="%s"><img src="%s" alt="%s"></a><figcaption>%s</figcaption></figure>'
            % (href_for(path, page_dir), src, esc(name), esc(name)))


def failure_html(case, clauses, page_dir, results_dir, all_logs, budget):
    verdict = case.get("verdict", "")
    cl = case.get("clauses") or []   # a probe's crash (probe/FEATURE) has none of its own
    main = case.get("failed_clause") or (cl[0] if cl else "")
    cl = [main] + [c for c in cl if c != main]
    wording = clauses.get(main, {}).get("wording") or PSEUDO_CLAUSES.get(main)
    log = resolve_log(case.get("log"), results_dir)
    rows = [("clause", "<code>%s</code><blockquote>%s</blockquote>" % (
        esc(main), esc(wording) if wording else '<span class="empty">(not in the clause catalog)</span>'))]
    if verdict == "FAIL":
        rows.append(("level", esc(describe_level(case_level(case, clauses)))))
    for other in cl[1:]:
        w = clauses.get(other, {}).get("wording", "")
        rows.append(("also checks", "<code>%s</code> %s" % (esc(other), esc(w))))
    for key in ("description", "file", "step", "expected", "observed", "reason"):
        if case.get(key):
            value = esc(case[key])
            rows.append((key, "<code>%s</code>" % value if key in ("file", "step", "expected", "observed") else value))
    rows.append(("checks", "%s of %s ran; %s" % (esc(str(case.get("checks_run"))), esc(str(case.get("checks"))),
                                                        esc(fmt_ms(case.get("duration_ms"))))))
    if log:
        rows.append(("log", '<a href="%s">%s</a>' % (href_for(log, page_dir), esc(case.get("log") or log))))
    elif case.get("log"):
        rows.append(("log", '<code>%s</code> <span class="empty">(not found)</span>' % esc(case["log"])))
    text = read_text(log) if log else None
    records = parse_timeline(text)
    parts = ['<article class="failure %s-art" id="%s" data-verdict="%s" data-profile="%s" data-text="%s">'
             % (esc(verdict), anchor(case), esc(verdict), esc(case.get("profile", "")), esc(search_text(case))),
             '<h3><span class="badge %s">%s</span> %s%s <span class="meta">[%s]</span></h3>'
             % (esc(verdict), esc(verdict), level_badge(case_level(case, clauses)) + " " if verdict == "FAIL" else "",
                esc(case.get("id", "")), esc(case.get("profile", ""))),
             '<dl class="diag">%s</dl>' % "".join("<dt>%s</dt><dd>%s</dd>" % (esc(k), v) for k, v in rows)]
    if records:
        parts.append(svg_timeline(records))
        parts.append("<details><summary>the timeline as text (%d records)</summary><pre>%s</pre></details>"
                     % (len(records), esc("\n".join(r.text for r in records))))
    elif log:
        parts.append('<p class="empty">The log has no timeline.</p>')
    shots = screenshots(log, all_logs) if log else []
    if shots:
        parts.append('<div class="shots">%s</div>' % "".join(image_html(p, page_dir, budget) for p in shots))
    parts.append("</article>")
    return "\n".join(parts)


def short(text, limit=220):
    """A table cell's text: long reasons are cut, the whole text is the tooltip."""
    if len(text) <= limit:
        return esc(text)
    return '<span title="%s">%s&hellip;</span>' % (esc(text), esc(text[:limit]))


def search_text(case):
    return " ".join(str(case.get(k, "")) for k in ("id", "profile", "description", "reason", "verdict")
                    ).lower() + " " + " ".join(case.get("clauses") or []).lower()


def main_clause(case):
    """The clause a case's row names: its first; a probe's crash has none but the one it is filed under."""
    return (case.get("clauses") or [failed_clause(case)])[0]


def figures_section(doc, cases):
    """A client run's figures (the policy it ran under), or nothing in a compositor run without any."""
    if not any(x.get("figures") for x in cases) and not doc.get("client"):
        return ""
    policy = (doc.get("client") or {}).get("policy")
    return ('<h2 id="figures">Figures%s</h2><p class="meta">measured, not judged: no text bounds them (hover a '
            'figure for what it measures)</p>' % (" under policy <code>%s</code>" % esc(policy) if policy else "")
            + figures.table_html(cases))


def render(doc, clauses, page_dir, results_dir):
    cases = doc["cases"]
    # from the cases shown (a merged run's ids name their implementation), levels from the catalog
    # where the results have none
    found = findings(cases, clauses)
    doc = dict(doc, findings=found)
    c = counts_of(cases)
    total_ms = sum(float(x.get("duration_ms") or 0) for x in cases)
    wall = float(doc.get("wall_ms") or 0)
    profiles = [p for p in PROFILES if any(x.get("profile") == p for x in cases)]
    profiles += sorted({x.get("profile") for x in cases} - set(PROFILES) - {None})
    by_group = {}
    for x in cases:
        by_group.setdefault(clause_group(main_clause(x)), []).append(x)
    failing = [x for x in cases if x.get("verdict") in ("FAIL", "UNRESOLVED")]
    all_logs = [resolve_log(x.get("log"), results_dir) for x in cases]
    budget = [0]

    h = ['<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
         '<meta name="viewport" content="width=device-width, initial-scale=1">'
         "<title>framesync%s: %d passed, %d failed, %d skipped, %d unresolved</title><style>%s</style></head><body>"
         % ({"UNRESOLVED": " (run UNRESOLVED)", "interrupted": " (run interrupted)"}.get(
                (recorded(doc) or {}).get("verdict"), ""),
            c["PASS"], c["FAIL"], c["SKIP"], c["UNRESOLVED"], CSS)]
    verdict = recorded(doc)
    h.append("<header><h1>framesync report</h1><div class=\"meta\">started %s &middot; status <b>%s</b>%s &middot; "
             "wall time %s &middot; sum of case durations %s%s</div>"
             % (esc(doc.get("started", "?")), esc(doc.get("status", "?")),
                " &middot; run verdict <b>%s</b>" % esc(verdict["verdict"]) if verdict else "",
                esc(fmt_ms(wall)), esc(fmt_ms(total_ms)),
                " &middot; speed-up %.2fx" % (total_ms / wall) if wall > 0 else ""))
    h.append(run_banner_html(doc))
    h.append('<div class="totals">%s<div class="total"><b>%d</b>cases</div></div></header>'
             % ("".join('<div class="total"><b style="color:var(--%s)">%d</b>%s</div>'
                        % ({"PASS": "pass", "FAIL": "fail", "SKIP": "skip", "UNRESOLVED": "unres"}[v], c[v], v.lower())
                        for v in VERDICTS), len(cases)))
    h.append(certifier.certifier_section(doc))
    h.append('<h2 id="features">What the compositor implements</h2>' + features_html(doc))
    h.append('<h2 id="findings">Findings (%d)%s</h2>' % (len(found), (' <span class="meta">by level: %s</span>'
                                                                          % levels_count(found)) if found else "")
             + findings_html(doc, clauses))
    h.append('<h2 id="summary">Summary</h2><div class="grid2"><div>%s</div><div>%s</div></div>'
             % (count_table("profile", [(p, [x for x in cases if x.get("profile") == p]) for p in profiles]),
                count_table("clause group", sorted(by_group.items()))))
    h.append('<h2 id="compositors">Compositors</h2>' + compositors_html(doc) + captures_html(doc))
    h.append(figures_section(doc, cases))

    h.append('<h2 id="cases">Cases</h2><div class="filters">%s'
             '<label>profile <select id="f-profile"><option value="">all</option>%s</select></label>'
             '<label>text <input type="search" id="f-text" placeholder="case, clause, reason"></label>'
             '<button type="button" id="f-failures">failures only</button><button type="button" id="f-all">show all</button>'
             '<span id="f-count" class="meta"></span></div>'
             % ("".join('<label><input type="checkbox" name="verdict" value="%s" checked> %s (%d)</label>'
                        % (v, v.lower(), c[v]) for v in VERDICTS),
                "".join('<option value="%s">%s</option>' % (esc(p), esc(p)) for p in profiles)))
    rows = []
    for n, x in enumerate(cases, 1):
        v = x.get("verdict", "")
        idtext = esc(x.get("id", ""))
        if v in ("FAIL", "UNRESOLVED"):
            idtext = '<a href="#%s">%s</a>' % (anchor(x), idtext)
        log = resolve_log(x.get("log"), results_dir)
        loglink = '<a href="%s">log</a>' % href_for(log, page_dir) if log else ""
        rows.append('<tr class="%s-row" data-verdict="%s" data-profile="%s" data-text="%s"><td class="num">%d</td>'
                    '<td><span class="badge %s">%s</span></td><td class="nw">%s</td><td>%s</td><td><code>%s</code></td>'
                    '<td>%s</td><td class="num nw">%s</td><td>%s</td></tr>'
                    % (esc(v), esc(v), esc(x.get("profile", "")), esc(search_text(x)), n, esc(v), esc(v),
                       esc(x.get("profile", "")), idtext, esc(main_clause(x)),
                       short(x.get("reason") or x.get("description") or ""), esc(fmt_ms(x.get("duration_ms"))), loglink))
    h.append('<table id="case-table"><thead><tr><th class="num">#</th><th>verdict</th><th>profile</th><th>case</th>'
             '<th>clause</th><th>reason / description</th><th class="num">time</th><th></th></tr></thead>'
             '<tbody>%s</tbody></table>' % "".join(rows))
    h.append('<h2 id="failures">Failures (%d)</h2>' % len(failing))
    if not failing:
        h.append('<p class="empty">No case failed or was unresolved.</p>')
    for x in failing:
        h.append(failure_html(x, clauses, page_dir, results_dir, all_logs, budget))
    h.append("<script>%s</script></body></html>\n" % JS)
    return "\n".join(h)


def write(results_path, out_path=None, clauses_path=None):
    clauses = clause_table(clauses_path or paths.clauses_of())
    doc = RunResults.load(results_path).with_findings(clauses).to_json()
    results_dir = os.path.dirname(os.path.abspath(results_path))
    out_path = out_path or os.path.join(results_dir, "index.html")
    page = render(doc, clauses, os.path.dirname(os.path.abspath(out_path)), results_dir)
    tmp = out_path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(page)
    os.replace(tmp, out_path)
    return out_path


def main(argv=None):
    return report_command(argv, "runner.reports.html", __doc__, "index.html", write,
                          "the clause catalog (default: cases/clauses.txt of this checkout)")


if __name__ == "__main__":
    sys.exit(main())
