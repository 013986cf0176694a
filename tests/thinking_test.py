#!/usr/bin/env python3
"""thinking_test.py ENGINE [--clocks]: the protocol of thinking (protocol.md,
"Thinking while reading" and "Clocks").

Drives ENGINE through pipes as a frontend would and checks what SPEC.md
section 4 pins: `stop` ends a search within moments and the move is played;
`quit` and end of input let a search think its full time; `analyze` streams
`info` lines at its interval until the next line, which is then answered,
and changes nothing a later command sees; seeded answers under `set
playouts` do not depend on earlier searches; while the engine ponders
(`set ponder 1`) a command is answered within moments, and the next search
starts from the tree pondering grew; rolls do not depend on how
long the engine thought; `set verbose 0` silences the search line.

With --clocks: whole games of every game under `kgs-time_settings fischer 2
0.05` and `time_settings 3 0 0`, with and without `time_left` from the
frontend, in which the engine must never be over its time, and must use at
least half of its main time where the game is long enough to need it.  The
frontend's clocks do not run while the hypervisor holds the machine (see
stolen_ms).
(Minutes: CI runs it; `make check` runs the rest.)
"""
import collections
import os
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "scripts"))
import quintet  # noqa: E402

ENGINE = "./engine"
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL thinking: " + what, flush=True)


class Engine(quintet.Engine):
    """One engine process through the protocol client (ok() sends a
    command with an id and returns its text), with raw access for what
    this test checks byte for byte: raw() writes a line as given, ask(),
    answer() and read_until() return the output as it came, and err_line()
    waits for a line of standard error."""

    def __init__(self, *args):
        super().__init__([ENGINE, *args], stderr=quintet.PIPE)
        self.stderr_kept = collections.deque()  # every line, not the last
        self.err_at = 0

    def raw(self, line):
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def read_until(self, marker, timeout=30.0):
        """Output up to and including marker; None on timeout or at the
        end of the output."""
        end = time.monotonic() + timeout
        while True:
            i = self._buf.find(marker)
            if i >= 0:
                out = self._buf[:i + len(marker)]
                self._buf = self._buf[i + len(marker):]
                return out.decode()
            try:
                self._fill(end, "a read")
            except quintet.ProtocolError:
                return None

    def answer(self, timeout=30.0):
        return self.read_until(b"\n\n", timeout)

    def ask(self, line, timeout=30.0):
        self.raw(line)
        a = self.answer(timeout)
        if a is None:
            raise RuntimeError(f"no answer to {line!r}")
        return a

    def ok(self, line, timeout=30.0):
        return self.command(line, timeout)

    def err_line(self, marker, timeout=30.0):
        """The next line of stderr that holds marker; None on timeout."""
        end = time.monotonic() + timeout
        while True:
            lines = list(self.stderr_kept)
            while self.err_at < len(lines):
                line = lines[self.err_at]
                self.err_at += 1
                if marker.decode() in line:
                    return line
            left = end - time.monotonic()
            if left <= 0 or self.proc is None or self.proc.stderr is None:
                return None
            self._drain_stderr(min(left, 0.05))


def run(text, *args, timeout=60):
    """The whole output of ENGINE for the input text, status, seconds."""
    t0 = time.monotonic()
    p = subprocess.run([ENGINE, *args], input=text.encode(),
                       capture_output=True, timeout=timeout)
    return p.stdout.decode(), p.returncode, time.monotonic() - t0, p.stderr


# The timings below are taken at best of TRIES: under a virtual machine the
# process stops now and then for 10 to 40 ms while the host runs something
# else (tests/test_ai.c, late_at_best); such a pause does not come back on
# the next try, a slow answer does.
TRIES = 3


def stopped_genmove():
    """An engine whose genmove was stopped after 0.1 s, its answer, and
    the milliseconds stop took."""
    e = Engine()
    e.ok("newgame tiptoe seed=3 size=8")
    e.ok("set movetime 10000")
    e.raw("genmove")
    time.sleep(0.1)
    t0 = time.monotonic()
    e.raw("7 stop")
    move = e.answer()
    return e, move, (time.monotonic() - t0) * 1000


def test_stop():
    for _ in range(TRIES):
        e, move, dt = stopped_genmove()
        if dt < 20:
            break
        e.close()
    check(move is not None and move.startswith("= "), f"genmove: {move!r}")
    check(dt < 20, f"stop answered after {dt:.1f} ms (at most 20)")
    check(e.answer() == "=7 \n\n", "stop answers =7 after the move")
    hist = e.ok("history")
    check(hist.rstrip().endswith("play " + move[2:-2]),
          "the stopped genmove's move is played")
    # hint is stopped the same way; stop with nothing to stop answers
    e.raw("hint")
    time.sleep(0.05)
    e.raw("stop")
    check(e.answer().startswith("= "), "hint stopped answers a move")
    check(e.answer() == "= \n\n", "stop after hint")
    check(e.ask("stop") == "= \n\n", "stop with nothing to stop")
    check(e.ok("history") == hist, "a stopped hint plays nothing")
    e.close()


def test_quit_waits():
    # a position the book does not answer at once
    for tail in ("quit\n", ""):
        out, status, secs, _ = run(
            "newgame tiptoe seed=2 size=8\nset movetime 500\n"
            "genmove\n" + tail)
        answers = out.split("\n\n")
        check(status == 0, f"exit status {status} after genmove{tail!r}")
        check(secs >= 0.45, f"genmove then {tail or 'end of input'!r} "
              f"thought {secs:.2f} s, not its full 0.5 s")
        check(len(answers) == 4 + bool(tail) and
              answers[2].startswith("= "),
              f"every line answered: {out!r}")


def test_analyze():
    e = Engine()
    e.ok("newgame checkertoe seed=4 first=1")
    e.ok("play c3")
    before = [e.ok(c) for c in ("history", "moves", "showboard")]
    for k in range(TRIES):
        if k > 0:
            e.raw("name")  # ends the last stream; this try starts afresh
            while e.read_until(b"\n", timeout=5) not in ("\n", None):
                pass
            e.answer(timeout=5)
        t0 = time.monotonic()
        e.raw("3 analyze 100")
        head = e.read_until(b"\n", timeout=5)
        if time.monotonic() - t0 < 0.05:
            break
    check(head == "=3 \n", f"analyze starts with '=3 ': {head!r}")
    check(time.monotonic() - t0 < 0.05, "analyze answers at once")
    lines = []
    while time.monotonic() - t0 < 0.75:
        line = e.read_until(b"\n", timeout=1)
        if line is None:
            break
        lines.append((time.monotonic() - t0, line))
    e.raw("moves")
    ended = False
    for _ in range(100):  # info lines written before the line arrived
        line = e.read_until(b"\n", timeout=5)
        if line is None or line == "\n":
            ended = line == "\n"
            break
        check(line.startswith("info move "), f"stream line {line[:40]!r}")
    moves_answer = e.answer(timeout=5)
    check(5 <= len(lines) <= 9,
          f"{len(lines)} info lines in 0.75 s at 100 ms")
    for at, line in lines:
        words = line.split()
        check(words[:2] == ["info", "move"] and "visits" in words and
              "value" in words and "order" in words and "pv" in words,
              f"info line: {line[:80]!r}")
    first = lines[0][1].split() if lines else []
    check(first[first.index("order") + 1] == "0" if "order" in first
          else False, "the first group is order 0")
    check(len([w for w in first if w == "info"]) <= 20, "at most 20 groups")
    check(ended, "the stream ends with its empty line")
    check(moves_answer == "= " + before[1] + "\n\n",
          "the line that ended analyze is answered normally")
    after = [e.ok(c) for c in ("history", "moves", "showboard")]
    check(after == before, "analyze changes nothing")
    # a line already waiting ends it at once, with no info line
    e.raw("analyze 1000\nname")
    t1 = time.monotonic()
    a = e.read_until(b"\n\n", timeout=5)
    check(a == "= \n\n", f"analyze with a line waiting: {a!r}")
    check(e.answer() == "= quintet\n\n", "the waiting line is answered")
    check(time.monotonic() - t1 < 0.5, "a waiting line ends analyze at once")
    for bad in ("analyze 5", "analyze 3 100", "analyze x",
                "analyze 100 maxmoves 0", "analyze 100 maxmoves x",
                "analyze 1 100 maxmoves"):
        check(e.ask(bad).startswith("? "), f"{bad} fails")
    e.close()
    # maxmoves N: up to N groups a line, past the default 20 (Tiptoe 6x6
    # has 36 first moves); with 3, at most 3
    for most, low, high in ((100, 21, 36), (3, 1, 3)):
        e = Engine()
        e.ok("newgame tiptoe seed=1 size=6")
        e.raw(f"analyze 150 maxmoves {most}")
        e.read_until(b"\n", timeout=5)
        line = ""
        t0 = time.monotonic()
        while not line.startswith("info") and time.monotonic() - t0 < 5:
            line = e.read_until(b"\n", timeout=5) or ""
        e.raw("name")
        groups = line.split().count("info")
        check(low <= groups <= high, f"analyze maxmoves {most}: {groups} "
              f"groups in {line[:60]!r}")
        e.close()
    # analyze fails like genmove where there is nothing to analyze
    out, _, _, _ = run("newgame takebacktoe seed=1 first=1\nanalyze\n"
                       "newgame abstractoe seed=1 draw\nanalyze\n")
    check(out.count("? ") == 2, f"analyze refuses a roll or a drawn line: "
          f"{out!r}")


def kept_after_reply(ponder):
    """Visits the second clock-bound genmove finds in its tree when the
    opponent plays the reply the first search expected, 1.5 s later,
    and the milliseconds the first command after the pause waited (any
    input ends pondering)."""
    e = Engine()
    e.ok("newgame tiptoe seed=3 size=8")
    e.ok(f"set ponder {ponder}")
    e.ok("time_settings 6 0 0")
    e.ok("genmove")
    line = e.err_line(b"ai:").split()
    reply = line[line.index("line") + 2]
    time.sleep(1.5)
    t0 = time.monotonic()
    e.ok("name")
    wait = (time.monotonic() - t0) * 1000
    e.ok("play " + reply)
    e.ok("genmove")
    line = e.err_line(b"ai:")
    e.close()
    kept = line.split(" visits kept")[0].split("(")[-1] if "kept" in line \
        else "0"
    return int(kept), wait


def test_ponder():
    # a command sent while the engine ponders is answered at once, and the
    # next genmove starts from the tree pondering grew (up to TRIES tries:
    # pondering may favour another reply than the one the search expected,
    # and the wait is taken at best, as above)
    plain, _ = kept_after_reply(0)
    pondered, wait = 0, 1e9
    for _ in range(TRIES):
        kept, waited = kept_after_reply(1)
        pondered, wait = max(pondered, kept), min(wait, waited)
        if pondered > 1.5 * plain and wait < 20:
            break
    check(wait < 20, f"a command while pondering waited {wait:.1f} ms "
          f"(at most 20)")
    check(pondered > 1.5 * plain, f"pondering kept {pondered} visits "
          f"for the next search, not pondering {plain}")


def seeded_answers(prefix, seed_first):
    """genmove answers under set playouts after the commands of prefix;
    `set seed` comes before the prefix or after it."""
    e = Engine()
    e.ok("newgame tiptoe seed=9 size=6")
    if seed_first:
        e.ok("set seed 77")
    for line in prefix:
        if line.startswith("STOPPED"):
            e.ok("set movetime 5000")
            e.raw(line.split()[1])
            time.sleep(0.05)
            e.raw("stop")
            e.answer()
            e.answer()
            if line.endswith("genmove"):
                e.ok("undo")
        elif line.startswith("analyze"):
            e.raw(line)
            time.sleep(0.2)
            e.raw("name")
            e.read_until(b"\n\n")
            e.answer()
        else:
            e.ok(line)
    if not seed_first:
        e.ok("set seed 77")
    e.ok("set playouts 500")
    moves = [e.ok("genmove") for _ in range(6)]
    e.close()
    return moves


def test_determinism():
    # hint and analyze take nothing from the search stream and leave
    # nothing behind; a search of its own takes one draw, so after those
    # `set seed` comes last: then no tree or table may carry over
    base = seeded_answers([], True)
    for prefix in (["hint"], ["analyze 50"], ["STOPPED hint"],
                   ["set playouts 30", "hint", "analyze 20"]):
        check(seeded_answers(prefix, True) == base,
              f"seeded genmoves differ after {prefix}")
    for prefix in (["STOPPED genmove"],
                   ["set movetime 30", "genmove", "undo"],
                   ["set playouts 100", "genmove", "undo", "hint"]):
        check(seeded_answers(prefix, False) == base,
              f"seeded genmoves differ after {prefix}")
    # rolls never depend on how long the engine thought
    rolls = []
    for movetime in (5, 60):
        out, _, _, _ = run(f"newgame takebacktoe seed=5 first=1\n"
                           f"set movetime {movetime}\nroll\ngenmove\nroll\n"
                           f"genmove\nroll\n")
        rolls.append([a for a in out.split("\n\n")][2::2])
    check(rolls[0] == rolls[1], f"rolls depend on thinking: {rolls}")


def test_verbose():
    _, _, _, err = run("newgame checkertoe seed=1\nset playouts 50\n"
                       "genmove\n")
    check(b"ai:" in err, "the search line goes to stderr by default")
    _, _, _, err = run("newgame checkertoe seed=1\nset playouts 50\n"
                       "set verbose 0\ngenmove\n")
    check(err == b"", f"set verbose 0 leaves stderr empty: {err!r}")


# ---- clocks ----

# The clock games: every game the engine lists, with its defaults, and
# with its biggest board (each int option of a small range at its most:
# Tiptoe's 26x26, whose 676 placements with only `set overhead`'s 50 ms in
# hand are the hardest test of the plan), read from option_info.  A game
# stops after MOST_MOVES moves (Take-Back-Toe's default runs to 1000
# turns); the main time's use is judged only in games played to the end
# in which a player made 30 moves or more.
MOST_MOVES = 700


def clock_games():
    with quintet.Engine([ENGINE]) as e:
        out = []
        for game, _ in e.list_games():
            out.append((game, ""))
            big = []
            for key, d in e.option_info(game).items():
                if d.get("type") == "int" and "default" in d and \
                        d["max"] - d["min"] <= 30 and \
                        str(d["max"]) != d["default"]:
                    big.append("%s=%d" % (key, d["max"]))
            if big and e.request("newgame %s %s" % (game, " ".join(big))).ok:
                out.append((game, " ".join(big)))
        return out


def steal_ticks():
    """Per processor, the time the hypervisor kept it from running (the
    steal column of /proc/stat, in clock ticks); empty where unknown."""
    try:
        with open("/proc/stat") as f:
            return [int(line.split()[8]) for line in f
                    if line.startswith("cpu") and line[3].isdigit()]
    except (OSError, IndexError, ValueError):
        return []


def stolen_ms(before, after):
    """What the hypervisor took of one processor between two readings of
    steal_ticks.  A virtual machine's processor stops now and then while
    its host runs something else: for 10 to 90 ms on the machines here, and
    once for 600 ms.  A clock game plays 500 moves of Tiptoe 26x26 with
    only `set overhead`'s 50 ms in hand, so one such stop ran the clock out
    in a CI run.  In four such games every move that ended more than
    12 ms past its plan had steal behind it, and the one game without steal
    ended every move within 1.2 ms of its plan.  Like a referee who stops
    the clock for a power cut, the frontend does not count that time.  The
    most of any one processor (the engine thinks on one at a time), in
    whole ticks: never more than was taken."""
    tick = 1000 / os.sysconf("SC_CLK_TCK")
    return max((b - a for a, b in zip(before, after)), default=0) * tick


def clock_game(game, opts, kind, tell):
    """One self-play game under a clock; the frontend keeps both clocks."""
    e = Engine()
    e.ok(f"newgame {game} seed=11 {opts}")
    e.ok("set verbose 0")
    if kind == "fischer":
        e.ok("kgs-time_settings fischer 2 0.05")
        main, inc = 2.0, 0.05
    else:
        e.ok("time_settings 3 0 0")
        main, inc = 3.0, 0.0
    left = {}
    spent = {}  # wall time, steal and all
    moves = {}
    worst = 1e9
    stolen = 0
    ended = False
    while sum(moves.values()) < MOST_MOVES:
        st = e.ok("status").split()
        if st[0] == "over":
            ended = True
            break
        if st[0] == "roll":
            e.ok("roll")
            continue
        p = int(st[1])
        left.setdefault(p, main)
        if tell:
            e.ok(f"time_left {p} {max(left[p], 0):.3f} 0")
        s0 = steal_ticks()
        t0 = time.monotonic()
        e.ok("genmove", timeout=max(left[p], 0) + 5)
        took = time.monotonic() - t0
        held = min(stolen_ms(s0, steal_ticks()) / 1000, took)
        stolen += held
        left[p] -= took - held
        spent[p] = spent.get(p, 0) + took
        worst = min(worst, left[p])
        left[p] += inc
        moves[p] = moves.get(p, 0) + 1
    e.close()
    # the main time used by a player who had to make many moves, in wall
    # time: without time_left the engine's own account counts the steal
    long = [p for p in moves if moves[p] >= 30 and ended]
    used = min((spent[p] - inc * moves[p] for p in long), default=None)
    return worst, used, main, stolen


def test_clocks():
    for game, opts in clock_games():
        name = f"{game} {opts}".strip()
        for kind in ("fischer", "absolute"):
            for tell in (True, False):
                t0 = time.monotonic()
                worst, used, main, stolen = clock_game(game, opts, kind,
                                                       tell)
                told = "sent" if tell else "not sent"
                how = f"{name} under {kind}, time_left {told}"
                print(f"thinking: {how}: lowest clock {worst:.3f} s "
                      f"({stolen:.2f} s stolen), "
                      f"{time.monotonic() - t0:.1f} s", flush=True)
                check(worst >= 0, f"{how}: over time by {-worst:.3f} s")
                if kind == "absolute" and used:
                    check(used >= main / 2, f"{how}: used {used:.2f} s "
                          f"of {main} s main time in 30 moves or more")


def main():
    global ENGINE
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if args:
        ENGINE = args[0]
    tests = [test_stop, test_quit_waits, test_analyze, test_ponder,
             test_determinism, test_verbose]
    if "--clocks" in sys.argv:
        tests = [test_clocks]
    for t in tests:
        t0 = time.monotonic()
        try:
            t()
        except Exception as exc:  # a hung or dead engine
            check(False, f"{t.__name__}: {exc!r}")
        print(f"thinking: {t.__name__} {time.monotonic() - t0:.1f} s",
              flush=True)
    print(f"thinking: {len(FAILURES)} failed")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
