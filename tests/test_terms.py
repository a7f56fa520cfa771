"""runner/terms.py (the Python side's profiles, verdicts and levels) agrees with common/terms.c
(the C side's): a tiny program built from common/terms.c prints what the C functions answer, and
the Python functions must answer the same, for every keyword of cases/clauses.txt and the edge
cases."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from runner import terms  # noqa: E402
from runner.catalog import clause_table  # noqa: E402

# Prints `what<TAB>argument<TAB>answer` lines; the argument "(null)" is a NULL keyword.
HELPER = r"""
#include <stdio.h>
#include <string.h>
#include "terms.h"

int main(int argc, char **argv)
{
    for (int p = PROFILE_FIRST; p <= PROFILE_LAST; p <<= 1)
        printf("profile\t%d\t%s\n", p, profile_name((enum profile)p));
    for (int v = 0; v < VERDICT_COUNT; v++)
        printf("verdict\t%d\t%s\n", v, verdict_name((enum verdict)v));
    for (int l = LEVEL_IMPLIED; l <= LEVEL_DEFECT; l++)
        printf("level\t%d\t%s\ndescribe\t%s\t%s\n", l, level_name((enum level)l), level_name((enum level)l),
               level_describe((enum level)l));
    const char *fail_on[] = {"any", "should", "must", "all", "MUST", ""};
    for (size_t i = 0; i < sizeof fail_on / sizeof *fail_on; i++) {
        enum fail_on f;
        if (fail_on_parse(fail_on[i], &f)) {
            printf("fail-on\t%s\tinvalid\n", fail_on[i]);
            continue;
        }
        for (int l = LEVEL_IMPLIED; l <= LEVEL_DEFECT; l++)
            printf("fails\t%s %s\t%d\n", fail_on[i], level_name((enum level)l), level_fails((enum level)l, f));
    }
    for (int i = 1; i < argc; i++)
        printf("keyword\t%s\t%s\n", argv[i], level_name(level_of_keyword(strcmp(argv[i], "(null)") ? argv[i] : NULL)));
    return 0;
}
"""

EDGE_KEYWORDS = ["MUST", "MUST NOT", "SHALL", "SHALL NOT", "REQUIRED", "SHOULD", "SHOULD NOT", "RECOMMENDED",
                 "must", "must not", "shall", "shall not", "should", "should not", "MAY", "may", "OPTIONAL",
                 "implied", "defect", "", "(null)", "Must", "NOT RECOMMENDED", "mustard"]


def compiler():
    return shutil.which(os.environ.get("CC", "cc"))


@unittest.skipUnless(compiler(), "needs a C compiler (build-essential)")
class TermsAgree(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp()
        src, exe = os.path.join(cls.dir, "terms-helper.c"), os.path.join(cls.dir, "terms-helper")
        with open(src, "w") as f:
            f.write(HELPER)
        common = os.path.join(ROOT, "common")
        subprocess.run([compiler(), "-std=c11", "-Wall", "-Werror", "-I", common, "-o", exe, src,
                        os.path.join(common, "terms.c")], check=True, capture_output=True, text=True)
        catalog = clause_table(os.path.join(ROOT, "cases", "clauses.txt"))
        cls.keywords = sorted({c.get("keyword", "") for c in catalog.values()} | set(EDGE_KEYWORDS))
        out = subprocess.run([exe] + cls.keywords, check=True, capture_output=True, text=True).stdout
        cls.c = {}
        for line in out.splitlines():
            what, arg, answer = line.split("\t")
            cls.c.setdefault(what, {})[arg] = answer

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def test_profiles_and_verdicts(self):
        self.assertEqual(tuple(self.c["profile"].values()), terms.PROFILES)
        self.assertEqual(tuple(self.c["verdict"].values()), terms.VERDICTS)

    def test_levels_in_the_same_order(self):
        self.assertEqual(tuple(self.c["level"].values()), terms.LEVELS)

    def test_descriptions(self):
        for level in terms.LEVELS:
            self.assertEqual(terms.describe_level(level), self.c["describe"][level], level)

    def test_level_of_every_keyword(self):
        self.assertIn("MUST NOT", self.keywords)   # the catalog's own keywords are among them
        for k in self.keywords:
            self.assertEqual(terms.level_of_keyword(None if k == "(null)" else k), self.c["keyword"][k], repr(k))

    def test_fail_on(self):
        tried = {"any", "should", "must", "all", "MUST", ""}     # as the helper tries them
        self.assertEqual(tried - set(self.c["fail-on"]), set(terms.FAIL_ON))   # the names fail_on_parse takes
        for key, answer in self.c["fails"].items():
            fail_on, level = key.split(" ")
            self.assertEqual(terms.level_fails(level, fail_on), answer == "1", key)


if __name__ == "__main__":
    unittest.main()
