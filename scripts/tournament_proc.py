"""tournament_proc: one program that speaks the engine protocol, driven
through pipes.

The framing is GTP version 2's: we send `ID command`, the program answers
`=ID text` or `?ID message`, possibly over several lines, and ends the
answer with an empty line.  Every command carries an id, and the answer must
carry the same one: an answer with another id means the program and the
runner no longer agree on which answer belongs to which command, which is a
malformed answer like any other.

Everything that can go wrong with a program (it does not start, it exits,
it does not answer in time, it answers something that is not a response)
is raised as PlayerError with a short kind ("timeout", "exited",
"malformed", "start") and a sentence for people, so that the match can
record it as the reason for a forfeit and go on.
"""

import os
import re
import select
import signal
import subprocess
import time

# Answers longer than this are not responses to any command we send.
MAX_ANSWER = 1 << 20

RESPONSE_LINE = re.compile(r"([=?])(\d*)(?:[ \t](.*))?\Z", re.S)


# How a program ends when someone cancels the match around it (Slurm's
# scancel, a terminal closing): these signals, or an exit status a program
# that catches them tends to give.
CANCEL_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP,
                  signal.SIGKILL, signal.SIGQUIT)


class PlayerError(Exception):
    """A program broke the protocol; kind is a short word, str() the reason.
    code is its exit status when it died (negative: killed by a signal)."""

    def __init__(self, kind, reason, code=None):
        super().__init__(reason)
        self.kind = kind
        self.code = code

    def cancelled(self):
        """True when the program ended as a cancelled job's programs do,
        so the match may be shutting down under it."""
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


class Program:
    """A program started from argv.  stderr goes to stderr_path (a file, so
    a chatty program can never block on a pipe nobody reads)."""

    def __init__(self, argv, label, stderr_path=None):
        self.argv = list(argv)
        self.label = label
        self.stderr_path = stderr_path
        self.proc = None
        self.buf = b""
        self.next_id = 1

    # ---- life cycle ----

    def start(self):
        self.stop()
        self.buf = b""
        self.next_id = 1
        err = subprocess.DEVNULL
        if self.stderr_path:
            err = open(self.stderr_path, "wb")
        try:
            # A session of its own: a Ctrl-C at the terminal stops the
            # runner, which then stops its programs, instead of killing the
            # programs first and recording their deaths as forfeits.
            self.proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=err, bufsize=0, start_new_session=True)
        except OSError as e:
            raise PlayerError("start", "could not start %s: %s" %
                              (" ".join(self.argv), e.strerror or e))
        finally:
            if err is not subprocess.DEVNULL:
                err.close()

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self, grace=0.5):
        """Ask the program to quit, then kill it if it has not within grace
        seconds.  Safe to call on a dead or never started program."""
        p = self.proc
        self.proc = None
        if p is None:
            return
        if p.poll() is None:
            try:
                p.stdin.write(b"quit\n")
                p.stdin.flush()
            except OSError:
                pass
            try:
                p.wait(grace)
            except subprocess.TimeoutExpired:
                pass
        self._reap(p)

    def signal_kill(self):
        p = self.proc
        if p is not None and p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                pass

    def kill(self):
        p = self.proc
        self.proc = None
        if p is not None:
            self._reap(p)

    @staticmethod
    def _reap(p):
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                p.kill()
        for f in (p.stdin, p.stdout):
            try:
                f.close()
            except OSError:
                pass
        try:
            p.wait(5)
        except subprocess.TimeoutExpired:
            pass

    def stderr_tail(self, n=3):
        """The last n lines the program wrote to stderr, for crash reasons."""
        if not self.stderr_path:
            return ""
        try:
            with open(self.stderr_path, "rb") as f:
                f.seek(0, os.SEEK_END)
                size = f.tell()
                f.seek(max(0, size - 4096))
                data = f.read()
        except OSError:
            return ""
        lines = [l for l in data.decode("utf-8", "replace").splitlines()
                 if l.strip()]
        return " / ".join(lines[-n:])

    def _died(self, during):
        p = self.proc
        code = None
        if p is not None:
            try:
                code = p.wait(1)
            except subprocess.TimeoutExpired:
                code = None
        msg = "%s during %s" % (describe_exit(code), during)
        tail = self.stderr_tail()
        if tail:
            msg += " (stderr: %s)" % tail[-300:]
        self.kill()
        return PlayerError("exited", msg, code)

    # ---- commands ----

    def command(self, cmd, timeout):
        """Send cmd and wait at most timeout seconds for its answer.
        Returns (ok, text): ok is True for '=' and False for '?'; text is
        the response text without the '=ID ' prefix (lines joined by
        newlines).  Raises PlayerError when the program breaks the
        protocol; the program is then killed, since nobody can tell what
        state it is in."""
        if not self.alive():
            raise self._died(cmd)
        cid = self.next_id
        self.next_id += 1
        try:
            self.proc.stdin.write(("%d %s\n" % (cid, cmd)).encode())
            self.proc.stdin.flush()
        except OSError:
            raise self._died(cmd)
        deadline = time.monotonic() + timeout
        verb = cmd.split(None, 1)[0] if cmd.strip() else cmd
        try:
            return self._read_response(cid, verb, deadline, timeout)
        except PlayerError:
            self.kill()
            raise

    def _read_response(self, cid, verb, deadline, timeout):
        fd = self.proc.stdout.fileno()
        while True:
            # Leading empty lines are tolerated: some GTP programs print one.
            stripped = self.buf.lstrip(b"\r\n")
            end = stripped.find(b"\n\n")
            end_cr = stripped.find(b"\n\r\n")
            if end_cr >= 0 and (end < 0 or end_cr < end):
                end, skip = end_cr, 3
            else:
                skip = 2
            if end >= 0:
                raw = stripped[:end]
                self.buf = stripped[end + skip:]
                return self._parse(raw, cid, verb)
            # A first line that is not a response is wrong already: say so
            # now rather than wait for an empty line that may never come
            # (a program that echoes its input, for one).
            nl = stripped.find(b"\n")
            if nl >= 0 and not RESPONSE_LINE.match(
                    stripped[:nl].rstrip(b"\r").decode("utf-8", "replace")):
                return self._parse(stripped[:nl], cid, verb)
            if len(self.buf) > MAX_ANSWER:
                raise PlayerError("malformed", "answer to %s longer than %d "
                                  "bytes without an empty line" %
                                  (verb, MAX_ANSWER))
            left = deadline - time.monotonic()
            if left <= 0:
                raise PlayerError("timeout", "no answer to %s within %s s" %
                                  (verb, _secs(timeout)))
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            if not data:
                raise self._died(verb)
            self.buf += data

    def _parse(self, raw, cid, verb):
        text = raw.decode("utf-8", "replace")
        lines = [l[:-1] if l.endswith("\r") else l for l in text.split("\n")]
        m = RESPONSE_LINE.match(lines[0])
        if not m:
            raise PlayerError("malformed", "answered %s with %r, which is "
                              "not a response (= or ?)" %
                              (verb, _clip(lines[0])))
        if m.group(2) != str(cid):
            raise PlayerError("malformed", "answered %s (id %d) with id %r"
                              % (verb, cid, m.group(2)))
        first = m.group(3) or ""
        body = "\n".join([first] + lines[1:]).strip("\n")
        return m.group(1) == "=", body


def _secs(t):
    return ("%g" % t)


def _clip(s, n=60):
    return s if len(s) <= n else s[:n] + "..."
