"""Submissions: one implementation's run as one file that can travel to another machine.

    python3 -m runner submit RESULTS... --out FILE [--label KEY=VALUE ...]

RESULTS: results.json files or run folders (a run's --out, a matrix's NAME/ folder, a merged
folder from runner.merge) of one implementation.  A folder's rerun-K/ results (the baseline's
re-runs) mark the cases that failed and then passed as flakes ("flake": true, "reruns": [...]).

The file ("format": "framesync-submission-1") holds the results as they were (results.json's
document, runner/results.py), what ran (results.json's "ran", or --label for files older than it:
runner/provenance.py), the catalog it was made with (every clause's keyword, level, profiles,
section and wording, from cases/clauses.txt) and every case's log, so that the dashboard shows a
diagnostic made elsewhere.  "submitted" says when, on which host, from which inputs.

Taking one in (load) keeps it as it is and checks it against the catalog here: clauses it names
that this catalog does not have, and clauses whose level differs, are listed (Submission.check),
never dropped.  Bad input raises SubmissionError naming the file and what was expected."""
import argparse
import datetime
import json
import os
import re
import socket
import sys

from runner import catalog, paths, provenance
from runner.interop_table import codebase_of
from runner.results import ResultsError, RunResults
from runner.spec.interop import find_results
from runner.terms import level_of_keyword

FORMAT = "framesync-submission-1"
LOG_LIMIT = 256 * 1024   # a case log larger than this is cut (the diagnostic's head is what is read)


class SubmissionError(ValueError):
    """Input that is not what was expected; the message names the file."""


def catalog_record(clauses_path):
    """{clause id: {keyword, level, profiles, section, wording}} of a catalog file."""
    out = {}
    for c in catalog.parse_clauses(clauses_path):
        out[c.id] = {"keyword": c.get("keyword"), "level": level_of_keyword(c.get("keyword")),
                     "profiles": c.profiles, "section": c.get("section"), "wording": c.get("wording"),
                     "testable": c.testable, "binds": c.get("binds") or "wm"}
    return out


def read_log(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read(LOG_LIMIT + 1)
    except OSError:
        return None
    return text if len(text) <= LOG_LIMIT else text[:LOG_LIMIT] + "\n[cut at %d bytes by runner submit]\n" % LOG_LIMIT


def fold_reruns(doc, folder):
    """A FAIL or UNRESOLVED that passed in one of folder's rerun-K/ runs is a flake."""
    if not folder:
        return
    seen = {}
    for sub in sorted(d for d in os.listdir(folder) if d.startswith("rerun-")):
        try:
            rerun = RunResults.load(os.path.join(folder, sub, "results.json"))
        except (OSError, ValueError):
            continue
        for c in rerun.cases:
            seen.setdefault(c.key, []).append(c.verdict.value)
    for c in doc["cases"]:
        verdicts = seen.get((c.get("id"), c.get("profile")))
        if verdicts and c.get("verdict") in ("FAIL", "UNRESOLVED"):
            c["reruns"] = verdicts
            c["flake"] = "PASS" in verdicts


def relocate_logs(doc, folder):
    """A run folder moved or copied since its run (made on another machine, stored as a fixture)
    keeps its logs under folder/logs/, while results.json names them where the run wrote them: a
    case's log missing there is taken from the same place under folder."""
    for c in doc["cases"]:
        path = c.get("log")
        if not path or os.path.exists(path) or "/logs/" not in path:
            continue
        moved = os.path.join(folder, "logs", path.rsplit("/logs/", 1)[1])
        if os.path.exists(moved):
            c["log"] = moved


def gather(inputs):
    """The results of one implementation from every input: (doc, [source file]).  Several files
    are one run made in parts (profiles, shards): their cases must not overlap."""
    files = find_results(inputs)
    docs = []
    for path in files:
        try:
            doc = RunResults.load(path).to_json()
        except OSError as e:
            raise SubmissionError("%s: cannot read: %s" % (path, e.strerror))
        except ResultsError as e:
            raise SubmissionError(str(e))
        fold_reruns(doc, os.path.dirname(path))
        relocate_logs(doc, os.path.dirname(path))
        docs.append((path, doc))
    first_path, merged = docs[0]
    where = {(c.get("id"), c.get("profile")): first_path for c in merged["cases"]}
    for path, doc in docs[1:]:
        for c in doc["cases"]:
            k = (c.get("id"), c.get("profile"))
            if k in where:
                raise SubmissionError("%s: case %s [%s] is also in %s (one submission is one run of one "
                                      "implementation: merge shards with runner.merge first)" % (path, k[0], k[1], where[k]))
            where[k] = path
        merged["cases"] += doc["cases"]
        merged["compositors"] += [c for c in doc["compositors"] if c not in merged["compositors"]]
        merged["ran"] = merged.get("ran") or doc.get("ran")
    return merged, files


def embed_logs(doc):
    """Each case's log into the submission: {key: text}; the case's "log" becomes the key."""
    logs = {}
    for n, c in enumerate(doc["cases"]):
        path = c.get("log")
        if not path:
            continue
        text = read_log(path)
        key = "%s/%s" % (c.get("profile") or "-", os.path.basename(path))
        if key in logs:
            key = "%d-%s" % (n, key)
        c["log"] = key if text is not None else ""
        if text is not None:
            logs[key] = text
    return logs


def implementation_name(doc, ran):
    """The implementation's name: what ran says, else the conf named in the results."""
    name = ((ran or {}).get("compositor") or {}).get("name")
    if name:
        return name
    comps = doc.get("compositors") or []
    return (comps[0].get("conf") or comps[0].get("name") or "unknown") if comps else "unknown"


def found_now(doc):
    """A results.json older than "ran": what this machine has of the conf the results name (said
    so in "found"; --label corrects it), or nothing but the labels."""
    conf = next((c.get("conf") for c in doc.get("compositors") or [] if c.get("conf")), "")
    if conf and provenance.read_conf(conf):
        ran = provenance.describe(conf, {})
        ran["suite"] = {"commit": "", "dirty": False}
        ran["found"] = "at submit time on %s: the results did not record what ran" % socket.gethostname()
        return ran
    return {"compositor": {"name": "", "version": "", "source": "", "origin": "", "commit": "", "recipe": ""},
            "xserver": {"name": "", "version": ""}, "suite": {"commit": "", "dirty": False},
            "machine": {}, "labels": {}, "found": "not recorded: a results.json older than \"ran\""}


def make(inputs, labels, cases_dir):
    """The submission document of one implementation's results."""
    doc, files = gather(inputs)
    ran = doc.pop("ran", None)
    if not ran:
        ran = found_now(doc)
    for key, value in labels.items():
        part, field = provenance.LABEL_FIELDS.get(key, ("labels", key))
        ran.setdefault(part, {})[field] = value
        ran.setdefault("labels", {})[key] = value
    name = implementation_name(doc, ran)
    ran["compositor"]["name"] = name
    commit, dirty = provenance.git_state(paths.ROOT)
    return {"format": FORMAT,
            "submitted": {"at": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                          "host": socket.gethostname(), "inputs": [os.path.abspath(f) for f in files],
                          "by": "python3 -m runner submit"},
            "implementation": {"name": name, "version": ran["compositor"].get("version") or "unknown",
                               "codebase": codebase_of(name)},
            "ran": ran,
            "catalog": {"suite_commit": (ran.get("suite") or {}).get("commit") or commit,
                        "clauses": catalog_record(paths.clauses_of(cases_dir))},
            "logs": embed_logs(doc),
            "results": doc}


def write(doc, path):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m runner submit", description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="+", metavar="RESULTS", help="results.json files or run folders of one implementation")
    ap.add_argument("--out", required=True, metavar="FILE", help="the submission file to write")
    ap.add_argument("--label", action="append", default=[], metavar="KEY=VALUE",
                    help="what ran, where the results do not say it (version, source, commit, recipe, name ...)")
    ap.add_argument("--cases", default=paths.CASES, help="the case folder whose catalog the results were made with")
    a = ap.parse_args(argv)
    try:
        doc = make(a.inputs, provenance.parse_labels(a.label), a.cases)
        write(doc, a.out)
    except (SubmissionError, ResultsError, ValueError) as e:
        sys.stderr.write("runner submit: %s\n" % e)
        return 2
    except OSError as e:
        sys.stderr.write("runner submit: %s: %s\n" % (e.filename, e.strerror))
        return 2
    sub = Submission(a.out, doc)
    print("runner submit: %s: %s %s, %d cases, %d logs; %s" % (a.out, sub.name, sub.version, len(sub.cases),
                                                               len(doc["logs"]), provenance.summary(doc["ran"])))
    for line in sub.check(catalog_record(paths.clauses_of(a.cases))):
        print("runner submit: note: " + line)
    return 0


# ---------------------------------------------------------------- taking one in

def version_key(version):
    """Versions in release order: numbers compared as numbers ("4:5.27.5-3" < "4:6.3.0"); a
    Debian epoch and a leading v are ignored."""
    text = version.split(":", 1)[1] if ":" in version[:3] else version
    text = text.lstrip("v")
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.findall(r"\d+|[^\d.+~-]+", text)]


class Submission:
    """One submission, taken in as it is."""

    def __init__(self, path, doc):
        self.path, self.doc = path, doc
        impl = doc["implementation"]
        self.name, self.version = impl["name"], impl.get("version") or "unknown"
        self.codebase = impl.get("codebase") or codebase_of(self.name)
        self.ran, self.submitted = doc.get("ran") or {}, doc.get("submitted") or {}
        self.theirs = (doc.get("catalog") or {}).get("clauses") or {}
        self.logs = doc.get("logs") or {}
        self.results = RunResults.from_json(doc["results"])
        self.cases = self.results.case_dicts()

    @property
    def label(self):
        return "%s %s" % (self.name, self.version)

    @property
    def reference(self):
        """The suite's own fake-wm: shown, never counted as an implementation."""
        return self.name == "fake-wm"

    @property
    def foreign(self):
        """Made on another machine (its host is not this one)."""
        return self.submitted.get("host") not in (None, socket.gethostname())

    def named_clauses(self):
        out = set(self.theirs)
        for c in self.cases:
            out.update(c.get("clauses") or [])
            if c.get("failed_clause"):
                out.add(c["failed_clause"])
        return out

    def check(self, ours):
        """Against the catalog here ({id: record}): [what differs], one line each."""
        lines = []
        unknown = sorted(cl for cl in self.named_clauses() - set(ours) if "/crash" not in cl)
        if unknown:
            lines.append("%s: %d clause(s) not in this catalog (kept, shown apart): %s"
                         % (self.path, len(unknown), ", ".join(unknown)))
        changed = ["%s (%s there, %s here)" % (cl, self.theirs[cl].get("level"), ours[cl].get("level"))
                   for cl in sorted(set(self.theirs) & set(ours)) if self.theirs[cl].get("level") != ours[cl].get("level")]
        if changed:
            lines.append("%s: %d clause(s) of another level here: %s" % (self.path, len(changed), ", ".join(changed)))
        return lines


def load(path):
    """A submission file -> Submission; raises SubmissionError naming the file."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise SubmissionError("%s: cannot read: %s" % (path, e.strerror))
    except ValueError as e:
        raise SubmissionError("%s: not JSON: %s" % (path, e))
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SubmissionError("%s: not a framesync submission (expected \"format\": \"%s\"; make one with "
                              "python3 -m runner submit RESULTS --out FILE)" % (path, FORMAT))
    for key, kind in (("implementation", dict), ("results", dict), ("catalog", dict), ("logs", dict)):
        if not isinstance(doc.get(key), kind):
            raise SubmissionError("%s: \"%s\" is missing or not an object" % (path, key))
    if not doc["implementation"].get("name"):
        raise SubmissionError("%s: \"implementation\" has no \"name\"" % path)
    try:
        return Submission(path, doc)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise SubmissionError("%s: its \"results\" is not a framesync results document: %s" % (path, e))


def load_all(paths_):
    """Several submissions, in columns order: by implementation (first seen), then version."""
    subs = [load(p) for p in paths_]
    first = {}
    for s in subs:
        first.setdefault(s.name, len(first))
    return sorted(subs, key=lambda s: (first[s.name], version_key(s.version)))
