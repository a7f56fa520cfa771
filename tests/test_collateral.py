"""tests/selftest.py's reading of tests/fault-collateral.txt: an entry is expected when its case
fails and stale when it does not, except a `?GLOB` entry (a race decides whether the fault breaks
that case), which is never stale (no X needed)."""
import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import selftest  # noqa: E402

CLAUSE = "draft-2011/extended/initial-value"
COLLATERAL = {"reset-extended": [("delimited/map-odd", "always"), ("?drawn/map-odd-drawn", "a race")]}


def case(cid, verdict, clause="draft-2011/delimited/map-odd"):
    return {"id": cid, "profile": "draft-2011", "verdict": verdict, "clauses": [clause], "failed_clause": clause}


class Collateral(unittest.TestCase):
    def test_race_entry_expected_when_it_fails(self):
        res = {"cases": [case("delimited/map-odd", "FAIL"), case("drawn/map-odd-drawn", "FAIL", "x")]}
        caught, unrelated, stale = selftest.judge_fault("reset-extended", CLAUSE, res, COLLATERAL)
        self.assertEqual((caught, unrelated, stale), ([], [], []))

    def test_race_entry_not_stale_when_it_passes(self):
        res = {"cases": [case("delimited/map-odd", "FAIL"), case("drawn/map-odd-drawn", "PASS", "x")]}
        self.assertEqual(selftest.judge_fault("reset-extended", CLAUSE, res, COLLATERAL)[2], [])

    def test_plain_entry_stale_when_it_passes(self):
        res = {"cases": [case("delimited/map-odd", "PASS")]}
        self.assertEqual(selftest.judge_fault("reset-extended", CLAUSE, res, COLLATERAL)[2], ["delimited/map-odd"])


if __name__ == "__main__":
    unittest.main()
