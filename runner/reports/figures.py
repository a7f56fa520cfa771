"""The figures of a client run (a case's `figure NAME EXPR` steps: results.json's "figures" of a
case), as the reports show them: the run's HTML report (runner/reports/html.py), the summary of
`--policy all` (runner/policies.py) and the client matrix (runner/client_matrix.py).

A figure is a number (its unit in its name: _ms, _us) or a word the case gave when there was
nothing to measure to (`frozen`: no update followed within the case's horizon).  No text bounds
them: they are for a toolkit author to compare, per policy and per state, not verdicts.
"""
import html

from runner.terms import PROFILES

esc = html.escape

# what each figure measures (the cases that give them: cases/client/policy/, answer-after-*)
MEANINGS = {
    "first_show_ms": "map to first show (the application's MapWindow to the compositor's first paint)",
    "answer_us": "answer latency after the ConfigureNotify that went with the request (negative: the "
                 "answer came before it, as EFL's does while it animates)",
    "stall_ms": "stall when a drawn message never comes (end of that update to the next beginning)",
}


def fmt(name, value):
    """A figure as the reports write it: milliseconds, with the word kept as it is."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if name.endswith("_us"):
        return "%d \u00b5s" % value
    if name.endswith("_ms"):
        return "%d ms" % value
    return "%g" % value


def rows(cases):
    """[(case id, profile, figure, value)] of a run's cases, in the run's order."""
    out = []
    for c in cases:
        for name, value in (c.get("figures") or {}).items():
            out.append((c.get("id", ""), c.get("profile", ""), name, value))
    return out


def by_case(cases):
    """{(case id, figure): {profile: value}}: one line per case and figure, a column per profile."""
    table = {}
    for cid, prof, name, value in rows(cases):
        table.setdefault((cid, name), {})[prof] = value
    return table


def table_html(cases, empty="No case of this run measured a figure."):
    """A table: case, figure, one column per profile (what the figure means on hover)."""
    table = by_case(cases)
    if not table:
        return '<p class="empty">%s</p>' % esc(empty)
    profs = [p for p in PROFILES if any(p in v for v in table.values())]
    head = "".join("<th class=\"num\">%s</th>" % esc(p) for p in profs)
    body = []
    for (cid, name), vals in table.items():
        cells = "".join('<td class="num">%s</td>' % esc(fmt(name, vals[p])) if p in vals else "<td></td>"
                        for p in profs)
        body.append('<tr><td>%s</td><td title="%s"><code>%s</code></td>%s</tr>'
                    % (esc(cid), esc(MEANINGS.get(name, "")), esc(name), cells))
    return ('<table class="figures"><thead><tr><th>case</th><th>figure</th>%s</tr></thead><tbody>%s</tbody></table>'
            % (head, "".join(body)))


def summary_text(cases):
    """"first_show_ms 120 ms; answer_us 0.4-3.1 ms; stall_ms frozen": each figure's range over the
    run's cases and profiles, for one line of a table."""
    vals = {}
    for _, _, name, value in rows(cases):
        vals.setdefault(name, []).append(value)
    parts = []
    for name, vs in vals.items():
        nums = sorted(v for v in vs if isinstance(v, (int, float)) and not isinstance(v, bool))
        words = sorted({str(v) for v in vs if v not in nums})
        said = []
        if nums:
            lo, hi = fmt(name, nums[0]), fmt(name, nums[-1])
            said.append(lo if lo == hi else "%s-%s" % (lo.split(" ")[0], hi))
        said += words
        parts.append("%s %s" % (name, ", ".join(said)))
    return "; ".join(parts)
