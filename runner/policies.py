"""`--client CMD --policy all`: the client run under each of fake-wm's compositor policies in turn
(fake-wm --list-policies: fake-wm/policies.c), each a whole run of its own in OUT/POLICY/ (its
results.json, index.html, logs), so the results of one policy never mix with another's; then
OUT/index.html and OUT/policies.md: a line per policy (its run's verdict, counts, the figures'
ranges) linking to its report, and the figures per policy.

A policy name the harness does not know is refused by the harness before anything starts (exit
status 2, with the list of names); `all` is the runner's, so it is refused here without --client.
"""
import html
import os
import subprocess
import sys

from runner import paths, probe
from runner.reports import figures
from runner.results import RunResults

FAKE_WM = os.path.join(paths.ROOT, "fake-wm", "fake-wm")
esc = html.escape


def names():
    """fake-wm's policies, in its order (the first word of each `--list-policies` line)."""
    p = subprocess.run([FAKE_WM, "--list-policies"], capture_output=True, text=True)
    if p.returncode != 0:
        raise OSError("%s --list-policies: exit status %d (run make)" % (FAKE_WM, p.returncode))
    return [line.split("\t")[0] for line in p.stdout.splitlines() if line.strip()]


def requested(passthrough):
    """The value of --policy among the harness options, or None."""
    for i, a in enumerate(passthrough):
        if a == "--policy" and i + 1 < len(passthrough):
            return passthrough[i + 1]
        if a.startswith("--policy="):
            return a.split("=", 1)[1]
    return None


def with_policy(argv, name, out):
    """argv with --policy NAME and --out OUT in place of --policy all and any --out."""
    res, skip = [], False
    for a in argv:
        if skip:
            skip = False
            continue
        if a in ("--policy", "--out"):
            skip = True
            continue
        if a.startswith("--policy=") or a.startswith("--out="):
            continue
        res.append(a)
    return res + ["--policy", name, "--out", out]


STATES_FROM = "FRAMESYNC_CLIENT_STATES_FROM"


def share_states(out, name, given):
    """After the reference policy's run: the application's states found there (what it does by
    itself, which no policy disturbs) are the later policies' (the harness would otherwise find them
    again under the reference policy at the start of each run, harness/executor.c)."""
    table = os.path.join(probe.folder(os.path.join(out, name), 0), "features.tsv")
    if name == "reference" and not given and os.path.exists(table):
        os.environ[STATES_FROM] = table


def restore_states(given):
    if given is None:
        os.environ.pop(STATES_FROM, None)
    else:
        os.environ[STATES_FROM] = given


def run_each(argv, run_one, out, fail):
    """Runs run_one(argv) once per policy into OUT/POLICY; writes the summary; -> the worst exit
    status (a usage error or an interrupt stops the rest)."""
    try:
        policies = names()
    except OSError as e:
        return fail(str(e))
    os.makedirs(out, exist_ok=True)
    done, worst = [], 0
    given_states = os.environ.get(STATES_FROM)
    try:
        for name in policies:
            sys.stderr.write("framesync: --policy all: policy %s (%d of %d) -> %s\n"
                             % (name, len(done) + 1, len(policies), os.path.join(out, name)))
            rc = run_one(with_policy(argv, name, os.path.join(out, name)))
            done.append((name, rc))
            worst = max(worst, rc)
            if rc not in (0, 1):
                break
            share_states(out, name, given_states)
    finally:
        restore_states(given_states)
    write_summary(out, done)
    sys.stderr.write("framesync: --policy all: %s\n" % os.path.join(out, "index.html"))
    return worst


def load(out, name):
    try:
        return RunResults.load(os.path.join(out, name, "results.json")).to_json()
    except (OSError, ValueError):
        return None


def counts(doc):
    c = {}
    for x in doc.get("cases", []):
        c[x.get("verdict")] = c.get(x.get("verdict"), 0) + 1
    return ", ".join("%d %s" % (c[v], v) for v in ("PASS", "FAIL", "SKIP", "UNRESOLVED") if c.get(v))


def write_summary(out, done):
    """OUT/index.html and OUT/policies.md: a line per policy, then its figures."""
    md = ["# Client run per compositor policy", "", "| policy | exit | results | figures |", "|---|---|---|---|"]
    h = ["<!doctype html><meta charset=utf-8><title>framesync: client run per policy</title>",
         "<style>body{font:14px sans-serif;margin:20px}table{border-collapse:collapse;margin:6px 0 18px}"
         "td,th{border:1px solid #ccc;padding:3px 7px}th{background:#f4f4f4}.num{text-align:right}"
         ".empty{color:#777}</style>",
         "<h1>framesync: the client run under each compositor policy</h1>"
         "<p>Each policy is a run of its own (fake-wm --policy NAME, fake-wm/policies.c): follow its name for its "
         "report. The figures are measured, not judged.</p>",
         "<table><tr><th>policy<th>exit<th>results<th>figures</tr>"]
    docs = [(name, rc, load(out, name)) for name, rc in done]
    for name, rc, doc in docs:
        res = counts(doc) if doc else "no results.json"
        figs = figures.summary_text(doc.get("cases", [])) if doc else ""
        md.append("| [%s](%s/index.html) | %d | %s | %s |" % (name, name, rc, res, figs))
        h.append('<tr><td><a href="%s/index.html">%s</a><td class="num">%d<td>%s<td>%s</tr>'
                 % (esc(name), esc(name), rc, esc(res), esc(figs)))
    h.append("</table>")
    for name, _, doc in docs:
        if doc:
            h.append("<h2>%s</h2>" % esc(name) + figures.table_html(doc.get("cases", [])))
    with open(os.path.join(out, "policies.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(md) + "\n")
    with open(os.path.join(out, "index.html"), "w", encoding="utf-8") as f:
        f.write("\n".join(h) + "\n")
