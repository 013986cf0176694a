"""Tests of `scripts/tournament --check` (tournament_check.py) and of the
bot kit (quintet.Bot, scripts/examples/randombot and anygame), run by
tests/check-bots.sh:

  python3 tests/test_check.py ENGINE   (default ./engine)

Every broken player in tests/players/ breaks the protocol in one way; the
check must fail it and name that way.  Our engine and the example bot
must pass, and the example bot must play whole matches through the
runner.
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RUNNER = os.path.join(ROOT, "scripts", "tournament")
PLAYERS = os.path.join(HERE, "players")
RANDOMBOT = os.path.join(ROOT, "scripts", "examples", "randombot")
ANYGAME = os.path.join(ROOT, "scripts", "examples", "anygame")
ENGINE = os.path.join(ROOT, "engine")

# player: what the report must say about it
BROKEN = {
    "illegal-move": "FAIL  checkertoe, seat 1 of 2: illegal move zz99",
    "exits": "FAIL  checkertoe, seat 1 of 2: exited with status 3 during "
             "genmove",
    "silent": "FAIL  checkertoe, seat 1 of 2: lost on time: no move within",
    "slow": "FAIL  checkertoe, seat 2 of 2: lost on time",
    "malformed": "answered genmove with 'my move is c3', which is not a "
                 "response",
    "wrong-id": "FAIL  checkertoe, seat 1 of 2: answered genmove (id 7) "
                "with id 8",
    "crlf": "FAIL  framing: the answer to protocol_version: lines end in "
            "CR LF",
    "no-quit": "FAIL  quit is answered but the program is still running",
    "accepts-unknown": "was answered with `=`: an unknown command must "
                       "fail with `?`",
}


def check(cmd, *args):
    p = subprocess.run([sys.executable, RUNNER, "--check", cmd, "--referee",
                        ENGINE, "--tc", "1+0.02", "-t", "5"] + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


class Check(unittest.TestCase):
    def test_broken_players(self):
        for bot, want in BROKEN.items():
            with self.subTest(bot=bot):
                code, out = check("%s %s" % (os.path.join(PLAYERS, bot),
                                             ENGINE), "checkertoe")
                self.assertEqual(code, 1, out)
                self.assertIn(want, out)
                self.assertRegex(out, r"check: \d+ problems?\n\Z")

    def test_our_engine_passes(self):
        code, out = check(ENGINE)
        self.assertEqual(code, 0, out)
        self.assertNotIn("FAIL", out)
        # every game it lists, in every seat
        games = subprocess.run([ENGINE, "-c", "list_games"],
                               stdout=subprocess.PIPE, text=True,
                               timeout=60).stdout[2:].split("\n")
        for game in [g.split(" ")[0] for g in games if g.strip()]:
            self.assertIn("ok    %s, seat 2 of 2: over" % game, out)
        self.assertIn("check: no problems found", out)

    def test_randombot_passes(self):
        code, out = check("%s %s" % (RANDOMBOT, ENGINE), "--all-players")
        self.assertEqual(code, 0, out)
        self.assertIn("ok    tiptoe, seat 1 of 2: over", out)
        # every number of players, in every seat
        for k in (3, 4):
            for seat in range(1, k + 1):
                self.assertIn("ok    takeitaway players=%d, seat %d of %d: "
                              "over" % (k, seat, k), out)
        self.assertIn("ok    abstractoe players=1, seat 1 of 1: over", out)
        self.assertNotIn("checkertoe players=", out)

    def test_randombot_plays_matches(self):
        with tempfile.TemporaryDirectory() as d:
            res = os.path.join(d, "r.json")
            for game in ("takebacktoe", "abstractoe"):
                p = subprocess.run(
                    [sys.executable, RUNNER, game, "-g", "4", "--seed", "5",
                     "-q", "-j", "2", "--referee", ENGINE, "-o", res,
                     "-p", "%s %s" % (RANDOMBOT, ENGINE),
                     "-p", ENGINE, "-s", "set level 0"],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                    text=True, timeout=300)
                self.assertEqual(p.returncode, 0, p.stderr)
                with open(res) as f:
                    results = json.load(f)["results"]
                self.assertEqual(len(results), 4)
                for r in results:
                    self.assertNotIn("forfeit", r, r)
                    self.assertTrue(r["status"].startswith("over"), r)

    def test_anygame_plays_every_game_to_the_end(self):
        """scripts/examples/anygame, a client that knows no game, plays
        every game and variant to its end (rolls and Abs-Trac-Toe's drawn
        line included) and reports the scoring units, whose points add up
        to each player's score (but in team games, where a team's units
        are filed under its first player)."""
        p = subprocess.run([ANYGAME, ENGINE, "--seed", "3"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        names = subprocess.run([ENGINE, "-c", "list_games"],
                               stdout=subprocess.PIPE, text=True,
                               timeout=60).stdout[2:].split("\n")
        played = {}
        for line in p.stdout.splitlines():
            label, rest = line.split(": ", 1)
            if rest.startswith("refused"):
                continue
            self.assertTrue(rest.startswith("over "), line)
            played[label] = rest
            score = [float(v) for v in
                     rest.split("score ")[1].split(";")[0].split()]
            sums = [0.0] * len(score)
            for unit in rest.split("units: ")[1].split("; "):
                if unit != "none":
                    w = unit.split()
                    sums[int(w[2]) - 1] += float(w[3].strip("()"))
            if "teams=1" not in label:
                self.assertEqual(sums, score, line)
        for name in filter(None, (n.split(" ")[0] for n in names)):
            self.assertIn(name, played)
        for variant in ("takebacktoe", "takeitaway players=4",
                        "abstractoe players=1", "abstractoe draw=1",
                        "abstractoe players=4 teams=1", "tiptoe hex=1",
                        "checkertoe exchange=1"):
            self.assertIn(variant, played)
        self.assertTrue(any(" (" in v and "units: none" not in v
                            for k, v in played.items()
                            if k.startswith("checkertoe")))


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        ENGINE = os.path.abspath(sys.argv.pop(1))
    unittest.main()
