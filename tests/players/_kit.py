"""_kit: what the Python test players share: the quintet client on the
path, and a Bot that plays random legal moves with our engine as its rules
oracle (the engine is the first argument, default ./engine).  Each player
built on it breaks the protocol in one way only, for
tests/test_check.py (scripts/tournament --check must name that way)."""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))), "scripts"))
import quintet  # noqa: E402,F401


class RandomBot(quintet.Bot):
    name = "testbot"

    def choose(self, moves):
        return self.random.choice(moves)


def engine():
    return sys.argv[1] if len(sys.argv) > 1 else "./engine"
