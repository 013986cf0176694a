"""tournament_stats: tallies per program, Elo with its interval, SPRT, and
the text report.  Works on the per-game result dicts the match writes (and
merge reads back from JSON), so a merged report is computed exactly like a
live one."""

import math

Z95 = 1.959963984540054


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
    lo = mean - Z95 * err
    hi = mean + Z95 * err
    return elo_from_score(mean), elo_from_score(lo), elo_from_score(hi)


def sprt_bounds(alpha, beta):
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _max_loglik(w, l, d, s):
    """The highest log-likelihood of the counts w, l, d over all win, loss,
    draw probabilities whose expected score is s.  With the draw
    probability t, the win and loss ones are s - t/2 and 1 - s - t/2, and
    the log-likelihood is concave in t, so a golden-section search finds
    the maximum.  Outcomes never seen may still get probability, so a
    match of nothing but wins is judged correctly too."""
    hi = min(2.0 * s, 2.0 - 2.0 * s)

    def f(t):
        total = 0.0
        for n, p in ((w, s - t / 2.0), (l, 1.0 - s - t / 2.0), (d, t)):
            if n:
                if p <= 0.0:
                    return -math.inf
                total += n * math.log(p)
        return total

    a, b = 0.0, hi
    g = (math.sqrt(5.0) - 1.0) / 2.0
    x1, x2 = b - g * (b - a), a + g * (b - a)
    f1, f2 = f(x1), f(x2)
    for _ in range(100):
        if f1 < f2:
            a, x1, f1 = x1, x2, f2
            x2 = a + g * (b - a)
            f2 = f(x2)
        else:
            b, x2, f2 = x2, x1, f1
            x1 = b - g * (b - a)
            f1 = f(x1)
    return max(f(a), f(b), f1, f2)


def sprt_llr(w, l, d, elo0, elo1):
    """Log-likelihood ratio of H1 (Elo difference elo1) against H0 (elo0)
    for the W/L/D counts so far: the generalized SPRT, each hypothesis
    given the draw rate that suits the results best.  Unlike the normal
    approximation it stays sound after a handful of games."""
    if w + l + d == 0:
        return 0.0
    l1 = _max_loglik(w, l, d, expected_score(elo1))
    l0 = _max_loglik(w, l, d, expected_score(elo0))
    if l0 == -math.inf and l1 == -math.inf:
        return 0.0
    if l0 == -math.inf:
        return math.inf
    if l1 == -math.inf:
        return -math.inf
    return l1 - l0


def sprt_decision(w, l, d, sprt):
    """(llr, lower, upper, verdict): verdict is 'H1', 'H0' or None."""
    elo0, elo1, alpha, beta = sprt
    llr = sprt_llr(w, l, d, elo0, elo1)
    lo, hi = sprt_bounds(alpha, beta)
    verdict = None
    if llr >= hi:
        verdict = "H1"
    elif llr <= lo:
        verdict = "H0"
    return llr, lo, hi, verdict


def parse_sprt(text):
    """'elo0,elo1,alpha,beta' -> tuple, or ValueError with a reason."""
    parts = text.split(",")
    if len(parts) != 4:
        raise ValueError("--sprt wants elo0,elo1,alpha,beta (for example "
                         "0,10,0.05,0.05)")
    elo0, elo1, alpha, beta = (float(p) for p in parts)
    if not elo0 < elo1:
        raise ValueError("--sprt: elo0 must be below elo1")
    if not (0 < alpha < 0.5 and 0 < beta < 0.5):
        raise ValueError("--sprt: alpha and beta must be between 0 and 0.5")
    return elo0, elo1, alpha, beta


class Tally:
    """Per-program totals over a set of game results."""

    def __init__(self, nprog):
        self.n = nprog
        self.games = [0] * nprog
        self.wins = [0] * nprog
        self.losses = [0] * nprog
        self.draws = [0] * nprog
        self.points = [0.0] * nprog
        self.score_sum = [0.0] * nprog
        self.first = [0] * nprog
        self.forfeits = [dict() for _ in range(nprog)]
        # head to head, for two programs: wins/losses/draws of program 0
        self.h2h = [0, 0, 0]

    def add(self, r):
        seats = r["seats"]
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
        if r.get("first"):
            self.first[seats[r["first"] - 1]] += 1
        f = r.get("forfeit")
        if f:
            prog = seats[f["seat"] - 1]
            self.forfeits[prog][f["kind"]] = \
                self.forfeits[prog].get(f["kind"], 0) + 1
        if self.n == 2:
            s0 = seats.index(0)
            out = r["outcome"][s0]
            self.h2h[{"win": 0, "loss": 1}.get(out, 2)] += 1

    def running(self, names):
        """One short line of running points, for progress output."""
        if self.n == 2:
            w, l, d = self.h2h
            pts0 = w + 0.5 * d
            pts1 = l + 0.5 * d
            n = w + l + d
            pct = 100.0 * pts0 / n if n else 50.0
            return "%s %s - %s %s (%.1f%%)" % (names[0], _num(pts0),
                                               _num(pts1), names[1], pct)
        return ", ".join("%s %s" % (names[i], _num(self.points[i]))
                         for i in range(self.n))


def _num(x):
    if x == int(x):
        return "%d" % x
    return ("%.2f" % x).rstrip("0").rstrip(".")


def _elo_text(x):
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return "%+.1f" % (0.0 if abs(x) < 0.05 else x)


def report(meta, results, aborted, sprt=None, sprt_stop=None):
    """The whole text report for a list of per-game results."""
    names = [p["name"] for p in meta["players"]]
    k = len(names)
    t = Tally(k)
    for r in sorted(results, key=lambda r: r["game"]):
        t.add(r)
    out = []
    lo, hi = meta["range"]
    opts = " ".join(meta["options"])
    out.append("%s%s, match seed %d, games %d-%d: %d played%s" % (
        meta["game"], " " + opts if opts else "", meta["seed"], lo, hi,
        len(results),
        ", %d aborted" % len(aborted) if aborted else ""))
    played = {r["game"] for r in results} | {a["game"] for a in aborted}
    missing = [g for g in range(lo, hi + 1) if g not in played]
    if missing and (len(missing) < hi - lo + 1):
        out.append("not played: %s" % _ranges(missing))
    width = max([len(n) for n in names] + [6])
    out.append("%-*s  %5s %5s %6s %5s %7s %7s %7s %5s" % (
        width + 3, "program", "games", "wins", "losses", "draws", "points",
        "score%", "avg pts", "first"))
    for i, n in enumerate(names):
        g = t.games[i]
        pct = 100.0 * t.points[i] / g if g else 0.0
        avg = t.score_sum[i] / g if g else 0.0
        out.append("%d. %-*s  %5d %5d %6d %5d %7s %6.1f%% %7.2f %5d" % (
            i + 1, width, n, g, t.wins[i], t.losses[i], t.draws[i],
            _num(t.points[i]), pct, avg, t.first[i]))
    if k == 2 and results:
        w, l, d = t.h2h
        elo, elo_lo, elo_hi = elo_interval(w, l, d)
        if elo_lo == elo_hi:
            interval = "no interval: every game had the same result"
        else:
            interval = "95%% interval %s to %s" % (_elo_text(elo_lo),
                                                  _elo_text(elo_hi))
        out.append("Elo difference of 1 over 2: %s (%s)" %
                   (_elo_text(elo), interval))
        if sprt:
            llr, blo, bhi, verdict = sprt_decision(w, l, d, sprt)
            text = {"H1": "H1 accepted (elo >= %g)" % sprt[1],
                    "H0": "H0 accepted (elo <= %g)" % sprt[0],
                    None: "no decision yet"}[verdict]
            out.append("SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.2f "
                       "(bounds %.2f, %.2f): %s" % (sprt + (llr, blo, bhi,
                                                            text)))
            if sprt_stop:
                out.append("the match stopped early after %d games "
                           "(LLR %.2f)" % sprt_stop)
    nforf = sum(1 for r in results if r.get("forfeit"))
    if nforf:
        out.append("forfeits (%d):" % nforf)
        for i, n in enumerate(names):
            if t.forfeits[i]:
                kinds = ", ".join("%s %d" % (kd, c) for kd, c in
                                  sorted(t.forfeits[i].items()))
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
    return "\n".join(out) + "\n"


def _ranges(nums):
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
