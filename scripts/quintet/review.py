"""review: a finished game annotated move by move.

For every move of a record (a `history` answer: the newgame line, then
`play` and `roll` lines) the review gives the mover's value before it
(that of the engine's best move) and after it, the best move where it
differs from the one played, and marks as a mistake a move that changed
the result:

- where the exact solver settled both (the search line's `proven win`,
  `draw`, `loss`, or the opening book's value), a move whose proven result
  is worse than the best move's;
- elsewhere, a move that cost the mover at least `threshold` (default
  0.25) of expected result by the search.

Every search is a `hint` under `set playouts` (protocol.md, "Determinism"):
the same record, engine and playouts give the same review.  A move's value
after it is read from the next position, from the mover's side: the same
when the mover moves again, one minus the opponent's in a game of two,
and over a roll the mean over the die's faces (each rolled and taken
back).  In games of more than two players the opponent's value says
nothing of the mover's, so there the value after comes from `analyze`
(the candidates it lists, for `ms` milliseconds), which is not repeatable
to the last digit.

main() is the command (scripts/review from a checkout, quintet-review
installed): the review of a record file as text or JSON.
"""

import re
import sys

from .engine import PIPE, Engine
from .protocol import EngineError, QuintetError

ORDER = {"loss": 0, "draw": 1, "win": 2}
FLIP = {"win": "loss", "loss": "win", "draw": "draw"}

BOOK = re.compile(r"ai: (\S+) from the book \(value (-?\d+)\)")
SEARCH = re.compile(r"ai: (\S+) after ")


def parse_search_line(line):
    """(move, value, proven) from the engine's search line (protocol.md,
    "The computer player"); value None when it gives none, proven None
    when nothing is proven."""
    m = BOOK.match(line)
    if m:
        v = int(m.group(2))
        proven = "win" if v > 0 else "loss" if v < 0 else "draw"
        return m.group(1), {"win": 1.0, "draw": 0.5, "loss": 0.0}[proven], \
            proven
    m = SEARCH.match(line)
    if not m:
        return None, None, None
    value = proven = None
    for part in line.split("; "):
        w = part.split()
        if len(w) == 2 and w[0] == "value":
            value = float(w[1])
        elif len(w) == 2 and w[0] == "proven":
            proven = w[1]
        elif len(w) == 3 and w[:2] == ["expected", "score"]:
            value = float(w[2])
    if proven in ORDER:  # exact: the search's mean is beside the point
        value = {"win": 1.0, "draw": 0.5, "loss": 0.0}[proven]
    elif solo_points(proven) is not None:
        value = solo_points(proven)
    return m.group(1), value, proven


class Reviewer:
    def __init__(self, engine, playouts=2000, ms=300, threshold=0.25):
        self.e = engine
        self.playouts = playouts
        self.ms = ms
        self.threshold = threshold
        self.cache = {}  # position -> its search (the same every time)
        self.players = 2

    def search(self):
        """The engine's best move here and its value and proof for the
        player to move, by hint under set playouts."""
        e = self.e
        key = e.position()
        if key in self.cache:
            return self.cache[key]
        e.stderr_kept.clear()
        move = e.hint()
        line = None
        for _ in range(100):
            line = e.last_search()
            if line:
                break
            e._drain_stderr(0.01)
        if line is None:
            raise EngineError("the engine wrote no search line for hint "
                              "(is its standard error kept?)", "hint")
        _, value, proven = parse_search_line(line)
        if value is None and proven is None and e.moves() == [move]:
            # an only move is not searched: its value is the next
            # position's
            st = e.status().split()
            e.play(move)
            try:
                value, proven = self.mover_view(int(st[1]), self.players)
            finally:
                e.undo()
        self.cache[key] = {"best": move, "value": value, "proven": proven}
        return self.cache[key]

    def mover_view(self, mover, players):
        """The value and proof of the current position for player mover
        (who has just moved), or (None, None) where it cannot be told."""
        e = self.e
        st = e.status().split()
        if st[0] == "over":
            if st[1] == "draw":
                return 0.5, "draw"
            won = int(st[1]) == mover
            if players == 1:  # the solo puzzle: its points, exactly
                points = e.score()[0]
                return float(points), "%g" % points
            return (1.0, "win") if won else (0.0, "loss")
        if st[0] == "roll":
            return self.over_roll(mover, players)
        nxt = int(st[1])
        if nxt != mover and players != 2:
            return None, None
        try:
            ev = self.search()
        except EngineError:  # nothing to search (a line to draw)
            return None, None
        if nxt == mover:
            return ev["value"], ev["proven"]
        v = None if ev["value"] is None else 1.0 - ev["value"]
        return v, FLIP.get(ev["proven"])

    def faces(self):
        """[(face, weight)] of the die, from game_info where the engine
        has it, else the faces 1 to 20 that `roll N` accepts, equally
        likely."""
        e = self.e
        if e.known_command("game_info"):
            for line in e.command("game_info").splitlines():
                w = line.split()
                if w[:2] == ["roll", "faces"] and "weights" in w:
                    i = w.index("weights")
                    return list(zip(map(int, w[2:i]),
                                    map(int, w[i + 1:])))
        out = []
        for f in range(1, 21):
            if e.request("roll %d" % f).ok:
                e.undo()
                out.append((f, 1))
        return out

    def over_roll(self, mover, players):
        e = self.e
        total = 0.0
        weight = 0
        proofs = set()
        for face, w in self.faces():
            e.command("roll %d" % face)
            try:
                v, p = self.mover_view(mover, players)
            finally:
                e.undo()
            if v is None:
                return None, None
            total += w * v
            weight += w
            proofs.add(p)
        if not weight:
            return None, None
        proven = proofs.pop() if len(proofs) == 1 else None
        return total / weight, proven

    def run(self, record):
        lines = [l.split("#", 1)[0].strip() for l in record]
        lines = [l for l in lines if l]
        if not lines or not lines[0].startswith("newgame "):
            raise ValueError("a record starts with its newgame line")
        e = self.e
        e.set("verbose", 1)
        e.set("ponder", 0)
        e.set("level", e.list_settings()["level"]["max"])  # the search
        e.set("playouts", self.playouts)
        e.command(lines[0])
        players = self.players = len(e.score())
        out = []
        for ply, line in enumerate(lines[1:], 1):
            w = line.split()
            st = e.status().split()
            if w[0] == "roll":
                e.command(line)
                out.append({"ply": ply, "command": line, "player":
                            int(st[1]), "roll": int(w[-1])})
                continue
            if w[0] != "play" or len(w) not in (2, 3):
                raise ValueError("line %d: %r is neither play nor roll" %
                                 (ply + 1, line))
            move = w[-1].lower()
            mover = int(st[1])
            best = self.search()
            # Both moves valued the same way (from the position each
            # leads to), so that before and after compare like with like.
            vb, pb = self.valued(best["best"], mover, players)
            if best["proven"] in ORDER:
                pb = best["proven"]
                vb = {"win": 1.0, "draw": 0.5, "loss": 0.0}[pb]
            if move == best["best"]:
                va, pa = vb, pb
            else:
                va, pa = self.valued(line, mover, players)
            e.command(line)
            entry = {"ply": ply, "command": line, "player": mover,
                     "move": move, "before": vb, "after": va,
                     "proven_before": pb, "proven_after": pa}
            if move != best["best"]:
                entry["best"] = best["best"]
            entry["mistake"] = self.is_mistake(vb, pb, va, pa)
            out.append(entry)
        return out

    def valued(self, move, mover, players):
        """The value and proof for mover of playing move here (a move or a
        play line), the game left as it was."""
        e = self.e
        if players > 2:
            key = ("analyze", e.position())
            if key not in self.cache:
                self.cache[key] = self.analyzed()
            cands = self.cache[key]
            name = move.split()[-1].lower()
            for c in cands:
                if c["move"] == name:
                    return c["value"], c.get("proven")
            return None, None
        e.command(move if move.startswith("play ") else "play " + move)
        try:
            return self.mover_view(mover, players)
        finally:
            e.undo()

    def analyzed(self):
        """The candidates analyze lists here after ms milliseconds."""
        cands = []
        try:
            a = self.e.analyze(max(10, self.ms))
        except EngineError:  # nothing to list (a line to draw)
            return cands
        with a:
            got = a.get(self.ms / 1000.0 + 30)
            while got is not None:
                cands = got
                got = a.get(0.001)
        return cands

    def is_mistake(self, vb, pb, va, pa):
        if pb in ORDER and pa in ORDER:
            return ORDER[pa] < ORDER[pb]
        if solo_points(pb) is not None and solo_points(pa) is not None:
            return solo_points(pa) < solo_points(pb)
        if vb is None or va is None:
            return False
        return vb - va >= self.threshold


def review(engine, record, playouts=2000, ms=300, threshold=0.25):
    """The review of record (a history answer: a string or its lines) as
    a list of dicts, one per line after the newgame line.  A move's dict
    holds ply, command, player, move, before and after (the mover's value
    from 0 to 1, or None where it cannot be told), proven_before and
    proven_after ('win', 'draw', 'loss' or None), best (only where it
    differs from the move played) and mistake (True or False); a roll's
    holds ply, command, player and roll.  engine is an Engine made with
    stderr=quintet.PIPE (the search line is read), or a command to start
    one with; its game is replaced."""
    if isinstance(record, str):
        record = record.splitlines()
    own = not isinstance(engine, Engine)
    e = Engine(engine, stderr=PIPE) if own else engine
    if e.stderr != PIPE:
        raise ValueError("review reads the search line: make the Engine "
                         "with stderr=quintet.PIPE")
    try:
        return Reviewer(e, playouts, ms, threshold).run(record)
    finally:
        if own:
            e.close()


def solo_points(proven):
    """The points of a solo puzzle's proof ('12'), or None."""
    try:
        return float(proven)
    except (TypeError, ValueError):
        return None


def value_text(v):
    return "-" if v is None else "%.3f" % v


def format_review(entries):
    """The review as text, one line a move, mistakes marked."""
    out = []
    for x in entries:
        if "roll" in x:
            out.append("%3d  player %d rolls %d" % (x["ply"], x["player"],
                                                     x["roll"]))
            continue
        pb = x["proven_before"] or ""
        pa = x["proven_after"] or ""
        line = "%3d  player %d %-8s %s%s -> %s%s" % (
            x["ply"], x["player"], x["move"], value_text(x["before"]),
            " (%s)" % pb if pb else "", value_text(x["after"]),
            " (%s)" % pa if pa else "")
        if "best" in x:
            line += "  best %s" % x["best"]
        if x["mistake"]:
            line += "  MISTAKE"
        out.append(line)
    n = sum(1 for x in entries if x.get("mistake"))
    out.append("%d mistake%s" % (n, "" if n == 1 else "s"))
    return "\n".join(out)


def main(argv=None, prog="quintet-review", engine="./engine",
         engine_help="./engine"):
    """The command: review [--json] [--engine CMD] [--playouts N]
    [--threshold T] RECORD, RECORD a history (a file, or - for standard
    input), printed as format_review's text or as a JSON list.  The exit
    status is its value: 0, 1 when the review failed, 2 for a bad command
    line.  scripts/review gives the checkout's engine as the default."""
    import argparse
    import json
    ap = argparse.ArgumentParser(
        prog=prog, description="a game annotated move by move "
        "(quintet.review): the mover's value before and after each move, "
        "the best move where another was played, and the moves that "
        "changed the result marked MISTAKE, by the exact solver wherever "
        "it settled the position and by the search elsewhere.  RECORD is "
        "a `history` answer (the newgame line, then play and roll lines), "
        "a file or - for standard input.")
    ap.add_argument("record", metavar="RECORD",
                    help="the game's history, a file or - (stdin)")
    ap.add_argument("--engine", default=engine, metavar="CMD",
                    help="the engine (default: %s)" % engine_help)
    ap.add_argument("--playouts", type=int, default=2000, metavar="N",
                    help="playouts of every search (default 2000)")
    ap.add_argument("--threshold", type=float, default=0.25,
                    help="where nothing is proven, a move that costs this "
                    "much expected result is a mistake (default 0.25)")
    ap.add_argument("--json", action="store_true",
                    help="a JSON list, one object a line of the record")
    args = ap.parse_args(argv)
    if args.record == "-":
        text = sys.stdin.read()
    else:
        try:
            with open(args.record) as f:
                text = f.read()
        except OSError as e:
            ap.error("%s: %s" % (args.record, e.strerror))
    try:
        entries = review(args.engine, text, args.playouts,
                         threshold=args.threshold)
    except (ValueError, QuintetError) as e:
        print("%s: %s" % (prog, e), file=sys.stderr)
        return 1
    if args.json:
        json.dump(entries, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        print(format_review(entries))
    return 0


if __name__ == "__main__":
    sys.exit(main())
