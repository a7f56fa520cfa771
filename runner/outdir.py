"""The run's output folder, OUT: what a run clears, and where the workers' logs go.

Each worker writes into OUT/workers/K/ (and the probe pass into OUT/probes/K/); the case logs
are linked into OUT/logs/PROFILE/ as the results come in, the compositors' logs at the end, and
every path in the TAP and in results.json is made OUT/logs/'s."""
import os
import shutil

from runner.tapstream import yaml_quoted
from runner.terms import PROFILES

# what the runner writes into OUT; only these are cleared at the start of a run
OUT_ENTRIES = ("results.tap", "results.json", "results.json.tmp", "junit.xml", "index.html", "logs", "workers",
               "probes", "features.tsv")


class OutError(Exception):
    pass


def clear_out(out):
    """Makes OUT ready for a run: the previous run's files go, anything else stays."""
    if os.path.exists(out) and not os.path.isdir(out):
        raise OutError("--out %s is not a folder" % out)
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        raise OutError("cannot create the output folder %s: %s" % (out, e.strerror))
    for name in OUT_ENTRIES:
        path = os.path.join(out, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        elif os.path.lexists(path):
            os.unlink(path)
    for p in PROFILES:
        os.makedirs(os.path.join(out, "logs", p))
    os.makedirs(os.path.join(out, "workers"))


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


class Logs:
    """OUT/logs/: the workers' logs put together.  warn(msg): a log that cannot be put there."""

    def __init__(self, out, jobs, warn):
        self.out, self.jobs, self.warn = out, jobs, warn
        self.logs = os.path.join(out, "logs")

    def worker_dir(self, k):
        return os.path.join(self.out, "workers", str(k))

    def rewrite(self, k, text, yaml=False):
        """A worker's log paths in text made OUT/logs/'s (yaml: as the YAML diagnostic quotes them)."""
        old, new = os.path.join(self.worker_dir(k), "logs") + "/", self.logs + "/"
        if yaml:
            old, new = yaml_quoted(old)[1:-1], yaml_quoted(new)[1:-1]
        return text.replace(old, new)

    def link(self, src, dst):
        try:
            link_or_copy(src, dst)
        except OSError as e:
            self.warn("cannot put %s into %s: %s" % (src, dst, e.strerror))

    def link_case(self, k, profile, case_id):
        """A case's files (log, screenshots) as soon as its result is in."""
        src_dir = os.path.join(self.worker_dir(k), "logs", profile)
        stem = log_prefix_name(case_id) + "."
        try:
            names = os.listdir(src_dir)
        except OSError:
            return
        for name in names:
            if name.startswith(stem):
                self.link(os.path.join(src_dir, name), os.path.join(self.logs, profile, name))

    def link_probes(self, pout):
        """A probe run's logs into OUT/logs/probes/PROFILE/."""
        src = os.path.join(pout, "logs", "probes")
        for prof in sorted(os.listdir(src)) if os.path.isdir(src) else []:
            dst = os.path.join(self.logs, "probes", prof)
            os.makedirs(dst, exist_ok=True)
            for name in sorted(os.listdir(os.path.join(src, prof))):
                self.link(os.path.join(src, prof, name), os.path.join(dst, name))

    def link_all(self, workers):
        """At the end: every worker's logs (those of results that were never read too), and the
        compositors' own (compositor-K.log with several workers)."""
        for k in workers:
            logs = os.path.join(self.worker_dir(k), "logs")
            for p in PROFILES:
                d = os.path.join(logs, p)
                if os.path.isdir(d):
                    for name in sorted(os.listdir(d)):
                        self.link(os.path.join(d, name), os.path.join(self.logs, p, name))
            wm_log = os.path.join(logs, "compositor.log")
            if os.path.exists(wm_log):
                name = "compositor.log" if self.jobs == 1 else "compositor-%d.log" % k
                self.link(wm_log, os.path.join(self.logs, name))
