"""Reads a real-world DocBook file into sections and blocks, keeping the source line of every
character.

wm-spec uses entities that only the DocBook DTD defines (&sect;, &oslash;) and, in 1.5, one that
nothing defines (&version;).  A strict parser refuses such a file unless it loads the DTD, which
would need the network.  expat does not: when the document has an external DTD subset (or is told
to pretend it has one, UseForeignDTD), an undeclared entity is not a well-formedness error but a
"skipped entity".  Skipped entities are replaced from the HTML 5 entity table (a superset of the
ISO sets DocBook uses); one that is not there either is kept as written (`&version;`) and listed
in Document.undefined_entities.  Nothing is fetched.
"""
import html.entities
import re
import xml.parsers.expat

SECTION_TAGS = {"article", "book", "chapter", "appendix", "section", "sect1", "sect2", "sect3", "sect4",
                "sect5", "simplesect", "refsect1", "refsect2", "refsect3"}
# elements whose text is one block (a paragraph, a listing); other elements are inline
PARA_TAGS = {"para", "simpara", "formalpara", "term", "entry", "member", "glossterm", "glossdef"}
LISTING_TAGS = {"programlisting", "screen", "literallayout", "synopsis"}
TITLE_TAGS = {"title"}
SKIP_TAGS = {"remark", "indexterm"}     # editorial text that is not part of the spec's wording


class DocBookError(Exception):
    """A file that cannot be read as XML: the message names FILE:LINE:COLUMN and what was wrong."""


class Block:
    """A paragraph, a listing or a title, with its text and the source line of each character."""

    def __init__(self, kind, tag, section, line):
        self.kind = kind            # "para", "listing" or "title"
        self.tag = tag
        self.section = section
        self.line = line            # where the element starts
        self.chars = []             # [(text, line)] as read
        self.ids = []               # id attributes of the element and of those inside it

    @property
    def raw(self):
        return "".join(t for t, _ in self.chars)

    def lines_of_raw(self):
        """[line of each character of .raw]"""
        out = []
        for text, line in self.chars:
            for ch in text:
                out.append(line)
                if ch == "\n":
                    line += 1
        return out

    def normalized(self):
        """(text with whitespace runs collapsed to one space and trimmed, [line of each char]).
        A collapsed space takes the line of the character after it."""
        raw, lines = self.raw, self.lines_of_raw()
        text, out_lines = [], []
        pending_space = False
        for ch, line in zip(raw, lines):
            if ch.isspace():
                pending_space = bool(text)
                continue
            if pending_space:
                text.append(" ")
                out_lines.append(line)
                pending_space = False
            text.append(ch)
            out_lines.append(line)
        return "".join(text), out_lines


class Section:
    def __init__(self, tag, sid, line, parent):
        self.tag, self.id, self.line, self.parent = tag, sid, line, parent
        self.title = ""
        self.title_line = line
        self.children = []          # Sections
        self.blocks = []            # Blocks directly in this section (not in a subsection)
        self.links = []             # linkend targets of <link>/<xref> directly in this section

    @property
    def path(self):
        """["Window Manager Protocols", "_NET_WM_SYNC_REQUEST", "Extended form"]"""
        out, s = [], self
        while s is not None and s.parent is not None:
            out.append(s.title)
            s = s.parent
        return list(reversed(out))

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()


class Document:
    def __init__(self, path):
        self.path = path
        self.root = None
        self.ids = {}                   # id -> Section or Block
        self.undefined_entities = []    # [(name, line)] kept as written
        self.dtd_entities = []          # [(name, line)] taken from the HTML 5 / ISO table
        self.releaseinfo = ""
        self.lines = []                 # the file's lines (for messages)

    def sections(self):
        return list(self.root.walk()) if self.root else []


def _entity_text(name):
    return html.entities.html5.get(name + ";")


def read(path):
    """Parses the DocBook file at path -> Document.  Raises DocBookError (FILE:LINE:COL: why) on
    a file that is not XML, OSError when it cannot be read."""
    with open(path, "rb") as f:
        data = f.read()
    doc = Document(path)
    doc.lines = data.decode("utf-8", "replace").splitlines()
    parser = xml.parsers.expat.ParserCreate()
    parser.UseForeignDTD(True)          # undeclared entities are skipped, not errors, even without a DOCTYPE
    parser.ExternalEntityRefHandler = lambda *args: 1   # never load the DTD (no network)
    state = {"section": None, "stack": [], "blocks": [], "skip": 0, "title_of": [], "releaseinfo": None}

    def current_block():
        return state["blocks"][-1] if state["blocks"] else None

    def add_text(text):
        if state["skip"]:
            return
        b = current_block()
        if b is not None:
            b.chars.append((text, parser.CurrentLineNumber))
        if state["releaseinfo"] is not None:
            state["releaseinfo"].append(text)

    def start(tag, attrs):
        line = parser.CurrentLineNumber
        state["stack"].append(tag)
        if tag in SKIP_TAGS:
            state["skip"] += 1
        if tag == "releaseinfo":
            state["releaseinfo"] = []
        if tag in SECTION_TAGS:
            sec = Section(tag, attrs.get("id"), line, state["section"])
            if state["section"] is None:
                doc.root = sec
            else:
                state["section"].children.append(sec)
            state["section"] = sec
            if sec.id:
                doc.ids[sec.id] = sec
            return
        if state["section"] is None:    # text before the root element cannot happen in XML
            return
        kind = ("para" if tag in PARA_TAGS else "listing" if tag in LISTING_TAGS
                else "title" if tag in TITLE_TAGS else None)
        if kind and not (kind == "para" and current_block() is not None and current_block().kind == "listing"):
            b = Block(kind, tag, state["section"], line)
            state["blocks"].append(b)
            if kind == "title":
                state["title_of"].append(state["section"])
        b = current_block()
        if attrs.get("id"):
            doc.ids[attrs["id"]] = b if b is not None else state["section"]
            if b is not None:
                b.ids.append(attrs["id"])
        if tag in ("link", "xref") and attrs.get("linkend"):
            state["section"].links.append(attrs["linkend"])

    def end(tag):
        state["stack"].pop()
        if tag in SKIP_TAGS:
            state["skip"] -= 1
        if tag == "releaseinfo" and state["releaseinfo"] is not None:
            doc.releaseinfo = " ".join("".join(state["releaseinfo"]).split())
            state["releaseinfo"] = None
        if tag in SECTION_TAGS:
            state["section"] = state["section"].parent
            return
        b = current_block()
        if b is not None and b.tag == tag and (tag in PARA_TAGS or tag in LISTING_TAGS or tag in TITLE_TAGS):
            state["blocks"].pop()
            if b.kind == "title":
                sec = state["title_of"].pop()
                if not sec.title:
                    sec.title = b.normalized()[0]
                    sec.title_line = b.line
                    return          # a section's title is not one of its blocks
            b.section.blocks.append(b)
            parent = current_block()
            if parent is not None and b.kind == "para" and parent.kind == "para":
                parent.chars.append((" ", b.line))   # a nested paragraph ends a sentence of the outer one

    def skipped(name, is_param):
        if is_param:
            return
        line = parser.CurrentLineNumber
        value = _entity_text(name)
        if value is None:
            doc.undefined_entities.append((name, line))
            add_text("&%s;" % name)
        else:
            doc.dtd_entities.append((name, line))
            add_text(value)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = add_text
    parser.SkippedEntityHandler = skipped
    try:
        parser.Parse(data, True)
    except xml.parsers.expat.ExpatError as e:
        raise DocBookError("%s:%d:%d: not well-formed XML: %s (expected a DocBook XML file)"
                           % (path, e.lineno, e.offset + 1, xml.parsers.expat.ErrorString(e.code)))
    if doc.root is None:
        raise DocBookError("%s:1: no root element (expected a DocBook <article> or <book>)" % path)
    return doc


ATOM_IN_TITLE_RE = re.compile(r"_NET_WM_SYNC\w*|_NET_WM_FRAME_\w*")


def sync_sections(doc):
    """The sections the spec tools work on: every section whose title names a _NET_WM_SYNC* or
    _NET_WM_FRAME_* atom (with its subsections), and every section such a section links to (the
    draft's extended form links to "Deliminated Updates").  Document order."""
    chosen = []
    for sec in doc.sections():
        if ATOM_IN_TITLE_RE.search(sec.title or "") and not any(_is_inside(sec, c) for c in chosen):
            chosen.append(sec)
    linked = []
    for sec in chosen:
        for s in sec.walk():
            for target in s.links:
                t = doc.ids.get(target)
                if isinstance(t, Section) and t not in chosen and t not in linked and \
                        not any(_is_inside(t, c) for c in chosen):
                    linked.append(t)
    order = {id(s): n for n, s in enumerate(doc.sections())}
    return sorted(chosen + linked, key=lambda s: order[id(s)])


def _is_inside(sec, ancestor):
    s = sec.parent
    while s is not None:
        if s is ancestor:
            return True
        s = s.parent
    return False


def blocks_in(sections):
    """Every block of these sections and their subsections, in document order."""
    out = []
    for top in sections:
        for s in top.walk():
            out.extend(s.blocks)
    return sorted(out, key=lambda b: b.line)
