"""The resize cells' figures (bench/resize.c writes the traces; bench/README.md, "Resize cells").

Every capture is one composited frame: a row and a column of the root through the window's fixed
top-left corner, decoded by framesync-bench into [start, frame, interior_end, marker_end, extent,
other, bare] (pixels from the corner; bare: where the backdrop under the window is next seen), with
the window's geometry from the server at the same instant.  A capture identical to the one before
it is the same frame shown again and is not counted.

A frame is
  consistent  one paint fills the window as far as its pixels reach, its edge markers end exactly
              there, in both lines, and that paint was made for exactly that size; and the window
              ends there as the server has it: the markers end at the server's edge, or short of
              it with the backdrop right after them (past the window's own decoration, as wide as
              when the markers end at the server's edge): the compositor shows the window whole at
              an older size, holding its last answered frame;
  torn        two paints in one frame (the row and the column, or one line, show two numbers);
  bounced     the window's fixed top-left corner is not where it was (the edge opposite the drag
              moved);
  stale       anything else: a paint for another size (cropped: no marker at the edge; an
              unpainted strip of background, black or garbage between the marker and the server's
              edge; stretched: the marker at a place the paint was not made for) or no paint at
              the corner at all.
Steps are the changes of the size shown (how far the window's pixels reach, whatever they show);
lag is from the pointer asking for a size to the first frame whose window reaches it (consistent
or stale frames), and in pixels between the size asked for and the size shown at each frame.
Standard library only.
"""
import collections
import math

from runner.reports import bench_stats as bs

KINDS = ("consistent", "stale", "torn", "bounced")
GLITCHES = ("stale", "torn", "bounced")
SETTLE_MS = 500.0      # frames up to this long after the drive ended still count (the last steps)
MATCH_PX = 2           # a shown size within this many pixels of a pointer position matches it


def ends_at_server_edge(line, marker_end, edge, border):
    """The window ends at its markers as the server has it: they end at (or past: an older, larger
    frame shown whole) the server's edge, or the backdrop begins right after them and the window's
    decoration (`border` px).  Captures from before the backdrop (6 fields), or of a cell whose
    compositor showed the backdrop above the window so that it was taken away (bare -2), cannot
    tell: True."""
    if len(line) < 7 or marker_end >= edge or line[6] == -2:
        return True
    return line[6] >= 0 and line[6] - marker_end <= border


def decoration(captures):
    """(row, column): how far past the markers the backdrop begins when they end at the server's
    edge (the window's own frame border or shadow; 0 for fake-wm): the most frequent gap over the
    captures (the smaller on a tie), so that a few frames caught while the WM redraws its frame do
    not decide it."""
    out = []
    for li, edge in ((6, 4), (7, 5)):
        gaps = collections.Counter(c[li][6] - c[li][3] for c in captures
                                   if len(c[li]) >= 7 and c[li][3] > 0 and c[li][3] == c[edge] and c[li][6] >= 0)
        out.append(min(gaps, key=lambda g: (-gaps[g], g)) if gaps else 0)
    return tuple(out)


def classify(cap, paints, border=(0, 0)):
    """(kind, shown (w, h), painted (w, h) or None, unpainted px) of one capture; None when the
    window is not on screen at all.  border: decoration() of the trace."""
    _, _, gx, gy, gw, gh, row, col = cap
    rs, rf, rie, rme, rext, rother = row[:6]
    cs, cf, cie, cme, cext, cother = col[:6]
    if rs == -1 and cs == -1:
        return None
    # where the window shows neither paint nor backdrop up to the server's edge (black or garbage),
    # that is the window too: shown at the server's size
    row_ends = rme <= 0 or ends_at_server_edge(row, rme, gw, border[0])
    col_ends = cme <= 0 or ends_at_server_edge(col, cme, gh, border[1])
    shown = (rext if row_ends else max(rext, gw), cext if col_ends else max(cext, gh))
    pw = rme if rme > 0 else (rie if rf >= 0 else 0)
    ph = cme if cme > 0 else (cie if cf >= 0 else 0)
    unpainted = max(0, shown[0] * shown[1] - pw * ph)
    if rs != 0 or cs != 0 or gx != 0 or gy != 0:
        return "bounced", shown, None, unpainted
    if (rf >= 0 and cf >= 0 and rf != cf) or rother >= 0 or cother >= 0:
        return "torn", shown, None, unpainted
    if (rf >= 0 and rf == cf and rme > 0 and cme > 0 and rext == rme and cext == cme and row_ends and col_ends
            and rf < len(paints) and (paints[rf][1], paints[rf][2]) == (rme, cme)):
        return "consistent", shown, (rme, cme), 0
    return "stale", shown, None, unpainted


def target_at(motions, t, start):
    """The size the pointer asked for at time t (the last motion at or before t)."""
    lo, hi = 0, len(motions)
    while lo < hi:
        mid = (lo + hi) // 2
        if motions[mid][0] <= t:
            lo = mid + 1
        else:
            hi = mid
    return (motions[lo - 1][1], motions[lo - 1][2]) if lo else start, lo


def motion_lag(motions, t, size, start):
    """How long ago the pointer asked for `size`, looking only at its latest visit to the size's
    neighbourhood (the run of motions before t that stayed within MATCH_PX of it): the motion of
    that visit that asked for exactly `size` (a WM applies pointer positions as they are), else
    the visit's latest (a WM with size increments, or one that places the edge a pixel off the
    pointer); None when the pointer never came near.  The path repeats itself, so an exact ask
    of an earlier pass is not this frame's cause: openbox's frames matched the ask of one
    period before (2.7 s) whenever this pass's pointer stepped over the exact size."""
    _, n = target_at(motions, t, start)
    near = None
    for i in range(n - 1, -1, -1):
        m = motions[i]
        if (m[1], m[2]) == tuple(size):
            return t - m[0]
        if abs(m[1] - size[0]) <= MATCH_PX and abs(m[2] - size[1]) <= MATCH_PX:
            if near is None:
                near = t - m[0]
        elif near is not None:
            return near  # the visit ended before it asked for exactly this size
    return near


def frames_of(trace):
    """The distinct frames of the drive: [(time, capture)]; none when it never began (a cell
    interrupted before its drive)."""
    if trace["drive_ms"] <= 0:
        return []
    t0 = trace["drive_from"]
    t1 = t0 + trace["drive_ms"] + SETTLE_MS
    out, last = [], None
    for cap in trace["captures"]:
        key = (cap[2], cap[3], cap[4], cap[5], tuple(cap[6]), tuple(cap[7]))
        if key == last:
            continue
        last = key
        if t0 <= cap[0] <= t1:
            out.append(cap)
    return out


def sizes_painted(paints):
    """How many paints were of a new size (ConfigureNotify painted, against those received)."""
    n, last = 0, None
    for p in paints:
        if last is not None and (p[1], p[2]) != last:
            n += 1
        last = (p[1], p[2])
    return n


def run_figures(trace):
    """figures() plus what every bench.json run has (the steady cells' latency fields are null)."""
    f = figures(trace)
    f.pop("timeline")  # bench.html draws it from the rows
    f.pop("lag_values")
    f.update({
        "even_to_pixel_ms": None, "even_to_drawn_ms": None, "pixel_to_drawn_ms": None,
        "fps": f["frames_per_s"], "interval_ms": None, "interval_sd_ms": None, "stutters": 0,
        "worst_1s_drop_share": None, "outcomes": {}, "skew_ms": None,
        "resize": {k: trace[k] for k in ("trigger", "hz", "form", "paint_ms", "slow")},
    })
    return f


def capture_of(trace):
    """How the run's frames were seen: off the X root by DAMAGE (every composited frame), from a
    Wayland compositor's screen stream, with its frame rate against the output's refresh and the
    gaps in which frames may be missing, or sampled by its own pictures (pictures/s: some frames,
    not all); and how the pointer and keys were given (XTEST, or the
    compositor's own seat).  Rows from before the stream existed are root-damage and XTEST."""
    via = trace.get("capture_via", "root-damage")
    out = {"via": via, "input_via": trace.get("input_via", "xtest")}
    if via == "stream":
        out.update({k: trace.get(k) for k in ("capture_fps", "refresh_hz", "capture_gaps", "capture_gap_ms",
                                                "capture_timing", "capture_frames")})
    elif via == "sampled":  # the compositor's own pictures, one after another: some frames, not all
        out.update({k: trace.get(k) for k in ("capture_fps", "capture_frames", "capture_failures")})
    return out


def figures(trace):
    """The per-run figures of a resize cell (bench.json runs[] of a resize-... scenario)."""
    paints = trace["paints_log"]
    motions = trace["motions"]
    start = (trace["start_w"], trace["start_h"])
    frames = frames_of(trace)
    border = decoration(trace["captures"])
    counts = {k: 0 for k in KINDS}
    kinds, lag_ms, lag_px, unpainted = [], [], [], []
    steps, last_shown = 0, None
    runs, run, longest, longest_ms, run_start = 0, 0, 0, 0.0, None
    timeline = []
    for cap in frames:
        c = classify(cap, paints, border)
        if c is None:
            continue
        kind, shown, painted, hole = c
        counts[kind] += 1
        kinds.append(kind)
        t = cap[0]
        target, _ = target_at(motions, t, start)
        timeline.append([round(t - trace["drive_from"], 3), shown[0], shown[1], target[0], target[1], kind])
        if kind in GLITCHES:
            unpainted.append(hole)
            if run == 0:
                runs += 1
                run_start = t
            run += 1
            longest = max(longest, run)
        else:
            if run:
                longest_ms = max(longest_ms, t - run_start)
            run = 0
        # lag: the window's edge (how far its pixels reach, whatever they show) against the pointer
        if shown != last_shown:
            if last_shown is not None:
                steps += 1
                if kind in ("consistent", "stale"):
                    lag = motion_lag(motions, t, shown, start)
                    if lag is not None:
                        lag_ms.append(lag)
            last_shown = shown
        if kind in ("consistent", "stale"):
            lag_px.append(math.hypot(target[0] - shown[0], target[1] - shown[1]))
    drive_s = trace["drive_ms"] / 1000.0
    n = sum(counts.values())
    glitch = sum(counts[k] for k in GLITCHES)
    px = sorted(lag_px)
    return {
        "frames": n,
        "frames_per_s": round(n / drive_s, 2) if drive_s else None,
        "steps": steps,
        "steps_per_s": round(steps / drive_s, 2) if drive_s else None,
        "kinds": counts,
        "glitch_frames": {"count": glitch, "pct": round(100.0 * glitch / n, 2) if n else None,
                          "by_kind": {k: counts[k] for k in GLITCHES}},
        "glitch_runs": runs,
        "glitch_runs_per_step": round(runs / trace["size_changes"], 4) if trace["size_changes"] else None,
        "longest_glitch_run": {"frames": longest, "ms": round(longest_ms, 3)},
        "unpainted_px": {"max": max(unpainted) if unpainted else 0,
                         "mean": round(sum(unpainted) / len(unpainted), 1) if unpainted else 0},
        "lag_ms": bs.summary(lag_ms),
        "lag_values": lag_ms,
        "lag_px": None if not px else {"n": len(px), "p50": round(bs.percentile(px, 50), 2),
                                       "p95": round(bs.percentile(px, 95), 2), "p99": round(bs.percentile(px, 99), 2)},
        "requests": {"sent": trace["requests"], "answered": trace["answered"], "timed_out": trace["superseded"]},
        "configure_notify": {"received": trace["size_changes"], "painted": sizes_painted(paints)},
        "grabbed": trace["grabbed"],
        "capture": capture_of(trace),
        "drawn_messages": trace["drawn"],
        "timeline": timeline,
        "thumbs": thumbs(trace, border),
    }


def thumbs(trace, border):
    """The pictures framesync-bench kept of the worst-looking frames (the row's thumbs: [capture
    index, PNG path relative to the rows' folder]) that are glitched, worst first:
    [{file, t (ms since the drive began), kind, shown [w, h], unpainted}]."""
    out = []
    caps = trace["captures"]
    for index, path in trace.get("thumbs", []):
        c = classify(caps[index], trace["paints_log"], border) if 0 <= index < len(caps) else None
        if c and c[0] in GLITCHES:
            out.append({"file": path, "t": round(caps[index][0] - trace["drive_from"], 3), "kind": c[0],
                        "shown": list(c[1]), "unpainted": c[3]})
    return out
