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
import quintet  # noqa: E402
from gui_browser import (CHROMIUM, DRIVER, LAYOUT, Browser,  # noqa: E402
                         free_port)
from gui_server_test import children  # noqa: E402

ENGINE = os.path.abspath(os.environ.get("ENGINE") or
                         os.path.join(ROOT, "engine"))
SHOTS = os.environ.get("GUI_SHOTS") or os.path.join(ROOT, "build",
                                                     "gui-shots")
MOVETIME = 5  # ms a move for the engine's seats: quick games
STATIC = None  # --static DIR: the page and engine as static files
SIZES = ((1280, 800), (400, 800))
CLICKED_MOVES = 10  # a person's moves by clicks, then the engine plays on


def engine_answers(lines):
    """Runs LINES through a fresh engine; returns its answers' texts (with
    '=' or '?' kept)."""
    with quintet.Engine([ENGINE], timeout=60) as e:
        return [("=" if ok else "?") + text
                for ok, text in (e.request(line) for line in lines)]


def ask(*lines):
    """The last answer's text to LINES in a fresh engine (it must
    succeed)."""
    a = engine_answers(list(lines))[-1]
    assert a.startswith("="), (lines, a)
    return a[1:]


def games():
    return [l.split()[0] for l in ask("list_games").split("\n") if l.strip()]


def specs(text):
    """option_info's lines: key -> {word: value}, values as a list."""
    out = {}
    for line in text.split("\n"):
        w = line.split()
        if len(w) < 3:
            continue
        s = {"type": w[2], "requires": []}
        i = 3
        while i < len(w):
            if w[i] == "values":
                j = i + 1
                while j < len(w) and w[j] not in ("default", "min", "max",
                                                  "value", "requires",
                                                  "excludes", "pattern",
                                                  "example"):
                    j += 1
                s["values"] = w[i + 1:j]
                i = j
            elif w[i] == "requires":
                s["requires"].append(w[i + 1])
                i += 2
            elif i + 1 < len(w):
                s[w[i]] = w[i + 1]
                i += 2
            else:
                i += 1
        out[w[0]] = s
    return out


def variants(game):
    """The variants to try of GAME, from option_info: each on/off option
    turned on (with what it requires), and the fewest and the most
    players where that may be chosen. [(name, {key: value})]."""
    a = engine_answers(["option_info " + game])[-1]
    if not a.startswith("="):
        return []
    out = []
    for key, s in specs(a[1:]).items():
        if s["type"] == "bool":
            opts = dict(r.split("=", 1) for r in s["requires"])
            if "1" not in s.get("values", ["0", "1"]) and not opts:
                continue
            opts[key] = "1"
            out.append((key, opts))
        elif key == "players" and "min" in s and s["min"] != s["max"]:
            for n in (s["min"], s["max"]):
                if n != s.get("default"):
                    out.append(("players" + n, {"players": n}))
    return out


@unittest.skipUnless(CHROMIUM and DRIVER, "chromium or chromedriver is "
                     "missing: apt-get install chromium chromium-driver")
class GuiEndToEnd(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
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
                 "--no-browser", "--port", str(port), "--engine", ENGINE],
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

    def state(self):
        return self.browser.js("return [document.body.dataset.state, "
                               "document.body.dataset.status || '']")

    def wait_for(self, states, timeout=30):
        """Waits until the page's state is one of STATES; returns it."""
        deadline = time.monotonic() + timeout
        while True:
            st, status = self.state()
            if st in states:
                return st, status
            if st == "dead" and "dead" not in states:
                self.fail("the engine died: %s" % self.text("#dead-text"))
            if time.monotonic() > deadline:
                self.fail("the page stayed %r (status %r), waiting for %r; "
                          "message: %s" % (st, status, states,
                                           self.text("#message")))
            time.sleep(0.02)

    def wait_until(self, script, timeout=20, what="a condition"):
        deadline = time.monotonic() + timeout
        while not self.browser.js(script):
            if time.monotonic() > deadline:
                self.fail("timed out waiting for %s" % what)
            time.sleep(0.03)

    def text(self, css):
        return self.browser.js(
            "const e = document.querySelector(arguments[0]);"
            "return e ? e.textContent : null", css)

    def record(self):
        return self.browser.js(
            "return document.getElementById('record').value").split("\n")

    def moves(self, record):
        a = engine_answers(record + ["moves"])
        return [m for m in a[-1][1:].split() if m != "..."]

    def board(self):
        """The board's drawing, as the page has it."""
        return self.browser.js("return document.getElementById('board')"
                               ".innerHTML")

    # ---- starting a game

    def start(self, game, options=None, seats=None, clock=None,
              movetime=MOVETIME, level="2", states=("person", "over")):
        """Fills the new-game dialog by hand and starts the game; SEATS
        defaults to a person and the engine in every other seat; CLOCK is
        (kind, main, increment)."""
        b = self.browser
        b.go(self.url)
        self.wait_for(("idle",))
        self.assertTrue(b.js("return document.getElementById("
                             "'new-dialog').open"))
        b.click('#game-select option[value="%s"]' % game)
        for key, value in (options or {}).items():
            self.wait_until("return document.getElementById(arguments[0])"
                            .replace("arguments[0]", repr("opt-" + key)),
                            what="the option " + key)
            tag, kind = b.js("const e = document.getElementById("
                             "arguments[0]); return [e.tagName, e.type]",
                             "opt-" + key)
            if kind == "checkbox":
                # allowed once option_info has heard the options before
                self.wait_until("return !document.getElementById(%r)"
                                ".disabled" % ("opt-" + key), timeout=5,
                                what="the option %s allowed" % key)
                if value in ("1", True) and not b.js(
                        "return document.getElementById(arguments[0])"
                        ".checked", "opt-" + key):
                    b.click("#opt-" + key)
            elif tag == "SELECT":
                b.click('#opt-%s option[value="%s"]' % (key, value))
            else:
                b.type("#opt-" + key, str(value))
            time.sleep(0.05)
        players = int(self.info(game, options).get("players", 2))
        seats = seats or ["person"] + ["engine"] * (players - 1)
        # the seats come from game_info with the options chosen
        deadline = time.monotonic() + 10
        while len(b.finds(".seat")) != len(seats):
            if time.monotonic() > deadline:
                self.fail("the dialog shows %d seats, not %d" % (
                    len(b.finds(".seat")), len(seats)))
            time.sleep(0.02)
        # the dialog speaks to a person: no engine types, levels in words
        words = b.js("return [...document.querySelectorAll('#new-dialog "
                     "label, #new-dialog option')].map(e => e.textContent)")
        for w in words:
            self.assertNotRegex(w, r"\b(bool|int|enum|string)\b|"
                                r"9223372036854775807|^level \d$", w)
        # every seat's engine quick (a person's too: the engine may take
        # the seat over to finish the game)
        for p, kind in enumerate(seats, 1):
            b.click('[data-seat="%d"] option[value="engine"]' % p)
            b.type('[data-movetime="%d"]' % p, str(movetime))
            b.click('[data-level="%d"] option[value="%s"]' % (p, level))
            b.click('[data-seat="%d"] option[value="%s"]' % (p, kind))
        if clock:
            b.click('#clock-kind option[value="%s"]' % clock[0])
            b.type("#clock-main", str(clock[1]))
            if clock[0] == "fischer":
                b.type("#clock-inc", str(clock[2]))
        b.click("#new-start")
        return self.wait_for(states)

    def info(self, game, options):
        a = ask("game_info " + game + "".join(
            " %s=%s" % kv for kv in (options or {}).items()))
        out = {}
        for line in a.split("\n"):
            w = line.split(None, 1)
            if len(w) == 2 and w[0] not in out:
                out[w[0]] = w[1]
        return out

    # ---- checks

    def check_layout(self, where, sizes=SIZES, shot=None):
        """The layout at each size: no problem LAYOUT finds; a screenshot
        of each (SHOT-WIDTH.png)."""
        b = self.browser
        for w, h in sizes:
            b.viewport(w, h)
            # drawn again for the new size
            self.wait_until("return document.body.dataset.drawnFor === "
                            "'%dx%d'" % (w, h), what="the page drawn again")
            time.sleep(0.05)
            problems = b.js(LAYOUT)
            if shot:
                b.shot(os.path.join(SHOTS, "%s-%d.png" % (shot, w)))
            found = {k: v for k, v in problems.items() if v}
            if found:
                b.shot(os.path.join(SHOTS, "problem-%s-%d.png" % (
                    where.replace(" ", "-"), w)))
            self.assertEqual(found, {}, "%s at %dx%d" % (where, w, h))
        b.viewport(*SIZES[0])
        self.wait_until("return document.body.dataset.drawnFor === "
                        "'%dx%d'" % SIZES[0], what="the page drawn again")

    def check_last_move(self):
        """The last move marked: on the board where it names places, and
        in words with who made it."""
        rec = self.record()
        if len(rec) < 2:
            return
        last = rec[-1]
        said = self.text("#last-move-text")
        self.assertIn(last.replace("play ", "").replace("roll ", ""), said)
        self.assertRegex(said, r"player \d")
        if last.startswith("play ") and self.browser.js(
                "return [...document.querySelectorAll('.hit')].some(h => "
                "arguments[0].split(/[^a-z0-9]/).includes(h.dataset.name))",
                last[5:]):
            self.assertTrue(self.browser.finds("#last-move .last"),
                            "the last move %r is not marked" % last)
            self.assertEqual(self.browser.js(
                "return document.getElementById('last-move')"
                ".dataset.move"), last[5:])

    def check_rules(self, shot):
        """The rules panel opens over the game and closes again."""
        b = self.browser
        b.click("#rules-btn")
        self.assertTrue(b.js("return document.getElementById("
                             "'rules-dialog').open"))
        self.assertGreater(len(self.text("#rules-body")), 80)
        b.shot(os.path.join(SHOTS, shot + "-rules.png"))
        b.click("#rules-close")
        self.assertFalse(b.js("return document.getElementById("
                              "'rules-dialog').open"))

    def person_move(self, rng):
        """One person's action by clicks: a roll, a word or a whole move
        (every click of a chain; a free move from the engine's own).
        Returns False when the game is over."""
        b = self.browser
        st, status = self.wait_for(("person", "over"))
        if st == "over":
            return False
        if status.startswith("roll"):
            self.assertFalse(b.finds("#words button:not([disabled])"),
                             "a move offered while a roll is due")
            b.click("#roll-btn")
            return True
        if b.finds(".hit.point"):
            return self.free_move(rng)
        for _ in range(64):  # clicks of one move
            targets = b.names(".hit.target")
            words = b.finds("#words button.legal")
            if not targets and not words:
                self.fail("a person is to move but nothing is offered; "
                          "status %r" % status)
            # a word (drop, pass) only when nothing else is offered: a
            # person who drops out at once would end the test's game
            if targets:
                b.click_place(rng.choice(targets))
            else:
                b.click_element(rng.choice(words))
            st, _ = self.wait_for(("person", "over"))
            if st == "over" or not b.js(
                    "return document.querySelectorAll('.hit.selected')"
                    ".length"):
                return st != "over"
        self.fail("a move took more than 64 clicks")

    def free_move(self, rng):
        """A free move (turn_info's moves free): the engine's own, clicked
        point by point, then played."""
        b = self.browser
        move = engine_answers(self.record() + ["set level 0", "genmove"])[-1]
        self.assertTrue(move.startswith("="), move)
        for p in move[1:].split("-"):
            b.click_place(p)
        b.click("#builder-play")
        st, _ = self.wait_for(("person", "over"))
        self.assertIn("play " + move[1:], self.record())
        return st != "over"

    def check_analysis(self):
        """Analysis on: values drawn on the board, each for a legal move;
        the list beside it."""
        b = self.browser
        if self.wait_for(("person",))[1].startswith("roll"):
            b.click("#roll-btn")
            self.wait_for(("person",))
        if b.finds(".hit.point"):
            return None  # a free move: nothing to analyse
        before = self.record()
        legal = set(self.moves(before))
        b.click("#analysis-toggle")
        self.wait_until("return document.querySelectorAll('#board "
                        "text.cand').length", what="an analysis value")
        time.sleep(0.6)  # a few reports: the marks settle
        drawn = b.js("return [...document.querySelectorAll("
                     "'#board text.cand')].map(t => [t.dataset.move, "
                     "t.textContent])")
        for move, value in drawn:
            self.assertIn(move, legal)
            self.assertRegex(value, r"^(\d+|\d+\.\d)!?$")
        self.assertTrue(b.finds("#candidates li.best"))
        return before

    def analysis_off(self, before):
        b = self.browser
        b.click("#analysis-toggle")
        self.wait_for(("person",))
        self.wait_until("return !document.querySelector('#board "
                        "text.cand')", what="the values to go")
        self.assertEqual(self.record(), before, "analysis changed the game")

    def check_undo(self, rng):
        """The person's move and the engine's reply taken back together."""
        before = self.record()
        self.person_move(rng)
        self.wait_for(("person", "over"))
        self.assertNotEqual(self.record(), before)
        self.browser.click("#undo-btn")
        self.wait_for(("person",))
        self.assertEqual(self.record(), before, "undo did not restore the "
                         "position before the person's move")

    def check_illegal_click(self):
        """Where every move is one place, a click on a place no legal
        move names shows the engine's own message for that move."""
        b = self.browser
        rec = self.record()
        legal = self.moves(rec)
        if not legal or any("-" in m or ":" in m for m in legal):
            return
        names = b.js("return [...document.querySelectorAll('.hit:not("
                     ".target)')].map(e => e.dataset.name)")
        if not names:
            return
        want = engine_answers(rec + ["play " + names[0]])[-1]
        self.assertTrue(want.startswith("?"), want)
        b.click_place(names[0])
        self.wait_for(("person",))
        self.assertEqual(self.text("#message"), want[1:])
        self.assertEqual(self.record(), rec)

    def check_navigation(self):
        """To the first position and back: the game untouched, the board
        restored exactly; a move of the list shows the position after it."""
        b = self.browser
        rec = self.record()
        n = len(rec) - 1
        if n < 1:
            return
        drawn = self.board()
        b.click("#nav-first")
        self.wait_until("return document.body.dataset.ply === '0' && "
                        "document.body.dataset.state !== 'busy'",
                        what="the first position")
        self.assertEqual(self.text("#nav-pos"), "move 0 of %d" % n)
        self.assertNotEqual(self.board(), drawn)
        self.assertFalse(b.finds("#last-move .last"))
        b.keys("\ue014")  # the right arrow: a move forward
        self.wait_until("return document.body.dataset.ply === '1' && "
                        "document.body.dataset.state !== 'busy'",
                        what="the position after move 1")
        b.click('#move-list button[data-ply="%d"]' % n)
        self.wait_until("return document.body.dataset.view === 'live' && "
                        "document.body.dataset.state !== 'busy'",
                        what="the game's position")
        self.assertEqual(self.board(), drawn, "the board is not as before")
        b.keys("\ue012\ue010")  # left, then End
        self.wait_until("return document.body.dataset.view === 'live'",
                        what="End")
        self.assertEqual(self.board(), drawn)
        self.assertEqual(self.record(), rec, "the navigation changed the "
                         "game")

    def finish(self, shot, rng, clicks=CLICKED_MOVES):
        """The game to its end: CLICKS moves by clicks, then the engine in
        the person's seat; the result as a fresh engine has it after the
        record."""
        b = self.browser
        for _ in range(clicks):
            if not self.person_move(rng):
                break
        if self.state()[0] != "over":
            # the engine plays on for the person (the seat's select)
            b.click('#players tr[data-player="1"] select option'
                    '[value="engine"]')
        self.wait_for(("over",), timeout=120)
        rec = self.record()
        a = engine_answers(rec + ["status", "score"])
        self.assertFalse([x for x in a if x.startswith("?")], a)
        status, score = a[-2][1:], a[-1][1:].split()
        page = b.js("return [...document.querySelectorAll("
                    "'#players .score')].map(e => e.textContent)")
        self.assertEqual(page, score)
        self.assertEqual(self.text("#result").split("Final score: ")[1],
                         " : ".join(score))
        self.assertEqual("over " + b.js(
            "return document.body.dataset.status").split()[1],
            status.replace("draw", "0"))
        # the scoring units with cells, each marked on the board
        units = [l.split() for l in engine_answers(rec + ["scoring"])[-1][1:]
                 .split("\n") if " cells " in l]
        marked = b.js(
            "return [...document.querySelectorAll('#board .unit')].map("
            "u => [u.dataset.kind, u.dataset.player, u.dataset.cells])")
        self.assertEqual(marked, [[u[1], u[3], " ".join(
            u[u.index("cells") + 1:])] for u in units])
        # a click after the end: the engine says why not
        name = b.names(".hit")[0]
        b.click_place(name)
        self.wait_for(("over",))
        self.assertEqual(self.text("#message"),
                         engine_answers(rec + ["play " + name])[-1][1:])
        self.check_layout(shot + " at the end", shot=shot + "-end")
        self.check_last_move()

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

    def check_keys(self):
        """A move typed, and a board place reached with Tab and played
        with Enter."""
        b = self.browser
        if self.wait_for(("person",))[1].startswith("roll"):
            b.keys("r")
            self.wait_for(("person",))
        legal = self.moves(self.record())
        before = len(self.record())
        b.type("#move-input", legal[0] + "\n")
        self.wait_for(("person", "over"))
        self.assertIn("play " + legal[0], self.record())
        if self.state()[0] == "over" or not b.finds(".hit.target"):
            return
        b.js("document.querySelector('.hit.target').focus()")
        before = len(self.record())
        b.keys("\ue007")  # Enter
        self.wait_until("return document.getElementById('record').value"
                        ".split('\\n').length > %d || document.querySelector("
                        "'.hit.selected')" % before, what="Enter's move")
        self.wait_for(("person", "over"))

    def check_graph(self):
        """The evaluation graph has axes, and a click on it shows the
        position under it."""
        b = self.browser
        self.assertEqual(b.js("return [...document.querySelectorAll("
                              "'#eval-graph text.axis')].map(t => "
                              "t.textContent).slice(0, 3)"),
                         ["0%", "50%", "100%"])
        b.js("const g = document.getElementById('eval-graph');"
             "const r = g.getBoundingClientRect();"
             "g.dispatchEvent(new MouseEvent('click', {clientX: r.left + 41,"
             " clientY: r.top + 20, bubbles: true}))")
        self.wait_until("return document.body.dataset.ply === '0' && "
                        "document.body.dataset.state !== 'busy'",
                        what="the graph's first position")
        b.keys("\ue010")  # End: the game again
        self.wait_until("return document.body.dataset.view === 'live'",
                        what="the game's position")

    def check_review(self, shot):
        """The finished game reviewed (scripts/gui's /api/review): the
        graph gets a point for every move, and the mistakes the review
        finds are marked in the move list and on the graph."""
        b = self.browser
        if STATIC:  # the review runs in the GUI server
            self.assertFalse(b.finds("#review-btn:not([hidden])"))
            return
        b.click("#review-btn")
        deadline = time.monotonic() + 120
        while not (self.text("#review-note") or "").startswith("Review:"):
            if time.monotonic() > deadline:
                self.fail("no review: %s" % self.text("#review-note"))
            time.sleep(0.1)
        marked = len(b.finds("#move-list button.mistake"))
        self.assertEqual(marked, len(b.finds("#eval-graph .mistake")))
        self.assertGreater(len(b.finds("#eval-graph .point, "
                                       "#eval-graph .proven")), 3)
        note = self.text("#review-note")
        if marked:
            self.assertIn("%d mistake" % marked, note)
        else:
            self.assertIn("no move changed the result", note)
        self.check_layout(shot + " reviewed", shot=shot + "-review")

    # ---- variants, and what no one game shows

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
            with quintet.Engine([ENGINE], timeout=60) as e:
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
        ENGINE = os.path.abspath(sys.argv.pop(1))
    if not (CHROMIUM and DRIVER):
        print("gui_e2e_test: SKIPPED: chromium or chromedriver is missing "
              "(Debian: apt-get install chromium chromium-driver)")
    else:
        add_game_tests()
    unittest.main(verbosity=2)
