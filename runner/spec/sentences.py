"""The sentences of the sync sections, classified, and the message layouts of their listings.

Each sentence gets:
- its section path and source line;
- RFC 2119 keywords: in capitals (normative under RFC 8174), in lowercase only (not normative as
  written, though the spec declares RFC 2119), or none;
- whom it binds: the actor that is the subject of the keyword (or of an implied obligation such
  as "has to", "will be sent"): the window manager / compositing manager ("wm") or the client /
  application ("client"); "-" for information;
- its type: requirement, permission or information.

The splitter ends a sentence at . ! ? (also when a closing parenthesis or quote follows) before
whitespace and a capital, digit, quote, parenthesis or underscore, never after an abbreviation
such as "e.g.".  A paragraph always ends a sentence.
"""
import re

from . import docbook

REQUIRE_KEYWORDS = ("MUST NOT", "MUST", "SHALL NOT", "SHALL", "SHOULD NOT", "SHOULD", "NOT RECOMMENDED",
                    "RECOMMENDED", "REQUIRED")
PERMIT_KEYWORDS = ("MAY", "OPTIONAL")
_KW = "|".join(k.replace(" ", r"\s+") for k in REQUIRE_KEYWORDS + PERMIT_KEYWORDS)
CAPITAL_RE = re.compile(r"\b(%s)\b" % _KW)
LOWER_RE = re.compile(r"\b(%s)\b" % _KW.lower())
# a capital keyword followed by a lowercase "not" ("SHOULD not"): RFC 2119's phrase is SHOULD NOT
MIXED_NOT_RE = re.compile(r"\b(MUST|SHALL|SHOULD)\s+not\b")

# obligations and permissions written without a keyword
IMPLIED_REQUIRE_RE = re.compile(r"\b(has to|have to|needs? to|is required to|are required to|"
                                r"will be sent|is to be sent)\b")
IMPLIED_PERMIT_RE = re.compile(r"\b(is allowed to|are allowed to|is free to|can at any (?:point|time))\b")
PASSIVE_RE = re.compile(r"\bbe sent\b")

WM_ACTOR = r"(?:GL-based\s+)?(?:compositing\s+window\s+manager|compositing\s+manager|window\s+manager|compositor|WM)\b"
CLIENT_ACTOR = r"(?:client|application)\b(?!\s+(?:message|window|side))"
ACTOR_RE = re.compile(r"\b(?:(?P<wm>%s)|(?P<client>%s))" % (WM_ACTOR, CLIENT_ACTOR), re.I)
PRONOUN_RE = re.compile(r"\b(it|they)\s*$", re.I)

ABBREVIATIONS = {"e.g", "i.e", "etc", "cf", "vs", "viz", "approx", "Mr", "Dr", "No", "Fig", "Sect", "al"}
END_RE = re.compile(r"[.!?][)\"'\u201d\u2019]*(?=\s+[A-Z0-9(\"'\u201c_\[])")


class Sentence:
    def __init__(self, text, lines, block, index_in_block):
        self.text = text
        self.lines = lines                  # source line of each character of text
        self.block = block
        self.index_in_block = index_in_block
        self.section = block.section
        self.line = lines[0] if lines else block.line
        self.id = ""                        # set by extract(): <section slug>/<n>
        self.capitals = []                  # [(keyword, offset)]
        self.lowercase = []
        self.keyword_class = "none"         # "capital", "lowercase only", "none"
        self.type = "information"           # "requirement", "permission", "information"
        self.also_permits = False
        self.binds = "-"                    # "wm", "client", "-"
        self.binds_note = ""                # how the actor was found, when not stated
        self.subject_missing = None         # (offset of the keyword, the subject words) for lint
        self.implied = ""                   # the implied-obligation phrase, if any

    @property
    def path(self):
        return self.section.path

    def line_at(self, offset):
        if not self.lines:
            return self.line
        return self.lines[min(max(offset, 0), len(self.lines) - 1)]

    def keywords(self):
        return [k for k, _ in self.capitals] or [k for k, _ in self.lowercase]


class Layout:
    """A message or property layout from a listing: [(field, value, line)]."""

    def __init__(self, block, rows):
        self.block, self.rows = block, rows
        self.section = block.section
        self.line = block.line
        self.id = ""

    @property
    def path(self):
        return self.section.path

    def value_of(self, field):
        for f, v, _ in self.rows:
            if f == field:
                return v
        return None

    def name(self):
        """The message's name: data.l[0] of a WM_PROTOCOLS message, else its message_type."""
        mtype = self.value_of("message_type")
        if mtype == "WM_PROTOCOLS" and self.value_of("data.l[0]"):
            return self.value_of("data.l[0]")
        return mtype or (self.rows[0][0] if self.rows else "")


def split(text):
    """[(start, end)] of the sentences of a normalized paragraph."""
    spans, start = [], 0
    for m in END_RE.finditer(text):
        word = re.search(r"(\S+)$", text[start:m.start()])
        if word and word.group(1).rstrip(".").split("(")[-1] in ABBREVIATIONS:
            continue
        # a decimal number or a dotted name (1.5, data.l) has no space after its dot: not matched
        end = m.end()
        if text[start:end].strip():
            spans.append((start, end))
        start = end
        while start < len(text) and text[start] == " ":
            start += 1
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def classify(s, previous=None):
    text = s.text
    s.capitals = [(re.sub(r"\s+", " ", m.group(1)), m.start()) for m in CAPITAL_RE.finditer(text)]
    # "SHOULD not": the capital keyword with a lowercase not reads as SHOULD NOT
    for m in MIXED_NOT_RE.finditer(text):
        s.capitals = [(k + " NOT" if off == m.start() else k, off) for k, off in s.capitals]
    lower = []
    for m in LOWER_RE.finditer(text):
        lower.append((re.sub(r"\s+", " ", m.group(1)), m.start()))
    if text[:1].isupper():  # a keyword that starts the sentence ("Should the ...") is lowercase too
        m = re.match(r"(%s)\b" % _KW.lower(), text[:1].lower() + text[1:])
        if m and not CAPITAL_RE.match(text):
            lower.insert(0, (m.group(1), 0))
    s.lowercase = lower
    if s.capitals:
        s.keyword_class = "capital"
        found = s.capitals
    elif s.lowercase:
        s.keyword_class = "lowercase only"
        found = s.lowercase
    else:
        s.keyword_class = "none"
        found = []
    requires = [(k, off) for k, off in found if k.upper() in REQUIRE_KEYWORDS]
    permits = [(k, off) for k, off in found if k.upper() in PERMIT_KEYWORDS]
    anchor = None
    if requires:
        s.type = "requirement"
        s.also_permits = bool(permits)
        anchor = requires[0][1]
    elif permits:
        s.type = "permission"
        anchor = permits[0][1]
    else:
        m = IMPLIED_REQUIRE_RE.search(text)
        p = IMPLIED_PERMIT_RE.search(text)
        if m:
            s.type, anchor, s.implied = "requirement", m.start(), m.group(1)
        elif p:
            s.type, anchor, s.implied = "permission", p.start(), p.group(1)
    if anchor is None:
        s.binds = "-"
        return
    actor, subject_words = actor_before(text, anchor)
    if actor and s.implied and PASSIVE_RE.search(s.implied):
        actor = "wm" if actor == "client" else "client"   # "a client ... will be sent": the WM sends
        s.binds_note = "the passive \"%s\": the other party acts" % s.implied
    if actor:
        s.binds = actor
        return
    s.subject_missing = (anchor, subject_words)
    if previous is not None and previous.binds in ("wm", "client"):
        s.binds = previous.binds
        s.binds_note = "no actor is the subject (\"%s\"); taken from the sentence before" % subject_words
    else:
        s.binds = "-"
        s.binds_note = "no actor is the subject (\"%s\")" % subject_words


def actor_before(text, offset):
    """The actor that is the subject of the verb at offset: the last actor named before it in the
    same clause (after the last ; or :), through a pronoun ("..., it should").  -> (actor or
    None, the subject words just before the keyword)."""
    head = text[:offset]
    cut = max(head.rfind(";"), head.rfind(":"))
    clause = head[cut + 1:]
    subject_words = " ".join(clause.split()[-3:])
    found = None
    for m in ACTOR_RE.finditer(clause):
        found = m
    if found is None:
        return None, subject_words
    # the words between the actor and the keyword must not start a new subject of their own
    # ("the window must" after "the window manager's ..."): a noun phrase with "the"/"a" that is
    # not a pronoun means another subject
    between = clause[found.end():]
    last_np = re.search(r"(?:^|[,(])\s*(?:the|a|an|this|that)\s+([\w-]+)(?:\s+[\w-]+)?\s*$", between, re.I)
    if last_np and not PRONOUN_RE.search(between):
        return None, subject_words
    return ("wm" if found.group("wm") else "client"), subject_words


LAYOUT_ROW_RE = re.compile(r"^\s*(.+?)\s*=\s*(.*?)\s*$")


def layout_of(block):
    rows = []
    for n, raw in enumerate(block.raw.split("\n")):
        m = LAYOUT_ROW_RE.match(raw)
        if m:
            rows.append((m.group(1), m.group(2), block.line + n))
    return Layout(block, rows) if rows else None


class Extract:
    def __init__(self, doc, sections, sentences, layouts, units):
        self.doc, self.sections, self.sentences, self.layouts = doc, sections, sentences, layouts
        self.units = units      # sentences and layouts in document order

    def counts(self):
        c = {"sentences": len(self.sentences), "capital": 0, "lowercase only": 0, "none": 0,
             "requirement": 0, "permission": 0, "information": 0}
        for s in self.sentences:
            c[s.keyword_class] += 1
            c[s.type] += 1
        return c

    def not_normative(self):
        """Requirements and permissions written with lowercase keywords only: RFC 8174 says only
        capitals have the RFC 2119 meaning."""
        return [s for s in self.sentences if s.keyword_class == "lowercase only"]


def extract(doc, sections=None):
    sections = docbook.sync_sections(doc) if sections is None else sections
    sentences, layouts, units = [], [], []
    per_section = {}
    previous = None
    for b in docbook.blocks_in(sections):
        if b.kind == "listing":
            lay = layout_of(b)
            if lay:
                n = per_section.setdefault(id(b.section), [0])
                n[0] += 1
                lay.id = "%s/layout-%d" % (section_slug(b.section), n[0])
                layouts.append(lay)
                units.append(lay)
            continue
        if b.kind != "para":
            continue
        text, lines = b.normalized()
        for i, (start, end) in enumerate(split(text)):
            s = Sentence(text[start:end].strip(), lines[start:end], b, i)
            n = per_section.setdefault(id(b.section), [0])
            n[0] += 1
            s.id = "%s/%d" % (section_slug(b.section), n[0])
            classify(s, previous)
            previous = s
            sentences.append(s)
            units.append(s)
    return Extract(doc, sections, sentences, layouts, units)


def section_slug(section):
    return "/".join(slug(t) for t in section.path[-2:])
