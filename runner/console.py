"""The run's terminal: the TAP stream on stdout (and into OUT/results.tap), warnings on stderr,
and on a terminal a status line (done/total, failures, ETA) that each of them clears first."""
import os
import sys

PREFIX = "framesync"


class Console:
    def __init__(self, tap_path):
        self.tap = open(tap_path, "w", encoding="utf-8")
        self.progress = sys.stdout.isatty() and sys.stderr.isatty()
        self.status_shown = False
        self.stdout_ok = True
        self.warned = set()

    def emit(self, text, tap=True):
        """A piece of the TAP (lines ending in \\n), to stdout and results.tap."""
        if tap:
            self.tap.write(text)
            self.tap.flush()
        if not self.stdout_ok:
            return
        self.clear_status()
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except BrokenPipeError:  # e.g. `| head`: the run goes on, the files are written
            self.stdout_ok = False
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())

    def warn(self, msg):
        """Each distinct warning once."""
        if msg in self.warned:
            return
        self.warned.add(msg)
        self.clear_status()
        sys.stderr.write("%s: %s\n" % (PREFIX, msg))
        sys.stderr.flush()

    def stderr(self, lines):
        """What a worker said on stderr."""
        if lines:
            self.clear_status()
            sys.stderr.write("".join(line + "\n" for line in lines))
            sys.stderr.flush()

    def show_status(self, line):
        if not self.progress:
            return
        sys.stderr.write("\r\x1b[K" + line)
        sys.stderr.flush()
        self.status_shown = True

    def clear_status(self):
        if self.status_shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.status_shown = False

    def end_status(self):
        """No status line after the results: the summary is the last thing on the terminal."""
        self.clear_status()
        self.progress = False

    def close_tap(self):
        self.tap.close()
