"""The end of a client run (--client): one screen a toolkit developer can act on, on the console
and at the top of the HTML report.  Three parts, from results.json alone:

- what to fix: the findings, by level (MUST first), each with its cases and the first failure's
  reason;
- what was measured: the figures (first_show_ms, answer_us, stall_ms: runner/reports/figures.py)
  per case, state and profile;
- what could not be reached or tested, and why: the client's features found absent (its states,
  its form, fences ...) with the probes' words, and the other SKIPs grouped by reason.
"""
import html

from runner.reports import figures
from runner.terms import PROFILES

esc = html.escape

LEVEL_ORDER = ("MUST", "must", "SHOULD", "should", "implied", "crash")
# the client's features whose absence leaves cases untested (the rest are the compositor's)
CLIENT_FEATURES = ("client-participates", "client-counter", "client-extended", "client-maps-odd",
                   "client-fences", "client-animates", "client-state-animating", "client-state-idle",
                   "client-drawn-timeout")


def findings(doc):
    """[(level, clause, [case [profiles]], reason of the first failing case)], MUST first."""
    reasons = {}
    for c in doc.get("cases", []):
        if c.get("verdict") == "FAIL":
            reasons.setdefault("%s [%s]" % (c.get("id"), c.get("profile")), c.get("reason", ""))
    out = []
    for f in doc.get("findings", []):
        first = next((reasons[k] for k in f.get("cases", []) if k in reasons), "")
        out.append((f.get("level", "implied"), f.get("clause", ""), f.get("summary") or f.get("cases", []), first))
    rank = {lv: i for i, lv in enumerate(LEVEL_ORDER)}
    return sorted(out, key=lambda x: rank.get(x[0], len(rank)))


def unreached(doc):
    """[([features], [profiles], why)]: the client's features found absent (or not decided), the
    features with the same reason in the same profiles on one line."""
    seen = {}
    for table in doc.get("features", []):
        prof = next((p for p in PROFILES if "--profile %s" % p in table.get("command", "")), "")
        for name in CLIENT_FEATURES:
            f = table.get("features", {}).get(name)
            if f and not f.get("present"):
                seen.setdefault((name, f.get("detail", "")), []).append(prof)
    lines = {}
    for (name, why), profs in seen.items():
        lines.setdefault((why, tuple(profs)), []).append(name)
    return [(names, list(profs), why) for (why, profs), names in lines.items()]


def skips(doc):
    """[(count, reason)] of the SKIPped cases, most frequent first (the reason as the case gave it)."""
    counts = {}
    for c in doc.get("cases", []):
        if c.get("verdict") == "SKIP":
            counts[c.get("reason", "")] = counts.get(c.get("reason", ""), 0) + 1
    return sorted(((n, r) for r, n in counts.items()), reverse=True)


def short(text, n=160):
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[:n - 3] + "..."


def console_text(doc):
    """The summary as `# ` lines for the end of the TAP stream, or "" for a compositor run."""
    client = doc.get("client")
    if not client:
        return ""
    counts = {}
    for c in doc.get("cases", []):
        counts[c.get("verdict")] = counts.get(c.get("verdict"), 0) + 1
    name = client.get("name") or client.get("command", "")
    lines = ["certifier: %s under policy %s: %d pass, %d fail, %d skip, %d unresolved"
             % (name, client.get("policy") or "reference", counts.get("PASS", 0), counts.get("FAIL", 0),
                counts.get("SKIP", 0), counts.get("UNRESOLVED", 0))]
    found = findings(doc)
    lines.append("what to fix (%d finding%s):" % (len(found), "" if len(found) == 1 else "s"))
    for level, clause, cases, reason in found:
        lines.append("  %-7s %s: %s" % (level, clause, "; ".join(cases)))
        if reason:
            lines.append("          %s" % short(reason))
    table = figures.by_case(doc.get("cases", []))
    lines.append("what was measured:" + ("" if table else " nothing (no figure in this run's cases)"))
    for (cid, fig), vals in table.items():
        lines.append("  %-9s %s: %s" % (fig, cid, ", ".join("%s %s" % (p, figures.fmt(fig, vals[p]))
                                                               for p in PROFILES if p in vals)))
    lines.append("not reached or not tested, and why:")
    for names, profs, why in unreached(doc):
        lines.append("  %s [%s]: %s" % (", ".join(names), ", ".join(p for p in profs if p), short(why)))
    for n, reason in skips(doc):
        lines.append("  %3d SKIP: %s" % (n, short(reason, 140)))
    return "".join("# %s\n" % line for line in lines)


def certifier_section(doc):
    """The same as a section of the run's index.html, or "" for a compositor run."""
    if not doc.get("client"):
        return ""
    rows = ['<tr><td>%s</td><td><code>%s</code></td><td>%s</td><td>%s</td></tr>'
            % (esc(level), esc(clause), esc("; ".join(cases)), esc(short(reason, 300)))
            for level, clause, cases, reason in findings(doc)]
    fix = ('<table><thead><tr><th>level</th><th>clause</th><th>cases</th><th>why (first case)</th></tr></thead>'
           '<tbody>%s</tbody></table>' % "".join(rows)) if rows else '<p class="empty">No finding.</p>'
    gaps = ['<li><code>%s</code> [%s]: %s</li>' % (esc(", ".join(ns)), esc(", ".join(p for p in ps if p)), esc(why))
            for ns, ps, why in unreached(doc)]
    gaps += ['<li>%d SKIP: %s</li>' % (n, esc(r)) for n, r in skips(doc)]
    return ('<h2 id="certifier">For the toolkit developer</h2>'
            '<h3>What to fix</h3>%s<h3>What was measured</h3>%s'
            '<h3>Not reached or not tested, and why</h3><ul>%s</ul>'
            % (fix, figures.table_html(doc.get("cases", [])), "".join(gaps)))
