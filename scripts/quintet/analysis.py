"""Analysis: the stream of `analyze` (protocol.md, "analyze") as an
iterator.

The engine answers `=ID ` at once, then writes one `info` line every
interval until the next input line, after which it writes the empty line
that closes the answer and reads that line as a command.  Closing the
iterator sends `stop` as that line (with nothing to stop it answers `= `),
reads the rest of the stream up to the empty line, then stop's own answer,
so the engine is left exactly as it was, ready for the next command.
"""


from .protocol import EngineError, ProtocolError, parse_info


class Analysis:
    """Iterate for lists of candidate dicts (quintet.parse_info); close()
    (or the end of a with block, or breaking out of a for loop over it,
    or the next command sent to the engine) ends it."""

    def __init__(self, engine, ms=1000, player=None, maxmoves=None):
        self.engine = engine
        self.ms = ms
        self.done = False
        self.latest = None  # the last list given
        args = "%d" % ms if player is None else "%s %d" % (player, ms)
        if maxmoves is not None:
            args += " maxmoves %d" % maxmoves
        self.line = "analyze " + args
        self.id = engine.send(self.line)
        try:
            head = engine.read_answer(self.id, "analyze", None,
                                      stream=self._head)
        except _Started:
            engine._analysis = self
            return
        except ProtocolError:
            engine.kill()
            raise
        # Only a failure gets here: a `?` answer, read whole.
        raise EngineError(head.text, self.line)

    @staticmethod
    def _head(line):
        # Called with None when the `=` line has come: the stream is on.
        raise _Started()

    def __iter__(self):
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            if not self.done and self.engine._analysis is self:
                self.close()
        except Exception:
            pass

    def __next__(self):
        got = self.get(None)
        if got is None:
            raise StopIteration
        return got

    def get(self, timeout=None):
        """The next list of candidates; None when the stream has ended,
        or when timeout seconds (None: the engine's timeout plus the
        interval, or for ever) pass without one."""
        if self.done:
            return None
        e = self.engine
        if timeout is None and e.timeout is not None:
            timeout = e.timeout + self.ms / 1000.0
        deadline = e._deadline(timeout)
        try:
            line = e._readline(deadline, "analyze").rstrip("\r")
        except ProtocolError as err:
            if err.kind == "timeout":
                return None
            self.done = True
            e.kill()
            raise
        if not line:  # the engine ended the stream itself
            self._finish()
            return None
        try:
            self.latest = parse_info(line)
        except ProtocolError:
            self.done = True
            e.kill()
            raise
        return self.latest

    def _finish(self):
        self.done = True
        if self.engine._analysis is self:
            self.engine._analysis = None

    def close(self):
        """Ends the stream: sends stop, reads up to the empty line that
        closes analyze's answer, then stop's answer."""
        if self.done:
            return
        e = self.engine
        self.done = True
        e._analysis = None
        if not e.alive():
            return
        cid = e.next_id
        e.next_id += 1
        try:
            e.proc.stdin.write(b"%d stop\n" % cid)
            e.proc.stdin.flush()
        except OSError:
            raise e._died("analyze")
        try:
            while e._readline(e._deadline(None), "analyze").rstrip("\r"):
                pass
            a = e.read_answer(cid, "stop")
        except ProtocolError:
            e.kill()
            raise
        if not a.ok:
            raise EngineError(a.text, "stop")


class _Started(Exception):
    pass
