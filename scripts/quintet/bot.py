"""Bot: the protocol's serving side, for people who write a player.

A bot reads commands on standard input and answers on standard output in
the engine's framing (protocol.md, "Framing"); the runner
(scripts/tournament) plays it against others.  This class does the
framing, the ids, the housekeeping commands and the rules: it keeps the
game in our engine (the rules oracle, at level 0 so it never searches),
so a bot only has to choose a move:

    class RandomBot(quintet.Bot):
        def choose(self, moves):
            return self.random.choice(moves)

    RandomBot("./engine").run()

choose(moves) gets the legal moves of the player to move (never empty:
where `moves` lists nothing, as in Abs-Trac-Toe's line drawing, the
oracle draws the move itself).  self.rules is the oracle's Engine (ask
it for position(), score(), ...); self.random is seeded from the game's
seed, so a bot's games replay.  scripts/tournament --check BOT tells
whether a bot keeps the protocol.
"""

import random
import sys

from .engine import Engine
from .protocol import EngineError

# Commands the oracle answers for the bot as they are.
PASSED = ("list_games", "list_options", "newgame", "play", "roll", "undo",
          "status", "moves", "score", "showboard", "history", "position",
          "geometry", "game_info", "turn_info", "scoring")


class Bot:
    name = "bot"
    version = "1"

    def __init__(self, rules="./engine"):
        self.rules = Engine(rules, timeout=600)
        self.rules.set("level", 0)
        self.random = random.Random(0)
        self.done = False

    def choose(self, moves):
        """The move to play among moves (a list of strings).  Subclasses
        must say how they choose."""
        raise NotImplementedError("a Bot must define choose(moves)")

    # ---- commands ----

    def handle(self, name, args):
        """The answer text of command name with args, or raises
        EngineError with the message of a `?` answer."""
        if name == "protocol_version":
            return "2"
        if name == "name":
            return self.name
        if name == "version":
            return self.version
        if name == "quit":
            self.done = True
            return ""
        if name == "list_commands":
            return "\n".join(self.commands())
        if name == "known_command":
            if len(args) != 1:
                raise EngineError("wrong number of arguments; usage: "
                                  "known_command NAME")
            return "true" if args[0] in self.commands() else "false"
        if name == "genmove":
            return self.genmove(args)
        if name == "newgame":
            self.rules.command(" ".join([name] + args))
            self.reseed(args)
            return ""
        if name in PASSED and name in self._oracle_commands():
            text = self.rules.command(" ".join([name] + args))
            # drawings start on the line after `= ` (protocol.md,
            # "Framing")
            if name in ("showboard", "history", "geometry"):
                text = "\n" + text
            return text
        raise EngineError("unknown command %s (list_commands lists them)" %
                          name)

    def commands(self):
        base = ["protocol_version", "name", "version", "known_command",
                "list_commands", "quit", "genmove"]
        return base + [c for c in PASSED if c in self._oracle_commands()]

    def _oracle_commands(self):
        if not hasattr(self, "_known"):
            self._known = set(self.rules.list_commands())
        return self._known

    def reseed(self, args):
        seed = next((a.split("=", 1)[1] for a in args
                     if a.lower().startswith("seed=")), "0")
        self.random.seed(seed)

    def genmove(self, args):
        if len(args) > 1:
            raise EngineError("wrong number of arguments; usage: genmove "
                              "[P]")
        moves = self.rules.moves()
        if moves:
            move = self.choose(moves)
            self.rules.play(move, args[0] if args else None)
        else:  # no list to choose from: the oracle moves (and checks P)
            move = self.rules.genmove(player=args[0] if args else None)
        return move

    # ---- the framing ----

    def answer(self, out, cid, ok, text):
        """Writes one answer: `=ID text` or `?ID text`, then the empty
        line that ends it."""
        out.write("%s%s %s\n\n" % ("=" if ok else "?",
                                   "" if cid is None else cid, text))
        out.flush()

    def run(self, inp=None, out=None):
        """Serves commands until quit or the end of input."""
        inp = inp or sys.stdin
        out = out or sys.stdout
        for raw in inp:
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            words = line.split()
            cid = None
            if words[0][0].isdigit():
                if not words[0].isdigit() or int(words[0]) >= 1 << 31:
                    self.answer(out, None, False, "bad id %s" % words[0])
                    continue
                cid = int(words.pop(0))
                if not words:
                    self.answer(out, cid, False, "no command after the id")
                    continue
            try:
                text = self.handle(words[0], words[1:])
                ok = True
            except EngineError as e:
                text, ok = e.message, False
            self.answer(out, cid, ok, text)
            if self.done:
                break
        self.rules.close()
