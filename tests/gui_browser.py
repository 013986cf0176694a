"""gui_browser: headless Chromium driven over the WebDriver protocol with
nothing but Python's standard library (for tests/gui_e2e_test.py), and
the page's layout as the browser lays it out (LAYOUT: texts, targets,
overlaps, the fold)."""

import base64
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # the W3C element key


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
            "goog:loggingPrefs": {"browser": "ALL"},
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
        """Clicks what CSS finds, found again if the page drew it anew
        between the finding and the click."""
        for attempt in range(3):
            try:
                return self.click_element(self.find(css))
            except WebDriverError as e:
                if "stale element" not in str(e) or attempt == 2:
                    raise

    def names(self, css):
        """The data-name of every element CSS finds."""
        return self.js("return [...document.querySelectorAll(arguments[0])]"
                       ".map(e => e.dataset.name)", css)

    def click_element(self, e):
        self.cmd("POST", "/element/%s/click" % e, {})

    def click_place(self, e):
        """Clicks the board at the place element E names (data-x, data-y
        in the board's units), with the mouse, as a person would: the
        middle of a region's bounding box may lie outside it.  E may be
        a place's name: the element is then looked up as it is clicked
        (the page draws the board again after every change)."""
        if not isinstance(e, str):
            e = {ELEMENT: e}
        x, y = self.js(
            "const e = typeof arguments[0] !== 'string' ? arguments[0] : "
            "  document.querySelector('.hit[data-name=\"' + "
            "  arguments[0] + '\"]');"
            "const svg = document.getElementById('board');"
            "e.scrollIntoView({block: 'center', inline: 'center'});"
            "const p = svg.createSVGPoint();"
            "p.x = +e.dataset.x; p.y = +e.dataset.y;"
            "const q = p.matrixTransform(svg.getScreenCTM());"
            "return [Math.round(q.x), Math.round(q.y)]", e)
        self.cmd("POST", "/actions", {"actions": [{
            "type": "pointer", "id": "mouse",
            "parameters": {"pointerType": "mouse"},
            "actions": [
                {"type": "pointerMove", "origin": "viewport", "x": x,
                 "y": y},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerUp", "button": 0}]}]})
        self.settle()

    def settle(self):
        """Waits for the page's next two frames: whatever a click changed
        is drawn (the page draws at the next frame) before the next."""
        self.cmd("POST", "/execute/async", {"script": (
            "const done = arguments[0];"
            "requestAnimationFrame(() => requestAnimationFrame(done))"),
            "args": []})

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

    def viewport(self, width, height):
        """Makes the page's viewport WIDTH by HEIGHT (the window's frame
        added, where there is one)."""
        for _ in range(3):
            vw, vh = self.js("return [innerWidth, innerHeight]")
            if (vw, vh) == (width, height):
                return
            ow, oh = self.js("return [outerWidth, outerHeight]")
            self.cmd("POST", "/window/rect", {"width": ow + width - vw,
                                              "height": oh + height - vh})
            time.sleep(0.2)

    def shot(self, path):
        png = base64.b64decode(self.cmd("GET", "/screenshot"))
        with open(path, "wb") as f:
            f.write(png)

    def console(self):
        """The page's console messages since the last call."""
        try:
            return [m["message"] for m in self.cmd(
                "POST", "/se/log", {"type": "browser"})]
        except WebDriverError:
            return []

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


# The page's layout, measured in the browser: answers a list of problems
# (empty: none) under the keys
#   small_text  a text under MIN_TEXT CSS pixels (SVG texts by their size
#               on the screen)
#   small_target a control or board place under MIN_TARGET pixels square
#               (a checkbox's target is its label; disabled ones are none)
#   wide        the page wider than the window (the board's own frame
#               may scroll)
#   fold        the move entry or a control under the board below the
#               window's bottom edge (scrolled to the top)
#   covered     an analysis mark over a piece, a board label or another
#               mark; a page label over another
LAYOUT = r"""
const MIN_TEXT = 11, MIN_TARGET = 24;
const out = {small_text: [], small_target: [], wide: [], fold: [], covered: []};
// vis: the part of E that shows (its box, clipped by every frame that
// scrolls it), or null; shown: some part does
const vis = (e) => {
  if (e.closest('dialog:not([open]), [hidden], details:not([open]) > :not(summary), option, title')) return null;
  const b = e.getBoundingClientRect();
  if (!(b.width > 0 && b.height > 0) || getComputedStyle(e).visibility === 'hidden') return null;
  const r = {left: b.left, top: b.top, right: b.right, bottom: b.bottom};
  for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
    if (a instanceof SVGElement || getComputedStyle(a).overflow === 'visible') continue;
    const f = a.getBoundingClientRect();
    r.left = Math.max(r.left, f.left); r.top = Math.max(r.top, f.top);
    r.right = Math.min(r.right, f.right); r.bottom = Math.min(r.bottom, f.bottom);
    if (r.right <= r.left || r.bottom <= r.top) return null;
  }
  r.width = r.right - r.left; r.height = r.bottom - r.top;
  return r;
};
const shown = (e) => !!vis(e);
const name = (e) => (e.id || (e.dataset && (e.dataset.name || e.dataset.move)) || e.textContent || e.tagName).trim().slice(0, 24);
const box = (r) => '(' + [r.left, r.top, r.width, r.height].map(Math.round).join(',') + ')';
window.scrollTo(0, 0);
for (const e of document.querySelectorAll('body *')) {
  const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
  if (!own || !shown(e)) continue;
  let px = parseFloat(getComputedStyle(e).fontSize);
  if (e instanceof SVGElement) px *= e.getScreenCTM().a;
  if (px < MIN_TEXT - 0.05) out.small_text.push(name(e) + ' ' + px.toFixed(1) + 'px');
}
const targets = 'button, select, input, textarea, summary, a[href], .hit, [role=button]';
for (let e of document.querySelectorAll(targets)) {
  if (e.disabled || !shown(e)) continue;
  if (e.type === 'checkbox' && e.closest('label')) e = e.closest('label');
  const r = e.getBoundingClientRect();
  if (r.width < MIN_TARGET - 0.5 || r.height < MIN_TARGET - 0.5) out.small_target.push(name(e) + box(r));
}
if (document.documentElement.scrollWidth > innerWidth + 1)
  out.wide.push('the page is ' + document.documentElement.scrollWidth + ' px wide');
for (const e of document.querySelectorAll('#move-input, #nav-bar button, #controls button, #controls input')) {
  if (!shown(e)) continue;
  const r = e.getBoundingClientRect();
  if (r.bottom > innerHeight + 0.5) out.fold.push(name(e) + ' ends at ' + Math.round(r.bottom));
}
// the analysis marks against the pieces, the board's labels and each other
const marks = [...document.querySelectorAll('#analysis-layer .badge rect, #analysis-layer .pv rect')];
const solid = [...document.querySelectorAll('#board .piece, #board text.label, #board text.count, #board text.area-name')];
const shape = (e) => {
  const r = e.getBoundingClientRect();
  return e.tagName === 'circle' ? {c: true, x: r.left + r.width / 2, y: r.top + r.height / 2, r: r.width / 2, e}
    : {c: false, x0: r.left, y0: r.top, x1: r.right, y1: r.bottom, e};
};
const meets = (a, b) => {
  const pad = -1;  // a pixel's touch is no cover
  if (a.c && b.c) return Math.hypot(a.x - b.x, a.y - b.y) < a.r + b.r + pad;
  if (a.c || b.c) {
    const [c, r] = a.c ? [a, b] : [b, a];
    const nx = Math.max(r.x0, Math.min(c.x, r.x1)), ny = Math.max(r.y0, Math.min(c.y, r.y1));
    return Math.hypot(nx - c.x, ny - c.y) < c.r + pad;
  }
  return a.x0 < b.x1 + pad && b.x0 < a.x1 + pad && a.y0 < b.y1 + pad && b.y0 < a.y1 + pad;
};
const ms = marks.map(shape), ss = solid.map(shape);
const what = (s) => (s.e.closest('.badge') ? 'value ' : s.e.closest('.pv') ? 'line number ' : '') + name(s.e.closest('g.badge, g.pv') || s.e);
for (let i = 0; i < ms.length; i++) {
  for (const s of ss) if (meets(ms[i], s)) out.covered.push(what(ms[i]) + ' over ' + what(s));
  for (let j = i + 1; j < ms.length; j++) if (meets(ms[i], ms[j])) out.covered.push(what(ms[i]) + ' over ' + what(ms[j]));
}
// the lines struck through scoring cells at the end, across a count or a
// board label
const svg = document.getElementById('board');
const texts = [...document.querySelectorAll('#board text.label, #board text.count, #board text.area-name')].map(vis).filter(Boolean);
const crosses = (p, q, r) => {
  // the segment p-q and the box r: sampled finely enough for a label
  for (let k = 0; k <= 40; k++) {
    const x = p.x + (q.x - p.x) * k / 40, y = p.y + (q.y - p.y) * k / 40;
    if (x > r.left + 1 && x < r.right - 1 && y > r.top + 1 && y < r.bottom - 1) return true;
  }
  return false;
};
for (const line of document.querySelectorAll('#board .unit polyline')) {
  const m = line.getScreenCTM();
  const pts = [...line.points].map(p => { const s = svg.createSVGPoint(); s.x = p.x; s.y = p.y; return s.matrixTransform(m); });
  for (let i = 1; i < pts.length; i++)
    for (const r of texts)
      if (crosses(pts[i - 1], pts[i], r)) { out.covered.push('a scoring line over a label' + box(r)); break; }
}
// the page's own labels over each other
const labels = [...document.querySelectorAll('#status, #message, #last-move-text, h1, h2, #title, button, label, #players td, #result, #score-note, #eval-text, #analysis-note, #candidates li, #legal, #nav-pos')]
  .filter(e => shown(e) && e.textContent.trim());
const rs = labels.map(vis);
for (let i = 0; i < labels.length; i++)
  for (let j = i + 1; j < labels.length; j++) {
    if (labels[i].contains(labels[j]) || labels[j].contains(labels[i])) continue;
    const a = rs[i], b = rs[j];
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > 2 && h > 2) out.covered.push(name(labels[i]) + box(a) + ' over ' + name(labels[j]) + box(b));
  }
for (const k in out) out[k] = out[k].slice(0, 8);
return out;
"""
