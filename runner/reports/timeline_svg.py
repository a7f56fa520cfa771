"""The SVG timeline of a case (index.html draws one for each failing case, from its log's
`timeline:` section): one lane per source (clients, screen, wm, harness), a mark per record
(hover: the record), the counters' values as step lines, and a marker on the `<-- here` record.
The time axis is linear within bursts; long gaps are compressed (log scale) and labelled with
their length."""
import html
import math

FIXED_LANES = ["screen", "wm", "harness"]
COUNTER_KINDS = ("counter-set", "counter-change")
PALETTE = ["#2ca02c", "#d62728", "#1f77b4", "#9467bd", "#8c564b", "#e377c2"]

esc = html.escape


def fmt_ms(ms):
    ms = float(ms or 0)
    if ms >= 10000:
        return "%.1f s" % (ms / 1000)
    if ms >= 1000:
        return "%.2f s" % (ms / 1000)
    return "%.1f ms" % ms


def kind_colour(kind):
    fixed = {"sync-request": "#7b3fbf", "configure-notify": "#1f77b4", "counter-set": "#2ca02c",
             "counter-change": "#17a589", "shows": "#d68910", "step": "#888888", "done": "#aab7b8",
             "send-event": "#c0392b", "configure-window": "#2874a6", "set-counter": "#1e8449",
             "frame-drawn": "#af601a", "sync-drawn": "#af601a", "map-notify": "#5d6d7e"}
    if kind in fixed:
        return fixed[kind]
    h = 0
    for ch in kind:
        h = (h * 31 + ord(ch)) % 360
    return "hsl(%d,55%%,42%%)" % h


def parse_number(text):
    try:
        return int(text, 0)
    except (TypeError, ValueError):
        try:
            return float(text)
        except (TypeError, ValueError):
            return None


def counter_series(records):
    """{"SOURCE counter INDEX": [(record, value)]} of the counter records."""
    series = {}
    for r in records:
        if r.kind in COUNTER_KINDS and "value" in r.fields:
            v = parse_number(r.fields["value"])
            if v is not None:
                key = "%s counter %s" % (r.source, r.fields.get("index") or r.fields.get("counter") or "?")
                series.setdefault(key, []).append((r, v))
    return series


class Timeline:
    """The geometry of one timeline, and its parts as SVG elements."""
    left, right, top, lane_h = 74, 24, 22, 26

    def __init__(self, records, width):
        self.records, self.width = records, width
        clients = []
        for r in records:
            if r.source not in FIXED_LANES and r.source not in clients:
                clients.append(r.source)
        self.lanes = sorted(clients) + [s for s in FIXED_LANES if any(r.source == s for r in records)]
        self.lane_y = {s: self.top + i * self.lane_h + self.lane_h / 2 for i, s in enumerate(self.lanes)}
        self.times = sorted({r.t_ms for r in records})
        self.plot_w = width - self.left - self.right
        self.xpos = self.time_scale()
        self.series = counter_series(records)
        lanes_bottom = self.top + len(self.lanes) * self.lane_h
        distinct = {v for pts in self.series.values() for _, v in pts}
        self.counter_h = (110 if len(distinct) > 2 else 60) if self.series else 0
        self.counter_top = lanes_bottom + 18
        self.axis_y = (self.counter_top + self.counter_h + 10) if self.series else lanes_bottom + 8
        self.height = self.axis_y + 34

    def time_scale(self):
        """{time: x}: each gap between two records takes log(1 + gap / 20 us) of the width."""
        acc = [0.0]
        for a, b in zip(self.times, self.times[1:]):
            acc.append(acc[-1] + math.log1p(max(0.0, b - a) / 0.02))
        span = acc[-1] or 1.0
        return {t: self.left + (a / span) * self.plot_w if acc[-1] else self.left + self.plot_w / 2
                for t, a in zip(self.times, acc)}

    def svg(self):
        out = ['<svg class="timeline" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
               'viewBox="0 0 %d %d" role="img" aria-label="timeline of the case">'
               % (self.width, self.height, self.width, self.height)]
        out += self.lanes_svg() + self.gaps_svg() + self.here_svg() + self.marks_svg()
        out += self.counters_svg() + self.axis_svg()
        out.append("</svg>")
        return "\n".join(out)

    def lanes_svg(self):
        out = []
        for i, s in enumerate(self.lanes):
            y = self.top + i * self.lane_h
            out.append('<rect x="%d" y="%d" width="%d" height="%d" class="lane%d"/>'
                       % (self.left, y, self.plot_w, self.lane_h, i % 2))
            out.append('<text x="%d" y="%.1f" class="lanelabel">%s</text>'
                       % (self.left - 8, y + self.lane_h / 2 + 4, esc(s)))
        return out

    def gaps_svg(self):
        """The compressed gaps, with their length."""
        out = []
        for a, b in zip(self.times, self.times[1:]):
            if b - a > 20:
                xa, xb = self.xpos[a] + 3, self.xpos[b] - 3
                if xb - xa > 6:
                    out.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" class="gap"><title>%s</title></rect>'
                               % (xa, self.top, xb - xa, self.axis_y - self.top,
                                  esc("%.1f ms without records" % (b - a))))
                    out.append('<text x="%.1f" y="%d" class="gaplabel">+%s</text>'
                               % ((xa + xb) / 2, self.top - 6, esc(fmt_ms(b - a))))
        return out

    def here_svg(self):
        """The marker on the <-- here record."""
        return ['<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" class="here"/>'
                % (self.xpos[r.t_ms], self.top - 2, self.xpos[r.t_ms], self.axis_y) for r in self.records if r.here]

    def marks_svg(self):
        """A mark per record, with its kind written where there is room."""
        out, free = [], {s: 0.0 for s in self.lanes}
        for r in sorted(self.records, key=lambda r: (self.xpos[r.t_ms], r.seq)):
            x, y = self.xpos[r.t_ms], self.lane_y[r.source]
            cls = "mark here-mark" if r.here else "mark"
            out.append('<circle cx="%.1f" cy="%.1f" r="%s" fill="%s" class="%s"><title>%s</title></circle>'
                       % (x, y, "6" if r.here else "3.5", kind_colour(r.kind), cls, esc(r.text)))
            if r.here or x >= free[r.source]:
                label = ("here: " if r.here else "") + r.kind
                w = 5.6 * len(label)
                if x + 5 + w <= self.left + self.plot_w:
                    out.append('<text x="%.1f" y="%.1f" class="kind%s">%s</text>'
                               % (x + 5, y - 5, " herelabel" if r.here else "", esc(label)))
                else:  # at the right edge: written to the left of the mark
                    out.append('<text x="%.1f" y="%.1f" class="kind%s" text-anchor="end">%s</text>'
                               % (x - 5, y - 5, " herelabel" if r.here else "", esc(label)))
                free[r.source] = x + w + 8
        return out

    def counters_svg(self):
        """The counters' values, one step line per counter, below the lanes."""
        if not self.series:
            return []
        values = [v for pts in self.series.values() for _, v in pts]
        self.vmin, self.vmax = min(values), max(values)
        top, h = self.counter_top, self.counter_h
        out = ['<rect x="%d" y="%d" width="%d" height="%d" class="counterbox"/>' % (self.left, top, self.plot_w, h)]
        if self.vmax != self.vmin:
            out.append('<text x="%d" y="%d" class="lanelabel">%s</text>' % (self.left - 8, top + 10, esc(str(self.vmax))))
            out.append('<text x="%d" y="%d" class="lanelabel">%s</text>' % (self.left - 8, top + h, esc(str(self.vmin))))
        out.append('<text x="%d" y="%.1f" class="lanelabel">counters</text>' % (self.left - 8, top + h / 2 + 4))
        for n, (key, pts) in enumerate(sorted(self.series.items())):
            out += self.counter_line(n, key, pts)
        return out

    def value_y(self, v):
        if self.vmax == self.vmin:
            return self.counter_top + self.counter_h / 2
        return self.counter_top + 6 + (1.0 - float(v - self.vmin) / float(self.vmax - self.vmin)) * (self.counter_h - 12)

    def counter_line(self, n, key, pts):
        colour = PALETTE[n % len(PALETTE)]
        pts = sorted(pts, key=lambda p: (p[0].t_ms, p[0].seq))
        d = "M%.1f,%.1f" % (self.xpos[pts[0][0].t_ms], self.value_y(pts[0][1]))
        for r, v in pts[1:]:
            d += " H%.1f V%.1f" % (self.xpos[r.t_ms], self.value_y(v))
        d += " H%.1f" % (self.left + self.plot_w)
        out = ['<path d="%s" class="step" stroke="%s"><title>%s</title></path>' % (d, colour, esc(key))]
        last_label = -1e9
        for r, v in pts:
            x, y = self.xpos[r.t_ms], self.value_y(v)
            out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"><title>%s</title></circle>'
                       % (x, y, colour, esc(r.text)))
            if x - last_label > 44:
                out.append('<text x="%.1f" y="%.1f" class="value" fill="%s">%s</text>'
                           % (x + 4, y - 4, colour, esc(str(v))))
                last_label = x
        out.append('<text x="%d" y="%d" class="legend" fill="%s">%s</text>'
                   % (self.left + 6 + 150 * n, self.counter_top + 13, colour, esc(key)))
        return out

    def axis_svg(self):
        y = self.axis_y
        out = ['<line x1="%d" y1="%d" x2="%d" y2="%d" class="axis"/>' % (self.left, y, self.left + self.plot_w, y)]
        last = -1e9
        for t in self.times:
            x = self.xpos[t]
            if x - last >= 62:
                out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" class="axis"/>' % (x, y, x, y + 4))
                out.append('<text x="%.1f" y="%d" class="tick">%s</text>'
                           % (x, y + 15, esc(("%.3f" if t < 10 else "%.1f" if t < 1000 else "%.0f") % t)))
                last = x
        out.append('<text x="%d" y="%d" class="axistitle">ms since the case began (bursts linear, long gaps '
                   'compressed); hover a mark for its record</text>' % (self.left, y + 30))
        return out


def svg_timeline(records, width=1160):
    """The timeline of a case's records (reports.common.parse_timeline), or "" without any."""
    if not records:
        return ""
    return Timeline(records, width).svg()
