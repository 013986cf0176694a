"""tournament: play a match, a round robin or a gauntlet of one game
between programs that speak the engine protocol, with our engine as
referee.

  scripts/tournament GAME [OPTION ...] -p CMD [-s SETUP] [-n NAME] -p CMD ...
  scripts/tournament --resume RESULTS.json [-j N] [--report FILE.html]
  scripts/tournament merge RESULTS.json ... [-o ALL.json] [--record FILE]
  scripts/tournament --check CMD [GAME ...]   (does CMD keep the protocol?)

Run `scripts/tournament --help` for every option; docs/tournament.md has examples.
Python 3 standard library only.  This module is the command itself:
scripts/tournament runs it from a checkout, and installed (pyproject.toml)
it is quintet.runner.tournament, the command quintet-tournament.
"""

import argparse
import json
import math
import os
import random
import shutil
import signal
import sys
import tempfile
import threading
import time
import traceback

from . import tournament_clock as clocks
from . import tournament_html as html
from . import tournament_stats as stats
from .tournament_match import (Config, RefereeError, Schedule, Stopped,
                               Table, encounters, parse_score, split_command,
                               start_player)
from .tournament_proc import PlayerError, Program

# The command's name, in its usage lines and messages: scripts/tournament
# is "tournament", the installed command "quintet-tournament"
# (console_main).
PROG = "tournament"

FORMAT = "quintet-tournament 2"
READS = ("quintet-tournament 1", FORMAT)

# A player that died as a cancelled job's programs do (SIGTERM, ...) may be
# the first sign of a cancel that reaches the runner a moment later (Slurm
# signals every process of the job, in no fixed order): its game waits this
# long for the runner's own signal before it is recorded as a forfeit.
CANCEL_GRACE = 2.0


class Fatal(Exception):
    """An error that stops the runner before or instead of a match."""


def die(msg, code=2):
    sys.stderr.write("%s: %s\n" % (PROG, msg))
    sys.exit(code)


def default_jobs():
    """The CPUs this process may run on (taskset, cgroups, Slurm)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return os.cpu_count() or 1


# ---- command line ----

class PlayerAction(argparse.Action):
    """-p starts a program; -s and -n describe the last -p given."""

    def __call__(self, parser, ns, value, option=None):
        players = getattr(ns, "players", None) or []
        ns.players = players
        if option in ("-p", "--player"):
            players.append({"command": value, "setup": [], "name": None})
            return
        if not players:
            parser.error("%s must follow the -p it belongs to" % option)
        if option in ("-s", "--setup"):
            players[-1]["setup"] += [c.strip() for c in value.split(";")
                                     if c.strip()]
        elif option in ("-T", "--threads"):
            if not value.isdigit() or int(value) < 1:
                parser.error("%s wants a number of threads, not %r"
                             % (option, value))
            players[-1]["setup"].append("set threads %d" % int(value))
        else:
            players[-1]["name"] = value


def parse_games(text):
    """'N' means games 1-N; 'A-B' the games A to B (1-based, inclusive)."""
    try:
        if "-" in text:
            a, b = text.split("-", 1)
            lo, hi = int(a), int(b)
        else:
            lo, hi = 1, int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("--games wants N or FIRST-LAST, "
                                         "not %r" % text)
    if lo < 1 or hi < lo:
        raise argparse.ArgumentTypeError("--games %s: need 1 <= FIRST <= "
                                         "LAST" % text)
    return lo, hi, "-" in text


def positive_float(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a number: %r" % text)
    if not 0 < v < math.inf:
        raise argparse.ArgumentTypeError("must be above 0: %r" % text)
    return v


def positive_int(text):
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a whole number: %r" % text)
    if v < 1:
        raise argparse.ArgumentTypeError("must be at least 1: %r" % text)
    return v


def margin_ms(text):
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("--timemargin wants milliseconds, "
                                         "not %r" % text)
    if v < 0:
        raise argparse.ArgumentTypeError("--timemargin must not be negative")
    return v


def run_parser():
    cmd = "scripts/tournament" if PROG == "tournament" else PROG
    p = argparse.ArgumentParser(
        prog=PROG,
        usage="%(prog)s GAME [OPTION=VALUE ...] -p CMD [-s SETUP] [-n NAME] "
              "-p CMD ... [options]\n       %(prog)s --resume RESULTS.json "
              "[-j N] [--report FILE.html]\n       %(prog)s merge "
              "RESULTS.json ... [-o ALL.json] [--record FILE]\n       "
              "%(prog)s --check CMD [GAME ...] [options]",
        description="Plays a match of GAME between programs that speak the "
        "engine protocol, or a round robin or gauntlet among any number of "
        "them. Our engine is the referee: it checks every move, rolls the "
        "dice and keeps the official record.",
        epilog="Example: %s checkertoe -g 20 "
        "-p ./engine -s 'set movetime 20' -p ./engine -s 'set level 0'. "
        "Threads against one: %s tiptoe -g 200 -j 1 "
        "-p ./engine -s 'set movetime 100' -T 2 -p ./engine -s "
        "'set movetime 100' (-j 1: each game has every core)." % (cmd, cmd))
    p.add_argument("game", metavar="GAME", nargs="?",
                   help="a game from list_games")
    p.add_argument("options", metavar="OPTION", nargs="*",
                   help="newgame options for every game (players=3, float, "
                   "...); in a match of more than 2 programs players=N is "
                   "added")
    g = p.add_argument_group("players (in order; the first is the anchor of "
                             "the ratings)")
    g.add_argument("-p", "--player", metavar="CMD", action=PlayerAction,
                   dest="players", help="a command line that starts a "
                   "program speaking the protocol (split like a shell would, "
                   "not run by one)")
    g.add_argument("-s", "--setup", metavar="CMDS", action=PlayerAction,
                   dest="players", help="commands sent to the last -p "
                   "program when it starts, separated by ';' "
                   "('set level 1; set playouts 200')")
    g.add_argument("-n", "--name", metavar="NAME", action=PlayerAction,
                   dest="players", help="a name for the last -p program")
    g.add_argument("-T", "--threads", metavar="N", action=PlayerAction,
                   dest="players", help="the last -p program searches on N "
                   "threads (a set-up command: set threads N); keep -j times "
                   "the threads of a game within the cores")
    g.add_argument("--each", metavar="CMDS", action="append", default=[],
                   help="set-up commands for every program, sent before "
                   "their own -s")
    t = p.add_argument_group("tournament (default: one match, every "
                             "program in every game)")
    mode = t.add_mutually_exclusive_group()
    mode.add_argument("--round-robin", dest="mode", action="store_const",
                      const="round-robin", help="every group of programs "
                      "that fills a game's seats plays (every pair in a "
                      "2-player game)")
    mode.add_argument("--gauntlet", dest="mode", action="store_const",
                      const="gauntlet", help="the first program plays every "
                      "group of the others that fills the seats with it")
    t.add_argument("--anchor", metavar="NAME|N", help="the program whose "
                   "rating is fixed at 0 (default: the first)")
    m = p.add_argument_group("match")
    m.add_argument("-g", "--games", metavar="N|FIRST-LAST", type=parse_games,
                   help="how many games in all, or which game numbers this "
                   "shard plays, such as 1-500 (default: 10 an encounter, "
                   "rounded up to whole rounds)")
    m.add_argument("--rounds", metavar="R", type=positive_int,
                   help="every encounter plays R rounds of one game per "
                   "seating (-g R x encounters x seats)")
    m.add_argument("--seed", type=int, help="the match seed: every game's "
                   "seed and seating follow from it and the game number "
                   "(default: random, printed; required with FIRST-LAST)")
    m.add_argument("--no-repeat", action="store_true",
                   help="a new seed for every game; by default each round "
                   "of games shares a seed (the same set-up and dice) with "
                   "the programs rotated through the seats")
    m.add_argument("-j", "--jobs", type=positive_int, default=default_jobs(),
                   help="games played at once (default: the CPUs this "
                   "process may use, %(default)s here)")
    m.add_argument("-t", "--timeout", type=positive_float,
                   metavar="SECONDS", help="a program that takes longer to "
                   "start or to answer one command loses the game; under a "
                   "clock genmove has its clock instead (default 30)")
    m.add_argument("--maxplies", metavar="N", type=positive_int,
                   help="a game not over after N moves is adjudicated a "
                   "draw")
    m.add_argument("--referee", metavar="CMD",
                   help="our engine, which keeps the official game "
                   "(default ./engine)")
    m.add_argument("--sprt", metavar="ELO0,ELO1,ALPHA,BETA",
                   help="2 programs: stop as soon as the generalized "
                   "sequential probability ratio test decides between Elo "
                   "difference ELO0 and ELO1 (for example 0,10,0.05,0.05)")
    c = p.add_argument_group("clock (the runner keeps every program's clock)")
    tc = c.add_mutually_exclusive_group()
    tc.add_argument("--tc", metavar="MAIN[+INC]", help="Fischer: MAIN "
                    "seconds for the game, INC added after each move "
                    "(10+0.1); without +INC absolute time")
    tc.add_argument("--byoyomi", metavar="MAIN,BYO,STONES",
                    help="Canadian byo-yomi: MAIN seconds, then BYO seconds "
                    "for every STONES moves (10,5,5)")
    c.add_argument("--timemargin", metavar="MS", type=margin_ms,
                   default=100, help="a program loses on time only when "
                   "its clock is more than MS milliseconds below 0 "
                   "(default 100)")
    o = p.add_argument_group("output")
    o.add_argument("-o", "--out", metavar="FILE.json",
                   help="every game's result (for merge and --resume), "
                   "rewritten after every game")
    o.add_argument("--resume", metavar="FILE.json", help="continue the "
                   "match of FILE (made with -o): play only the games it "
                   "lacks, writing to FILE unless -o says otherwise")
    o.add_argument("--report", metavar="FILE.html", help="a self-contained "
                   "HTML page of the match, rewritten after every game")
    o.add_argument("--record", metavar="FILE", help="write every game's "
                   "record (the referee's history) to one file")
    o.add_argument("--record-dir", metavar="DIR", help="write every game's "
                   "record to DIR/game-NNNN.txt")
    o.add_argument("-q", "--quiet", action="store_true",
                   help="no progress on stderr")
    return p


def merge_parser():
    p = argparse.ArgumentParser(
        prog=PROG + " merge",
        description="Merges the result files of shards of one match "
        "(same game, options, seed, programs and schedule) into one "
        "report.  Fails when a game of the range is missing or in two "
        "files, unless --allow-partial.")
    p.add_argument("files", nargs="+", metavar="RESULTS.json")
    p.add_argument("-o", "--out", metavar="FILE.json",
                   help="write the merged results here")
    p.add_argument("--record", metavar="FILE",
                   help="write every game's record to one file")
    p.add_argument("--report", metavar="FILE.html",
                   help="write the HTML report of the merged results")
    p.add_argument("--sprt", metavar="ELO0,ELO1,ALPHA,BETA",
                   help="also show the SPRT for these bounds")
    p.add_argument("--allow-partial", action="store_true",
                   help="merge even when games are missing or a game is in "
                   "more than one file (identical copies count once)")
    return p


# ---- records and results ----

def record_text(meta, r):
    """A game's record: comment lines, then the referee's history, which the
    engine replays as it stands (`./engine < game-0001.txt`).  Each move
    carries its thinking time (and the clock after it) as a comment."""
    names = [p["name"] for p in meta["players"]]
    lines = ["# game %d of %s, seed %d (match seed %d)" %
             (r["game"], meta["game"], r["seed"], meta["seed"])]
    for s, prog in enumerate(r["seats"]):
        how = ""
        if r.get("clock"):
            how = {"clock": " (clock commands)",
                   "fallback": " (no clock commands: set movetime)"}.get(
                       r["clock"][s], "")
        lines.append("# player %d: %s%s" % (s + 1, names[prog], how))
    ct = stats.clock_text(meta.get("clock"))
    if ct:
        lines.append("# clock: %s, margin %d ms" %
                     (ct, meta.get("timemargin", 100)))
    res = "# result: %s" % r["status"]
    if r.get("adjudicated"):
        res += " (not over after %d moves: --maxplies)" % \
            r["adjudicated"]["plies"]
    if r.get("score") is not None:
        res += ", score %s" % " ".join(stats.num(x) for x in r["score"])
    lines.append(res)
    if r.get("forfeit"):
        lines.append("# forfeit: player %d %s" %
                     (r["forfeit"]["seat"], r["forfeit"]["reason"].replace(
                         "\n", " ")))
    times = r.get("times", [])
    left = r.get("left", [])
    i = 0
    for line in r["record"].split("\n"):
        if line.startswith("play ") and i < len(times):
            note = "%.3f s" % (times[i][1] / 1000.0)
            if i < len(left):
                note += ", %.3f s left" % (left[i] / 1000.0)
            line += "  # player %d, %s" % (times[i][0], note)
            i += 1
        lines.append(line)
    return "\n".join(lines) + "\n\n"


def write_records(meta, results, path):
    replace_file(path, "".join(record_text(meta, r) for r in
                               sorted(results, key=lambda r: r["game"])))


# A test's way to catch a write half done (tests/test_tournament.py,
# test_killed_mid_write): seconds to pause halfway through each write.
WRITE_PAUSE = float(os.environ.get("TOURNAMENT_WRITE_PAUSE", "0") or 0)


def replace_file(path, text):
    """Write, then rename: a reader (or a kill) never sees half a file.
    The text goes to .NAME.PID.XXXX.tmp in the same directory (so the
    rename stays on one file system), which is removed again when the
    write fails or is interrupted (an exception, or SIGTERM, SIGINT or
    SIGHUP, which the runner turns into one or lets a write finish
    under); what a SIGKILL leaves is swept away by the next write of the
    same file, once its process is gone."""
    d, base = os.path.split(os.path.abspath(path))
    sweep_temps(d, base)
    tmp = None
    try:
        # A signal that lands inside mkstemp, once the file is made but
        # before its name is known here, would leave it behind: the
        # signals that raise wait until the name is held.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, CAUGHT_SIGNALS)
        try:
            fd, tmp = tempfile.mkstemp(prefix=".%s.%d." %
                                       (base, os.getpid()),
                                       suffix=".tmp", dir=d)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        with os.fdopen(fd, "w") as f:
            if WRITE_PAUSE:
                half = len(text) // 2
                f.write(text[:half])
                f.flush()
                time.sleep(WRITE_PAUSE)
                text = text[half:]
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        raise


CAUGHT_SIGNALS = {signal.SIGTERM, signal.SIGINT, signal.SIGHUP}


def sweep_temps(d, base):
    """Removes the temporary files of writes of base whose process no
    longer runs (killed mid-write)."""
    prefix = ".%s." % base
    try:
        names = os.listdir(d)
    except OSError:
        return
    for name in names:
        if not (name.startswith(prefix) and name.endswith(".tmp")):
            continue
        pid = name[len(prefix):].split(".", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
            continue  # still running: another runner's write
        except ProcessLookupError:
            pass
        except OSError:
            continue
        try:
            os.unlink(os.path.join(d, name))
        except OSError:
            pass


def json_text(meta, results, aborted, extra=None, cache=None):
    """The results file: the match's settings, then one game a line.
    cache (game number -> line) saves encoding every game again each time
    a long match rewrites its file."""
    head = dict(meta)
    head["format"] = FORMAT
    if extra:
        head.update(extra)
    lines = ["{"]
    for key, val in head.items():
        lines.append(" %s: %s," % (json.dumps(key), json.dumps(val)))
    for key, rows in (("aborted", aborted), ("results", results)):
        rows = sorted(rows, key=lambda r: r["game"])
        lines.append(" %s: [" % json.dumps(key))
        for i, r in enumerate(rows):
            line = cache.get(r["game"]) if cache is not None else None
            if line is None:
                line = json.dumps(r)
                if cache is not None and key == "results":
                    cache[r["game"]] = line
            lines.append("  %s%s" % (line, "," if i < len(rows) - 1 else ""))
        lines.append(" ]%s" % ("," if key == "aborted" else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        die("%s: %s" % (path, e))
    if not isinstance(doc, dict) or doc.get("format") not in READS:
        die("%s is not a tournament results file" % path)
    doc.setdefault("mode", "match")
    doc.setdefault("seats", len(doc["players"]))
    doc.setdefault("groups", [list(range(len(doc["players"])))])
    doc.setdefault("seating", "cyclic")  # files from before both-ways
    return doc


# ---- the match ----

def default_names(players):
    names = []
    for pl in players:
        if pl["name"]:
            names.append(pl["name"])
            continue
        try:
            argv = split_command(pl["command"])
        except ValueError:
            argv = [pl["command"]]    # reported as an error later
        n = " ".join([os.path.basename(argv[0]) if argv else "?"] +
                     argv[1:])
        if pl["setup"]:
            n += " (%s)" % "; ".join(pl["setup"])
        names.append(n)
    seen = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
    count = {}
    for n in names:
        if seen[n] > 1:
            count[n] = count.get(n, 0) + 1
            out.append("%s #%d" % (n, count[n]))
        else:
            out.append(n)
    return out


def referee_seats(referee_argv, newgame):
    """Starts a referee once to check that the game and options are good;
    returns how many seats a game has.  Fatal errors say what to do."""
    ref = Program(referee_argv, "referee")
    game = newgame.split()[1]
    try:
        try:
            ref.start()
        except PlayerError as e:
            raise Fatal("referee: %s (build the engine with make, or give "
                        "--referee PATH)" % e)
        try:
            ok, text = ref.request("list_games", 10)
            games = [l.split()[0] for l in text.split("\n") if l.split()]
            if game not in games:
                raise Fatal("the referee does not know the game %r; it "
                            "knows: %s" % (game, " ".join(games)))
            ok, text = ref.request(newgame, 10)
            if not ok:
                raise Fatal("the referee refused `%s`: %s" % (newgame, text))
            ok, text = ref.request("score", 10)
            seats = parse_score(text) if ok else None
            if not seats:
                raise Fatal("the referee's score answer %r names no "
                            "players" % text)
            return len(seats)
        except PlayerError as e:
            raise Fatal("referee %s: %s" % (" ".join(referee_argv), e))
    finally:
        ref.stop()


def check_players(cfg, quiet):
    """Starts every program once: clear errors before any game is played."""
    for i, pl in enumerate(cfg.players):
        prog = Program(pl["argv"], pl["name"],
                       os.path.join(cfg.tmpdir, "check-%d" % i))
        try:
            start_player(prog, pl["setup"], cfg.setup_timeout,
                         cfg.clock is not None)
        except PlayerError as e:
            raise Fatal("program %d (%s): %s" % (i + 1, pl["name"], e))
        finally:
            prog.stop()
        if cfg.clock and "time_left" not in prog.knows and not quiet:
            sys.stderr.write("program %d (%s) knows no time_left: it gets "
                             "`set movetime` from its clock instead\n" %
                             (i + 1, pl["name"]))


class Match:
    def __init__(self, cfg, meta, done, todo, jobs, sprt, quiet, files):
        self.cfg = cfg
        self.meta = meta
        self.todo = list(todo)
        self.total = len(done) + len(todo)
        self.jobs = max(1, min(jobs, len(self.todo)))
        self.sprt = sprt
        self.quiet = quiet
        self.files = files
        self.lock = threading.Lock()
        # stop: no new games; stopping: games under way are abandoned too
        self.stop = threading.Event()
        self.stopping = threading.Event()
        self.signum = None
        self.results = []
        self.aborted = []
        self.names = [p["name"] for p in cfg.players]
        self.summary = stats.Summary(len(self.names), cfg.schedule.k,
                                     cfg.schedule.repeat)
        self.history = []
        self.lines = {}
        self.sprt_stop = meta.get("sprt_stop")
        self.tables = []
        self.crashed = None
        self.t0 = time.monotonic()
        self.started = 0
        self.before = len(done)
        for r in sorted(done, key=lambda r: r["game"]):
            self.results.append(r)
            self.summary.add(r)
            self.history.append(self.snapshot())

    def snapshot(self):
        """The standings after the games so far, for the report's chart."""
        s = self.summary
        point = {"games": len(self.results),
                 "score": [s.points[i] / s.games[i] if s.games[i] else None
                           for i in range(s.n)],
                 "ratings": s.ratings(self.meta.get("anchor", 0))}
        if self.sprt:
            point["llr"] = s.sprt_llr(self.sprt)[0]
        return point

    def next_game(self):
        with self.lock:
            if self.stop.is_set() or not self.todo:
                return None
            self.started += 1
            return self.todo.pop(0)

    def abandoned(self):
        """Games started in this run that left no result."""
        return self.started - (len(self.results) - self.before) - \
            len(self.aborted)

    def worker(self, wid):
        table = Table(self.cfg, wid, self.stopping)
        with self.lock:
            self.tables.append(table)
        try:
            while True:
                g = self.next_game()
                if g is None:
                    return
                try:
                    r = table.play(g)
                except Stopped:
                    return
                except RefereeError as e:
                    # A referee that dies may be the first sign of a
                    # cancel, like a player that does.
                    if self.stopping.wait(CANCEL_GRACE):
                        return
                    table.referee.kill()
                    self.done_aborted(g, str(e))
                    continue
                except Exception:
                    # After a stop the programs were killed under the
                    # game's feet: nothing of it is worth reporting.
                    if self.stopping.is_set():
                        return
                    # A bug here: stop the match, keep what was played.
                    with self.lock:
                        self.crashed = traceback.format_exc()
                    self.stop.set()
                    return
                if table.cancelled and self.stopping.wait(CANCEL_GRACE):
                    return
                if not self.done(r):
                    return
        finally:
            table.close()

    def done_aborted(self, g, reason):
        with self.lock:
            if self.stopping.is_set():
                return
            self.aborted.append({"game": g, "reason": reason})
            self.write_files()
            if not self.quiet:
                sys.stderr.write("[%d/%d] game %d aborted: %s\n" %
                                 (len(self.results) + len(self.aborted),
                                  self.total, g, reason))

    def done(self, r):
        """Records a finished game; False when the match is stopping (the
        game then counts for nothing: it finished after the stop)."""
        with self.lock:
            if self.stopping.is_set():
                return False
            self.results.append(r)
            self.summary.add(r)
            self.history.append(self.snapshot())
            if self.files["record_dir"]:
                path = os.path.join(self.files["record_dir"],
                                    "game-%04d.txt" % r["game"])
                replace_file(path, record_text(self.meta, r))
            if not self.quiet:
                sys.stderr.write("[%d/%d] game %d: %s | %s\n" % (
                    len(self.results) + len(self.aborted), self.total,
                    r["game"], self.describe(r),
                    self.summary.running(self.names)))
            if self.sprt and not self.sprt_stop:
                llr = self.history[-1]["llr"]
                verdict = stats.sprt_verdict(llr, self.sprt)
                if verdict:
                    # Games under way are abandoned, so every figure of
                    # the report is the one the decision was taken on.
                    self.sprt_stop = {"game": r["game"],
                                      "games": len(self.results),
                                      "llr": round(llr, 4),
                                      "verdict": verdict}
                    self.halt()
                    if not self.quiet:
                        sys.stderr.write("SPRT: %s accepted after %d games "
                                         "(LLR %.2f); games under way are "
                                         "abandoned\n" % (
                                             verdict, len(self.results),
                                             llr))
            self.write_files()
            return True

    def extra(self, state):
        extra = {"seconds": round(time.monotonic() - self.t0, 1),
                 "state": state}
        if self.sprt_stop:
            extra["sprt_stop"] = self.sprt_stop
        return extra

    def write_files(self, state="running"):
        """-o and --report after every game (under the lock)."""
        if self.files["out"]:
            replace_file(self.files["out"], json_text(
                self.meta, self.results, self.aborted, self.extra(state),
                self.lines))
        if self.files["report"]:
            replace_file(self.files["report"], html.page(
                self.meta, self.results, self.aborted, self.history,
                self.sprt, self.sprt_stop, state, self.summary))

    def describe(self, r):
        names = [self.names[i] for i in r["seats"]]
        f = r.get("forfeit")
        if f:
            return "%s forfeits: %s" % (names[f["seat"] - 1], f["reason"])
        if r.get("adjudicated"):
            return "draw (not over after %d moves)" % \
                r["adjudicated"]["plies"]
        winners = [names[s] for s, o in enumerate(r["outcome"])
                   if o == "win"]
        if len(winners) > 1:  # a team
            return "%s win" % " and ".join(winners)
        if winners:
            return "%s wins" % winners[0]
        return "draw"

    def halt(self):
        """Stop the match now: no new games, games under way abandoned,
        every program killed (nothing is restarted after this)."""
        self.stop.set()
        self.stopping.set()
        for tb in list(self.tables):
            tb.signal_kill()

    def on_signal(self, signum, frame):
        if self.signum is None:
            self.signum = signum
        self.halt()

    def run(self):
        threads = [threading.Thread(target=self.worker, args=(w,),
                                    daemon=True) for w in range(self.jobs)]
        old = {s: signal.signal(s, self.on_signal)
               for s in CAUGHT_SIGNALS}
        try:
            if self.sprt and self.sprt_stop:
                return
            for t in threads:
                t.start()
            for t in threads:
                while t.is_alive():
                    t.join(0.2)
        finally:
            for s, h in old.items():
                signal.signal(s, h)


def resolve_anchor(text, names):
    if text is None:
        return 0
    if text in names:
        return names.index(text)
    try:
        i = int(text)
    except ValueError:
        die("--anchor %s: no program has that name (give a name from -n or "
            "a number from 1)" % text)
    if not 1 <= i <= len(names):
        die("--anchor %d: there are %d programs" % (i, len(names)))
    return i - 1


def new_meta(args):
    """The match's settings from the command line (what --resume reads
    back).  Leaves seats, groups and range to be filled once the referee
    said how many seats a game has."""
    players = getattr(args, "players", None) or []
    if not args.game:
        die("name a game (or give --resume FILE)")
    mode = args.mode or "match"
    if mode == "match" and not 2 <= len(players) <= 4:
        die("give 2 to 4 programs with -p (got %d); --round-robin or "
            "--gauntlet take more" % len(players))
    if mode != "match" and len(players) < 2:
        die("a %s needs at least 2 programs (got %d)" % (mode,
                                                          len(players)))
    if args.sprt:
        if len(players) != 2:
            die("--sprt needs exactly 2 programs")
        try:
            stats.parse_sprt(args.sprt)
        except ValueError as e:
            die(str(e))
    if args.games and args.rounds:
        die("give -g or --rounds, not both")
    if args.games and args.games[2] and args.seed is None:
        die("a shard (--games FIRST-LAST) needs the match's --seed, so "
            "that every shard plays the same games")
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1, 1 << 31)
    if args.seed < 0:
        die("--seed must not be negative")
    options = [o.lower() for o in args.options]
    for o in options:
        if o.split("=", 1)[0] == "seed":
            die("give the match seed with --seed, not seed= (each game gets "
                "its own seed from it)")
    if (mode == "match" and len(players) != 2 and
            not any(o.startswith("players=") for o in options)):
        options.append("players=%d" % len(players))
    clock = None
    try:
        if args.tc:
            clock = clocks.parse_tc(args.tc)
        elif args.byoyomi:
            clock = clocks.parse_byoyomi(args.byoyomi)
    except ValueError as e:
        die(str(e))
    names = default_names(players)
    each = []
    for e in args.each:
        each += [c.strip() for c in e.split(";") if c.strip()]
    return {"game": args.game.lower(), "options": options,
            "seed": args.seed, "repeat": not args.no_repeat, "mode": mode,
            "seating": "both-ways",
            "players": [{"name": n, "command": pl["command"],
                         "setup": each + pl["setup"]}
                        for pl, n in zip(players, names)],
            "anchor": resolve_anchor(args.anchor, names),
            "clock": clock, "timemargin": args.timemargin,
            "timeout": args.timeout or 30.0, "maxplies": args.maxplies,
            "sprt": list(stats.parse_sprt(args.sprt)) if args.sprt else None,
            "referee": args.referee or "./engine"}


# What --resume takes from the file: the options that define the match.
MATCH_OPTIONS = ("game", "options", "players", "mode", "anchor", "games",
                 "rounds", "seed", "no_repeat", "timeout", "maxplies", "sprt",
                 "tc", "byoyomi", "each")


def resumed_meta(args):
    given = [o for o in MATCH_OPTIONS
             if getattr(args, o, None) not in (None, [], False)]
    if args.timemargin != 100:
        given.append("timemargin")
    if given:
        die("--resume takes the match from %s; these cannot be given with "
            "it: %s" % (args.resume, ", ".join(given)))
    doc = load(args.resume)
    meta = {k: v for k, v in doc.items()
            if k not in ("format", "results", "aborted", "seconds", "state")}
    meta.setdefault("anchor", 0)
    meta.setdefault("timeout", 30.0)
    meta.setdefault("timemargin", 100)
    meta.setdefault("clock", None)
    meta.setdefault("maxplies", None)
    meta.setdefault("sprt", None)
    meta.setdefault("referee", "./engine")
    if args.referee:
        meta["referee"] = args.referee
    return meta, doc["results"]


def run(argv):
    args = run_parser().parse_args(argv)
    if args.resume:
        meta, done = resumed_meta(args)
        out = args.out or args.resume
    else:
        meta, done = new_meta(args), []
        out = args.out
    try:
        referee_argv = split_command(meta["referee"])
    except ValueError as e:
        die("--referee: %s" % e)
    if not referee_argv:
        die("--referee is empty")
    cfg_players = []
    for pl in meta["players"]:
        try:
            argv = split_command(pl["command"])
        except ValueError as e:
            die("-p %s: %s" % (pl["command"], e))
        if not argv:
            die("-p with an empty command")
        cfg_players.append({"name": pl["name"], "argv": argv,
                            "setup": pl["setup"]})
    for path in (out, args.record, args.report):
        if path and os.path.isdir(path):
            die("%s is a directory" % path)
        if path and not os.path.isdir(os.path.dirname(path) or "."):
            die("%s: no such directory" % os.path.dirname(path))
    if args.record_dir:
        os.makedirs(args.record_dir, exist_ok=True)
    newgame0 = " ".join(["newgame", meta["game"], "seed=1"] + meta["options"])
    try:
        k = referee_seats(referee_argv, newgame0)
    except Fatal as e:
        die(str(e))
    nprog = len(cfg_players)
    if meta["mode"] == "match" and k != nprog:
        die("%s %s seats %d players, but %d programs were given%s" % (
            meta["game"], " ".join(meta["options"]), k, nprog,
            " (players=N picks the number)" if nprog != 2 else
            " (--round-robin or --gauntlet for more programs than seats)"))
    if nprog < k:
        die("%s %s seats %d players, but only %d programs were given" % (
            meta["game"], " ".join(meta["options"]), k, nprog))
    groups = [list(g) for g in encounters(meta["mode"], nprog, k)]
    if "seats" in meta and (meta["seats"] != k or meta["groups"] != groups):
        die("%s was made for another schedule (%d seats, %d encounters)" %
            (args.resume, meta["seats"], len(meta["groups"])))
    meta["seats"] = k
    meta["groups"] = groups
    if "range" not in meta:
        if args.games:
            lo, hi = args.games[:2]
        else:
            rounds = args.rounds or -(-10 // k)
            lo, hi = 1, rounds * len(groups) * k
        meta["range"] = [lo, hi]
    lo, hi = meta["range"]
    sprt = tuple(meta["sprt"]) if meta.get("sprt") else None
    have = {r["game"] for r in done}
    todo = [g for g in range(lo, hi + 1) if g not in have]
    tmpdir = tempfile.mkdtemp(prefix="tournament-")
    try:
        schedule = Schedule(meta["seed"], [tuple(g) for g in groups], k,
                            meta["repeat"], meta["seating"] == "both-ways")
        cfg = Config(meta["game"], meta["options"], schedule, cfg_players,
                     referee_argv, meta["timeout"], tmpdir, meta["clock"],
                     meta["timemargin"] / 1000.0, meta["maxplies"])
        try:
            check_players(cfg, args.quiet)
        except Fatal as e:
            die(str(e))
        match = Match(cfg, meta, done, todo, args.jobs, sprt, args.quiet,
                      {"out": out, "report": args.report,
                       "record_dir": args.record_dir})
        if not args.quiet:
            what = "games %d-%d" % (lo, hi)
            if done:
                what += " (%d played before, %d to play)" % (len(done),
                                                             len(todo))
            if meta["mode"] != "match":
                what = "%s of %d encounters, %s" % (
                    meta["mode"], len(groups), what)
            sys.stderr.write("%s: %s, match seed %d, %d at once\n" %
                             (cfg.game, what, meta["seed"], match.jobs))
        match.run()
        note = None
        state = "finished"
        if match.signum is not None:
            state = "interrupted"
            note = ("interrupted by %s: the games finished before it are "
                    "kept, the %d under way were abandoned; --resume %s "
                    "plays the rest" % (
                        signal.Signals(match.signum).name, match.abandoned(),
                        out or "FILE (give -o next time)"))
        with match.lock:
            match.write_files(state)
        if args.record:
            write_records(meta, match.results, args.record)
        sys.stdout.write(stats.report(meta, match.results, match.aborted,
                                      sprt, match.sprt_stop, note))
        sys.stdout.write("%.1f s\n" % (time.monotonic() - match.t0))
        if match.crashed:
            sys.stderr.write("%s: internal error, match stopped:\n%s"
                             % (PROG, match.crashed))
            return 3
        if match.signum is not None:
            return 128 + match.signum
        return 1 if match.aborted else 0
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


# ---- merge ----

# What shards of one match share.
SAME = ("game", "options", "seed", "repeat", "mode", "seating", "seats",
        "groups", "clock", "maxplies")


def merge(argv):
    args = merge_parser().parse_args(argv)
    sprt = None
    if args.sprt:
        try:
            sprt = stats.parse_sprt(args.sprt)
        except ValueError as e:
            die(str(e))
    docs = [(p, load(p)) for p in args.files]
    first_path, first = docs[0]
    for path, d in docs[1:]:
        for key in SAME:
            if d.get(key) != first.get(key):
                die("%s and %s are not shards of one match: %s %r vs %r" %
                    (first_path, path, key, first.get(key), d.get(key)))
        a = [(p["command"], p["setup"]) for p in first["players"]]
        b = [(p["command"], p["setup"]) for p in d["players"]]
        if a != b:
            die("%s and %s are not shards of one match: the programs "
                "differ" % (first_path, path))
    by_game = {}
    where = {}
    aborted = {}
    twice = []
    for path, d in docs:
        for r in d["results"]:
            old = by_game.get(r["game"])
            if old is not None:
                if (old["record"] != r["record"] or
                        old["points"] != r["points"]):
                    die("game %d is in %s and %s with different results" %
                        (r["game"], where[r["game"]], path))
                twice.append((r["game"], where[r["game"]], path))
            by_game[r["game"]] = r
            where[r["game"]] = path
        for a in d.get("aborted", []):
            aborted[a["game"]] = a
    for g in by_game:
        aborted.pop(g, None)
    meta = {k: first[k] for k in first
            if k not in ("format", "results", "aborted", "seconds", "state",
                         "sprt_stop")}
    meta["range"] = [min(d["range"][0] for _, d in docs),
                     max(d["range"][1] for _, d in docs)]
    lo, hi = meta["range"]
    missing = [g for g in range(lo, hi + 1) if g not in by_game]
    problems = []
    if twice:
        g, a, b = twice[0]
        problems.append("%d game%s in more than one file (game %d is in %s "
                        "and %s: a shard given twice?)" % (
                            len(twice), "" if len(twice) == 1 else "s", g,
                            a, b))
    if missing:
        problems.append("games %s of %d-%d are in no file (or were "
                        "aborted)" % (stats.ranges(missing), lo, hi))
    if problems and not args.allow_partial:
        die("; ".join(problems) + "; --allow-partial merges anyway", 1)
    results = list(by_game.values())
    ab = list(aborted.values())
    if args.out:
        replace_file(args.out, json_text(meta, results, ab))
    if args.record:
        write_records(meta, results, args.record)
    if args.report:
        replace_file(args.report, html.page(meta, results, ab, None, sprt,
                                            None, "merged"))
    sys.stdout.write(stats.report(meta, results, ab, sprt))
    return 0


def check_parser():
    p = argparse.ArgumentParser(
        prog=PROG,
        usage="%(prog)s --check CMD [GAME ...] [-s SETUP] [--tc MAIN[+INC]] "
        "[-t SECONDS] [--maxplies N] [--all-players] [--referee CMD]",
        description="Runs a program through every command a match sends, "
        "in every game it lists (list_games) or the GAMEs given, in every "
        "seat, under a clock, against our engine at level 0; says what it "
        "got wrong (framing, ids, illegal moves, crashes, time).  Exit "
        "status 1 when anything is wrong.")
    p.add_argument("--check", metavar="CMD", required=True,
                   help="the program's command line")
    p.add_argument("games", nargs="*", metavar="GAME",
                   help="check these games only")
    p.add_argument("-s", "--setup", action="append", default=[],
                   metavar="CMDS", help="commands sent after it starts, "
                   "separated by ';'")
    p.add_argument("--tc", default="10+0.1", metavar="MAIN[+INC]",
                   help="the clock of every game (default 10+0.1)")
    p.add_argument("-t", "--timeout", type=positive_float, default=10.0,
                   metavar="SECONDS", help="for every other answer "
                   "(default 10)")
    p.add_argument("--maxplies", type=positive_int, default=300,
                   metavar="N", help="a game longer than this is a draw "
                   "(default 300)")
    p.add_argument("--all-players", action="store_true",
                   help="also every other number of players a game allows "
                   "(players=N), not only its default")
    p.add_argument("--referee", default="./engine", metavar="CMD",
                   help="our engine (default ./engine)")
    return p


def check_main(argv):
    from . import tournament_check
    args = check_parser().parse_args(argv)
    setup = [c.strip() for v in args.setup for c in v.split(";")
             if c.strip()]
    try:
        clocks.parse_tc(args.tc)
        fails = tournament_check.check(
            args.check, setup, args.games, args.referee, args.tc,
            timeout=args.timeout, maxplies=args.maxplies,
            all_players=args.all_players)
    except ValueError as e:
        die(str(e))
    return 1 if fails else 0


def main():
    argv = sys.argv[1:]
    try:
        if any(a == "--check" or a.startswith("--check=") for a in argv):
            return check_main(argv)
        if argv and argv[0] == "merge":
            return merge(argv[1:])
        return run(argv)
    except BrokenPipeError:
        return 1
    except KeyboardInterrupt:
        # Before or after the match (during it the match handles signals).
        return 130


def console_main(prog="quintet-tournament"):
    """The command: scripts/tournament calls it as "tournament", and the
    installed quintet-tournament (pyproject.toml) with the default; the
    exit status is its value."""
    global PROG
    PROG = prog
    # SIGTERM or SIGHUP before the match starts (or while the files are
    # written after it) ends the runner like Ctrl-C: a write under way is
    # undone (replace_file), not left behind half done.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    signal.signal(signal.SIGHUP, signal.default_int_handler)
    return main()


if __name__ == "__main__":
    sys.exit(console_main())
