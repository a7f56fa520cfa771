"""Results of any number of runs (results.json files) as implementations x clauses.

An implementation is a compositor command (its profile name written back as {profile}, so the
reference fake-wm run in three profiles is one implementation) or a client.  Which implementation
a case belongs to: the case's own "compositor" / "client" field when it has one (a merged file of
several implementations), else the doc's compositor (or client) of the case's profile.

A case counts for the clauses of its header (the first is the one it checks, the others are
clauses "whose failure the case also shows") and of its `check CLAUSE` sections (a case with
`vary:` lines: in the form of its result's profile only, catalog.CaseRef.checks_of); a FAIL counts
only for the clause it is filed under ("failed_clause" when the results have it, else the main
clause; a client-initiated case that failed while its interactive/ variant passed counts as a
skip, see trigger_only).  A clause's cell for one implementation: fail if any case failed it, else unresolved if
any was unresolved, else pass if any passed, else skip.  A testable clause that fewer than two
independent implementations pass is "at risk" (the W3C's two-implementations rule; what counts
as independent, and the clauses ready to propose: runner/interop_table.py, shared with the
dashboard).  The reference compositor
(fake-wm) is shown but not counted: it is built to pass every clause.  Each clause is shown with
its level (clause_level: the keyword's, as the harness files a finding under it), so that a fail
of a MUST and of a lowercase should are not read alike.
"""
import os
import re

from runner import interop_table
from runner.results import ResultsError, RunResults
from runner.terms import PROFILES, level_of_keyword

ORDER = {"fail": 0, "unresolved": 1, "pass": 2, "skip": 3}
VERDICT_CELL = {"PASS": "pass", "FAIL": "fail", "SKIP": "skip", "UNRESOLVED": "unresolved"}


def clause_level(clause):
    """A catalog clause's level (runner/terms.py): MUST, SHOULD, must, should (lowercase),
    implied; a permission (MAY) binds nothing by itself and is implied too."""
    return level_of_keyword(clause.get("keyword"))


def find_results(paths):
    """Each path is a results.json, or a folder holding one, or a folder of such folders (a
    matrix's output).  -> [file]; raises ResultsError for a path with none."""
    out = []
    for p in paths:
        if os.path.isfile(p):
            out.append(p)
            continue
        direct = os.path.join(p, "results.json")
        if os.path.isfile(direct):
            out.append(direct)
            continue
        found = sorted(os.path.join(p, d, "results.json") for d in (os.listdir(p) if os.path.isdir(p) else [])
                       if os.path.isfile(os.path.join(p, d, "results.json")))
        if not found:
            raise ResultsError("%s: no results.json there (expected a results.json, a run's --out folder, or a "
                               "folder of run folders)" % p)
        out += found
    return out


def load(path):
    """A results.json as a document (runner.results reads it); any failure is a ResultsError that
    names the file."""
    try:
        return RunResults.load(path).to_json()
    except OSError as e:
        raise ResultsError("%s: cannot read: %s" % (path, e.strerror))


def impl_key(command, profile=None):
    """The command with its profile written back as {profile}: one implementation in every profile."""
    if not command:
        return ""
    if profile:
        command = command.replace(profile, "{profile}")
    return command


def short_command(command):
    """`exec picom --backend xrender ...` -> `picom`: a column header, not the whole command line
    (two implementations with one label are told apart by their commands later)."""
    words = [w for w in command.replace("'", " ").split() if w not in ("exec", "env", "dbus-run-session", "--")
             and "=" not in w]
    return os.path.basename(words[0]) if words else command


class Implementation:
    def __init__(self, key, kind, name, command):
        self.key, self.kind, self.name, self.command = key, kind, name, command
        self.label = name or short_command(command)
        # the suite's own reference compositor: shown, never counted as an implementation
        self.reference = "fake-wm/fake-wm" in command or name == "fake-wm"
        self.supported = {}          # profile -> [atoms]
        self.features = {}           # feature name -> {"present":..., "detail":...}
        self.cases = []              # case records


def implementations_of(doc, path):
    """{(profile or None): Implementation key} and the Implementations described by one doc."""
    impls, by_profile = {}, {}
    entries = [("compositor", c) for c in doc.get("compositors") or []]
    client = doc.get("client")
    if isinstance(client, dict):
        entries.append(("client", client))
    entries += [("client", c) for c in doc.get("clients") or [] if isinstance(c, dict)]
    for kind, e in entries:
        key = impl_key(e.get("command") or e.get("name") or "", e.get("profile"))
        if not key:
            continue
        # a named compositor is called by its conf (kwin_x11 and kwin_wayland are both "KWin")
        name = e.get("conf") or e.get("name") or ""
        im = impls.setdefault(key, Implementation(key, kind, name, key))
        if not im.name and name:
            im.name = im.label = name
        if e.get("profile"):
            im.supported[e["profile"]] = list(e.get("supported") or [])
            by_profile.setdefault((kind, e["profile"]), key)
        else:
            by_profile.setdefault((kind, None), key)
    for feat in doc.get("features") or []:   # optional: what the harness measured per command
        command = feat.get("command", "") if isinstance(feat, dict) else ""
        candidates = {command} | {impl_key(command, p) for p in PROFILES}
        for im in impls.values():
            if im.key in candidates and isinstance(feat.get("features"), dict):
                im.features.update(feat["features"])
    return impls, by_profile


class Interop:
    def __init__(self):
        self.impls = {}              # key -> Implementation, first seen first
        self.files = []

    def add(self, path, doc, case_refs):
        impls, by_profile = implementations_of(doc, path)
        for key, im in impls.items():
            mine = self.impls.setdefault(key, im)
            if mine is not im:
                mine.supported.update(im.supported)
                mine.features.update(im.features)
        for c in doc.get("cases", []):
            key = None
            for field, kind in (("compositor", "compositor"), ("client", "client"), ("implementation", None)):
                if c.get(field):
                    key = impl_key(c[field], c.get("profile"))
                    if key not in self.impls:
                        self.impls[key] = Implementation(key, kind or "compositor", "", key)
                    break
            if key is None:
                key = by_profile.get(("compositor", c.get("profile"))) or by_profile.get(("client", c.get("profile"))) \
                    or by_profile.get(("client", None))
            if key is None and len(impls) == 1:
                # a command without {profile} is started once, and listed under the profile it
                # started in, yet it runs every profile's cases
                key = next(iter(impls))
            if key is None:
                raise ResultsError("%s: case %s [%s] has no compositor or client of its profile in the file"
                                   % (path, c.get("id"), c.get("profile")))
            self.impls[key].cases.append(c)
        self.files.append(path)
        self.case_refs = case_refs

    # ---- clauses
    def clauses_of_case(self, c):
        ref = self.case_refs.get(c.get("id")) if self.case_refs else None
        header = c.get("clauses") or (ref.header if ref else [])
        main = header[0] if header else ""
        checks = ref.checks_of(c.get("profile")) if ref else []
        if c.get("verdict") == "FAIL":
            return [c.get("failed_clause") or main]
        return header + [x for x in checks if x not in header]

    def trigger_only(self, im):
        """Failing cases of an implementation whose interactive/ variant passed in the same
        profile: {(id, profile)}.  Such a compositor sends sync requests only during an
        interactive resize (mutter, muffin, openbox); the client-initiated case fails for want of
        a request, not for breaking its clause.  Results that file failures under a clause
        ("failed_clause") do not need this."""
        passed = {(c.get("id"), c.get("profile")) for c in im.cases if c.get("verdict") == "PASS"}
        out = set()
        for c in im.cases:
            cid = c.get("id", "")
            if c.get("verdict") != "FAIL" or c.get("failed_clause") or cid.startswith("interactive/") or "/" not in cid:
                continue
            if ("interactive/" + cid.split("/", 1)[1], c.get("profile")) in passed:
                out.add((cid, c.get("profile")))
        return out

    def cells(self):
        """{clause: {impl key: (cell, [case records])}}"""
        out = {}
        for key, im in self.impls.items():
            trigger = self.trigger_only(im)
            for c in im.cases:
                cell = VERDICT_CELL.get(c.get("verdict"), "unresolved")
                if (c.get("id"), c.get("profile")) in trigger:
                    cell = "skip"   # the same check passed in an interactive resize
                for cl in self.clauses_of_case(c):
                    if not cl:
                        continue
                    cur = out.setdefault(cl, {}).get(key)
                    if cur is None:
                        out[cl][key] = (cell, [c])
                    else:
                        best = cell if ORDER[cell] < ORDER[cur[0]] else cur[0]
                        out[cl][key] = (best, cur[1] + [c])
        return out

    def names(self):
        """{impl key: implementation name} for runner/interop_table.py (the reference as fake-wm)."""
        return {k: interop_table.REFERENCE if im.reference else (im.name or im.label) for k, im in self.impls.items()}

    def passes(self, cells_of_clause):
        """Independent implementations passing (runner/interop_table.py: one per code base)."""
        names = self.names()
        return len(interop_table.independent({interop_table.codebase_of(names[key])
                                              for key, (cell, _) in cells_of_clause.items()
                                              if cell == "pass" and names[key] != interop_table.REFERENCE}))

    def evidence(self, clauses):
        """[ClauseEvidence] of the draft and de-facto clauses (runner/interop_table.py)."""
        return interop_table.evidence(self.cells(), self.names(),
                                      [c.id for c in interop_table.draft_and_defacto(clauses)])

    def at_risk(self, clauses):
        """Testable clauses passed by fewer than two independent implementations: [(clause id, passes)]."""
        cells = self.cells()
        out = []
        for c in clauses:
            if not c.testable:
                continue
            n = self.passes(cells.get(c.id, {}))
            if n < 2:
                out.append((c.id, n))
        return out

    # ---- which wording
    def wordings(self):
        """{impl key: {column: [(text, wording, evidence)]}}"""
        out = {}
        for key, im in self.impls.items():
            cols = {}
            for col, rx, profile, value, wording in WORDING_EVIDENCE:
                for c in im.cases:
                    if not re.match(rx, c.get("id", "")) or (profile and c.get("profile") != profile):
                        continue
                    v = c.get("verdict")
                    if v == "PASS":
                        text = "%s [%s]" % (value, c.get("profile"))
                    elif v == "FAIL":
                        text = "not %s [%s]" % (value, c.get("profile"))
                    else:
                        continue
                    item = (text, wording if v == "PASS" else "", "%s %s" % (c.get("id"), v))
                    if item[0] not in [t for t, _, _ in cols.get(col, [])]:
                        cols.setdefault(col, []).append(item)
            ext = im.features.get("extended") if isinstance(im.features, dict) else None
            if isinstance(ext, dict) and ext.get("detail"):
                d = ext["detail"]
                m = re.search(r"\+(\d+)", d)
                if m:
                    cols["extended increment"] = [("+%s (measured)" % m.group(1),
                                                   "de-facto" if int(m.group(1)) >= 240 else "draft-2011",
                                                   "features: " + d)]
                m = re.search(r"l\[4\]\s*=?\s*(\d)", d)
                if m:
                    cols["l[4] of an extended request"] = [("%s (measured)" % m.group(1),
                                                            "de-facto" if m.group(1) == "1" else "draft-2011",
                                                            "features: " + d)]
            adv = []
            for atom, wording in (("_NET_WM_SYNC_DRAWN", "draft-2011"), ("_NET_WM_FRAME_DRAWN", "de-facto"),
                                  ("_NET_WM_FRAME_TIMINGS", "de-facto"), ("_NET_WM_SYNC_FENCES", "draft-2011")):
                profs = [p for p in PROFILES if atom in im.supported.get(p, [])]
                if profs:
                    adv.append(("%s [%s]" % (atom, ",".join(profs)), wording, "_NET_SUPPORTED"))
            cols["advertised"] = adv
            out[key] = cols
        return out


WORDING_COLUMNS = ["extended increment", "l[4] of an extended request", "drawn message", "advertised"]
# (column, case id regex, profile or None, what a PASS shows, whose wording that is)
WORDING_EVIDENCE = [
    ("extended increment", r"^(extended|interactive)/plus-240-defacto$", "de-facto", "+240", "de-facto"),
    ("extended increment", r"^(extended|interactive)/plus-100-each-request$", None, ">= +100", "draft-2011"),
    ("l[4] of an extended request", r"^(extended|interactive)/l4-marker-defacto$", "de-facto", "1", "de-facto"),
    ("l[4] of an extended request", r"^(extended|interactive)/l4-zero-draft$", "draft-2011", "0", "draft-2011"),
    ("drawn message", r"^drawn/frame-drawn-layout$", "de-facto", "_NET_WM_FRAME_DRAWN, own message_type", "de-facto"),
    ("drawn message", r"^drawn/layout-draft$", "draft-2011", "_NET_WM_SYNC_DRAWN in WM_PROTOCOLS", "draft-2011"),
]


def build(paths, case_refs):
    inter = Interop()
    for p in find_results(paths):
        inter.add(p, load(p), case_refs)
    labels = {}
    for im in inter.impls.values():
        labels.setdefault(im.label, []).append(im)
    for label, ims in labels.items():
        if len(ims) > 1:        # two commands with one _NET_WM_NAME: tell them apart by command
            for im in ims:
                im.label = "%s (%s)" % (label, im.command)
    return inter
