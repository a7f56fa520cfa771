"""Coverage against the text: the catalog's quoted wording matched to the sentences and layouts
of a DocBook text.

A clause's wording is searched in the text with whitespace normalized; `...` in the wording is a
gap (the fragments must appear in order).  A wording may span sentences, or a paragraph and the
listing after it (the basic form's request layout), or be part of one sentence.  Every sentence
or layout the match overlaps is mapped to the clause.

Which clauses a text must contain: those whose wording is quoted from this text's profile (the
clause ID's first part, e.g. draft-2011/...), unless the catalog says there is no published text.
Such a clause whose wording is not found is STALE.  Clauses quoted from another profile's text
are mapped when found; when they are listed for this profile but not found, the text words them
differently (a note, not an error).

A normative sentence (a requirement or permission, in capitals, lowercase or implied) needs at
least one clause, and when one of its clauses is testable, a case that checks it; otherwise it
is UNCOVERED.  `--check` fails on a stale clause or an uncovered sentence.
"""
import difflib
import fnmatch
import re

from runner import catalog as catmod
from . import sentences as sentmod

ELLIPSIS_RE = re.compile(r"\s*(?:\.\.\.|\u2026)\s*")


def norm(text):
    text = text.replace("\u201c", '"').replace("\u201d", '"').replace("\u2019", "'").replace("\u2018", "'")
    return " ".join(text.split())


def unit_text(unit):
    if isinstance(unit, sentmod.Layout):
        return norm(unit.block.raw)
    return norm(unit.text)


class Stream:
    """The units of a text joined by single spaces, with each unit's span."""

    def __init__(self, units):
        self.units = units
        parts, self.spans, pos = [], [], 0
        for u in units:
            t = unit_text(u)
            self.spans.append((pos, pos + len(t)))
            parts.append(t)
            pos += len(t) + 1
        self.text = " ".join(parts)

    def units_between(self, start, end):
        return [u for u, (a, b) in zip(self.units, self.spans) if a < end and b > start]


def fragment_re(fragment):
    """A fragment of wording as a regex: words separated by any whitespace, a comma at the end of
    a word optional on either side (the catalog writes a listing's lines as `a = b, c = d`), and
    the first letter in either case (a quote that starts mid-sentence)."""
    words = fragment.split()
    parts = []
    for n, w in enumerate(words):
        core = w.rstrip(",")
        pat = re.escape(core)
        if n == 0 and core[:1].isalpha():
            pat = "[%s%s]" % (core[0].lower(), core[0].upper()) + re.escape(core[1:])
        parts.append(pat + ",?")
    return re.compile(r"\s+".join(parts))


def find_wording(stream, wording):
    """-> (start, end) of the wording in the stream, or None.  Fragments around `...` must appear
    in order."""
    fragments = [f for f in ELLIPSIS_RE.split(norm(wording)) if f.strip(" .")]
    if not fragments:
        return None
    pos, first_start = 0, None
    for frag in fragments:
        m = fragment_re(frag).search(stream.text, pos)
        if not m:
            return None
        if first_start is None:
            first_start = m.start()
        pos = m.end()
    return first_start, pos


def closest(stream, wording):
    """The unit (or two adjacent units) most like the wording, with a word diff: what the author
    sees for a stale clause."""
    target = norm(wording).split()
    best, best_ratio = None, 0.0
    units = stream.units
    for i in range(len(units)):
        for j in (i + 1, i + 2):
            if j > len(units):
                continue
            words = " ".join(unit_text(u) for u in units[i:j]).split()
            r = difflib.SequenceMatcher(None, target, words, autojunk=False).ratio()
            if r > best_ratio:
                best, best_ratio = (units[i:j], words), r
    if best is None:
        return None, 0.0, ""
    return best[0], best_ratio, word_diff(target, best[1])


def word_diff(old_words, new_words):
    """`[-removed-]{+added+}` word diff (git's --word-diff=plain)."""
    out = []
    sm = difflib.SequenceMatcher(None, old_words, new_words, autojunk=False)
    for op, a1, a2, b1, b2 in sm.get_opcodes():
        if op == "equal":
            out.append(" ".join(old_words[a1:a2]))
            continue
        if a2 > a1:
            out.append("[-%s-]" % " ".join(old_words[a1:a2]))
        if b2 > b1:
            out.append("{+%s+}" % " ".join(new_words[b1:b2]))
    return " ".join(out)


def text_profile(extract):
    """Which profile's text this is: the 2011 draft defines the extended form and
    _NET_WM_SYNC_DRAWN; EWMH 1.5 (and the 1.4 drafts, whose sync section is 1.5's) do not."""
    body = " ".join(s.text for s in extract.sentences)
    titles = " ".join(s.title for s in extract.sections)
    if "_NET_WM_SYNC_DRAWN" in titles or re.search(r"\bextended form\b", body):
        return "draft-2011"
    return "ewmh-1.5"


class ClauseMatch:
    def __init__(self, clause):
        self.clause = clause
        self.units = []         # units the wording overlaps
        self.where = ""         # "sync sections", "elsewhere in the text", or ""
        self.status = ""        # "found", "stale", "reworded", "not in this text", "no published text"
        self.closest = None     # (units, ratio, diff) for stale / reworded


class Coverage:
    def __init__(self, extract, profile, clauses, cases, faults, fault_notes):
        self.extract, self.profile = extract, profile
        self.clauses = clauses
        self.cases = cases
        self.by_clause = catmod.cases_by_clause(cases)
        self.faults = faults
        self.fault_notes = fault_notes
        self.collateral = []        # [(case glob, fault)] from tests/fault-collateral.txt
        self.matches = {}           # clause id -> ClauseMatch
        self.unit_clauses = {}      # id(unit) -> [clause id]
        self.outside_units = []     # units outside the sync sections that some clause quotes
        self.via = {}               # id(unit) -> {clause id: how, when not by the clause's wording}

    # ---- per clause
    def expected_here(self, clause):
        return clause.published and clause.source_profile == self.profile

    def cases_of(self, clause_id):
        return self.by_clause.get(clause_id, [])

    def faults_of(self, clause_id):
        """The faults of fake-wm (and the fake client) that break this clause."""
        return self.faults.get(clause_id, [])

    def faults_via_cases(self, clause_id):
        """The faults under which the clause's cases are known to fail: for each case, the faults
        of any clause it names (the self-test makes a case fail under the fault of a clause it
        names; the robustness cases, for one, also name ewmh-1.5/basic/request-message) and those
        of tests/fault-collateral.txt.  Distinct, in order."""
        out = []
        for ref in self.cases_of(clause_id):
            for f in self.faults_of_case(ref):
                if f not in out:
                    out.append(f)
        return out

    def faults_of_case(self, ref):
        """The faults of the case's clauses, and those tests/fault-collateral.txt says break it."""
        out = [f for cid in ref.clauses for f in self.faults.get(cid, [])]
        out += [f for glob, f in self.collateral if fnmatch.fnmatchcase(ref.id, glob) and f not in out]
        return out

    def unproven_cases(self, clause_id):
        """The clause's cases that no fault is known to make fail."""
        return [ref for ref in self.cases_of(clause_id) if not self.faults_of_case(ref)]

    def stale(self):
        return [m for m in self.matches.values() if m.status == "stale"]

    def reworded(self):
        return [m for m in self.matches.values() if m.status == "reworded"]

    # ---- per sentence
    def clauses_of(self, unit):
        return self.unit_clauses.get(id(unit), [])

    def sentence_status(self, s):
        """(status, detail): covered, untestable, uncovered, not tested, information."""
        ids = self.clauses_of(s)
        normative = s.type in ("requirement", "permission")
        if not ids:
            return ("uncovered", "a %s with no clause in the catalog" % s.type) if normative else ("information", "")
        testable = [c for c in ids if self.clause(c) is not None and self.clause(c).testable]
        if not testable:
            why = "; ".join(self.clause(c).get("testable")[len("no:"):].strip() for c in ids if self.clause(c))
            return "untestable", why
        tested = [c for c in testable if self.cases_of(c)]
        if not tested:
            return "not tested", "no case checks %s" % ", ".join(testable)
        return "covered", ""

    def clause(self, cid):
        m = self.matches.get(cid)
        return m.clause if m else None

    def uncovered(self):
        return [s for s in self.extract.sentences if self.sentence_status(s)[0] in ("uncovered", "not tested")]

    def check_failures(self):
        """The reasons --check fails, one line each (FILE:LINE: ...)."""
        out = []
        for m in self.stale():
            c = m.clause
            out.append("%s:%d: stale clause %s: its wording is not in %s%s"
                       % (c.path, c.field_lines.get("wording", c.line), c.id, self.extract.doc.path,
                          ("; closest: %s" % m.closest[2]) if m.closest and m.closest[0] else ""))
        for s in self.uncovered():
            status, detail = self.sentence_status(s)
            out.append("%s:%d: %s sentence %s (%s): %s" % (self.extract.doc.path, s.line, status, s.id,
                                                             detail, short(s.text)))
        return out


def short(text, n=100):
    return text if len(text) <= n else text[:n - 1] + "\u2026"


def build(extract, whole, profile, clauses, cases, faults, fault_notes):
    """extract: the sync sections (sentences.Extract); whole: the same for the whole document
    (for wording quoted from elsewhere, e.g. _NET_SUPPORTED)."""
    cov = Coverage(extract, profile, clauses, cases, faults, fault_notes)
    scope = Stream(extract.units)
    everywhere = Stream(whole.units)
    scope_lines = {(u.line, unit_text(u)) for u in extract.units}
    for c in clauses:
        m = ClauseMatch(c)
        cov.matches[c.id] = m
        if not c.published:
            m.status = "no published text"
            continue
        concerned = cov.expected_here(c) or profile in c.profiles or c.source_profile is None
        if not concerned:
            m.status = "not in this text"
            continue
        span = find_wording(scope, c.get("wording"))
        if span:
            m.units, m.where, m.status = scope.units_between(*span), "sync sections", "found"
        else:
            span = find_wording(everywhere, c.get("wording"))
            if span:
                m.units, m.where, m.status = everywhere.units_between(*span), "elsewhere in the text", "found"
                for u in m.units:
                    if (u.line, unit_text(u)) not in scope_lines and u not in cov.outside_units:
                        cov.outside_units.append(u)
        if m.status == "found":
            for u in m.units:
                cov.unit_clauses.setdefault(id(u), []).append(c.id)
            continue
        if cov.expected_here(c):
            m.status = "stale"
            m.closest = closest(scope, c.get("wording"))
        elif c.source_profile is not None and profile in c.profiles:
            m.status = "reworded"
            m.closest = closest(scope, c.get("wording"))
            if m.closest[0] and m.closest[1] >= REWORDED_RATIO:
                m.units = m.closest[0]
                for u in m.units:
                    cov.via.setdefault(id(u), {})[c.id] = "reworded: the catalog quotes %s's text" % c.source_profile
                    cov.unit_clauses.setdefault(id(u), []).append(c.id)
        else:
            m.status = "not in this text"
    map_note_quotes(cov, scope)
    return cov


REWORDED_RATIO = 0.8
NOTE_QUOTE_RE = re.compile(r'"([^"]+)"')
NOTE_QUOTE_MIN_WORDS = 6


def map_note_quotes(cov, scope):
    """A sentence that no clause's wording quotes, but that a clause's note quotes (six words or
    more: "The section's first paragraph says the same (...)"), is mapped to that clause."""
    for m in cov.matches.values():
        c = m.clause
        if m.status not in ("found", "reworded"):
            continue
        for q in NOTE_QUOTE_RE.findall(c.get("note")):
            if len(q.split()) < NOTE_QUOTE_MIN_WORDS:
                continue
            span = find_wording(scope, q)
            if not span:
                continue
            for u in scope.units_between(*span):
                if not cov.unit_clauses.get(id(u)):
                    cov.unit_clauses[id(u)] = [c.id]
                    cov.via.setdefault(id(u), {})[c.id] = "quoted in the clause's note"
