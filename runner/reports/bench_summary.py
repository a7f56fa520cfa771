"""From bench.jsonl (the rows framesync-bench appends) to the summaries of bench.json: one entry
per run (a compositor, a cell, a repetition) and one per cell and compositor (the median of the
run medians, the run-to-run variation, the ratios to the first compositor with bootstrap
intervals).  Standard library only; also a command:

    python3 -m runner.reports.bench_summary OUT/bench.jsonl    # prints the cell table
"""
import json
import sys

from runner.reports import bench_resize
from runner.reports import bench_stats as bs

NOISY_VARIATION = 0.03   # run-to-run variation of p50 (SD / mean) from which a cell is noisy
RATIO_FIGURES = ("even_to_pixel_p50_ms", "even_to_drawn_p50_ms", "fps")
# the resize cells' (runner/reports/bench_resize.py): the glitch share, steps shown per second, lag
RESIZE_RATIO_FIGURES = ("glitch_pct", "steps_per_s", "lag_p50_ms", "lag_p95_ms")


def is_resize(scenario):
    return scenario.startswith("resize-")


def read_rows(path):
    """The rows of a bench.jsonl; a line cut short by an interruption is skipped."""
    rows = []
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                try:
                    rows.append(json.loads(line))
                except ValueError:
                    continue
    except FileNotFoundError:
        pass
    return rows


def parse_run_id(run_id):
    """'w1-r3' -> (1, 3): the compositor's index in --wm and the repetition."""
    try:
        w, r = run_id.split("-")
        return int(w[1:]), int(r[1:])
    except (ValueError, AttributeError):
        return None, None


# how a cell ends when it could not measure (bench/cell.c, bench/resize.c, bench/session.c): an
# error of the run, never an empty row; a compositor that died mid-cell is a crash.  "deadline" is
# the normal end; "interrupted" keeps what was measured as partial results
MEASURED_NOTHING = ("windows never shown", "x-error", "compositor exited")


def group_runs(rows):
    """{(run id, cell): {"cell": row, "end": row, "frames": [measured frame rows]}} and the
    session rows by run id, in the order they were written."""
    runs, sessions, errors = {}, {}, []
    for r in rows:
        kind = r.get("kind")
        if kind == "session":
            sessions[r["run"]] = r
        elif kind == "error":
            errors.append(r)
        elif kind in ("cell", "cell-end", "frame", "resize"):
            g = runs.setdefault((r["run"], r["cell"]), {"cell": None, "end": None, "frames": [], "resize": None})
            if kind == "cell":
                g["cell"] = r
            elif kind == "resize":
                g["resize"] = r
            elif kind == "cell-end":
                g["end"] = r
                if r.get("ended_by") in MEASURED_NOTHING:
                    # a cell that could not measure is an error of the run, never an empty row
                    errors.append({"kind": "error", "run": r["run"], "cell": r["cell"],
                                   "error": "the cell could not measure (ended by %s)" % r["ended_by"]})
            elif not r.get("warmup"):
                g["frames"].append(r)
    return runs, sessions, errors


def run_entries(rows, wms):
    """One entry per finished run of a cell (bench.json `runs`)."""
    runs, sessions, _ = group_runs(rows)
    out = []
    for (run_id, cell), g in runs.items():
        if not g["cell"] or not g["end"]:
            continue  # interrupted before the cell ended: its frames are in bench.jsonl only
        wm_index, rep = parse_run_id(run_id)
        session = sessions.get(run_id, {})
        c = g["cell"]
        entry = {
            "wm": wms[wm_index] if wm_index is not None and wm_index < len(wms) else session.get("wm"),
            "wm_index": wm_index,
            "wm_command": session.get("command"),
            "wm_name": session.get("wm_name"),
            "scenario": cell,
            "windows": c["windows"],
            "width": c["width"],
            "height": c["height"],
            "render": c["render"],
            "pacing": c["pacing"],
            "load": c["load"],
            "rep": rep,
            "run": run_id,
            "paced_on": g["end"]["paced_on"],
            "ended_by": g["end"]["ended_by"],
            "wall_ms": g["end"]["wall_ms"],
            "drawn_advertised": c.get("drawn_advertised"),
        }
        if g.get("resize"):
            entry.update(bench_resize.run_figures(g["resize"]))
        else:
            entry.update(bs.run_figures(g["frames"], g["end"]))
        out.append(entry)
    return out


def p50_of(summary):
    return summary["p50"] if summary else None


def run_values(runs, figure):
    """The per-run values of one figure: p50s of latency summaries, or fps."""
    if figure == "fps":
        return [r["fps"] for r in runs if r["fps"] is not None]
    if figure == "glitch_pct":
        return [r["glitch_frames"]["pct"] for r in runs if r.get("glitch_frames") and r["glitch_frames"]["pct"] is not None]
    if figure == "steps_per_s":
        return [r["steps_per_s"] for r in runs if r.get("steps_per_s") is not None]
    if figure in ("lag_p50_ms", "lag_p95_ms"):
        p = "p50" if figure == "lag_p50_ms" else "p95"
        return [r["lag_ms"][p] for r in runs if r.get("lag_ms")]
    key = figure.replace("_p50_ms", "_ms")
    return [p50_of(r[key]) for r in runs if p50_of(r[key]) is not None]


def cell_entries(run_list):
    """One entry per (cell, compositor): medians of the run medians, variation, noisy, and the
    ratios to the first compositor (index 0) with bootstrap 95 % intervals over the runs."""
    by = {}
    for r in run_list:
        by.setdefault((r["scenario"], r["wm_index"]), []).append(r)
    cells = []
    for (scenario, wi), runs in by.items():
        e2p = run_values(runs, "even_to_pixel_p50_ms")
        entry = {
            "scenario": scenario, "wm": runs[0]["wm"], "wm_index": wi, "reps": len(runs),
            "windows": runs[0]["windows"], "width": runs[0]["width"], "height": runs[0]["height"],
            "render": runs[0]["render"], "pacing": runs[0]["pacing"], "load": runs[0]["load"],
            "paced_on": sorted({r["paced_on"] for r in runs}),
            "p50_variation": round(bs.variation(e2p), 4),
            "noisy": bs.variation(e2p) >= NOISY_VARIATION,
            "outcomes": {o: sum(r["outcomes"].get(o, 0) for r in runs) for o in bs.OUTCOMES},
        }
        for fig in RATIO_FIGURES:
            vals = run_values(runs, fig)
            entry[fig] = round(bs.median(vals), 4) if vals else None
        for fig in ("interval_sd_ms", "worst_1s_drop_share"):
            vals = [r[fig] for r in runs if r[fig] is not None]
            entry[fig] = round(bs.median(vals), 4) if vals else None
        entry["stutters"] = sum(r["stutters"] for r in runs)
        skews = [p50_of(r["skew_ms"]) for r in runs if r["skew_ms"]]
        entry["skew_p50_ms"] = round(bs.median(skews), 4) if skews else None
        if is_resize(scenario):
            for fig in RESIZE_RATIO_FIGURES:
                vals = run_values(runs, fig)
                entry[fig] = round(bs.median(vals), 4) if vals else None
                ci = bs.bootstrap_median(vals)
                entry[fig + "_ci95"] = None if ci is None else [round(ci[0], 4), round(ci[1], 4)]
            entry["capture"] = capture_summary(runs)
            entry["glitch_frames"] = sum(r["glitch_frames"]["count"] for r in runs)
            entry["frames"] = sum(r["frames"] for r in runs)
            entry["glitch_by_kind"] = {k: sum(r["glitch_frames"]["by_kind"][k] for r in runs)
                                       for k in bench_resize.GLITCHES}
            entry["resize"] = runs[0].get("resize")
        cells.append(entry)
    add_ratios(cells, by)
    cells.sort(key=lambda c: (c["scenario"], c["wm_index"]))
    return cells


def capture_summary(runs):
    """How a cell's runs saw the screen: the capture and input paths, and for a stream the median
    frames/s against the refresh and the gaps over all runs (frames may be missing in them)."""
    caps = [r.get("capture") or {"via": "root-damage", "input_via": "xtest"} for r in runs]
    out = {"via": "/".join(sorted({c["via"] for c in caps})),
           "input_via": "/".join(sorted({c.get("input_via", "xtest") for c in caps}))}
    sampled = [c for c in caps if c["via"] == "sampled"]
    if sampled:
        fps = [c["capture_fps"] for c in sampled if c.get("capture_fps") is not None]
        out.update({"fps": round(bs.median(fps), 2) if fps else None,
                    "failures": sum(c.get("capture_failures") or 0 for c in sampled)})
    streamed = [c for c in caps if c["via"] == "stream"]
    if streamed:
        fps = [c["capture_fps"] for c in streamed if c.get("capture_fps") is not None]
        out.update({"fps": round(bs.median(fps), 2) if fps else None,
                    "refresh_hz": streamed[0].get("refresh_hz"),
                    "gaps": sum(c.get("capture_gaps") or 0 for c in streamed),
                    "gap_ms": round(sum(c.get("capture_gap_ms") or 0 for c in streamed), 3),
                    "timing": streamed[0].get("capture_timing")})
    return out


def capture_text(cap):
    """`root-damage`, `stream 25.4/60 fps, 0 gaps` (recorded: the frame's time is its recording), or
    `sampled 58.3 pictures/s` (the compositor's own pictures: some frames, not every one)."""
    if cap and cap.get("via") == "sampled":
        return "sampled %s pictures/s%s" % (fmt(cap.get("fps"), 1),
                                            ", %d failed" % cap["failures"] if cap.get("failures") else "")
    if not cap or cap.get("via") != "stream":
        return (cap or {}).get("via", "root-damage")
    return "stream %s/%s fps, %d gaps%s" % (fmt(cap.get("fps"), 1), fmt(cap.get("refresh_hz"), 0), cap.get("gaps", 0),
                                            ", recorded" if cap.get("timing") == "recorded" else "")


def with_ci(c, fig, digits=1):
    """The median with its 95 % bootstrap interval over the runs: `12.3 [10.1,14.0]`."""
    ci = c.get(fig + "_ci95")
    return fmt(c.get(fig), digits) + ("" if not ci else " [%s,%s]" % (fmt(ci[0], digits), fmt(ci[1], digits)))


def add_ratios(cells, by):
    for c in cells:
        base = by.get((c["scenario"], 0))
        c["ratio_to_first"] = {}
        if not base or c["wm_index"] == 0:
            continue  # the first compositor is what the others are compared with
        mine = by[(c["scenario"], c["wm_index"])]
        for fig in RESIZE_RATIO_FIGURES if is_resize(c["scenario"]) else RATIO_FIGURES:
            r = bs.bootstrap_ratio(run_values(base, fig), run_values(mine, fig))
            c["ratio_to_first"][fig] = None if r is None else {
                "ratio": round(r[0], 4), "lo": round(r[1], 4), "hi": round(r[2], 4)}


def noisy_scenarios(run_list, max_reps):
    """The cells whose p50 varies by NOISY_VARIATION or more from run to run for some compositor,
    and that have had fewer than max_reps runs: those get another repetition."""
    by = {}
    for r in run_list:
        by.setdefault((r["scenario"], r["wm_index"]), []).append(r)
    out = set()
    for (scenario, _), runs in by.items():
        if len(runs) < max_reps and bs.variation(run_values(runs, "even_to_pixel_p50_ms")) >= NOISY_VARIATION:
            out.add(scenario)
    return out


def fmt(x, digits=2):
    return "-" if x is None else ("%.*f" % (digits, x))


def print_resize_table(cells, wms, out):
    """Medians over the runs, each with its 95 % bootstrap interval, and how the frames were seen."""
    out.write("%-24s %-16s %4s %-19s %-17s %-17s %-19s %8s %-14s %s\n" % (
        "resize cell", "compositor", "reps", "glitch% [95%]", "steps/s [95%]", "lag p50 [95%]", "lag p95 [95%]",
        "fps", "stale/torn/bnc", "capture"))
    for c in cells:
        label = wms[c["wm_index"]] if c["wm_index"] is not None and c["wm_index"] < len(wms) else c["wm"]
        k = c["glitch_by_kind"]
        out.write("%-24s %-16s %4d %-19s %-17s %-17s %-19s %8s %-14s %s\n" % (
            c["scenario"], label[:16], c["reps"], with_ci(c, "glitch_pct"), with_ci(c, "steps_per_s"),
            with_ci(c, "lag_p50_ms"), with_ci(c, "lag_p95_ms"), fmt(c["fps"], 1),
            "%d/%d/%d" % (k["stale"], k["torn"], k["bounced"]), capture_text(c.get("capture"))))


def print_table(cells, wms, out=sys.stdout):
    resize = [c for c in cells if is_resize(c["scenario"])]
    cells = [c for c in cells if not is_resize(c["scenario"])]
    if resize:
        print_resize_table(resize, wms, out)
    if not cells:
        return
    out.write("%-30s %-22s %4s %9s %9s %8s %16s %s\n" % (
        "cell", "compositor", "reps", "e2pix p50", "e2drw p50", "fps", "e2pix ratio [95%]", ""))
    for c in cells:
        r = c["ratio_to_first"].get("even_to_pixel_p50_ms")
        ratio = "-" if not r else "%.2f [%.2f,%.2f]" % (r["ratio"], r["lo"], r["hi"])
        label = wms[c["wm_index"]] if c["wm_index"] is not None and c["wm_index"] < len(wms) else c["wm"]
        out.write("%-30s %-22s %4d %9s %9s %8s %16s %s\n" % (
            c["scenario"], label[:22], c["reps"], fmt(c["even_to_pixel_p50_ms"]), fmt(c["even_to_drawn_p50_ms"]),
            fmt(c["fps"], 1), ratio, "noisy" if c["noisy"] else ""))


def main(argv):
    if len(argv) != 1:
        sys.stderr.write("usage: python3 -m runner.reports.bench_summary OUT/bench.jsonl\n")
        return 2
    rows = read_rows(argv[0])
    runs = run_entries(rows, [])
    print_table(cell_entries(runs), [])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
