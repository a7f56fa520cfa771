"""./run-tests.sh --bench: the benchmark.  Runs bench/framesync-bench once per compositor and
repetition, interleaving the compositors (the order rotates each repetition, so none always
runs first), adds repetitions to noisy cells while the time budget lasts, and writes into the run
folder bench.jsonl (one row per frame, appended as frames settle), bench.json (the summaries and
the environment) and bench.html (the pictures).  Standard library only.
"""
import argparse
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import time
import traceback

from runner import paths
from runner.reports import bench_html, bench_summary
from runner.workers import dies_with_us

EXIT_USAGE = 2

# Named cells (WINDOWSxSIZE-RENDER-PACING-LOAD) mean the same on every machine.  The first is the
# headline: one window, each frame as soon as the last one's drawn message came.
DEFAULT_CELLS = [
    "1x256-core-drawn-idle",
    "2x256-core-drawn-idle", "4x256-core-drawn-idle", "8x256-core-drawn-idle",
    "1x64-core-drawn-idle", "1x1200x900-core-drawn-idle",
    "1x256-core-timer60-idle", "1x256-core-pixel-idle",
    "1x256-gl-drawn-idle",
    "1x256-core-drawn-stress",
]
CELL_RE = re.compile(r"^([1-9]\d*)x(\d+(?:x\d+)?)-(core|gl)-(drawn|timer60|pixel)-(idle|stress)$")
# resize cells (bench/resize.c): resize-TRIGGER-FORM-PAINTMS[-slow]; `resize` in --bench-cells is
# RESIZE_CELLS, the side-by-side set: the basic, de-facto extended and non-participating clients at a
# cheap and a dear paint, the pointer at 125 Hz; and the basic client's own ConfigureRequests at
# 125 Hz (compiz syncs those, and does not resize on an XTEST-driven _NET_WM_MOVERESIZE here)
RESIZE_RE = re.compile(r"^resize-(ptr|kbd|cfg)([1-9]\d{0,2}|1000)-(basic|draft|defacto|none)-(\d{1,3}|1000)(-slow)?$")
RESIZE_CELLS = [
    "resize-ptr125-basic-1", "resize-ptr125-defacto-1", "resize-ptr125-none-1",
    "resize-ptr125-basic-30", "resize-ptr125-defacto-30", "resize-ptr125-none-30",
    "resize-cfg125-basic-1", "resize-cfg125-basic-30",
]
DEFAULT_BENCH_TIME = 150.0      # seconds per compositor: a default run ends within 3 minutes
BASE_SHARE = 0.75               # of the budget for the base repetitions; the rest for noisy cells
SESSION_OVERHEAD_S = 1.0        # Xvfb and the compositor, started and stopped
CELL_OVERHEAD_S = 0.5           # windows, the 0.3 s warm-up, the last frames
MIN_CELL_MS = 400
# the packages whose versions go with the results
VERSION_PACKAGES = ("xvfb", "mutter", "kwin-x11", "xfwm4", "compiz-core", "compiz-plugins-default", "picom",
                    "libgl1-mesa-dri", "libegl-mesa0", "stress-ng", "libxcb1")

HELP_EPILOG = """\
cells are WINDOWSxSIZE-RENDER-PACING-LOAD: SIZE N or WxH; RENDER core (PolyFillRectangle) or gl
(Mesa OpenGL through EGL, llvmpipe); PACING drawn (each frame when the last one's drawn message
came, on the pixel when the compositor sends none), timer60 (a frame every 1/60 s) or pixel (when
the last one is seen on screen); LOAD idle or stress (stress-ng on every core).  Default cells:
%s.
Resize cells are resize-TRIGGER-FORM-PAINTMS[-slow]: one window resized along a fixed path by the
pointer (ptrHZ: _NET_WM_MOVERESIZE and XTEST motion at HZ), by the keyboard (kbdHZ: the keyboard
size direction and XTEST arrow keys, at most HZ a second) or by its own ConfigureRequests (cfgHZ),
its client answering in FORM basic, draft, defacto or none, each paint costing PAINTMS, the answer
100 ms late with -slow; `resize` stands for %s.
Output in OUT: bench.jsonl (a row per frame), bench.json (runs, cells, ratios to the first --wm,
environment), bench.html.  Ctrl-C keeps what was measured.""" % (", ".join(DEFAULT_CELLS), ",".join(RESIZE_CELLS))


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def positive_seconds(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("takes seconds (a number), not %r" % text)
    if not 1 <= v <= 86400:
        raise argparse.ArgumentTypeError("takes seconds from 1 to 86400, not %r" % text)
    return v


def cell_list(text):
    cells = []
    for c in text.split(","):
        cells += RESIZE_CELLS if c == "resize" else [c] if c else []
    for c in cells:
        if c.startswith("resize-") and not RESIZE_RE.match(c):
            raise argparse.ArgumentTypeError(
                "cell %r: expected resize-TRIGGER-FORM-PAINTMS[-slow], e.g. resize-ptr125-basic-1 (TRIGGER ptrHZ, "
                "kbdHZ or cfgHZ, HZ 1..1000; FORM basic, draft, defacto or none; PAINTMS 0..1000)" % c)
        if not c.startswith("resize-") and not CELL_RE.match(c):
            raise argparse.ArgumentTypeError(
                "cell %r: expected WINDOWSxSIZE-RENDER-PACING-LOAD, e.g. 4x256-core-drawn-idle" % c)
    if not cells:
        raise argparse.ArgumentTypeError("no cells given")
    return cells


def reps_count(text):
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("takes a whole number, not %r" % text)
    if not 1 <= v <= 100:
        raise argparse.ArgumentTypeError("takes 1 to 100, not %r" % text)
    return v


def parse_args(argv):
    p = Parser(prog="run-tests.sh --bench", description="Benchmark compositors through the protocol.",
               epilog=HELP_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--wm", action="append", metavar="CMD",
                   help="a compositor (repeatable: measured side by side, interleaved; ratios are to the "
                        "first); a compositors/NAME.conf name, `fake-wm [ARGS]` or a command line "
                        "(default fake-wm)")
    p.add_argument("--bench-time", type=positive_seconds, default=DEFAULT_BENCH_TIME, metavar="SECONDS",
                   help="time budget per compositor (default %g)" % DEFAULT_BENCH_TIME)
    p.add_argument("--bench-cells", type=cell_list, default=DEFAULT_CELLS, metavar="LIST",
                   help="comma-separated cells to run (default: the named set below)")
    p.add_argument("--bench-reps", type=reps_count, default=5, metavar="N",
                   help="repetitions of each cell (default 5; noisy cells get up to 3x as many)")
    p.add_argument("--ready", choices=("wm", "cm", "wm+cm", "auto"), help="readiness, for command lines")
    p.add_argument("--out", metavar="DIR", help="the run folder (default results/latest)")
    return p.parse_args(argv)


# ---- the terminal's status line ----
class Progress:
    def __init__(self, total_s):
        self.tty = sys.stderr.isatty()
        self.start = time.monotonic()
        self.total = total_s
        self.text = ""

    def show(self, text):
        self.text = text
        if not self.tty:
            return
        elapsed = time.monotonic() - self.start
        line = "bench %3.0f%% %s  %s" % (min(99, 100 * elapsed / self.total), clock(elapsed), text)
        width = shutil.get_terminal_size((100, 20)).columns - 1
        sys.stderr.write("\r\033[K" + line[:width])
        sys.stderr.flush()

    def say(self, text):
        """A line that stays (an error, the end), printed above the status line."""
        if self.tty:
            sys.stderr.write("\r\033[K")
        sys.stderr.write(text + "\n")
        if self.tty and self.text:
            self.show(self.text)

    def done(self):
        if self.tty:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def clock(seconds):
    return "%d:%02d" % (seconds // 60, seconds % 60)


# ---- one session: one compositor, some cells ----
class Session:
    def __init__(self, out, wms, opts, progress):
        self.out, self.wms, self.opts, self.progress = out, wms, opts, progress
        self.jsonl = os.path.join(out, "bench.jsonl")
        self.logs = os.path.join(out, "logs", "bench")
        self.child = None
        self.cell_walls = []    # seconds each cell run took, for the plan of extra repetitions
        self.commands = []

    def run(self, wm_index, rep, cells, cell_ms):
        wm = self.wms[wm_index]
        run_id = "w%d-r%d" % (wm_index, rep)
        cmd = [paths.BENCH, "--wm", wm, "--cells", ",".join(cells), "--out", self.jsonl, "--run-id", run_id,
               "--cell-ms", "%d" % cell_ms, "--wm-log", os.path.join(self.logs, run_id + ".compositor.log")]
        if self.opts.ready:
            cmd += ["--ready", self.opts.ready]
        self.commands.append(cmd)
        started = time.monotonic()
        with open(os.path.join(self.logs, run_id + ".log"), "w") as log:
            # the session program dies with the runner, even by SIGKILL
            self.child = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.PIPE, text=True, preexec_fn=dies_with_us())
            done = 0
            self.progress.show("rep %d  %s  %s" % (rep + 1, wm, cells[0]))
            for line in self.child.stderr:
                log.write(line)
                log.flush()
                if " frames in " in line:
                    done += 1
                    nxt = cells[done] if done < len(cells) else "stopping"
                    self.progress.show("rep %d  %s  %s" % (rep + 1, wm, nxt))
                    if not self.progress.tty:  # a log, not a terminal: one line per cell run
                        self.progress.say("bench: %s rep %d: %s" % (wm, rep + 1, line.split(": ", 1)[-1].strip()))
                else:
                    self.progress.say("bench: %s (rep %d): %s" % (wm, rep + 1, line.strip()))
            rc = self.child.wait()
        self.child = None
        if rc == 0 and cells:
            self.cell_walls.append((time.monotonic() - started) / len(cells))
        return rc

    def interrupt(self):
        """Ctrl-C: the session program ends its cell, writes what it has and stops its X server."""
        if self.child and self.child.poll() is None:
            self.child.send_signal(signal.SIGINT)
            try:
                self.child.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.child.kill()
                self.child.wait()


def plan_cell_ms(budget_s, ncells, reps):
    """The measured time of each cell so that the base repetitions take BASE_SHARE of the budget."""
    per_rep = budget_s * BASE_SHARE / reps
    cell_s = (per_rep - SESSION_OVERHEAD_S) / ncells - CELL_OVERHEAD_S
    return max(MIN_CELL_MS, int(cell_s * 1000))


def rotated(n, rep):
    """The compositors' order in repetition rep: each one goes first in turn."""
    return [(rep + i) % n for i in range(n)]


# ---- the environment of the results ----
def package_versions():
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f", "${Package} ${Version} ${db:Status-Abbrev}\\n"]
                             + list(VERSION_PACKAGES), capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.TimeoutExpired):
        return {}
    versions = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[2].startswith("ii"):
            versions[parts[0]] = parts[1]
    return versions


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def git_commit():
    try:
        return subprocess.run(["git", "-C", paths.ROOT, "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=10).stdout.strip() or None
    except (OSError, subprocess.TimeoutExpired):
        return None


def environment(argv):
    return {
        "command_line": ["run-tests.sh", "--bench"] + argv,
        "kernel": platform.release(),
        "machine": platform.machine(),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "cores_usable": len(os.sched_getaffinity(0)),
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "packages": package_versions(),
        "framesync_commit": git_commit(),
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


# ---- the run ----
class Bench:
    def __init__(self, opts, argv):
        self.opts = opts
        self.argv = argv
        self.wms = opts.wm or ["fake-wm"]
        self.cells = opts.bench_cells
        self.out = os.path.abspath(opts.out or paths.LATEST)
        self.budget = opts.bench_time * len(self.wms)
        self.cell_ms = plan_cell_ms(opts.bench_time, len(self.cells), opts.bench_reps)
        self.progress = Progress(self.budget)
        self.session = Session(self.out, self.wms, opts, self.progress)
        self.reps = {}          # (wm index, cell) -> repetitions run
        self.interrupted = False
        self.start = time.monotonic()

    def prepare_out(self):
        os.makedirs(os.path.join(self.out, "logs", "bench"), exist_ok=True)
        for name in ("bench.jsonl", "bench.json", "bench.html"):
            try:
                os.unlink(os.path.join(self.out, name))
            except FileNotFoundError:
                pass
        shutil.rmtree(os.path.join(self.out, "thumbs"), ignore_errors=True)  # the resize cells' pictures

    def one_round(self, rep, cells):
        """Every compositor once (in the rotated order), each with the given cells."""
        for wi in rotated(len(self.wms), rep):
            rc = self.session.run(wi, rep, cells, self.cell_ms)
            if rc >= 128:
                raise KeyboardInterrupt
            for c in cells:
                self.reps[(wi, c)] = self.reps.get((wi, c), 0) + 1

    def extra_rounds(self):
        """While some cell's p50 varies by 3 % or more between runs and the budget allows, one
        more repetition of those cells (up to 3x the base number)."""
        rep = self.opts.bench_reps
        while rep < 3 * self.opts.bench_reps:
            runs = bench_summary.run_entries(bench_summary.read_rows(self.session.jsonl), self.wms)
            noisy = sorted(bench_summary.noisy_scenarios(runs, 3 * self.opts.bench_reps),
                           key=self.cells.index)
            if not noisy:
                return
            per_cell = max(self.session.cell_walls or [self.cell_ms / 1000 + CELL_OVERHEAD_S])
            needed = len(self.wms) * (SESSION_OVERHEAD_S + per_cell * len(noisy))
            if time.monotonic() - self.start + needed > self.budget:
                return
            self.one_round(rep, noisy)
            rep += 1

    def run(self):
        self.prepare_out()
        env = environment(self.argv)
        try:
            for rep in range(self.opts.bench_reps):
                self.one_round(rep, self.cells)
            self.extra_rounds()
        except KeyboardInterrupt:
            self.interrupted = True
            self.session.interrupt()
        self.progress.done()
        return self.finish(env)

    PACING_WORDS = re.compile(r"vblank|vsync|sync to v|refresh rate|swap interval|frame clock", re.I)

    def pacing(self, sessions):
        """What decides each compositor's pace: its conf's `pacing:` (what is pinned), and the lines
        of its log of the first session that speak of it (what it reported at start)."""
        pinned, reported = {}, {}
        for run_id in sorted(sessions):
            wi, _ = bench_summary.parse_run_id(run_id)
            if wi is None or wi >= len(self.wms) or self.wms[wi] in pinned:
                continue
            wm = self.wms[wi]
            pinned[wm] = sessions[run_id].get("pacing") or None
            if wm.split()[0] == "fake-wm":
                hz = re.search(r"--refresh-hz[ =](\d+)", wm)
                pinned[wm] = "its --refresh-hz: %s paints a second at most" % (hz.group(1) if hz else "60 (the default)")
            lines = []
            try:
                with open(os.path.join(self.session.logs, run_id + ".compositor.log"), errors="replace") as f:
                    lines = [l.strip()[:300] for l in f if self.PACING_WORDS.search(l)][:5]
            except OSError:
                pass
            reported[wm] = lines
        return pinned, reported

    def finish(self, env):
        env["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
        env["wall_s"] = round(time.monotonic() - self.start, 1)
        rows = bench_summary.read_rows(self.session.jsonl)
        runs = bench_summary.run_entries(rows, self.wms)
        cells = bench_summary.cell_entries(runs)
        _, sessions, errors = bench_summary.group_runs(rows)
        env["pacing"], env["pacing_reported"] = self.pacing(sessions)
        doc = {
            "format": "framesync-bench-1",
            "wms": self.wms,
            "cells_run": self.cells,
            "settings": {"bench_time_s": self.opts.bench_time, "reps": self.opts.bench_reps,
                         "cell_ms": self.cell_ms, "noisy_variation": bench_summary.NOISY_VARIATION},
            "percentile_method": bench_summary.bs.PERCENTILE_METHOD,
            "interrupted": self.interrupted,
            "environment": env,
            "sessions": [" ".join(c) for c in self.session.commands],
            "errors": errors,
            "runs": runs,
            "cells": cells,
        }
        path = os.path.join(self.out, "bench.json")
        with open(path + ".tmp", "w") as f:
            json.dump(doc, f, indent=1)
        os.replace(path + ".tmp", path)
        try:
            bench_html.write(doc, rows, os.path.join(self.out, "bench.html"))
        except Exception as e:  # a picture's bug must not lose the figures
            traceback.print_exc()
            self.progress.say("bench: bench.html could not be made: %s" % e)
        bench_summary.print_table(cells, self.wms)
        for e in errors:
            sys.stderr.write("bench: error in %s %s: %s\n" % (e.get("run"), e.get("cell") or "", e.get("error")))
        sys.stderr.write("bench: %s in %s (%.0f s)\n" % ("interrupted; what was measured is" if self.interrupted
                                                         else "results", self.out, env["wall_s"]))
        if self.interrupted:
            return 128 + signal.SIGINT
        return 1 if errors else 0


def interrupt_on_term(signum, frame):
    """SIGTERM ends the run the way Ctrl-C does: what was measured is kept."""
    raise KeyboardInterrupt


def main(argv):
    try:
        opts = parse_args(argv)
    except UsageError as e:
        sys.stderr.write("framesync --bench: %s (see --bench --help)\n" % e)
        return EXIT_USAGE
    if not os.access(paths.BENCH, os.X_OK):
        sys.stderr.write("framesync --bench: %s is missing: run make\n" % paths.BENCH)
        return EXIT_USAGE
    signal.signal(signal.SIGTERM, interrupt_on_term)
    return Bench(opts, argv).run()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
