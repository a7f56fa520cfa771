"""What the suite knows about clauses: the catalog (cases/clauses.txt), which cases check each
clause (their `clause:` header and, in the newer case format, `check CLAUSE-ID` section lines),
and which faults of the fake compositor / fake client break each clause (`--list-faults`)."""
import os
import re
import subprocess

from runner.terms import PROFILES
FIELDS = ("clause", "profiles", "section", "keyword", "binds", "testable", "wording", "note")
CLAUSE_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*(?:/[A-Za-z0-9][A-Za-z0-9_.+-]*)+$")


class CatalogError(ValueError):
    """Malformed catalog input; the message names FILE:LINE and what was expected (a ValueError:
    the reports' commands say it as they say a malformed results.json)."""


class Clause:
    def __init__(self, cid, path, line):
        self.id, self.path, self.line = cid, path, line
        self.fields = {}
        self.field_lines = {}

    def get(self, key, default=""):
        return self.fields.get(key, default)

    @property
    def profiles(self):
        return self.get("profiles").split()

    @property
    def testable(self):
        return self.get("testable").startswith("yes")

    @property
    def source_profile(self):
        """The profile whose text the wording is quoted from: the ID's first part, when it is a
        profile (robustness/... quote no single text)."""
        head = self.id.split("/", 1)[0]
        return head if head in PROFILES else None

    @property
    def published(self):
        """False for clauses whose wording is a summary, not a quote of a published text."""
        return "no published text" not in self.get("section") and self.source_profile != "de-facto"


def parse_clauses(path):
    """cases/clauses.txt -> [Clause] in file order.  Records are separated by blank lines; a field
    is `key: value`, continued on indented lines; `#` lines are comments.  Raises CatalogError
    with every problem found, each as FILE:LINE: message."""
    clauses, errors, seen = [], [], {}
    current, key = None, None
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if line.startswith("#"):
                continue
            if not line.strip():
                current, key = None, None
                continue
            if line[0].isspace():
                if current is None or key is None:
                    errors.append("%s:%d: a continuation line outside a record (expected `key: value`)" % (path, n))
                    continue
                current.fields[key] = (current.fields[key] + " " + line.strip()).strip()
                continue
            k, sep, v = line.partition(":")
            k, v = k.strip(), v.strip()
            if not sep or not re.match(r"^[a-z]+$", k):
                errors.append("%s:%d: expected `key: value` (keys: %s), got `%s`" % (path, n, ", ".join(FIELDS), line[:60]))
                continue
            if k == "clause":
                if not CLAUSE_ID_RE.match(v):
                    errors.append("%s:%d: `%s` is not a clause ID (expected group/name, e.g. ewmh-1.5/basic/value-nonzero)"
                                  % (path, n, v))
                if v in seen:
                    errors.append("%s:%d: clause `%s` is already defined at line %d" % (path, n, v, seen[v]))
                seen[v] = n
                current = Clause(v, path, n)
                clauses.append(current)
                key = k
                continue
            if current is None:
                errors.append("%s:%d: `%s:` before any `clause:` line (a record starts with clause:)" % (path, n, k))
                continue
            if k not in FIELDS:
                errors.append("%s:%d: unknown field `%s` (expected one of %s)" % (path, n, k, ", ".join(FIELDS)))
                continue
            current.fields[k] = v
            current.field_lines[k] = n
            key = k
    for c in clauses:
        if not c.get("wording"):
            errors.append("%s:%d: clause `%s` has no `wording:`" % (path, c.line, c.id))
    if errors:
        raise CatalogError("\n".join(errors))
    return clauses


def clause_table(path):
    """cases/clauses.txt -> {clause id: {"clause": id, field: value}}: where the reports and the
    baselines look up a clause's keyword and wording.  A missing file is an empty catalog (the
    reports of a run from a case folder without one still work); a malformed one raises
    CatalogError, naming FILE:LINE."""
    try:
        records = parse_clauses(path)
    except OSError:
        return {}
    return {c.id: {"clause": c.id, **c.fields} for c in records}


# ---------------------------------------------------------------- cases

CASE_ID_RE = re.compile(r"^case:\s*(\S+)")
CASE_CLAUSE_RE = re.compile(r"^clause:\s*(.*?)\s*(?:#.*)?$")
CASE_PROFILES_RE = re.compile(r"^profiles:\s*(.*?)\s*(?:#.*)?$")
CHECK_LINE_RE = re.compile(r"^\s*check\s+(\S+)\s*(?:#.*)?$")


class CaseRef:
    def __init__(self, cid, path):
        self.id, self.path = cid, path
        self.header = []        # the clause: header, first = main
        self.checks = []        # clauses of `check CLAUSE-ID` sections, in every profile's form
        self.checks_in = {}     # {profile: its `check` clauses} for a case with `vary:` lines
        self.profiles = []

    def checks_of(self, profile):
        """The `check` clauses of the case as it runs in profile: a varying case's clause in that
        profile's form only (its de-facto run checks no draft-2011 clause)."""
        return self.checks_in.get(profile, self.checks)

    @property
    def clauses(self):
        return self.header + [c for c in self.checks if c not in self.header]

    @property
    def main(self):
        return self.header[0] if self.header else (self.checks[0] if self.checks else "")


VARY_RE = re.compile(r"^\s*vary:\s*(\S+)\s+(.*)$")
VARY_NAME_RE = re.compile(r"\{([A-Za-z][A-Za-z0-9_-]*)\}")


def expand_vary(lines):
    """A case file with `vary: PROFILE NAME=VALUE...` lines is one case per profile, {NAME}
    replaced (harness/casevary.c): a line naming {NAME} stands for each profile's value, so a
    clause that varies is referenced in every profile's form."""
    values = {}
    for line in lines:
        m = VARY_RE.match(line)
        if m:
            for word in m.group(2).split():
                k, _, v = word.partition("=")
                values.setdefault(k, []).append(v)
    if not values:
        return lines
    out = []
    for line in lines:
        names = [n for n in VARY_NAME_RE.findall(line) if n in values]
        if not names or VARY_RE.match(line):
            out.append(line)
            continue
        for i in range(len(values[names[0]])):
            one = line
            for n in names:
                one = one.replace("{%s}" % n, values[n][i] if i < len(values[n]) else values[n][-1])
            out.append(one)
    return out


def vary_checks(lines):
    """{profile: [clause]} of the `check` lines of a case with `vary:` lines, each profile's
    {NAME} replaced by its own value ({} without `vary:`)."""
    rows = [m for m in (VARY_RE.match(line) for line in lines) if m]
    out = {}
    for row in rows:
        values = dict(w.partition("=")[::2] for w in row.group(2).split())
        for line in lines:
            m = CHECK_LINE_RE.match(VARY_NAME_RE.sub(lambda n: values.get(n.group(1), n.group(0)), line))
            if m:
                out.setdefault(row.group(1), []).append(m.group(1))
    return out


def parse_cases(cases_dir):
    """Every *.case under cases_dir -> {case id: CaseRef}.  Only the lines that name clauses are
    read; the harness is the judge of the rest of a case file."""
    out = {}
    for folder, dirs, files in os.walk(cases_dir):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(".case"):
                continue
            path = os.path.join(folder, name)
            ref = None
            with open(path, encoding="utf-8", errors="replace") as f:
                raw = f.read().splitlines(True)
                lines = expand_vary(raw)
                for line in lines:
                    m = CASE_ID_RE.match(line)
                    if m and ref is None:
                        ref = CaseRef(m.group(1), path)
                        continue
                    if ref is None:
                        continue
                    m = CASE_CLAUSE_RE.match(line)
                    if m and not ref.header:
                        ref.header = m.group(1).split()
                        continue
                    m = CASE_PROFILES_RE.match(line)
                    if m and not ref.profiles:
                        ref.profiles = m.group(1).split()
                        continue
                    m = CHECK_LINE_RE.match(line)
                    if m:
                        ref.checks.append(m.group(1))
            if ref is not None:
                ref.checks_in = vary_checks(raw)
                out[ref.id] = ref
    return out


def cases_by_clause(cases):
    """{clause id: [CaseRef]} over header and check-line clauses."""
    out = {}
    for ref in cases.values():
        for c in ref.clauses:
            out.setdefault(c, []).append(ref)
    return out


# ---------------------------------------------------------------- faults

def list_faults(binary, who):
    """`BINARY --list-faults` -> ([(fault, clause, what, who)], None) or ([], why it is absent).
    A binary that is missing (not built) is absent, not an error."""
    if not os.access(binary, os.X_OK):
        return [], "%s is not built" % os.path.relpath(binary, os.path.dirname(os.path.dirname(binary)))
    try:
        p = subprocess.run([binary, "--list-faults"], capture_output=True, text=True, timeout=20,
                           stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as e:
        return [], "%s --list-faults: %s" % (os.path.basename(binary), e)
    if p.returncode != 0:
        return [], "%s --list-faults failed (exit status %d)" % (os.path.basename(binary), p.returncode)
    faults = []
    for line in p.stdout.splitlines():
        parts = line.split("\t")
        if len(parts) >= 2 and parts[0] and parts[1]:
            faults.append((parts[0], parts[1], parts[2] if len(parts) > 2 else "", who))
    return faults, None


def collateral_faults(path, faults):
    """tests/fault-collateral.txt (`FAULT CASE-ID-GLOB why`: a case a fault also breaks, which the
    self-test checks) -> [(case glob, fault tuple)].  A bare `*` entry is left out: a fault that
    breaks every case that waits for a request says nothing about one case."""
    by_name = {f[0]: f for fl in faults.values() for f in fl}
    out = []
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                parts = line.split(None, 2)
                if len(parts) < 2 or line.startswith("#") or parts[1] == "*" or parts[0] not in by_name:
                    continue
                out.append((parts[1], by_name[parts[0]]))
    except OSError:
        pass
    return out


def faults_by_clause(root):
    """{clause: [(fault, clause, what, who)]}, [notes on absent fault lists]"""
    out, notes = {}, []
    for binary, who in ((os.path.join(root, "fake-wm", "fake-wm"), "fake-wm"),
                        (os.path.join(root, "fake-clients", "model-app", "model-app"), "model-app")):
        faults, why = list_faults(binary, who)
        if why:
            notes.append(why)
        for f in faults:
            out.setdefault(f[1], []).append(f)
    return out, notes
