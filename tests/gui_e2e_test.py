#!/usr/bin/env python3
"""gui_e2e_test.py [ENGINE | --static DIR]: the GUI end to end in headless
Chromium.

Starts the GUI server (scripts/gui, with ENGINE behind it), or with
--static a plain static file server on DIR (the WebAssembly build of make
web, whose page runs the engine in a Web Worker), and Debian's chromium
through chromedriver (tests/gui_browser.py).  No game is named here: the
games come from the engine's list_games and their variants from
option_info, so a new game is tested as soon as the engine has it.

For every game, at 1280x800 and at 400x800: a game by clicks on the board
(a person against the engine, a few milliseconds a move), the layout
measured as the browser lays it out (no text under 11 CSS px, no target
under 24 px, no analysis value over a piece, a label or another value, the
move entry above the fold, nothing wider than the window), the last move
marked, an undo, the analysis drawn on legal moves, the navigation to the
first position and back restoring the board exactly, the final score
equal to a fresh engine's after the page's record, the scoring units
marked.  Then each variant option_info offers, a free-drawn move (a
line of lattice points) refused and accepted, records, clocks and Stop,
the engine dying, the new-game dialog on a phone.  Screenshots of every
game at both sizes go to build/gui-shots/ (GUI_SHOTS overrides; the
static page's to its web/ folder).

Skipped, with a message saying what to install, when chromium or
chromedriver is missing.  As root, Chromium runs with --no-sandbox.
"""

import os
import random
import signal
import subprocess
import sys
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gui_checks  # noqa: E402
from gui_browser import (CHROMIUM, DRIVER, LAYOUT, Browser,  # noqa: E402
                         free_port)
from gui_checks import (SIZES, PageChecks, ask, engine_answers,  # noqa: E402
                        games, quintet, variants)
from gui_server_test import children  # noqa: E402

SHOTS = os.environ.get("GUI_SHOTS") or os.path.join(ROOT, "build",
                                                     "gui-shots")
STATIC = None  # --static DIR: the page and engine as static files


@unittest.skipUnless(CHROMIUM and DRIVER, "chromium or chromedriver is "
                     "missing: apt-get install chromium chromium-driver")
class GuiEndToEnd(PageChecks, unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.shots = SHOTS
        cls.static = STATIC
        os.makedirs(SHOTS, exist_ok=True)
        for name in os.listdir(SHOTS):  # no shot of an earlier run stays
            if name.endswith(".png"):
                os.remove(os.path.join(SHOTS, name))
        port = free_port()
        if STATIC:
            cls.server = subprocess.Popen(
                [sys.executable, "-u", "-m", "http.server", "--bind",
                 "127.0.0.1", "--directory", STATIC, str(port)],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                text=True)
            expect = "Serving HTTP"
        else:
            cls.server = subprocess.Popen(
                [sys.executable, os.path.join(ROOT, "scripts", "gui"),
                 "--no-browser", "--port", str(port), "--engine",
                 gui_checks.ENGINE],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            expect = "serving"
        line = cls.server.stdout.readline()
        if expect not in line:
            raise RuntimeError("the GUI server did not start: %r" % line)
        cls.url = "http://127.0.0.1:%d/" % port
        cls.browser = Browser()

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        cls.server.terminate()
        cls.server.wait(10)

    def tearDown(self):
        # no error on the page's console (the analysis poll's aborted
        # requests when a page is left are no error of the page's)
        errors = [m for m in self.browser.console()
                  if "SEVERE" in m or "Uncaught" in m or "Error" in m]
        errors = [m for m in errors if "/api/" not in m]
        self.assertEqual(errors, [], "console errors")

    # ---- the page's state

    def play_game(self, game, seed, first):
        """The whole of one game's test (FIRST: the first game of
        list_games, which is reviewed and played by keys too)."""
        rng = random.Random(seed)
        self.start(game, {"seed": seed})
        self.check_layout(game + " at the start", shot=game + "-start")
        self.check_rules(game)
        for _ in range(2):
            self.person_move(rng)
        self.check_last_move()
        self.check_undo(rng)
        self.check_illegal_click()
        if first:
            self.check_keys()
        before = self.check_analysis()
        if before:
            self.check_layout(game + " with analysis", shot=game + "-mid")
            self.check_graph()
            self.analysis_off(before)
        self.check_navigation()
        self.finish(game, rng)
        if first:
            self.check_review(game)

    def check_variant(self, game, name, options):
        """A variant: its seats, a move, the layout at both sizes, then
        a move more and the layout with the analysis on."""
        rng = random.Random(3)
        options = dict(options, seed=11)
        players = int(self.info(game, options).get("players", 2))
        self.start(game, options)
        self.assertEqual(len(self.browser.finds("#players tr")), players)
        if "team" in self.info(game, options):
            self.assertIn("team with player", self.text(
                "#players tr[data-player=\"1\"] .extra") or "")
        self.person_move(rng)
        self.check_layout("%s %s" % (game, name),
                          shot="%s-%s" % (game, name))
        self.person_move(rng)
        if self.state()[0] == "person" and self.check_analysis():
            self.check_layout("%s %s with analysis" % (game, name),
                              sizes=SIZES[1:],
                              shot="%s-%s-mid" % (game, name))

    def test_free_move(self):
        """A free move (turn_info's moves free: a line of lattice
        points): a broken one refused with the engine's reason and kept
        to be mended; Clear; then a legal one accepted."""
        b = self.browser
        for game in games():
            for name, opts in variants(game):
                line = "newgame %s %s" % (game, " ".join(
                    "%s=%s" % kv for kv in opts.items()))
                turn = engine_answers([line, "turn_info"])[-1]
                if "\nmoves free" in turn:
                    break
            else:
                continue
            break
        else:
            self.skipTest("no game has a free move")
        self.start(game, dict(opts, seed=10))
        rec = self.record()
        points = b.js("return [...document.querySelectorAll("
                      "'.hit.point')].map(e => e.dataset.name)")
        self.assertGreater(len(points), 10)
        bad = [points[len(points) // 2], points[len(points) // 2 + 1]]
        for p in bad:
            b.click_place(p)
        self.assertEqual(self.text("#builder-text"), "-".join(bad))
        b.click("#builder-play")
        self.wait_for(("person",))
        want = engine_answers(rec + ["play " + "-".join(bad)])[-1]
        self.assertEqual(self.text("#message"), want[1:])
        self.assertEqual(self.text("#builder-text"), "-".join(bad))
        self.check_layout("a refused line", shot=game + "-free")
        b.click("#builder-clear")
        self.free_move(random.Random(1))
        self.assertFalse(b.finds(".hit.point"))

    def test_record(self):
        """A record pasted and loaded replaces the game; a bad one is
        refused with the line and the engine's reason, in the message
        line; copy copies."""
        b = self.browser
        game = games()[0]
        self.start(game, {"seed": 16}, seats=["person"] * int(
            self.info(game, {}).get("players", 2)))
        b.js("document.getElementById('record-box').open = true")
        first = ask("newgame %s seed=21" % game, "history")
        rec = [first]
        for _ in range(2):
            rec.append("play " + self.moves(rec)[0])
        b.type("#record", "\n".join(rec))
        b.click("#load-btn")
        self.wait_for(("person",))
        self.assertEqual(self.record(), rec)
        self.assertEqual(self.text("#record-note"), "loaded 3 lines")
        items = b.js("return [...document.querySelectorAll('#move-list "
                     "button')].map(e => e.textContent)")
        self.assertEqual(len(items), 3)
        self.assertRegex(items[1], r"^1\.P\d " + rec[1][5:])
        # a bad record loads nothing: the game stays, and so does the
        # pasted text, to be mended
        bad = rec + [rec[-1]]
        b.type("#record", "\n".join(bad))
        b.click("#load-btn")
        self.wait_for(("person",))
        want = engine_answers(bad)[-1][1:]
        self.assertEqual(self.text("#message"),
                         "Record line 4: %s (nothing loaded)" % want)
        self.assertEqual(b.js("return document.getElementById('message')"
                              ".className"), "error")
        self.assertEqual(self.text("#record-note"), "")
        self.assertEqual(b.js("return document.getElementById('record')"
                              ".value"), "\n".join(bad))
        b.type("#record", "newgame nosuchgame")
        b.click("#load-btn")
        self.wait_for(("person",))
        self.assertNotIn("list_games", self.text("#message"))
        b.click("#copy-btn")
        self.assertIn(self.text("#record-note"),
                      ("copied", "selected: copy it with Ctrl+C"))
        self.assertEqual(self.record(), rec)

    def test_play_from_here(self):
        """Back two moves, then Play on: the game goes on from there."""
        b = self.browser
        game = games()[0]
        rng = random.Random(5)
        self.start(game, {"seed": 5})
        for _ in range(3):
            self.person_move(rng)
        self.wait_for(("person",))
        rec = self.record()
        k = len(rec) - 3
        b.click('#move-list button[data-ply="%d"]' % k)
        self.wait_until("return document.body.dataset.ply === '%d' && "
                        "document.body.dataset.state !== 'busy'" % k,
                        what="move %d" % k)
        # a click on the board here says where the person is
        b.click_place(b.names(".hit")[0])
        self.assertIn("not the game's position", self.text("#message"))
        self.assertEqual(self.record(), rec)
        b.click("#nav-play")
        self.wait_until("return document.body.dataset.view === 'live'",
                        what="the game")
        self.wait_for(("person", "over"))
        self.assertEqual(self.record()[:k + 1], rec[:k + 1])
        self.assertNotEqual(self.record(), rec)

    def test_clock(self):
        """Under a clock the engine's seat plays on its time and the
        clocks run on the page."""
        rng = random.Random(7)
        self.start(games()[0], {"seed": 14}, clock=("fischer", 4, 0.2))
        self.assertRegex(self.text('#players tr[data-player="1"] .clock'),
                         r"^0:0[34]$")
        for _ in range(3):
            if not self.person_move(rng):
                break
        self.wait_for(("person", "over"))
        self.assertTrue(self.text('#players tr[data-player="2"] .clock'))

    def test_stop(self):
        """Stop ends a long think at once, in a game where the engine
        thinks at its first move (where no book answers it at once)."""
        b = self.browser
        rng = random.Random(7)
        for game in games():
            with quintet.Engine([gui_checks.ENGINE], timeout=60) as e:
                e.request("newgame %s seed=15" % game)
                e.request("set movetime 300")
                e.request("roll")
                t0 = time.monotonic()
                e.request("genmove")
                if time.monotonic() - t0 > 0.25:
                    break
        else:
            self.skipTest("every game's first move is answered at once")
        self.start(game, {"seed": 15}, movetime=60000, level="9",
                   states=("person", "thinking"))
        while self.state()[0] == "person":
            self.person_move(rng)
            time.sleep(0.2)
        self.wait_for(("thinking",))
        time.sleep(0.3)
        t0 = time.monotonic()
        b.click("#stop-btn")
        self.wait_for(("person", "over"), timeout=10)
        self.assertLess(time.monotonic() - t0, 5)
        # the engine's own time from the stop to its answer: within 100 ms
        # in the worker too (the page's refresh after it is the rest)
        stopped = b.js("return document.body.dataset.stopMs")
        self.assertIsNotNone(stopped)
        self.assertLess(int(stopped), 100)

    def test_engine_dies(self):
        """The tab's engine killed: the page says so, and a new engine
        picks the game up from its record."""
        b = self.browser
        rng = random.Random(8)
        game = games()[0]
        self.start(game, {"seed": 17}, seats=["person"] * int(
            self.info(game, {}).get("players", 2)))
        for _ in range(3):
            self.person_move(rng)
        rec = self.record()
        if STATIC:
            # the worker ends as a crash would end it: no more answers,
            # and the error event the browser fires
            b.js("const e = window.quintetPage.game.engine;"
                 "e.worker.terminate(); e.worker.onerror("
                 "{message: 'killed by the test'})")
            b.click("#undo-btn")
            self.wait_for(("dead",))
            self.assertIn("killed by the test", self.text("#dead-text"))
        else:
            engines = children(self.server.pid)
            self.assertTrue(engines, "no engine process under the server")
            for pid in engines:
                os.kill(pid, signal.SIGKILL)
            b.click("#undo-btn")
            self.wait_for(("dead",))
            self.assertIn("killed by signal 9", self.text("#dead-text"))
        b.click("#restart-btn")
        self.wait_until("return document.body.dataset.state !== 'dead'",
                        what="the restart")
        self.wait_for(("person",))
        self.assertEqual(self.record(), rec)
        self.assertTrue(b.finds(".hit.target, #words button.legal"))

    def test_phone_dialog(self):
        """The new-game dialog on a phone: it scrolls up and down only,
        and its texts and controls are large enough."""
        b = self.browser
        b.viewport(400, 800)
        try:
            b.go(self.url)
            self.wait_for(("idle",))
            for game in games():
                b.click('#game-select option[value="%s"]' % game)
                time.sleep(0.3)
                d = b.js("const d = document.getElementById('new-dialog');"
                         "return [d.scrollWidth, d.clientWidth, "
                         "d.getBoundingClientRect().right, innerWidth]")
                self.assertLessEqual(d[0], d[1], game)
                self.assertLessEqual(d[2], d[3], game)
                problems = b.js(LAYOUT)
                self.assertEqual(problems["small_text"] +
                                 problems["small_target"], [], game)
            b.shot(os.path.join(SHOTS, "dialog-400.png"))
        finally:
            b.viewport(*SIZES[0])

    def test_example_page(self):
        """The module example (web/example.html): a game against the
        engine in a worker."""
        if not STATIC:
            self.skipTest("the example runs beside the WebAssembly build")
        b = self.browser
        b.go(self.url + "example.html")
        self.wait_until("return document.querySelectorAll('#moves button')"
                        ".length", what="the example's moves")
        board = self.text("#board")
        b.click("#moves button")
        self.wait_until("return document.querySelectorAll('#moves button')"
                        ".length && document.getElementById('board')"
                        ".textContent !== arguments[0]".replace(
                            "arguments[0]", repr(board)),
                        what="the engine's reply")
        self.assertIn("play", self.text("#status"))


def add_game_tests():
    """A test per game of list_games, and per variant option_info offers
    (named after them, so that a failure names its game)."""
    for k, game in enumerate(games()):
        def test(self, game=game, k=k):
            self.play_game(game, k + 1, k == 0)
        setattr(GuiEndToEnd, "test_game_%s" % game, test)
        for name, opts in variants(game):
            def vtest(self, game=game, name=name, opts=opts):
                self.check_variant(game, name, opts)
            setattr(GuiEndToEnd, "test_variant_%s_%s" % (game, name), vtest)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--static":
        STATIC = os.path.abspath(sys.argv.pop(2))
        sys.argv.pop(1)
        SHOTS = os.path.join(SHOTS, "web")
    elif len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        gui_checks.ENGINE = os.path.abspath(sys.argv.pop(1))
    if not (CHROMIUM and DRIVER):
        print("gui_e2e_test: SKIPPED: chromium or chromedriver is missing "
              "(Debian: apt-get install chromium chromium-driver)")
    else:
        add_game_tests()
    unittest.main(verbosity=2)
