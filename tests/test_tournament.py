"""Tests of scripts/tournament (docs/tournament.md), run by tests/check-tournament.sh:

  ENGINE=build/engine python3 tests/test_tournament.py  (default ./engine)

The arithmetic (ratings, pentanomial counts, the SPRT, clocks) is checked
against values worked out by hand; the runner itself against small fake
programs (tests/players/fake wraps the engine and misbehaves on request).
"""

import itertools
import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "scripts", "runner"))

import tournament_clock as clock  # noqa: E402
import tournament_stats as stats  # noqa: E402

RUNNER = os.path.join(ROOT, "scripts", "tournament")
FAKE = os.path.join(HERE, "players", "fake")
ENGINE = os.path.abspath(os.environ.get("ENGINE", os.path.join(ROOT,
                                                               "engine")))
BETA = math.log(10) / 400


def read(path):
    with open(path) as f:
        return f.read()


def result(game, seats, points, outcome=None, **more):
    """A result dict as the runner writes it (seats: program per seat)."""
    if outcome is None:
        outcome = ["win" if p == max(points) and points.count(p) == 1 else
                   "draw" if p == max(points) else "loss" for p in points]
    r = {"game": game, "seats": seats, "points": points, "outcome": outcome,
         "first": 1}
    r.update(more)
    return r


def two_player(game, prog0_points, prog0_seat=None):
    """Game `game` between programs 0 and 1 (seats swapped in even games),
    program 0 scoring prog0_points."""
    if prog0_seat is None:
        prog0_seat = 1 if game % 2 else 2
    seats = [0, 1] if prog0_seat == 1 else [1, 0]
    pts = [prog0_points, 1 - prog0_points]
    if prog0_seat == 2:
        pts.reverse()
    return result(game, seats, pts)


class Arithmetic(unittest.TestCase):
    def close(self, a, b, tol=1e-6):
        self.assertTrue(abs(a - b) <= tol * max(1.0, abs(b)),
                        "%r is not %r" % (a, b))

    def test_elo_and_interval(self):
        # 75% is +190.85 Elo; 50% is 0.
        self.close(stats.elo_from_score(0.75), 400 * math.log10(3))
        self.assertEqual(stats.elo_from_score(0.5), 0)
        # 60 wins 20 losses 20 draws: mean 0.7, variance 0.16 per game.
        e, lo, hi = stats.elo_interval(60, 20, 20)
        m, v = stats.score_moments(60, 20, 20)
        self.close(m, 0.7)
        self.close(v, 0.16)
        self.close(lo, stats.elo_from_score(0.7 - stats.Z95 * 0.04))
        self.close(hi, stats.elo_from_score(0.7 + stats.Z95 * 0.04))

    def test_sprt_trinomial_by_hand(self):
        # 3 wins, 2 draws, 1 loss.  H1 at the observed mean 2/3 (Elo
        # 400 log10 2) keeps the observed frequencies 1/6, 2/6, 3/6.  H0 at
        # 1/2: p_i = f_i / (1 + t (a_i - 1/2)) with t solving
        # f_L (-1/2) / (1 - t/2) + f_W (1/2) / (1 + t/2) = 0, so
        # t = 2 (f_W - f_L) / (f_W + f_L) = 1 and p = 1/3, 1/3, 1/3.
        # LLR = sum n_i ln(f_i / p_i) = ln(1/2) + 0 + 3 ln(3/2) = ln(27/16).
        llr = stats.sprt_llr(3, 1, 2, 0, 400 * math.log10(2))
        self.close(llr, math.log(27 / 16.0), 1e-9)
        # Swapping the hypotheses changes the sign.
        self.close(stats.sprt_llr(3, 1, 2, 400 * math.log10(2), 0),
                   -math.log(27 / 16.0), 1e-9)

    def test_sprt_pentanomial_by_hand(self):
        # Pairs [LL, LD, DD+WL, WD, WW] = [1, 2, 3, 2, 3]: 11 pairs, mean
        # 6.5/11, so H1 at Elo 400 log10(13/9) keeps the observed
        # frequencies.  Under H0 (1/2) p_i = f_i / (1 + t d_i), d_i the
        # score share minus 1/2, where sum n_i d_i / (1 + t d_i) = 0; t
        # solved by hand (bisection on that sum) is 0.8217237503, and the
        # LLR is sum n_i ln(1 + t d_i).
        counts = [1, 2, 3, 2, 3]
        d = [-0.5, -0.25, 0.0, 0.25, 0.5]
        t = 0.8217237503
        self.assertLess(abs(sum(n * x / (1 + t * x)
                                for n, x in zip(counts, d))), 1e-8)
        want = sum(n * math.log(1 + t * x) for n, x in zip(counts, d))
        self.close(want, 0.41727122725, 1e-9)
        llr = stats.sprt_llr_penta(counts, 0, 400 * math.log10(13 / 9.0))
        self.close(llr, want, 1e-8)

    def test_sprt_bounds_and_verdicts(self):
        lo, hi = stats.sprt_bounds(0.05, 0.05)
        self.close(hi, math.log(19))
        self.close(lo, -math.log(19))
        sprt = (0, 50, 0.05, 0.05)
        self.assertEqual(stats.sprt_verdict(3.0, sprt), "H1")
        self.assertEqual(stats.sprt_verdict(-3.0, sprt), "H0")
        self.assertIsNone(stats.sprt_verdict(2.9, sprt))
        # An even score is evidence against a 50 Elo edge, a lopsided one
        # for it; a match of nothing but wins stays finite.
        self.assertLess(stats.sprt_llr(50, 50, 0, 0, 50), 0)
        self.assertGreater(stats.sprt_llr(70, 30, 0, 0, 50), 0)
        self.assertTrue(0 < stats.sprt_llr(10, 0, 0, 0, 50) < 10)

    def test_pentanomial_counts_known_sequence(self):
        # Program 0 takes: games 1-2 win win (2 points: WW), 3-4 win loss
        # (1: the middle cell), 5-6 draw loss (0.5: LD), 7-8 loss loss
        # (LL), 9-10 draw draw (1: middle), and game 11 has no partner.
        pts = [1, 1, 1, 0, 0.5, 0, 0, 0, 0.5, 0.5, 1]
        s = stats.Summary(2, 2, True)
        for g, p in enumerate(pts, 1):
            s.add(two_player(g, p))
        self.assertEqual(s.penta, {(0, 1): [1, 1, 2, 0, 1]})
        self.assertEqual(s.unpaired, 1)
        self.assertEqual(s.h2h, [4, 4, 3])
        # The pair's order of arrival does not matter.
        s2 = stats.Summary(2, 2, True)
        for g in [2, 11, 1, 4, 3, 6, 5, 8, 7, 10, 9]:
            s2.add(two_player(g, pts[g - 1]))
        self.assertEqual(s2.penta, s.penta)
        # No pairs without repeated seeds.
        s3 = stats.Summary(2, 2, False)
        for g, p in enumerate(pts, 1):
            s3.add(two_player(g, p))
        self.assertEqual(s3.penta, {})
        self.assertEqual(s3.sprt_llr((0, 10, 0.05, 0.05))[1], "trinomial")
        self.assertEqual(s.sprt_llr((0, 10, 0.05, 0.05))[1], "pentanomial")

    def known_round_robin(self):
        """A 3-program round robin whose ratings are exact: 1 beats 2 3-1,
        2 beats 3 3-1, 1 beats 3 9-1.  At 0, -400 log10 3, -800 log10 3
        every expected score equals the actual one (3/4, 3/4, 9/10), so
        that is the maximum of the likelihood."""
        res = []
        g = 0
        for a, b, wins, losses in ((0, 1, 3, 1), (1, 2, 3, 1), (0, 2, 9, 1)):
            for i in range(wins + losses):
                g += 1
                p = 1.0 if i < wins else 0.0
                seats = [a, b] if i % 2 == 0 else [b, a]
                pts = [p, 1 - p] if i % 2 == 0 else [1 - p, p]
                res.append(result(g, seats, pts))
        return res

    def test_ratings_by_hand(self):
        s = stats.Summary(3, 2, False)
        for r in self.known_round_robin():
            s.add(r)
        rs = s.ratings(0)
        self.assertEqual(rs[0], (0.0, 0.0, 0.0))
        self.close(rs[1][0], -400 * math.log10(3), 1e-7)
        self.close(rs[2][0], -800 * math.log10(3), 1e-7)
        # Information about (r2, r3) with r1 fixed: each game adds
        # BETA^2 p (1 - p) between its two programs: 4 x 3/16 = 0.75 for
        # 1-2 and 2-3, 10 x 9/100 = 0.9 for 1-3, so
        # I = BETA^2 [[1.5, -0.75], [-0.75, 1.65]], det 1.9125 BETA^4, and
        # the variances are 1.65 / 1.9125 / BETA^2 and 1.5 / 1.9125 / BETA^2.
        for i, diag in ((1, 1.65), (2, 1.5)):
            half = stats.Z95 * math.sqrt(diag / 1.9125) / BETA
            self.close(rs[i][1], rs[i][0] - half, 1e-6)
            self.close(rs[i][2], rs[i][0] + half, 1e-6)
        # Anchored on program 2 instead: the same differences.
        rs2 = s.ratings(1)
        self.close(rs2[0][0], 400 * math.log10(3), 1e-7)
        self.close(rs2[2][0], -400 * math.log10(3), 1e-7)
        # Crosstable cells are the points each way.
        self.assertEqual(s.vs_points[0][1], 3)
        self.assertEqual(s.vs_points[1][0], 1)
        self.assertEqual(s.vs_points[0][2], 9)
        self.assertEqual(s.vs_games[2][0], 10)
        meta = {"game": "g", "options": [], "seed": 1, "range": [1, 18],
                "mode": "round-robin", "seats": 2, "repeat": False,
                "players": [{"name": n} for n in ("A", "B", "C")]}
        text = stats.report(meta, self.known_round_robin(), [])
        self.assertIn("crosstable", text)
        self.assertRegex(text, r"1\. A +x +3-1 +9-1")
        self.assertRegex(text, r"3\. C +1-9 +1-3 +x")
        self.assertRegex(text, r"2\. B +-190\.8 ")
        self.assertRegex(text, r"3\. C +-381\.7 ")

    def test_ratings_that_cannot_be_finite(self):
        # 1 beat 2 in every game, 2 and 3 drew, 4 never played.
        games = [[0, 4, 0, 0], [4, 0, 2, 0], [0, 2, 0, 0], [0, 0, 0, 0]]
        points = [[0, 4, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 0]]
        rs = stats.ratings(games, points, 0)
        self.assertEqual(rs[1][0], -math.inf)
        self.assertEqual(rs[2][0], -math.inf)
        self.assertIsNone(rs[3])
        rs = stats.ratings(games, points, 1)
        self.assertEqual(rs[0][0], math.inf)
        self.close(rs[2][0], 0.0)

    def test_pairwise_decomposition(self):
        # 3 seats: seat 2 won; seats 1 and 3 lost with scores 5 and 7, so
        # seat 3 ranks above seat 1.
        r = result(1, [2, 0, 1], [0.0, 1.0, 0.0], score=[5, 9, 7])
        self.assertEqual(stats.pair_order(r, 1, 0), 1)
        self.assertEqual(stats.pair_order(r, 2, 0), 1)
        self.assertEqual(stats.pair_order(r, 0, 2), -1)
        s = stats.Summary(3, 3, True)
        s.add(r)
        self.assertEqual(s.vs_points[0][2], 1.0)   # the winner over both
        self.assertEqual(s.vs_points[0][1], 1.0)
        self.assertEqual(s.vs_points[1][2], 1.0)   # score 7 over score 5
        self.assertEqual(s.vs_points[2][1], 0.0)
        self.assertEqual(s.vs_games[2][1], 1)
        self.assertEqual(s.penta, {})
        # A forfeit: the others share, whatever the score said.
        r = result(2, [0, 1, 2], [0.0, 0.5, 0.5], score=[9, 1, 3],
                   forfeit={"seat": 1, "kind": "time", "reason": "x"})
        self.assertEqual(stats.pair_order(r, 1, 2), 0)
        self.assertEqual(stats.pair_order(r, 0, 1), -1)

    def test_partners_play_no_pair(self):
        # Abs-Trac-Toe's teams: players 1 and 3 won together against 2 and
        # 4.  Each winner beat each loser; the partners did not draw.
        r = result(1, [0, 1, 2, 3], [0.5, 0.0, 0.5, 0.0],
                   ["win", "loss", "win", "loss"], teams=[[1, 3], [2, 4]])
        s = stats.Summary(4, 4, True)
        s.add(r)
        self.assertEqual(s.vs_games[0][2], 0)
        self.assertEqual(s.vs_games[1][3], 0)
        for w in (0, 2):
            for lost in (1, 3):
                self.assertEqual(s.vs_games[w][lost], 1)
                self.assertEqual(s.vs_points[w][lost], 1.0)
                self.assertEqual(s.vs_points[lost][w], 0.0)


class Clocks(unittest.TestCase):
    def test_parse(self):
        self.assertEqual(clock.parse_tc("10+0.1"),
                         {"kind": "fischer", "main": 10.0, "inc": 0.1})
        self.assertEqual(clock.parse_tc("60")["inc"], 0.0)
        self.assertEqual(clock.parse_byoyomi("10,5,5"),
                         {"kind": "canadian", "main": 10.0, "byo": 5.0,
                          "stones": 5})
        for bad in ("x", "-1", "0", "5+-1", "nan"):
            self.assertRaises(ValueError, clock.parse_tc, bad)
        for bad in ("10,5", "10,0,5", "10,5,0", "a,b,c"):
            self.assertRaises(ValueError, clock.parse_byoyomi, bad)

    def test_fischer_and_margin(self):
        c = clock.Clock(clock.parse_tc("10+1"), 0.1)
        self.assertEqual(c.time_left(), (10.0, 0))
        self.assertTrue(c.spend(2.5))
        self.assertEqual(c.time_left(), (8.5, 0))
        # 8.55 s with 8.5 left is within the 0.1 s margin: the clock
        # stops at 0 and the increment comes on top.
        self.assertTrue(c.spend(8.55))
        self.assertEqual(c.time_left(), (1.0, 0))
        self.assertEqual(c.limit(), 1.0)
        self.assertFalse(c.spend(1.11))
        self.assertEqual(c.time_left(), (1.0, 0))
        c0 = clock.Clock(clock.parse_tc("1"), 0.0)
        self.assertFalse(c0.spend(1.001))
        self.assertTrue(c0.spend(1.0))

    def test_canadian(self):
        c = clock.Clock(clock.parse_byoyomi("1,2,2"), 0.1)
        self.assertTrue(c.spend(0.5))
        self.assertEqual(c.time_left(), (0.5, 0))
        # The move that ends main time runs 0.5 s into the first period,
        # and counts as its first move.
        self.assertEqual(c.limit(), 2.5)
        self.assertTrue(c.spend(1.0))
        self.assertEqual(c.time_left(), (1.5, 1))
        # The period's last move: a new period starts.
        self.assertTrue(c.spend(1.4))
        self.assertEqual(c.time_left(), (2.0, 2))
        self.assertTrue(c.spend(2.05))
        self.assertEqual(c.time_left(), (0.0, 1))
        self.assertFalse(c.spend(0.11))
        # No main time: byo-yomi from the first move.
        c = clock.Clock(clock.parse_byoyomi("0,1,3"), 0.0)
        self.assertEqual(c.time_left(), (1.0, 3))

    def test_fallback_movetime(self):
        # Fischer 10+1: 10 s / 20 moves + 1 s.
        self.assertEqual(clock.Clock(clock.parse_tc("10+1"), 0.1)
                         .fallback_ms(), 1500)
        # Never more than half of what the move may use.
        self.assertEqual(clock.Clock(clock.parse_tc("0.2+1"), 0.1)
                         .fallback_ms(), 100)
        # Under byo-yomi, the period shared over its moves.
        c = clock.Clock(clock.parse_byoyomi("0,3,3"), 0.1)
        self.assertEqual(c.fallback_ms(), 1000)

    def test_settings_commands(self):
        both = {"time_settings", "kgs-time_settings", "time_left"}
        self.assertEqual(clock.settings_commands(clock.parse_tc("10+0.5"),
                                                 both),
                         ["kgs-time_settings fischer 10 0.5"])
        self.assertEqual(clock.settings_commands(clock.parse_tc("60"),
                                                 {"time_settings"}),
                         ["time_settings 60 0 0"])
        self.assertEqual(clock.settings_commands(
            clock.parse_byoyomi("10,5,5"), both),
            ["time_settings 10 5 5", "kgs-time_settings canadian 10 5 5"])
        self.assertEqual(clock.settings_commands(clock.parse_tc("1+1"),
                                                 {"time_settings"}), [])


@unittest.skipUnless(os.access(ENGINE, os.X_OK), "no engine at " + ENGINE)
class Runs(unittest.TestCase):
    """The runner on real games, with the engine and fake players."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def fake(self, *args):
        return " ".join([FAKE, ENGINE] + list(args))

    def run_runner(self, *args, code=0):
        p = subprocess.run([sys.executable, RUNNER, "--referee", ENGINE] +
                           list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=120)
        self.assertEqual(p.returncode, code, "exit %d, wanted %d:\n%s\n%s" % (
            p.returncode, code, p.stdout, p.stderr))
        return p.stdout, p.stderr

    def results(self, name):
        with open(self.path(name)) as f:
            return json.load(f)

    def test_clock_forfeit_and_margin(self):
        # 0.3 s for the game at 150 ms a move: the third move oversteps
        # the clock by more than the 100 ms margin.
        out, _ = self.run_runner(
            "checkertoe", "-g", "2", "-j", "2", "--seed", "1", "-q",
            "--tc", "0.3", "-o", self.path("flag.json"),
            "-p", ENGINE, "-s", "set level 0",
            "-p", self.fake("--clock", "--sleep", "150"), "-n", "slow",
            "-s", "set level 0")
        doc = self.results("flag.json")
        for r in doc["results"]:
            f = r["forfeit"]
            self.assertEqual(f["kind"], "time", f)
            self.assertEqual(r["seats"][f["seat"] - 1], 1)
            self.assertIn("lost on time", f["reason"])
            slow = [ms for seat, ms in r["times"] if seat == f["seat"]]
            self.assertTrue(1 <= len(slow) <= 2, r["times"])
            self.assertTrue(all(ms >= 150 for ms in slow), slow)
            self.assertEqual(len(r["left"]), len(r["times"]))
        self.assertIn("slow: time 2", out)
        # 350 ms on the first move with 0.3 s on the clock: over by 50 ms,
        # which a 300 ms margin forgives and no margin does not (the
        # increment leaves room for the quick moves after it).
        for margin, forfeit in (("300", False), ("0", True)):
            self.run_runner(
                "checkertoe", "-g", "1", "--seed", "2", "-q",
                "--tc", "0.3+0.2", "--timemargin", margin,
                "-o", self.path("m.json"), "-p", ENGINE, "-s", "set level 0",
                "-p", self.fake("--clock", "--sleep", "350,0"), "-s",
                "set level 0")
            r = self.results("m.json")["results"][0]
            self.assertEqual("forfeit" in r, forfeit, (margin, r))
            if forfeit:
                self.assertEqual(r["forfeit"]["kind"], "time")
            else:
                self.assertEqual(r["status"].split()[0], "over")

    def test_clock_commands_and_fallback(self):
        a, b = self.path("a.log"), self.path("b.log")
        out, _ = self.run_runner(
            "checkertoe", "-g", "2", "-j", "1", "--seed", "3", "-q",
            "--tc", "5+0.5", "-o", self.path("c.json"),
            "-p", self.fake("--clock", "--log", a), "-n", "timed",
            "-s", "set level 0",
            "-p", self.fake("--no-clock", "--log", b), "-n", "untimed",
            "-s", "set level 0")
        la, lb = read(a).splitlines(), read(b).splitlines()
        # The clock program: the settings after each game's newgame, and
        # its own clock before each genmove, full at its first move.
        starts = [i for i, l in enumerate(la) if l.startswith("newgame")]
        self.assertEqual(len(starts), 2)
        for i in starts:
            self.assertEqual(la[i + 1], "kgs-time_settings fischer 5 0.5")
        for i, l in enumerate(la):
            if l == "genmove":
                self.assertRegex(la[i - 1], r"^time_left [12] [0-9.]+ 0$")
        lefts = [float(l.split()[2]) for l in la if l.startswith("time_left")]
        self.assertEqual(lefts[0], 5.0)
        self.assertTrue(all(0 < x <= 5.5 + 6 for x in lefts), lefts)
        # The other: no clock command, `set movetime` before each genmove.
        self.assertFalse([l for l in lb if l.split()[0] in
                          ("time_settings", "kgs-time_settings",
                           "time_left")])
        for i, l in enumerate(lb):
            if l == "genmove":
                self.assertRegex(lb[i - 1], r"^set movetime \d+$")
        first = next(l for l in lb if l.startswith("set movetime"))
        self.assertEqual(first, "set movetime 750")   # 5 s / 20 + 0.5 s
        self.assertIn("untimed has no clock commands", out)
        self.assertIn("(fallback)", out)
        doc = self.results("c.json")
        for r in doc["results"]:
            mode = {doc["players"][p]["name"]: r["clock"][s]
                    for s, p in enumerate(r["seats"])}
            self.assertEqual(mode, {"timed": "clock", "untimed": "fallback"})
            self.assertEqual(len(r["times"]), r["moves"])
        # Canadian: GTP's time_settings, time_left with the stones due.
        self.run_runner(
            "checkertoe", "-g", "1", "--seed", "3", "-q",
            "--byoyomi", "0,2,3", "-p", self.fake("--clock", "--log", a),
            "-s", "set level 0", "-p", ENGINE, "-s", "set level 0")
        la = read(a).splitlines()
        self.assertIn("time_settings 0 2 3", la)
        tl = [l.split()[2:] for l in la if l.startswith("time_left")]
        self.assertEqual(tl[-12:][0], ["2", "3"])
        self.assertEqual([s for _, s in tl[-12:][:4]], ["3", "2", "1", "3"])

    def test_round_robin_and_gauntlet(self):
        progs = ["-p", ENGINE, "-s", "set level 0", "-n", "r0",
                 "-p", ENGINE, "-s", "set level 1", "-n", "g1",
                 "-p", ENGINE, "-s", "set level 0", "-n", "r2"]
        out, _ = self.run_runner(
            "checkertoe", "--round-robin", "--rounds", "2", "--seed", "4",
            "-q", "-o", self.path("rr.json"), "--report",
            self.path("rr.html"), *progs)
        doc = self.results("rr.json")
        self.assertEqual(doc["groups"], [[0, 1], [0, 2], [1, 2]])
        res = sorted(doc["results"], key=lambda r: r["game"])
        self.assertEqual(len(res), 12)
        for r in res:
            g = r["game"]
            group = doc["groups"][((g - 1) // 2) % 3]
            self.assertEqual(sorted(r["seats"]), group)
            if g % 2 == 0:
                # A pair: same seed, seats swapped.
                prev = res[g - 2]
                self.assertEqual(prev["newgame"], r["newgame"])
                self.assertEqual(prev["seats"][prev["first"] - 1],
                                 r["seats"][r["first"] % 2])
        # Every encounter of a round starts from the same position.
        self.assertEqual(len({r["newgame"] for r in res[:6]}), 1)
        self.assertNotEqual(res[0]["newgame"], res[6]["newgame"])
        self.assertIn("crosstable", out)
        pts = [[0.0] * 3 for _ in range(3)]
        for r in res:
            for s, prog in enumerate(r["seats"]):
                pts[prog][r["seats"][1 - s]] += r["points"][s]
        cell = lambda i, j: "%s-%s" % (stats.num(pts[i][j]),
                                       stats.num(pts[j][i]))
        self.assertRegex(out, r"2\. g1 +%s +x +%s\n" % (cell(1, 0),
                                                         cell(1, 2)))
        self.assertEqual(pts[0][1] + pts[1][0], 4)
        self.assertIn("ratings (maximum likelihood", out)
        self.assertEqual(out.count("pentanomial "), 3)
        self.check_html(self.path("rr.html"), ["r0", "g1", "r2"])
        # The gauntlet: the first program against each of the others.
        out, _ = self.run_runner(
            "checkertoe", "--gauntlet", "-g", "4", "--seed", "4", "-q",
            "-o", self.path("g.json"), *progs)
        doc = self.results("g.json")
        self.assertEqual(doc["groups"], [[0, 1], [0, 2]])
        self.assertTrue(all(0 in r["seats"] for r in doc["results"]))
        self.assertRegex(out, r"3\. r2 +\S+ +\. +x")
        # Three seats: every group of three of four programs.
        out, _ = self.run_runner(
            "takeitaway", "players=3", "--round-robin", "--rounds", "1",
            "--seed", "5", "-q", "-j", "2", "-o", self.path("t3.json"),
            "-p", ENGINE, "-s", "set level 0", "-p", ENGINE, "-s",
            "set level 1", "-p", ENGINE, "-s", "set level 0", "-p", ENGINE,
            "-s", "set level 1")
        doc = self.results("t3.json")
        self.assertEqual(len(doc["groups"]), 4)
        self.assertEqual(len(doc["results"]), 12)
        self.assertIn("each game's ranking split into pairs", out)
        s = stats.summarize(doc, doc["results"])
        self.assertEqual(s.games, [9, 9, 9, 9])
        # 3 seats a game: 3 pairs each, 36 pairwise results in all.
        self.assertEqual(sum(map(sum, s.vs_games)), 2 * 36)

    def test_three_seats_both_ways(self):
        # Two rounds of three players: every order of turns once, each
        # program first twice.  A file from before "seating" resumes in
        # the one cyclic order it was made with.
        progs = []
        for i in range(3):
            progs += ["-p", ENGINE, "-s", "set level 0", "-n", "p%d" % i]
        self.run_runner("takeitaway", "players=3", "--rounds", "2",
                        "--seed", "3", "-q", "-j", "2", "-o",
                        self.path("both.json"), *progs)
        doc = self.results("both.json")
        self.assertEqual(doc["seating"], "both-ways")

        def order(r):  # the programs in turn order
            k = len(r["seats"])
            return tuple(r["seats"][(r["first"] - 1 + i) % k]
                         for i in range(k))
        res = sorted(doc["results"], key=lambda r: r["game"])
        orders = [order(r) for r in res]
        self.assertEqual(sorted(orders),
                         sorted(itertools.permutations(range(3))))
        for block in (orders[:3], orders[3:]):
            self.assertEqual(sorted(o[0] for o in block), [0, 1, 2])
        del doc["seating"]
        doc["results"] = res[:3]
        with open(self.path("old.json"), "w") as f:
            json.dump(doc, f)
        self.run_runner("--resume", self.path("old.json"), "-q")
        old = sorted(self.results("old.json")["results"],
                     key=lambda r: r["game"])
        self.assertEqual(len(old), 6)
        self.assertEqual([order(r) for r in old[3:]], orders[:3])

    def test_a_team_shares_its_win(self):
        # Abs-Trac-Toe's teams: status names a winning team by its first
        # player, and the partner wins with it (game_info's teams).
        progs = []
        for i in range(4):
            progs += ["-p", ENGINE, "-s", "set level 0", "-n", "p%d" % i]
        self.run_runner("abstractoe", "teams", "--rounds", "2", "--seed",
                        "5", "-q", "-j", "2", "-o", self.path("t.json"),
                        *progs)
        decided = 0
        for r in self.results("t.json")["results"]:
            self.assertEqual(r["teams"], [[1, 3], [2, 4]])
            self.assertAlmostEqual(sum(r["points"]), 1.0)
            p = int(r["status"].split()[1]) if r["status"] != \
                "over draw" else 0
            if not p:
                self.assertEqual(r["points"], [0.25] * 4)
                continue
            decided += 1
            won = [p, p + 2]
            self.assertEqual(r["points"], [0.5 if s in won else 0.0
                                           for s in range(1, 5)])
            self.assertEqual(r["outcome"], ["win" if s in won else "loss"
                                            for s in range(1, 5)])
        self.assertGreater(decided, 0)
        # a forfeit loses for the team: the slow program's partner loses
        # with it, and the other team wins
        progs[3 * 6 + 1] = self.fake("--clock", "--sleep", "250")
        self.run_runner("abstractoe", "teams", "-g", "4", "--seed", "5",
                        "-q", "-j", "2", "--tc", "0.3", "-o",
                        self.path("f.json"), *progs)
        for r in self.results("f.json")["results"]:
            f = r["forfeit"]["seat"]
            self.assertEqual(r["seats"][f - 1], 3)
            out = [f, (f + 1) % 4 + 1]
            self.assertEqual(r["points"], [0.0 if s in out else 0.5
                                           for s in range(1, 5)])
            self.assertEqual(r["outcome"], ["loss" if s in out else "win"
                                            for s in range(1, 5)])

    def check_html(self, path, names):
        text = read(path)
        root = ET.fromstring(text)     # well-formed, or this raises
        self.assertEqual(root.tag, "html")
        self.assertIsNone(re.search(r"[a-z]+://|\bsrc=|\bhref=|url\(|"
                                    r"@import", text, re.I))
        self.assertGreaterEqual(len(root.findall(".//svg")), 2)
        self.assertTrue(root.findall(".//svg/polyline"))
        body = ET.tostring(root, encoding="unicode")
        for n in names:
            self.assertIn(n, body)

    def test_maxplies(self):
        self.run_runner("checkertoe", "-g", "2", "--seed", "6", "-q",
                        "--maxplies", "5", "-o", self.path("mp.json"),
                        "--record", self.path("mp.txt"),
                        "-p", ENGINE, "-s", "set level 0",
                        "-p", ENGINE, "-s", "set level 0")
        for r in self.results("mp.json")["results"]:
            self.assertEqual(r["moves"], 5)
            self.assertEqual(r["points"], [0.5, 0.5])
            self.assertEqual(r["adjudicated"], {"reason": "maxplies",
                                                "plies": 5})
        rec = read(self.path("mp.txt"))
        self.assertEqual(rec.count("# result: adjudicated draw (not over "
                                   "after 5 moves: --maxplies)"), 2)

    def test_sigterm_then_resume(self):
        # The uninterrupted run, with deterministic players.
        players = ["-p", self.fake("--no-clock"), "-s", "set level 0",
                   "-p", ENGINE, "-s", "set level 1"]
        args = ["checkertoe", "-g", "6", "-j", "2", "--seed", "9", "-q"]
        self.run_runner(*args, "-o", self.path("whole.json"), *players)
        whole = self.results("whole.json")["results"]
        # The same run cancelled as Slurm does: the programs (and the
        # referee) get SIGTERM a little before the runner.
        pids = self.path("pids")
        os.mkdir(pids)
        referee = self.fake("--no-clock", "--pid-dir", pids)
        # 40 ms a move: SIGTERM finds games under way.
        players[1] = self.fake("--no-clock", "--sleep", "40", "--pid-dir",
                               pids)
        part = self.path("part.json")
        proc = subprocess.Popen(
            [sys.executable, RUNNER, "--referee", referee] + args +
            ["-o", part] + players, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            time.sleep(0.05)
            try:
                with open(part) as f:
                    if len(json.load(f)["results"]) >= 2:
                        break
            except (OSError, ValueError):
                pass
        for pid in os.listdir(pids):
            try:
                os.kill(int(pid), signal.SIGTERM)
            except ProcessLookupError:
                pass
        time.sleep(0.3)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 128 + signal.SIGTERM, err)
        self.assertIn("interrupted by SIGTERM", out)
        doc = self.results("part.json")
        self.assertEqual(doc["state"], "interrupted")
        self.assertEqual(doc["aborted"], [])
        got = doc["results"]
        self.assertTrue(2 <= len(got) < 6, len(got))
        key = self.key
        # Nothing invented: every game kept is the uninterrupted one's.
        by_game = {r["game"]: key(r) for r in whole}
        for r in got:
            self.assertNotIn("forfeit", r)
            self.assertEqual(key(r), by_game[r["game"]])
        # Resumed (with the plain engine as referee now): the whole match.
        out, _ = self.run_runner("--resume", part, "-q")
        self.assertEqual(sorted(map(key, self.results("part.json")
                                    ["results"])), sorted(map(key, whole)))
        self.assertIn("games 1-6: 6 played", out)
        # Nothing left to play.
        out, _ = self.run_runner("--resume", part, "-q")
        self.assertIn("games 1-6: 6 played", out)
        _, err = self.run_runner("--resume", part, "-g", "9", code=2)
        self.assertIn("cannot be given with it: games", err)

    def temps(self):
        return sorted(n for n in os.listdir(self.dir) if n.endswith(".tmp"))

    def killed_mid_write(self, argv, sig, after=None):
        """Starts the runner with argv, each write pausing halfway, and
        sends sig once a temporary file is there (and the file after has
        been written whole, if given).  Returns the process, ended."""
        env = dict(os.environ, TOURNAMENT_WRITE_PAUSE="0.6")
        proc = subprocess.Popen([sys.executable, RUNNER] + argv, env=env,
                                stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        self.addCleanup(lambda: proc.poll() is None and proc.kill())
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            if self.temps() and (after is None or
                                 os.path.exists(self.path(after))):
                break
            time.sleep(0.02)
        self.assertTrue(self.temps(), "no write was caught half done")
        proc.send_signal(sig)
        proc.wait(60)
        return proc

    def test_killed_mid_write(self):
        # A match stopped by SIGHUP or SIGTERM while a worker writes -o
        # and --report: the write finishes, the match stops, nothing of
        # the write is left behind, and the file is whole.
        match = ["--referee", ENGINE, "checkertoe", "-g", "4", "--seed",
                 "3", "-q", "-o", self.path("m.json"), "--report",
                 self.path("m.html"), "-p", ENGINE, "-s", "set level 0",
                 "-p", ENGINE, "-s", "set level 0"]
        for sig in (signal.SIGHUP, signal.SIGTERM):
            proc = self.killed_mid_write(match, sig)
            self.assertEqual(proc.returncode, 128 + sig)
            self.assertEqual(self.temps(), [], sig)
            self.assertEqual(self.results("m.json")["state"], "interrupted")
        # merge writes in the main thread: a signal there interrupts the
        # write, which is undone.  (Not SIGINT: a shell ignores it in
        # the background jobs check-tournament.sh starts, and Python
        # then leaves it ignored.)
        merge = ["merge", self.path("m.json"), "--allow-partial", "-o",
                 self.path("all.json")]
        for sig in (signal.SIGHUP, signal.SIGTERM):
            proc = self.killed_mid_write(merge, sig)
            self.assertEqual(proc.returncode, 130, sig)
            self.assertEqual(self.temps(), [], sig)
            self.assertFalse(os.path.exists(self.path("all.json")))
        # SIGKILL cannot be caught: the next write of the file sweeps
        # what the dead process left.
        self.killed_mid_write(merge[:-1] + [self.path("m.json")],
                              signal.SIGKILL)
        left = self.temps()
        self.assertEqual(len(left), 1, left)
        self.assertTrue(left[0].startswith(".m.json."), left)
        p = subprocess.run([sys.executable, RUNNER] + merge[:-1] +
                           [self.path("m.json")], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(self.temps(), [])
        self.results("m.json")

    @staticmethod
    def key(r):
        return (r["game"], r["seed"], r["seats"], r["record"], r["points"])

    def test_merge_needs_every_game_once(self):
        common = ["checkertoe", "--seed", "11", "-q", "-p", ENGINE, "-s",
                  "set level 0", "-p", ENGINE, "-s", "set level 1"]
        self.run_runner(*common, "-g", "1-2", "-o", self.path("s1.json"))
        self.run_runner(*common, "-g", "5-6", "-o", self.path("s3.json"))
        merge = [sys.executable, RUNNER, "merge"]
        p = subprocess.run(merge + [self.path("s1.json"),
                                    self.path("s3.json")],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 1)
        self.assertIn("games 3-4 of 1-6 are in no file", p.stderr)
        p = subprocess.run(merge + [self.path("s1.json"),
                                    self.path("s1.json")],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 1)
        self.assertIn("a shard given twice?", p.stderr)
        p = subprocess.run(merge + ["--allow-partial", self.path("s1.json"),
                                    self.path("s1.json"),
                                    self.path("s3.json"), "--report",
                                    self.path("m.html")],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("games 1-6: 4 played", p.stdout)
        self.assertIn("not played: 3-4", p.stdout)
        self.check_html(self.path("m.html"), ["level 0"])

    def test_start_up_timeout_is_t(self):
        # A program that needs 1.5 s to start, under -t 0.5: refused
        # (start-up once waited at least 10 s whatever -t said).
        t0 = time.monotonic()
        _, err = self.run_runner(
            "checkertoe", "-g", "2", "-t", "0.5", "-p", ENGINE,
            "-p", self.fake("--no-clock", "--start-sleep", "1500"), code=2)
        self.assertIn("no answer to protocol_version within 0.5 s", err)
        self.assertLess(time.monotonic() - t0, 10)

    @unittest.skipUnless(hasattr(os, "sched_setaffinity"), "no affinity")
    def test_jobs_default_follows_affinity(self):
        one = {min(os.sched_getaffinity(0))}
        p = subprocess.run(
            [sys.executable, RUNNER, "--referee", ENGINE, "checkertoe",
             "-g", "4", "--seed", "1", "-p", ENGINE, "-s", "set level 0",
             "-p", ENGINE, "-s", "set level 0"], capture_output=True,
            text=True, preexec_fn=lambda: os.sched_setaffinity(0, one))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(", 1 at once", p.stderr)

    def test_sprt_summary_agrees_with_itself(self):
        out, _ = self.run_runner(
            "checkertoe", "-g", "200", "-j", "2", "--seed", "5", "-q",
            "--sprt", "0,50,0.05,0.05", "-o", self.path("sprt.json"),
            "--report", self.path("sprt.html"),
            "-p", ENGINE, "-s", "set level 1", "-p", ENGINE, "-s",
            "set level 0")
        doc = self.results("sprt.json")
        stop = doc["sprt_stop"]
        self.assertEqual(stop["verdict"], "H1")
        self.assertEqual(stop["games"], len(doc["results"]))
        self.assertIn("games 1-200: %d played" % stop["games"], out)
        self.assertIn("LLR %.2f" % stop["llr"], out)
        self.assertIn("pentanomial model", out)
        self.assertIn("H1 accepted (elo >= 50); the match stopped at this "
                      "decision", out)
        self.check_html(self.path("sprt.html"), ["SPRT"])


if __name__ == "__main__":
    unittest.main()
