"""bench.html's part for the resize cells (runner/reports/bench_resize.py): the table per cell and
compositor with ratios to the first, the size over time under the pointer's trace with the glitch
strip, and the lag CDF per compositor.  Standard library only."""
from runner.reports import bench_resize
from runner.reports import bench_stats as bs
from runner.reports import bench_summary

KIND_COLOURS = {"stale": "#e08a00", "torn": "#d62728", "bounced": "#7b3fb5"}


def traces_by(rows, cell):
    """{(wm index, rep): resize row} of one cell."""
    runs, _, _ = bench_summary.group_runs(rows)
    return {bench_summary.parse_run_id(run_id): g["resize"] for (run_id, c), g in runs.items()
            if c == cell and g.get("resize")}


def ci(c, fig):
    """A median and, below it in small type, its 95 % bootstrap interval over the repetitions."""
    iv = c.get(fig + "_ci95")
    return bench_summary.fmt(c.get(fig), 1) + ("" if not iv else "<br><small>[%s – %s]</small>" % (
        bench_summary.fmt(iv[0], 1), bench_summary.fmt(iv[1], 1)))


def table(doc, h):
    wms = doc["wms"]
    runs = {}
    for r in doc["runs"]:
        if bench_summary.is_resize(r["scenario"]):
            runs.setdefault((r["scenario"], r["wm_index"]), []).append(r)
    head = ("<tr><th>cell</th><th>compositor</th><th>reps</th><th>frames/s</th><th>steps/s</th><th>ratio</th>"
            "<th>glitch %</th><th>ratio</th><th>stale / torn / bounced</th><th>longest glitch run</th>"
            "<th>unpainted px (mean)</th><th>lag p50 ms</th><th>ratio</th><th>lag p95 ms</th><th>lag p99 ms</th>"
            "<th>lag p95 px</th><th>requests sent / answered / timed out</th><th>ConfigureNotify got / painted</th>"
            "<th>frames seen by</th></tr>")
    body = []
    cells = [c for c in doc["cells"] if bench_summary.is_resize(c["scenario"])]
    cells.sort(key=lambda c: (doc["cells_run"].index(c["scenario"]) if c["scenario"] in doc["cells_run"] else 99,
                              c["wm_index"]))
    for c in cells:
        rs = runs.get((c["scenario"], c["wm_index"]), [])
        rt = c["ratio_to_first"]

        def med(f):
            vals = [f(r) for r in rs if f(r) is not None]
            return bs.median(vals) if vals else None
        longest = max((r["longest_glitch_run"]["frames"] for r in rs), default=0)
        longest_ms = max((r["longest_glitch_run"]["ms"] for r in rs), default=0)
        req = [sum(r["requests"][k] for r in rs) for k in ("sent", "answered", "timed_out")]
        cfg = [sum(r["configure_notify"][k] for r in rs) for k in ("received", "painted")]
        k = c["glitch_by_kind"]
        body.append("<tr><td>%s</td><td><i style='background:%s'></i>%s</td><td>%d</td><td>%s</td><td>%s</td>"
                    "<td>%s</td><td>%s</td><td>%s</td><td>%d / %d / %d</td><td>%d frames, %.0f ms</td><td>%s</td>"
                    "<td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%d / %d / %d</td><td>%d / %d</td>"
                    "<td>%s</td></tr>" % (
                        h.esc(c["scenario"]), h.colour(c["wm_index"]), h.esc(h.label(wms, c["wm_index"])), c["reps"],
                        h.fmt(c["fps"], 1), ci(c, "steps_per_s"), h.ratio_text(rt.get("steps_per_s")),
                        ci(c, "glitch_pct"), h.ratio_text(rt.get("glitch_pct")), k["stale"], k["torn"],
                        k["bounced"], longest, longest_ms, h.fmt(med(lambda r: r["unpainted_px"]["mean"]), 0),
                        ci(c, "lag_p50_ms"), h.ratio_text(rt.get("lag_p50_ms")), ci(c, "lag_p95_ms"),
                        h.fmt(med(lambda r: r["lag_ms"]["p99"] if r["lag_ms"] else None), 1),
                        h.fmt(med(lambda r: r["lag_px"]["p95"] if r["lag_px"] else None), 1),
                        req[0], req[1], req[2], cfg[0], cfg[1],
                        h.esc(bench_summary.capture_text(c.get("capture")) + ", input " +
                              (c.get("capture") or {}).get("input_via", "xtest"))))
    return "<table>%s%s</table>" % (head, "".join(body))


def size_over_time(doc, rows, cell, h):
    """Per compositor (its first repetition): the shown width and height (solid) over the size the
    pointer asked for (dashed), with a strip of the glitched frames along the bottom."""
    out = []
    firsts = {}
    for (wi, rep), trace in sorted(traces_by(rows, cell).items(), key=lambda kv: (kv[0][0] or 0, kv[0][1] or 0)):
        firsts.setdefault(wi, trace)
    for wi, trace in sorted(firsts.items()):
        f = bench_resize.figures(trace)
        tl = f["timeline"]
        motions = trace["motions"]
        if not tl:
            continue
        t_end = trace["drive_ms"] + bench_resize.SETTLE_MS
        top = max([p[1] for p in tl] + [m[1] for m in motions] + [trace["start_w"]]) * 1.08
        ch = h.Chart((0, t_end), (-30, top), "time since the drive began (ms)", "size (px)", width=760, height=260)
        d0 = trace["drive_from"]
        for i, what in ((1, "w"), (2, "h")):
            ptr = [(0, trace["start_w"] if i == 1 else trace["start_h"])]
            ptr += [(m[0] - d0, m[i]) for m in motions]
            ch.line(ptr, "#999", dash=True, step=True)
            ch.line([(p[0], p[i]) for p in tl], h.colour(wi), step=True)
        for j, p in enumerate(tl):
            if p[5] in KIND_COLOURS:
                nxt = tl[j + 1][0] if j + 1 < len(tl) else p[0] + 16
                ch.hbar(p[0], nxt, -15, 14, KIND_COLOURS[p[5]], "%s frame at %.1f ms: shown %dx%d, asked %dx%d" % (
                    p[5], p[0], p[1], p[2], p[3], p[4]))
        out.append(h.figure("%s, %s: width and height shown (solid) and asked for by the pointer (dashed)" % (
            cell, h.label(doc["wms"], wi)), ch.svg() + thumbnails(f["thumbs"], h),
            "the strip at the bottom marks glitched frames: <span style='color:%s'>stale</span>, "
            "<span style='color:%s'>torn</span>, <span style='color:%s'>bounced</span> (hover for the sizes)" % (
                KIND_COLOURS["stale"], KIND_COLOURS["torn"], KIND_COLOURS["bounced"])))
    return "".join(out)


def thumbnails(thumbs, h):
    """The worst glitched frames of the run as pictures (the area of the capture's lines, the
    window's fixed corner 8 px in), under the strip."""
    if not thumbs:
        return ""
    cells = "".join(
        "<figure style='display:inline-block;margin:4px 8px'><img src='%s' width='284' alt='%s frame' "
        "style='image-rendering:pixelated;border:2px solid %s'><figcaption>%s at %.0f ms: shown %dx%d, %d px "
        "unpainted</figcaption></figure>" % (h.esc(t["file"]), t["kind"], KIND_COLOURS[t["kind"]], t["kind"], t["t"],
                                             t["shown"][0], t["shown"][1], t["unpainted"])
        for t in thumbs)
    return "<div>%s</div>" % cells


def lag_cdf(doc, rows, cell, h):
    pooled = {}
    for (wi, _), trace in traces_by(rows, cell).items():
        f = bench_resize.figures(trace)
        pooled.setdefault(wi, [])
        d0, t_lag = trace["drive_from"], None
        # the lag of each frame that showed a new size, as in figures()
        last = None
        for p in f["timeline"]:
            shown = (p[1], p[2])
            if shown != last and last is not None and p[5] in ("consistent", "stale"):
                t_lag = bench_resize.motion_lag(trace["motions"], p[0] + d0, shown,
                                                (trace["start_w"], trace["start_h"]))
                if t_lag is not None:
                    pooled[wi].append(t_lag)
            last = shown
    allv = sorted(v for vs in pooled.values() for v in vs)
    if not allv:
        return ""
    ch = h.Chart((0, bs.percentile(allv, 99) * 1.1 or 1), (0, 1), "pointer → shown size (ms)", "share of new sizes")
    for wi, vs in sorted(pooled.items()):
        vs.sort()
        if vs:
            ch.line([(v, (i + 1) / len(vs)) for i, v in enumerate(vs)], h.colour(wi), step=True)
    return h.figure("Lag of each new size shown: %s (all repetitions)" % cell, ch.svg())


def section(doc, rows, h):
    cells = [c for c in doc["cells_run"] if bench_summary.is_resize(c)]
    if not cells:
        return ""
    parts = ["<h2>Resize</h2>",
             "<p>One window resized along a fixed path (grow right, grow down, shrink diagonally), by the "
             "pointer (_NET_WM_MOVERESIZE, XTEST motion), by the keyboard (arrow keys) or by its own "
             "ConfigureRequests. Each frame the compositor showed is read (off the root, or its screen stream) "
             "with the window's geometry: "
             "<b>consistent</b> (one paint, made for the size shown, and the window ending where the server has "
             "it), <b>stale</b> (a paint for another size: cropped, an unpainted strip of background, black or "
             "garbage, stretched), <b>torn</b> (two paints in one frame), <b>bounced</b> (the fixed corner moved). "
             "Steps are changes of the size shown; lag is from the pointer asking for a size to the first frame "
             "showing it. Figures are medians over the repetitions, with their bootstrap 95 % intervals under them; "
             "ratios to the first compositor with bootstrap 95 % intervals. On a Wayland compositor (its own "
             "Xwayland) the frames are its screen stream's (or, without one, its own pictures, sampled: some frames, "
             "not every one), and the pointer is its own seat's: the last column says which, with the stream's "
             "frames per second against the refresh and the gaps in which frames may be missing.</p>", table(doc, h)]
    for c in cells:
        parts += [size_over_time(doc, rows, c, h), lag_cdf(doc, rows, c, h)]
    return "".join(p for p in parts if p)
