"""Tests of the protocol client scripts/quintet (protocol.md, "Framing",
"Thinking while reading", "analyze"), run by tests/check-quintet.sh:

  python3 tests/test_quintet.py ENGINE   (default ./engine)

Against ENGINE for what the engine does, and against small programs
written here for what a broken one does (wrong ids, garbage, silence,
death), which the client must report as ProtocolError of the right kind.
"""

import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import quintet  # noqa: E402

ENGINE = os.path.abspath(os.path.join(ROOT, "engine"))

# A program that answers every command with `=ID` and an empty text,
# writes each line it reads to the file LOG, and misbehaves on request:
# MODE "ok", "wrongid" (answers id+1), "noid" (answers `= `), "garbage"
# (answers genmove with a sentence), "silent" (genmove is never answered),
# "exit" (exits with status 3 at genmove), "crlf" (CR LF line ends).
TOY = r'''
import sys
mode, log = sys.argv[1], sys.argv[2]
for line in sys.stdin:
    with open(log, "a") as f:
        f.write(line)
    w = line.split()
    cid = w[0] if w and w[0].isdigit() else ""
    cmd = w[1 if cid else 0] if w else ""
    if cid and mode == "wrongid":
        cid = str(int(cid) + 1)
    if mode == "noid":
        cid = ""
    end = "\r\n" if mode == "crlf" else "\n"
    if cmd == "genmove":
        if mode == "garbage":
            sys.stdout.write("my move is c3\n\n")
        elif mode == "silent":
            sys.stdout.flush()
            continue
        elif mode == "exit":
            sys.stderr.write("toy: giving up\n")
            sys.exit(3)
        else:
            sys.stdout.write("=%s c3%s%s" % (cid, end, end))
    elif cmd == "quit":
        sys.stdout.write("=%s %s%s" % (cid, end, end))
        sys.stdout.flush()
        break
    else:
        sys.stdout.write("=%s %s%s" % (cid, end, end))
    sys.stdout.flush()
'''


class Toy:
    def __init__(self, mode):
        self.dir = tempfile.TemporaryDirectory()
        self.script = os.path.join(self.dir.name, "toy.py")
        self.log = os.path.join(self.dir.name, "log")
        with open(self.script, "w") as f:
            f.write(TOY)
        self.argv = [sys.executable, self.script, mode, self.log]

    def lines(self):
        with open(self.log) as f:
            return [l.split(None, 1)[1].rstrip("\n") for l in f]


class Parsing(unittest.TestCase):
    def test_info_line(self):
        line = ("info move c3 visits 27994 value 0.6633 order 0 pv c3 c4 b3 "
                "info move c4 visits 3 value 0 proven loss order 1 pv c4")
        got = quintet.parse_info(line)
        self.assertEqual(got, [
            {"move": "c3", "visits": 27994, "value": 0.6633, "order": 0,
             "pv": ["c3", "c4", "b3"]},
            {"move": "c4", "visits": 3, "value": 0.0, "proven": "loss",
             "order": 1, "pv": ["c4"]}])

    def test_info_line_broken(self):
        for bad in ("move c3 visits 1", "info visits 1 value 0.5",
                    "info move c3 visits x", "info move c3 visits"):
            with self.assertRaises(quintet.ProtocolError, msg=bad):
                quintet.parse_info(bad)

    def test_answer(self):
        a = quintet.parse_answer(["=12 a1 b1"])
        self.assertEqual((a.ok, a.id, a.text), (True, 12, "a1 b1"))
        self.assertEqual(a.strict_problems(12), [])
        a = quintet.parse_answer(["?3 illegal move: no", "more"])
        self.assertEqual((a.ok, a.id, a.text), (False, 3,
                                                "illegal move: no\nmore"))
        a = quintet.parse_answer(["= ", "line 1"])
        self.assertEqual(a.text, "line 1")
        self.assertTrue(a.strict_problems(1))
        self.assertTrue(quintet.parse_answer(["=1"]).strict_problems(1))
        self.assertTrue(quintet.parse_answer(["=1 \r"]).strict_problems(1))
        with self.assertRaises(quintet.ProtocolError):
            quintet.parse_answer(["hello"])

    def test_split_and_options(self):
        self.assertEqual(quintet.split_command("'./my engine' -c 'set x 1'"),
                         ["./my engine", "-c", "set x 1"])
        self.assertEqual(quintet.format_options(
            {"size": 5, "float": True, "exchange": False}),
            ["size=5", "float=1", "exchange=0"])


class WithEngine(unittest.TestCase):
    def setUp(self):
        self.e = quintet.Engine([ENGINE], timeout=30)
        self.addCleanup(self.e.close)

    def test_game(self):
        e = self.e
        self.assertEqual(e.command("protocol_version"), "2")
        e.newgame("checkertoe", seed=7, first=1)
        self.assertEqual(e.status(), "play 1")
        self.assertEqual(len(e.moves()), 25)
        e.play("c3")
        self.assertEqual(e.status(), "play 2")
        self.assertEqual(e.score(), [0, 0])
        self.assertEqual(e.history(), [
            "newgame checkertoe seed=7 first=1 size=5 float=0 exchange=0",
            "play c3"])
        pos = e.position()
        self.assertTrue(pos.startswith("checkertoe "), pos)
        e.undo()
        self.assertEqual(e.history()[1:], [])

    def test_error_keeps_state(self):
        e = self.e
        e.newgame("tiptoe size=5")
        e.play("c3")
        before = e.position()
        with self.assertRaises(quintet.EngineError) as cm:
            e.play("z9")
        self.assertTrue(cm.exception.message.startswith("illegal move"),
                        cm.exception.message)
        self.assertEqual(cm.exception.command, "play z9")
        self.assertEqual(e.position(), before)
        with self.assertRaises(quintet.EngineError):
            e.newgame("nosuchgame")
        self.assertEqual(e.position(), before)

    def test_roll(self):
        e = self.e
        games = dict(e.list_games())
        self.assertIn("takeitaway", games)
        # A game that rolls: find the one whose status asks for a roll.
        for name in games:
            e.newgame(name, seed=3)
            if e.status().startswith("roll"):
                break
        else:
            self.skipTest("no game starts with a roll")
        v = e.roll()
        self.assertIsInstance(v, int)
        e.undo()
        self.assertEqual(e.roll(v), v)

    def test_genmove_settings_for_one_call(self):
        e = self.e
        e.newgame("checkertoe", seed=7, first=1)
        m = e.genmove(playouts=300)
        self.assertIn(m, "a1 b1 c1 d1 e1 a2 b2 c2 d2 e2 a3 b3 c3 d3 e3 "
                      "a4 b4 c4 d4 e4 a5 b5 c5 d5 e5".split())
        self.assertEqual(e.history()[-1], "play " + m)
        self.assertEqual(e.settings["playouts"], "0")
        e.set("playouts", 200)
        h = e.hint(playouts=300)
        self.assertEqual(e.settings["playouts"], "200")
        self.assertEqual(h, e.hint(playouts=300))  # deterministic

    def test_analyze_and_break(self):
        e = self.e
        e.newgame("checkertoe", seed=7, first=1)
        seen = 0
        for cands in e.analyze(20):
            self.assertTrue(cands)
            for k in ("move", "visits", "value", "order", "pv"):
                self.assertIn(k, cands[0])
            self.assertEqual([c["order"] for c in cands],
                             list(range(len(cands))))
            seen += 1
            if seen == 2:
                break
        # the stream is closed and the next answer is the next command's
        self.assertEqual(e.status(), "play 1")
        self.assertEqual(e._buf, b"")

    def test_analyze_close_reads_everything(self):
        e = self.e
        e.newgame("checkertoe", seed=7, first=1)
        with e.analyze(10) as a:
            self.assertTrue(a.get(10))
            time.sleep(0.1)  # lines pile up unread
        self.assertTrue(a.done)
        self.assertEqual(e.command("name"), "quintet")
        # a command sent while the stream runs ends it first
        a = e.analyze(10)
        self.assertEqual(e.moves()[:2], ["a1", "b1"])
        self.assertTrue(a.done)
        self.assertIsNone(a.get(0.1))

    def test_analyze_proven(self):
        e = self.e
        e.newgame("checkertoe first=1 size=5 float=0 exchange=0 "
                  "board=oxx.x/xxoxo/oxxoo/.xooo/oxx..")
        with e.analyze(30) as a:
            for _ in range(300):  # until the solver settles both
                cands = a.get(10)
                proven = {c["move"]: c.get("proven") for c in cands}
                if proven.get("d1") and proven.get("a2"):
                    break
        self.assertEqual(proven.get("d1"), "draw", cands)
        self.assertEqual(proven.get("a2"), "loss", cands)

    def test_analyze_fails(self):
        e = self.e
        e.newgame("checkertoe", seed=7, first=1)
        with self.assertRaises(quintet.EngineError):
            e.analyze(5)  # below 10 ms
        self.assertEqual(e.status(), "play 1")

    def test_stderr_pipe(self):
        with quintet.Engine([ENGINE], stderr=quintet.PIPE) as e:
            e.newgame("checkertoe", seed=7, first=1)
            e.genmove(playouts=100)
            self.assertTrue(e.last_search().startswith("ai: "),
                            e.stderr_lines())

    def test_string_command_and_with(self):
        # a path with a space, quoted as a shell would
        d = tempfile.TemporaryDirectory()
        self.addCleanup(d.cleanup)
        path = os.path.join(d.name, "my engine")
        os.symlink(ENGINE, path)
        with quintet.Engine("%s -" % shlex.quote(path)) as e:
            self.assertEqual(e.name(), "quintet")
            proc = e.proc
        self.assertEqual(proc.returncode, 0)
        self.assertFalse(e.alive())


class Discovery(unittest.TestCase):
    def setUp(self):
        self.e = quintet.Engine([ENGINE], timeout=30)
        self.addCleanup(self.e.close)

    def test_game_info(self):
        e = self.e
        info = e.game_info("takebacktoe")
        self.assertEqual((info["game"], info["players"]),
                         ("takebacktoe", 2))
        self.assertEqual(info["roll"], {"faces": [1, 2, 3, 4, 5, 6],
                                        "weights": [1] * 6})
        info = e.game_info("abstractoe", players=4, teams=True)
        self.assertEqual(info["team"], [[1, 3], [2, 4]])
        self.assertEqual([p["mark"] for p in info["player"]],
                         ["X", "O", "#", "@"])
        self.assertNotIn("roll", info)
        e.newgame("checkertoe", seed=1, first=1)
        info = e.game_info()
        self.assertEqual(info["title"], "Tic-Tac-Toe On A Checkerboard")
        self.assertEqual(info["player"][0], {"number": 1, "colour": "red",
                                             "mark": "X"})
        with self.assertRaises(quintet.EngineError):
            e.game_info("nosuchgame")

    def test_turn_info_and_scoring(self):
        e = self.e
        e.newgame("checkertoe", seed=1, first=1)
        self.assertEqual(e.scoring(), [])
        for m in "c3 a1 c4 a2 c5".split():
            e.play(m)
        t = e.turn_info()
        self.assertEqual((t["phase"], t["step"], t["of"], t["player"]),
                         ("place", 6, 24, 2))
        self.assertTrue(t["prompt"].startswith("player 2"), t)
        self.assertEqual(e.scoring(), [{"kind": "line", "player": 1,
                                        "points": 1,
                                        "cells": ["c3", "c4", "c5"]}])
        e.newgame("takeitaway", players=3, seed=2)
        t = e.turn_info()
        self.assertEqual((t["phase"], t["also"]), ("remove", ["drop"]))

    def test_contents(self):
        e = self.e
        e.newgame("checkertoe", seed=1, first=1)
        e.play("c3")
        c = e.contents()
        self.assertEqual(c["at"], {"c3": {"owner": 1, "tags": []}})
        self.assertEqual(c["hand"], [{"side": 1, "count": 11},
                                     {"side": 2, "count": 12}])
        e.newgame("abstractoe", players=2, draw=True, seed=2)
        c = e.contents()
        self.assertEqual(e.turn_info()["moves"], "free")
        self.assertEqual({l["kind"] for l in c["line"]}, {"cut"})
        self.assertEqual(len(c["area"]), 9)
        self.assertTrue(all(isinstance(x, (int, float))
                            for p in c["area"]["1"] for x in p))

    def test_option_info_and_variants(self):
        e = self.e
        o = e.option_info("tiptoe", hex=True)
        self.assertEqual((o["size"]["min"], o["size"]["max"]), (2, 13))
        self.assertEqual(o["diagonal"]["values"], ["0"])
        self.assertEqual(o["hex"]["excludes"], ["diagonal"])
        with self.assertRaises(quintet.EngineError):
            e.option_info("tiptoe", hex=True, size=20)
        # every variant it offers, for every game, starts a game
        for name, _ in e.list_games():
            vs = e.variants(name)
            self.assertEqual(vs[0], "")
            for v in vs:
                e.command("newgame %s %s" % (name, v))

    def test_moves_cut(self):
        e = self.e
        board = "".join("." if x % 2 == 0 and y % 2 == 0 and (x or y)
                        else "w" for y in range(7, -1, -1)
                        for x in range(8))
        e.newgame("takeitaway", plain=True, board=board)
        m = e.moves()
        self.assertTrue(m.cut)
        self.assertNotIn("...", m)
        e.newgame("checkertoe", seed=1)
        self.assertFalse(e.moves().cut)


class Examples(unittest.TestCase):
    def test_selfplay(self):
        # scripts/examples/selfplay: a whole game with dice, the same for
        # the same seed, whose record replays to the status it printed
        cmd = [sys.executable, os.path.join(ROOT, "scripts", "examples",
                                            "selfplay"), ENGINE,
               "takebacktoe", "seed=2"]
        out = subprocess.run(cmd, stdout=subprocess.PIPE, text=True,
                             timeout=120, check=True).stdout
        again = subprocess.run(cmd, stdout=subprocess.PIPE, text=True,
                               timeout=120, check=True).stdout
        self.assertEqual(out, again)
        lines = out.splitlines()
        self.assertTrue(lines[-1].startswith("# over "), lines[-1])
        self.assertTrue(any(l.startswith("roll ") for l in lines))
        with quintet.Engine([ENGINE]) as e:
            for line in lines[:-1]:
                e.command(line)
            self.assertEqual("# " + e.status(), lines[-1])


def thrown_game():
    """A checkertoe game in which one side throws away a won position:
    the engine plays both sides (300 playouts a move) until analyze shows
    a move proven to win beside one proven not to; that one is played,
    and the engine finishes the game.  Returns (the record, the ply of
    the thrown move)."""
    with quintet.Engine([ENGINE], timeout=60) as e:
        e.newgame("checkertoe", seed=7, first=1)
        thrown = None
        while not e.status().startswith("over"):
            ply = len(e.history())
            if thrown is None and len(e.moves()) <= 12:
                with e.analyze(50) as a:
                    cands = a.get(30)
                    for _ in range(5):  # let the solver settle more
                        cands = a.get(1) or cands
                proven = {c["move"]: c.get("proven") for c in cands}
                bad = [m for m, p in proven.items() if p in ("draw", "loss")]
                if "win" in proven.values() and bad:
                    e.play(bad[0])
                    thrown = ply
                    continue
            e.genmove(playouts=300)
        return e.history(), thrown


class Review(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.record, cls.thrown = thrown_game()

    def test_marks_the_thrown_move(self):
        self.assertIsNotNone(self.thrown, "no won position was thrown")
        with quintet.Engine([ENGINE], stderr=quintet.PIPE) as e:
            got = quintet.review(e, self.record)
        by_ply = {x["ply"]: x for x in got}
        self.assertEqual(len(got), len(self.record) - 1)
        x = by_ply[self.thrown]
        self.assertEqual(x["command"], self.record[self.thrown])
        self.assertEqual(x["proven_before"], "win", x)
        self.assertIn(x["proven_after"], ("draw", "loss"), x)
        self.assertTrue(x["mistake"], x)
        self.assertNotEqual(x.get("best"), None)
        self.assertGreater(x["before"], x["after"])
        # the best move is a win: played instead, it keeps the result
        with quintet.Engine([ENGINE], stderr=quintet.PIPE) as e:
            alt = self.record[:self.thrown] + ["play " + x["best"]]
            last = quintet.review(e, alt)[-1]
        self.assertEqual((last["proven_after"], last["mistake"]),
                         ("win", False), last)
        # moves that keep a proven result are not mistakes
        kept = [y for y in got if y.get("proven_before") and
                y["proven_before"] == y.get("proven_after")]
        self.assertTrue(kept)
        self.assertFalse(any(y["mistake"] for y in kept))

    def test_script_json_and_text(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
            f.write("\n".join(self.record) + "\n")
            f.flush()
            script = os.path.join(ROOT, "scripts", "review")
            js = subprocess.run([sys.executable, script, "--engine", ENGINE,
                                 "--json", f.name], stdout=subprocess.PIPE,
                                text=True, timeout=300, check=True).stdout
            text = subprocess.run([sys.executable, script, "--engine",
                                   ENGINE, f.name], stdout=subprocess.PIPE,
                                  text=True, timeout=300, check=True).stdout
        entries = json.loads(js)
        with quintet.Engine([ENGINE], stderr=quintet.PIPE) as e:
            self.assertEqual(entries, quintet.review(e, self.record))
        line = [l for l in text.splitlines()
                if l.split()[:1] == [str(self.thrown)]][0]
        self.assertIn("MISTAKE", line)
        self.assertIn("(win) -> ", line)
        n = sum(1 for x in entries if x.get("mistake"))
        self.assertTrue(text.rstrip().endswith("%d mistake%s" %
                                               (n, "" if n == 1 else "s")))

    def test_solo_and_only_moves(self):
        # the solo puzzle's values are points, and its last moves (an
        # only move is not searched) are valued by the points they end at
        with quintet.Engine([ENGINE], stderr=quintet.PIPE) as e:
            e.newgame("abstractoe", players=1, seed=3)
            while not e.status().startswith("over"):
                e.genmove(playouts=200)
            record, points = e.history(), e.score()[0]
            got = quintet.review(e, record)
        last = got[-1]
        self.assertEqual((last["after"], last["proven_after"]),
                         (float(points), "%g" % points), last)
        self.assertEqual(got[-2]["before"], float(points), got[-2])
        self.assertGreater(points, 1)

    def test_parse_search_line(self):
        from quintet.review import parse_search_line
        self.assertEqual(parse_search_line("ai: c3 from the book (value 1)"),
                         ("c3", 1.0, "win"))
        self.assertEqual(parse_search_line(
            "ai: a4 after 85179 playouts in 132 ms (643621/s), 95120 nodes;"
            " proven; solved (68498 nodes); proven draw; value 0.776; line "
            "a4 c1"), ("a4", 0.5, "draw"))
        self.assertEqual(parse_search_line(
            "ai: a4 after 10 playouts in 1 ms (1/s), 9 nodes; value 0.6; "
            "line a4"), ("a4", 0.6, None))


class Broken(unittest.TestCase):
    def engine(self, mode, **kw):
        toy = Toy(mode)
        self.addCleanup(toy.dir.cleanup)
        e = quintet.Engine(toy.argv, **kw)
        self.addCleanup(e.close)
        return e, toy

    def test_ids_sent(self):
        e, toy = self.engine("ok")
        e.newgame("tiptoe", size=5, diagonal=True)
        self.assertEqual(e.genmove(playouts=7), "c3")
        with open(toy.log) as f:
            ids = [l.split()[0] for l in f]
        self.assertEqual(ids, [str(i) for i in range(1, len(ids) + 1)])
        self.assertEqual(toy.lines()[:2], [
            "newgame tiptoe size=5 diagonal=1", "list_settings"])

    def test_wrong_id(self):
        e, _ = self.engine("wrongid", timeout=5)
        with self.assertRaises(quintet.ProtocolError) as cm:
            e.command("name")
        self.assertEqual(cm.exception.kind, "malformed")
        self.assertIn("id 2", str(cm.exception))
        self.assertFalse(e.alive())

    def test_no_id(self):
        e, _ = self.engine("noid", timeout=5)
        with self.assertRaises(quintet.ProtocolError) as cm:
            e.command("name")
        self.assertIn("no id", str(cm.exception))

    def test_garbage(self):
        e, _ = self.engine("garbage", timeout=5)
        with self.assertRaises(quintet.ProtocolError) as cm:
            e.genmove()
        self.assertEqual(cm.exception.kind, "malformed")
        self.assertIn("not a response", str(cm.exception))

    def test_silent(self):
        e, _ = self.engine("silent", timeout=0.3)
        t0 = time.monotonic()
        with self.assertRaises(quintet.ProtocolError) as cm:
            e.genmove()
        self.assertEqual(cm.exception.kind, "timeout")
        self.assertIn("no answer to genmove within 0.3 s",
                      str(cm.exception))
        self.assertLess(time.monotonic() - t0, 10)

    def test_exit(self):
        e, _ = self.engine("exit", stderr=quintet.PIPE, timeout=10)
        with self.assertRaises(quintet.ProtocolError) as cm:
            e.genmove()
        self.assertEqual((cm.exception.kind, cm.exception.code),
                         ("exited", 3))
        self.assertIn("exited with status 3 during genmove",
                      str(cm.exception))
        self.assertIn("toy: giving up", str(cm.exception))

    def test_crlf(self):
        e, _ = self.engine("crlf", timeout=5)
        self.assertEqual(e.genmove(), "c3")
        a = e.request("name")
        self.assertTrue(a.ok)
        self.assertIn("lines end in CR LF, not LF", a.strict_problems(a.id))

    def test_no_program(self):
        with self.assertRaises(quintet.ProtocolError) as cm:
            quintet.Engine(["/nonexistent/engine"])
        self.assertEqual(cm.exception.kind, "start")


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        ENGINE = os.path.abspath(sys.argv.pop(1))
    unittest.main()
