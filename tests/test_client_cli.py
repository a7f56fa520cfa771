"""The client side's command line (--client, --list-clients) and its case selection: no X server."""
import os
import subprocess
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARNESS = os.path.join(ROOT, "harness", "framesync-harness")


def run(*args):
    return subprocess.run([HARNESS] + list(args), capture_output=True, text=True)


class ClientCli(unittest.TestCase):
    def test_list_clients_names_every_conf(self):
        p = run("--list-clients")
        self.assertEqual(p.returncode, 0, p.stderr)
        names = {line.split()[0] for line in p.stdout.splitlines()[1:]}
        want = {f[:-5] for f in os.listdir(os.path.join(ROOT, "clients")) if f.endswith(".conf")}
        self.assertEqual(names, want)
        self.assertTrue({"gtk3", "gtk4", "qt5", "sdl2", "chromium", "firefox-esr", "xterm", "alacritty"} <= names)

    def test_client_and_wm_are_exclusive(self):
        p = run("--client", "xterm", "--wm", "openbox", "--list")
        self.assertEqual(p.returncode, 2)
        self.assertIn("does not take --wm", p.stderr)

    def test_each_side_lists_only_its_cases(self):
        compositor = run("--list").stdout
        client = run("--list", "--client", "true").stdout
        self.assertNotIn("client/", compositor)
        ids = [line.split()[0] for line in client.splitlines() if line and not line[0].isspace()]
        self.assertTrue(ids and all(i.startswith("client/") for i in ids), ids)

    def test_coverage_counts_the_client_clauses(self):
        p = run("--coverage")
        self.assertEqual(p.returncode, 0, p.stdout[-500:])
        for clause in ("ewmh-1.5/basic/client-sets-counter", "draft-2011/extended/client-answer",
                       "draft-2011/delimited/client-wait-drawn", "draft-2011/fences/client-trigger"):
            line = next(l for l in p.stdout.splitlines() if l.startswith(clause + " "))
            self.assertIn("covered: client/", line)


if __name__ == "__main__":
    unittest.main()
