"""The benchmark's statistics on samples whose answers are known (worked by hand, or the values
NumPy's default percentile and textbook regressions give)."""
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from runner.reports import bench_stats as bs  # noqa: E402


class Percentiles(unittest.TestCase):
    def test_type7_interpolates_between_ranks(self):
        self.assertEqual(bs.percentile([1, 2, 3, 4], 50), 2.5)
        self.assertEqual(bs.percentile([1, 2, 3, 4], 25), 1.75)
        self.assertAlmostEqual(bs.percentile(list(range(1, 11)), 90), 9.1)
        # numpy.percentile([15, 20, 35, 40, 50], q) for q = 40 and 95
        self.assertAlmostEqual(bs.percentile([15, 20, 35, 40, 50], 40), 29.0)
        self.assertAlmostEqual(bs.percentile([15, 20, 35, 40, 50], 95), 48.0)

    def test_ends_and_single_values(self):
        self.assertEqual(bs.percentile([3, 7], 0), 3)
        self.assertEqual(bs.percentile([3, 7], 100), 7)
        self.assertEqual(bs.percentile([10], 99), 10)
        self.assertIsNone(bs.percentile([], 50))
        with self.assertRaises(ValueError):
            bs.percentile([1], 101)

    def test_summary(self):
        s = bs.summary([2, 4, 4, 4, 5, 5, 7, 9, None])
        self.assertEqual(s["n"], 8)
        self.assertEqual((s["min"], s["max"]), (2, 9))
        self.assertEqual(s["p50"], 4.5)
        self.assertAlmostEqual(s["sd"], 2.138, places=3)  # sample SD (population SD is 2)
        self.assertEqual(bs.summary(range(1, 9))["iqr"], 3.5)  # p75 6.25 - p25 2.75
        self.assertIsNone(bs.summary([None, None]))

    def test_variation_is_sd_over_mean(self):
        self.assertAlmostEqual(bs.variation([9, 10, 11]), 0.1)
        self.assertEqual(bs.variation([5]), 0.0)


class Histogram(unittest.TestCase):
    def test_bins_are_half_open(self):
        edges, counts = bs.histogram([0, 0.5, 1, 1.5, 2.9], 1)
        self.assertEqual(edges, [0, 1, 2, 3])
        self.assertEqual(counts, [2, 2, 1])

    def test_start_and_empty(self):
        edges, counts = bs.histogram([16.6, 16.7, 33.4], 16.7, start=0)
        self.assertEqual(counts, [1, 1, 1])
        self.assertEqual(len(edges), 4)
        self.assertEqual(bs.histogram([], 1), ([], []))
        with self.assertRaises(ValueError):
            bs.histogram([1], 0)


class Bootstrap(unittest.TestCase):
    def test_constant_groups_give_an_exact_ratio(self):
        self.assertEqual(bs.bootstrap_ratio([10] * 5, [20] * 5), (2.0, 2.0, 2.0))

    def test_interval_brackets_the_ratio_within_the_possible_range(self):
        ratio, lo, hi = bs.bootstrap_ratio([9, 10, 11], [18, 20, 22])
        self.assertEqual(ratio, 2.0)
        self.assertTrue(18 / 11 <= lo <= 2.0 <= hi <= 22 / 9)

    def test_same_population_contains_one(self):
        rng = random.Random(7)
        a = [rng.gauss(16, 1) for _ in range(5)]
        b = [rng.gauss(16, 1) for _ in range(5)]
        _, lo, hi = bs.bootstrap_ratio(a, b)
        self.assertTrue(lo <= 1 <= hi)

    def test_deterministic_and_empty(self):
        self.assertEqual(bs.bootstrap_ratio([1, 2, 3], [2, 3, 4]), bs.bootstrap_ratio([1, 2, 3], [2, 3, 4]))
        self.assertIsNone(bs.bootstrap_ratio([], [1]))
        self.assertIsNone(bs.bootstrap_ratio([0, 0], [1]))


class BootstrapMedian(unittest.TestCase):
    def test_the_interval_holds_the_median_and_lies_within_the_values(self):
        lo, hi = bs.bootstrap_median([1.0, 2.0, 3.0, 4.0, 50.0])
        self.assertLessEqual(lo, 3.0)
        self.assertGreaterEqual(hi, 3.0)
        self.assertGreaterEqual(lo, 1.0)
        self.assertLessEqual(hi, 50.0)

    def test_one_run_has_no_interval(self):
        self.assertIsNone(bs.bootstrap_median([7.0]))
        self.assertEqual(bs.bootstrap_median([7.0, 7.0]), (7.0, 7.0))


class LinearFit(unittest.TestCase):
    def test_exact_line(self):
        slope, intercept, r2 = bs.linear_fit([0, 2, 5, 10, 20, 50], [1, 5, 11, 21, 41, 101])
        self.assertAlmostEqual(slope, 2)
        self.assertAlmostEqual(intercept, 1)
        self.assertAlmostEqual(r2, 1)

    def test_textbook_example(self):
        slope, intercept, r2 = bs.linear_fit([1, 2, 3, 4, 5], [2, 4, 5, 4, 5])
        self.assertAlmostEqual(slope, 0.6)
        self.assertAlmostEqual(intercept, 2.2)
        self.assertAlmostEqual(r2, 0.6)

    def test_refuses_degenerate_input(self):
        with self.assertRaises(ValueError):
            bs.linear_fit([1], [1])
        with self.assertRaises(ValueError):
            bs.linear_fit([2, 2], [1, 3])


def frame(win, even, outcome, pixel=None, e2p=None, e2d=None, skew=None):
    return {"win": win, "even": even, "outcome": outcome, "pixel": pixel, "even_to_pixel": e2p,
            "even_to_drawn": e2d, "pixel_to_drawn": None, "skew": skew}


class RunFigures(unittest.TestCase):
    def test_worst_window(self):
        frames = [frame(0, 100 * i, "compressed" if i in (3, 4) else "shown") for i in range(10)]
        self.assertAlmostEqual(bs.worst_window_drop_share(frames), 0.2)
        # two drops 5 s apart never share a window; the worst window starts at a drop
        spread = [frame(0, 100 * i, "never-shown" if i in (0, 50) else "shown") for i in range(60)]
        self.assertAlmostEqual(bs.worst_window_drop_share(spread), 0.1)
        self.assertEqual(bs.worst_window_drop_share([]), 0.0)

    def test_intervals_fps_stutters_outcomes(self):
        # one window, pixels at 0, 16, 32, 48, 96 (a stutter: 48 > 1.5 x 16), one frame compressed
        pix = [0, 16, 32, 48, 96]
        frames = [frame(0, p - 1, "shown", pixel=p, e2p=1.0, e2d=1.5, skew=-0.2) for p in pix]
        frames.append(frame(0, 60, "compressed"))
        fig = bs.run_figures(frames, {"measured_ms": 100.0})
        self.assertEqual(fig["frames"], 6)
        self.assertEqual(fig["fps"], 50.0)  # 5 shown in 0.1 s
        self.assertEqual(fig["interval_ms"]["p50"], 16)
        self.assertEqual(fig["stutters"], 1)
        self.assertEqual(fig["outcomes"]["compressed"], 1)
        self.assertEqual(fig["outcomes"]["shown"], 5)
        self.assertEqual(fig["even_to_pixel_ms"]["n"], 5)
        self.assertEqual(fig["skew_ms"]["p50"], -0.2)
        self.assertIsNotNone(fig["interval_sd_ms"])

    def test_no_drawn_messages_give_null(self):
        frames = [frame(0, i, "no-drawn", pixel=i + 1, e2p=1.0) for i in range(3)]
        self.assertIsNone(bs.run_figures(frames, {"measured_ms": 1000})["even_to_drawn_ms"])


if __name__ == "__main__":
    unittest.main()
