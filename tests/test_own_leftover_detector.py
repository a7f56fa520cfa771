"""The leftover check of a compositor's own X server (tests/leftovers/own_server.py) tells its own
server's remains from another server that took the same display number after it (make check's
other lane): a stale socket and a lock naming the server are left; a socket somebody serves and a
lock naming another process are not. CI failed once on such a socket (2026-12-07)."""
import os
import socket
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from leftovers import own_server  # noqa: E402

DISPLAY = 6543  # far above what Xvfb -displayfd takes here


class OwnLeftoverDetector(unittest.TestCase):
    def setUp(self):
        os.makedirs("/tmp/.X11-unix", exist_ok=True)
        self.sock = "/tmp/.X11-unix/X%d" % DISPLAY
        self.lock = "/tmp/.X%d-lock" % DISPLAY
        for p in (self.sock, self.lock):
            if os.path.exists(p):
                self.skipTest("%s exists: not ours to touch" % p)
        self.dead = subprocess.Popen(["true"])
        self.dead.wait()  # a pid that is gone

    def tearDown(self):
        for p in (self.sock, self.lock):
            if os.path.exists(p):
                os.unlink(p)

    def line(self, pid):
        return "# the compositor brings its X server: :%d (pid %d, XAUTHORITY none)\n" % (DISPLAY, pid)

    def bind(self, listen):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(self.sock)
        if listen:
            s.listen(1)
            return s
        s.close()  # the path stays, nobody listens: a server's remains
        return None

    def test_stale_socket_is_left(self):
        self.bind(listen=False)
        self.assertEqual(own_server.own_displays_left(self.line(self.dead.pid)), [self.sock])

    def test_lock_naming_the_server_is_left(self):
        with open(self.lock, "w") as f:
            f.write("%10d\n" % self.dead.pid)
        self.assertEqual(own_server.own_displays_left(self.line(self.dead.pid)), [self.lock])

    def test_live_server_is_left(self):
        self.assertEqual(own_server.own_displays_left(self.line(os.getpid())),
                         ["X server pid %d of :%d" % (os.getpid(), DISPLAY)])

    def test_another_server_on_the_number_is_not(self):
        s = self.bind(listen=True)  # a starting server: its socket before its lock
        try:
            self.assertEqual(own_server.own_displays_left(self.line(self.dead.pid)), [])
            with open(self.lock, "w") as f:
                f.write("%10d\n" % os.getpid())
            self.assertEqual(own_server.own_displays_left(self.line(self.dead.pid)), [])
        finally:
            s.close()

    def test_unreadable_line_is_a_problem(self):
        self.assertTrue(own_server.own_displays_left("the compositor brings its X server: :3 (XAUTHORITY none)"))


if __name__ == "__main__":
    unittest.main()
