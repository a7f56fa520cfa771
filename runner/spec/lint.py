"""Lint of a spec text's sync sections, as `FILE:LINE: message` lines.

Checks:
- atom names that the spec does not define, with the defined atom they nearly are
  (`_NET_WM_SYNCf_REQUEST_COUNTER`), and a property named as a message;
- doubled words ("is is");
- RFC 2119 keywords in lowercase (not normative under RFC 8174) and "SHOULD not";
- requirements whose subject is not an actor ("The window must track");
- vague quantities ("a short timeout", "large enough", "indefinitely");
- words that nearly are a word the text uses often ("protoocol");
- values on which the profiles differ (l[4] = 0 against 1, +100 against +240);
- entities that nothing defines (the file is then not XML a strict parser accepts).

The atoms a spec defines: those that title a section, appear in a listing, or appear at least
twice in the whole text; X's own atoms (WM_PROTOCOLS, ...) are not checked.
"""
import re

from . import docbook

ATOM_RE = re.compile(r"(?<![A-Za-z0-9])_[A-Z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+")
DOUBLED_RE = re.compile(r"\b(\w+)\s+(\1)\b", re.I)
WORD_RE = re.compile(r"[A-Za-z]+")
VAGUE = [
    (re.compile(r"\b(?:a\s+)?(short|long)\s+(timeout|time|delay|while|period)\b", re.I),
     "vague quantity \"{0}\": how long? (a test has to choose a bound the text does not give)"),
    (re.compile(r"\b(large|small|big|fast|long|short)\s+enough\b", re.I),
     "vague quantity \"{0}\": say the number or the rule"),
    (re.compile(r"\bsufficiently\s+(large|small|big|fast|long|short)\b", re.I),
     "vague quantity \"{0}\": say the number or the rule"),
    (re.compile(r"\b(reasonable|timely)\s+(time|amount|delay)\b", re.I),
     "vague quantity \"{0}\": how long?"),
    (re.compile(r"\bindefinitely\b", re.I),
     "vague bound \"{0}\": no limit is stated, so no implementation can be shown to break it"),
    (re.compile(r"\b(generally|largely|usually|normally)\b", re.I),
     "vague \"{0}\": which cases are the exceptions? (not a requirement as written)"),
    (re.compile(r"\bsmall\s+changes\b", re.I),
     "vague \"{0}\": say what changes"),
]


class Finding:
    def __init__(self, path, line, check, message):
        self.path, self.line, self.check, self.message = path, line, check, message

    def __str__(self):
        return "%s:%d: %s" % (self.path, self.line, self.message)


def edit_distance(a, b, limit=4):
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def all_text(doc):
    """[(normalized text, lines, block)] of every block of the document."""
    return [(b.normalized() + (b,)) for b in docbook.blocks_in([doc.root])]


def defined_atoms(doc):
    """The atoms the spec defines: each titles a section, appears in a listing (a property's or
    message's layout), or is introduced as a property ("the property X", "the X property") and
    named more than once.  Being mentioned, however often, does not define an atom (the 2008 text
    already wrote _NET_WM_SUPPORTED_LIST twice), and a typo named once with "property" after it
    (_NET_WM_SYNCf_REQUEST_COUNTER) is not a definition."""
    defined, counts, as_property = set(), {}, set()
    for sec in doc.sections():
        defined.update(ATOM_RE.findall(sec.title or ""))
    for text, _, block in all_text(doc):
        for a in ATOM_RE.findall(text):
            counts[a] = counts.get(a, 0) + 1
        if block.kind == "listing":
            defined.update(ATOM_RE.findall(text))
            continue
        for m in re.finditer(r"\bproperty\s+(%s)|(%s)\s+property\b" % (ATOM_RE.pattern, ATOM_RE.pattern), text):
            as_property.add(m.group(1) or m.group(2))
    defined.update(a for a in as_property if counts.get(a, 0) >= 2)
    return defined


def nearest_atom(atom, defined):
    """The defined atom this one most likely means: the fewest edits, else the most shared words
    besides NET and WM."""
    best = min(defined, key=lambda d: (edit_distance(atom, d), d)) if defined else None
    if best is not None and edit_distance(atom, best) <= 3:
        return best
    words = set(atom.strip("_").split("_")) - {"NET", "WM"}   # shared words, weighed by their length
    scored = [(sum(len(w) for w in words & set(d.strip("_").split("_"))), -len(d), d) for d in defined]
    scored = [s for s in scored if s[0] > 0]
    return max(scored)[2] if scored else None


def check_atoms(extract, path, out):
    doc = extract.doc
    defined = defined_atoms(doc)
    properties = set()
    messages = set()
    whole = " ".join(t for t, _, _ in all_text(doc))
    for a in defined:
        if re.search(r"(?:property\s+%s|%s\s+property)\b" % (re.escape(a), re.escape(a)), whole):
            properties.add(a)
    for lay in extract.layouts:
        for field, value, _ in lay.rows:
            if field in ("message_type", "data.l[0]"):
                messages.add(value)
    for s in extract.sentences:
        for m in ATOM_RE.finditer(s.text):
            a = m.group(0)
            if a not in defined:
                near = nearest_atom(a, defined)
                out.append(Finding(path, s.line_at(m.start()), "atom",
                                   "`%s` is not an atom this spec defines%s" % (
                                       a, "; did you mean `%s`?" % near if near else "")))
            elif a in properties and a not in messages and \
                    re.match(r"\s+message\b", s.text[m.end():]):
                out.append(Finding(path, s.line_at(m.start()), "atom",
                                   "`%s message`: the spec defines %s as a property, not a message%s" % (
                                       a, a, "; the message is `%s`?" % nearest_message(a, messages) if messages else "")))


def nearest_message(atom, messages):
    return min(messages, key=lambda mm: (edit_distance(atom, mm, 40), mm))


def check_doubled(extract, path, out):
    for s in extract.sentences:
        for m in DOUBLED_RE.finditer(s.text):
            if m.group(1).isdigit():
                continue
            out.append(Finding(path, s.line_at(m.start(2)), "doubled",
                               "doubled word \"%s %s\"" % (m.group(1), m.group(2))))


def check_keywords(extract, path, out):
    for s in extract.sentences:
        for kw, off in s.lowercase:
            if s.keyword_class == "lowercase only":
                msg = ("RFC 2119 keyword in lowercase: \"%s\" is not normative as written (RFC 8174: only capitals"
                       " count); write %s if this %s binds the %s" % (
                           kw, kw.upper(), s.type, {"wm": "window manager", "client": "client"}.get(s.binds, "reader")))
            else:
                msg = ("lowercase \"%s\" in a sentence that uses capital keywords: a reader cannot tell whether it is"
                       " meant as %s" % (kw, kw.upper()))
            out.append(Finding(path, s.line_at(off), "keyword", msg))
        for m in re.finditer(r"\b(MUST|SHALL|SHOULD)\s+not\b", s.text):
            out.append(Finding(path, s.line_at(m.start()), "keyword",
                               "\"%s\": RFC 2119's keyword is \"%s NOT\", all in capitals" % (
                                   " ".join(m.group(0).split()), m.group(1))))


def check_subjects(extract, path, out):
    for s in extract.sentences:
        if s.subject_missing and s.keyword_class != "none":
            off, words = s.subject_missing
            out.append(Finding(path, s.line_at(off), "subject",
                               "requirement with no actor as its subject: \"%s %s\" (who must? %s)" % (
                                   words, s.text[off:].split()[0],
                                   "the sentence before is about the %s" % (
                                       "window manager" if s.binds == "wm" else "client") if s.binds != "-" else
                                   "name the window manager or the client")))


def check_vague(extract, path, out):
    for s in extract.sentences:
        for rx, msg in VAGUE:
            for m in rx.finditer(s.text):
                out.append(Finding(path, s.line_at(m.start()), "vague", msg.format(" ".join(m.group(0).split()))))


def check_spelling(extract, path, out):
    """A word used once in the whole text that is one edit away from a word the text uses at least
    three times, and is not that word with another ending."""
    counts = {}
    for text, _, _ in all_text(extract.doc):
        for w in WORD_RE.findall(text):
            counts[w.lower()] = counts.get(w.lower(), 0) + 1
    common = [w for w, n in counts.items() if n >= 3 and len(w) >= 5]
    for s in extract.sentences:
        for m in WORD_RE.finditer(s.text):
            w = m.group(0).lower()
            if len(w) < 6 or counts.get(w, 0) != 1:
                continue
            for c in common:
                if edit_distance(w, c, 1) == 1 and not _inflection(w, c):
                    out.append(Finding(path, s.line_at(m.start()), "spelling",
                                       "\"%s\" (used once): did you mean \"%s\" (used %d times)?" % (m.group(0), c, counts[c])))
                    break


def _inflection(a, b):
    """One edit in the last two letters is an ending (manages / manager, handles / handled)."""
    n = min(len(a), len(b)) - 2
    return a[:n] == b[:n]


def check_entities(extract, path, out):
    for name, line in extract.doc.undefined_entities:
        out.append(Finding(path, line, "entity",
                           "entity &%s; is defined neither in the file nor in DocBook's entity sets: a strict XML parser"
                           " refuses the file (declare it in the DOCTYPE's internal subset)" % name))


def check_profiles(facts_here, facts_other, path, out):
    """facts_*: [(topic, field, value, line or clause id, profile, source text)]"""
    for topic, field, value, where, profile, source in facts_here:
        others = [(v, p, w, src) for t, f, v, w, p, src in facts_other if t == topic and f == field and v != value]
        seen = set()
        for v, p, w, src in others:
            if (v, p) in seen:
                continue
            seen.add((v, p))
            out.append(Finding(path, where, "profiles",
                               "profiles differ on %s of the %s: %s says %s here (%s), %s says %s (%s)" % (
                                   field, topic, profile, value, source, p, v, w)))


def lint(extract, path, facts_here=(), facts_other=()):
    out = []
    check_entities(extract, path, out)
    check_atoms(extract, path, out)
    check_doubled(extract, path, out)
    check_spelling(extract, path, out)
    check_keywords(extract, path, out)
    check_subjects(extract, path, out)
    check_vague(extract, path, out)
    check_profiles(facts_here, facts_other, path, out)
    return sorted(out, key=lambda f: (f.line, f.check, f.message))
