"""Statistics of the benchmark (standard library only): percentiles, summaries, histograms, the
bootstrap interval of a ratio, a least-squares line, and what one run of one cell gives.

Percentiles are Hyndman & Fan type 7 (linear interpolation between the closest ranks: the
default of R, NumPy and spreadsheets), named in bench.json as PERCENTILE_METHOD.
"""
import math
import random

PERCENTILE_METHOD = "Hyndman-Fan type 7 (linear interpolation between closest ranks)"
SUMMARY_PERCENTILES = (50, 90, 95, 99)
SHOWN = ("shown", "late", "no-drawn")          # outcomes whose frame reached the screen
DROPPED = ("compressed", "never-shown")        # outcomes whose frame never showed on its own
OUTCOMES = ("shown", "late", "compressed", "never-shown", "no-drawn")


def percentile(sorted_values, p):
    """The p-th percentile (0..100) of values already sorted, type 7; None when empty."""
    n = len(sorted_values)
    if n == 0:
        return None
    if not 0 <= p <= 100:
        raise ValueError("percentile %r is outside 0..100" % p)
    h = (n - 1) * p / 100.0
    lo = math.floor(h)
    hi = min(lo + 1, n - 1)
    return sorted_values[lo] + (h - lo) * (sorted_values[hi] - sorted_values[lo])


def median(values):
    return percentile(sorted(values), 50)


def sample_sd(values):
    """Standard deviation with n - 1 (0 for fewer than two values)."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))


def summary(values):
    """n, min, p50, p90, p95, p99, max, sd, iqr of the values (ms); None when there are none."""
    v = sorted(x for x in values if x is not None)
    if not v:
        return None
    out = {"n": len(v), "min": v[0]}
    for p in SUMMARY_PERCENTILES:
        out["p%d" % p] = percentile(v, p)
    out["max"] = v[-1]
    out["sd"] = sample_sd(v)
    out["iqr"] = percentile(v, 75) - percentile(v, 25)
    return {k: (round(x, 4) if isinstance(x, float) else x) for k, x in out.items()}


def variation(values):
    """Run-to-run variation: the coefficient of variation (SD / mean), 0 for fewer than two."""
    if len(values) < 2:
        return 0.0
    mean = sum(values) / len(values)
    return sample_sd(values) / mean if mean else float("inf")


def histogram(values, bin_width, start=None):
    """Counts in bins [start + i*w, start + (i+1)*w); start defaults to floor(min / w) * w.
    Returns (edges, counts) with len(edges) == len(counts) + 1."""
    if bin_width <= 0:
        raise ValueError("bin width must be positive")
    v = [x for x in values if x is not None]
    if not v:
        return [], []
    if start is None:
        start = math.floor(min(v) / bin_width) * bin_width
    nbins = int(math.floor((max(v) - start) / bin_width)) + 1
    counts = [0] * nbins
    for x in v:
        i = int(math.floor((x - start) / bin_width))
        counts[min(max(i, 0), nbins - 1)] += 1
    edges = [start + i * bin_width for i in range(nbins + 1)]
    return edges, counts


def bootstrap_ratio(base, other, stat=median, iterations=2000, seed=1, level=0.95):
    """stat(other) / stat(base) with a percentile bootstrap interval: each group resampled with
    replacement on its own (they are independent runs).  Returns (ratio, lo, hi); None when a
    group is empty or stat(base) is 0."""
    if not base or not other:
        return None
    b0 = stat(base)
    if not b0:
        return None
    ratio = stat(other) / b0
    rng = random.Random(seed)
    ratios = []
    for _ in range(iterations):
        rb = stat([rng.choice(base) for _ in base])
        ro = stat([rng.choice(other) for _ in other])
        if rb:
            ratios.append(ro / rb)
    ratios.sort()
    tail = (1 - level) / 2 * 100
    return ratio, percentile(ratios, tail), percentile(ratios, 100 - tail)


def bootstrap_median(values, iterations=2000, seed=1, level=0.95):
    """The percentile bootstrap interval of the median of independent runs' values: (lo, hi), or
    None for fewer than two values (one run says nothing about the spread)."""
    if len(values) < 2:
        return None
    rng = random.Random(seed)
    meds = sorted(median([rng.choice(values) for _ in values]) for _ in range(iterations))
    tail = (1 - level) / 2 * 100
    return percentile(meds, tail), percentile(meds, 100 - tail)


def linear_fit(xs, ys):
    """Least squares y = slope * x + intercept; returns (slope, intercept, r_squared)."""
    n = len(xs)
    if n < 2 or n != len(ys):
        raise ValueError("a line needs two or more (x, y) pairs")
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    if sxx == 0:
        raise ValueError("all x are equal")
    slope = sxy / sxx
    intercept = my - slope * mx
    ss_res = sum((y - (slope * x + intercept)) ** 2 for x, y in zip(xs, ys))
    ss_tot = sum((y - my) ** 2 for y in ys)
    r2 = 1.0 - ss_res / ss_tot if ss_tot else 1.0
    return slope, intercept, r2


def worst_window_drop_share(frames, window_ms=1000.0):
    """The largest share of dropped frames (DROPPED outcomes) among the frames begun in any
    window_ms-long window that lies inside the run, windows starting at each frame's `even` time
    (a window cut short by the run's end would count few frames heavily).  A run shorter than the
    window counts as one window.  0 when there are no frames."""
    fr = sorted(frames, key=lambda f: f["even"])
    if not fr:
        return 0.0
    last = fr[-1]["even"]
    starts = [i for i, f in enumerate(fr) if f["even"] + window_ms <= last] or [0]
    worst = 0.0
    for i in starts:
        inside = [f for f in fr[i:] if f["even"] < fr[i]["even"] + window_ms]
        worst = max(worst, sum(f["outcome"] in DROPPED for f in inside) / len(inside))
    return worst


def frame_intervals(frames):
    """Intervals (ms) between the screen appearances of consecutive shown frames, per window."""
    by_win = {}
    for f in frames:
        if f.get("pixel") is not None:
            by_win.setdefault(f["win"], []).append(f["pixel"])
    out = []
    for times in by_win.values():
        times.sort()
        out.extend(b - a for a, b in zip(times, times[1:]))
    return out


def run_figures(frames, cell_end):
    """The figures of one run of one cell from its measured (non-warm-up) frame rows and its
    cell-end row."""
    measured_s = max((cell_end or {}).get("measured_ms", 0.0), 1e-9) / 1000.0
    windows = len({f["win"] for f in frames}) or 1
    intervals = frame_intervals(frames)
    med_interval = median(intervals) if intervals else None
    outcomes = {o: 0 for o in OUTCOMES}
    for f in frames:
        outcomes[f["outcome"]] = outcomes.get(f["outcome"], 0) + 1
    shown = sum(outcomes[o] for o in SHOWN)
    drawn = summary(f.get("even_to_drawn") for f in frames)
    return {
        "frames": len(frames),
        "even_to_pixel_ms": summary(f.get("even_to_pixel") for f in frames),
        "even_to_drawn_ms": drawn,
        "pixel_to_drawn_ms": summary(f.get("pixel_to_drawn") for f in frames),
        "fps": round(shown / windows / measured_s, 3),
        "interval_ms": summary(intervals),
        "interval_sd_ms": round(sample_sd(intervals), 4) if intervals else None,
        "stutters": sum(1 for i in intervals if med_interval and i > 1.5 * med_interval),
        "worst_1s_drop_share": round(worst_window_drop_share(frames), 4),
        "outcomes": outcomes,
        "skew_ms": summary(f.get("skew") for f in frames),
    }
