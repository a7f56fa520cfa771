"""The suite's vocabulary for the Python side, defined once: the profiles (the texts under test),
the verdicts, and the levels of a finding (the keyword of the clause it breaks).  common/terms.h
is the C side; tests/test_terms.py checks that the two agree."""
import enum

PROFILES = ("ewmh-1.5", "draft-2011", "de-facto")


class Verdict(enum.Enum):
    """PASS: every declared check ran and held.  FAIL: the compositor (or application) broke the
    clause.  SKIP: does not apply (with the reason).  UNRESOLVED: the suite could not decide."""
    PASS = "PASS"
    FAIL = "FAIL"
    SKIP = "SKIP"
    UNRESOLVED = "UNRESOLVED"

    def is_success(self):
        """Counts as green: a pass or a skip (never an UNRESOLVED)."""
        return self in (Verdict.PASS, Verdict.SKIP)


VERDICTS = tuple(v.value for v in Verdict)

# Levels, weakest first, as level_name() names them in C.
LEVELS = ("implied", "should", "SHOULD", "must", "MUST", "defect")
LEVEL_TEXT = {
    "must": "must: lowercase, not RFC 2119 normative as written",
    "should": "should: lowercase, not RFC 2119 normative as written",
    "implied": "implied: stated without a keyword",
    "defect": "defect: the compositor or the application under test crashed or hung",
}
CRASH_CLAUSE = "compositor/crash"
CLIENT_CRASH_CLAUSE = "client/crash"   # the application under test (--client) ended by itself
FAIL_ON = ("any", "should", "must")


def level_of_keyword(keyword):
    """The level of a catalog keyword: "MUST NOT" -> MUST, "should" -> should, MAY -> implied."""
    k = (keyword or "").strip()
    if k == "defect":
        return "defect"
    if k.startswith(("MUST", "SHALL")) or k == "REQUIRED":
        return "MUST"
    if k.startswith("SHOULD") or k == "RECOMMENDED":
        return "SHOULD"
    if k.startswith(("must", "shall")):
        return "must"
    if k.startswith("should"):
        return "should"
    return "implied"


def level_of_clause(clause_id, catalog):
    """catalog: {clause id: {"keyword": ...}} (runner.catalog.clause_table)."""
    if clause_id in (CRASH_CLAUSE, CLIENT_CRASH_CLAUSE):
        return "defect"
    return level_of_keyword((catalog.get(clause_id) or {}).get("keyword"))


def describe_level(level):
    return LEVEL_TEXT.get(level, level)


def level_label(level):
    """A level in a few words, for a badge or a table cell: "MUST", "SHOULD", "implied",
    "defect", and "lowercase must" / "lowercase should", since a reader who sees a bare "should"
    beside a "SHOULD" cannot tell that one of them is not RFC 2119 normative as written."""
    return "lowercase " + level if level in ("must", "should") else level


def level_fails(level, fail_on):
    """Does a finding of this level make the exit status 1 under --fail-on?"""
    if fail_on == "must":
        return level in ("MUST", "must", "defect")
    if fail_on == "should":
        return level != "implied"
    return True
