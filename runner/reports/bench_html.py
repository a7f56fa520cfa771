"""bench.html: the benchmark's pictures (inline SVG, no script, opens from the folder) and tables,
from bench.json's document and the rows of bench.jsonl.  Standard library only; also a command:

    python3 -m runner.reports.bench_html OUT/bench.json     # writes OUT/bench.html
"""
import html
import json
import math
import os
import sys

from runner.reports import bench_stats as bs
from runner.reports import bench_resize_html
from runner.reports import bench_summary

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]
OUTCOME_COLOURS = {"shown": "#2ca02c", "late": "#ff7f0e", "compressed": "#1f77b4", "never-shown": "#d62728",
                   "no-drawn": "#9aa5b1"}
W, H = 560, 300
M = {"l": 56, "r": 16, "t": 16, "b": 40}


def esc(x):
    return html.escape(str(x), quote=True)


def nice_ticks(lo, hi, n=5):
    """About n round tick values covering lo..hi."""
    if hi <= lo:
        hi = lo + 1
    step = 10 ** math.floor(math.log10((hi - lo) / n))
    for m in (1, 2, 5, 10):
        if (hi - lo) / (step * m) <= n:
            step *= m
            break
    start = math.floor(lo / step) * step
    ticks, t = [], start
    while t <= hi + step * 1e-9:
        ticks.append(round(t, 10))
        t += step
    return ticks


def log_ticks(lo, hi):
    """Round values for a log axis: 1-2-4-8 steps when they are few enough, else 1-2-5."""
    decades = range(math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 1)
    for mantissas in ((1, 1.25, 2, 4, 5, 8), (1, 2, 4, 8), (1, 2, 5), (1,)):
        ticks = [m * 10 ** e for e in decades for m in mantissas if lo <= m * 10 ** e <= hi]
        if len(ticks) <= 8:
            return ticks
    return ticks


class Chart:
    """One SVG plot: linear or log axes, points, lines, rectangles, labels."""

    def __init__(self, x_range, y_range, x_label, y_label, x_log=False, width=W, height=H, y_labels=None,
                 left=M["l"]):
        self.x0, self.x1 = x_range
        self.y0, self.y1 = y_range
        self.x_log, self.w, self.h, self.ml = x_log, width, height, left
        self.parts = []
        self.x_label, self.y_label, self.y_labels = x_label, y_label, y_labels

    def sx(self, x):
        if self.x_log:
            x, lo, hi = math.log10(max(x, 1e-9)), math.log10(self.x0), math.log10(self.x1)
        else:
            lo, hi = self.x0, self.x1
        return self.ml + (x - lo) / ((hi - lo) or 1) * (self.w - self.ml - M["r"])

    def sy(self, y):
        return self.h - M["b"] - (y - self.y0) / ((self.y1 - self.y0) or 1) * (self.h - M["t"] - M["b"])

    def axes(self):
        out = []
        xt = log_ticks(self.x0, self.x1) if self.x_log else nice_ticks(self.x0, self.x1)
        for t in sorted(set(xt)):
            if self.x0 <= t <= self.x1:
                x = self.sx(t)
                out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" class="grid"/>' % (x, M["t"], x, self.h - M["b"]))
                out.append('<text x="%.1f" y="%d" class="tick" text-anchor="middle">%s</text>' % (
                    x, self.h - M["b"] + 14, "%g" % t))
        if self.y_labels:
            for y, label in self.y_labels:
                out.append('<text x="%d" y="%.1f" class="tick" text-anchor="end">%s</text>' % (
                    self.ml - 6, self.sy(y) + 4, esc(label)))
        else:
            for t in nice_ticks(self.y0, self.y1):
                if self.y0 <= t <= self.y1:
                    y = self.sy(t)
                    out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" class="grid"/>' % (
                        self.ml, y, self.w - M["r"], y))
                    out.append('<text x="%d" y="%.1f" class="tick" text-anchor="end">%g</text>' % (self.ml - 6, y + 4, t))
        out.append('<rect x="%d" y="%d" width="%d" height="%d" class="frame"/>' % (
            self.ml, M["t"], self.w - self.ml - M["r"], self.h - M["t"] - M["b"]))
        out.append('<text x="%.1f" y="%d" class="label" text-anchor="middle">%s</text>' % (
            (self.ml + self.w - M["r"]) / 2, self.h - 6, esc(self.x_label)))
        out.append('<text x="12" y="%.1f" class="label" text-anchor="middle" transform="rotate(-90 12 %.1f)">%s</text>'
                   % ((M["t"] + self.h - M["b"]) / 2, (M["t"] + self.h - M["b"]) / 2, esc(self.y_label)))
        return out

    def clip(self, v, lo, hi):
        return min(max(v, lo), hi)

    def line(self, pts, colour, dash=False, step=False):
        if len(pts) < 2:
            return self.points(pts, colour)
        coords = []
        for i, (x, y) in enumerate(pts):
            y = self.clip(y, self.y0, self.y1)
            if step and i:
                coords.append("%.1f,%.1f" % (self.sx(x), self.sy(pts[i - 1][1])))
            coords.append("%.1f,%.1f" % (self.sx(x), self.sy(y)))
        self.parts.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="1.6"%s/>' % (
            " ".join(coords), colour, ' stroke-dasharray="4 3"' if dash else ""))

    def points(self, pts, colour, r=1.8):
        for x, y in pts:
            self.parts.append('<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s"/>' % (
                self.sx(x), self.sy(self.clip(y, self.y0, self.y1)), r, colour))

    def hbar(self, x_from, x_to, y_mid, height, colour, title=""):
        x0, x1 = self.sx(x_from), self.sx(x_to)
        self.parts.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s</title></rect>' % (
            x0, self.sy(y_mid) - height / 2, max(x1 - x0, 0), height, colour, esc(title)))

    def vline(self, x, colour="#444", dash=True):
        self.parts.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s"%s/>' % (
            self.sx(x), M["t"], self.sx(x), self.h - M["b"], colour, ' stroke-dasharray="3 3"' if dash else ""))

    def svg(self):
        return '<svg width="%d" height="%d" viewBox="0 0 %d %d">%s%s</svg>' % (
            self.w, self.h, self.w, self.h, "".join(self.axes()), "".join(self.parts))


def legend(wms):
    return '<p class="legend">%s</p>' % " ".join(
        '<span><i style="background:%s"></i>%s</span>' % (COLOURS[i % len(COLOURS)], esc(label(wms, i)))
        for i in range(len(wms)))


def label(wms, i):
    """A compositor's name in the pictures; the same command twice is told apart by its index."""
    name = wms[i]
    return name if wms.count(name) == 1 else "%s #%d" % (name, i + 1)


def colour(i):
    return COLOURS[i % len(COLOURS)]


def figure(title, body, note=""):
    return '<figure><figcaption>%s</figcaption>%s%s</figure>' % (
        esc(title), body, '<p class="note">%s</p>' % note if note else "")


# ---- the pictures ----
def frames_by(rows, cell):
    """{(wm index, rep): [measured frame rows of the cell]}"""
    runs, _, _ = bench_summary.group_runs(rows)
    out = {}
    for (run_id, c), g in runs.items():
        if c == cell:
            out[bench_summary.parse_run_id(run_id)] = sorted(g["frames"], key=lambda f: (f["even"], f["win"]))
    return out


PER_FRAME_MAX = 180   # 3 s at 60 Hz: a compositor that shows thousands of frames a second (picom
                      # paints on damage) would otherwise squash every other one into the left edge


def latency_per_frame(doc, rows, cell):
    runs = frames_by(rows, cell)
    firsts = {}
    for (wi, rep), fr in sorted(runs.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        firsts.setdefault(wi, fr[:PER_FRAME_MAX])
    ys = [f["even_to_pixel"] for fr in firsts.values() for f in fr if f.get("even_to_pixel") is not None]
    if not ys:
        return ""
    top = bs.percentile(sorted(ys), 99.5) * 1.15
    xmax = max(len(fr) for fr in firsts.values())
    ch = Chart((0, max(xmax, 2)), (0, top), "frame (in order, first repetition, at most %d)" % PER_FRAME_MAX, "even → pixel (ms)")
    for wi, fr in sorted(firsts.items()):
        pts = [(i, f["even_to_pixel"]) for i, f in enumerate(fr) if f.get("even_to_pixel") is not None]
        ch.points(pts, colour(wi), r=1.6)
    return figure("Latency of each frame: %s" % cell, ch.svg(), "points above the top are drawn at the top edge")


def cdf(doc, rows, cell):
    runs = frames_by(rows, cell)
    pooled = {}
    for (wi, _), fr in runs.items():
        pooled.setdefault(wi, []).extend(f["even_to_pixel"] for f in fr if f.get("even_to_pixel") is not None)
    if not pooled or not any(pooled.values()):
        return ""
    allv = sorted(v for vs in pooled.values() for v in vs)
    ch = Chart((0, bs.percentile(allv, 99.5) * 1.1 or 1), (0, 1), "even → pixel (ms)", "share of frames")
    for wi, vs in sorted(pooled.items()):
        vs.sort()
        ch.line([(v, (i + 1) / len(vs)) for i, v in enumerate(vs)], colour(wi), step=True)
    return figure("Cumulative distribution of even → pixel: %s (all repetitions)" % cell, ch.svg())


def interval_histogram(doc, rows, cell):
    runs = frames_by(rows, cell)
    pooled = {}
    for (wi, _), fr in runs.items():
        pooled.setdefault(wi, []).extend(bs.frame_intervals(fr))
    allv = sorted(v for vs in pooled.values() for v in vs)
    if not allv:
        return ""
    hi = bs.percentile(allv, 99.5) * 1.1 or 1
    width = max(hi / 60, 0.05)
    hists = {wi: bs.histogram([min(v, hi) for v in vs], width, start=0) for wi, vs in pooled.items() if vs}
    top = max(max(c) / sum(c) for _, c in hists.values())
    ch = Chart((0, hi + width), (0, top * 1.1), "interval between frames on screen (ms)", "share of intervals")
    for wi, (edges, counts) in sorted(hists.items()):
        total = sum(counts)
        pts = []
        for e0, e1, n in zip(edges, edges[1:], counts):
            pts += [(e0, n / total), (e1, n / total)]
        ch.line(pts, colour(wi))
    return figure("Frame intervals: %s (bins of %.2f ms; a frame timer shows as a spike, "
                  "a uniform spread as a plateau)" % (cell, width), ch.svg())


def scaling(doc, key_cells, x_of, x_label, title, x_log=False):
    """p50 (median of run medians) and p95 (median over runs) of even→pixel across cells."""
    series = {}
    for run in doc["runs"]:
        if run["scenario"] in key_cells and run["even_to_pixel_ms"]:
            series.setdefault(run["wm_index"], {}).setdefault(x_of(run), []).append(run["even_to_pixel_ms"])
    if not series:
        return ""
    pts = {}
    for wi, byx in series.items():
        pts[wi] = sorted((x, bs.median([s["p50"] for s in ss]), bs.median([s["p95"] for s in ss]))
                         for x, ss in byx.items())
    xs = [p[0] for v in pts.values() for p in v]
    ys = [p[2] for v in pts.values() for p in v]
    lo = min(xs) / 1.5 if x_log else 0
    ch = Chart((lo, max(xs) * (1.5 if x_log else 1.1)), (0, max(ys) * 1.15 or 1), x_label, "even → pixel (ms)",
               x_log=x_log)
    for wi, p in sorted(pts.items()):
        ch.line([(x, a) for x, a, _ in p], colour(wi))
        ch.points([(x, a) for x, a, _ in p], colour(wi), r=3)
        ch.line([(x, b) for x, _, b in p], colour(wi), dash=True)
    return figure(title, ch.svg(), "solid: p50, dashed: p95 (medians over the repetitions)")


def outcome_bars(doc):
    cells = doc["cells"]
    if not cells:
        return ""
    wms = doc["wms"]
    order = sorted(cells, key=lambda c: (doc["cells_run"].index(c["scenario"]) if c["scenario"] in doc["cells_run"]
                                         else 99, c["wm_index"]))
    height = 22 + 16 * len(order)
    labels = [(len(order) - i, "%s · %s" % (c["scenario"], label(wms, c["wm_index"]))) for i, c in enumerate(order)]
    ch = Chart((0, 1), (0.3, len(order) + 0.7), "share of the frames", "", width=780, height=height + 60,
               y_labels=labels, left=250)
    for i, c in enumerate(order):
        total = sum(c["outcomes"].values()) or 1
        x = 0.0
        for o in bs.OUTCOMES:
            share = c["outcomes"].get(o, 0) / total
            if share:
                ch.hbar(x, x + share, len(order) - i, 11, OUTCOME_COLOURS[o], "%s: %d" % (o, c["outcomes"][o]))
            x += share
    svg = ch.svg()
    key = " ".join('<span><i style="background:%s"></i>%s</span>' % (OUTCOME_COLOURS[o], o) for o in bs.OUTCOMES)
    return figure("Outcomes of the frames, per cell and compositor", svg, key)


def forest(doc):
    rows = [c for c in doc["cells"] if c["wm_index"] and c["ratio_to_first"].get("even_to_pixel_p50_ms")]
    if not rows:
        return ""
    wms = doc["wms"]
    rows.sort(key=lambda c: (doc["cells_run"].index(c["scenario"]) if c["scenario"] in doc["cells_run"] else 99,
                             c["wm_index"]))
    rs = [c["ratio_to_first"]["even_to_pixel_p50_ms"] for c in rows]
    lo = min(min(r["lo"] for r in rs), 0.8)
    hi = max(max(r["hi"] for r in rs), 1.25)
    labels = [(len(rows) - i, "%s · %s" % (c["scenario"], label(wms, c["wm_index"]))) for i, c in enumerate(rows)]
    ch = Chart((lo / 1.1, hi * 1.1), (0.3, len(rows) + 0.7), "ratio of p50 even → pixel to %s (log scale)" %
               label(wms, 0), "", x_log=True, width=780, height=22 + 16 * len(rows) + 60, y_labels=labels,
               left=250)
    ch.vline(1.0)
    for i, (c, r) in enumerate(zip(rows, rs)):
        y = len(rows) - i
        ch.hbar(r["lo"], r["hi"], y, 2, colour(c["wm_index"]), "95%% interval %.3f – %.3f" % (r["lo"], r["hi"]))
        ch.points([(r["ratio"], y)], colour(c["wm_index"]), r=3.5)
    svg = ch.svg()
    return figure("Ratios to the first compositor, with bootstrap 95 % intervals over the repetitions", svg,
                  "left of 1: faster than %s" % esc(label(wms, 0)))


# ---- tables ----
def fmt(x, d=2):
    return "–" if x is None else ("%.*f" % (d, x))


def ratio_text(r):
    return "–" if not r else "%.2f <small>[%.2f, %.2f]</small>" % (r["ratio"], r["lo"], r["hi"])


def cell_table(doc):
    wms = doc["wms"]
    head = ("<tr><th>cell</th><th>compositor</th><th>paced on</th><th>reps</th><th>even→pixel p50</th>"
            "<th>ratio</th><th>even→drawn p50</th><th>ratio</th><th>fps</th><th>ratio</th><th>interval SD</th>"
            "<th>stutters</th><th>worst 1 s dropped</th><th>skew p50</th><th>variation</th></tr>")
    body = []
    order = sorted(doc["cells"], key=lambda c: (doc["cells_run"].index(c["scenario"])
                                                if c["scenario"] in doc["cells_run"] else 99, c["wm_index"]))
    for c in order:
        rt = c["ratio_to_first"]
        body.append("<tr><td>%s</td><td><i style='background:%s'></i>%s</td><td>%s</td><td>%d</td><td>%s</td>"
                    "<td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%d</td><td>%s</td>"
                    "<td>%s</td><td class='%s'>%s</td></tr>" % (
                        esc(c["scenario"]), colour(c["wm_index"]), esc(label(wms, c["wm_index"])),
                        esc(", ".join(c["paced_on"])), c["reps"], fmt(c["even_to_pixel_p50_ms"]),
                        ratio_text(rt.get("even_to_pixel_p50_ms")), fmt(c["even_to_drawn_p50_ms"]),
                        ratio_text(rt.get("even_to_drawn_p50_ms")), fmt(c["fps"], 1), ratio_text(rt.get("fps")),
                        fmt(c["interval_sd_ms"]), c["stutters"], fmt(c["worst_1s_drop_share"]),
                        fmt(c["skew_p50_ms"]), "noisy" if c["noisy"] else "",
                        "%.1f %%%s" % (100 * c["p50_variation"], " noisy" if c["noisy"] else "")))
    return "<table>%s%s</table>" % (head, "".join(body))


def pooled_table(doc, rows):
    """n, min, p50, p90, p95, p99, max, SD and IQR of the three latencies, all repetitions pooled."""
    runs, _, _ = bench_summary.group_runs(rows)
    pooled = {}
    for (run_id, cell), g in runs.items():
        wi, _ = bench_summary.parse_run_id(run_id)
        pooled.setdefault((cell, wi), []).extend(g["frames"])
    keys = ("n", "min", "p50", "p90", "p95", "p99", "max", "sd", "iqr")
    head = "<tr><th>cell</th><th>compositor</th><th>latency (ms)</th>%s</tr>" % "".join("<th>%s</th>" % k for k in keys)
    body = []
    order = sorted(pooled, key=lambda k: (doc["cells_run"].index(k[0]) if k[0] in doc["cells_run"] else 99, k[1]))
    for cell, wi in order:
        for what in ("even_to_pixel", "even_to_drawn", "pixel_to_drawn"):
            s = bs.summary(f.get(what) for f in pooled[(cell, wi)])
            cells = "".join("<td>%s</td>" % ("–" if not s else (s[k] if k == "n" else fmt(s[k]))) for k in keys)
            body.append("<tr><td>%s</td><td>%s</td><td>%s</td>%s</tr>" % (
                esc(cell), esc(label(doc["wms"], wi) if wi is not None and wi < len(doc["wms"]) else "?"),
                what.replace("_", " ").replace("to", "→"), cells))
    return "<details><summary>Every latency, all repetitions pooled</summary><table>%s%s</table></details>" % (
        head, "".join(body))


def environment(doc):
    env = doc["environment"]
    items = [("started", env.get("started")), ("wall time", "%s s" % env.get("wall_s")),
             ("command", " ".join(env.get("command_line", []))), ("cpu", env.get("cpu")),
             ("cores", "%s (%s usable)" % (env.get("cores"), env.get("cores_usable"))),
             ("load average", "%s at the start, %s at the end" % (env.get("load_average_at_start"),
                                                                  env.get("load_average_at_end"))),
             ("kernel", env.get("kernel")), ("framesync", env.get("framesync_commit")),
             ("packages", ", ".join("%s %s" % kv for kv in sorted(env.get("packages", {}).items()))),
             ("settings", json.dumps(doc["settings"])), ("percentiles", doc["percentile_method"])]
    return "<table class='env'>%s</table>" % "".join(
        "<tr><th>%s</th><td>%s</td></tr>" % (esc(k), esc(v)) for k, v in items)


CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1250px}
h1{font-size:22px} h2{font-size:17px;margin-top:28px}
figure{display:inline-block;margin:8px 16px 16px 0;vertical-align:top}
figcaption{font-weight:600;margin-bottom:4px;max-width:760px}
svg{background:#fff;border:1px solid #ddd}
.grid{stroke:#eee} .frame{fill:none;stroke:#999} .tick{font-size:10px;fill:#555} .label{font-size:11px;fill:#333}
.legend span{margin-right:14px;white-space:nowrap} i{display:inline-block;width:10px;height:10px;margin-right:4px}
table{border-collapse:collapse;font-size:12px;margin:8px 0} td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}
td:first-child,th:first-child,td:nth-child(2){text-align:left} .env td{text-align:left}
.noisy{color:#b35c00} .note{font-size:12px;color:#555;margin:2px 0} small{color:#666}
.warn{background:#fff3cd;padding:6px 10px;border:1px solid #e0c870}
"""


def write(doc, rows, path):
    full, all_rows = doc, rows
    # the resize cells have their own section (runner/reports/bench_resize_html.py); the rest is about the others
    steady = lambda s: not bench_summary.is_resize(s or "")  # noqa: E731
    doc = dict(doc, cells_run=[c for c in doc["cells_run"] if steady(c)],
               cells=[c for c in doc["cells"] if steady(c["scenario"])],
               runs=[r for r in doc["runs"] if steady(r["scenario"])])
    rows = [r for r in rows if steady(r.get("cell"))]
    wms = doc["wms"]
    head_cell = doc["cells_run"][0] if doc["cells_run"] else None
    count_cells = [c for c in doc["cells_run"] if c.endswith("x256-core-drawn-idle")]
    size_cells = [c for c in doc["cells_run"] if c.startswith("1x") and c.endswith("-core-drawn-idle")]
    parts = ["<!doctype html><meta charset='utf-8'><title>framesync benchmark</title><style>%s</style>" % CSS,
             "<h1>framesync benchmark: %s</h1>" % esc(" vs ".join(label(wms, i) for i in range(len(wms))))]
    if doc["interrupted"]:
        parts.append("<p class='warn'>The run was interrupted: these are the cells measured until then.</p>")
    for e in doc.get("errors", []):
        parts.append("<p class='warn'>%s %s: %s</p>" % (esc(e.get("run")), esc(e.get("cell") or ""), esc(e.get("error"))))
    if doc["cells"]:
        parts.append("<p>Latencies are from the end of a client's update (extended counter even) to the frame's "
                     "pixel on the root window (even → pixel), to the drawn message's arrival (even → drawn), and "
                     "between the two (pixel → drawn). Each figure is the median over the repetitions of each run's "
                     "median; ratios are to the first compositor, with bootstrap 95 %% intervals. A cell is noisy when "
                     "its p50 varies by %.0f %% or more from run to run.</p>" % (100 * doc["settings"]["noisy_variation"]))
    parts.append(legend(wms))
    parts.append(bench_resize_html.section(full, all_rows, sys.modules[__name__]))
    if not doc["cells"]:
        parts.append("<h2>Environment</h2>" + environment(doc))
        return finish(parts, path)
    parts.append("<h2>Figures per cell</h2>" + cell_table(doc) + pooled_table(doc, rows))
    parts.append("<h2>Pictures</h2>")
    if head_cell:
        parts += [latency_per_frame(doc, rows, head_cell), cdf(doc, rows, head_cell),
                  interval_histogram(doc, rows, head_cell)]
    # frames on a 60 Hz timer show how each compositor paces: a free-running frame clock gives a
    # latency set by the phase of the client's timer (flat within a run, different between runs)
    timer_cells = [c for c in doc["cells_run"] if "-timer60-" in c and c != head_cell][:1]
    for c in timer_cells:
        parts += [latency_per_frame(doc, rows, c), cdf(doc, rows, c)]
    if len(count_cells) > 1:
        parts.append(scaling(doc, count_cells, lambda r: r["windows"], "windows (256×256, never overlapping)",
                             "Latency against the number of windows", x_log=True))
    if len(size_cells) > 1:
        parts.append(scaling(doc, size_cells, lambda r: math.sqrt(r["width"] * r["height"]),
                             "window size (√ of the area, px)", "Latency against window size", x_log=True))
    parts += [forest(doc), outcome_bars(doc)]
    parts.append("<h2>Environment</h2>" + environment(doc))
    finish(parts, path)


def finish(parts, path):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(p for p in parts if p))
    os.replace(tmp, path)


def main(argv):
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        sys.stderr.write("usage: python3 -m runner.reports.bench_html OUT/bench.json\n")
        return 2
    with open(argv[0], encoding="utf-8") as f:
        doc = json.load(f)
    folder = os.path.dirname(os.path.abspath(argv[0]))
    write(doc, bench_summary.read_rows(os.path.join(folder, "bench.jsonl")), os.path.join(folder, "bench.html"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
