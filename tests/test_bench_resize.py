"""runner/reports/bench_resize.py: how a captured frame of a resize cell is classified, and the figures."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from runner.reports import bench_resize as br  # noqa: E402
from runner.reports import bench_summary  # noqa: E402

# paint k: [k, w, h, start, end, answers]
PAINTS = [[0, 320, 200, 0, 1, 0], [1, 330, 200, 10, 11, 1], [2, 340, 210, 20, 21, 1]]


def cap(t, row, col, g=(0, 0, 330, 200)):
    return [t, t, g[0], g[1], g[2], g[3], row, col]


class Classify(unittest.TestCase):
    def test_consistent_when_one_paint_fills_its_own_size(self):
        c = br.classify(cap(1, [0, 1, 326, 330, 330, -1], [0, 1, 196, 200, 200, -1]), PAINTS)
        self.assertEqual(c, ("consistent", (330, 200), (330, 200), 0))

    def test_unpainted_strip_after_the_marker_is_stale(self):
        kind, shown, _, hole = br.classify(cap(1, [0, 0, 316, 320, 330, -1], [0, 0, 196, 200, 200, -1]), PAINTS)
        self.assertEqual((kind, shown, hole), ("stale", (330, 200), 10 * 200))

    def test_cropped_paint_without_its_marker_is_stale(self):
        kind, _, _, _ = br.classify(cap(1, [0, 2, 330, -1, 330, -1], [0, 2, 200, -1, 200, -1]), PAINTS)
        self.assertEqual(kind, "stale")

    def test_marker_where_the_paint_was_not_made_for_is_stale(self):
        # paint 0 was made for 320x200, shown stretched to 330
        kind, _, _, _ = br.classify(cap(1, [0, 0, 326, 330, 330, -1], [0, 0, 196, 200, 200, -1]), PAINTS)
        self.assertEqual(kind, "stale")

    def test_two_paints_in_one_frame_are_torn(self):
        self.assertEqual(br.classify(cap(1, [0, 1, 326, 330, 330, -1], [0, 2, 206, 210, 210, -1]), PAINTS)[0], "torn")
        self.assertEqual(br.classify(cap(1, [0, 1, 200, -1, 330, 2], [0, 1, 196, 200, 200, -1]), PAINTS)[0], "torn")

    def test_a_moved_fixed_corner_is_bounced(self):
        self.assertEqual(br.classify(cap(1, [3, 1, 326, 330, 330, -1], [0, 1, 196, 200, 200, -1]), PAINTS)[0],
                         "bounced")
        self.assertEqual(br.classify(cap(1, [0, 1, 326, 330, 330, -1], [0, 1, 196, 200, 200, -1], g=(0, -2, 330, 200)),
                                     PAINTS)[0], "bounced")

    # a line with `bare` (7th field): where the backdrop under the window is next seen
    def test_markers_at_the_server_edge_are_consistent(self):
        c = br.classify(cap(1, [0, 1, 326, 330, 330, -1, 330], [0, 1, 196, 200, 200, -1, 200]), PAINTS)
        self.assertEqual(c, ("consistent", (330, 200), (330, 200), 0))

    def test_an_older_frame_shown_whole_is_consistent(self):
        # the server has 340x210 already; the compositor holds the answered 330x200 frame, and the
        # backdrop shows right after its markers: the window is shown whole at its older size
        c = br.classify(cap(1, [0, 1, 326, 330, 330, -1, 330], [0, 1, 196, 200, 200, -1, 200], g=(0, 0, 340, 210)),
                        PAINTS)
        self.assertEqual(c, ("consistent", (330, 200), (330, 200), 0))

    def test_a_black_strip_up_to_the_server_edge_is_stale(self):
        # 330x200's paint shown at the server's 340x210, the new area black: the markers end where
        # the black begins, and the backdrop only after the server's edge
        kind, shown, _, hole = br.classify(
            cap(1, [0, 1, 326, 330, 330, -1, 340], [0, 1, 196, 200, 200, -1, 210], g=(0, 0, 340, 210)), PAINTS)
        self.assertEqual((kind, shown, hole), ("stale", (340, 210), 340 * 210 - 330 * 200))

    def test_a_garbage_strip_with_no_backdrop_on_the_line_is_stale(self):
        # garbage fills the new area and beyond: no backdrop on the row at all
        kind, shown, _, hole = br.classify(
            cap(1, [0, 1, 326, 330, 330, -1, -1], [0, 1, 196, 200, 200, -1, 200], g=(0, 0, 340, 200)), PAINTS)
        self.assertEqual((kind, shown, hole), ("stale", (340, 200), 10 * 200))

    def test_the_windows_own_decoration_is_not_a_strip(self):
        row, col = [0, 1, 326, 330, 330, -1, 333], [0, 1, 196, 200, 200, -1, 203]   # a 3 px frame border
        older = cap(1, row, col, g=(0, 0, 340, 210))
        self.assertEqual(br.classify(older, PAINTS, border=(3, 3))[0], "consistent")
        self.assertEqual(br.classify(older, PAINTS)[0], "stale")
        black = cap(1, [0, 1, 326, 330, 330, -1, 343], col, g=(0, 0, 340, 210))
        self.assertEqual(br.classify(black, PAINTS, border=(3, 3))[0], "stale")
        # the border is learned where the markers end at the server's edge
        self.assertEqual(br.decoration([cap(1, row, col, g=(0, 0, 330, 200)), older]), (3, 3))

    def test_without_a_backdrop_an_older_frame_reads_as_before(self):
        # bare -2: the compositor showed the backdrop above the window (mutter, KWin, metacity), so
        # it was taken away; a frame held at an older size reads consistent, as before the backdrop
        c = br.classify(cap(1, [0, 1, 326, 330, 330, -1, -2], [0, 1, 196, 200, 200, -1, -2], g=(0, 0, 340, 210)),
                        PAINTS)
        self.assertEqual(c[0], "consistent")

    def test_window_not_on_screen(self):
        none = [-1, -1, -1, -1, -1, -1]
        self.assertIsNone(br.classify(cap(1, none, none), PAINTS))


class Figures(unittest.TestCase):
    def trace(self, captures):
        return {"drive_from": 0.0, "drive_ms": 1000.0, "start_w": 320, "start_h": 200, "paints_log": PAINTS,
                "motions": [[5.0, 330, 200], [15.0, 340, 210]], "captures": captures, "size_changes": 2,
                "requests": 2, "answered": 2, "superseded": 0, "grabbed": True, "drawn": 0, "form": "basic",
                "paints": 3}

    def test_steps_glitch_runs_and_lag(self):
        f = br.figures(self.trace([
            cap(1, [0, 0, 316, 320, 320, -1], [0, 0, 196, 200, 200, -1]),
            cap(9, [0, 0, 316, 320, 330, -1], [0, 0, 196, 200, 200, -1]),    # unpainted strip
            cap(9.5, [0, 0, 316, 320, 330, -1], [0, 0, 196, 200, 200, -1]),  # the same frame again
            cap(12, [0, 1, 326, 330, 330, -1], [0, 1, 196, 200, 200, -1]),
            cap(25, [0, 2, 336, 340, 340, -1], [0, 2, 206, 210, 210, -1]),
        ]))
        self.assertEqual(f["frames"], 4)
        self.assertEqual(f["kinds"], {"consistent": 3, "stale": 1, "torn": 0, "bounced": 0})
        self.assertEqual(f["glitch_runs"], 1)
        self.assertEqual(f["glitch_runs_per_step"], 0.5)
        # the window reaches 330x200 at 9 (stale; asked at 5), 340x210 at 25 (asked at 15)
        self.assertEqual(sorted(f["lag_values"]), [4.0, 10.0])
        self.assertEqual(f["steps"], 2)
        self.assertEqual(f["configure_notify"], {"received": 2, "painted": 2})

    def test_lag_is_taken_from_the_latest_pass_over_the_size(self):
        # the path passed 340 exactly at 10 ms; on its next pass (at 2710 ms) it stepped 339 -> 341,
        # and the WM showed 340 at 2712 ms: the cause is this pass (2 ms), not the last exact ask
        motions = [[10.0, 340, 200], [20.0, 360, 200], [2700.0, 330, 200], [2705.0, 339, 200],
                   [2710.0, 341, 200], [2720.0, 360, 200]]
        self.assertEqual(br.motion_lag(motions, 2712.0, (340, 200), (320, 200)), 2.0)
        # within the one pass an exact ask still wins over a nearer-in-time neighbour
        motions = [[2705.0, 340, 200], [2710.0, 341, 200]]
        self.assertEqual(br.motion_lag(motions, 2712.0, (340, 200), (320, 200)), 7.0)
        self.assertIsNone(br.motion_lag([[1.0, 400, 200]], 2.0, (340, 200), (320, 200)))


    def test_thumbnails_of_glitched_frames_only(self):
        t = self.trace([
            cap(1, [0, 1, 326, 330, 330, -1, 330], [0, 1, 196, 200, 200, -1, 200]),                    # consistent
            cap(9, [0, 1, 326, 330, 330, -1, 340], [0, 1, 196, 200, 200, -1, 210], g=(0, 0, 340, 210)),  # black strip
        ])
        t["thumbs"] = [[1, "thumbs/a.png"], [0, "thumbs/b.png"], [7, "thumbs/gone.png"]]
        self.assertEqual(br.figures(t)["thumbs"], [{"file": "thumbs/a.png", "t": 9, "kind": "stale",
                                                     "shown": [340, 210], "unpainted": 340 * 210 - 330 * 200}])
        del t["thumbs"]  # rows from before the pictures
        self.assertEqual(br.figures(t)["thumbs"], [])


if __name__ == "__main__":
    unittest.main()


class MeasuredNothing(unittest.TestCase):
    def test_a_cell_that_never_showed_its_window_is_an_error_of_the_run(self):
        rows = [{"kind": "cell", "run": "w0-r0", "cell": "resize-ptr125-basic-1"},
                {"kind": "cell-end", "run": "w0-r0", "cell": "resize-ptr125-basic-1", "ended_by": "windows never shown"},
                {"kind": "cell", "run": "w0-r0", "cell": "resize-ptr125-none-1"},
                {"kind": "cell-end", "run": "w0-r0", "cell": "resize-ptr125-none-1", "ended_by": "deadline"}]
        _, _, errors = bench_summary.group_runs(rows)
        self.assertEqual([(e["cell"], e["error"]) for e in errors],
                         [("resize-ptr125-basic-1", "the cell could not measure (ended by windows never shown)")])


class SeenThroughAStream(unittest.TestCase):
    """A Wayland compositor's frames come from its screen stream: the run and the cell say so, with
    the stream's rate and gaps; rows from before the stream are root-damage and XTEST."""

    def test_a_streamed_run_carries_its_capture(self):
        trace = {"capture_via": "stream", "input_via": "seat", "capture_fps": 24.5, "refresh_hz": 60.0,
                 "capture_gaps": 1, "capture_gap_ms": 3.5, "capture_timing": "recorded", "capture_frames": 99}
        want = dict(trace, via="stream")
        del want["capture_via"]
        self.assertEqual(br.capture_of(trace), want)
        self.assertEqual(br.capture_of({}), {"via": "root-damage", "input_via": "xtest"})

    def test_the_cell_sums_gaps_and_takes_the_median_rate(self):
        runs = [{"capture": {"via": "stream", "input_via": "seat", "capture_fps": f, "refresh_hz": 60.0,
                             "capture_gaps": g, "capture_gap_ms": 2.0 * g, "capture_timing": "commit"}}
                for f, g in ((20.0, 0), (30.0, 2), (25.0, 1))]
        cap = bench_summary.capture_summary(runs)
        self.assertEqual((cap["via"], cap["input_via"], cap["fps"], cap["gaps"], cap["gap_ms"]),
                         ("stream", "seat", 25.0, 3, 6.0))
        self.assertEqual(bench_summary.capture_text(cap), "stream 25.0/60 fps, 3 gaps")
        self.assertEqual(bench_summary.capture_text(bench_summary.capture_summary([{}])), "root-damage")

    def test_a_sampled_run_says_so(self):
        trace = {"capture_via": "sampled", "input_via": "seat", "capture_fps": 58.0, "capture_frames": 150,
                 "capture_failures": 1}
        runs = [{"capture": br.capture_of(trace)}] * 2
        self.assertEqual(bench_summary.capture_text(bench_summary.capture_summary(runs)),
                         "sampled 58.0 pictures/s, 2 failed")

    def test_every_figure_carries_its_interval(self):
        cell = {"glitch_pct": 10.0, "glitch_pct_ci95": [3.0, 12.125]}
        self.assertEqual(bench_summary.with_ci(cell, "glitch_pct"), "10.0 [3.0,12.1]")
        self.assertEqual(bench_summary.with_ci({"glitch_pct": 1.0, "glitch_pct_ci95": None}, "glitch_pct"), "1.0")
