"""tournament_check: `scripts/tournament --check CMD`, a bot author's
compliance test (like fastchess's --compliance).

It runs the program CMD through every command a match sends, in every game
it claims (list_games) that the referee knows, in every seat, under a
clock, and says exactly what went wrong: the framing of each answer
(protocol.md, "Framing": the id repeated, one space after `=ID`, LF line
ends, no empty line before an answer), a `?` where `=` is due or the
reverse, a move the referee refuses, a crash, silence, a move over its
clock, a quit it does not obey.  The games are the runner's own
(tournament_match.Table), so a program that passes here plays matches;
the other seats are our engine at `set level 0` (random moves).
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading

from quintet import split_command

from . import tournament_clock as clocks
from .tournament_match import (Config, RefereeError, Schedule, Table,
                               start_player)
from .tournament_proc import PlayerError, Program

OPPONENT_SETUP = ["set level 0", "set verbose 0"]
UNKNOWN = "xyzzy_no_such_command"


class StrictProgram(Program):
    """A Program that notes every way its answers stray from the framing
    (protocol.md, "Framing"), though the runner's reader forgives them."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.framing = {}  # problem, digits folded -> the sentence

    def request(self, line, timeout=None):
        a = super().request(line, timeout)
        for p in a.strict_problems(self.next_id - 1):
            key = re.sub(r"\d+", "N", p)
            self.framing.setdefault(key, "the answer to %s: %s" %
                                    (line.split()[0], p))
        return a


class CheckTable(Table):
    """The runner's table with the checked program (index 0) strict."""

    def _prog(self, i):
        if i == 0 and i not in self.progs:
            pl = self.cfg.players[0]
            self.progs[0] = StrictProgram(
                pl["argv"], pl["name"],
                os.path.join(self.cfg.tmpdir, "checked-stderr"))
        return super()._prog(i)


class Report:
    def __init__(self, out):
        self.out = out
        self.fails = 0

    def ok(self, text):
        self.out.write("ok    %s\n" % text)
        self.out.flush()

    def fail(self, text):
        self.fails += 1
        self.out.write("FAIL  %s\n" % text)
        self.out.flush()

    def note(self, text):
        self.out.write("note  %s\n" % text)
        self.out.flush()


def handshake(argv, setup, timeout, tmpdir, rep):
    """The commands before any game; returns (games it claims or None,
    framing problems), after checking that quit ends it."""
    prog = StrictProgram(argv, "checked",
                         os.path.join(tmpdir, "handshake-stderr"))
    try:
        try:
            start_player(prog, setup, timeout, clock=True)
        except PlayerError as e:
            rep.fail("start: %s" % e)
            return None, prog.framing
        ok, text = prog.request("protocol_version", timeout)
        if text.strip() == "2":
            rep.ok("protocol_version answers 2")
        else:
            rep.fail("protocol_version answers %r, not 2" % text[:40])
        names = []
        for cmd in ("name", "version"):
            ok, text = prog.request(cmd, timeout)
            if ok and text.strip():
                names.append("%s %s" % (cmd, text.strip()))
            else:
                rep.note("%s gives nothing (a report shows the -n name "
                         "instead)" % cmd)
        if names:
            rep.ok(", ".join(names))
        ok, text = prog.request(UNKNOWN, timeout)
        if ok:
            rep.fail("the unknown command %s was answered with `=`: an "
                     "unknown command must fail with `?`, or the runner "
                     "takes it as done" % UNKNOWN)
        else:
            rep.ok("an unknown command is refused with `?`")
        clock = sorted(prog.knows)
        rep.ok("clock commands: %s" % (" ".join(clock) if clock else
                                       "none (it gets `set movetime` "
                                       "before each move instead)"))
        ok, text = prog.request("list_games", timeout)
        games = [l.split()[0] for l in text.splitlines() if l.split()]
        if not ok or not games:
            rep.fail("list_games %s: it must name the games the program "
                     "plays, one a line (protocol.md, Commands)" %
                     ("fails (%s)" % text[:60] if not ok else
                      "names no game"))
            games = None
        else:
            rep.ok("list_games: %s" % " ".join(games))
        ok, text = prog.request("quit", timeout)
        code = None
        try:
            code = prog.proc.wait(2)
        except subprocess.TimeoutExpired:
            pass
        if not ok:
            rep.fail("quit fails: %s" % text[:60])
        elif code is None:
            rep.fail("quit is answered but the program is still running "
                     "2 s later")
        elif code != 0:
            rep.fail("after quit the program exited with status %d, not 0"
                     % code)
        else:
            rep.ok("quit: answered, exited with status 0")
        return games, prog.framing
    except PlayerError as e:
        rep.fail("before any game: %s" % e)
        return None, prog.framing
    finally:
        prog.kill()


def referee_games(referee_argv):
    ref = Program(referee_argv, "referee")
    try:
        ref.start()
        ok, text = ref.request("list_games", 30)
        return [l.split()[0] for l in text.splitlines() if l.split()]
    finally:
        ref.stop()


def player_counts(referee_argv, game):
    """The numbers of players game allows besides its default, from the
    referee's list_options (empty when it has no choice)."""
    ref = Program(referee_argv, "referee")
    try:
        ref.start()
        ok, text = ref.request("list_options %s" % game, 30)
    finally:
        ref.stop()
    for line in text.splitlines() if ok else []:
        w = line.split()
        if w[:1] == ["players"] and "min" in w and "max" in w:
            lo = int(w[w.index("min") + 1])
            hi = int(w[w.index("max") + 1])
            d = int(w[w.index("default") + 1]) if "default" in w else None
            return [n for n in range(lo, hi + 1) if n != d]
    return []


def seats_of(referee_argv, game):
    ref = Program(referee_argv, "referee")
    try:
        ref.start()
        ok, _ = ref.request("newgame %s seed=1" % game, 30)
        if not ok:
            return None
        ok, text = ref.request("score", 30)
        return len(text.split()) if ok else None
    finally:
        ref.stop()


def play_game(game, k, argv, setup, referee_argv, clock, margin, timeout,
              maxplies, tmpdir, seed, rep, framing, options=()):
    """One game of each seating, the program in every seat once."""
    players = [{"name": "checked", "argv": argv, "setup": list(setup)}]
    players += [{"name": "engine %d" % i, "argv": referee_argv,
                 "setup": OPPONENT_SETUP} for i in range(1, k)]
    sched = Schedule(seed, [tuple(range(k))], k, True)
    cfg = Config(game, list(options), sched, players, referee_argv, timeout,
                 tmpdir, clock, margin, maxplies)
    game = " ".join([game] + list(options))
    table = CheckTable(cfg, 0, threading.Event())
    try:
        for g in range(1, k + 1):
            try:
                r = table.play(g)
            except RefereeError as e:
                rep.fail("%s, game %d: the referee failed: %s" %
                         (game, g, e))
                continue
            seat = r["seats"].index(0) + 1
            where = "%s, seat %d of %d" % (game, seat, k)
            f = r.get("forfeit")
            times = [ms for p, ms in r["times"] if p == seat]
            if f and f["seat"] == seat:
                rep.fail("%s: %s (%s)" % (where, f["reason"], f["kind"]))
            elif f:
                rep.fail("%s: our engine in seat %d forfeited: %s" %
                         (where, f["seat"], f["reason"]))
            else:
                rep.ok("%s: %s after %d moves (%d its own, longest %d ms)"
                       % (where, r["status"], r["moves"], len(times),
                          max(times) if times else 0))
        prog = table.progs.get(0)
        if prog is not None:
            for k2, v in prog.framing.items():
                framing.setdefault(k2, v)
    finally:
        table.close()


def check(cmd, setup=(), games=None, referee="./engine", tc="10+0.1",
          margin=0.1, timeout=10.0, maxplies=300, seed=1, out=None,
          all_players=False):
    """Checks the program cmd; prints the report on out; returns the
    number of problems found.  With all_players, every number of players
    a game allows is played, not only its default."""
    out = out or sys.stdout
    rep = Report(out)
    argv = split_command(cmd)
    referee_argv = split_command(referee)
    clock = clocks.parse_tc(tc) if tc else None
    out.write("check: %s\n" % " ".join(argv))
    tmpdir = tempfile.mkdtemp(prefix="tournament-check-")
    try:
        claimed, framing = handshake(argv, setup, timeout, tmpdir, rep)
        known = referee_games(referee_argv)
        todo = list(games) if games else (claimed or [])
        if games and claimed is not None:
            for g in games:
                if g not in claimed:
                    rep.note("%s is not in the program's list_games" % g)
        for game in todo:
            if game not in known:
                rep.note("%s: not checked, the referee does not know it" %
                         game)
                continue
            variants = [()]
            if all_players:
                variants += [("players=%d" % n,) for n in
                             player_counts(referee_argv, game)]
            for options in variants:
                k = seats_of(referee_argv, " ".join((game,) + options))
                if not k:
                    rep.fail("%s: the referee cannot start it" % game)
                    continue
                play_game(game, k, argv, setup, referee_argv, clock, margin,
                          timeout, maxplies, tmpdir, seed, rep, framing,
                          options)
        for text in framing.values():
            rep.fail("framing: %s" % text)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    if rep.fails:
        out.write("check: %d problem%s\n" % (rep.fails,
                                             "" if rep.fails == 1 else "s"))
    else:
        out.write("check: no problems found\n")
    out.flush()
    return rep.fails
