"""tournament_clock: game clocks kept by the runner.

Two kinds, as the issue and the tools users know write them:
- Fischer, `--tc MAIN+INC` (seconds): MAIN for the game, INC added after
  each of the player's moves; `--tc MAIN` is absolute time.
- Canadian byo-yomi, `--byoyomi MAIN,BYO,STONES`: MAIN for the game, then
  periods of BYO seconds in which STONES moves must be made; a period's
  unused time is lost when the next one starts.

The runner measures each `genmove` from sending it to reading its answer,
and a player whose clock falls more than the margin below zero loses.  An
overdraft within the margin is forgiven (the clock stops at 0), so the
margin absorbs pipe and scheduling delays without becoming time the player
can bank.
"""

# A program without clock commands gets `set movetime` worth an even share
# of what it has left over this many more moves (plus what each move gives
# back).  Measured with 20 games of each game at level 1 against itself:
# median games last 9 (Take-Back-Toe) to 23 (Tiptoe) moves a player and the
# longest 25, and a share of what is left never runs the clock out.
MOVES_TO_GO = 20


def _number(text, what):
    try:
        v = float(text)
    except ValueError:
        raise ValueError("%s: %r is not a number of seconds" % (what, text))
    if not v >= 0 or v == float("inf"):
        raise ValueError("%s: %r must be 0 or more seconds" % (what, text))
    return v


def parse_tc(text):
    """'MAIN+INC' or 'MAIN' (seconds) -> Fischer settings."""
    main, _, inc = text.partition("+")
    s = {"kind": "fischer", "main": _number(main, "--tc"),
         "inc": _number(inc, "--tc") if inc else 0.0}
    if s["main"] == 0:
        raise ValueError("--tc: the main time must be above 0")
    return s


def parse_byoyomi(text):
    """'MAIN,BYO,STONES' -> Canadian settings."""
    parts = text.split(",")
    if len(parts) != 3:
        raise ValueError("--byoyomi wants MAIN,BYO,STONES (for example "
                         "10,5,5: 10 s, then 5 s for every 5 moves)")
    main = _number(parts[0], "--byoyomi")
    byo = _number(parts[1], "--byoyomi")
    try:
        stones = int(parts[2])
    except ValueError:
        stones = 0
    if byo <= 0 or stones < 1:
        raise ValueError("--byoyomi: BYO must be above 0 seconds and STONES "
                         "at least 1 (%r)" % text)
    return {"kind": "canadian", "main": main, "byo": byo, "stones": stones}


def secs(x):
    """Seconds as the clock commands take them: up to 3 decimals."""
    text = "%.3f" % max(x, 0.0)
    return text.rstrip("0").rstrip(".")


def settings_commands(tc, knows):
    """The commands that tell a program the time control, best first, among
    those it knows (knows: a set of command names)."""
    cmds = []
    if tc["kind"] == "fischer":
        if "kgs-time_settings" in knows:
            if tc["inc"]:
                cmds.append("kgs-time_settings fischer %s %s" %
                            (secs(tc["main"]), secs(tc["inc"])))
            else:
                cmds.append("kgs-time_settings absolute %s" %
                            secs(tc["main"]))
        if not tc["inc"] and "time_settings" in knows:
            # GTP: byo-yomi time 0 is absolute time.
            cmds.append("time_settings %s 0 0" % secs(tc["main"]))
    else:
        if "time_settings" in knows:
            cmds.append("time_settings %s %s %d" % (
                secs(tc["main"]), secs(tc["byo"]), tc["stones"]))
        if "kgs-time_settings" in knows:
            cmds.append("kgs-time_settings canadian %s %s %d" % (
                secs(tc["main"]), secs(tc["byo"]), tc["stones"]))
    return cmds


class Clock:
    """One player's clock through one game (times in seconds)."""

    def __init__(self, tc, margin):
        self.tc = tc
        self.margin = margin
        self.left = tc["main"]
        self.byo = tc["kind"] == "canadian" and self.left <= 0
        self.period = tc.get("byo", 0.0)
        self.stones = tc.get("stones", 0)

    def limit(self):
        """How long the coming move may take before the flag falls (the
        margin not counted): in main time the rest of it, and under
        byo-yomi also the first period, into which the move runs on."""
        if self.byo:
            return self.period
        if self.tc["kind"] == "canadian":
            return self.left + self.tc["byo"]
        return self.left

    def time_left(self):
        """(seconds, stones) for GTP's `time_left`: stones 0 in main
        time, the moves still due in the period under byo-yomi."""
        if self.byo:
            return self.period, self.stones
        return self.left, 0

    def spend(self, elapsed):
        """Charge one move that took elapsed seconds.  Returns False when
        the flag fell (beyond the margin); the clock is then unchanged."""
        if elapsed > self.limit() + self.margin:
            return False
        tc = self.tc
        if not self.byo:
            if tc["kind"] == "fischer":
                self.left = max(self.left - elapsed, 0.0) + tc["inc"]
                return True
            if elapsed <= self.left:
                self.left -= elapsed
                return True
            # Main time ran out during the move: the rest of it is the
            # first move of the first period.
            elapsed -= self.left
            self.left = 0.0
            self.byo = True
        self.period -= elapsed
        self.stones -= 1
        if self.stones == 0:
            self.period = tc["byo"]
            self.stones = tc["stones"]
        else:
            self.period = max(self.period, 0.0)
        return True

    def fallback_ms(self):
        """The `set movetime` for a program that cannot be told the clock:
        its share of the time left (see MOVES_TO_GO), at most half of what
        it may use on this move."""
        tc = self.tc
        if self.byo:
            share = self.period / self.stones
        else:
            share = self.left / MOVES_TO_GO
            if tc["kind"] == "fischer":
                share += tc["inc"]
            else:
                share += tc["byo"] / tc["stones"]
        ms = int(1000 * min(share, self.limit() / 2.0))
        return max(ms, 1)
