"""tournament_html: the match as one self-contained HTML page.

No script, no external style sheet, font or image: the chart is inline SVG,
so the page opens anywhere, from a cluster's scratch disk too.  The page is
also well-formed XML (every element closed, every attribute quoted), which
lets the tests parse it strictly.  While the match runs the page asks the
browser to reload it every 10 seconds.
"""

import html
import math
import time

from . import tournament_stats as stats

# Program colours in the chart (readable on white, distinct in print).
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
           "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22")
WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 720, 200, 56, 16, 14, 26
MAX_POINTS = 400

STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; }
th { background: #f0f0f0; }
td.name, th.name { text-align: left; }
.note { color: #555; }
svg { display: block; margin: 0.3em 0 1em; }
svg text { font-size: 11px; fill: #333; }
pre { background: #f8f8f8; padding: 0.5em; overflow-x: auto; }
"""


def esc(text):
    return html.escape(str(text), quote=True)


def fmt(x):
    return ("%.2f" % x).rstrip("0").rstrip(".")


def history_of(meta, results, sprt):
    """The standings after each game in game-number order (for a merged
    file, where the order games finished in is not known)."""
    s = stats.Summary(len(meta["players"]), meta.get("seats", 2),
                      meta.get("repeat", True))
    out = []
    for n, r in enumerate(sorted(results, key=lambda r: r["game"]), 1):
        s.add(r)
        point = {"games": n,
                 "score": [s.points[i] / s.games[i] if s.games[i] else None
                           for i in range(s.n)],
                 "ratings": s.ratings(meta.get("anchor", 0))}
        if sprt:
            point["llr"] = s.sprt_llr(sprt)[0]
        out.append(point)
    return out


def thin(history):
    if len(history) <= MAX_POINTS:
        return history
    step = len(history) / float(MAX_POINTS)
    keep = [history[int(i * step)] for i in range(MAX_POINTS)]
    if keep[-1] is not history[-1]:
        keep.append(history[-1])
    return keep


class Panel:
    """One chart: x from 0 to xmax games, y from ylo to yhi."""

    def __init__(self, title, xmax, ylo, yhi, yticks):
        self.xmax = max(xmax, 1)
        self.ylo, self.yhi = ylo, yhi
        self.parts = []
        w, h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
        self.parts.append('<rect x="%d" y="%d" width="%d" height="%d" '
                          'fill="#fff" stroke="#999" />' % (LEFT, TOP, w, h))
        for v in yticks:
            y = self.y(v)
            self.parts.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" '
                              'stroke="#e4e4e4" />' % (LEFT, y, LEFT + w, y))
            self.parts.append('<text x="%d" y="%.1f" text-anchor="end">%s'
                              '</text>' % (LEFT - 4, y + 4, esc(fmt(v))))
        for i in range(5):
            v = self.xmax * i / 4.0
            self.parts.append('<text x="%.1f" y="%d" text-anchor="middle">'
                              '%d</text>' % (self.x(v), HEIGHT - 8, round(v)))
        self.parts.append('<text x="%d" y="%d">%s</text>' %
                          (LEFT + 4, TOP + 12, esc(title)))

    def x(self, v):
        return LEFT + (WIDTH - LEFT - RIGHT) * v / float(self.xmax)

    def y(self, v):
        v = min(max(v, self.ylo), self.yhi)
        h = HEIGHT - TOP - BOTTOM
        return TOP + h * (self.yhi - v) / float(self.yhi - self.ylo)

    def line(self, pts, colour, dash=False):
        if not pts:
            return
        self.parts.append('<polyline fill="none" stroke="%s" stroke-width='
                          '"1.5"%s points="%s" />' % (
                              colour, ' stroke-dasharray="4 3"' if dash
                              else "",
                              " ".join("%.1f,%.1f" % (self.x(a), self.y(b))
                                       for a, b in pts)))

    def band(self, lows, highs, colour):
        if not lows:
            return
        pts = [(self.x(a), self.y(b)) for a, b in lows]
        pts += [(self.x(a), self.y(b)) for a, b in reversed(highs)]
        self.parts.append('<polygon fill="%s" fill-opacity="0.15" stroke='
                          '"none" points="%s" />' % (
                              colour, " ".join("%.1f,%.1f" % p for p in pts)))

    def svg(self, label):
        return ('<svg width="%d" '
                'height="%d" role="img" aria-label="%s">%s</svg>' % (
                    WIDTH, HEIGHT, esc(label), "".join(self.parts)))


def ticks(lo, hi, n=4):
    raw = (hi - lo) / float(n)
    mag = 10 ** math.floor(math.log10(raw))
    step = min((m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw))
    first = math.ceil(lo / step) * step
    out = []
    v = first
    while v <= hi + 1e-9:
        out.append(round(v, 10))
        v += step
    return out


def charts(meta, history, sprt):
    names = [p["name"] for p in meta["players"]]
    anchor = meta.get("anchor", 0)
    pts = thin(history)
    if not pts:
        return ['<p class="note">No game has finished yet.</p>']
    xmax = pts[-1]["games"]
    out = []
    score = Panel("score (points per game)", xmax, 0.0, 1.0,
                  [0, 0.25, 0.5, 0.75, 1])
    for i in range(len(names)):
        score.line([(p["games"], p["score"][i]) for p in pts
                    if p["score"][i] is not None], COLOURS[i % len(COLOURS)])
    out.append(score.svg("score of each program as the games went"))
    finite = [abs(v) for p in pts for r in p["ratings"] if r
              for v in r if not math.isinf(v)]
    span = min(max(finite + [100.0]) * 1.1, 1000.0)
    rating = Panel("Elo against %s, with 95%% intervals" % names[anchor],
                   xmax, -span, span, ticks(-span, span))
    for i in range(len(names)):
        if i == anchor:
            continue
        colour = COLOURS[i % len(COLOURS)]
        rs = [(p["games"], p["ratings"][i]) for p in pts if p["ratings"][i]]
        rating.band([(g, r[1]) for g, r in rs], [(g, r[2]) for g, r in rs],
                    colour)
        rating.line([(g, r[0]) for g, r in rs], colour)
    rating.line([(0, 0), (xmax, 0)], COLOURS[anchor % len(COLOURS)], True)
    out.append(rating.svg("ratings with 95% intervals as the games went"))
    if sprt and "llr" in pts[-1]:
        lo, hi = stats.sprt_bounds(sprt[2], sprt[3])
        top = max([hi * 1.2] + [abs(p["llr"]) for p in pts
                                if not math.isinf(p["llr"])])
        llr = Panel("SPRT log-likelihood ratio and its bounds", xmax, -top,
                    top, ticks(-top, top))
        llr.line([(0, lo), (xmax, lo)], "#999", True)
        llr.line([(0, hi), (xmax, hi)], "#999", True)
        llr.line([(p["games"], p["llr"]) for p in pts], "#000")
        out.append(llr.svg("SPRT log-likelihood ratio as the games went"))
    legend = " ".join('<span style="color: %s">&#9632; %s</span>' % (
        COLOURS[i % len(COLOURS)], esc("%d. %s" % (i + 1, n)))
        for i, n in enumerate(names))
    out.insert(0, "<p>%s</p>" % legend)
    return out


def programs_table(meta, s):
    names = [p["name"] for p in meta["players"]]
    rs = s.ratings(meta.get("anchor", 0))
    rows = ['<table><tr><th>#</th><th class="name">program</th><th>games'
            '</th><th>wins</th><th>losses</th><th>draws</th><th>points</th>'
            '<th>score</th><th>Elo</th><th>95% interval</th><th>s per move'
            '</th><th>forfeits</th></tr>']
    for i, n in enumerate(names):
        g = s.games[i]
        r = rs[i]
        if r is None:
            elo, interval = "none", ""
        elif i == meta.get("anchor", 0):
            elo, interval = "0 (anchor)", ""
        elif math.isinf(r[0]):
            elo, interval = stats.elo_text(r[0]), ""
        else:
            elo = stats.elo_text(r[0])
            interval = "%s to %s" % (stats.elo_text(r[1]),
                                     stats.elo_text(r[2]))
        think = ("%.3f" % (s.think_ms[i] / s.timed[i] / 1000.0)
                 if s.timed[i] else "")
        forf = ", ".join("%s %d" % kv for kv in sorted(s.forfeits[i].items()))
        rows.append('<tr><td>%d</td><td class="name" style="color: %s">%s'
                    '</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td>'
                    '<td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>'
                    '<td>%s</td></tr>' % (
                        i + 1, COLOURS[i % len(COLOURS)], esc(n), g,
                        s.wins[i], s.losses[i], s.draws[i],
                        stats.num(s.points[i]),
                        "%.1f%%" % (100.0 * s.points[i] / g) if g else "",
                        esc(elo), esc(interval), think, esc(forf)))
    rows.append("</table>")
    return rows


def crosstable(meta, s):
    names = [p["name"] for p in meta["players"]]
    rows = ['<table><tr><th class="name">points of the row against the '
            'column</th>%s</tr>' % "".join("<th>%d</th>" % (j + 1)
                                          for j in range(s.n))]
    for i in range(s.n):
        cells = []
        for j in range(s.n):
            if i == j:
                cells.append("<td>&#8212;</td>")
            elif s.vs_games[i][j]:
                cells.append("<td>%s&#8211;%s</td>" % (
                    stats.num(s.vs_points[i][j]),
                    stats.num(s.vs_points[j][i])))
            else:
                cells.append("<td></td>")
        rows.append('<tr><td class="name">%d. %s</td>%s</tr>' % (
            i + 1, esc(names[i]), "".join(cells)))
    rows.append("</table>")
    return rows


def page(meta, results, aborted, history, sprt, sprt_stop, state,
         summary=None):
    """The whole page.  history: the standings after each game in the
    order the games finished, or None to rebuild it in game order;
    summary: the results' stats.Summary when the caller keeps one."""
    if history is None:
        history = history_of(meta, results, sprt)
    s = summary or stats.summarize(meta, results)
    names = [p["name"] for p in meta["players"]]
    lo, hi = meta["range"]
    title = "%s %s" % (meta["game"], " ".join(meta["options"]))
    mode = meta.get("mode", "match")
    head = ['<!DOCTYPE html>', '<html lang="en">', '<head>',
            '<meta charset="utf-8" />']
    if state == "running":
        head.append('<meta http-equiv="refresh" content="10" />')
    head += ["<title>%s</title>" % esc("%s: %s" % (title.strip(), mode)),
             "<style>%s</style>" % STYLE, "</head>", "<body>"]
    body = ["<h1>%s</h1>" % esc(title.strip()),
            "<p>%s of %d programs, match seed %d, games %d-%d: %d played%s; "
            "%s (written %s).</p>" % (
                esc(mode), len(names), meta["seed"], lo, hi, len(results),
                ", %d aborted" % len(aborted) if aborted else "",
                esc({"running": "running (this page reloads every 10 s)",
                     "finished": "finished", "merged": "merged from shards",
                     "interrupted": "interrupted"}.get(state, state)),
                esc(time.strftime("%Y-%m-%d %H:%M:%S")))]
    body.append("<h2>Programs</h2>")
    body += programs_table(meta, s)
    if results:
        body.append("<h2>Crosstable</h2>")
        body += crosstable(meta, s)
    notes = []
    if results:
        notes += stats.ratings_method(meta, names)
        notes += stats.penta_lines(meta, s, names)
        if sprt and len(names) == 2:
            llr, model = s.sprt_llr(sprt)
            notes.append(stats.sprt_line(sprt, llr, model, sprt_stop))
    notes += stats.clock_lines(meta, s, names)
    if s.adjudicated:
        notes.append("adjudicated draws (--maxplies %d): %d" %
                     (meta.get("maxplies") or 0, s.adjudicated))
    if notes:
        body.append("<ul>%s</ul>" % "".join("<li>%s</li>" % esc(n.strip())
                                            for n in notes))
    body.append("<h2>As the games went</h2>")
    body += charts(meta, history, sprt)
    forfeits = [r for r in sorted(results, key=lambda r: r["game"])
                if r.get("forfeit")]
    if forfeits or aborted:
        body.append("<h2>Forfeits and aborted games</h2><ul>")
        for r in forfeits[:50]:
            f = r["forfeit"]
            body.append("<li>game %d: %s (player %d) %s</li>" % (
                r["game"], esc(names[r["seats"][f["seat"] - 1]]), f["seat"],
                esc(f["reason"])))
        for a in sorted(aborted, key=lambda a: a["game"])[:50]:
            body.append("<li>game %d aborted: %s</li>" % (a["game"],
                                                           esc(a["reason"])))
        body.append("</ul>")
    body.append("<h2>Programs' commands</h2><ul>")
    for i, p in enumerate(meta["players"]):
        body.append("<li>%d. %s: <code>%s</code>%s</li>" % (
            i + 1, esc(p["name"]), esc(p["command"]),
            esc(" with " + "; ".join(p["setup"])) if p["setup"] else ""))
    body.append("</ul>")
    return "\n".join(head + body + ["</body>", "</html>"]) + "\n"
