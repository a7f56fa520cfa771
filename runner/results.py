"""results.json in Python: a case's result and a whole run as dataclasses, read and written in
the harness's format ("framesync-results-1") and layout, one compositor / one case a line, and the
findings of a run (one per clause broken).  This is the one module that reads or writes a
results.json: the runner, the reports, the merge, the baselines, the spec tools and the tests go
through RunResults.load and RunResults.write.

A case keeps every key it was read with, in its order (the harness writes more than the runner
reads: description, step, expected, observed, checks ...), so a case read and written again is
the same line; the fields the runner reads or changes are typed."""
import dataclasses
import json
import os
import typing

from runner.terms import Verdict, level_of_clause

FORMAT = "framesync-results-1"


class ResultsError(ValueError):
    """A file that is not a framesync results.json; the message names the file (a ValueError: the
    commands say it as they say any malformed input)."""


def read_document(path):
    """The one json.load of a results.json: its document, checked to be one.  Raises OSError (the
    file cannot be read) or ResultsError."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except ValueError as e:
        raise ResultsError("%s: not JSON: %s" % (path, e))
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ResultsError("%s: not a framesync results file (expected \"format\": \"%s\")" % (path, FORMAT))
    if not isinstance(doc.get("cases", []), list):
        raise ResultsError("%s: \"cases\" is not a list" % path)
    return doc


@dataclasses.dataclass
class CaseResult:
    """One result of results.json's "cases"."""
    id: str
    profile: str
    verdict: Verdict
    clauses: list = dataclasses.field(default_factory=list)
    failed_clause: typing.Optional[str] = None
    level: typing.Optional[str] = None
    reason: str = ""
    log: str = ""
    file: str = ""
    duration_ms: float = 0.0
    other: dict = dataclasses.field(default_factory=dict)   # every other key, as read
    order: tuple = ()                                         # the keys in the order read

    TYPED = ("id", "profile", "verdict", "clauses", "failed_clause", "level", "reason", "log", "file",
             "duration_ms")

    @classmethod
    def from_json(cls, d):
        typed = {k: d[k] for k in cls.TYPED if k in d}
        typed["verdict"] = Verdict(d.get("verdict", "UNRESOLVED"))
        typed.setdefault("id", "")
        typed.setdefault("profile", "")
        return cls(**typed, other={k: v for k, v in d.items() if k not in cls.TYPED}, order=tuple(d))

    def to_json(self):
        """The case as results.json has it: the keys it was read with, in their order, then any
        the runner added (a merged case's "compositor")."""
        out = {}
        for k in self.order + tuple(k for k in self.TYPED + tuple(self.other) if k not in self.order):
            if k in self.other:
                out[k] = self.other[k]
            elif k in self.TYPED and (k in self.order or self._set(k)):
                v = getattr(self, k)
                out[k] = v.value if isinstance(v, Verdict) else v
        return out

    def _set(self, k):
        """A typed field that was not read counts when it differs from its default."""
        f = next(f for f in dataclasses.fields(self) if f.name == k)
        default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
        return k in ("id", "profile", "verdict") or getattr(self, k) != default

    @property
    def key(self):
        return self.id, self.profile


@dataclasses.dataclass
class RunResults:
    """A whole results.json: the compositors, feature tables and findings stay as the harness
    writes them (lists of plain records); the cases are CaseResults."""
    started: str
    status: str
    wall_ms: float
    compositors: list = dataclasses.field(default_factory=list)
    captures: list = dataclasses.field(default_factory=list)   # the screen stream's figures, one a start
    features: list = dataclasses.field(default_factory=list)
    findings: list = dataclasses.field(default_factory=list)
    cases: list = dataclasses.field(default_factory=list)
    selection: typing.Optional[dict] = None   # a --shard run's slice (the runner's, for runner.merge)
    client: typing.Optional[dict] = None      # a --client run: the application under test
    run: typing.Optional[dict] = None         # the run's verdict (runner/runverdict.py)
    ran: typing.Optional[dict] = None         # what ran: compositor, X server, suite, machine (runner/provenance.py)
    format: str = FORMAT

    # written between wall_ms and the compositors, in this order, when present
    OPTIONAL = ("selection", "client", "run", "ran")

    @classmethod
    def from_json(cls, d):
        return cls(started=d.get("started", ""), status=d.get("status", ""), wall_ms=float(d.get("wall_ms") or 0),
                   compositors=list(d.get("compositors", [])), captures=list(d.get("captures", [])),
                   features=list(d.get("features", [])),
                   findings=list(d.get("findings", [])),
                   cases=[CaseResult.from_json(c) for c in d.get("cases", [])],
                   selection=d.get("selection"), client=d.get("client"), run=d.get("run"), ran=d.get("ran"),
                   format=d.get("format", ""))

    @classmethod
    def load(cls, path):
        """A results.json; raises OSError or ResultsError (read_document, or a case or entry that is
        not what the harness writes)."""
        doc = read_document(path)
        try:
            return cls.from_json(doc)
        except (ValueError, TypeError, AttributeError) as e:
            raise ResultsError("%s: not a framesync results file: %s" % (path, e))

    def with_findings(self, catalog=None):
        """The run with its findings made again from its cases (catalog: for the levels of files
        older than the harness's "level"); merged runs and older files get them so too."""
        self.findings = findings(self.case_dicts(), catalog)
        return self

    def case_dicts(self):
        return [c.to_json() for c in self.cases]

    def to_json(self):
        d = {"format": self.format, "started": self.started, "status": self.status, "wall_ms": self.wall_ms}
        d.update((k, getattr(self, k)) for k in self.OPTIONAL if getattr(self, k) is not None)
        d.update(compositors=self.compositors)
        if self.captures:   # only where a screen stream ran (harness/stream-report.h)
            d.update(captures=self.captures)
        d.update(features=self.features, findings=self.findings, cases=self.case_dicts())
        return d

    def write(self, path):
        """Atomically, in the harness's layout."""
        write_json_atomic(path, self.to_json())


def write_json_atomic(path, doc):
    """A results document (a dict) in the harness's layout: one compositor / one case per line."""
    def one(d):
        return json.dumps(d, ensure_ascii=False)
    text = ['{\n  "format": %s,\n  "started": %s, "status": %s,\n  "wall_ms": %.1f,\n'
            % (one(doc["format"]), one(doc["started"]), one(doc["status"]), doc["wall_ms"])]
    # other top-level entries (the --shard selection, ...), one a line
    text += ['  "%s": %s,\n' % (k, one(v)) for k, v in doc.items()
             if k not in ("format", "started", "status", "wall_ms", "compositors", "captures", "features", "findings",
                          "cases")]
    text.append('  "compositors": [')
    text.append(",".join("\n    " + one(c) for c in doc["compositors"]))
    for key in (("captures",) if "captures" in doc else ()) + ("features", "findings"):
        text.append('\n  ],\n  "%s": [' % key)
        text.append(",".join("\n    " + one(c) for c in doc.get(key, [])))
    text.append('\n  ],\n  "cases": [')
    text.append(",".join("\n    " + one(c) for c in doc["cases"]))
    text.append("\n  ]\n}\n")
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("".join(text))
    os.replace(tmp, path)


def failed_clause(case):
    """The clause a FAIL is filed under: the clause of the check that failed (results.json's
    failed_clause; older files: the case's first clause)."""
    return case.get("failed_clause") or (case.get("clauses") or ["(no clause)"])[0]


def case_level(case, catalog=None):
    """The level of a FAIL: what the harness wrote on the case, else the keyword of the clause it
    is filed under in the catalog (results.json files older than the levels)."""
    return case.get("level") or level_of_clause(failed_clause(case), catalog or {})


def findings(cases, catalog=None):
    """The findings of a run (case records): one per clause broken, with the cases and profiles
    that show it, in the order of their first appearance, and the level of the clause's keyword
    (what the harness wrote on the case, else from the catalog).  One root cause is one finding."""
    by, order = {}, []
    for c in cases:
        if c.get("verdict") != "FAIL":
            continue
        cl = failed_clause(c)
        if cl not in by:
            by[cl] = []
            order.append(cl)
        by[cl].append(c)
    out = []
    for cl in order:
        ids = []
        for c in by[cl]:
            if c["id"] not in ids:
                ids.append(c["id"])
        level = case_level(by[cl][0], catalog)
        out.append({"clause": cl, "level": level, "count": len(by[cl]),
                    "cases": ["%s [%s]" % (c["id"], c["profile"]) for c in by[cl]],
                    "summary": ["%s [%s]" % (i, ", ".join(c["profile"] for c in by[cl] if c["id"] == i)) for i in ids]})
    return out


def merge_compositors(records):
    """One entry per compositor (profile and command), from the records of several workers or
    shards in order: they may have caught it at slightly different moments of its start (not yet
    owning _NET_WM_CM_S0, say), so what one saw and another did not is kept."""
    out, seen = [], {}
    for c in records:
        key = (c.get("profile"), c.get("command"))
        if key not in seen:
            seen[key] = dict(c, supported=list(c.get("supported", [])))
            out.append(seen[key])
            continue
        first = seen[key]
        first["composites"] = bool(first.get("composites") or c.get("composites"))
        if not first.get("name"):
            first["name"] = c.get("name", "")
        first["supported"] += [a for a in c.get("supported", []) if a not in first["supported"]]
    return out


def merge_features(docs):
    """Each compositor command's probed feature table, once (workers and shards share it)."""
    tables, seen = [], set()
    for doc in docs:
        for t in doc.features if isinstance(doc, RunResults) else doc.get("features", []):
            if t.get("command") not in seen:
                seen.add(t.get("command"))
                tables.append(t)
    return tables
