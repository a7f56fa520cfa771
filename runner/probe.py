"""The probe pass: what the compositor implements is established once, before the workers start,
and handed to every worker (--features), so that all of them judge by the same feature table.

fake-wm and `{profile}` commands differ per profile: one probe run per profile; any other
command is probed once.  Up to --jobs probe runs at once.  A table given with --features is used
as it is.  A probe during which the compositor crashed or hung is a result of its own
(probe/FEATURE [PROFILE], its `incidents`), listed before the cases."""
import os

from runner import tapstream
from runner.results import RunResults
from runner.terms import PROFILES
from runner.workers import spawn


class ProbeFailed(Exception):
    """The probe pass did not complete: the exit status and what the harness said on stderr, the
    output folders of the probe runs that were started, and the signal that interrupted the run
    (0 when none did: the harness stopped with an input error, or was killed)."""

    def __init__(self, rc, text, folders=(), signal=0):
        super().__init__(text)
        self.rc, self.text, self.folders, self.signal = rc, text, list(folders), signal

    def bail_reason(self):
        """The reason of the first probe run's `Bail out!` (the whole of it, where stderr's first line
        may be cut before the last lines of the compositor's or application's output), or None."""
        for pout in self.folders:
            for line in tap_lines(pout):
                if line.startswith("Bail out!"):
                    return line[len("Bail out!"):].strip()
        return None

    def comments(self):
        """What the probe runs had said before they stopped (the X server, the compositor, the
        feature table as far as it was probed), each comment line once."""
        seen, out = set(), []
        for pout in self.folders:
            for line in tap_lines(pout):
                if line.startswith("#") and line not in seen:
                    seen.add(line)
                    out.append(line)
        return out


def tap_lines(pout):
    try:
        with open(os.path.join(pout, "results.tap"), encoding="utf-8") as f:
            return f.read().splitlines()
    except OSError:
        return []


def profile_groups(expected, wm):
    """The profiles each probe run covers: one run per profile for fake-wm (no --wm) and
    `{profile}` commands, else one run for all."""
    wanted = [p for p in PROFILES if any(prof == p for _, prof in expected)]
    per_profile = wm is None or "{profile}" in wm
    return [[p] for p in wanted] if per_profile else [wanted[:1]]


def without_profiles(args):
    """The harness options less --profile: a probe run is given the profiles it covers."""
    out, i = [], 0
    while i < len(args):
        if args[i] == "--profile":
            i += 2
        else:
            out.append(args[i])
            i += 1
    return out


def batches(cmds, jobs, client):
    """The probe runs in batches of `jobs`; in a client run the first alone, before the others: the
    application's states (client-state-*: what it does by itself, whatever the profile) are asked
    there once, and the later runs take them from its table ($FRAMESYNC_CLIENT_STATES_FROM)."""
    first = 1 if client and len(cmds) > 1 else 0
    out = [cmds[:first]] if first else []
    rest = cmds[first:]
    return out + [rest[i:i + max(1, jobs)] for i in range(0, len(rest), max(1, jobs))]


def folder(out, k):
    """Where the K-th probe run of a run in OUT writes (0: the first, the one that finds the
    application's states in a client run)."""
    return os.path.join(out, "probes", str(k))


def run_probes(harness, args, groups, out, jobs, pool):
    """Runs the probe runs, `jobs` at a time; -> their output folders.  pool.extra holds the live
    ones, so that a signal reaches them; after a signal no more are started.  Raises ProbeFailed."""
    cmds = []
    for k, profs in enumerate(groups):
        pout = folder(out, k)
        cmds.append((pout, [harness] + without_profiles(args) + ["--profile", ",".join(profs), "--probe",
                                                                  "--out", pout]))
    client = any(a == "--client" or a.startswith("--client=") for a in args)
    folders, failed, env = [], None, None
    for batch_cmds in batches(cmds, jobs, client):
        if pool.pending:  # interrupted (Ctrl-C, SIGTERM) between two batches
            break
        batch = [(pout, spawn(cmd, env)) for pout, cmd in batch_cmds]
        pool.extra = [proc for _, proc in batch]
        for pout, proc in batch:
            stdout, stderr = proc.communicate()
            # 1: the compositor crashed or hung while it was probed (results of their own)
            if proc.returncode not in (0, 1) and not failed:
                failed = (proc.returncode, stderr.decode("utf-8", "replace") or stdout.decode("utf-8", "replace"))
            folders.append(pout)
        if failed:
            break
        if client and env is None:
            env = dict(os.environ, FRAMESYNC_CLIENT_STATES_FROM=os.path.join(folders[0], "features.tsv"))
    pool.extra = []
    if pool.pending:
        raise ProbeFailed(failed[0] if failed else 0, failed[1] if failed else "", folders, pool.pending[0])
    if failed:
        raise ProbeFailed(failed[0], failed[1], folders)
    return folders


def read_incidents(pout):
    """The probe pass's crashes (a probe during which the compositor crashed or hung): each result
    of its TAP with its YAML, and its results.json entry."""
    try:
        cases = RunResults.load(os.path.join(pout, "results.json")).case_dicts()
        with open(os.path.join(pout, "results.tap"), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, ValueError):
        return []
    texts, cur = [], None
    for line in lines:
        if tapstream.RESULT_RE.match(line):
            cur = [line]
            texts.append(cur)
        elif cur is not None and line.startswith("  "):
            cur.append(line)
        else:
            cur = None
    return [("\n".join(t) + "\n", c) for t, c in zip(texts, cases)]


def write_features(folders, path):
    """OUT/features.tsv: every probe run's table, in order."""
    with open(path, "w", encoding="utf-8") as f:
        for pout in folders:
            try:
                with open(os.path.join(pout, "features.tsv"), encoding="utf-8") as t:
                    f.write(t.read())
            except OSError:
                pass


def probe_results(out):
    """The probe runs' results (RunResults), in order (their feature tables open the report)."""
    runs, probes = [], os.path.join(out, "probes")
    for d in sorted(os.listdir(probes)) if os.path.isdir(probes) else []:
        try:
            runs.append(RunResults.load(os.path.join(probes, d, "results.json")))
        except (OSError, ValueError):
            pass
    return runs
