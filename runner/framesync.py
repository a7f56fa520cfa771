#!/usr/bin/env python3
"""framesync runner: runs the suite on N parallel workers and merges their results.

Each worker is one harness process (harness/framesync-harness --shard k/N --out OUT/workers/k) with its
own Xvfb and compositor.  The runner re-emits one TAP 13 stream in the canonical order (profiles
ewmh-1.5, draft-2011, de-facto; cases by path), identical to what --jobs 1 gives, writes the
merged OUT/results.tap and OUT/results.json (the harness's format), links every worker's case
logs into OUT/logs/, and makes the reports (OUT/junit.xml, OUT/index.html).

Every harness option is passed through; see --help.  Standard library only.
"""
import ctypes
import hashlib
import json
import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARNESS = os.path.join(ROOT, "harness", "framesync-harness")
sys.path.insert(0, ROOT)
from runner.terms import PROFILES, FAIL_ON, describe_level  # noqa: E402
from runner import runverdict  # noqa: E402
# harness options that take a value, passed through unchanged
VALUE_OPTS = ("--wm", "--ready", "--wm-timeout", "--profile", "--filter", "--cases", "--timeout-scale",
              "--features", "--resize-trigger", "--client", "--fail-on")
# what the runner writes into OUT; only these are cleared at the start of a run
OUT_ENTRIES = ("results.tap", "results.json", "results.json.tmp", "junit.xml", "index.html", "logs", "workers",
               "probes", "features.tsv")
EXIT_USAGE = 2
# harness options that run nothing (they print and exit): handed to the harness as they are
DELEGATED = ("--list", "--list-wms", "--list-clients", "--coverage", "--probe")

RESULT_RE = re.compile(r"^(not )?ok (\d+)(.*)$")
PLAN_RE = re.compile(r"^1\.\.(\d+)")
SUMMARY_RE = re.compile(r"^# framesync: \d+ passed, \d+ failed, \d+ skipped, \d+ unresolved$")
ID_RE = re.compile(r"^ - (\S+) \[([^\]]+)\]")

RUNNER_HELP = """\
runner options (runner/framesync.py, what run-tests.sh runs):
  --jobs N            run on N parallel workers, each with its own Xvfb and compositor
                      (default: the number of cores); the output is the same as --jobs 1
  --out DIR           where results.tap, results.json, junit.xml, index.html and logs/ go
                      (default reports/latest); the run's files replace the previous run's
  --shard I/N         run only the I-th of N interleaved slices of the cases (0 <= I < N), e.g.
                      one CI job of N; python3 -m runner.merge DIR... merges the N folders
                      (and those of other compositors) as if they were one run
  --spec FILE.xml     the spec author's report on a DocBook text of wm-spec instead of a run:
                      sentences, coverage, lint, profile diff, interop (--check, --results PATH,
                      --out DIR; see python3 -m spectools.cli --help)
  --bench             benchmark the compositor(s) instead (--wm repeatable, --bench-time S);
                      see --bench --help
on a terminal a status line (done/total, failures, ETA) is shown on stderr.
"""


NONE_WINDOW_RE = re.compile(r"^\s*(?:require\s+)?none\s.*\sfor\s+(\d+)\s*(?:ms)?\s*(?:#.*)?$")
LATE_ANSWER_RE = re.compile(r"^\s*\S+\s+answer\s+late\s+(\d+)\b")


def none_windows_ms(path, cache={}):
    """The fixed waits a case file scripts: the sum of its `none ... for MS` windows (the time a
    compositor is watched not doing something) and of its `answer late MS` delays."""
    path = re.sub(r":\d+$", "", path)  # results.json names FILE:LINE
    if path not in cache:
        total = 0
        try:
            with open(path) as f:
                for line in f:
                    m = NONE_WINDOW_RE.match(line) or LATE_ANSWER_RE.match(line)
                    if m:
                        total += int(m.group(1))
        except OSError:
            pass
        cache[path] = total
    return cache[path]


def mandated_ms(case):
    """The part of a passing case's duration its clause requires: the scripted waits, and for a
    clause about a timeout ("must not block indefinitely") the whole case, since what it measures
    is how long the compositor holds."""
    if case.get("verdict") != "PASS" or not case.get("file"):
        return 0.0
    if any(c.endswith("/not-indefinitely") for c in case.get("clauses", [])[:1]):
        return float(case.get("duration_ms", 0) or 0)
    return float(none_windows_ms(case["file"]))


def read_incidents(pout):
    """The probe pass's crashes (a probe during which the compositor crashed or hung): each result
    of its TAP with its YAML, and its results.json entry."""
    try:
        with open(os.path.join(pout, "results.json"), encoding="utf-8") as f:
            cases = json.load(f).get("cases", [])
        with open(os.path.join(pout, "results.tap"), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, ValueError):
        return []
    texts, cur = [], None
    for line in lines:
        if RESULT_RE.match(line):
            cur = [line]
            texts.append(cur)
        elif cur is not None and line.startswith("  "):
            cur.append(line)
        else:
            cur = None
    return [("\n".join(t) + "\n", c) for t, c in zip(texts, cases)]


def findings_tap(findings):
    """The findings as TAP comments: each clause broken once, with the cases that show it."""
    if not findings:
        return "# findings: none (no clause broken)\n"
    lines = ["# findings: %d clause%s broken (each FAIL is filed under the clause of the check that failed)\n"
             % (len(findings), "" if len(findings) == 1 else "s")]
    for f in findings:
        lines.append("#   %s (%s): %s\n" % (f["clause"], describe_level(f.get("level", "implied")),
                                           "; ".join(f["summary"])))
    return "".join(lines)


def die_usage(msg):
    sys.stderr.write("framesync: %s\n" % msg)
    sys.exit(EXIT_USAGE)


# ---------------------------------------------------------------- options

class Options:
    def __init__(self):
        self.jobs = None
        self.out = None
        self.help = False
        self.delegate = None       # a DELEGATED option given
        self.passthrough = []      # harness options, in the order given
        self.profiles = []         # the --profile values, for the canonical order
        self.cases_dir = None
        self.shard = None          # (I, N) of --shard I/N
        self.allow_empty = False   # --allow-empty (also passed to the harness)
        self.fail_on = "any"       # --fail-on LEVEL (also passed to the harness)


def parse_args(argv):
    o = Options()
    i = 0
    while i < len(argv):
        a = argv[i]
        name, eq, val = a.partition("=") if a.startswith("--") else (a, "", "")
        if name in ("--jobs", "--out") + VALUE_OPTS:
            if not eq:
                if i + 1 >= len(argv):
                    die_usage("option %s needs a value; see --help" % name)
                i += 1
                val = argv[i]
            if name == "--jobs":
                try:
                    o.jobs = int(val)
                except ValueError:
                    o.jobs = 0
                if o.jobs < 1:
                    die_usage("--jobs takes a number of workers (1 or more), not `%s`" % val)
            elif name == "--out":
                if not val:
                    die_usage("--out needs a folder")
                o.out = val
            else:
                o.passthrough += [name, val]
                if name == "--profile":
                    o.profiles += [p for p in val.split(",") if p]
                elif name == "--fail-on":
                    if val not in FAIL_ON:
                        die_usage("--fail-on takes must, should or any, not `%s`" % val)
                    o.fail_on = val
                elif name == "--cases":
                    o.cases_dir = val
        elif name == "--shard":
            if not eq:
                if i + 1 >= len(argv):
                    die_usage("option --shard needs a value I/N; see --help")
                i += 1
                val = argv[i]
            m = re.match(r"^(\d+)/(\d+)$", val)
            if not m or int(m.group(2)) < 1 or int(m.group(1)) >= int(m.group(2)):
                die_usage("--shard takes I/N with 0 <= I < N (one slice of N), not `%s`" % val)
            o.shard = (int(m.group(1)), int(m.group(2)))
        elif a in ("--help", "-h"):
            o.help = True
        elif a == "--allow-empty":
            o.allow_empty = True
            o.passthrough.append(a)
        elif a in DELEGATED:
            o.delegate = a
        else:
            o.passthrough.append(a)  # anything else: the harness says whether it knows it
        i += 1
    return o


def show_help():
    try:
        p = subprocess.run([HARNESS, "--help"], capture_output=True, text=True)
    except OSError as e:
        die_usage("cannot run the harness %s: %s (run make)" % (HARNESS, e))
    lines, skip = [], False
    for line in p.stdout.splitlines():
        if line.startswith("  --shard") or line.startswith("  --select"):
            skip = True  # the runner sets --shard and --select itself
            continue
        if skip and line.startswith("      "):
            continue
        skip = False
        if line.startswith("  --out"):
            continue  # the runner's own, below
        lines.append(line)
    text = "\n".join(lines).replace("usage: framesync [options]", "usage: run-tests.sh [options]   (runner/framesync.py)")
    sys.stdout.write(text + "\n" + RUNNER_HELP)
    sys.stderr.write(p.stderr)
    return p.returncode


# ---------------------------------------------------------------- the selection

def canonical_order(opts):
    """[(case id, profile)] in the canonical order, from `harness --list`: also checks every
    option and case file once before any worker starts."""
    try:
        p = subprocess.run([HARNESS] + opts.passthrough + ["--list"], capture_output=True, text=True)
    except OSError as e:
        die_usage("cannot run the harness %s: %s (run make)" % (HARNESS, e))
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        sys.exit(EXIT_USAGE if p.returncode in (0, 1, 2) else p.returncode)
    wanted = [p_ for p_ in PROFILES if not opts.profiles or p_ in opts.profiles]
    cases = []
    for line in p.stdout.splitlines():
        if not line.strip() or line[0].isspace():
            continue
        words = line.split()
        cases.append((words[0], set(w for w in words[2:] if w in PROFILES)))
    return [(cid, prof) for prof in wanted for cid, profs in cases if prof in profs]


def shard_of(expected, shard):
    """The runner's --shard I/N: every N-th case of the canonical order from the I-th, and what
    runner.merge needs to put the slices back together and to refuse mixed case sets."""
    digest = hashlib.sha256("".join("%s %s\n" % c for c in expected).encode()).hexdigest()[:16]
    selection = {"cases": len(expected), "digest": digest, "shard": None}
    if shard is None:
        return expected, selection
    selection["shard"] = "%d/%d" % shard
    return expected[shard[0]::shard[1]], selection


def write_select(path, expected):
    """The harness's --select file: this slice, one `CASE-ID PROFILE` a line."""
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join("%s %s\n" % c for c in expected))


# ---------------------------------------------------------------- files

def yaml_quoted(s):
    out = ['"']
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append("\\x%02x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def link_or_copy(src, dst):
    """dst gets src's content: a hard link (same folder tree), else a copy."""
    if os.path.lexists(dst):
        if os.path.samefile(src, dst):
            return
        if os.path.getsize(src) == os.path.getsize(dst):
            return
        os.unlink(dst)  # an earlier copy of a file that grew since
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def log_prefix_name(case_id):
    return case_id.replace("/", "-")  # as the harness names the logs


def clear_out(out):
    if os.path.exists(out) and not os.path.isdir(out):
        die_usage("--out %s is not a folder" % out)
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        die_usage("cannot create the output folder %s: %s" % (out, e.strerror))
    for name in OUT_ENTRIES:
        path = os.path.join(out, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        elif os.path.lexists(path):
            os.unlink(path)
    for p in PROFILES:
        os.makedirs(os.path.join(out, "logs", p))
    os.makedirs(os.path.join(out, "workers"))


def write_json_atomic(path, doc):
    """The harness's layout: one compositor / one case per line."""
    def one(d):
        return json.dumps(d, ensure_ascii=False)
    text = ['{\n  "format": %s,\n  "started": %s, "status": %s,\n  "wall_ms": %.1f,\n'
            % (one(doc["format"]), one(doc["started"]), one(doc["status"]), doc["wall_ms"])]
    # other top-level entries (the --shard selection, ...), one a line
    text += ['  "%s": %s,\n' % (k, one(v)) for k, v in doc.items()
             if k not in ("format", "started", "status", "wall_ms", "compositors", "features", "findings", "cases")]
    text.append('  "compositors": [')
    text.append(",".join("\n    " + one(c) for c in doc["compositors"]))
    for key in ("features", "findings"):
        text.append('\n  ],\n  "%s": [' % key)
        text.append(",".join("\n    " + one(c) for c in doc.get(key, [])))
    text.append('\n  ],\n  "cases": [')
    text.append(",".join("\n    " + one(c) for c in doc["cases"]))
    text.append("\n  ]\n}\n")
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("".join(text))
    os.replace(tmp, path)


# ---------------------------------------------------------------- workers

def _child_setup(parent):
    """In the worker, before exec: die with the runner (SIGTERM: the harness then stops its
    Xvfb and compositor), even when the runner is killed by SIGKILL."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:
        os._exit(1)


class Result:
    def __init__(self, worker, local, ok, rest, comments):
        self.worker, self.local, self.ok, self.rest = worker, local, ok, rest
        self.comments = comments
        self.yaml = []
        if ok:
            self.verdict = "SKIP" if re.search(r"# SKIP\b", rest, re.I) else "PASS"
        else:
            self.verdict = "UNRESOLVED" if "# UNRESOLVED" in rest else "FAIL"
        m = ID_RE.match(rest)
        self.case_id, self.profile = (m.group(1), m.group(2)) if m else (None, None)


class Worker:
    def __init__(self, k, n, out, proc):
        self.k, self.n, self.proc = k, n, proc
        self.out = os.path.join(out, "workers", str(k))
        self.plan = None
        self.pending = []          # comments waiting for this worker's next result
        self.current = None        # a `not ok` whose diagnostic is being read
        self.bail = None
        self.buf = {"out": b"", "err": b""}
        self.stderr = []
        self.open_streams = 2
        self.rc = None
        self.last_t = time.monotonic()
        self.results = 0
        self.in_findings = False


class Runner:
    def __init__(self, opts, expected, jobs, out):
        self.opts, self.expected, self.jobs, self.out = opts, expected, jobs, out
        self.start = time.monotonic()
        self.started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        self.workers = []
        self.results = {}          # canonical index -> Result
        self.next = 0              # the next canonical index to emit
        self.plan_emitted = False
        self.seen_comments = set()
        self.counts = {"PASS": 0, "FAIL": 0, "SKIP": 0, "UNRESOLVED": 0}
        self.done = 0              # finished results, emitted or not
        self.failed_so_far = 0
        self.case_times = []
        self.interrupted = 0
        self.error = None          # (worker, reason): a worker ended with an error
        self.warned = set()
        self.stdout_ok = True
        self.tap = open(os.path.join(out, "results.tap"), "w", encoding="utf-8")
        self.progress = sys.stdout.isatty() and sys.stderr.isatty()
        self.status_shown = False
        self.last_json = 0.0
        self.signal_r, self.signal_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self.pending_signals = []
        self.seen_stderr = set()
        self.features_file = None
        self.probing = None
        self.incidents = []        # [(TAP text of the result, results.json case)]: crashes while probing

    # ---- output
    def clear_status(self):
        if self.status_shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.status_shown = False

    def show_status(self):
        if not self.progress:
            return
        total = len(self.expected)
        if self.case_times and self.done < total:
            mean = sum(self.case_times) / len(self.case_times)
            active = max(1, sum(1 for w in self.workers if w.rc is None))
            eta = int(round((total - self.done) * mean / active))
            eta_text = "ETA %d:%02d" % (eta // 60, eta % 60)
        else:
            eta_text = "ETA --:--" if self.done < total else "finishing"
        line = "framesync: %d/%d done, %d failed, %d workers, %s" % (
            self.done, total, self.failed_so_far, self.jobs, eta_text)
        sys.stderr.write("\r\x1b[K" + line)
        sys.stderr.flush()
        self.status_shown = True

    def emit(self, text, tap=True):
        """A piece of the TAP (lines ending in \\n), to stdout and results.tap."""
        if tap:
            self.tap.write(text)
            self.tap.flush()
        if self.stdout_ok:
            self.clear_status()
            try:
                sys.stdout.write(text)
                sys.stdout.flush()
            except BrokenPipeError:  # e.g. `| head`: the run goes on, the files are written
                self.stdout_ok = False
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())

    def warn(self, msg):
        if msg in self.warned:
            return
        self.warned.add(msg)
        self.clear_status()
        sys.stderr.write("framesync: %s\n" % msg)
        sys.stderr.flush()

    # ---- workers
    def probe(self):
        """The probe pass: what the compositor implements is established once, before the workers
        start (a compositor command per profile for fake-wm and `{profile}` commands, one
        otherwise; up to --jobs of them at once), and handed to every worker (--features), so all
        workers judge by the same feature table.  A table given with --features is used as it is."""
        if any(a == "--features" for a in self.opts.passthrough) or not self.expected:
            return None
        wanted = [p for p in PROFILES if any(prof == p for _, prof in self.expected)]
        pt = self.opts.passthrough
        wm = next((pt[i + 1] for i in range(len(pt) - 1) if pt[i] == "--wm"), None)
        per_profile = wm is None or "{profile}" in wm  # the command differs per profile
        groups = [[p] for p in wanted] if per_profile else [wanted[:1]]
        base = [a for a in self.opts.passthrough]
        i = 0
        while i < len(base):  # the probe runs every profile given to it
            if base[i] == "--profile":
                del base[i:i + 2]
            else:
                i += 1
        procs = []
        parent = os.getpid()
        for k, profs in enumerate(groups):
            pout = os.path.join(self.out, "probes", str(k))
            cmd = [HARNESS] + base + ["--profile", ",".join(profs), "--probe", "--out", pout]
            procs.append((pout, cmd))
        tables, failed = [], None
        running = []
        for pout, cmd in procs:
            running.append((pout, subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                                   stderr=subprocess.PIPE, start_new_session=True,
                                                   preexec_fn=lambda: _child_setup(parent))))
            if len(running) >= self.jobs or (pout, cmd) == procs[-1]:
                for rout, proc in running:
                    self.probing = proc
                    out, err = proc.communicate()
                    # 1: the compositor crashed or hung while it was probed (results of their own)
                    if proc.returncode not in (0, 1) and not failed:
                        failed = (proc.returncode, err.decode("utf-8", "replace") or out.decode("utf-8", "replace"))
                    tables.append(rout)
                running = []
        self.probing = None
        if failed:
            return failed
        for rout in tables:
            self.incidents += read_incidents(rout)
        path = os.path.join(self.out, "features.tsv")
        with open(path, "w", encoding="utf-8") as f:
            for rout in tables:
                try:
                    with open(os.path.join(rout, "features.tsv"), encoding="utf-8") as t:
                        f.write(t.read())
                except OSError:
                    pass
                self.link_probe_logs(rout)
        self.features_file = path
        return None

    def link_probe_logs(self, pout):
        src = os.path.join(pout, "logs", "probes")
        for prof in sorted(os.listdir(src)) if os.path.isdir(src) else []:
            dst = os.path.join(self.out, "logs", "probes", prof)
            os.makedirs(dst, exist_ok=True)
            for name in sorted(os.listdir(os.path.join(src, prof))):
                self.link_log(os.path.join(src, prof, name), os.path.join(dst, name))

    def start_workers(self):
        parent = os.getpid()
        for k in range(self.jobs):
            wout = os.path.join(self.out, "workers", str(k))
            cmd = [HARNESS] + self.opts.passthrough + ["--shard", "%d/%d" % (k, self.jobs), "--out", wout]
            if self.features_file:
                cmd += ["--features", self.features_file]
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, start_new_session=True,
                                    preexec_fn=lambda: _child_setup(parent))
            self.workers.append(Worker(k, self.jobs, self.out, proc))

    def forward(self, sig):
        if self.probing is not None and self.probing.poll() is None:
            try:
                os.kill(self.probing.pid, sig)
            except ProcessLookupError:
                pass
        for w in self.workers:
            if w.rc is None:
                try:
                    os.kill(w.proc.pid, sig)
                except ProcessLookupError:
                    pass

    def worker_prefix(self, w):
        return os.path.join(w.out, "logs") + "/"

    def rewrite(self, w, text, yaml=False):
        old, new = self.worker_prefix(w), os.path.join(self.out, "logs") + "/"
        if yaml:
            old, new = yaml_quoted(old)[1:-1], yaml_quoted(new)[1:-1]
        return text.replace(old, new)

    def on_line(self, w, line):
        if w.current is not None:
            if line.startswith("  "):
                w.current.yaml.append(self.rewrite(w, line, yaml=True))
                if line == "  ...":
                    self.finish(w, w.current)
                return
            self.finish(w, w.current)
        if line.startswith("TAP version"):
            return
        m = PLAN_RE.match(line)
        if m and w.plan is None:
            w.plan = int(m.group(1))
            self.maybe_plan()
            return
        m = RESULT_RE.match(line)
        if m:
            r = Result(w, int(m.group(2)), not m.group(1), m.group(3), w.pending)
            w.pending = []
            if r.ok:
                self.finish(w, r)
            else:
                w.current = r
            return
        if line.startswith("#"):
            # a worker's summary, findings and run verdict are of its share only: the runner writes
            # its own (a worker whose share was all skipped says UNRESOLVED of a run that is not)
            if line.startswith("# findings:"):
                w.in_findings = True
            elif not (w.in_findings and line.startswith("#   ")) and not SUMMARY_RE.match(line) \
                    and not line.startswith("# run: "):
                w.in_findings = False
                w.pending.append(line)
            return
        w.in_findings = False
        if line.startswith("Bail out!"):
            w.bail = line[len("Bail out!"):].strip()
            return
        # anything else (the harness's closing `N passed, ...` line) is the runner's to write

    def finish(self, w, r):
        w.current = None
        idx = (r.local - 1) * self.jobs + w.k
        now = time.monotonic()
        self.case_times.append(now - w.last_t)
        w.last_t = now
        w.results += 1
        self.done += 1
        if r.verdict in ("FAIL", "UNRESOLVED"):
            self.failed_so_far += 1
        if idx < len(self.expected) and r.case_id is not None:
            want = self.expected[idx]
            if (r.case_id, r.profile) != want:
                self.warn("worker %d's case %d is %s [%s], the canonical order has %s [%s] there"
                          % (w.k, r.local, r.case_id, r.profile, want[0], want[1]))
        if idx in self.results:
            self.warn("two results for case %d (worker %d)" % (idx + 1, w.k))
            return
        self.results[idx] = r
        if r.case_id:
            self.link_case_logs(w, r.profile, r.case_id)
        self.flush_results()

    def link_case_logs(self, w, profile, case_id):
        src_dir = os.path.join(w.out, "logs", profile)
        dst_dir = os.path.join(self.out, "logs", profile)
        stem = log_prefix_name(case_id) + "."
        try:
            names = os.listdir(src_dir)
        except OSError:
            return
        for name in names:
            if name.startswith(stem):
                self.link_log(os.path.join(src_dir, name), os.path.join(dst_dir, name))

    def link_log(self, src, dst):
        try:
            link_or_copy(src, dst)
        except OSError as e:
            self.warn("cannot put %s into %s: %s" % (src, dst, e.strerror))

    def maybe_plan(self):
        if self.plan_emitted or any(w.plan is None for w in self.workers):
            return
        total = sum(w.plan for w in self.workers)
        if total != len(self.expected):
            self.warn("the workers plan %d cases, --list selected %d" % (total, len(self.expected)))
        self.emit("TAP version 13\n1..%d\n" % (total + len(self.incidents)))
        self.plan_emitted = True
        for k, (text, case) in enumerate(self.incidents):  # the probes' crashes come first
            first, _, rest = text.partition("\n")
            m = RESULT_RE.match(first)
            self.emit("%sok %d%s\n%s" % (m.group(1) or "", k + 1, m.group(3), rest))
            self.counts[case.get("verdict", "FAIL")] += 1
        self.flush_results()

    def show_comments(self, comments):
        for c in comments:
            key = re.sub(r"\d+(?:\.\d+)?", "N", c)  # a display number or a time does not count
            if key not in self.seen_comments:
                self.seen_comments.add(key)
                self.emit(c + "\n")

    def flush_results(self):
        if not self.plan_emitted:
            return
        while self.next in self.results:
            r = self.results[self.next]
            self.show_comments(r.comments)
            self.emit("%sok %d%s\n" % ("" if r.ok else "not ", len(self.incidents) + self.next + 1, r.rest)
                      + "".join(y + "\n" for y in r.yaml))
            self.counts[r.verdict] += 1
            self.next += 1
        now = time.monotonic()
        if now - self.last_json > 0.5:
            self.write_json("running")
            self.last_json = now
        self.show_status()

    def on_eof(self, w):
        if w.buf["out"]:
            self.on_line(w, w.buf["out"].decode("utf-8", "replace"))
            w.buf["out"] = b""
        if w.current is not None:
            self.finish(w, w.current)

    def reap(self, w):
        w.rc = w.proc.wait()
        if self.interrupted or self.error:
            if not self.error or w is self.error[0]:
                self.show_stderr(w, dedupe=True)
            return  # the runner stopped it: what it says about that is noise
        if w.rc == 0 or w.rc == 1:
            self.show_stderr(w, dedupe=True)
            if w.plan is None:
                self.fail_worker(w, "worker %d ended (exit status %d) without a TAP plan" % (w.k, w.rc))
            elif w.results < w.plan:
                self.fail_worker(w, "worker %d stopped after %d of its %d cases" % (w.k, w.results, w.plan))
            return
        if w.rc == EXIT_USAGE:
            why = w.bail or "worker %d ended with exit status 2" % w.k
        elif w.rc < 0:
            why = "worker %d was killed by signal %d (%s)" % (w.k, -w.rc, signal.strsignal(-w.rc))
        else:
            why = w.bail or "worker %d ended with exit status %d" % (w.k, w.rc)
        self.show_stderr(w, dedupe=False)
        self.fail_worker(w, why)

    def fail_worker(self, w, why):
        if self.error:
            return
        self.error = (w, why)
        self.forward(signal.SIGTERM)  # the others stop too; their Bail out! is not shown

    def on_stderr(self, w, line):
        """What a worker says on stderr is shown when it ends: all of it for the worker whose
        error ends the run (once: the others would say the same), else each distinct line once."""
        w.stderr.append(line)

    def show_stderr(self, w, dedupe):
        lines = [l for l in w.stderr if not (dedupe and l in self.seen_stderr)]
        self.seen_stderr.update(w.stderr)
        if lines:
            self.clear_status()
            sys.stderr.write("".join(l + "\n" for l in lines))
            sys.stderr.flush()

    # ---- the loop
    def on_signal(self, sig, frame):
        self.pending_signals.append(sig)
        if self.probing is not None:  # the probe pass runs before the loop that forwards signals
            self.forward(sig)

    def run(self):
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, self.on_signal)
        signal.set_wakeup_fd(self.signal_w)
        self.write_json("running")
        failed = self.probe()
        if failed:
            rc, text = failed
            sys.stderr.write(text if text.endswith("\n") else text + "\n")
            if self.pending_signals or rc > 128 or rc < 0:
                self.tap.close()
                return 128 + signal.SIGINT
            # the same ending as a worker whose compositor does not start: Bail out! on the TAP
            # stream (CI logs show stdout), the reason on stderr, an empty results.json
            sys.stderr.write("framesync: probing the compositor failed (exit status %d)\n" % rc)
            reason = next((ln for ln in text.splitlines() if ln.strip()), "probing the compositor failed")
            self.emit("TAP version 13\nBail out! %s\n" % re.sub(r"[\n#]", " ", reason))
            self.tap.close()
            self.write_json("bailed out")
            return EXIT_USAGE
        try:
            self.start_workers()
        except OSError as e:
            self.forward(signal.SIGTERM)
            for w in self.workers:
                w.proc.wait()
            die_usage("cannot start the harness %s: %s" % (HARNESS, e.strerror))
        sel = selectors.DefaultSelector()
        sel.register(self.signal_r, selectors.EVENT_READ, None)
        for w in self.workers:
            for name, f in (("out", w.proc.stdout), ("err", w.proc.stderr)):
                os.set_blocking(f.fileno(), False)
                sel.register(f, selectors.EVENT_READ, (w, name))
        self.show_status()
        live = len(self.workers)
        while live:
            events = sel.select(0.5 if self.progress else None)
            for key, _ in events:
                if key.data is None:
                    try:
                        os.read(self.signal_r, 512)
                    except BlockingIOError:
                        pass
                    continue
                w, name = key.data
                try:
                    data = os.read(key.fd, 65536)
                except BlockingIOError:
                    continue
                if not data:
                    sel.unregister(key.fileobj)
                    key.fileobj.close()
                    if name == "out":
                        self.on_eof(w)
                    elif w.buf["err"]:
                        self.on_stderr(w, w.buf["err"].decode("utf-8", "replace"))
                        w.buf["err"] = b""
                    w.open_streams -= 1
                    if w.open_streams == 0:
                        self.reap(w)
                        live -= 1
                    continue
                w.buf[name] += data
                *lines, w.buf[name] = w.buf[name].split(b"\n")
                for raw in lines:
                    text = raw.decode("utf-8", "replace")
                    if name == "out":
                        self.on_line(w, text)
                    else:
                        self.on_stderr(w, text)
            while self.pending_signals:
                sig = self.pending_signals.pop(0)
                if not self.interrupted:
                    self.interrupted = sig
                self.forward(sig)
            self.show_status()
        signal.set_wakeup_fd(-1)
        return self.conclude()

    # ---- the end
    def merged(self, status):
        """The merged results.json document (what the workers have written so far)."""
        cases, compositors, seen = {}, [], {}
        worker_docs = []
        for w in self.workers:
            try:
                with open(os.path.join(w.out, "results.json"), encoding="utf-8") as f:
                    worker_docs.append((w, json.load(f)))
            except (OSError, ValueError):
                continue
        for w, doc in worker_docs:
            for i, c in enumerate(doc.get("cases", [])):
                c = dict(c)
                if c.get("log"):
                    c["log"] = self.rewrite(w, c["log"])
                cases[i * self.jobs + w.k] = c
        comps = [(PROFILES.index(c.get("profile")) if c.get("profile") in PROFILES else 99, w.k, i, c)
                 for w, doc in worker_docs for i, c in enumerate(doc.get("compositors", []))]
        # one entry per compositor (profile and command): the workers may have caught it at
        # slightly different moments of its start (not yet owning _NET_WM_CM_S0, say)
        for *_, c in sorted(comps, key=lambda t: t[:3]):
            key = (c.get("profile"), c.get("command"))
            if key not in seen:
                seen[key] = dict(c, supported=list(c.get("supported", [])))
                compositors.append(seen[key])
                continue
            first = seen[key]
            first["composites"] = bool(first.get("composites") or c.get("composites"))
            if not first.get("name"):
                first["name"] = c.get("name", "")
            first["supported"] += [a for a in c.get("supported", []) if a not in first["supported"]]
        from reports.common import findings
        ordered = [case for _, case in self.incidents] + [cases[i] for i in sorted(cases)]
        doc = {"format": "framesync-results-1", "started": self.started, "status": status,
               "wall_ms": (time.monotonic() - self.start) * 1000.0, "compositors": compositors,
               "features": self.features_tables(worker_docs), "findings": findings(ordered), "cases": ordered}
        if getattr(self.opts, "selection", None):
            doc["selection"] = self.opts.selection
        client = next((d["client"] for _, d in worker_docs if d.get("client")), None)
        if client:  # a --client run: the application under test
            doc["client"] = client
        return doc

    def features_tables(self, worker_docs):
        """The feature tables, one per compositor command: the probe pass's, else the workers'."""
        tables, seen = [], set()
        docs = []
        for d in sorted(os.listdir(os.path.join(self.out, "probes"))) if os.path.isdir(os.path.join(self.out, "probes")) else []:
            try:
                with open(os.path.join(self.out, "probes", d, "results.json"), encoding="utf-8") as f:
                    docs.append(json.load(f))
            except (OSError, ValueError):
                pass
        docs += [doc for _, doc in worker_docs]
        for doc in docs:
            for t in doc.get("features", []):
                if t.get("command") not in seen:
                    seen.add(t.get("command"))
                    tables.append(t)
        return tables

    def write_json(self, status):
        doc = self.merged(status)
        write_json_atomic(os.path.join(self.out, "results.json"), doc)
        return doc

    def link_all_logs(self):
        for w in self.workers:
            logs = os.path.join(w.out, "logs")
            for p in PROFILES:
                d = os.path.join(logs, p)
                if os.path.isdir(d):
                    for name in sorted(os.listdir(d)):
                        self.link_log(os.path.join(d, name), os.path.join(self.out, "logs", p, name))
            wm_log = os.path.join(logs, "compositor.log")
            if os.path.exists(wm_log):
                name = "compositor.log" if self.jobs == 1 else "compositor-%d.log" % w.k
                self.link_log(wm_log, os.path.join(self.out, "logs", name))

    def conclude(self):
        self.flush_results()
        self.clear_status()
        self.progress = False
        self.link_all_logs()
        if self.interrupted:
            status = "interrupted by %s" % signal.strsignal(self.interrupted)
        elif self.error:
            status = self.error[1]
        else:
            status = "complete"
        doc = self.merged(status)
        # a CI shard is judged with the others by runner.merge, not alone: an all-skipped slice is fine
        verdict = runverdict.decide(doc, allow_empty=self.opts.allow_empty or self.opts.shard is not None,
                                    fail_on=self.opts.fail_on)
        doc["run"] = {k: verdict[k] for k in ("verdict", "reason", "exit_status")}
        write_json_atomic(os.path.join(self.out, "results.json"), doc)
        wall = time.monotonic() - self.start
        total_ms = sum(float(c.get("duration_ms", 0) or 0) for c in doc["cases"])
        c = self.counts
        failed = c["FAIL"] + c["UNRESOLVED"]
        if self.plan_emitted:
            if not self.interrupted and not self.error:
                trailing = [l for w in self.workers for l in w.pending]
                self.show_comments(trailing)
            line = runverdict.summary_line(verdict)
            if line:
                self.emit(line)
            self.emit(findings_tap(doc["findings"]))
            self.emit("# framesync: %d passed, %d failed, %d skipped, %d unresolved\n"
                      % (c["PASS"], c["FAIL"], c["SKIP"], c["UNRESOLVED"]))
            if self.done or not self.error:
                self.emit("# timing: wall %.2f s, sum of case durations %.2f s, speed-up %.2fx over the sum "
                          "(%d worker%s)\n" % (wall, total_ms / 1000.0, (total_ms / 1000.0) / wall if wall > 0 else 0,
                                              self.jobs, "" if self.jobs == 1 else "s"))
                # the floor: the waits the passing cases' clauses require (mandated_ms), spread over
                # the workers, plus one start-up (the slowest compositor's readiness)
                fixed_ms = sum(mandated_ms(c) for c in doc["cases"])
                startup_ms = max([float(x.get("ready_ms", 0) or 0) for x in doc.get("compositors", [])] or [0])
                floor = (fixed_ms / max(1, self.jobs) + startup_ms) / 1000.0
                if floor > 0:
                    self.emit("# floor: %.2f s (the waits the passing cases' clauses require: none windows, late answers, measured "
                              "hold timeouts; %.1f s in all, over %d worker%s, "
                              "plus a start-up of %.0f ms); wall / floor = %.2f\n"
                              % (floor, fixed_ms / 1000.0, self.jobs, "" if self.jobs == 1 else "s", startup_ms,
                                 wall / floor))
            unemitted = len(doc["cases"]) - self.next
            if self.interrupted or self.error:
                if unemitted > 0:
                    self.emit("# %d more case%s finished out of order: see results.json\n"
                              % (unemitted, "" if unemitted == 1 else "s"))
                self.emit("Bail out! %s\n" % ("interrupted" if self.interrupted else
                                              re.sub(r"[\n#]", " ", self.error[1])))
        elif self.interrupted or self.error:  # stopped before every worker had its plan
            self.emit("TAP version 13\nBail out! %s\n" % ("interrupted" if self.interrupted else
                                                          re.sub(r"[\n#]", " ", self.error[1])))
        self.tap.close()
        self.make_reports()
        if self.interrupted:
            return 128 + self.interrupted
        if self.error:
            return EXIT_USAGE
        self.emit("%d passed, %d failed, %d skipped\n" % (c["PASS"], failed, c["SKIP"]), tap=False)
        return verdict["exit_status"]

    def make_reports(self):
        sys.path.insert(0, ROOT)
        json_path = os.path.join(self.out, "results.json")
        cases_dir = self.opts.cases_dir or os.path.join(ROOT, "cases")
        try:
            from reports import junit, html
            junit.write(json_path, os.path.join(self.out, "junit.xml"),
                        clauses_path=os.path.join(cases_dir, "clauses.txt"))
            html.write(json_path, os.path.join(self.out, "index.html"),
                       clauses_path=os.path.join(cases_dir, "clauses.txt"))
        except Exception as e:  # a report bug must not hide the verdicts
            import traceback
            traceback.print_exc()
            self.warn("the reports could not be made: %s" % e)


def main(argv):
    sys.path.insert(0, ROOT)
    if any(a == "--spec" or a.startswith("--spec=") for a in argv):
        from spectools import cli  # the spec author's report: no run
        return cli.main(argv)
    if "--bench" in argv:
        from runner import bench  # the benchmark: bench.jsonl, bench.json, bench.html
        return bench.main([a for a in argv if a != "--bench"])
    from runner import baseline  # --baseline, --update-baseline, --reruns, --matrix
    argv, gate = baseline.split_runner_args(argv)
    if gate.matrix:
        from runner import matrix
        return matrix.main(gate.matrix_args)
    opts = parse_args(argv)
    if opts.help:
        rc = show_help()
        sys.stdout.write(baseline.RUNNER_HELP)
        return rc
    if opts.delegate:
        args = [HARNESS] + opts.passthrough + [opts.delegate]
        try:
            os.execv(HARNESS, args)
        except OSError as e:
            die_usage("cannot run the harness %s: %s (run make)" % (HARNESS, e.strerror))
    expected, opts.selection = shard_of(canonical_order(opts), opts.shard)
    jobs = opts.jobs or len(os.sched_getaffinity(0)) or 1
    jobs = max(1, min(jobs, len(expected)))
    out = os.path.abspath(opts.out or os.path.join(ROOT, "reports", "latest"))
    clear_out(out)
    if opts.shard:
        select = os.path.join(out, "workers", "select.txt")
        write_select(select, expected)
        opts.passthrough += ["--select", select]
    rc = Runner(opts, expected, jobs, out).run()
    return gate.finish(os.path.join(out, "results.json"), opts.passthrough, rc)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:  # before any worker started
        sys.exit(128 + signal.SIGINT)
