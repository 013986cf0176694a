"""Pipelined: one program shared by many threads (the GUI server's tabs).

Any thread may send a command at any time; answers come back in the order
the commands went out (protocol.md, "Framing"), so a reader thread hands
each answer to the Pending of the oldest command still waiting.  A command
sent while `analyze` streams is what ends the stream (protocol.md,
"analyze"): its Pending's stream callback gets every info line, and the
next send() closes it.
"""

import collections
import os
import subprocess
import threading
import time

from .engine import split_command
from .protocol import RESPONSE_LINE, clip

# The engine promises an answer to every line; this bounds a wait only
# when it does not keep that promise (movetime may be an hour).
ANSWER_WAIT = 3700.0


class EngineDied(Exception):
    """The program exited or broke the framing; str() says how, with its
    last words on standard error."""


class Pending:
    """One command sent and its answer once it comes: ok, lines (the
    text's lines), header (set when the `=`/`?` line has come), done (set
    at the closing empty line), error (a sentence when the program died
    first)."""

    def __init__(self, number, stream=None):
        self.number = number
        self.stream = stream  # called with every line after the first
        self.lines = []
        self.ok = None
        self.header = threading.Event()
        self.done = threading.Event()
        self.error = None

    @property
    def text(self):
        return "\n".join(self.lines)


class Pipelined:
    """A program speaking the protocol; send(), ask() and wait() are safe
    from any thread.  Standard error is read and its last lines kept, for
    the sentence that says how the program died."""

    def __init__(self, command, cwd=None):
        self.argv = split_command(command)
        self.proc = subprocess.Popen(
            self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, cwd=cwd or os.getcwd())
        self.lock = threading.Lock()
        self.queue = collections.deque()  # Pending, in the order sent
        self.counter = 0
        self.dead = None  # the sentence saying how it died
        self.stderr_tail = collections.deque(maxlen=5)
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()

    def send(self, line, stream=None):
        """Writes line with a fresh id; returns its Pending."""
        with self.lock:
            if self.dead:
                raise EngineDied(self.dead)
            self.counter += 1
            p = Pending(self.counter, stream)
            self.queue.append(p)
            try:
                self.proc.stdin.write(b"%d %s\n" % (p.number,
                                                    line.encode()))
                self.proc.stdin.flush()
            except OSError:
                pass  # the reader sees the end and fails every Pending
        return p

    def ask(self, line, timeout=ANSWER_WAIT):
        """Sends line and waits for its answer: (ok, text)."""
        return self.wait(self.send(line), timeout)

    def wait(self, p, timeout=ANSWER_WAIT):
        if not p.done.wait(timeout):
            raise EngineDied("the engine gave no answer to a command "
                             "within %d s" % timeout)
        if p.error:
            raise EngineDied(p.error)
        return p.ok, p.text

    def _drain(self):
        for raw in self.proc.stderr:
            line = raw.decode("utf-8", "replace").strip()
            if line:
                self.stderr_tail.append(line)

    def _read(self):
        current = None
        for raw in self.proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            if current is None:
                if not line:
                    continue
                m = RESPONSE_LINE.match(line)
                with self.lock:
                    current = self.queue.popleft() if self.queue else None
                if current is None or not m or \
                        (m.group(2) and int(m.group(2)) != current.number):
                    self._die("the engine answered %r, which is not the "
                              "answer to a command sent" % clip(line, 80),
                              current)
                    return
                current.ok = m.group(1) == "="
                if m.group(3):
                    current.lines.append(m.group(3))
                current.header.set()
            elif line:
                if current.stream:
                    current.stream(line)
                else:
                    current.lines.append(line)
            else:
                current.done.set()
                current = None
        code = self.proc.wait()
        self._die(describe_death(code), current)

    def _die(self, how, current):
        time.sleep(0.05)  # let the last words on stderr arrive
        if self.stderr_tail:
            how += " (it said: %s)" % self.stderr_tail[-1][:200]
        with self.lock:
            self.dead = how
            left = list(self.queue)
            self.queue.clear()
        for p in ([current] if current else []) + left:
            p.error = how
            p.header.set()
            p.done.set()
        self.close()

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        try:
            self.proc.stdin.close()
        except OSError:
            pass


def describe_death(code):
    """How the GUI says the program ended (no signal names: a person
    reading the page wants the fact, not the C name)."""
    if code is None or code == 0:
        return "the engine exited"
    if code < 0:
        return "the engine was killed by signal %d" % -code
    return "the engine exited with status %d" % code
