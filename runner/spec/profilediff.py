"""The three profiles side by side: a sentence-aligned, word-level diff of the ewmh-1.5 and
draft-2011 texts, and the de-facto form as the draft with the changes mutter and GTK made.

The de-facto form has no published text: its changes are DEFACTO_EDITS below, each tied to the
catalog clause that states it (the catalog quotes docs/profiles.md), and each change's
"why" is the docs/profiles.md line that says it (the clause's wording when it is absent).

Also the values on which the profiles differ (facts), for the lint: l[4] of an extended request,
the extended form's increment, the drawn message's type.
"""
import difflib
import re

from . import coverage

# (regex that finds the draft unit, old words or None for "the whole unit", new words, clause)
DEFACTO_EDITS = [
    (r"at least 100 greater than the last value", "at least 100 greater", "at least 240 greater",
     "de-facto/extended/plus-240"),
    (r"^Handling of _NET_WM_SYNC_REQUEST is largely the same", "it should choose the value",
     "it marks the request with data.l[4] = 1 and it should choose the value", "de-facto/extended/l4-marker"),
    (r"^A client supporting the extended form of the protocol handles",
     "setting the first counter to the newly received value, and the second counter to the next even number "
     "equal to or greater than the newly received value.",
     "setting the second counter to the newly received value; it ends a frame of its own with +1 (drawn as fast "
     "as possible) or +3 (drawn for a chosen time), and does not write the first counter.",
     "de-facto/extended/client-frame-end"),
    (r"_NET_WM_SUPPORTED_LIST", "If this atom present in _NET_WM_SUPPORTED_LIST",
     "If _NET_WM_FRAME_DRAWN is present in _NET_SUPPORTED", "de-facto/frame-drawn/advertised"),
    (r"^type = ClientMessage .*_NET_WM_SYNC_DRAWN", None,
     "type = ClientMessage window = the respective client window message_type = _NET_WM_FRAME_DRAWN format = 32 "
     "data.l[0] = low 32 bits of the counter value data.l[1] = high 32 bits of the counter value "
     "data.l[2] = low 32 bits of the time the frame was drawn (microseconds of X server time) "
     "data.l[3] = high 32 bits of that time", "de-facto/frame-drawn/layout"),
]
# a whole section of the draft that de-facto does not have
DEFACTO_DROPPED_SECTIONS = {"_NET_WM_SYNC_FENCES": "_NET_WM_SYNC_FENCES was never implemented by any WM"}
# de-facto text with no counterpart in the draft, after the unit that matches the regex
DEFACTO_ADDED = [
    (r"^In addition to sending one message at the end of each update",
     "_NET_WM_FRAME_TIMINGS follows each _NET_WM_FRAME_DRAWN: l[0]/l[1] = counter value, l[2] = presentation time "
     "minus drawn time (signed 32-bit microseconds, 0 = unknown), l[3] = refresh interval in microseconds "
     "(0 = unknown), l[4] = the compositor's expected delay to start the next frame, in microseconds.",
     "de-facto/frame-timings/layout"),
]


def words(text):
    return coverage.norm(text).split()


def diff_ops(old, new):
    """[(op, text)] with op "=", "-", "+": the word-level changes from old to new."""
    a, b = words(old), words(new)
    out = []
    for op, a1, a2, b1, b2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(("=", " ".join(a[a1:a2])))
            continue
        if a2 > a1:
            out.append(("-", " ".join(a[a1:a2])))
        if b2 > b1:
            out.append(("+", " ".join(b[b1:b2])))
    return out


def plain(ops):
    return " ".join(t if op == "=" else ("[-%s-]" % t if op == "-" else "{+%s+}" % t) for op, t in ops)


class Row:
    def __init__(self, kind, old, new, ops):
        self.kind = kind        # "same", "changed", "added", "removed"
        self.old, self.new, self.ops = old, new, ops
        self.defacto = None     # (kind, text, ops, clause, why) for the de-facto column
        self.defacto_added = [] # [(text, clause, why)] after this row

    @property
    def section(self):
        u = self.new or self.old
        return " > ".join(u.path) if u else ""


def align(old_units, new_units):
    """Sentence-aligned rows from two unit lists (sentences and layouts in order)."""
    a = [coverage.unit_text(u) for u in old_units]
    b = [coverage.unit_text(u) for u in new_units]
    rows = []
    for op, a1, a2, b1, b2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            rows += [Row("same", old_units[i], new_units[j], [("=", a[i])]) for i, j in zip(range(a1, a2), range(b1, b2))]
            continue
        rows += pair_block(old_units[a1:a2], new_units[b1:b2])
    return rows


PAIR_RATIO = 0.4     # "The initial value of this counter ..." and the draft's longer rewrite pair at 0.45


def pair_block(olds, news):
    """In a replaced block, each new unit is paired with the most similar unpaired old unit at or
    after the last pairing (order kept), when they share enough words (difflib ratio > PAIR_RATIO)."""
    rows, i = [], 0
    for n in news:
        best, best_r = None, PAIR_RATIO
        for k in range(i, len(olds)):
            r = difflib.SequenceMatcher(None, words(coverage.unit_text(olds[k])), words(coverage.unit_text(n)),
                                        autojunk=False).ratio()
            if r > best_r:
                best, best_r = k, r
        if best is None:
            rows.append(Row("added", None, n, [("+", coverage.unit_text(n))]))
            continue
        rows += [Row("removed", o, None, [("-", coverage.unit_text(o))]) for o in olds[i:best]]
        rows.append(Row("changed", olds[best], n, diff_ops(coverage.unit_text(olds[best]), coverage.unit_text(n))))
        i = best + 1
    rows += [Row("removed", o, None, [("-", coverage.unit_text(o))]) for o in olds[i:]]
    return rows


def notes_why(notes_text, clause):
    """The docs/profiles.md line that states the clause: the bullet sharing the most words with its wording."""
    wording = clause.get("wording") if clause else ""
    if not notes_text:
        return wording
    target = set(w.lower() for w in re.findall(r"[\w\[\]+]+", wording))
    best, score = wording, 0
    for para in re.split(r"\n(?=- |\S)", notes_text):
        text = " ".join(para.split())
        ws = set(w.lower() for w in re.findall(r"[\w\[\]+]+", text))
        s = len(target & ws) / (len(ws) ** 0.5 or 1)
        if s > score:
            best, score = text.lstrip("- "), s
    return best


def apply_defacto(rows, clauses_by_id, notes_text):
    """Fills each row's de-facto column from the draft text (the row's new unit)."""
    for row in rows:
        u = row.new
        if u is None:
            continue
        text = coverage.unit_text(u)
        if any(t in DEFACTO_DROPPED_SECTIONS for t in u.path):
            title = next(t for t in u.path if t in DEFACTO_DROPPED_SECTIONS)
            row.defacto = ("dropped", "", [("-", text)], None, DEFACTO_DROPPED_SECTIONS[title])
            continue
        row.defacto = ("same", text, [("=", text)], None, "")
        after, cids, whys = text, [], []
        for rx, old, new, cid in DEFACTO_EDITS:    # every edit of this unit, in turn
            if not re.search(rx, text):
                continue
            changed = new if old is None else after.replace(old, new)
            if changed != after:
                after = changed
                cids.append(cid)
                whys.append(notes_why(notes_text, clauses_by_id.get(cid)))
        if cids:
            row.defacto = ("changed", after, diff_ops(text, after), ", ".join(cids), " / ".join(whys))
        for rx, added, cid in DEFACTO_ADDED:
            if re.search(rx, text):
                row.defacto_added.append((added, cid, notes_why(notes_text, clauses_by_id.get(cid))))


def build(old_extract, new_extract, clauses, notes_text):
    """Rows of the three-way view.  old_extract: the ewmh-1.5 text (or None), new_extract: the
    draft-2011 text (or None)."""
    by_id = {c.id: c for c in clauses}
    if old_extract and new_extract:
        rows = align(old_extract.units, new_extract.units)
    elif new_extract:
        rows = [Row("added", None, u, [("+", coverage.unit_text(u))]) for u in new_extract.units]
    else:
        rows = [Row("same", u, None, [("=", coverage.unit_text(u))]) for u in old_extract.units]
    if new_extract:
        apply_defacto(rows, by_id, notes_text)
    return rows


# ---------------------------------------------------------------- facts

INCREMENT_RE = re.compile(r"at least (\d+) (?:greater than|above|more than)")
LVALUE_RE = re.compile(r"data\.l\[(\d)\]\s*=\s*(\d+)\b")
OWN_TYPE_RE = re.compile(r"(_NET_\w+) replaces (_NET_\w+) and has its own message_type")


def topic_of_unit(unit, has_extended):
    path = " ".join(unit.path).lower()
    if "drawn" in path:
        return "drawn message"
    if "extended form" in path:
        return "extended request"
    return "basic request" if "sync_request" in path else None


def facts_of_text(extract, profile):
    """[(topic, field, value, line, profile, source)] stated by the text."""
    out = []
    has_extended = any("Extended form" in s.path for s in extract.sentences)
    basic_layout = []
    for lay in extract.layouts:
        topic = topic_of_unit(lay, has_extended)
        if topic is None:
            continue
        given = {}
        for field, value, line in lay.rows:
            m = re.match(r"data\.l\[(\d)\]$", field)
            if m:
                given[int(m.group(1))] = (value, line)
            if field == "message_type":
                out.append((topic, "message_type", value, line, profile, "\"message_type = %s\"" % value))
        for field, value, line in lay.rows:
            if re.match(r"other data\.l\[\] elements$", field):
                for k in range(5):
                    if k not in given:
                        fact = (topic, "l[%d]" % k, value, line, profile, "\"other data.l[] elements = %s\"" % value)
                        out.append(fact)
                        if topic == "basic request":
                            basic_layout.append(fact)
    for s in extract.sentences:
        topic = topic_of_unit(s, has_extended)
        if topic != "extended request":
            continue
        m = INCREMENT_RE.search(s.text)
        if m:
            out.append((topic, "increment", "at least %s" % m.group(1), s.line_at(m.start()), profile,
                        "\"%s\"" % m.group(0)))
        m = re.search(r"largely the same as for the basic form", s.text)
        if m:   # the basic form's layout carries over to the extended form
            for _t, field, value, _line, _p, source in basic_layout:
                out.append((topic, field, value, s.line_at(m.start()), profile,
                            "the basic form's %s, carried over by \"%s\"" % (source, m.group(0))))
    return out


def facts_of_clauses(clauses, skip_profile):
    """The same from the catalog's wording of the other profiles' clauses (de-facto has no
    DocBook text: the catalog is where its values are written)."""
    out = []
    for c in clauses:
        if c.source_profile in (None, skip_profile):
            continue
        group = c.id.split("/")[1] if "/" in c.id else ""
        topic = {"extended": "extended request", "basic": "basic request", "forms": "basic request",
                 "drawn": "drawn message", "frame-drawn": "drawn message"}.get(group)
        if not topic:
            continue
        w = " ".join(c.get("wording").split())
        m = INCREMENT_RE.search(w)
        if m and topic == "extended request":
            out.append((topic, "increment", "at least %s" % m.group(1), c.id, c.source_profile, m.group(0)))
        for m in LVALUE_RE.finditer(w):
            if "extended request" in w or topic != "extended request":
                out.append((topic, "l[%s]" % m.group(1), m.group(2), c.id, c.source_profile, m.group(0)))
        m = OWN_TYPE_RE.search(w)
        if m:
            out.append(("drawn message", "message_type", m.group(1), c.id, c.source_profile, m.group(0)))
    return out
