"""tournament_match: plays one game between programs under a referee.

The referee is an instance of our engine that holds the official game.  It
starts each game from `newgame GAME seed=S options`, and its `history`
gives back that start with every option explicit (who moves first, a
random board written out), which is what every player receives, so all
players start from exactly the referee's position whatever their own
random generators do.  Chance comes only from the referee (`roll`), and
every player is told the value (`roll N`).  A player's move is checked on
the referee before anyone else hears it.

Under a clock the runner tells each program the time control at the start
of a game and its time left before each of its moves (or, to a program
without the clock commands, a `set movetime` from its clock), times every
`genmove` itself, and the program whose clock runs out loses.

A game ends when the referee says `over P` or `over draw`, when --maxplies
moves were played (a draw), or when a player breaks a rule of the match
(an illegal move, a crash, a malformed answer, a timeout or its clock
running out, refusing a command every player must accept): that player
forfeits, the reason is recorded, and the match goes on.  Trouble with the
referee itself aborts the game instead: it is nobody's loss.
"""

import hashlib
import itertools
import os
import re
import shlex
import time

from .tournament_clock import Clock, secs, settings_commands
from .tournament_proc import PlayerError, Program

MOVE_RE = re.compile(r"\S+\Z")


class RefereeError(Exception):
    pass


class Forfeit(Exception):
    """Seat `seat` (1-based) loses the game; kind and reason say why;
    cancelled when the program died as a cancelled job's programs do."""

    def __init__(self, seat, kind, reason, cancelled=False):
        super().__init__(reason)
        self.seat = seat
        self.kind = kind
        self.cancelled = cancelled

    @classmethod
    def of(cls, seat, e):
        """The forfeit for PlayerError e."""
        return cls(seat, e.kind, str(e), e.cancelled())


def encounters(mode, nprog, k):
    """The groups of programs (tuples of program indices, in order) that
    meet: in a match the k programs given; in a round robin every group of
    k; in a gauntlet every group of k that holds program 0."""
    if mode == "match":
        return [tuple(range(nprog))]
    if mode == "gauntlet":
        return [(0,) + c for c in itertools.combinations(range(1, nprog),
                                                         k - 1)]
    return list(itertools.combinations(range(nprog), k))


class Schedule:
    """Which programs play game number g (from 1), with which seed and in
    which seats.  Games come in blocks of k, one per seat rotation of one
    encounter; a round is one block of every encounter in turn.  With
    repeat every game of a round shares a seed (the same set-up and dice
    for every encounter and seating: with 2 seats, games 2i-1 and 2i are a
    pair with the seats swapped).  With both_ways, every other round turns
    the programs through the seats in the opposite order, so that with 3
    seats two rounds give all six orders and no program always sits on
    the same side of another (with 2 seats the two ways are one).  Depends
    only on the match seed and the game number, so shards and resumed runs
    agree."""

    def __init__(self, match_seed, groups, k, repeat, both_ways=True):
        self.match_seed = match_seed
        self.groups = groups
        self.k = k
        self.repeat = repeat
        self.both_ways = both_ways

    def round_games(self):
        return len(self.groups) * self.k

    def group(self, g):
        return self.groups[((g - 1) // self.k) % len(self.groups)]

    def seed(self, g):
        block = (g - 1) // self.k
        key = block // len(self.groups) if self.repeat else g - 1
        h = hashlib.sha256(b"tournament %d %d" %
                           (self.match_seed, key)).digest()
        return int.from_bytes(h[:6], "big")

    def seats(self, g, first):
        """The program in each seat: the group's program (g - 1) mod k
        takes the seat that moves first, the others follow in turn order
        (in the group's order, or against it in the odd rounds of
        both_ways), so within a block each moves first once."""
        group = self.group(g)
        r = (g - 1) % self.k
        back = self.both_ways and (g - 1) // self.round_games() % 2
        step = -1 if back else 1
        seats = [0] * self.k
        for i in range(self.k):
            seats[(first - 1 + i) % self.k] = group[(r + step * i) % self.k]
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


def parse_teams(text):
    """The teams of a game_info answer, each a list of players ([] when
    nobody plays in a team)."""
    teams = []
    for line in text.split("\n"):
        w = line.split()
        if len(w) > 2 and w[0] == "team" and all(x.isdigit() for x in w[1:]):
            teams.append([int(x) for x in w[1:]])
    return teams


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

    def __init__(self, game, options, schedule, players, referee_argv,
                 timeout, tmpdir, clock=None, margin=0.1, maxplies=None):
        self.game = game
        self.options = options          # list of key=value words
        self.schedule = schedule
        self.players = players          # [{"name", "argv", "setup"}]
        self.referee_argv = referee_argv
        self.timeout = timeout
        self.tmpdir = tmpdir
        self.setup_timeout = timeout
        self.clock = clock              # tournament_clock settings or None
        self.margin = margin            # seconds
        self.maxplies = maxplies

    def newgame(self, seed):
        return " ".join(["newgame", self.game, "seed=%d" % seed] +
                        self.options)


# The commands a program may know that the runner uses when they are there.
CLOCK_COMMANDS = ("time_settings", "kgs-time_settings", "time_left", "set")


def start_player(prog, setup, timeout, clock=False):
    """(Re)start a program and send its set-up commands; with a clock, ask
    which clock commands it knows (prog.knows).  Raises PlayerError with a
    reason people can act on."""
    prog.start()
    try:
        ok, text = prog.request("protocol_version", timeout)
    except PlayerError as e:
        raise PlayerError(e.kind, "it does not seem to speak the protocol "
                          "(%s)" % e)
    if not ok:
        raise PlayerError("start", "protocol_version failed: %s" % text)
    for cmd in setup:
        ok, text = prog.request(cmd, timeout)
        if not ok:
            prog.kill()
            raise PlayerError("start", "set-up command %r failed: %s" %
                              (cmd, text))
    prog.knows = set()
    prog.movetime_ok = True
    if clock:
        for name in CLOCK_COMMANDS:
            ok, text = prog.request("known_command %s" % name, timeout)
            if ok and text.strip() == "true":
                prog.knows.add(name)


class Stopped(Exception):
    """The match is shutting down: nothing may be (re)started."""


class Table:
    """One worker's processes: a referee and one process per program it
    plays, kept between games and restarted when they die.  Programs not
    seated in a game are stopped, so a round robin of many programs keeps
    only one game's worth running per worker."""

    def __init__(self, cfg, wid, stopping):
        self.cfg = cfg
        self.wid = wid
        self.stopping = stopping
        self.referee = Program(cfg.referee_argv, "referee",
                               os.path.join(cfg.tmpdir, "referee-%d" % wid))
        self.progs = {}

    def close(self):
        for p in [self.referee] + list(self.progs.values()):
            p.stop()

    def signal_kill(self):
        """Kill every process without touching the pipes (another thread
        may be reading them): that thread then sees the programs exit."""
        for p in [self.referee] + list(self.progs.values()):
            p.signal_kill()

    # ---- the referee ----

    def ref(self, cmd):
        """A referee command that must succeed."""
        ok, text = self.ref_try(cmd)
        if not ok:
            raise RefereeError("referee refused %r: %s" % (cmd, text))
        return text

    def ref_try(self, cmd):
        """A referee command.  The referee is only (re)started at the start
        of a game: one that died during a game takes that game with it."""
        try:
            return self.referee.request(cmd, max(60.0, self.cfg.timeout))
        except PlayerError as e:
            raise RefereeError("referee %s" % e)

    # ---- one game ----

    def play(self, game_no):
        """Plays game game_no and returns its result dict.  Raises
        RefereeError when the referee fails (the game is then aborted),
        Stopped when the match is shutting down.  Afterwards cancelled
        says whether a player died as a cancelled job's programs do (the
        result may then be the runner's own shutdown arriving late)."""
        cfg = self.cfg
        sched = cfg.schedule
        k = sched.k
        t0 = time.monotonic()
        seed = sched.seed(game_no)
        if not self.referee.alive():
            if self.stopping.is_set():
                raise Stopped()
            try:
                self.referee.start()
            except PlayerError as e:
                raise RefereeError("referee: %s" % e)
        self.ref(cfg.newgame(seed))
        start = next((l for l in self.ref("history").split("\n")
                      if l.startswith("newgame ")), None)
        if start is None:
            raise RefereeError("referee history has no newgame line")
        teams = parse_teams(self.ref("game_info"))
        phase, first = parse_status(self.ref("status"))
        if phase == "over" or not 1 <= first <= k:
            raise RefereeError("game starts with status %s %d" %
                               (phase, first))
        seats = sched.seats(game_no, first)
        for i in list(self.progs):
            if i not in seats:
                self.progs.pop(i).stop()
        result = {"game": game_no, "seed": seed, "newgame": start,
                  "seats": seats, "first": first, "moves": 0, "times": []}
        if teams:
            result["teams"] = teams
        clocks = None
        if cfg.clock:
            clocks = [Clock(cfg.clock, cfg.margin) for _ in seats]
            result["clock"] = [None] * k
            result["left"] = []
        self.cancelled = False
        try:
            self._run(start, seats, result, clocks)
        except Forfeit as f:
            result["forfeit"] = {"seat": f.seat, "kind": f.kind,
                                 "reason": str(f)}
            result["status"] = "forfeit %d" % f.seat
            self.cancelled = f.cancelled
        self._finish(result, k)
        result["record"] = self.ref("history")
        result["seconds"] = round(time.monotonic() - t0, 3)
        return result

    def _prog(self, i):
        prog = self.progs.get(i)
        if prog is None:
            pl = self.cfg.players[i]
            prog = Program(pl["argv"], pl["name"],
                           os.path.join(self.cfg.tmpdir,
                                        "p%d-%d" % (i, self.wid)))
            self.progs[i] = prog
        return prog

    def _player(self, seat, seats, cmd, what):
        """Send cmd to the program in seat; forfeit on any failure.
        Returns the answer text of a successful command."""
        prog = self.progs[seats[seat - 1]]
        try:
            ok, text = prog.request(cmd, self.cfg.timeout)
        except PlayerError as e:
            raise Forfeit.of(seat, e)
        if not ok:
            raise Forfeit(seat, "refused", "refused %s: %s" % (what, text))
        return text

    def _run(self, start, seats, result, clocks):
        cfg = self.cfg
        k = len(seats)
        for seat in range(1, k + 1):
            i = seats[seat - 1]
            prog = self._prog(i)
            if not prog.alive():
                if self.stopping.is_set():
                    raise Stopped()
                try:
                    start_player(prog, cfg.players[i]["setup"],
                                 cfg.setup_timeout, clocks is not None)
                except PlayerError as e:
                    raise Forfeit(seat, "start", "could not be (re)started: "
                                  "%s" % e)
            self._player(seat, seats, start, "the game's newgame line")
            if clocks:
                result["clock"][seat - 1] = self._tell_clock(seat, seats)
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
            if cfg.maxplies is not None and result["moves"] >= cfg.maxplies:
                result["status"] = "adjudicated draw"
                result["adjudicated"] = {"reason": "maxplies",
                                         "plies": cfg.maxplies}
                return
            move = self._genmove(p, seats, result, clocks)
            ok, why = self.ref_try("play %s" % move)
            if not ok:
                raise Forfeit(p, "illegal", "illegal move %s: %s" %
                              (move, why))
            result["moves"] += 1
            for seat in range(1, k + 1):
                if seat != p:
                    self._player(seat, seats, "play %s" % move,
                                 "player %d's move %s" % (p, move))

    def _tell_clock(self, seat, seats):
        """Sends the time control to the program in seat at the start of a
        game.  Returns "clock" when it takes the clock commands, else
        "fallback" (it will get `set movetime` before each move)."""
        prog = self.progs[seats[seat - 1]]
        if "time_left" not in prog.knows:
            return "fallback"
        for cmd in settings_commands(self.cfg.clock, prog.knows):
            try:
                ok, _ = prog.request(cmd, self.cfg.timeout)
            except PlayerError as e:
                raise Forfeit.of(seat, e)
            if ok:
                return "clock"
        return "fallback"

    def _genmove(self, p, seats, result, clocks):
        cfg = self.cfg
        prog = self.progs[seats[p - 1]]
        timeout = cfg.timeout
        clock = clocks[p - 1] if clocks else None
        if clock:
            if result["clock"][p - 1] == "clock":
                left, stones = clock.time_left()
                self._player(p, seats, "time_left %d %s %d" %
                             (p, secs(left), stones), "time_left")
            elif "set" in prog.knows and prog.movetime_ok:
                try:
                    ok, _ = prog.request("set movetime %d" %
                                         clock.fallback_ms(), cfg.timeout)
                except PlayerError as e:
                    raise Forfeit.of(p, e)
                # A program with its own `set` but no movetime simply
                # thinks as it likes: not worth asking it every move.
                prog.movetime_ok = ok
            timeout = clock.limit() + cfg.margin
        t0 = time.monotonic()
        try:
            ok, text = prog.request("genmove", timeout)
        except PlayerError as e:
            if clock and e.kind == "timeout":
                raise Forfeit(p, "time", "lost on time: no move within the "
                              "%s s its clock had (margin %d ms)" %
                              (secs(clock.limit()), round(cfg.margin * 1000)))
            raise Forfeit.of(p, e)
        elapsed = time.monotonic() - t0
        move = text.strip()
        if not ok:
            raise Forfeit(p, "refused", "genmove failed: %s" % text)
        if move.lower() == "resign":
            raise Forfeit(p, "resigned", "resigned")
        if not MOVE_RE.match(move):
            prog.kill()
            raise Forfeit(p, "malformed", "answered genmove with %r, which "
                          "is not one move" % text[:60])
        if clock:
            limit = clock.limit()
            if not clock.spend(elapsed):
                raise Forfeit(p, "time", "lost on time: took %.3f s with "
                              "%s s on its clock (margin %d ms)" %
                              (elapsed, secs(limit),
                               round(cfg.margin * 1000)))
            result["left"].append(round(1000 * clock.time_left()[0]))
        result["times"].append([p, round(1000 * elapsed)])
        return move

    def _finish(self, result, k):
        """Fill in points, outcomes and the referee's score."""
        score = parse_score(self.ref("score"))
        if score is not None and len(score) == k:
            result["score"] = score

        def team(p):  # p and its partners (game_info's teams)
            return next((t for t in result.get("teams", []) if p in t), [p])
        f = result.get("forfeit")
        if f:
            # The forfeiting seat's team loses; the others share the point.
            out = team(f["seat"])
            rest = [s for s in range(1, k + 1) if s not in out]
            won = "win" if team(rest[0]) == rest else "draw"
            result["points"] = [0.0 if s in out else 1.0 / len(rest)
                                for s in range(1, k + 1)]
            result["outcome"] = ["loss" if s in out else won
                                 for s in range(1, k + 1)]
            return
        if result.get("adjudicated"):
            result["points"] = [1.0 / k] * k
            result["outcome"] = ["draw"] * k
            return
        _, p = parse_status(result["status"])
        if p:
            # status names a winning team by its first player
            won = team(p)
            result["points"] = [1.0 / len(won) if s in won else 0.0
                                for s in range(1, k + 1)]
            result["outcome"] = ["win" if s in won else "loss"
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
