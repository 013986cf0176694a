#!/usr/bin/env python3
"""gui_server_test.py [ENGINE]: scripts/gui's server alone, over HTTP.

Bad requests are refused with a reason and reach no engine; an engine
that dies fails its tab's requests with how it died, and the tab can
start a new one; two tabs at once have two engines that do not wait for
each other; stop reaches a thinking genmove; analyze streams to the poll
and the next command ends it.  And what an attacker tries (AttackTest):
a lone surrogate, a comment after quit, engines started or kept busy
without end, huge answers, a tab or client gone while its engine thinks,
the server killed, bodies nested, short or sent slowly, another site's
page, a broken --engine.  Takes half a minute.
"""

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGINE = os.path.abspath(os.environ.get("ENGINE") or
                         os.path.join(ROOT, "engine"))
GUI = os.path.join(ROOT, "scripts", "gui")

# An engine that answers version, dies on "die" with last words on stderr,
# and echoes anything else.
FAKE = r"""
import sys
for line in sys.stdin:
    n, _, cmd = line.strip().partition(" ")
    if cmd == "die":
        sys.stderr.write("fake: dying on purpose\n")
        sys.stderr.flush()
        sys.exit(3)
    if cmd == "garble":
        sys.stdout.write("what?\n\n")
    else:
        sys.stdout.write("=%s %s\n\n" % (n, "0.1" if cmd == "version" else cmd))
    sys.stdout.flush()
"""


def children(pid):
    """The engines whose parent is PID (Linux's /proc): its children but
    the warden (python3 -c WARDEN, which kills them when the server
    dies)."""
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


def alive(pid):
    """True while PID runs (a zombie is not running)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def cpu_seconds(pid):
    """The processor time PID has used (user and system), in seconds."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def gone_within(pid, seconds):
    deadline = time.monotonic() + seconds
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not alive(pid)


class Server:
    """scripts/gui on a free port, with the engine command ENGINE."""

    def __init__(self, engine, *options):
        self.proc = subprocess.Popen(
            [sys.executable, GUI, "--no-browser", "--port", "0",
             "--engine", engine] + list(options), stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True)
        line = self.proc.stdout.readline()
        if "serving http://127.0.0.1:" not in line:
            raise RuntimeError("the server did not start: %r" % line)
        self.port = int(line.split("127.0.0.1:")[1].split("/")[0])

    def request(self, method, path, body=None, headers=None, raw=None):
        """(status, decoded JSON or text) of one request."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        h = {"Content-Type": "application/json"}
        h.update(headers or {})
        data = raw if raw is not None else (
            None if body is None else json.dumps(body).encode())
        c.request(method, path, body=data, headers=h)
        r = c.getresponse()
        text = r.read().decode()
        c.close()
        if r.getheader("Content-Type", "").startswith("application/json"):
            return r.status, json.loads(text)
        return r.status, text

    def post(self, path, body):
        return self.request("POST", path, body)

    def new(self):
        status, j = self.post("/api/new", {})
        assert status == 200, j
        return j["session"]

    def run(self, sid, *commands, **kw):
        status, j = self.post("/api/run", dict(session=sid,
                                               commands=list(commands), **kw))
        return status, j

    def raw(self, data, wait=True):
        """Sends DATA on a fresh connection; returns what comes back
        before the server closes it (b"" for nothing)."""
        c = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        c.sendall(data)
        out = b""
        if wait:
            while True:
                chunk = c.recv(65536)
                if not chunk:
                    break
                out += chunk
        c.close()
        return out

    def close(self):
        """Stops the server; returns everything it printed."""
        if self.proc.stdout.closed:
            return ""
        self.proc.terminate()
        self.proc.wait(10)
        out = self.proc.stdout.read()
        self.proc.stdout.close()
        return out


class GuiServerTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.srv = Server(ENGINE)

    @classmethod
    def tearDownClass(cls):
        cls.srv.close()

    def test_review(self):
        # Player 2 to move: e1, d1 and d5 hold the draw, a2 loses
        # (the solver settles it at once); the review says so, and
        # leaves the tabs' engines alone.
        record = ["newgame checkertoe first=1 size=5 float=0 exchange=0 "
                  "board=oxx.x/xxoxo/oxxoo/.xooo/oxx..", "play a2"]
        sid = self.srv.new()
        status, j = self.srv.post("/api/review", {"record": record,
                                                  "playouts": 500})
        self.assertEqual(status, 200, j)
        (m,) = j["moves"]
        self.assertEqual((m["move"], m["player"], m["proven_before"],
                          m["proven_after"], m["mistake"]),
                         ("a2", 2, "draw", "loss", True), m)
        self.assertIn(m["best"], ("e1", "d1", "d5"))
        status, j = self.srv.post("/api/review", {"record": record[:1] +
                                                  ["play e1"]})
        self.assertEqual(status, 200, j)
        self.assertFalse(j["moves"][0]["mistake"], j)
        for bad in ({"record": "play a2"}, {"record": []},
                    {"record": record, "playouts": 0},
                    {"record": [record[0], "play z9"]},
                    {"record": [record[0], "hello\u0000"]}):
            status, j = self.srv.post("/api/review", bad)
            self.assertEqual(status, 400, (bad, j))
        status, j = self.srv.run(sid, "name")
        self.assertEqual(j["answers"], [{"ok": True, "text": "quintet"}])

    def test_page_and_files(self):
        status, text = self.srv.request("GET", "/")
        self.assertEqual(status, 200)
        self.assertIn('<script type="module" src="page/main.js">', text)
        # the page's modules, each as JavaScript (a module's type is
        # checked by the browser)
        modules = sorted(n for n in os.listdir(os.path.join(
            ROOT, "scripts", "page")) if n.endswith(".js"))
        self.assertIn("main.js", modules)
        for name in ["gui.css"] + ["page/" + n for n in modules]:
            status, _ = self.srv.request("GET", "/" + name)
            self.assertEqual(status, 200, name)
        for path in ("/nothing", "/../gui", "/gui", "/api/run", "/page/",
                     "/page/../gui", "/page/main.css", "/gui.js"):
            status, j = self.srv.request("GET", path)
            self.assertEqual(status, 404, path)
            self.assertIn("error", j)

    def test_bad_requests(self):
        srv = self.srv
        sid = srv.new()
        cases = [
            # (path, body, headers, raw, status, words in the error)
            ("/api/nothing", {}, None, None, 404, "no such route"),
            ("/api/run", {"session": sid, "commands": ["status"]},
             {"Content-Type": "text/plain"}, None, 400, "send JSON"),
            ("/api/run", None, None, b"{not json", 400, "not JSON"),
            ("/api/run", None, None, b"[1, 2]", 400, "JSON object"),
            ("/api/run", {"session": "nope", "commands": ["status"]}, None,
             None, 404, "no such session"),
            ("/api/run", {"session": sid}, None, None, 400, "list"),
            ("/api/run", {"session": sid, "commands": []}, None, None, 400,
             "list"),
            ("/api/run", {"session": sid, "commands": [7]}, None, None, 400,
             "string"),
            ("/api/run", {"session": sid, "commands": ["status\nquit"]},
             None, None, 400, "one line"),
            ("/api/run", {"session": sid, "commands": ["3 status"]}, None,
             None, 400, "without an id"),
            ("/api/run", {"session": sid, "commands": ["quit"]}, None, None,
             400, "api/close"),
            ("/api/run", {"session": sid, "commands": ["analyze 100"]},
             None, None, 400, "api/analyze"),
            ("/api/run", {"session": sid, "commands": ["x" * 70000]}, None,
             None, 400, "at most"),
            ("/api/analyze", {"session": sid, "ms": "fast"}, None, None, 400,
             "whole number"),
            ("/api/close", {}, None, None, 400, "session"),
            ("/api/run", {"session": sid, "commands": ["status"]},
             {"Host": "evil.example:80"}, None, 400, "Host"),
        ]
        for path, body, headers, raw, want, words in cases:
            status, j = srv.request("POST", path, body, headers, raw)
            self.assertEqual(status, want, (path, body, raw, j))
            self.assertIn(words, j["error"], (path, body, raw))
        status, j = srv.request("GET", "/api/analysis?session=nope&after=0")
        self.assertEqual(status, 404)
        status, j = srv.request("GET", "/api/analysis?session=%s&after=x"
                                % sid)
        self.assertEqual(status, 400)
        # too large a body: refused before it is read
        c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
        c.putrequest("POST", "/api/run")
        c.putheader("Content-Type", "application/json")
        c.putheader("Content-Length", str(1 << 30))
        c.endheaders()
        r = c.getresponse()
        self.assertEqual(r.status, 413)
        c.close()
        # none of it reached the engine: its game is the one it had
        status, j = srv.run(sid, "newgame tiptoe size=5", "history")
        self.assertEqual(status, 200)
        self.assertEqual(j["answers"][1]["text"].split("\n")[1:], [])

    def test_answers_in_order_and_failures(self):
        sid = self.srv.new()
        status, j = self.srv.run(sid, "newgame checkertoe seed=1 first=1",
                                 "play c3", "play c3", "status", "history")
        self.assertEqual(status, 200)
        a = j["answers"]
        self.assertEqual([x["ok"] for x in a], [True, True, False, True,
                                                True])
        self.assertTrue(a[2]["text"].startswith("illegal move"), a[2])
        self.assertEqual(a[3]["text"], "play 2")
        self.assertEqual(a[4]["text"].split("\n")[1:], ["play c3"])
        # stop_on_error: nothing after the first failure runs
        status, j = self.srv.run(sid, "play zz", "play d4", stop_on_error=1)
        self.assertEqual(len(j["answers"]), 1)
        status, j = self.srv.run(sid, "status")
        self.assertEqual(j["answers"][0]["text"], "play 2")

    def test_two_tabs(self):
        """Two tabs: two engines, each its own game, and one thinking does
        not hold up the other."""
        a, b = self.srv.new(), self.srv.new()
        self.srv.run(a, "newgame tiptoe size=6", "set movetime 1500")
        self.srv.run(b, "newgame checkertoe seed=2 first=1", "play c3")
        out = {}

        def think():
            out["a"] = self.srv.run(a, "genmove")
        t = threading.Thread(target=think)
        t0 = time.monotonic()
        t.start()
        time.sleep(0.2)
        status, j = self.srv.run(b, "history", "status")
        took = time.monotonic() - t0
        self.assertLess(took, 1.2, "tab b waited for tab a's genmove")
        self.assertEqual(j["answers"][0]["text"].split("\n")[1:],
                         ["play c3"])
        self.assertEqual(j["answers"][1]["text"], "play 2")
        t.join()
        self.assertTrue(out["a"][1]["answers"][0]["ok"])
        status, j = self.srv.run(a, "history")
        self.assertEqual(len(j["answers"][0]["text"].split("\n")), 2)
        # closing one leaves the other
        self.assertEqual(self.srv.post("/api/close", {"session": a})[0], 200)
        self.assertEqual(self.srv.run(a, "status")[0], 404)
        self.assertEqual(self.srv.run(b, "status")[0], 200)

    def test_stop_while_thinking(self):
        sid = self.srv.new()
        self.srv.run(sid, "newgame tiptoe size=6", "set movetime 60000")
        out = {}

        def think():
            out["g"] = self.srv.run(sid, "genmove")
        t = threading.Thread(target=think)
        t0 = time.monotonic()
        t.start()
        time.sleep(0.3)
        status, j = self.srv.run(sid, "stop")
        t.join(20)
        self.assertLess(time.monotonic() - t0, 10)
        self.assertEqual(j["answers"], [{"ok": True, "text": ""}])
        move = out["g"][1]["answers"][0]
        self.assertTrue(move["ok"])
        status, j = self.srv.run(sid, "history")
        self.assertEqual(j["answers"][0]["text"].split("\n")[1:],
                         ["play " + move["text"]])

    def test_analyze(self):
        sid = self.srv.new()
        status, j = self.srv.post("/api/analyze", {"session": sid, "ms": 50})
        self.assertEqual(status, 200)
        self.assertFalse(j["ok"])
        self.assertIn("no game", j["text"])
        self.srv.run(sid, "newgame tiptoe size=6", "play c3")
        status, j = self.srv.post("/api/analyze", {"session": sid, "ms": 50})
        self.assertTrue(j["ok"], j)
        seq, line = j["seq"], ""
        deadline = time.monotonic() + 10
        while not line.startswith("info move") and \
                time.monotonic() < deadline:
            status, p = self.srv.request(
                "GET", "/api/analysis?session=%s&after=%d" % (sid, seq))
            self.assertEqual(p["gen"], j["gen"])
            seq, line = p["seq"], p["line"]
            self.assertTrue(p["running"])
        self.assertIn(" value ", line)
        # the next command ends the stream and gets its own answer
        status, r = self.srv.run(sid, "status")
        self.assertEqual(r["answers"][0]["text"], "play 2")
        status, p = self.srv.request(
            "GET", "/api/analysis?session=%s&after=%d" % (sid, seq))
        self.assertFalse(p["running"])
        status, r = self.srv.run(sid, "history")
        self.assertEqual(r["answers"][0]["text"].split("\n")[1:],
                         ["play c3"])


class AttackTest(unittest.TestCase):
    """What a page or a client must not be able to make the server do;
    each test fails without its fix in scripts/gui."""

    def server(self, *options):
        srv = Server(ENGINE, *options)
        self.addCleanup(srv.close)
        return srv

    def test_lone_surrogate_is_refused(self):
        # JSON can carry "\ud800", which UTF-8 cannot: refused, and the
        # tab's engine keeps its framing
        srv = self.server()
        sid = srv.new()
        status, j = srv.run(sid, "name \ud800")
        self.assertEqual(status, 400, j)
        self.assertIn("UTF-8", j["error"])
        status, j = srv.run(sid, "name")
        self.assertEqual((status, j["answers"][0]["ok"]), (200, True))

    def test_comment_after_the_command(self):
        # the engine reads up to a #: so does the filter
        srv = self.server()
        sid = srv.new()
        for line in ("quit#", "quit #x", "analyze# 500", "# all comment"):
            status, j = srv.run(sid, line)
            self.assertEqual(status, 400, (line, j))
        status, j = srv.run(sid, "name # a comment")
        self.assertEqual((status, j["answers"][0]["ok"]), (200, True))
        self.assertTrue(children(srv.proc.pid))

    def test_engines_are_limited_busy_or_not(self):
        srv = self.server("--max-engines", "2")
        sids = [srv.new(), srv.new()]
        threads = []
        for sid in sids:
            srv.run(sid, "newgame tiptoe", "set movetime 60000")
            t = threading.Thread(target=srv.run, args=(sid, "genmove"))
            t.start()
            threads.append(t)
        time.sleep(0.3)
        status, j = srv.post("/api/new", {})
        self.assertEqual(status, 503, j)
        self.assertIn("--max-engines", j["error"])
        self.assertEqual(len(children(srv.proc.pid)), 2)
        for sid in sids:
            srv.run(sid, "stop")
        for t in threads:
            t.join(10)
        # an idle engine makes room for a new tab
        self.assertEqual(srv.post("/api/new", {})[0], 200)
        self.assertEqual(len(children(srv.proc.pid)), 2)

    def test_answers_are_capped(self):
        srv = self.server()
        sid = srv.new()
        status, j = srv.run(sid, "newgame tiptoe size=26",
                            *["geometry"] * 1500)
        self.assertEqual(status, 413, str(j)[:200])
        self.assertIn("MB", j["error"])
        status, j = srv.run(sid, "name")
        self.assertEqual(status, 200)

    def analyzing(self, *options):
        """A server started with OPTIONS and a tab analysing Tiptoe on it:
        (server, session, analyze's answer, the engine's pid)."""
        srv = self.server(*options)
        sid = srv.new()
        srv.run(sid, "newgame tiptoe")
        status, j = srv.post("/api/analyze", {"session": sid, "ms": 100})
        self.assertEqual(status, 200, j)
        [engine] = children(srv.proc.pid)
        return srv, sid, j, engine

    def test_engine_of_a_gone_tab_ends(self):
        # a tab that stops asking (closed during an analysis) loses its
        # engine after --idle seconds
        srv, sid, j, engine = self.analyzing("--idle", "1")
        self.assertTrue(gone_within(engine, 6), "the engine still runs")
        # and one that pings keeps it
        sid = srv.new()
        [engine] = children(srv.proc.pid)
        for _ in range(6):
            time.sleep(0.4)
            self.assertEqual(srv.post("/api/ping", {"session": sid})[0], 200)
        self.assertTrue(alive(engine))

    def watch(self, srv, sid):
        """A tab's watch: GET /api/watch held open on a socket of its own
        (close it to make the tab vanish)."""
        c = socket.create_connection(("127.0.0.1", srv.port))
        c.sendall(b"GET /api/watch?session=%s HTTP/1.1\r\nHost: "
                  b"127.0.0.1\r\n\r\n" % sid.encode())
        return c

    def test_vanished_tab_engine_ends(self):
        # a tab gone in the middle of a long analysis (its watch ended,
        # no new one came): its engine is ended within --grace seconds
        # and the reaper's round, long before --idle
        srv, sid, j, engine = self.analyzing("--grace", "1")
        c = self.watch(srv, sid)
        time.sleep(1.5)
        self.assertTrue(alive(engine), "the engine of a watched tab ended")
        c.close()
        self.assertTrue(gone_within(engine, 4), "the engine still runs")
        # a tab whose watch stays open keeps its engine, idle or not
        sid = srv.new()
        [engine] = children(srv.proc.pid)
        c = self.watch(srv, sid)
        time.sleep(3)
        self.assertTrue(alive(engine))
        c.close()

    def test_unpolled_analysis_stops(self):
        # an analysis no tab polls for --grace seconds is stopped: the
        # engine stops using its core, and stays for the tab
        srv, sid, j, engine = self.analyzing("--grace", "1")
        time.sleep(3)
        t0 = cpu_seconds(engine)
        time.sleep(1)
        self.assertLess(cpu_seconds(engine) - t0, 0.2, "still thinking")
        status, p = srv.request("GET", "/api/analysis?session=%s&after=%d"
                                % (sid, j["seq"]))
        self.assertFalse(p["running"])
        status, j = srv.run(sid, "history")
        self.assertEqual(status, 200)

    def test_client_gone_stops_the_thinking(self):
        srv = self.server()
        sid = srv.new()
        srv.run(sid, "newgame tiptoe", "set movetime 600000")
        body = json.dumps({"session": sid, "commands": ["genmove"]}).encode()
        c = socket.create_connection(("127.0.0.1", srv.port))
        c.sendall(b"POST /api/run HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  b"Content-Type: application/json\r\nContent-Length: %d"
                  b"\r\n\r\n%s" % (len(body), body))
        time.sleep(0.5)
        c.close()
        # the genmove was stopped (the server looks twice a second): the
        # tab's next command is answered at once, not after ten minutes
        time.sleep(1.5)
        t0 = time.monotonic()
        status, j = srv.run(sid, "history")
        self.assertEqual(status, 200)
        self.assertLess(time.monotonic() - t0, 5)
        self.assertEqual(len(j["answers"][0]["text"].split("\n")), 2)

    def test_killed_server_leaves_no_engine(self):
        srv = Server(ENGINE)
        try:
            sid = srv.new()
            srv.run(sid, "newgame tiptoe", "set movetime 600000")
            t = threading.Thread(target=lambda: self.swallow(
                srv.run, sid, "genmove"))
            t.start()
            time.sleep(0.3)
            [engine] = children(srv.proc.pid)
            os.kill(srv.proc.pid, signal.SIGKILL)
            srv.proc.wait(10)
            self.assertTrue(gone_within(engine, 5),
                            "the engine outlived the killed server")
        finally:
            srv.proc.stdout.close()
        t.join(10)

    @staticmethod
    def swallow(fn, *args):
        try:
            fn(*args)
        except OSError:
            pass

    def test_bodies_read_with_care(self):
        srv = self.server("--read-timeout", "1")
        # nested too deeply for Python's parser
        status, j = srv.request("POST", "/api/new", raw=b"[" * 100000)
        self.assertEqual(status, 400)
        self.assertIn("JSON", j["error"])
        # shorter than its Content-Length: not taken as complete
        head = (b"POST /api/new HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\n")
        out = srv.raw(head + b"Content-Length: 40\r\n\r\n{}")
        self.assertIn(b" 400 ", out.split(b"\r\n")[0])
        self.assertIn(b"shorter than its Content-Length", out)
        self.assertEqual(children(srv.proc.pid), [])
        # a request that never ends is dropped after the read timeout
        t0 = time.monotonic()
        out = srv.raw(head)
        self.assertLess(time.monotonic() - t0, 5)
        # and clients that hang up early leave no traceback
        for _ in range(5):
            srv.raw(head + b"Content-Length: 10\r\n\r\n{", wait=False)
            srv.raw(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                    wait=False)
        time.sleep(1.5)
        printed = srv.close()
        self.assertNotIn("Traceback", printed)

    def test_origin_checked(self):
        srv = self.server()
        status, j = srv.request("POST", "/api/new", {}, headers={
            "Origin": "http://evil.example"})
        self.assertEqual(status, 403)
        self.assertEqual(children(srv.proc.pid), [])
        status, j = srv.request("POST", "/api/new", {}, headers={
            "Origin": "http://127.0.0.1:%d" % srv.port})
        self.assertEqual(status, 200)

    def test_bad_engine_command_line(self):
        p = subprocess.run([sys.executable, GUI, "--no-browser", "--port",
                            "0", "--engine", "'./engine"],
                           capture_output=True, text=True, timeout=30)
        self.assertEqual(p.returncode, 2)
        self.assertIn("--engine", p.stderr)
        self.assertNotIn("Traceback", p.stderr)


class ShutdownTest(unittest.TestCase):

    def test_sigterm_ends_the_engines(self):
        srv = Server(ENGINE)
        try:
            sid = srv.new()
            srv.run(sid, "newgame tiptoe", "set movetime 60000")
            t = threading.Thread(target=srv.run, args=(sid, "genmove"))
            t.start()
            time.sleep(0.3)
            engines = children(srv.proc.pid)
            self.assertEqual(len(engines), 1)
        finally:
            srv.close()
        t.join(10)
        deadline = time.monotonic() + 10
        while os.path.exists("/proc/%d" % engines[0]) and \
                time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertFalse(os.path.exists("/proc/%d" % engines[0]),
                         "the engine outlived the server")
        self.assertEqual(srv.proc.returncode, 0)


class DyingEngineTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        fd, cls.fake = tempfile.mkstemp(suffix=".py")
        with os.fdopen(fd, "w") as f:
            f.write(FAKE)
        cls.srv = Server("%s %s" % (sys.executable, cls.fake))

    @classmethod
    def tearDownClass(cls):
        cls.srv.close()
        os.unlink(cls.fake)

    def test_engine_dies(self):
        sid = self.srv.new()
        status, j = self.srv.run(sid, "echo", "die", "echo")
        self.assertEqual(status, 502)
        self.assertTrue(j["dead"])
        self.assertIn("exited with status 3", j["error"])
        self.assertIn("fake: dying on purpose", j["error"])
        self.assertEqual(j["answers"], [{"ok": True, "text": "echo"}])
        # later requests say so too, at once
        status, j = self.srv.run(sid, "echo")
        self.assertEqual(status, 502)
        self.assertIn("exited with status 3", j["error"])
        status, j = self.srv.post("/api/analyze", {"session": sid})
        self.assertEqual(status, 502)
        # a new tab gets a new engine
        other = self.srv.new()
        status, j = self.srv.run(other, "echo")
        self.assertEqual(j["answers"], [{"ok": True, "text": "echo"}])

    def test_engine_speaks_nonsense(self):
        sid = self.srv.new()
        status, j = self.srv.run(sid, "garble")
        self.assertEqual(status, 502)
        self.assertIn("not the answer to a command", j["error"])

    def test_engine_missing(self):
        srv = Server("/nonexistent/engine")
        try:
            status, j = srv.post("/api/new", {})
            self.assertEqual(status, 502)
            self.assertIn("cannot start the engine", j["error"])
        finally:
            srv.close()


if __name__ == "__main__":
    if len(sys.argv) > 1:
        ENGINE = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
