"""The evidence for spec authors, one table for every report that shows it (the dashboard, the
spec report's interop and at-risk sections): for each clause, the implementations that pass it,
the independent code bases among them, the case that proves each, and whether the clause is
ready to propose (passed by two or more independent implementations: the W3C's rule).

What counts as one implementation is the code base, not the package or the conf:

    mutter    mutter, mutter-wayland (one program, X11 and Wayland sessions), muffin (Cinnamon's
              fork of mutter 3.x: the same window-x11.c sync code)
    kwin      kwin_x11 and kwin_wayland (one source tree; X11Window::handleSync in both)
    metacity  metacity and marco (MATE's 2011 fork of metacity 2.x: the same sync functions,
              check_moveresize_frequency and the empty hold)
    wlroots   sway and cage (one xwayland/xwm.c)
    compiz, xfwm4, openbox, picom, xcompmgr, weston: one each

A combination (picom+openbox: picom composites, openbox manages) is counted only for a clause that
none of its parts passes alone (then only the two together show it); otherwise it adds nothing to
its parts.  The suite's own fake-wm is shown and never counted.  Versions of one implementation are
one code base; the evidence uses each implementation's newest version given."""

CODEBASES = {"mutter": "mutter", "mutter-wayland": "mutter", "muffin": "mutter",
             "kwin_x11": "kwin", "kwin_wayland": "kwin",
             "metacity": "metacity", "marco": "metacity",
             "sway": "wlroots", "cage": "wlroots"}
REFERENCE = "fake-wm"
READY = 2   # independent implementations a clause needs to be ready to propose


def codebase_of(name):
    """An implementation's code base: the table's, a combination's parts joined by + (sorted), or
    its own name."""
    if name in CODEBASES:
        return CODEBASES[name]
    if "+" in name:
        return "+".join(sorted(codebase_of(p) for p in name.split("+")))
    return name


def independent(codebases):
    """The code bases that count, of those that pass one clause: combinations only where none of
    their parts is there alone; never the reference.  Sorted."""
    alone = {c for c in codebases if "+" not in c and c != REFERENCE}
    combos = {c for c in codebases if "+" in c and not (set(c.split("+")) & alone)}
    return sorted(alone | combos)


class ClauseEvidence:
    """One clause: passing {implementation name: proving case}, failing [names], and the
    independent code bases among the passing ones."""

    def __init__(self, clause):
        self.clause = clause
        self.passing = {}    # implementation name -> "case-id [profile]" that passed it
        self.failing = []    # implementation names whose cell is fail
        self.tested = []     # implementation names with a verdict other than skip

    @property
    def codebases(self):
        return independent({codebase_of(n) for n in self.passing})

    def proof(self):
        """[(code base, implementation, case)]: for each counted code base, one of its passing
        implementations and the case that proves it."""
        out = []
        for cb in self.codebases:
            name = next(n for n in sorted(self.passing) if codebase_of(n) == cb)
            out.append((cb, name, self.passing[name]))
        return out

    @property
    def ready(self):
        return len(self.codebases) >= READY


def proving_case(cases):
    """The first passing case record of a cell, as `id [profile]`."""
    for c in cases:
        if c.get("verdict") == "PASS":
            return "%s [%s]" % (c.get("id"), c.get("profile"))
    return ""


def evidence(cells, names, clause_ids):
    """cells: {clause: {column key: (cell, [case records])}} (runner/spec/interop.Interop.cells);
    names: {column key: implementation name}; -> [ClauseEvidence] in clause_ids' order (clauses
    no result names are listed too, with nobody passing)."""
    out = []
    for cid in clause_ids:
        ev = ClauseEvidence(cid)
        for key, (cell, cases) in (cells.get(cid) or {}).items():
            name = names.get(key)
            if not name or name == REFERENCE:
                continue
            if cell != "skip":
                ev.tested.append(name)
            if cell == "pass":
                ev.passing.setdefault(name, proving_case(cases))
            elif cell == "fail":
                ev.failing.append(name)
        out.append(ev)
    return out


def draft_and_defacto(clauses):
    """The catalog clauses (runner.catalog.Clause) of the draft and de-facto texts that bind the
    WM and can be tested: the ones evidence is asked for."""
    return [c for c in clauses if c.testable and c.get("binds", "wm") != "client"
            and set(c.profiles) & {"draft-2011", "de-facto"}]


def ready_text(rows):
    """The ready-to-propose list as plain text lines."""
    lines = []
    for ev in rows:
        if ev.ready:
            lines.append("%s: %s" % (ev.clause, "; ".join("%s (%s: %s)" % (cb, name, case)
                                                         for cb, name, case in ev.proof())))
    return lines
