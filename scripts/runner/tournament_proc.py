"""tournament_proc: one program that speaks the engine protocol, as the
runner drives it: the protocol client (quintet.Engine) with the runner's
habits.

Every command carries an id, and the answer must carry the same one (the
client checks it).  Everything that can go wrong with a program (it does
not start, it exits, it does not answer in time, it answers something that
is not a response) is raised as PlayerError, the client's ProtocolError,
with a short kind ("timeout", "exited", "malformed", "start") and a
sentence for people, so that the match can record it as the reason for a
forfeit and go on.
"""

import subprocess

from quintet import Engine, ProtocolError, describe_exit  # noqa: F401

PlayerError = ProtocolError


class Program(Engine):
    """A program started from argv, not started until start().  stderr
    goes to stderr_path (a file, so a chatty program can never block on a
    pipe nobody reads).  It runs in a session of its own: a Ctrl-C at the
    terminal stops the runner, which then stops its programs, instead of
    killing the programs first and recording their deaths as forfeits.

    request(cmd, timeout) gives (ok, text); on a broken protocol the
    program is killed and PlayerError raised, since nobody can tell what
    state it is in."""

    def __init__(self, argv, label, stderr_path=None):
        super().__init__(argv, stderr=stderr_path or subprocess.DEVNULL,
                         new_session=True, start=False)
        self.label = label

    def stop(self, grace=0.5):
        """Ask the program to quit, then kill it if it has not within grace
        seconds.  Safe to call on a dead or never started program."""
        self.close(grace)
