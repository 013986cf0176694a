"""tournament_stats: what a set of game results says about the programs.

Per-program totals, the crosstable, maximum-likelihood ratings with their
intervals, pentanomial counts of paired games, the generalized SPRT on
those (or on single games), and the text report.  Everything works on the
per-game result dicts the match writes (and merge and resume read back from
JSON), so a merged or resumed report is computed exactly like a live one.

Elo here is logistic Elo: a difference D means an expected score of
1 / (1 + 10^(-D/400)) per game, a draw counting half.
"""

import math

Z95 = 1.959963984540054
# Natural log-odds per Elo point.
BETA = math.log(10.0) / 400.0
# Program 1's points in a pair of games: 0, 0.5, 1, 1.5 or 2, as a share.
PENTA_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
TRI_SCORES = (0.0, 0.5, 1.0)


def expected_score(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(p):
    """Logistic Elo difference for a score fraction p (0 < p < 1)."""
    if p <= 0.0:
        return -math.inf
    if p >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / p - 1.0)


def score_moments(w, l, d):
    """Mean score per game and its per-game variance, from W/L/D."""
    n = w + l + d
    if n == 0:
        return 0.5, 0.0
    mean = (w + 0.5 * d) / n
    var = (w * (1.0 - mean) ** 2 + d * (0.5 - mean) ** 2 +
           l * (0.0 - mean) ** 2) / n
    return mean, var


def elo_interval(w, l, d):
    """(elo, low, high) at 95% for the side with w wins, l losses, d draws.
    The interval comes from the normal approximation of the mean score,
    mapped through the logistic curve (as cutechess-cli and most rating
    tools do).  Infinite ends are returned as +-inf."""
    n = w + l + d
    mean, var = score_moments(w, l, d)
    if n == 0:
        return 0.0, -math.inf, math.inf
    err = math.sqrt(var / n)
    return (elo_from_score(mean), elo_from_score(mean - Z95 * err),
            elo_from_score(mean + Z95 * err))


def penta_elo(penta):
    """(elo, low, high, pairs) from pentanomial counts: the mean score per
    pair and its variance per pair (a pair's two games are not
    independent, which is the point of counting pairs)."""
    n = sum(penta)
    if n == 0:
        return 0.0, -math.inf, math.inf, 0
    mean = sum(c * s for c, s in zip(penta, PENTA_SCORES)) / n
    var = sum(c * (s - mean) ** 2 for c, s in zip(penta, PENTA_SCORES)) / n
    err = math.sqrt(var / n)
    return (elo_from_score(mean), elo_from_score(mean - Z95 * err),
            elo_from_score(mean + Z95 * err), n)


# ---- the generalized SPRT ----

def sprt_bounds(alpha, beta):
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _mle_given_mean(probs, scores, s):
    """The distribution over the outcomes `scores` with mean s that is
    likeliest for the observed frequencies probs (all above 0).  By
    Lagrange it is p_i = probs_i / (1 + theta (scores_i - s)), where theta
    makes the p_i sum to 1; g(theta) = sum probs_i (scores_i - s) /
    (1 + theta (scores_i - s)) falls from +inf to -inf across the theta
    that keep every p_i positive, so bisection finds its root."""
    lo = -1.0 / (max(scores) - s)
    hi = -1.0 / (min(scores) - s)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        g = sum(p * (a - s) / (1.0 + mid * (a - s))
                for p, a in zip(probs, scores))
        if g > 0:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-15:
            break
    theta = 0.5 * (lo + hi)
    return [p / (1.0 + theta * (a - s)) for p, a in zip(probs, scores)]


def gsprt_llr(counts, scores, elo0, elo1):
    """Log-likelihood ratio of Elo difference elo1 against elo0, each
    hypothesis given the outcome distribution that fits the counts best
    (the generalized SPRT of fastchess and Fishtest, logistic Elo).  As
    there, an outcome never seen counts as 0.001 of one, so the ratio stays
    finite and the test sound after a handful of games."""
    if sum(counts) == 0:
        return 0.0
    reg = [c if c > 0 else 1e-3 for c in counts]
    total = sum(reg)
    probs = [c / total for c in reg]
    p0 = _mle_given_mean(probs, scores, expected_score(elo0))
    p1 = _mle_given_mean(probs, scores, expected_score(elo1))
    return total * sum(p * (math.log(a) - math.log(b))
                       for p, a, b in zip(probs, p1, p0))


def sprt_llr(w, l, d, elo0, elo1):
    """The GSPRT on single games (trinomial: loss, draw, win)."""
    return gsprt_llr([l, d, w], TRI_SCORES, elo0, elo1)


def sprt_llr_penta(penta, elo0, elo1):
    """The GSPRT on pairs of games (pentanomial)."""
    return gsprt_llr(penta, PENTA_SCORES, elo0, elo1)


def sprt_verdict(llr, sprt):
    lo, hi = sprt_bounds(sprt[2], sprt[3])
    if llr >= hi:
        return "H1"
    if llr <= lo:
        return "H0"
    return None


def parse_sprt(text):
    """'elo0,elo1,alpha,beta' -> tuple, or ValueError with a reason."""
    parts = text.split(",")
    if len(parts) != 4:
        raise ValueError("--sprt wants elo0,elo1,alpha,beta (for example "
                         "0,10,0.05,0.05)")
    try:
        elo0, elo1, alpha, beta = (float(p) for p in parts)
    except ValueError:
        raise ValueError("--sprt: %r is not four numbers" % text)
    if not elo0 < elo1:
        raise ValueError("--sprt: elo0 must be below elo1")
    if not (0 < alpha < 0.5 and 0 < beta < 0.5):
        raise ValueError("--sprt: alpha and beta must be between 0 and 0.5")
    return elo0, elo1, alpha, beta


# ---- ratings ----

def _solve(a, b):
    """x with a x = b (a small, symmetric positive definite matrix)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def _reach(edges, start):
    seen = {start}
    todo = [start]
    while todo:
        i = todo.pop()
        for j in edges[i]:
            if j not in seen:
                seen.add(j)
                todo.append(j)
    return seen


def _sigmoid(x):
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _log_sigmoid(x):
    if x >= 0:
        return -math.log1p(math.exp(-x))
    return x - math.log1p(math.exp(x))


def ratings(games, points, anchor=0):
    """Maximum-likelihood ratings (Bradley-Terry on the logistic Elo scale,
    a draw counting as half a win and half a loss, as Ordo and BayesElo's
    default do) from games[i][j], the games between programs i and j, and
    points[i][j], i's points in them.  Returns one (rating, low, high) per
    program, the anchor at 0 with no interval, the interval the 95% one
    from the curvature of the likelihood.  When the results cannot pin a
    program down its rating is +inf (it scored against the anchor's side
    but that side never scored against it), -inf (the other way round), or
    None (no games linking it to the anchor)."""
    n = len(games)
    # i -> j when i took points from j; ratings are finite exactly within
    # the anchor's strongly connected part of this graph.
    took = [[j for j in range(n) if games[i][j] and points[i][j] > 0]
            for i in range(n)]
    given = [[j for j in range(n) if games[j][i] and points[j][i] > 0]
             for i in range(n)]
    down = _reach(took, anchor)
    up = _reach(given, anchor)
    core = sorted(down & up)
    out = [None] * n
    for i in range(n):
        if i in up and i not in down:
            out[i] = (math.inf, math.inf, math.inf)
        elif i in down and i not in up:
            out[i] = (-math.inf, -math.inf, -math.inf)
    free = [i for i in core if i != anchor]
    r = {i: 0.0 for i in core}

    def loglik():
        total = 0.0
        for a in core:
            for b in core:
                if a < b and games[a][b]:
                    x = BETA * (r[a] - r[b])
                    total += (points[a][b] * _log_sigmoid(x) +
                              points[b][a] * _log_sigmoid(-x))
        return total

    def grad_info():
        g = [0.0] * len(free)
        info = [[0.0] * len(free) for _ in free]
        pos = {i: k for k, i in enumerate(free)}
        for a in core:
            for b in core:
                if a == b or not games[a][b]:
                    continue
                e = _sigmoid(BETA * (r[a] - r[b]))
                if a in pos:
                    ka = pos[a]
                    g[ka] += BETA * (points[a][b] - games[a][b] * e)
                    w = BETA * BETA * games[a][b] * e * (1.0 - e)
                    info[ka][ka] += w
                    if b in pos:
                        info[ka][pos[b]] -= w
        return g, info

    # Newton's method on a concave likelihood, halving a step that would
    # lower it.
    cur = loglik()
    for _ in range(100):
        if not free:
            break
        g, info = grad_info()
        step = _solve(info, g)
        t = 1.0
        old = dict(r)
        while True:
            for k, i in enumerate(free):
                r[i] = old[i] + t * step[k]
            new = loglik()
            if new >= cur - 1e-12 or t < 1e-9:
                break
            t *= 0.5
        done = max(abs(t * s) for s in step) < 1e-9
        cur = new
        if done:
            break
    out[anchor] = (0.0, 0.0, 0.0)
    if free:
        _, info = grad_info()
        for k, i in enumerate(free):
            unit = [0.0] * len(free)
            unit[k] = 1.0
            var = _solve(info, unit)[k]
            half = Z95 * math.sqrt(max(var, 0.0))
            out[i] = (r[i], r[i] - half, r[i] + half)
    return out


# ---- per-game results into totals ----

def pair_order(r, seat_a, seat_b):
    """+1, 0 or -1: how the program in seat_a fared against the one in
    seat_b in result r.  Points decide; in games of three or four, seats
    with no point are ranked by the referee's score when the game ended by
    its rules, so each game's ranking splits into one result per pair of
    seats (the pairwise decomposition)."""
    pa, pb = r["points"][seat_a], r["points"][seat_b]
    if pa != pb:
        return 1 if pa > pb else -1
    sc = r.get("score")
    if (pa == 0 and len(r["seats"]) > 2 and sc and not r.get("forfeit")
            and not r.get("adjudicated")):
        if sc[seat_a] != sc[seat_b]:
            return 1 if sc[seat_a] > sc[seat_b] else -1
    return 0


class Summary:
    """Totals over a set of game results of a match of nprog programs,
    k seats a game; repeat: games 2i-1 and 2i form a pair (2 seats)."""

    def __init__(self, nprog, k=2, repeat=True):
        self.n = nprog
        self.paired = repeat and k == 2
        self.games = [0] * nprog
        self.wins = [0] * nprog
        self.losses = [0] * nprog
        self.draws = [0] * nprog
        self.points = [0.0] * nprog
        self.score_sum = [0.0] * nprog
        self.first = [0] * nprog
        self.forfeits = [dict() for _ in range(nprog)]
        self.adjudicated = 0
        # pairwise: games and points of i against j
        self.vs_games = [[0] * nprog for _ in range(nprog)]
        self.vs_points = [[0.0] * nprog for _ in range(nprog)]
        # head to head of programs 0 and 1: wins, losses, draws of 0
        self.h2h = [0, 0, 0]
        # pentanomial counts per pair of programs (i < j), from i's side
        self.penta = {}
        self.unpaired = 0
        self.by_game = {}
        # thinking: moves timed, their total and longest time (ms)
        self.timed = [0] * nprog
        self.think_ms = [0] * nprog
        self.think_max = [0] * nprog
        self.fallback = [0] * nprog

    def add(self, r):
        seats = r["seats"]
        k = len(seats)
        self.by_game[r["game"]] = r
        for s, prog in enumerate(seats):
            self.games[prog] += 1
            out = r["outcome"][s]
            if out == "win":
                self.wins[prog] += 1
            elif out == "loss":
                self.losses[prog] += 1
            else:
                self.draws[prog] += 1
            self.points[prog] += r["points"][s]
            sc = r.get("score")
            if sc and s < len(sc):
                self.score_sum[prog] += sc[s]
            if (r.get("clock") or [None] * k)[s] == "fallback":
                self.fallback[prog] += 1
        if r.get("first"):
            self.first[seats[r["first"] - 1]] += 1
        if r.get("adjudicated"):
            self.adjudicated += 1
        f = r.get("forfeit")
        if f:
            prog = seats[f["seat"] - 1]
            self.forfeits[prog][f["kind"]] = \
                self.forfeits[prog].get(f["kind"], 0) + 1
        # Partners (game_info's teams) share one result: they played with
        # each other, not against, so their pair is not a draw.
        team = {p - 1: tuple(t) for t in r.get("teams", []) for p in t}
        for a in range(k):
            for b in range(a + 1, k):
                if a in team and team.get(a) == team.get(b):
                    continue
                pa, pb = seats[a], seats[b]
                o = pair_order(r, a, b)
                self.vs_games[pa][pb] += 1
                self.vs_games[pb][pa] += 1
                self.vs_points[pa][pb] += (o + 1) / 2.0
                self.vs_points[pb][pa] += (1 - o) / 2.0
        if self.n == 2 and k == 2:
            out = r["outcome"][seats.index(0)]
            self.h2h[{"win": 0, "loss": 1}.get(out, 2)] += 1
        for (seat, ms) in r.get("times", []):
            prog = seats[seat - 1]
            self.timed[prog] += 1
            self.think_ms[prog] += ms
            self.think_max[prog] = max(self.think_max[prog], ms)
        if self.paired:
            g = r["game"]
            mate = self.by_game.get(g + 1 if g % 2 else g - 1)
            if mate is None:
                self.unpaired += 1
            else:
                self.unpaired -= 1
                a = min(seats)
                pts = sum(x["points"][x["seats"].index(a)] for x in (r, mate))
                key = (a, max(seats))
                counts = self.penta.setdefault(key, [0] * 5)
                counts[int(round(2 * pts))] += 1

    def sprt_llr(self, sprt):
        """(llr, model) for programs 0 and 1: pentanomial on game pairs
        when the games are paired, on single games otherwise."""
        if self.paired:
            return (sprt_llr_penta(self.penta.get((0, 1), [0] * 5), sprt[0],
                                   sprt[1]), "pentanomial")
        w, l, d = self.h2h
        return sprt_llr(w, l, d, sprt[0], sprt[1]), "trinomial"

    def ratings(self, anchor=0):
        return ratings(self.vs_games, self.vs_points, anchor)

    def running(self, names):
        """One short line of running points, for progress output."""
        if self.n == 2:
            w, l, d = self.h2h
            pts0 = w + 0.5 * d
            pts1 = l + 0.5 * d
            n = w + l + d
            pct = 100.0 * pts0 / n if n else 50.0
            return "%s %s - %s %s (%.1f%%)" % (names[0], num(pts0),
                                               num(pts1), names[1], pct)
        return ", ".join("%s %s" % (names[i], num(self.points[i]))
                         for i in range(self.n))


def summarize(meta, results):
    s = Summary(len(meta["players"]), meta.get("seats", 2),
                meta.get("repeat", True))
    for r in sorted(results, key=lambda r: r["game"]):
        s.add(r)
    return s


# ---- text ----

def num(x):
    if x == int(x):
        return "%d" % x
    return ("%.2f" % x).rstrip("0").rstrip(".")


def elo_text(x, zero=True):
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return "%+.1f" % (0.0 if zero and abs(x) < 0.05 else x)


def sprt_model_text(model):
    return {"pentanomial": "GSPRT on pairs of games (pentanomial model), "
            "logistic Elo",
            "trinomial": "GSPRT on single games (trinomial model), "
            "logistic Elo"}[model]


def clock_text(clock):
    if not clock:
        return None
    if clock["kind"] == "fischer":
        if clock["inc"]:
            return "%s+%s (Fischer: %s s, %s s added after each move)" % (
                num(clock["main"]), num(clock["inc"]), num(clock["main"]),
                num(clock["inc"]))
        return "%s (absolute: %s s for the game)" % (num(clock["main"]),
                                                    num(clock["main"]))
    return "byo-yomi %s,%s,%s (Canadian: %s s, then %s s for every %d " \
        "moves)" % (num(clock["main"]), num(clock["byo"]), clock["stones"],
                    num(clock["main"]), num(clock["byo"]), clock["stones"])


def ratings_method(meta, names):
    """What the ratings are, in words."""
    anchor = meta.get("anchor", 0)
    out = ["ratings (maximum likelihood, logistic Elo; %d. %s fixed at 0; "
           "95%% intervals):" % (anchor + 1, names[anchor])]
    if meta.get("seats", 2) > 2:
        out.append("  (each game's ranking split into pairs of programs, "
                   "one result per pair, partners none; the pairs of "
                   "one game are not independent, so the intervals are "
                   "too narrow)")
    return out


def ratings_lines(meta, s, names):
    anchor = meta.get("anchor", 0)
    rs = s.ratings(anchor)
    width = max(len(n) for n in names)
    out = ratings_method(meta, names)
    for i, n in enumerate(names):
        r = rs[i]
        if r is None:
            text = "no rating: no games link it to %s" % names[anchor]
        elif i == anchor:
            text = "%7s  (anchor)" % "0.0"
        elif math.isinf(r[0]):
            text = "%7s  (%s the anchor's group, so no finite rating)" % (
                elo_text(r[0]), "gave no points to" if r[0] > 0 else
                "took no points from")
        else:
            text = "%7s  %s to %s" % (elo_text(r[0]), elo_text(r[1]),
                                      elo_text(r[2]))
        out.append("  %d. %-*s %s" % (i + 1, width, n, text))
    return out


def crosstable_lines(s, names):
    cells = []
    for i in range(s.n):
        row = []
        for j in range(s.n):
            if i == j:
                row.append("x")
            elif s.vs_games[i][j]:
                row.append("%s-%s" % (num(s.vs_points[i][j]),
                                      num(s.vs_points[j][i])))
            else:
                row.append(".")
        cells.append(row)
    width = max(len(n) for n in names) + 4
    col = max([len(c) for row in cells for c in row] + [5])
    out = ["crosstable (points of the row's program against the column's):"]
    out.append("  %-*s " % (width, "") +
               " ".join("%*d" % (col, j + 1) for j in range(s.n)))
    for i, row in enumerate(cells):
        out.append("  %-*s " % (width, "%d. %s" % (i + 1, names[i])) +
                   " ".join("%*s" % (col, c) for c in row))
    return out


def report(meta, results, aborted, sprt=None, sprt_stop=None,
           interrupted=None):
    """The whole text report for a list of per-game results."""
    names = [p["name"] for p in meta["players"]]
    k = len(names)
    s = summarize(meta, results)
    out = []
    lo, hi = meta["range"]
    opts = " ".join(meta["options"])
    mode = meta.get("mode", "match")
    out.append("%s%s, %smatch seed %d, games %d-%d: %d played%s" % (
        meta["game"], " " + opts if opts else "",
        "" if mode == "match" else mode + ", ", meta["seed"], lo, hi,
        len(results), ", %d aborted" % len(aborted) if aborted else ""))
    played = {r["game"] for r in results} | {a["game"] for a in aborted}
    missing = [g for g in range(lo, hi + 1) if g not in played]
    if missing and (len(missing) < hi - lo + 1):
        out.append("not played%s: %s" % (
            " (the SPRT had decided)" if sprt_stop else "",
            ranges(missing)))
    width = max([len(n) for n in names] + [6])
    out.append("%-*s  %5s %5s %6s %5s %7s %7s %7s %5s" % (
        width + 3, "program", "games", "wins", "losses", "draws", "points",
        "score%", "avg pts", "first"))
    for i, n in enumerate(names):
        g = s.games[i]
        pct = 100.0 * s.points[i] / g if g else 0.0
        avg = s.score_sum[i] / g if g else 0.0
        out.append("%d. %-*s  %5d %5d %6d %5d %7s %6.1f%% %7.2f %5d" % (
            i + 1, width, n, g, s.wins[i], s.losses[i], s.draws[i],
            num(s.points[i]), pct, avg, s.first[i]))
    if s.adjudicated:
        out.append("adjudicated draws (--maxplies %d): %d" %
                   (meta.get("maxplies") or 0, s.adjudicated))
    if k == 2 and meta.get("seats", 2) == 2 and results:
        w, l, d = s.h2h
        elo, elo_lo, elo_hi = elo_interval(w, l, d)
        if elo_lo == elo_hi:
            interval = "no interval: every game had the same result"
        else:
            interval = "95%% interval %s to %s" % (elo_text(elo_lo),
                                                  elo_text(elo_hi))
        out.append("Elo difference of 1 over 2: %s (%s)" %
                   (elo_text(elo), interval))
    out += penta_lines(meta, s, names)
    if results and (k > 2 or meta.get("seats", 2) > 2 or mode != "match"):
        out += crosstable_lines(s, names)
    if results:
        out += ratings_lines(meta, s, names)
    if sprt and k == 2 and results:
        llr, model = s.sprt_llr(sprt)
        out.append(sprt_line(sprt, llr, model, sprt_stop))
    out += clock_lines(meta, s, names)
    nforf = sum(1 for r in results if r.get("forfeit"))
    if nforf:
        out.append("forfeits (%d):" % nforf)
        for i, n in enumerate(names):
            if s.forfeits[i]:
                kinds = ", ".join("%s %d" % (kd, c) for kd, c in
                                  sorted(s.forfeits[i].items()))
                out.append("  %s: %s" % (n, kinds))
        shown = 0
        for r in sorted(results, key=lambda r: r["game"]):
            f = r.get("forfeit")
            if not f:
                continue
            if shown == 10:
                out.append("  ... (every reason is in the results file)")
                break
            shown += 1
            out.append("  game %d: %s (player %d) %s" % (
                r["game"], names[r["seats"][f["seat"] - 1]], f["seat"],
                f["reason"]))
    if aborted:
        out.append("aborted games (referee trouble, not counted):")
        for a in sorted(aborted, key=lambda a: a["game"])[:10]:
            out.append("  game %d: %s" % (a["game"], a["reason"]))
    if interrupted:
        out.append(interrupted)
    return "\n".join(out) + "\n"


def penta_lines(meta, s, names):
    if not s.paired:
        return []
    out = []
    for (a, b), counts in sorted(s.penta.items()):
        elo, lo, hi, pairs = penta_elo(counts)
        if lo == hi:
            interval = "no interval: every pair had the same result"
        else:
            interval = "95%% interval %s to %s" % (elo_text(lo),
                                                  elo_text(hi))
        out.append("pentanomial %d over %d (pairs of games with the seats "
                   "swapped, %d's points 0, 0.5, 1, 1.5, 2): [%s] in %d "
                   "pairs: Elo %s (%s)" % (
                       a + 1, b + 1, a + 1,
                       ", ".join("%d" % c for c in counts), pairs,
                       elo_text(elo), interval))
    if s.unpaired:
        out.append("pentanomial: %d game%s whose pair is incomplete left "
                   "out" % (s.unpaired, "" if s.unpaired == 1 else "s"))
    return out


def sprt_line(sprt, llr, model, sprt_stop=None):
    blo, bhi = sprt_bounds(sprt[2], sprt[3])
    verdict = sprt_verdict(llr, sprt)
    text = {"H1": "H1 accepted (elo >= %g)" % sprt[1],
            "H0": "H0 accepted (elo <= %g)" % sprt[0],
            None: "no decision yet"}[verdict]
    line = ("SPRT elo0=%g elo1=%g alpha=%g beta=%g (%s): LLR %.2f "
            "(bounds %.2f, %.2f): %s" % (sprt + (sprt_model_text(model),
                                                 llr, blo, bhi, text)))
    if sprt_stop and verdict:
        line += "; the match stopped at this decision, after game %d " \
            "finished (games then under way were abandoned)" % \
            sprt_stop["game"]
    return line


def clock_lines(meta, s, names):
    out = []
    ct = clock_text(meta.get("clock"))
    if ct:
        out.append("clock: %s per program, margin %d ms" %
                   (ct, meta.get("timemargin", 100)))
    if any(s.timed):
        parts = []
        for i, n in enumerate(names):
            if s.timed[i]:
                parts.append("%d. %.3f avg, %.3f max" % (
                    i + 1, s.think_ms[i] / s.timed[i] / 1000.0,
                    s.think_max[i] / 1000.0))
        out.append("seconds per move: " + "; ".join(parts))
    for i, n in enumerate(names):
        if s.fallback[i]:
            out.append("%d. %s has no clock commands: in %d game%s it was "
                       "sent `set movetime` from its clock instead "
                       "(fallback)" % (i + 1, n, s.fallback[i],
                                       "" if s.fallback[i] == 1 else "s"))
    return out


def ranges(nums):
    parts = []
    start = prev = None
    for x in nums:
        if start is None:
            start = prev = x
        elif x == prev + 1:
            prev = x
        else:
            parts.append(str(start) if start == prev else
                         "%d-%d" % (start, prev))
            start = prev = x
    if start is not None:
        parts.append(str(start) if start == prev else "%d-%d" % (start, prev))
    s = ", ".join(parts)
    return s if len(s) < 200 else s[:200] + "..."
