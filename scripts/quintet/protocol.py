"""The protocol's framing and answers, apart from any process
(protocol.md, "Framing" and "analyze").

An answer is `=[id] text` or `?[id] message`, possibly over several lines,
ended by one empty line.  The errors below are the client's whole
vocabulary for what can go wrong: a `?` answer is an EngineError (the
program is fine, the command was not); anything else (the program did not
start, exited, went silent, wrote something that is not an answer) is a
ProtocolError with a short kind, after which the program is stopped, since
nobody can tell what state it is in.
"""

import re
import signal

# `=` or `?`, the id (maybe none), then a space and the text.  The space
# is optional here only so that a program that writes `=` alone is still
# understood; Answer.strict_problems() names the difference.
RESPONSE_LINE = re.compile(r"([=?])(\d*)(?:[ \t](.*))?\Z", re.S)

# How a program ends when someone cancels the job around it (Slurm's
# scancel, a terminal closing): these signals, or an exit status a program
# that catches them tends to give.
CANCEL_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP,
                  signal.SIGKILL, signal.SIGQUIT)


class QuintetError(Exception):
    """Everything this package raises."""


class EngineError(QuintetError):
    """The program answered `?`: message is its text (without `? `),
    command the line that failed.  The program is still usable: a failed
    command leaves the game as it was (protocol.md, "Framing")."""

    def __init__(self, message, command=None):
        super().__init__(message)
        self.message = message
        self.command = command


class ProtocolError(QuintetError):
    """The program broke the protocol.  kind is a short word: "start" (it
    could not be started), "exited", "timeout", "malformed"; str() is a
    sentence for people; code is the exit status when it died (negative:
    killed by that signal)."""

    def __init__(self, kind, reason, code=None):
        super().__init__(reason)
        self.kind = kind
        self.code = code

    def cancelled(self):
        """True when the program ended as a cancelled job's programs do,
        so whatever drives it may be shutting down too."""
        c = self.code
        if c is None or self.kind != "exited":
            return False
        return c == 0 or c >= 128 or -c in CANCEL_SIGNALS


def describe_exit(code):
    """'exited with status 3' or 'was killed by signal 11 (SIGSEGV)'."""
    if code is None:
        return "closed its output"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = "unknown signal"
        return "was killed by signal %d (%s)" % (-code, name)
    return "exited with status %d" % code


class Answer:
    """One answer: ok (True for `=`), id (the number written, or None),
    text (without `=ID `, its lines joined by newlines), lines (the raw
    lines as read, without their line ends) and leading (empty lines read
    before it)."""

    __slots__ = ("ok", "id", "text", "lines", "leading")

    def __init__(self, ok, id, text, lines, leading=0):
        self.ok = ok
        self.id = id
        self.text = text
        self.lines = lines
        self.leading = leading

    def __iter__(self):  # ok, text = answer
        return iter((self.ok, self.text))

    def __repr__(self):
        return "Answer(%r, %r, %r)" % (self.ok, self.id, self.text)

    def strict_problems(self, sent_id):
        """What a strict reader objects to in this answer, as sentences
        (empty when it is exactly as protocol.md's Framing says): the id
        must be repeated, one space must follow `=ID`, no line may end in
        CR, no empty line may come before it."""
        out = []
        first = self.lines[0] if self.lines else ""
        head = "%s%s" % ("=" if self.ok else "?",
                         "" if self.id is None else self.id)
        if sent_id is not None and self.id != sent_id:
            out.append("the answer to id %d carries %s" %
                       (sent_id, "no id" if self.id is None
                        else "id %d" % self.id))
        if not first.startswith(head + " "):
            out.append("no single space after %r (the answer starts %r)" %
                       (head, first[:20]))
        if any(l.endswith("\r") for l in self.lines):
            out.append("lines end in CR LF, not LF")
        if self.leading:
            out.append("%d empty line(s) before the answer" % self.leading)
        return out


def parse_answer(lines, leading=0):
    """The Answer for lines (the first is the `=`/`?` line, no empty
    line among them).  Raises ProtocolError("malformed") when the first
    line is not a response."""
    clean = [l[:-1] if l.endswith("\r") else l for l in lines]
    m = RESPONSE_LINE.match(clean[0])
    if not m:
        raise ProtocolError("malformed", "answered with %r, which is not a "
                            "response (= or ?)" % clip(clean[0]))
    first = m.group(3) or ""
    text = "\n".join([first] + clean[1:]).strip("\n")
    ident = int(m.group(2)) if m.group(2) else None
    return Answer(m.group(1) == "=", ident, text, list(lines), leading)


def is_response_line(line):
    return RESPONSE_LINE.match(line.rstrip("\r")) is not None


def parse_info(line):
    """One `info` line of analyze as a list of dicts, best first:
    {"move", "visits", "value", "order", "pv"} and "proven" where the
    solver settled the move ("win", "draw", "loss", or in the solo puzzle
    the points, as a string).  Keys the client does not know are kept as
    strings, so a newer engine's additions are not lost."""
    out = []
    cur = None
    words = line.split()
    i = 0
    while i < len(words):
        w = words[i]
        if w == "info":
            cur = {}
            out.append(cur)
            i += 1
            continue
        if cur is None:
            raise ProtocolError("malformed", "analyze line %r does not "
                                "start with info" % clip(line))
        if w == "pv":
            j = i + 1
            while j < len(words) and words[j] != "info":
                j += 1
            cur["pv"] = words[i + 1:j]
            i = j
            continue
        if i + 1 >= len(words):
            raise ProtocolError("malformed", "analyze line %r ends after "
                                "the key %r" % (clip(line), w))
        v = words[i + 1]
        try:
            if w in ("visits", "order"):
                v = int(v)
            elif w == "value":
                v = float(v)
        except ValueError:
            raise ProtocolError("malformed", "analyze line %r has %s %r" %
                                (clip(line), w, v))
        cur[w] = v
        i += 2
    for d in out:
        if "move" not in d:
            raise ProtocolError("malformed", "analyze line %r has a group "
                                "without a move" % clip(line))
        d.setdefault("pv", [])
    return out


def clip(s, n=60):
    return s if len(s) <= n else s[:n] + "..."


def format_options(options):
    """newgame's key=value words for a dict: True is `key=1`, False
    `key=0` (protocol.md, "newgame options")."""
    words = []
    for k, v in options.items():
        if v is True:
            v = 1
        elif v is False:
            v = 0
        words.append("%s=%s" % (k, v))
    return words
