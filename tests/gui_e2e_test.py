#!/usr/bin/env python3
"""gui_e2e_test.py [ENGINE | --static DIR]: the GUI end to end in headless
Chromium.

Starts the GUI server (scripts/gui, with ENGINE behind it), or with
--static a plain static file server on DIR (the WebAssembly build of make
web, whose page runs the engine in a Web Worker), and Debian's chromium
through chromedriver, driven
over the WebDriver protocol with nothing but Python's standard library.
For every game: a full game by clicks on the board (a person against the
engine at a few milliseconds a move), an undo, analysis turned on and its
values drawn on legal moves, an illegal click explained in the engine's
own words, and the final score on the page equal to what a fresh engine
says after replaying the page's record.  Abs-Trac-Toe's line is also drawn
by clicking lattice points.  Screenshots of every game in mid-play and at
the end go to build/gui-shots/ (GUI_SHOTS overrides).

Skipped, with a message saying what to install, when chromium or
chromedriver is missing.  As root, Chromium runs with --no-sandbox.
"""

import base64
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import quintet  # noqa: E402
ENGINE = os.path.abspath(os.environ.get("ENGINE") or
                         os.path.join(ROOT, "engine"))
SHOTS = os.environ.get("GUI_SHOTS") or os.path.join(ROOT, "build",
                                                     "gui-shots")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # the W3C element key
MOVETIME = 5  # ms a move for the engine's seat: quick games
STATIC = None  # --static DIR: the page and engine as static files


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriverError(Exception):
    pass


class Browser:
    """A headless Chromium session through chromedriver (W3C WebDriver)."""

    def __init__(self):
        port = free_port()
        self.profile = tempfile.mkdtemp(prefix="gui-e2e-")
        self.driver = subprocess.Popen(
            [DRIVER, "--port=%d" % port], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        self.base = "http://127.0.0.1:%d" % port
        deadline = time.monotonic() + 20
        while True:
            try:
                if self.call("GET", "/status").get("ready"):
                    break
            except (OSError, WebDriverError):
                pass
            if time.monotonic() > deadline:
                raise WebDriverError("chromedriver did not start")
            time.sleep(0.1)
        # The flags a closed network needs (no background connections),
        # and --no-sandbox because CI runs as root.
        args = ["--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1280,800",
                "--user-data-dir=" + self.profile]
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": CHROMIUM, "args": args}}}}
        self.sid = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data,
                                     method=method)
        req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read()).get("value")
        except urllib.error.HTTPError as e:
            v = json.loads(e.read() or b"{}").get("value", {})
            raise WebDriverError("%s %s: %s" % (method, path,
                                                v.get("message", e)))

    def cmd(self, method, path, body=None):
        return self.call(method, "/session/%s%s" % (self.sid, path), body)

    def go(self, url):
        self.cmd("POST", "/url", {"url": url})

    def finds(self, css):
        return [e[ELEMENT] for e in self.cmd(
            "POST", "/elements", {"using": "css selector", "value": css})]

    def find(self, css):
        found = self.finds(css)
        if not found:
            raise WebDriverError("no element %s" % css)
        return found[0]

    def click(self, css):
        self.click_element(self.find(css))

    def click_element(self, e):
        self.cmd("POST", "/element/%s/click" % e, {})

    def click_place(self, e):
        """Clicks the board at the place element E names (data-x, data-y
        in the board's units), with the mouse, as a person would: the
        middle of a region's bounding box may lie outside it."""
        x, y = self.js(
            "const e = arguments[0], svg = document.getElementById('board');"
            "e.scrollIntoView({block: 'center', inline: 'center'});"
            "const p = svg.createSVGPoint();"
            "p.x = +e.dataset.x; p.y = +e.dataset.y;"
            "const q = p.matrixTransform(svg.getScreenCTM());"
            "return [Math.round(q.x), Math.round(q.y)]", {ELEMENT: e})
        self.cmd("POST", "/actions", {"actions": [{
            "type": "pointer", "id": "mouse",
            "parameters": {"pointerType": "mouse"},
            "actions": [
                {"type": "pointerMove", "origin": "viewport", "x": x,
                 "y": y},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerUp", "button": 0}]}]})

    def type(self, css, text, clear=True):
        e = self.find(css)
        if clear:
            self.cmd("POST", "/element/%s/clear" % e, {})
        self.cmd("POST", "/element/%s/value" % e, {"text": text})

    def js(self, script, *args):
        return self.cmd("POST", "/execute/sync",
                        {"script": script, "args": list(args)})

    def keys(self, text):
        """Types TEXT into whatever has the focus, as a person would."""
        acts = []
        for ch in text:
            acts += [{"type": "keyDown", "value": ch},
                     {"type": "keyUp", "value": ch}]
        self.cmd("POST", "/actions", {"actions": [
            {"type": "key", "id": "keyboard", "actions": acts}]})

    def size(self, width, height):
        self.cmd("POST", "/window/rect", {"width": width, "height": height})

    def shot(self, path):
        png = base64.b64decode(self.cmd("GET", "/screenshot"))
        with open(path, "wb") as f:
            f.write(png)

    def quit(self):
        try:
            self.cmd("DELETE", "")
        except (OSError, WebDriverError):
            pass
        self.driver.terminate()
        try:
            self.driver.wait(10)
        except subprocess.TimeoutExpired:
            self.driver.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def children(pid):
    """The engines whose parent is PID (Linux's /proc): its children but
    scripts/gui's warden (python3 -c ...)."""
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open("/proc/%s/stat" % d) as f:
                    stat = f.read()
                with open("/proc/%s/cmdline" % d, "rb") as f:
                    argv = f.read().split(b"\0")
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid and \
                    argv[1:2] != [b"-c"]:
                out.append(int(d))
    return out


def prompt(answer):
    """The prompt line of a turn_info answer."""
    return next(l[len("prompt "):] for l in answer.split("\n")
                if l.startswith("prompt "))


def engine_answers(lines):
    """Runs LINES through a fresh engine; returns its answers' texts (with
    '=' or '?' kept)."""
    with quintet.Engine([ENGINE], timeout=60) as e:
        return [("=" if ok else "?") + text
                for ok, text in (e.request(line) for line in lines)]


@unittest.skipUnless(CHROMIUM and DRIVER, "chromium or chromedriver is "
                     "missing: apt-get install chromium chromium-driver")
class GuiEndToEnd(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        os.makedirs(SHOTS, exist_ok=True)
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

    # ---- helpers ----

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

    def text(self, css):
        return self.browser.js(
            "const e = document.querySelector(arguments[0]);"
            "return e ? e.textContent : null", css)

    def record(self):
        return self.browser.js(
            "return document.getElementById('record').value").split("\n")

    def moves(self, record):
        a = engine_answers(record + ["moves"])
        return a[-1][1:].split()

    def start(self, game, options, seats=("person", "engine"), clock=None,
              movetime=MOVETIME):
        """Fills the new-game dialog by hand and starts the game; CLOCK is
        (kind, main, increment)."""
        b = self.browser
        b.go(self.url)
        self.wait_for(("idle",))
        self.assertTrue(b.js("return document.getElementById("
                             "'new-dialog').open"))
        b.click('#game-select option[value="%s"]' % game)
        # the dialog speaks to a person: no engine types, every option
        # and level in words
        words = b.js("return [...document.querySelectorAll('#new-dialog "
                     "label, #new-dialog option')].map(e => e.textContent)")
        for w in words:
            self.assertNotRegex(w, r"\b(bool|int|enum|string)\b|"
                                r"9223372036854775807|^level \d$", w)
        for key, value in options.items():
            if value is True:
                b.click("#opt-" + key)
            elif b.js("return document.getElementById(arguments[0])"
                      ".tagName", "opt-" + key) == "SELECT":
                b.click('#opt-%s option[value="%s"]' % (key, value))
            else:
                b.type("#opt-" + key, str(value))
        # the seats come from game_info with the options chosen
        deadline = time.monotonic() + 10
        while len(b.finds(".seat")) != len(seats):
            if time.monotonic() > deadline:
                self.fail("the dialog shows %d seats, not %d" % (
                    len(b.finds(".seat")), len(seats)))
            time.sleep(0.02)
        for p, kind in enumerate(seats, 1):
            b.click('[data-seat="%d"] option[value="%s"]' % (p, kind))
            if kind == "engine":
                b.type('[data-movetime="%d"]' % p, str(movetime))
        b.shot(os.path.join(SHOTS, "dialog-%s.png" % game))
        if clock:
            b.click('#clock-kind option[value="%s"]' % clock[0])
            b.type("#clock-main", str(clock[1]))
            b.type("#clock-inc", str(clock[2]))
        b.click("#new-start")
        return self.wait_for(("person", "over"))

    # Every control, every label: what a person sees on the first screen.
    CONTROLS = ("button, input, select, textarea, .hit.target, "
                "#words button")
    LABELS = ("#board text, #status, #message, #last-move-text, h1, h2, "
              "#title, button, label, #players td, #result, #score-note, "
              "#eval-text, #analysis-note, #candidates li, #legal")

    def check_layout(self, where):
        """At 1280 by 800: no control outside the window, no two labels
        over each other (their bounding boxes, at least 2 pixels deep)."""
        b = self.browser
        vw, vh = b.js("return [window.innerWidth, window.innerHeight]")
        if (vw, vh) != (1280, 800):  # the window's frame, if any
            ow, oh = b.js("return [window.outerWidth, window.outerHeight]")
            b.size(ow + 1280 - vw, oh + 800 - vh)
        b.js("window.scrollTo(0, 0)")
        outside = b.js(
            "const out = [];"
            "for (const e of document.querySelectorAll(arguments[0])) {"
            "  if (e.closest('dialog:not([open])')) continue;"
            "  const r = e.getBoundingClientRect();"
            "  if (!r.width || !r.height) continue;"
            "  if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 ||"
            "      r.bottom > innerHeight + 0.5)"
            "    out.push((e.id || e.dataset.name || e.textContent ||"
            "      e.tagName).slice(0, 30) + ' at ' + Math.round(r.left) +"
            "      ',' + Math.round(r.top) + '-' + Math.round(r.bottom));"
            "}"
            "return out", self.CONTROLS)
        self.assertEqual(outside, [], "%s: controls outside 1280x800"
                         % where)
        overlaps = b.js(
            "const es = [...document.querySelectorAll(arguments[0])]"
            "  .filter(e => !e.closest('dialog:not([open])') &&"
            "    e.textContent.trim());"
            "const rs = es.map(e => e.getBoundingClientRect());"
            "const out = [];"
            "for (let i = 0; i < es.length; i++)"
            "  for (let j = i + 1; j < es.length; j++) {"
            "    if (es[i].contains(es[j]) || es[j].contains(es[i]))"
            "      continue;"
            "    const a = rs[i], b = rs[j];"
            "    if (!a.width || !b.width) continue;"
            "    const w = Math.min(a.right, b.right) -"
            "      Math.max(a.left, b.left);"
            "    const h = Math.min(a.bottom, b.bottom) -"
            "      Math.max(a.top, b.top);"
            "    const at = (r) => '(' + [r.left, r.top, r.right, r.bottom]"
            "      .map(Math.round).join(',') + ')';"
            "    if (w > 2 && h > 2) out.push(es[i].textContent.slice(0, 20)"
            "      + at(a) + ' / ' + es[j].textContent.slice(0, 20) + at(b));"
            "  }"
            "return out.slice(0, 10)", self.LABELS)
        if overlaps:
            b.shot(os.path.join(SHOTS, "overlap.png"))
        self.assertEqual(overlaps, [], "%s: labels over each other" % where)

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
        if last.startswith("play ") and last[5:] not in ("pass", "drop"):
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
        self.assertGreater(len(self.text("#rules-body")), 300)
        self.assertNotIn("no description", self.text("#rules-body"))
        b.shot(os.path.join(SHOTS, shot + "-rules.png"))
        b.click("#rules-close")
        self.assertFalse(b.js("return document.getElementById("
                              "'rules-dialog').open"))

    def person_move(self, rng):
        """One person's action by clicks: a roll, a word or a whole move
        (every click of a chain).  Returns False when the game is over."""
        b = self.browser
        st, status = self.wait_for(("person", "over"))
        if st == "over":
            return False
        if status.startswith("roll"):
            self.assertFalse(b.finds("#words button:not([disabled])"),
                             "a move offered while a roll is due")
            b.click("#roll-btn")
            return True
        for _ in range(64):  # clicks of one move
            targets = b.finds(".hit.target")
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
            st, status2 = self.wait_for(("person", "over"))
            if st == "over" or not self.browser.js(
                    "return document.querySelectorAll('.hit.selected')"
                    ".length"):
                return st != "over"
        self.fail("a move took more than 64 clicks")

    def check_analysis(self):
        """Analysis on: values drawn on the board, each on a legal move;
        off again; the game untouched."""
        b = self.browser
        if self.wait_for(("person",))[1].startswith("roll"):
            b.click("#roll-btn")
            self.wait_for(("person",))
        before = self.record()
        legal = set(self.moves(before))
        b.click("#analysis-toggle")
        deadline = time.monotonic() + 20
        drawn = []
        while not drawn and time.monotonic() < deadline:
            drawn = b.js("return [...document.querySelectorAll("
                         "'#board text.cand')].map(t => [t.dataset.move, "
                         "t.textContent])")
            time.sleep(0.05)
        self.assertTrue(drawn, "no analysis value was drawn")
        for move, value in drawn:
            self.assertIn(move, legal)
            self.assertRegex(value, r"^(\d+%|\d+\.\d)$")
        self.assertTrue(b.finds("#candidates li.best"))
        return before, drawn

    def analysis_off(self, before):
        b = self.browser
        b.click("#analysis-toggle")
        self.wait_for(("person",))
        self.assertFalse(b.finds("#board text.cand"))
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

    def check_illegal_click(self, name):
        """A click on NAME, which no legal move uses, shows the engine's
        own message for that move."""
        rec = self.record()
        want = engine_answers(rec + ["play " + name])[-1]
        self.assertTrue(want.startswith("?"), want)
        self.browser.click_place(self.browser.find('.hit[data-name="%s"]'
                                                   % name))
        self.wait_for(("person",))
        self.assertEqual(self.text("#message"), want[1:])
        self.assertEqual(self.record(), rec)

    def finish(self, shot, rng):
        while self.person_move(rng):
            pass
        self.wait_for(("over",))
        rec = self.record()
        a = engine_answers(rec + ["status", "score"])
        self.assertFalse([x for x in a if x.startswith("?")], a)
        status, score = a[-2][1:], a[-1][1:].split()
        page = self.browser.js("return [...document.querySelectorAll("
                               "'#players .score')].map(e => e.textContent)")
        self.assertEqual(page, score)
        self.assertEqual(self.text("#result").split("Final score: ")[1],
                         " : ".join(score))
        self.assertEqual("over " + self.browser.js(
            "return document.body.dataset.status").split()[1],
            status.replace("draw", "0"))
        # the scoring units with cells, each marked on the board
        units = [l.split() for l in engine_answers(rec + ["scoring"])[-1][1:]
                 .split("\n") if " cells " in l]
        marked = self.browser.js(
            "return [...document.querySelectorAll('#board .unit')].map("
            "u => [u.dataset.kind, u.dataset.player, u.dataset.cells])")
        self.assertEqual(marked, [[u[1], u[3], " ".join(
            u[u.index("cells") + 1:])] for u in units])
        # a click after the end: the engine says why not
        hit = self.browser.find(".hit")
        name = self.browser.js("return arguments[0].dataset.name",
                               {ELEMENT: hit})
        self.browser.click_place(hit)
        self.wait_for(("over",))
        self.assertEqual(self.text("#message"),
                         engine_answers(rec + ["play " + name])[-1][1:])
        self.browser.shot(os.path.join(SHOTS, shot + "-end.png"))

    def play_game(self, game, options, illegal=None, seed=1, shot=None):
        rng = random.Random(seed)
        shot = shot or game
        self.start(game, options)
        self.check_layout(shot + " at the start")
        self.check_rules(shot)
        self.browser.shot(os.path.join(SHOTS, shot + "-start.png"))
        for _ in range(2):
            self.person_move(rng)
        self.check_last_move()
        self.check_undo(rng)
        if illegal:
            self.check_illegal_click(illegal(self.record()))
        before, _ = self.check_analysis()
        self.check_layout(shot + " with analysis")
        self.check_last_move()
        self.browser.shot(os.path.join(SHOTS, shot + "-mid.png"))
        self.analysis_off(before)
        self.finish(shot, rng)
        self.check_layout(shot + " at the end")
        self.check_last_move()

    # ---- the games ----

    def test_checkertoe(self):
        self.play_game("checkertoe", {"seed": 3, "first": "1"},
                       illegal=self.occupied)
        self.check_review("checkertoe")

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
        while not self.text("#review-note").startswith("Review:"):
            if time.monotonic() > deadline:
                self.fail("no review: %s" % self.text("#review-note"))
            time.sleep(0.1)
        rec = self.record()
        moves = sum(1 for l in rec[1:] if l.startswith("play "))
        points = len(b.finds("#eval-graph circle:not(.mistake), "
                             "#eval-graph rect.proven"))
        self.assertGreaterEqual(points, moves)
        marked = len(b.finds("#move-list li.mistake"))
        self.assertEqual(marked, len(b.finds("#eval-graph .mistake")))
        note = self.text("#review-note")
        if marked:
            self.assertIn("%d mistake" % marked, note)
        else:
            self.assertIn("no move changed the result", note)
        self.check_layout(shot + " reviewed")
        b.shot(os.path.join(SHOTS, shot + "-review.png"))

    def test_checkertoe_float_exchange(self):
        self.play_game("checkertoe", {"seed": 4, "first": "1",
                                      "float": True, "exchange": True},
                       seed=2, shot="checkertoe-float-exchange")

    def test_takebacktoe(self):
        self.play_game("takebacktoe", {"seed": 5, "first": "1",
                                       "maxturns": 60})

    def test_takeitaway(self):
        self.play_game("takeitaway", {"seed": 6})

    def test_abstractoe(self):
        self.play_game("abstractoe", {"seed": 7}, illegal=self.claimed)

    def test_abstractoe_whole_regions(self):
        """A region takes a click on every one of its cells, not only on
        its number, and a legal one is tinted where a person sees it."""
        b = self.browser
        self.start("abstractoe", {"seed": 7})
        missed = b.js(
            "const svg = document.getElementById('board');"
            "const m = svg.getScreenCTM(), out = [];"
            "for (const h of document.querySelectorAll('.hit.target')) {"
            "  const re = /M(-?[\\d.]+) (-?[\\d.]+)/g; let k;"
            "  while ((k = re.exec(h.getAttribute('d')))) {"
            "    const p = svg.createSVGPoint();"
            "    p.x = +k[1] + 0.5; p.y = +k[2] + 0.5;"
            "    const q = p.matrixTransform(m);"
            "    const e = document.elementFromPoint(q.x, q.y);"
            "    const hit = e && e.closest('.hit');"
            "    if (!hit || hit.dataset.name !== h.dataset.name)"
            "      out.push(h.dataset.name + '@' + k[1] + ',' + k[2]);"
            "  }"
            "  const f = getComputedStyle(h).fill;"
            "  const a = /rgba\\(.*,\\s*([\\d.]+)\\)/.exec(f);"
            "  if (!a || +a[1] < 0.15) out.push(h.dataset.name + ' ' + f);"
            "}"
            "return out")
        self.assertEqual(missed, [])

    def test_tiptoe(self):
        self.play_game("tiptoe", {"seed": 8, "size": 6},
                       illegal=self.occupied)
        self.check_review("tiptoe")

    def test_tiptoe_setup(self):
        """The set-up piece due, from turn_info's prompt, as the set-up
        goes: White's first, Black's two, White's last."""
        rng = random.Random(9)
        self.start("tiptoe", {"seed": 18, "size": 5},
                   seats=("person", "person"))
        for k, colour in ((1, "White"), (2, "Black"), (3, "Black"),
                          (4, "White")):
            self.assertIn("%s (player %d): place set-up piece %d of 4" % (
                colour, 1 if colour == "White" else 2, k),
                self.text("#status"))
            self.person_move(rng)
        self.assertNotIn("set-up", self.text("#status"))
        self.assertEqual(self.text('#players tr[data-player="1"] .extra'),
                         "White; mark O")

    def test_tiptoe_hex(self):
        rng = random.Random(3)
        self.start("tiptoe", {"seed": 9, "hex": True, "size": 4})
        # by keyboard: a move typed, and a board place reached with Tab
        legal = self.moves(self.record())
        self.browser.type("#move-input", legal[0] + "\n")
        self.wait_for(("person", "over"))
        self.assertIn("play " + legal[0], self.record())
        self.browser.js("document.querySelector('.hit.target').focus()")
        before = len(self.record())
        self.browser.keys("\ue007")  # Enter
        self.wait_for(("person", "over"))
        self.assertGreater(len(self.record()), before)
        self.browser.shot(os.path.join(SHOTS, "tiptoe-hex-mid.png"))
        self.finish("tiptoe-hex", rng)

    def test_abstractoe_draw(self):
        """The line drawn point by point: a broken one refused with the
        engine's reason, then a legal one (the engine's own) accepted."""
        b = self.browser
        rng = random.Random(4)
        self.start("abstractoe", {"seed": 10, "draw": True})
        self.assertFalse(b.find("#line-tools") is None)
        rec = self.record()
        points = b.js("return [...document.querySelectorAll("
                      "'.hit.point')].map(e => e.dataset.name)")
        self.assertGreater(len(points), 50)
        bad = [points[len(points) // 2], points[len(points) // 2 + 1]]
        for p in bad:
            b.click_place(b.find('.hit.point[data-name="%s"]' % p))
        self.assertEqual(self.text("#line-text"), "-".join(bad))
        b.click("#line-play")
        self.wait_for(("person",))
        want = engine_answers(rec + ["play " + "-".join(bad)])[-1]
        self.assertEqual(self.text("#message"), want[1:])
        # the refused line stays drawn, to be mended; Clear starts afresh
        self.assertEqual(self.text("#line-text"), "-".join(bad))
        self.check_layout("abstractoe's refused line")
        b.click("#line-clear")
        # a line the engine itself draws, clicked corner by corner
        line = engine_answers(rec + ["set level 0", "genmove"])[-1][1:]
        for p in line.split("-"):
            b.click_place(b.find('.hit.point[data-name="%s"]' % p))
        b.click("#line-play")
        self.wait_for(("person", "over"))
        self.assertIn("play " + line, self.record())
        self.assertFalse(b.finds(".hit.point"))
        self.browser.shot(os.path.join(SHOTS, "abstractoe-draw-mid.png"))
        self.finish("abstractoe-draw", rng)

    def test_abstractoe_teams(self):
        """Four seats, two teams: a person and three engines."""
        rng = random.Random(5)
        self.start("abstractoe", {"seed": 12, "players": 4, "teams": True},
                   seats=("person", "engine", "engine", "engine"))
        self.assertEqual(len(self.browser.finds("#players tr")), 4)
        for p, q in ((1, 3), (2, 4), (3, 1), (4, 2)):
            row = f'#players tr[data-player="{p}"] .extra'
            self.assertIn(f"team with player {q}", self.text(row))
        self.check_undo(rng)
        self.finish("abstractoe-teams", rng)
        # the result and the status name the winning team (status
        # names its first player)
        won = self.browser.js("return document.body.dataset.status").split()[1]
        team = {"1": "players 1 and 3 won", "2": "players 2 and 4 won",
                "0": "a draw"}[won]
        self.assertEqual(self.text("#status"), "game over: " + team)
        result = "A draw." if won == "0" else "P" + team[1:] + "."
        self.assertTrue(self.text("#result").startswith(result + " "),
                        self.text("#result"))
        # and a game the team of 2 and 4 won, loaded from its record
        rec = ["newgame abstractoe seed=12 players=4 teams=1"] + [
            "play " + m for m in "4 7 1 2 3 11 13 6 9 10 14 5 8 12".split()]
        self.assertEqual(engine_answers(rec + ["status"])[-1], "=over 2")
        self.browser.type("#record", "\n".join(rec))
        self.browser.click("#load-btn")
        self.wait_for(("over",))
        self.assertEqual(self.text("#status"),
                         "game over: players 2 and 4 won")
        self.assertEqual(self.text("#result"),
                         "Players 2 and 4 won. Final score: 3 : 7 : 3 : 7")

    def test_abstractoe_solo(self):
        """The solo puzzle: one seat placing both marks; analysis values
        are mark 1's expected points."""
        rng = random.Random(6)
        self.start("abstractoe", {"seed": 13, "players": 1},
                   seats=("person",))
        self.person_move(rng)
        before, drawn = self.check_analysis()
        for _, value in drawn:
            self.assertRegex(value, r"^\d+\.\d$")
        self.browser.shot(os.path.join(SHOTS, "abstractoe-solo-mid.png"))
        self.analysis_off(before)
        self.finish("abstractoe-solo", rng)

    def test_clock_and_stop(self):
        """Under a clock the engine's seat plays on its time and the clocks
        run on the page; Stop ends a long think at once."""
        b = self.browser
        rng = random.Random(7)
        self.start("tiptoe", {"seed": 14, "size": 5},
                   clock=("fischer", 4, 0.2))
        self.assertRegex(self.text('#players tr[data-player="1"] .clock'),
                         r"^0:0[34]$")
        for _ in range(3):
            self.person_move(rng)
        self.wait_for(("person", "over"))
        self.assertEqual(len(b.finds("#players .clock")), 2)
        # a long think, stopped (in a game the opening book does not
        # answer at once)
        self.start("takeitaway", {"seed": 15}, movetime=60000)
        b.click_place(b.find(".hit.target"))
        self.wait_for(("thinking",))
        time.sleep(0.3)
        t0 = time.monotonic()
        b.click("#stop-btn")
        self.wait_for(("person",), timeout=10)
        self.assertLess(time.monotonic() - t0, 5)
        # the engine's own time from the stop to its answer: within 100 ms
        # in the worker too (the page's refresh after it is the rest)
        stopped = b.js("return window.lastStopMs")
        self.assertIsNotNone(stopped)
        self.assertLess(stopped, 100)
        self.assertEqual(len(self.record()), 3)

    def test_stop_in_the_setup(self):
        """Stop during the engine's first of two set-up placements
        (Tiptoe) ends both at once."""
        b = self.browser
        self.start("tiptoe", {"seed": 19, "size": 7}, movetime=6000)
        b.click_place(b.find(".hit.target"))
        self.wait_for(("thinking",))
        time.sleep(0.3)
        t0 = time.monotonic()
        b.click("#stop-btn")
        self.wait_for(("person",), timeout=10)
        self.assertLess(time.monotonic() - t0, 3)
        self.assertEqual(len(self.record()), 4)  # newgame, 1, 2, 2

    def test_record(self):
        """A record pasted and loaded replaces the game; a bad one is
        refused with the line and the engine's reason; copy copies."""
        b = self.browser
        self.start("checkertoe", {"seed": 16, "first": "2"},
                   seats=("person", "person"))
        rec = ["newgame checkertoe seed=21 first=1 size=5 float=0 "
               "exchange=0", "play c3", "play d4"]
        b.type("#record", "\n".join(rec))
        b.click("#load-btn")
        self.wait_for(("person",))
        self.assertEqual(self.record(), rec)
        self.assertEqual(self.text("#move-list"), "P1 c3P2 d4")
        self.assertEqual(self.text("#status"),
                         prompt(engine_answers(rec + ["turn_info"])[-1]))
        # a bad record loads nothing: the game stays, and so does the
        # pasted text, to be mended
        bad = "\n".join(["newgame checkertoe seed=2 first=2", "play a1",
                         "play a1"])
        b.type("#record", bad)
        b.click("#load-btn")
        self.wait_for(("person",))
        want = engine_answers(bad.split("\n"))[-1][1:]
        self.assertEqual(self.text("#record-note"),
                         "line 3: %s (nothing loaded)" % want)
        self.assertEqual(self.browser.js(
            "return document.getElementById('record').value"), bad)
        self.assertEqual(self.text("#move-list"), "P1 c3P2 d4")
        b.click("#copy-btn")
        self.assertEqual(self.record(), rec)
        b.type("#record", "newgame checkertoe\nquit")
        b.click("#load-btn")
        self.assertIn("only newgame, play and roll", self.text(
            "#record-note"))
        b.click("#copy-btn")
        deadline = time.monotonic() + 5
        while "only" in self.text("#record-note") and \
                time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertIn(self.text("#record-note"),
                      ("copied", "selected: copy it with Ctrl+C"))
        self.assertEqual(self.record(), rec)

    def test_engine_dies(self):
        """The tab's engine killed: the page says so, and a new engine
        picks the game up from its record."""
        b = self.browser
        rng = random.Random(8)
        self.start("checkertoe", {"seed": 17, "first": "1"},
                   seats=("person", "person"))
        for _ in range(3):
            self.person_move(rng)
        rec = self.record()
        if STATIC:
            # the worker ends as a crash would end it: no more answers,
            # and the error event the browser fires
            b.js("T.worker.terminate(); T.worker.onerror("
                 "{message: 'killed by the test'})")
            b.click("#undo-btn")
            self.wait_for(("dead",))
            self.assertIn("killed by the test", self.text("#dead-text"))
        else:
            engines = [pid for pid in children(self.server.pid)]
            self.assertTrue(engines, "no engine process under the server")
            for pid in engines:
                os.kill(pid, signal.SIGKILL)
            b.click("#undo-btn")
            self.wait_for(("dead",))
            self.assertIn("killed by signal 9", self.text("#dead-text"))
        b.click("#restart-btn")
        self.wait_for(("person",))
        self.assertEqual(self.record(), rec)
        self.assertTrue(b.finds(".hit.target"))

    def test_phone(self):
        """A phone-sized window: the board fits its width, nothing scrolls
        sideways."""
        b = self.browser
        b.size(390, 844)
        try:
            self.start("takeitaway", {"seed": 11})
            width = b.js("return [document.documentElement.scrollWidth, "
                         "window.innerWidth, document.getElementById("
                         "'board').getBoundingClientRect().width]")
            self.assertLessEqual(width[0], width[1])
            self.assertGreater(width[2], 0.8 * width[1])
            b.shot(os.path.join(SHOTS, "phone.png"))
            # the new-game dialog scrolls up and down only
            b.click("#new-btn")
            d = b.js("const d = document.getElementById('new-dialog');"
                     "return [d.scrollWidth, d.clientWidth, "
                     "d.getBoundingClientRect().right, innerWidth]")
            self.assertLessEqual(d[0], d[1])
            self.assertLessEqual(d[2], d[3])
            b.shot(os.path.join(SHOTS, "phone-dialog.png"))
            b.click("#new-cancel")
        finally:
            b.size(1280, 800)

    # illegal-click pickers: a name no legal move uses

    def occupied(self, record):
        legal = set(self.moves(record))
        cells = self.browser.js("return [...document.querySelectorAll("
                                "'.hit')].map(e => e.dataset.name)")
        return next(c for c in cells if c not in legal)

    claimed = occupied


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--static":
        STATIC = os.path.abspath(sys.argv.pop(2))
        sys.argv.pop(1)
        SHOTS = os.path.join(SHOTS, "web")
    elif len(sys.argv) > 1:
        ENGINE = os.path.abspath(sys.argv.pop(1))
    if not (CHROMIUM and DRIVER):
        print("gui_e2e_test: SKIPPED: chromium or chromedriver is missing "
              "(Debian: apt-get install chromium chromium-driver)")
    unittest.main(verbosity=2)
