"""The screen stream's figures in results.json ("captures": one entry a start of the compositor,
written by harness/stream-report.c) go through runner/results.py unchanged, are left out where
no stream ran, and are shown in the HTML report's run header (no X needed)."""
import json
import os
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from runner.reports import html  # noqa: E402
from runner.results import FORMAT, RunResults  # noqa: E402

CAPTURE = {"profile": "draft-2011", "display": ":2", "frames": 62, "seconds": 5.222, "fps": 11.87,
           "refresh_hz": 60.0, "gaps": 1, "gap_ms": 10.233, "failed": 0}


def doc(captures=None):
    d = {"format": FORMAT, "started": "2026-12-07T11:00:00Z", "status": "complete", "wall_ms": 1.0,
         "compositors": [{"profile": "draft-2011", "command": "cage", "name": "wlroots wm"}]}
    if captures is not None:
        d["captures"] = captures
    d.update(features=[], findings=[], cases=[])
    return d


class Captures(unittest.TestCase):
    def test_round_trip(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "results.json")
            RunResults.from_json(doc([CAPTURE])).write(path)
            with open(path) as f:
                text = f.read()
            self.assertIn('\n  "captures": [\n    {"profile": "draft-2011"', text)   # one a line
            self.assertEqual(RunResults.load(path).captures, [CAPTURE])

    def test_absent_where_no_stream_ran(self):
        self.assertNotIn("captures", RunResults.from_json(doc()).to_json())
        self.assertEqual(html.captures_html(doc()), "")

    def test_shown_in_the_header(self):
        page = html.captures_html(doc([dict(CAPTURE, run="worker 0")]))
        for text in ("<h3>Screen stream</h3>", "<td>worker 0</td>", ">62<", "11.9", "60.000 Hz", "10.2 ms"):
            self.assertIn(text, page)


if __name__ == "__main__":
    unittest.main()
