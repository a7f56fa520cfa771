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


class _Reader:
    """expat's handlers while a DocBook file is read: which section and blocks are open, and what
    text goes where."""

    def __init__(self, doc, parser):
        self.doc, self.parser = doc, parser
        self.section = None
        self.stack, self.blocks, self.title_of = [], [], []
        self.skip = 0
        self.releaseinfo = None         # the words of <releaseinfo> while it is open
        parser.StartElementHandler = self.start
        parser.EndElementHandler = self.end
        parser.CharacterDataHandler = self.add_text
        parser.SkippedEntityHandler = self.skipped

    def current_block(self):
        return self.blocks[-1] if self.blocks else None

    def add_text(self, text):
        if self.skip:
            return
        b = self.current_block()
        if b is not None:
            b.chars.append((text, self.parser.CurrentLineNumber))
        if self.releaseinfo is not None:
            self.releaseinfo.append(text)

    def start(self, tag, attrs):
        line = self.parser.CurrentLineNumber
        self.stack.append(tag)
        if tag in SKIP_TAGS:
            self.skip += 1
        if tag == "releaseinfo":
            self.releaseinfo = []
        if tag in SECTION_TAGS:
            self.open_section(tag, attrs, line)
            return
        if self.section is None:    # text before the root element cannot happen in XML
            return
        kind = ("para" if tag in PARA_TAGS else "listing" if tag in LISTING_TAGS
                else "title" if tag in TITLE_TAGS else None)
        open_block = self.current_block()
        if kind and not (kind == "para" and open_block is not None and open_block.kind == "listing"):
            self.blocks.append(Block(kind, tag, self.section, line))
            if kind == "title":
                self.title_of.append(self.section)
        b = self.current_block()
        if attrs.get("id"):
            self.doc.ids[attrs["id"]] = b if b is not None else self.section
            if b is not None:
                b.ids.append(attrs["id"])
        if tag in ("link", "xref") and attrs.get("linkend"):
            self.section.links.append(attrs["linkend"])

    def open_section(self, tag, attrs, line):
        sec = Section(tag, attrs.get("id"), line, self.section)
        if self.section is None:
            self.doc.root = sec
        else:
            self.section.children.append(sec)
        self.section = sec
        if sec.id:
            self.doc.ids[sec.id] = sec

    def end(self, tag):
        self.stack.pop()
        if tag in SKIP_TAGS:
            self.skip -= 1
        if tag == "releaseinfo" and self.releaseinfo is not None:
            self.doc.releaseinfo = " ".join("".join(self.releaseinfo).split())
            self.releaseinfo = None
        if tag in SECTION_TAGS:
            self.section = self.section.parent
            return
        b = self.current_block()
        if b is not None and b.tag == tag and (tag in PARA_TAGS or tag in LISTING_TAGS or tag in TITLE_TAGS):
            self.close_block(b)

    def close_block(self, b):
        self.blocks.pop()
        if b.kind == "title":
            sec = self.title_of.pop()
            if not sec.title:
                sec.title = b.normalized()[0]
                sec.title_line = b.line
                return          # a section's title is not one of its blocks
        b.section.blocks.append(b)
        parent = self.current_block()
        if parent is not None and b.kind == "para" and parent.kind == "para":
            parent.chars.append((" ", b.line))   # a nested paragraph ends a sentence of the outer one

    def skipped(self, name, is_param):
        if is_param:
            return
        line = self.parser.CurrentLineNumber
        value = _entity_text(name)
        if value is None:
            self.doc.undefined_entities.append((name, line))
            self.add_text("&%s;" % name)
        else:
            self.doc.dtd_entities.append((name, line))
            self.add_text(value)


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
    _Reader(doc, parser)
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
