"""Tests of runner/spec/: the DocBook reader, sentences and their classification, coverage against
the catalog, and the lint.  The real texts are read from ../shared/spec/docbook/ (relative to the
repository root); the tests that need them skip, saying so, when that folder is absent."""
import os
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from runner import catalog  # noqa: E402
from runner.spec import coverage, docbook, lint, profilediff, sentences  # noqa: E402

TEXTS = os.path.join(os.path.dirname(ROOT), "shared", "spec", "docbook")
SPEC_15 = os.path.join(TEXTS, "wm-spec-1.5.xml")
DRAFT = os.path.join(TEXTS, "wm-spec-draft-2011.xml")
DRAFT_14 = os.path.join(TEXTS, "wm-spec-1.4-draft-2.xml")
NO_TEXTS = "the spec texts are not in ../shared/spec/docbook/ (a checkout without shared/)"


def have_texts():
    return all(os.path.exists(p) for p in (SPEC_15, DRAFT, DRAFT_14))


def write_tmp(text, suffix=".xml"):
    fd, path = tempfile.mkstemp(suffix=suffix)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    return path


MINI = """<!DOCTYPE article PUBLIC "-//OASIS//DTD DocBook XML V4.1.2//EN"
"http://www.oasis-open.org/docbook/xml/4.1.2/docbookx.dtd" [
]>
<article id="index">
<articleinfo><releaseinfo>&version;</releaseinfo></articleinfo>
<sect1><title>Intro</title><para>See &sect;1. The key words are in RFC 2119.</para></sect1>
<sect1><title>Protocols</title>
<sect2><title>_NET_WM_SYNC_REQUEST</title>
<para>
A client MUST set the counter. The window manager should send
it, e.g. at once. The window must track the value.
Handling is largely the same (see <link linkend="more">more</link>).
</para>
<programlisting><![CDATA[
type = ClientMessage
message_type = WM_PROTOCOLS
data.l[0] = _NET_WM_SYNC_REQUEST
other data.l[] elements = 0
]]></programlisting>
</sect2>
<sect2 id="more"><title>More</title><para>The compositor may wait. This is is fine.
(Note that it is allowed to compress.) The contents are as follows:</para></sect2>
<sect2><title>Other</title><para>Unrelated text that MUST not count.</para></sect2>
</sect1>
</article>
"""


class Reader(unittest.TestCase):
    def test_dtd_only_and_undefined_entities_without_network(self):
        path = write_tmp(MINI)
        try:
            doc = docbook.read(path)
        finally:
            os.unlink(path)
        self.assertEqual(doc.undefined_entities, [("version", 5)])
        self.assertEqual(doc.releaseinfo, "&version;")
        intro = [b for b in docbook.blocks_in([doc.root]) if b.section.title == "Intro"][0]
        self.assertIn("See \u00a71.", intro.normalized()[0])

    def test_no_doctype_is_read_too(self):
        path = write_tmp("<article><sect1><title>_NET_WM_SYNC_DRAWN</title><para>A &oslash; &nope; b.</para></sect1></article>")
        try:
            doc = docbook.read(path)
        finally:
            os.unlink(path)
        self.assertEqual([n for n, _ in doc.undefined_entities], ["nope"])
        self.assertEqual(docbook.blocks_in([doc.root])[0].normalized()[0], "A \u00f8 &nope; b.")

    def test_malformed_xml_names_file_line_and_column(self):
        path = write_tmp("<article>\n<para>text\n</article>\n")
        try:
            with self.assertRaises(docbook.DocBookError) as cm:
                docbook.read(path)
        finally:
            os.unlink(path)
        self.assertRegex(str(cm.exception), r"^%s:3:\d+: not well-formed XML: mismatched tag" % path)

    def test_sync_sections_follow_titles_and_links(self):
        path = write_tmp(MINI)
        try:
            doc = docbook.read(path)
        finally:
            os.unlink(path)
        self.assertEqual([s.title for s in docbook.sync_sections(doc)], ["_NET_WM_SYNC_REQUEST", "More"])


class Sentences(unittest.TestCase):
    def setUp(self):
        path = write_tmp(MINI)
        try:
            self.ex = sentences.extract(docbook.read(path))
        finally:
            os.unlink(path)

    def test_split_keeps_abbreviations_and_splits_after_parenthesis(self):
        texts = [s.text for s in self.ex.sentences]
        self.assertIn("The window manager should send it, e.g. at once.", texts)
        self.assertIn("(Note that it is allowed to compress.)", texts)
        self.assertIn("The contents are as follows:", texts)
        self.assertEqual(len(texts), 8)

    def test_classification(self):
        by_text = {s.text.split()[1]: s for s in self.ex.sentences}
        s = by_text["client"]
        self.assertEqual((s.keyword_class, s.type, s.binds), ("capital", "requirement", "client"))
        s = by_text["window"]           # "The window manager should send it"
        self.assertEqual((s.keyword_class, s.type, s.binds), ("lowercase only", "requirement", "wm"))
        s = by_text["compositor"]
        self.assertEqual((s.keyword_class, s.type, s.binds), ("lowercase only", "permission", "wm"))
        s = by_text["that"]             # "(Note that it is allowed to ...)"
        self.assertEqual((s.keyword_class, s.type), ("none", "permission"))
        s = [x for x in self.ex.sentences if x.text.startswith("The window must")][0]
        self.assertIsNotNone(s.subject_missing)
        self.assertEqual(s.binds, "wm")  # from the sentence before
        self.assertIn("taken from the sentence before", s.binds_note)

    def test_layout_as_field_table(self):
        (lay,) = self.ex.layouts
        self.assertEqual(lay.name(), "_NET_WM_SYNC_REQUEST")
        self.assertEqual(lay.rows[0][:2], ("type", "ClientMessage"))
        self.assertEqual(lay.value_of("other data.l[] elements"), "0")


class Lint(unittest.TestCase):
    def test_mini(self):
        path = write_tmp(MINI)
        try:
            ex = sentences.extract(docbook.read(path))
            found = [str(f).split(": ", 1)[1] for f in lint.lint(ex, "mini.xml")]
        finally:
            os.unlink(path)
        self.assertIn('doubled word "is is"', found)
        self.assertTrue(any(f.startswith("requirement with no actor as its subject: \"The window must\"") for f in found))
        self.assertTrue(any(f.startswith('RFC 2119 keyword in lowercase: "should"') for f in found))
        self.assertTrue(any(f.startswith('vague "largely"') for f in found))
        self.assertTrue(any("entity &version;" in f for f in found))

    def test_edit_distance(self):
        self.assertEqual(lint.edit_distance("_NET_WM_SYNCf_REQUEST_COUNTER", "_NET_WM_SYNC_REQUEST_COUNTER"), 1)
        self.assertEqual(lint.nearest_atom("_NET_WM_SUPPORTED_LIST", {"_NET_SUPPORTED", "_NET_CLIENT_LIST",
                                                                        "_NET_SUPPORTING_WM_CHECK"}), "_NET_SUPPORTED")


@unittest.skipUnless(have_texts(), NO_TEXTS)
class RealTexts(unittest.TestCase):
    """The three texts of ../shared/spec/docbook/."""

    @classmethod
    def setUpClass(cls):
        cls.clauses = catalog.parse_clauses(os.path.join(ROOT, "cases", "clauses.txt"))
        cls.cases = catalog.parse_cases(os.path.join(ROOT, "cases"))
        cls.texts = {}
        for p in (SPEC_15, DRAFT, DRAFT_14):
            doc = docbook.read(p)
            ex = sentences.extract(doc)
            whole = sentences.extract(doc, [doc.root])
            prof = coverage.text_profile(ex)
            cov = coverage.build(ex, whole, prof, cls.clauses, cls.cases, {}, [])
            found = lint.lint(ex, p, profilediff.facts_of_text(ex, prof), profilediff.facts_of_clauses(cls.clauses, prof))
            cls.texts[p] = (ex, prof, cov, found)

    def test_counts_15(self):
        ex, prof, _, _ = self.texts[SPEC_15]
        self.assertEqual(prof, "ewmh-1.5")
        c = ex.counts()
        self.assertEqual((c["sentences"], c["capital"], c["lowercase only"], c["none"]), (10, 4, 0, 6))

    def test_counts_draft(self):
        # The issue counted 45 = 4 + 15 + 26: it did not end a sentence at ".)", so "(Note that the
        # window manager is allowed to compress ...)" and "The contents of the message are as
        # follows:" were one sentence.  They are two.
        ex, prof, _, _ = self.texts[DRAFT]
        self.assertEqual(prof, "draft-2011")
        c = ex.counts()
        self.assertEqual((c["sentences"], c["capital"], c["lowercase only"], c["none"]), (46, 4, 15, 27))
        self.assertEqual(len(ex.not_normative()), 15)
        self.assertIn("A compositing manager must not block redrawing operations indefinitely if an application "
                      "does not complete an update.", [s.text for s in ex.not_normative()])

    def test_14_draft_reads_as_15(self):
        ex, prof, cov, _ = self.texts[DRAFT_14]
        self.assertEqual((prof, ex.counts()["sentences"]), ("ewmh-1.5", 10))
        self.assertEqual(cov.check_failures(), [])

    def test_layouts(self):
        ex = self.texts[DRAFT][0]
        self.assertEqual([l.name() for l in ex.layouts], ["_NET_WM_SYNC_REQUEST", "_NET_WM_SYNC_DRAWN"])

    def test_check_passes_on_15(self):
        cov = self.texts[SPEC_15][2]
        self.assertEqual(cov.check_failures(), [])
        self.assertEqual(cov.matches["ewmh-1.5/basic/request-message"].status, "found")  # listing written with commas

    def test_check_passes_on_draft(self):
        # its last uncovered sentence, the GL-level synchronization of the fences section, has its
        # (untestable) clause draft-2011/fences/gl-synchronization
        cov = self.texts[DRAFT][2]
        self.assertEqual(cov.check_failures(), [])
        self.assertEqual(cov.stale(), [])

    def test_stale_wording_is_named_with_a_word_diff(self):
        ex, prof, _, _ = self.texts[SPEC_15]
        c = catalog.Clause("ewmh-1.5/basic/x", "clauses.txt", 7)
        c.fields = {"profiles": "ewmh-1.5", "testable": "yes", "wording": "The number is always incremented by one."}
        c.field_lines["wording"] = 9
        doc = ex.doc
        cov = coverage.build(ex, sentences.extract(doc, [doc.root]), prof, [c], {}, {}, [])
        (failure,) = [f for f in cov.check_failures() if "stale" in f]
        self.assertIn("clauses.txt:9: stale clause ewmh-1.5/basic/x", failure)
        self.assertIn("[-always-]", failure)

    def test_lint_draft_known_slips(self):
        found = [str(f) for f in self.texts[DRAFT][3]]
        text = "\n".join(found)
        for expected in ("`_NET_WM_SYNCf_REQUEST_COUNTER` is not an atom this spec defines; did you mean "
                         "`_NET_WM_SYNC_REQUEST_COUNTER`?",
                         "`_NET_WM_SUPPORTED_LIST` is not an atom this spec defines; did you mean `_NET_SUPPORTED`?",
                         "`_NET_WM_SYNC_REQUEST_COUNTER message`: the spec defines _NET_WM_SYNC_REQUEST_COUNTER as a "
                         "property",
                         ':1655: doubled word "is is"', ':1669: doubled word "an an"', ':1851: doubled word "is is"',
                         ':1668: requirement with no actor as its subject: "The window must"',
                         '"protoocol" (used once): did you mean "protocol"',
                         'vague quantity "a short timeout"',
                         "profiles differ on l[4] of the extended request: draft-2011 says 0",
                         "profiles differ on increment of the extended request: draft-2011 says at least 100"):
            self.assertIn(expected, text)

    def test_lint_15_finds_only_what_can_be_defended(self):
        found = sorted(str(f).split(": ", 1)[1] for f in self.texts[SPEC_15][3])
        self.assertEqual(len(found), 4, found)
        self.assertTrue(found[0].startswith('"SHOULD not": RFC 2119'))      # SHOULD NOT is the keyword
        self.assertTrue(found[1].startswith('entity &date;'))              # 1.5 defines neither entity
        self.assertTrue(found[2].startswith('entity &version;'))
        self.assertTrue(found[3].startswith('vague "generally"'))          # "generally intended to be incremented"


if __name__ == "__main__":
    unittest.main()
