"""quintet: a client of the engine protocol (protocol.md), Python standard
library only.

    import quintet
    with quintet.Engine("./engine") as e:
        e.newgame("checkertoe", seed=7, first=1)
        while e.status().startswith("play"):
            e.genmove(playouts=500)
        print(e.status(), e.history())

Engine drives one program a command at a time (scripts, bots, tests,
the tournament runner); Pipelined lets many threads share one program
(the GUI server); Bot is the serving side for people who write a
player; review annotates a finished game.  README.md beside this
file has more examples.
"""

from .protocol import (Answer, EngineError, ProtocolError,  # noqa: F401
                       QuintetError, describe_exit, format_options,
                       parse_answer, parse_info)
from .engine import (DEVNULL, PIPE, Engine, parse_settings,  # noqa: F401
                     split_command)
from .analysis import Analysis  # noqa: F401
from .bot import Bot  # noqa: F401
from .review import format_review, review  # noqa: F401
from .pipelined import EngineDied, Pending, Pipelined  # noqa: F401
