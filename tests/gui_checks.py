"""gui_checks: what tests/gui_e2e_test.py checks of the page, as a mixin
of a test case (PageChecks), and the fresh engines it asks for what the
page should show.  The test case gives self.browser (gui_browser's),
self.url, self.shots (the screenshots' folder) and self.static (true
for the WebAssembly build)."""

import os
import sys
import time

sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import quintet  # noqa: E402
from gui_browser import LAYOUT  # noqa: E402

ENGINE = os.path.abspath(os.environ.get("ENGINE") or
                         os.path.join(ROOT, "engine"))
MOVETIME = 5  # ms a move for the engine's seats: quick games
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


class PageChecks:
    """The page's state, the actions of a person, and the checks."""

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
                b.shot(os.path.join(self.shots, "%s-%d.png" % (shot, w)))
            found = {k: v for k, v in problems.items() if v}
            if found:
                b.shot(os.path.join(self.shots, "problem-%s-%d.png" % (
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
        b.shot(os.path.join(self.shots, shot + "-rules.png"))
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
        self.check_words()
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

    def check_words(self):
        """The word moves a person may click now (pass, drop) are those
        the engine would play: in its whole list of moves, or named by
        turn_info's `also`."""
        said = engine_answers(self.record() + ["moves", "turn_info"])
        listed = said[-2][1:].split()
        if "..." in listed:
            return
        also = [l.split()[1] for l in said[-1][1:].split("\n")
                if l.startswith("also ")]
        words = self.browser.js(
            "return [...document.querySelectorAll('#words button')]"
            ".map(e => [e.dataset.word, !e.disabled])")
        self.assertEqual([w for w, on in words if on],
                         [w for w, _ in words if w in listed or w in also])

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
        if self.static:  # the review runs in the GUI server
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
