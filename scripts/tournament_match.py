"""tournament_match: plays one game between programs under a referee.

The referee is an instance of our engine that holds the official game.  It
starts each game from `newgame GAME seed=S options`, and its `history`
gives back that start with every option explicit (who moves first, a
random board written out), which is what every player receives, so all
players start from exactly the referee's position whatever their own
random generators do.  Chance comes only from the referee (`roll`), and
every player is told the value (`roll N`).  A player's move is checked on
the referee before anyone else hears it.

A game ends when the referee says `over P` or `over draw`, or when a player
breaks a rule of the match (an illegal move, a crash, a malformed answer, a
timeout, refusing a command every player must accept): that player
forfeits, the reason is recorded, and the match goes on.  Trouble with the
referee itself aborts the game instead: it is nobody's loss.
"""

import hashlib
import os
import re
import shlex
import time

from tournament_proc import PlayerError, Program

MOVE_RE = re.compile(r"\S+\Z")


class RefereeError(Exception):
    pass


class Forfeit(Exception):
    """Seat `seat` (1-based) loses the game; kind and reason say why."""

    def __init__(self, seat, kind, reason):
        super().__init__(reason)
        self.seat = seat
        self.kind = kind


def game_seed(match_seed, game_no, nprog, repeat):
    """The seed of game game_no (1-based).  With repeat, the nprog games of
    one round share a seed (the same set-up and dice), played with the
    programs in every seat: the fairest comparison.  Depends only on the
    match seed and the game number, so shards of a match agree."""
    group = (game_no - 1) // nprog if repeat else game_no - 1
    h = hashlib.sha256(b"tournament %d %d" % (match_seed, group)).digest()
    return int.from_bytes(h[:6], "big")


def seat_programs(game_no, first, nprog):
    """Which program sits in each seat: program (game_no - 1) mod nprog
    takes the seat that moves first, the others follow in turn order, so
    every program moves first equally often."""
    r = (game_no - 1) % nprog
    seats = [0] * nprog
    for i in range(nprog):
        seats[(first - 1 + i) % nprog] = (r + i) % nprog
    return seats


def parse_status(text):
    """('play'|'roll'|'over', P or 0 for a draw) from a status answer."""
    words = text.split()
    if len(words) == 2 and words[0] in ("play", "roll", "over"):
        if words[0] == "over" and words[1] == "draw":
            return "over", 0
        if words[1].isdigit():
            return words[0], int(words[1])
    raise RefereeError("referee status answer %r is not understood" % text)


def parse_score(text):
    vals = []
    for w in text.split():
        try:
            vals.append(int(w))
        except ValueError:
            try:
                vals.append(float(w))
            except ValueError:
                return None
    return vals


class Config:
    """What every game of the match shares."""

    def __init__(self, game, options, match_seed, repeat, players,
                 referee_argv, timeout, tmpdir):
        self.game = game
        self.options = options          # list of key=value words
        self.match_seed = match_seed
        self.repeat = repeat
        self.players = players          # [{"name", "argv", "setup"}]
        self.referee_argv = referee_argv
        self.timeout = timeout
        self.tmpdir = tmpdir
        self.setup_timeout = max(10.0, timeout)

    def newgame(self, seed):
        return " ".join(["newgame", self.game, "seed=%d" % seed] +
                        self.options)


def start_player(prog, setup, timeout):
    """(Re)start a program and send its set-up commands.  Raises
    PlayerError with a reason people can act on."""
    prog.start()
    try:
        ok, text = prog.command("protocol_version", timeout)
    except PlayerError as e:
        raise PlayerError(e.kind, "it does not seem to speak the protocol "
                          "(%s)" % e)
    if not ok:
        raise PlayerError("start", "protocol_version failed: %s" % text)
    for cmd in setup:
        ok, text = prog.command(cmd, timeout)
        if not ok:
            prog.kill()
            raise PlayerError("start", "set-up command %r failed: %s" %
                              (cmd, text))


class Table:
    """One worker's processes: a referee and one process per program,
    kept between games and restarted when they die."""

    def __init__(self, cfg, wid):
        self.cfg = cfg
        self.referee = Program(cfg.referee_argv, "referee",
                               os.path.join(cfg.tmpdir, "referee-%d" % wid))
        self.progs = [Program(p["argv"], p["name"],
                              os.path.join(cfg.tmpdir, "p%d-%d" % (i, wid)))
                      for i, p in enumerate(cfg.players)]

    def close(self):
        for p in [self.referee] + self.progs:
            p.stop()

    def signal_kill(self):
        """Kill every process without touching the pipes (another thread
        may be reading them): that thread then sees the programs exit."""
        for p in [self.referee] + self.progs:
            p.signal_kill()

    # ---- the referee ----

    def ref(self, cmd):
        """A referee command that must succeed."""
        ok, text = self.ref_try(cmd)
        if not ok:
            raise RefereeError("referee refused %r: %s" % (cmd, text))
        return text

    def ref_try(self, cmd):
        if not self.referee.alive():
            try:
                self.referee.start()
            except PlayerError as e:
                raise RefereeError("referee: %s" % e)
        try:
            return self.referee.command(cmd, max(60.0, self.cfg.timeout))
        except PlayerError as e:
            raise RefereeError("referee %s" % e)

    # ---- one game ----

    def play(self, game_no):
        """Plays game game_no and returns its result dict.  Raises
        RefereeError when the referee fails (the game is then aborted)."""
        cfg = self.cfg
        k = len(self.progs)
        t0 = time.monotonic()
        seed = game_seed(cfg.match_seed, game_no, k, cfg.repeat)
        self.ref(cfg.newgame(seed))
        start = next((l for l in self.ref("history").split("\n")
                      if l.startswith("newgame ")), None)
        if start is None:
            raise RefereeError("referee history has no newgame line")
        phase, first = parse_status(self.ref("status"))
        if phase == "over" or not 1 <= first <= k:
            raise RefereeError("game starts with status %s %d" %
                               (phase, first))
        seats = seat_programs(game_no, first, k)
        result = {"game": game_no, "seed": seed, "newgame": start,
                  "seats": seats, "first": first, "moves": 0}
        try:
            self._run(start, seats, result)
        except Forfeit as f:
            result["forfeit"] = {"seat": f.seat, "kind": f.kind,
                                 "reason": str(f)}
            result["status"] = "forfeit %d" % f.seat
        self._finish(result, k)
        result["record"] = self.ref("history")
        result["seconds"] = round(time.monotonic() - t0, 3)
        return result

    def _player(self, seat, seats, cmd, what):
        """Send cmd to the program in seat; forfeit on any failure.
        Returns the answer text of a successful command."""
        prog = self.progs[seats[seat - 1]]
        try:
            ok, text = prog.command(cmd, self.cfg.timeout)
        except PlayerError as e:
            raise Forfeit(seat, e.kind, str(e))
        if not ok:
            raise Forfeit(seat, "refused", "refused %s: %s" % (what, text))
        return text

    def _run(self, start, seats, result):
        cfg = self.cfg
        k = len(seats)
        for seat in range(1, k + 1):
            i = seats[seat - 1]
            prog = self.progs[i]
            if not prog.alive():
                try:
                    start_player(prog, cfg.players[i]["setup"],
                                 cfg.setup_timeout)
                except PlayerError as e:
                    raise Forfeit(seat, "start", "could not be (re)started: "
                                  "%s" % e)
            self._player(seat, seats, start, "the game's newgame line")
        while True:
            phase, p = parse_status(self.ref("status"))
            if phase == "over":
                result["status"] = "over %s" % (p if p else "draw")
                return
            if not 1 <= p <= k:
                raise RefereeError("status names player %d of %d" % (p, k))
            if phase == "roll":
                n = self.ref("roll").strip()
                if not n.lstrip("-").isdigit():
                    raise RefereeError("referee rolled %r" % n)
                for seat in range(1, k + 1):
                    self._player(seat, seats, "roll %s" % n,
                                 "the roll %s" % n)
                continue
            move = self._genmove(p, seats)
            ok, why = self.ref_try("play %s" % move)
            if not ok:
                raise Forfeit(p, "illegal", "illegal move %s: %s" %
                              (move, why))
            result["moves"] += 1
            for seat in range(1, k + 1):
                if seat != p:
                    self._player(seat, seats, "play %s" % move,
                                 "player %d's move %s" % (p, move))

    def _genmove(self, p, seats):
        prog = self.progs[seats[p - 1]]
        try:
            ok, text = prog.command("genmove", self.cfg.timeout)
        except PlayerError as e:
            raise Forfeit(p, e.kind, str(e))
        move = text.strip()
        if not ok:
            raise Forfeit(p, "refused", "genmove failed: %s" % text)
        if move.lower() == "resign":
            raise Forfeit(p, "resigned", "resigned")
        if not MOVE_RE.match(move):
            prog.kill()
            raise Forfeit(p, "malformed", "answered genmove with %r, which "
                          "is not one move" % text[:60])
        return move

    def _finish(self, result, k):
        """Fill in points, outcomes and the referee's score."""
        score = parse_score(self.ref("score"))
        if score is not None and len(score) == k:
            result["score"] = score
        f = result.get("forfeit")
        if f:
            # The forfeiting seat loses; the others share the point.
            rest = k - 1
            result["points"] = [0.0 if s == f["seat"] else 1.0 / rest
                                for s in range(1, k + 1)]
            result["outcome"] = ["loss" if s == f["seat"] else
                                 ("win" if rest == 1 else "draw")
                                 for s in range(1, k + 1)]
            return
        _, p = parse_status(result["status"])
        if p:
            result["points"] = [1.0 if s == p else 0.0
                                for s in range(1, k + 1)]
            result["outcome"] = ["win" if s == p else "loss"
                                 for s in range(1, k + 1)]
            return
        # A draw: in a game of more than two, those tied for the best
        # score share the point and the rest lose.
        tied = list(range(1, k + 1))
        if k > 2 and result.get("score"):
            best = max(result["score"])
            tied = [s for s in tied if result["score"][s - 1] == best]
        result["points"] = [1.0 / len(tied) if s in tied else 0.0
                            for s in range(1, k + 1)]
        result["outcome"] = ["draw" if s in tied else "loss"
                             for s in range(1, k + 1)]


def split_command(text):
    return shlex.split(text)
