"""The worker pool: spawning harness processes, reading their output, forwarding signals.

Each worker is one harness process in its own session (its Xvfb and compositor are its
children), that dies with the runner even when the runner is killed by SIGKILL.  The pool reads
every worker's stdout and stderr without blocking, line by line, and hands the lines to a
handler; a signal to the runner (Ctrl-C, SIGTERM, SIGHUP) is forwarded to every live worker, and
the first one is remembered: the run was interrupted."""
import ctypes
import os
import selectors
import signal
import subprocess

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def child_setup(parent):
    """In the worker, before exec: die with the runner (SIGTERM: the harness then stops its
    Xvfb and compositor), even when the runner is killed by SIGKILL."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:
        os._exit(1)


def dies_with_us():
    """A preexec_fn for a child that must die with this process (child_setup)."""
    parent = os.getpid()
    return lambda: child_setup(parent)


def spawn(cmd, env=None):
    """A harness process of the run: its own session, no stdin, stdout and stderr piped (env: its
    environment, None: the runner's)."""
    return subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, preexec_fn=dies_with_us(), env=env)


def kill(proc, sig):
    try:
        os.kill(proc.pid, sig)
    except ProcessLookupError:
        pass


class Worker:
    def __init__(self, k, proc):
        self.k, self.proc = k, proc
        self.buf = {"out": b"", "err": b""}
        self.stderr = []           # shown when it ends (see WorkerPool.show_stderr)
        self.open_streams = 2
        self.rc = None


class WorkerPool:
    """Signals are caught from install() on (before the probe pass, whose processes are `extra`
    until the workers start); pending holds those the loop has not forwarded yet."""

    def __init__(self, console):
        self.console = console
        self.workers = []
        self.extra = []            # other live processes of the run (the probe pass's)
        self.pending = []
        self.interrupted = 0       # the first signal forwarded
        self.seen_stderr = set()
        self.signal_r, self.signal_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)

    def install_signals(self):
        for sig in SIGNALS:
            signal.signal(sig, self.on_signal)
        signal.set_wakeup_fd(self.signal_w)

    def on_signal(self, sig, frame):
        self.pending.append(sig)
        if self.extra:  # the probe pass runs before the loop that forwards signals
            self.forward(sig)

    def forward(self, sig):
        for proc in self.extra:
            if proc.poll() is None:
                kill(proc, sig)
        for w in self.workers:
            if w.rc is None:
                kill(w.proc, sig)

    def start(self, cmds):
        """One worker per command; if one cannot start, the started ones are stopped."""
        try:
            for k, cmd in enumerate(cmds):
                self.workers.append(Worker(k, spawn(cmd)))
        except OSError:
            self.forward(signal.SIGTERM)
            for w in self.workers:
                w.proc.wait()
            raise

    def active(self):
        return sum(1 for w in self.workers if w.rc is None)

    def run(self, handler, tick_s=None):
        """Reads every worker until all have ended.  handler: on_line(k, text) (stdout; stderr is
        kept in Worker.stderr), on_eof(k) (its stdout closed), on_exit(worker) (both closed,
        reaped), tick() (after each round, and every tick_s seconds)."""
        sel = selectors.DefaultSelector()
        sel.register(self.signal_r, selectors.EVENT_READ, None)
        for w in self.workers:
            for name, f in (("out", w.proc.stdout), ("err", w.proc.stderr)):
                os.set_blocking(f.fileno(), False)
                sel.register(f, selectors.EVENT_READ, (w, name))
        handler.tick()
        live = len(self.workers)
        while live:
            for key, _ in sel.select(tick_s):
                if key.data is None:
                    self.drain_wakeups()
                elif self.read(sel, key, handler):
                    live -= 1
            self.forward_pending()
            handler.tick()
        signal.set_wakeup_fd(-1)

    def drain_wakeups(self):
        try:
            os.read(self.signal_r, 512)
        except BlockingIOError:
            pass

    def read(self, sel, key, handler):
        """One readable stream; True when its worker has ended."""
        w, name = key.data
        try:
            data = os.read(key.fd, 65536)
        except BlockingIOError:
            return False
        if data:
            w.buf[name] += data
            *lines, w.buf[name] = w.buf[name].split(b"\n")
            for raw in lines:
                self.line(handler, w, name, raw)
            return False
        sel.unregister(key.fileobj)
        key.fileobj.close()
        if w.buf[name]:  # a last line without its newline
            self.line(handler, w, name, w.buf[name])
            w.buf[name] = b""
        if name == "out":
            handler.on_eof(w.k)
        w.open_streams -= 1
        if w.open_streams:
            return False
        w.rc = w.proc.wait()
        handler.on_exit(w)
        return True

    @staticmethod
    def line(handler, w, name, raw):
        text = raw.decode("utf-8", "replace")
        if name == "out":
            handler.on_line(w.k, text)
        else:
            w.stderr.append(text)

    def forward_pending(self):
        while self.pending:
            sig = self.pending.pop(0)
            if not self.interrupted:
                self.interrupted = sig
            self.forward(sig)

    def show_stderr(self, w, dedupe):
        """What a worker said on stderr, when it ends: all of it for the worker whose error ends the
        run (once: the others would say the same), else each distinct line once."""
        lines = [line for line in w.stderr if not (dedupe and line in self.seen_stderr)]
        self.seen_stderr.update(w.stderr)
        self.console.stderr(lines)
