"""Engine: one program that speaks the protocol, driven a command at a time
through pipes, in the spirit of python-chess's engine module.

    with Engine("./engine") as e:
        e.newgame("checkertoe", seed=7, first=1)
        e.play("c3")
        print(e.genmove(playouts=2000), e.status())

Every command is sent with an id and its answer must repeat it
(protocol.md, "Framing"): an answer with another id means the two sides no
longer agree on which answer is whose, and is a ProtocolError like any
other.  All waiting is done with select() on the program's output, so a
timeout never leaves a thread behind, and standard error, when it is read
at all (stderr=PIPE), is drained in the same loop so the program can never
block on it.
"""

import collections
import os
import select
import shlex
import subprocess
import time

from .protocol import (Answer, EngineError, ProtocolError, clip,  # noqa
                       describe_exit, format_options, is_response_line,
                       parse_answer, parse_info)

PIPE = subprocess.PIPE
DEVNULL = subprocess.DEVNULL

# Answers longer than this are not answers to any command of the protocol
# (the longest, a Take It Away `moves` cut at 16384 chains of up to 49
# squares, is about 2.4 MB).
MAX_ANSWER = 8 << 20
STDERR_LINES = 200  # lines of standard error kept with stderr=PIPE


def split_command(command):
    """argv for a command given as a list or as one string (split as a
    POSIX shell would, with shlex)."""
    if isinstance(command, str):
        argv = shlex.split(command)
    else:
        argv = [str(a) for a in command]
    if not argv:
        raise ValueError("empty command")
    return argv


class Engine:
    """A program speaking the protocol.

    command: a list, or a string split like a shell would.  stderr: where
    the program's standard error goes: DEVNULL (default: the engine's
    search line is not wanted by most scripts), None (this process's own),
    a path (a file written afresh), an open file, or PIPE (kept: see
    stderr_lines and last_search).  timeout: the default seconds to wait
    for an answer (None: as long as it takes).  new_session puts the
    program in a session of its own, so a Ctrl-C at the terminal reaches
    only this process, which then stops the program itself.
    """

    def __init__(self, command, stderr=DEVNULL, timeout=None, cwd=None,
                 env=None, new_session=False, start=True):
        self.argv = split_command(command)
        self.stderr = stderr
        self.timeout = timeout
        self.cwd = cwd
        self.env = env
        self.new_session = new_session
        self.proc = None
        self._buf = b""
        self._errbuf = b""
        self.stderr_kept = collections.deque(maxlen=STDERR_LINES)
        self.next_id = 1
        self.settings = {}  # values this client has set, by name
        self._defaults = None
        self._analysis = None
        if start:
            self.start()

    # ---- life cycle ----

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            if self.proc is not None:
                self.kill()
        except Exception:
            pass

    def start(self):
        """(Re)starts the program.  Raises ProtocolError("start")."""
        self.kill()
        self._buf = b""
        self._errbuf = b""
        self.stderr_kept.clear()
        self.next_id = 1
        self.settings = {}
        self._analysis = None
        err = self.stderr
        opened = None
        if isinstance(err, (str, bytes, os.PathLike)):
            err = opened = open(err, "wb")
        try:
            self.proc = subprocess.Popen(
                self.argv, stdin=PIPE, stdout=PIPE, stderr=err, bufsize=0,
                cwd=self.cwd, env=self.env,
                start_new_session=self.new_session)
        except OSError as e:
            raise ProtocolError("start", "could not start %s: %s" %
                                (" ".join(self.argv), e.strerror or e))
        finally:
            if opened is not None:
                opened.close()

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def close(self, grace=0.5):
        """Ends an analysis still running, sends `quit`, and kills the
        program if it has not exited within grace seconds.  Safe to call
        on a dead or never started program."""
        if self._analysis is not None and self.alive():
            try:
                self._analysis.close()
            except Exception:
                pass
        p = self.proc
        if p is None:
            return
        if p.poll() is None:
            try:
                p.stdin.write(b"quit\n")
                p.stdin.flush()
            except OSError:
                pass
            try:
                p.wait(grace)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    quit = close

    def kill(self):
        """Kills the program (its whole session with new_session) at once
        and forgets it."""
        p = self.proc
        self.proc = None
        self._analysis = None
        if p is None:
            return
        if p.poll() is None:
            try:
                if self.new_session:
                    os.killpg(p.pid, 9)
                else:
                    p.kill()
            except OSError:
                try:
                    p.kill()
                except OSError:
                    pass
        for f in (p.stdin, p.stdout, p.stderr):
            if f is not None:
                try:
                    f.close()
                except OSError:
                    pass
        try:
            p.wait(5)
        except subprocess.TimeoutExpired:
            pass

    def signal_kill(self):
        """Kills the program without touching the pipes (another thread
        may be reading them: it then sees the program exit)."""
        p = self.proc
        if p is not None and p.poll() is None:
            try:
                if self.new_session:
                    os.killpg(p.pid, 9)
                else:
                    p.kill()
            except OSError:
                pass

    # ---- standard error ----

    def stderr_lines(self):
        """The lines of standard error read so far (the last 200), with
        stderr=PIPE; with a path, the file's last lines."""
        self._drain_stderr(0)
        if self.stderr == PIPE:
            return list(self.stderr_kept)
        if isinstance(self.stderr, (str, bytes, os.PathLike)):
            try:
                with open(self.stderr, "rb") as f:
                    f.seek(0, os.SEEK_END)
                    f.seek(max(0, f.tell() - 4096))
                    data = f.read()
            except OSError:
                return []
            return data.decode("utf-8", "replace").splitlines()
        return []

    def stderr_tail(self, n=3):
        """The last n non-empty lines of standard error, joined by ' / '
        (for the reason a program died)."""
        lines = [l for l in self.stderr_lines() if l.strip()]
        return " / ".join(lines[-n:])

    def last_search(self):
        """The engine's last search line (`ai: ...`, protocol.md, "The
        computer player") with stderr=PIPE, or None."""
        for line in reversed(self.stderr_lines()):
            if line.startswith("ai: "):
                return line
        return None

    def _drain_stderr(self, timeout):
        p = self.proc
        if p is None or p.stderr is None:
            return
        fd = p.stderr.fileno()
        while True:
            try:
                r, _, _ = select.select([fd], [], [], timeout)
            except (OSError, ValueError):
                return
            if not r:
                return
            self._read_stderr(fd)
            timeout = 0

    def _read_stderr(self, fd):
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b""
        if not data:
            self.proc.stderr.close()
            self.proc.stderr = None
            return
        self._errbuf += data
        *lines, self._errbuf = self._errbuf.split(b"\n")
        for l in lines:
            self.stderr_kept.append(l.decode("utf-8", "replace"))
        if len(self._errbuf) > 65536:
            self.stderr_kept.append(self._errbuf.decode("utf-8", "replace"))
            self._errbuf = b""

    # ---- reading ----

    def _died(self, during):
        p = self.proc
        code = None
        if p is not None:
            try:
                code = p.wait(1)
            except subprocess.TimeoutExpired:
                code = None
        msg = "%s during %s" % (describe_exit(code), during)
        if code is not None and self.stderr == PIPE:
            self._drain_stderr(0.05)  # its last words, if still coming
        tail = self.stderr_tail()
        if tail:
            msg += " (stderr: %s)" % tail[-300:]
        self.kill()
        return ProtocolError("exited", msg, code)

    def _readline(self, deadline, during):
        """The next line of output without its LF (a CR is kept);
        ProtocolError on timeout, exit, or a line over MAX_ANSWER."""
        while True:
            nl = self._buf.find(b"\n")
            if nl >= 0:
                line = self._buf[:nl]
                self._buf = self._buf[nl + 1:]
                return line.decode("utf-8", "replace")
            if len(self._buf) > MAX_ANSWER:
                raise ProtocolError("malformed", "answer to %s longer than "
                                    "%d bytes without an empty line" %
                                    (during, MAX_ANSWER))
            self._fill(deadline, during)

    def _fill(self, deadline, during):
        p = self.proc
        if p is None:
            raise ProtocolError("exited", "the program is not running "
                                "(during %s)" % during)
        fd = p.stdout.fileno()
        fds = [fd] + ([p.stderr.fileno()] if p.stderr is not None else [])
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise ProtocolError("timeout", "no answer to %s within %s s"
                                    % (during, "%g" % self._waited))
            r, _, _ = select.select(fds, [], [], left)
            if p.stderr is not None and p.stderr.fileno() in r:
                self._read_stderr(p.stderr.fileno())
                fds = [fd] + ([p.stderr.fileno()] if p.stderr is not None
                              else [])
            if fd in r:
                break
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b""
        if not data:
            raise self._died(during)
        self._buf += data

    def _deadline(self, timeout):
        if timeout is None:
            timeout = self.timeout
        self._waited = timeout
        return None if timeout is None else time.monotonic() + timeout

    def read_answer(self, sent_id=None, during="a command", timeout=None,
                    stream=None):
        """Reads one whole answer.  With stream, the lines after the first
        are given to stream(line) as they come instead of being kept (for
        analyze).  A first line that is not a response fails at once,
        rather than waiting for an empty line that may never come (a
        program that echoes its input, say).  An answer whose id is not
        sent_id is a ProtocolError; so is one over MAX_ANSWER bytes."""
        deadline = self._deadline(timeout)
        leading = 0
        while True:
            first = self._readline(deadline, during)
            if first.rstrip("\r"):
                break
            leading += 1
        if not is_response_line(first):
            raise ProtocolError("malformed", "answered %s with %r, which is "
                                "not a response (= or ?)" %
                                (during, clip(first.rstrip("\r"))))
        lines = [first]
        size = len(first)
        head = parse_answer(lines, leading)
        if sent_id is not None and head.id != sent_id:
            raise ProtocolError("malformed", "answered %s (id %d) with %s" %
                                (during, sent_id, "no id" if head.id is None
                                 else "id %d" % head.id))
        if stream is not None and head.ok:
            stream(None)  # the `=` line has come
        while True:
            line = self._readline(deadline, during)
            if not line.rstrip("\r"):
                break
            size += len(line) + 1
            if size > MAX_ANSWER:
                raise ProtocolError("malformed", "answer to %s longer than "
                                    "%d bytes without an empty line" %
                                    (during, MAX_ANSWER))
            if stream is not None and head.ok:
                stream(line.rstrip("\r"))
            else:
                lines.append(line)
        return parse_answer(lines, leading)

    # ---- commands ----

    def send(self, line):
        """Writes `ID line` and returns the id (a program that breaks the
        protocol is killed and ProtocolError raised)."""
        if self._analysis is not None:
            self._analysis.close()
        if not self.alive():
            raise self._died(verb(line))
        cid = self.next_id
        self.next_id += 1
        try:
            self.proc.stdin.write(("%d %s\n" % (cid, line)).encode())
            self.proc.stdin.flush()
        except OSError:
            raise self._died(verb(line))
        return cid

    def request(self, line, timeout=None):
        """Sends line and returns its Answer (which unpacks as ok, text);
        a `?` answer is returned, not raised.  ProtocolError when the
        program breaks the protocol or times out; it is then killed."""
        cid = self.send(line)
        try:
            a = self.read_answer(cid, verb(line), timeout)
        except ProtocolError:
            self.kill()
            raise
        if a.ok:
            self._note(line)
        return a

    def command(self, line, timeout=None):
        """Sends line and returns the answer's text (without `= `); raises
        EngineError with the message on `?`."""
        a = self.request(line, timeout)
        if not a.ok:
            raise EngineError(a.text, line)
        return a.text

    def _note(self, line):
        w = line.split()
        if len(w) == 3 and w[0] == "set":
            self.settings[w[1]] = w[2]

    # ---- the commands of protocol.md ----

    def name(self):
        return self.command("name")

    def version(self):
        return self.command("version")

    def known_command(self, name):
        return self.command("known_command " + name) == "true"

    def list_commands(self):
        return self.command("list_commands").split()

    def list_games(self):
        """[(name, rest of the line)] for every game the program hosts."""
        out = []
        for line in self.command("list_games").splitlines():
            w = line.split(None, 1)
            if w:
                out.append((w[0], w[1] if len(w) > 1 else ""))
        return out

    def list_options(self, game):
        return parse_settings(self.command("list_options " + game))

    def list_settings(self):
        return parse_settings(self.command("list_settings"))

    def newgame(self, name, **options):
        """`newgame NAME key=value ...`; name may carry options already
        (a history's first line without `newgame`)."""
        if name.startswith("newgame "):
            name = name[len("newgame "):]
        self.command(" ".join(["newgame", name] + format_options(options)))

    def moves(self):
        """The legal moves, a list; its `cut` is True when the engine cut
        the list short (protocol.md: it then ends with `...`)."""
        w = self.command("moves").split()
        out = MoveList(w[:-1] if w and w[-1] == "..." else w)
        out.cut = bool(w) and w[-1] == "..."
        return out

    def play(self, move, player=None):
        self.command("play %s%s" % ("" if player is None else
                                    "%s " % player, move))

    def roll(self, face=None):
        return int(self.command("roll" if face is None else
                                "roll %d" % face))

    def undo(self):
        self.command("undo")

    def status(self):
        return self.command("status")

    def score(self):
        return [number(w) for w in self.command("score").split()]

    def position(self):
        return self.command("position")

    def history(self):
        """The game as commands: the newgame line, then roll and play
        lines (protocol.md, "history")."""
        return [l for l in self.command("history").splitlines() if l]

    def showboard(self):
        return self.command("showboard")

    def geometry(self):
        return self.command("geometry")

    def set(self, name, value):
        if value is True or value is False:
            value = int(value)
        self.command("set %s %s" % (name, value))

    def _setting(self, name):
        if name in self.settings:
            return self.settings[name]
        if self._defaults is None:
            try:
                self._defaults = {k: v.get("default")
                                  for k, v in self.list_settings().items()}
            except EngineError:  # a program without list_settings:
                self._defaults = {}  # its setting is left as set
        return self._defaults.get(name)

    def _search(self, cmd, movetime, playouts, timeout):
        """cmd under a movetime and playouts for this call only: the
        settings are put back as they were afterwards."""
        saved = []
        for key, val in (("movetime", movetime), ("playouts", playouts)):
            if val is not None:
                saved.append((key, self._setting(key)))
                self.set(key, int(val))
        try:
            if timeout is None and self.timeout is not None and movetime:
                timeout = self.timeout + movetime / 1000.0
            return self.command(cmd, timeout)
        finally:
            if self.alive():
                for key, old in saved:
                    if old is not None and self.settings.get(key) != old:
                        self.set(key, old)

    def genmove(self, movetime=None, playouts=None, player=None,
                timeout=None):
        """The engine chooses a move and plays it; returns the move.
        movetime (milliseconds) and playouts hold for this call only."""
        p = "" if player is None else " %s" % player
        return self._search("genmove" + p, movetime, playouts, timeout)

    def hint(self, movetime=None, playouts=None, player=None, timeout=None):
        """The move genmove would choose, not played."""
        p = "" if player is None else " %s" % player
        return self._search("hint" + p, movetime, playouts, timeout)

    def analyze(self, ms=1000, player=None, maxmoves=None):
        """The search's candidates every ms milliseconds (up to maxmoves of
        them, 20 by default), as an iterator of
        lists of dicts (see parse_info), until it is closed: breaking out
        of a for loop over it, close(), a `with` block's end, or the next
        command sent through this Engine.  Raises EngineError (at the first
        item) when analyze fails."""
        from .analysis import Analysis
        return Analysis(self, ms, player, maxmoves)

    # ---- discovery (protocol.md, "Discovery") ----

    def game_info(self, name=None, **options):
        """Who plays the current game (or the one newgame NAME OPTIONS
        would start), as a dict: game, title, players (a number),
        player (a list of dicts with number and, where given, name,
        colour, mark), side (the same, with played_by), team (lists of
        player numbers), roll ({"faces": [...], "weights": [...]}, only
        in a game with dice).  Keys the client does not know are kept
        as their text (a list where repeated)."""
        line = "game_info" if name is None else " ".join(
            ["game_info", name] + format_options(options))
        out = {"player": [], "side": [], "team": []}
        for text in self.command(line).splitlines():
            w = text.split()
            if not w:
                continue
            key, rest = w[0], w[1:]
            if key in ("game", "title"):
                out[key] = text.split(None, 1)[1] if rest else ""
            elif key == "players":
                out[key] = int(rest[0])
            elif key in ("player", "side"):
                d = {"number": int(rest[0])}
                d.update(pairs(rest[1:], ints=("played_by",)))
                out[key].append(d)
            elif key == "team":
                out[key].append([int(x) for x in rest])
            elif key == "roll":
                d = pairs(rest, lists=("faces", "weights"))
                out[key] = {k: [int(x) for x in v] for k, v in d.items()}
            else:
                keep(out, key, text)
        return out

    def turn_info(self):
        """What the player to move must do now, as a dict: phase (the
        word), step and of (for a counted phase), player, side, also (a
        list of words), out (a list of players), prompt (a sentence)."""
        out = {"also": [], "out": []}
        for text in self.command("turn_info").splitlines():
            w = text.split()
            if not w:
                continue
            key, rest = w[0], w[1:]
            if key == "phase":
                out["phase"] = rest[0]
                if len(rest) == 3:
                    out["step"], out["of"] = int(rest[1]), int(rest[2])
            elif key in ("player", "side"):
                out[key] = int(rest[0])
            elif key == "also":
                out["also"] += rest
            elif key == "out":
                out["out"] += [int(x) for x in rest]
            elif key == "prompt":
                out[key] = text.split(None, 1)[1] if rest else ""
            else:
                keep(out, key, text)
        return out

    def contents(self):
        """What stands on the board (protocol.md, "Discovery"), as a dict:
        at (cell name -> dict with owner, kind, count, zone where given,
        tags a list), hand and store (lists of dicts with side, kind
        where given, count), die (a number, where one shows), line (a
        list of dicts with kind and points, a list of (x, y)), area (cell
        name -> list of (x, y)).  Other lines are kept as their text."""
        out = {"at": {}, "hand": [], "store": [], "line": [], "area": {}}
        for text in self.command("contents").splitlines():
            w = text.split()
            if not w:
                continue
            key, rest = w[0], w[1:]
            if key == "at":
                d = pairs(rest[1:], ints=("owner", "count", "zone"))
                d["tags"] = d.pop("tag").split(",") if "tag" in d else []
                out["at"][rest[0]] = d
            elif key in ("hand", "store"):
                d = pairs(rest[1:], ints=("count",))
                d["side"] = int(rest[0])
                out[key].append(d)
            elif key == "die":
                out["die"] = int(rest[0])
            elif key == "line":
                out["line"].append({"kind": rest[0],
                                    "points": points(rest[1:])})
            elif key == "area":
                out["area"][rest[0]] = points(rest[1:])
            else:
                keep(out, key, text)
        return out

    def option_info(self, game, **options):
        """Each option of game with the options chosen so far (protocol.md,
        "Discovery"): name -> dict with type, and where given value,
        default, min and max (ints), values (a list), requires and
        excludes (lists), pattern, example."""
        out = parse_settings(self.command(" ".join(
            ["option_info", game] + format_options(options))))
        for d in out.values():
            for k in ("min", "max"):
                if k in d:
                    d[k] = int(d[k])
            for k in ("requires", "excludes"):
                if k in d:
                    d[k] = d[k].split(",")
        return out

    def variants(self, game):
        """Option strings that set up game in ways worth covering, read
        from option_info alone (no game named anywhere): "" (the
        defaults), then each on/off option on, each other value of an
        enum, each end of an int's range, where the others' defaults
        allow it."""
        out = [""]
        for key, d in self.option_info(game).items():
            if key == "seed":
                continue
            if d.get("type") == "bool":
                vals = [v for v in d.get("values", []) if v == "1"]
            elif d.get("type") == "enum":
                vals = d.get("values", [])
            elif d.get("type") == "int" and "min" in d:
                vals = sorted({str(d["min"]), str(d["max"])})
            else:
                vals = []
            for v in vals:
                if v != d.get("default"):
                    w = key if v == "1" and d["type"] == "bool" else \
                        "%s=%s" % (key, v)
                    if w not in out:
                        out.append(w)
        return out

    def scoring(self):
        """The units the score is made of: a list of dicts with kind,
        player, points and, where given, pieces, colour and cells (a
        list)."""
        out = []
        for text in self.command("scoring").splitlines():
            w = text.split()
            if not w or w[0] != "unit":
                continue
            d = {"kind": w[1]}
            d.update(pairs(w[2:], ints=("player", "pieces"),
                           nums=("points",), lists=("cells",)))
            out.append(d)
        return out


class MoveList(list):
    """A list of moves that knows whether the engine cut it short."""
    cut = False


def points(words):
    """X Y X Y ... as a list of (x, y) numbers."""
    return [(number(words[i]), number(words[i + 1]))
            for i in range(0, len(words) - 1, 2)]


def pairs(words, ints=(), nums=(), lists=()):
    """key value ... words as a dict; a key in lists takes every word up
    to the next key of lists (or the end)."""
    d = {}
    i = 0
    while i < len(words):
        k = words[i]
        if k in lists:
            j = i + 1
            while j < len(words) and words[j] not in lists:
                j += 1
            d[k] = words[i + 1:j]
            i = j
            continue
        v = words[i + 1] if i + 1 < len(words) else ""
        if k in ints or k == "number":
            v = int(v)
        elif k in nums:
            v = number(v)
        d[k] = v
        i += 2
    return d


def keep(out, key, text):
    """An unknown line kept as its text (a list when the key repeats)."""
    rest = text.split(None, 1)[1] if len(text.split()) > 1 else ""
    if key in out:
        if not isinstance(out[key], list):
            out[key] = [out[key]]
        out[key].append(rest)
    else:
        out[key] = rest


def verb(line):
    w = line.split(None, 1)
    return w[0] if w else repr(line)


def number(w):
    try:
        return int(w)
    except ValueError:
        return float(w)


def parse_settings(text):
    """list_settings / list_options lines as name -> {"type", "default",
    "min", "max", "values"} (values present only where given)."""
    out = {}
    for line in text.splitlines():
        w = line.split()
        if not w:
            continue
        d = {}
        i = 1
        while i < len(w):
            k = w[i]
            if k == "values":
                d["values"] = w[i + 1:]
                break
            d[k] = w[i + 1] if i + 1 < len(w) else ""
            i += 2
        out[w[0]] = d
    return out
