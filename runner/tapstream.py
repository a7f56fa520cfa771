"""The TAP stream: N workers' TAP 13 merged into one, in the canonical order, as --jobs 1 gives it.

Worker k runs the cases k, k+N, k+2N ... of the canonical order (the harness's --shard k/N), so
its i-th result is case (i-1)*N + k.  The stream holds back a result until every earlier one is
out, renumbers it, shows each distinct comment once (a display number or a time does not count),
and writes the plan once every worker has planned.  The probes' crashes come first.  The workers'
own summaries, findings and run verdicts are of their share only: the runner writes its own
(summary_text)."""
import re
import time

from runner.terms import Verdict, describe_level

RESULT_RE = re.compile(r"^(not )?ok (\d+)(.*)$")
PLAN_RE = re.compile(r"^1\.\.(\d+)")
SUMMARY_RE = re.compile(r"^# framesync: \d+ passed, \d+ failed, \d+ skipped, \d+ unresolved$")
ID_RE = re.compile(r"^ - (\S+) \[([^\]]+)\]")


def yaml_quoted(s):
    """s as the harness quotes it in a YAML diagnostic."""
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


def comment_key(comment):
    """A comment without its numbers: `# X server Xvfb :3 ready after 50 ms` is shown once."""
    return re.sub(r"\d+(?:\.\d+)?", "N", comment)


class TapResult:
    """One `ok`/`not ok` line of a worker, with its YAML diagnostic and the comments before it."""

    def __init__(self, worker, local, ok, rest, comments):
        self.worker, self.local, self.ok, self.rest = worker, local, ok, rest
        self.comments = comments
        self.yaml = []
        if ok:
            self.verdict = Verdict.SKIP if re.search(r"# SKIP\b", rest, re.I) else Verdict.PASS
        else:
            self.verdict = Verdict.UNRESOLVED if "# UNRESOLVED" in rest else Verdict.FAIL
        m = ID_RE.match(rest)
        self.case_id, self.profile = (m.group(1), m.group(2)) if m else (None, None)

    def text(self, number):
        return "%sok %d%s\n" % ("" if self.ok else "not ", number, self.rest) + "".join(y + "\n" for y in self.yaml)


class WorkerTap:
    """Where one worker's stream stands."""

    def __init__(self, k):
        self.k = k
        self.plan = None
        self.pending = []          # comments waiting for this worker's next result
        self.current = None        # a `not ok` whose diagnostic is being read
        self.bail = None           # the reason of its `Bail out!`
        self.results = 0
        self.last_t = time.monotonic()
        self.in_findings = False


def family(case_id):
    """The states of one client case (`.../animating`, `.../idle`) are one unit of the dealing."""
    head, _, last = case_id.rpartition("/")
    return head if last in ("animating", "idle") else None


def deal(expected, jobs):
    """Which canonical indices each of `jobs` workers runs, as harness/selection.c deals them: unit k
    of the canonical order to worker k % jobs, a unit being one case, or the states of one client
    case together."""
    dealt, unit, last = [[] for _ in range(jobs)], -1, None
    for idx, (case_id, profile) in enumerate(expected):
        fam = family(case_id)
        if fam is None or (fam, profile) != last:
            unit += 1
        last = (fam, profile) if fam is not None else None
        dealt[unit % jobs].append(idx)
    return dealt


class TapStream:
    """expected: [(case id, profile)] in the canonical order; console: where the TAP goes;
    incidents: [(TAP text, case)] of the probes' crashes; rewrite(k, text, yaml): a worker's log
    paths made the run's; on_result(k, TapResult): called for each result as it arrives."""

    def __init__(self, expected, jobs, console, incidents=(), rewrite=None, on_result=None):
        self.expected, self.jobs, self.console = expected, jobs, console
        self.incidents = list(incidents)
        self.rewrite = rewrite or (lambda k, text, yaml=False: text)
        self.on_result = on_result or (lambda k, r: None)
        self.workers = [WorkerTap(k) for k in range(jobs)]
        self.dealt = deal(expected, jobs)  # each worker's canonical indices, in its order
        self.results = {}          # canonical index -> TapResult
        self.next = 0              # the next canonical index to emit
        self.plan_emitted = False
        self.seen_comments = set()
        self.counts = {v: 0 for v in Verdict}
        self.done = 0              # finished results, emitted or not
        self.failed_so_far = 0
        self.case_times = []

    # ---- reading a worker's lines
    def on_line(self, k, line):
        w = self.workers[k]
        if w.current is not None:
            if line.startswith("  "):
                w.current.yaml.append(self.rewrite(k, line, yaml=True))
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
            r = TapResult(w, int(m.group(2)), not m.group(1), m.group(3), w.pending)
            w.pending = []
            if r.ok:
                self.finish(w, r)
            else:
                w.current = r
            return
        self.on_other(w, line)

    def on_other(self, w, line):
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
        # anything else (the harness's closing `N passed, ...` line) is the runner's to write

    def on_eof(self, k):
        w = self.workers[k]
        if w.current is not None:
            self.finish(w, w.current)

    def finish(self, w, r):
        w.current = None
        mine = self.dealt[w.k]
        idx = mine[r.local - 1] if r.local - 1 < len(mine) else len(self.expected) + r.local * self.jobs + w.k
        now = time.monotonic()
        self.case_times.append(now - w.last_t)
        w.last_t = now
        w.results += 1
        self.done += 1
        if not r.verdict.is_success():
            self.failed_so_far += 1
        if idx < len(self.expected) and r.case_id is not None:
            want = self.expected[idx]
            if (r.case_id, r.profile) != want:
                self.console.warn("worker %d's case %d is %s [%s], the canonical order has %s [%s] there"
                                  % (w.k, r.local, r.case_id, r.profile, want[0], want[1]))
        if idx in self.results:
            self.console.warn("two results for case %d (worker %d)" % (idx + 1, w.k))
            return
        self.results[idx] = r
        if r.case_id:
            self.on_result(w.k, r)
        self.flush()

    # ---- writing the stream
    def maybe_plan(self):
        if self.plan_emitted or any(w.plan is None for w in self.workers):
            return
        total = sum(w.plan for w in self.workers)
        if total != len(self.expected):
            self.console.warn("the workers plan %d cases, --list selected %d" % (total, len(self.expected)))
        self.console.emit("TAP version 13\n1..%d\n" % (total + len(self.incidents)))
        self.plan_emitted = True
        for k, (text, case) in enumerate(self.incidents):  # the probes' crashes come first
            first, _, rest = text.partition("\n")
            m = RESULT_RE.match(first)
            self.console.emit("%sok %d%s\n%s" % (m.group(1) or "", k + 1, m.group(3), rest))
            self.counts[Verdict(case.get("verdict", "FAIL"))] += 1
        self.flush()

    def show_comments(self, comments):
        for c in comments:
            key = comment_key(c)
            if key not in self.seen_comments:
                self.seen_comments.add(key)
                self.console.emit(c + "\n")

    def flush(self):
        """Every result whose turn has come."""
        if not self.plan_emitted:
            return
        while self.next in self.results:
            r = self.results[self.next]
            self.show_comments(r.comments)
            self.console.emit(r.text(len(self.incidents) + self.next + 1))
            self.counts[r.verdict] += 1
            self.next += 1

    def trailing_comments(self):
        """What the workers said after their last result (a complete run's)."""
        self.show_comments([line for w in self.workers for line in w.pending])

    def status_line(self, active):
        """The terminal's status line; active: the workers still running."""
        total = len(self.expected)
        if self.case_times and self.done < total:
            mean = sum(self.case_times) / len(self.case_times)
            eta = int(round((total - self.done) * mean / max(1, active)))
            eta_text = "ETA %d:%02d" % (eta // 60, eta % 60)
        else:
            eta_text = "ETA --:--" if self.done < total else "finishing"
        return "framesync: %d/%d done, %d failed, %d workers, %s" % (
            self.done, total, self.failed_so_far, self.jobs, eta_text)

    def count_line(self):
        c = self.counts
        return "# framesync: %d passed, %d failed, %d skipped, %d unresolved\n" % (
            c[Verdict.PASS], c[Verdict.FAIL], c[Verdict.SKIP], c[Verdict.UNRESOLVED])

    def closing_line(self):
        """The plain last line on stdout (not in results.tap): `N passed, N failed, N skipped`."""
        c = self.counts
        return "%d passed, %d failed, %d skipped\n" % (c[Verdict.PASS], c[Verdict.FAIL] + c[Verdict.UNRESOLVED],
                                                         c[Verdict.SKIP])


def bail_out(reason):
    return "Bail out! %s\n" % re.sub(r"[\n#]", " ", reason)


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
