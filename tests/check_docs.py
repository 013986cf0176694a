#!/usr/bin/env python3
"""check_docs.py ENGINE [FILE ...]: runs the examples of the documents.

Every example in README.md, protocol.md, quintet.6 and
docs/adding-a-game.md (or the FILEs given)
that shows a command and its output is run against ENGINE, and the output
must be the one shown; a difference fails with a diff.  Three kinds of
example are recognised:

- a protocol session (an indented Markdown block whose lines start with
  "> " for a line sent and "< " for a line answered): one fresh engine
  reads the lines sent, one at a time, and each must be answered by the
  lines below it.  A line sent with no answer shown before the next one
  (`stop` while `genmove` thinks) is followed by that next line 0.3 s
  later.  Two or more spaces and a "(remark)" at the end of a line sent
  are a remark for the reader, not part of the command;
- a shell session (lines starting "$ ", continued by a trailing "\\", each
  followed by what the terminal shows: standard output and standard error
  as the program wrote them), run by sh in a directory where ./engine and
  `quintet` are the ENGINE;
- a position (a block whose first line is "GAME key=value ..."):
  `newgame` of it must succeed and `position` must give it back.

An answer line ending in "..." stands for every line that starts as it
does.  Where an answer depends on timing (`stop`, `analyze`, a clock), the
block is preceded by the comment <!-- doc-test: shape --> and its answers
are compared by shape: a number matches any number and a run of squares
(a1 c3 b2) any run of squares; every other word must be the same.  Trailing spaces are not
compared (the framing's "= " is "=" in the documents).

To show that an example changed by one character fails, every example is
also compared, after it ran, with its expected text so changed; a changed
text that still matches fails the check.
"""

import difflib
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

GAMES = ()  # the engine's list_games, read in main()
NUMBER = re.compile(r"^-?\d+(\.\d+)?%?$")
SQUARE = re.compile(r"^[a-z]+\d+$")
REMARK = re.compile(r"\s{2,}\(.*\)$")
LINE_TIMEOUT = 30


class Example:
    def __init__(self, doc, line, kind, lines, shape):
        self.doc, self.line, self.kind = doc, line, kind
        self.lines, self.shape = lines, shape

    def where(self):
        return "%s:%d" % (self.doc, self.line)


def markdown_blocks(text):
    """The indented blocks of a Markdown text, each with the line it starts
    on and whether a doc-test: shape comment precedes it."""
    lines = text.split("\n")
    i, out = 0, []
    while i < len(lines):
        if not lines[i].startswith("    "):
            i += 1
            continue
        before = [l for l in lines[:i] if l.strip()]
        shape = bool(before) and before[-1].strip() == "<!-- doc-test: shape -->"
        start, block = i, []
        while i < len(lines) and (lines[i].startswith("    ") or
                                  not lines[i].strip()):
            block.append(lines[i][4:])
            i += 1
        while block and not block[-1].strip():
            block.pop()
        # a list item's continuation lines are indented too: only blocks
        # after a blank line are code
        if start > 0 and lines[start - 1].strip():
            continue
        out.append((start + 1, block, shape))
    return out


TROFF = [("\\-", "-"), ("\\(aq", "'"), ("\\(dq", '"'), ("\\&", ""),
         ("\\e", "\\")]


def troff_blocks(text):
    """The .nf ... .fi blocks of a manual page, unescaped."""
    lines = text.split("\n")
    out, i = [], 0
    while i < len(lines):
        if lines[i] != ".nf":
            i += 1
            continue
        shape = i > 0 and lines[i - 1].strip() == '.\\" doc-test: shape'
        start, block = i + 2, []
        i += 1
        while i < len(lines) and lines[i] != ".fi":
            line = lines[i]
            for a, b in TROFF:
                line = line.replace(a, b)
            block.append(line)
            i += 1
        while block and not block[-1].strip():
            block.pop()
        out.append((start, block, shape))
    return out


def examples(path):
    text = open(path, encoding="utf-8").read()
    name = os.path.basename(path)
    blocks = (troff_blocks if path.endswith(".6") else markdown_blocks)(text)
    for line, block, shape in blocks:
        if not block:
            continue
        first = block[0]
        if first.startswith(">"):
            kind = "protocol"
        elif first.startswith("$ "):
            kind = "shell"
        elif first.split(" ")[0] in GAMES and "=" in first:
            kind = "position"
        else:
            continue
        yield Example(name, line, kind, block, shape)


def shape_pattern(want):
    """A regular expression for the lines of want's shape: a number for a
    number, one or more squares for a run of squares (a pv of any length),
    anything for a final "...", every other word as it is."""
    words = want.split(" ")
    out, k = [], 0
    while k < len(words):
        w = words[k]
        if w == "..." and k == len(words) - 1:
            out.append(".*")
        elif NUMBER.match(w):
            out.append(r"-?\d+(\.\d+)?%?")
        elif SQUARE.match(w):
            while k + 1 < len(words) and SQUARE.match(words[k + 1]):
                k += 1
            out.append(r"[a-z]+\d+( [a-z]+\d+)*")
        else:
            out.append(re.escape(w))
        k += 1
    return re.compile(" ".join(out).replace(" .*", "( .*)?") + "$")


def line_matches(want, got, shape):
    want, got = want.rstrip(), got.rstrip()
    if shape:
        return shape_pattern(want).match(got) is not None
    if want.endswith("..."):
        return got.startswith(want[:-3].rstrip())
    return got == want


def lines_match(want, got, shape):
    return len(want) == len(got) and all(
        line_matches(a, b, shape) for a, b in zip(want, got))


class Reader:
    """Lines of a pipe, read by a thread so that a wait can time out."""

    def __init__(self, stream):
        self.q = queue.Queue()
        threading.Thread(target=self._run, args=(stream,),
                         daemon=True).start()

    def _run(self, stream):
        for line in stream:
            self.q.put(line.rstrip("\n"))
        self.q.put(None)

    def line(self, timeout=LINE_TIMEOUT):
        try:
            return self.q.get(timeout=timeout)
        except queue.Empty:
            return None


def run_protocol(engine, ex):
    """Runs a protocol session; returns (expected, actual) line lists."""
    steps = []
    for raw in ex.lines:
        if raw.startswith(">"):
            steps.append((REMARK.sub("", raw[1:].strip()), []))
        elif raw.startswith("<"):
            if not steps:
                raise ValueError("an answer before any command")
            steps[-1][1].append(raw[2:] if raw.startswith("< ") else "")
        else:
            raise ValueError("a line that is neither '> ' nor '< ': %r" % raw)
    p = subprocess.Popen([engine], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True, bufsize=1)
    reader = Reader(p.stdout)
    want, got = [], []
    try:
        for k, (cmd, answer) in enumerate(steps):
            p.stdin.write(cmd + "\n")
            p.stdin.flush()
            if not answer and k + 1 < len(steps):
                time.sleep(0.3)
            for line in answer:
                want.append(line)
                g = reader.line()
                if g is None:
                    return want, got
                got.append(g)
        p.stdin.close()
        while True:
            g = reader.line()
            if g is None:
                break
            got.append(g)
    finally:
        if p.poll() is None:
            p.kill()
        p.wait()
    return want, got


def shell_commands(lines):
    """[(command, expected lines)] of a shell session."""
    out = []
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            raise ValueError("output before the first '$ ' command")
        cmd = lines[i][2:]
        while cmd.endswith("\\") and i + 1 < len(lines):
            i += 1
            cmd = cmd + "\n" + lines[i]
        i += 1
        exp = []
        while i < len(lines) and not lines[i].startswith("$ "):
            exp.append(lines[i])
            i += 1
        out.append((cmd, exp))
    return out


def run_shell(ex, workdir):
    want, got = [], []
    for cmd, exp in shell_commands(ex.lines):
        r = subprocess.run(["sh", "-c", cmd], cwd=workdir,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True,
                           timeout=120,
                           env=dict(os.environ, PATH=workdir + os.pathsep +
                                    os.environ.get("PATH", "")))
        out = r.stdout.split("\n")
        while out and not out[-1].strip():
            out.pop()
        while exp and not exp[-1].strip():
            exp = exp[:-1]
        want += ["$ " + cmd] + exp
        got += ["$ " + cmd] + out
    return want, got


def run_position(engine, ex):
    want, got = [], []
    for pos in ex.lines:
        if not pos.strip() or pos.strip() == "...":
            continue
        r = subprocess.run([engine, "-c", "newgame " + pos, "-c", "position"],
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, timeout=60)
        want += ["=", "", "= " + pos, ""]
        got += r.stdout.rstrip("\n").split("\n") + [""]
    return want, got


def mutate(want, shape):
    """want with one character changed, where the change must show; None
    when no line holds such a character."""
    for i in range(len(want) - 1, -1, -1):
        line = want[i]
        words = line.split(" ")
        for j in range(len(words) - 1, -1, -1):
            w = words[j]
            if (shape and (NUMBER.match(w) or SQUARE.match(w))) or \
                    w.startswith("...") or not w:
                continue
            for k in range(len(w) - 1, -1, -1):
                c = w[k]
                if c.isalnum():
                    new = "x" if c != "x" else "y"
                    words[j] = w[:k] + new + w[k + 1:]
                    return want[:i] + [" ".join(words)] + want[i + 1:]
    return None


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: check_docs.py ENGINE [FILE ...]")
    engine = os.path.abspath(sys.argv[1])
    global GAMES
    listed = subprocess.run([engine, "-c", "list_games"], text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            timeout=60).stdout
    GAMES = tuple(line.lstrip("= ").split(" ")[0]
                  for line in listed.split("\n") if line.strip())
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = sys.argv[2:] or [os.path.join(top, f) for f in
                             ("README.md", "protocol.md", "quintet.6",
                              os.path.join("docs", "adding-a-game.md"))]
    workdir = tempfile.mkdtemp(prefix="check-docs.")
    try:
        for name in ("engine", "quintet"):
            shutil.copy(engine, os.path.join(workdir, name))
        passed = failed = 0
        kinds = {}
        for path in files:
            for ex in examples(path):
                try:
                    if ex.kind == "protocol":
                        want, got = run_protocol(engine, ex)
                    elif ex.kind == "shell":
                        want, got = run_shell(ex, workdir)
                    else:
                        want, got = run_position(engine, ex)
                    ok = lines_match(want, got, ex.shape)
                    why = "its output differs (- shown, + the engine's):"
                    changed = mutate(want, ex.shape)
                    if ok and changed and lines_match(changed, got, ex.shape):
                        ok, why = False, "a change of one character still matches"
                except (ValueError, subprocess.TimeoutExpired) as e:
                    ok, want, got, why = False, [], [], str(e)
                kinds[ex.kind] = kinds.get(ex.kind, 0) + 1
                if ok:
                    passed += 1
                    continue
                failed += 1
                print("FAIL %s (%s example%s): %s" %
                      (ex.where(), ex.kind, ", by shape" if ex.shape else "",
                       why))
                for d in difflib.unified_diff([w.rstrip() for w in want],
                                              [g.rstrip() for g in got],
                                              "shown", "engine",
                                              lineterm="", n=2):
                    print("    " + d)
        print("docs: %d passed, %d failed (examples: %s)" % (
            passed, failed,
            ", ".join("%d %s" % (n, k) for k, n in sorted(kinds.items()))))
        return 1 if failed else 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
