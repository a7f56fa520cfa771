"""Tools for spec authors: from a DocBook text of wm-spec to sentences, coverage, lint, a profile
diff and an annotated spec with an interop table (./run-tests.sh --spec FILE.xml).

    docbook.py     reads real-world DocBook (DTD-only and undefined entities) with source lines
    sentences.py   the sync sections' sentences, RFC 2119 classification, message layouts
    coverage.py    catalog wording matched to the text: stale clauses, uncovered sentences
    lint.py        FILE:LINE: messages (atoms, doubled words, keywords, subjects, vagueness, profiles)
    profilediff.py sentence-aligned, word-level diff of ewmh-1.5, draft-2011 and de-facto
    interop.py     results.json files -> implementations x clauses, at-risk clauses, wordings
    annotate.py    the HTML page (annotated spec, interop table)
    cli.py         the --spec command

The clause catalog they read is runner/catalog.py.

Standard library only.
"""
