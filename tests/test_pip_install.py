"""Tests of the Python package (pyproject.toml; scripts/quintet/README.md,
"Install"), run by tests/check-quintet.sh:

  python3 tests/test_pip_install.py ENGINE   (default ./engine)

Installs this checkout into a new venv in a temporary directory with
`pip install --no-build-isolation` (no network: the build uses the
setuptools, and wheel, of the Python that made the venv, which the venv
sees through --system-site-packages), then, from another directory and
with nothing of the checkout on the path: every module of scripts/quintet/
and scripts/runner/ is in the package and imports, `import quintet` plays
moves against ENGINE, and quintet-tournament and quintet-review run (their
--help, a 2-game match at level 0, the review of one of its games).  The
build goes to the temporary directory too (DIST_EXTRA_CONFIG), so the
checkout gets no build/lib or egg-info, and a stale copy of a module there
cannot hide one missing from the package.

The venv's Python is the first of python3 (this one), /usr/bin/python3 and
/usr/local/bin/python3 that can build the package.  Where none can (no
venv, pip or setuptools, or setuptools older than 70.1 without wheel) the
test says why and is skipped; under CI (CI set) it fails instead.  It
prints one line, `quintet-install: N passed, 0 failed`, or the whole
output when a test fails.
"""

import glob
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ENGINE = os.path.abspath(os.path.join(ROOT, "engine"))
NAME = "quintet-install"

# Run by each candidate Python: exits with the reason it cannot build the
# package offline, or prints what it would build with.
PROBE = r'''
import re, sys
from importlib.util import find_spec
if sys.version_info < (3, 8):
    sys.exit("Python %d.%d (the package needs 3.8)" % sys.version_info[:2])
try:
    import setuptools  # first: looking for pip turns its distutils off
except ImportError:
    sys.exit("no setuptools (Debian: python3-setuptools)")
if not find_spec("venv"):
    sys.exit("no venv module (Debian: python3-venv)")
if not find_spec("pip"):
    sys.exit("no pip (Debian: python3-pip)")
v = tuple(int(x) for x in re.findall(r"\d+", setuptools.__version__)[:2])
if v < (61, 0):
    sys.exit("setuptools %s (pyproject.toml needs 61)" % setuptools.__version__)
what = "setuptools %s" % setuptools.__version__
if v < (70, 1):
    try:
        import wheel
    except ImportError:
        sys.exit("setuptools %s without wheel, which it builds with before "
                 "70.1 (Debian: python3-wheel)" % setuptools.__version__)
    what += ", wheel %s" % wheel.__version__
print("Python %d.%d.%d, %s" % (sys.version_info[:3] + (what,)))
'''

# Run by the venv's Python in another directory: argv[1] is the engine,
# the rest the modules to import.
PLAY = r'''
import importlib, json, sys
import quintet
for m in sys.argv[2:]:
    importlib.import_module(m)
try:
    from importlib.metadata import version
except ImportError:
    version = None
with quintet.Engine(sys.argv[1]) as e:
    e.newgame("checkertoe", seed=7, first=1)
    e.play("c3")
    reply = e.genmove(playouts=200)
    e.play(e.moves()[0])
    print(json.dumps({
        "file": quintet.__file__, "path": sys.path, "reply": reply,
        "history": e.history(), "status": e.status(),
        "engine_version": e.command("version"),
        "version": version("quintet") if version else None}))
'''


def clean_env():
    """The environment without the checkout's or the user's Python and pip
    settings."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "PIP_", "VIRTUAL_ENV"))}
    env["PIP_CONFIG_FILE"] = os.devnull
    env["PYTHONNOUSERSITE"] = "1"
    env["COLUMNS"] = "100"  # argparse's help, wrapped alike everywhere
    return env


def pick_python():
    """(python, what it builds with), or (None, the reasons none can)."""
    seen, why = set(), []
    for py in (sys.executable, shutil.which("python3"), "/usr/bin/python3",
               "/usr/local/bin/python3"):
        if not py or not os.path.exists(py):
            continue
        real = os.path.realpath(py)
        if real in seen:
            continue
        seen.add(real)
        r = subprocess.run([py, "-c", PROBE], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, env=clean_env(),
                           cwd=tempfile.gettempdir(), timeout=60)
        if r.returncode == 0:
            return py, r.stdout.strip()
        why.append("%s: %s" % (py, (r.stderr.strip().splitlines() or
                                    ["exit status %d" % r.returncode])[-1]))
    return None, "; ".join(why)


def modules(folder, package):
    """The dotted names of the modules of a folder of the checkout."""
    names = sorted(os.path.basename(p)[:-3]
                   for p in glob.glob(os.path.join(ROOT, folder, "*.py")))
    return [package if n == "__init__" else package + "." + n
            for n in names]


QUINTET = modules("scripts/quintet", "quintet")
RUNNER = modules("scripts/runner", "quintet.runner")
PYTHON = None  # the Python the venv was made from, and what it builds with
TMP = VENV = ELSEWHERE = None
INSTALL_LOG = ""


def setUpModule():
    global TMP, VENV, ELSEWHERE, INSTALL_LOG
    TMP = tempfile.mkdtemp(prefix="quintet-install-")
    VENV = os.path.join(TMP, "venv")
    ELSEWHERE = os.path.join(TMP, "elsewhere")
    os.mkdir(ELSEWHERE)
    subprocess.run([PYTHON[0], "-m", "venv", "--without-pip",
                    "--system-site-packages", VENV], check=True,
                   env=clean_env(), timeout=120)
    # setuptools' build/ and egg-info go to TMP, not into the checkout
    os.mkdir(os.path.join(TMP, "egg"))
    cfg = os.path.join(TMP, "dist.cfg")
    with open(cfg, "w") as f:
        f.write("[build]\nbuild_base = %s\n[egg_info]\negg_base = %s\n" %
                (os.path.join(TMP, "build"), os.path.join(TMP, "egg")))
    env = clean_env()
    env["DIST_EXTRA_CONFIG"] = cfg
    r = subprocess.run([venv_bin("python"), "-m", "pip", "install",
                        "--no-build-isolation", "--no-index", "--no-deps",
                        "--no-cache-dir", "--disable-pip-version-check",
                        "--force-reinstall", ROOT], cwd=ELSEWHERE, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=300)
    INSTALL_LOG = r.stdout
    if r.returncode:
        raise AssertionError("pip install --no-build-isolation %s failed "
                             "(status %d):\n%s" % (ROOT, r.returncode,
                                                   r.stdout))


def tearDownModule():
    if TMP:
        shutil.rmtree(TMP, ignore_errors=True)


def venv_bin(name):
    return os.path.join(VENV, "bin", name)


def run(argv, timeout=120):
    """Runs argv in a directory that is not the checkout; its output."""
    r = subprocess.run(argv, cwd=ELSEWHERE, env=clean_env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=timeout)
    if r.returncode:
        raise AssertionError("%s: exit status %d\n%s%s" % (
            " ".join("SCRIPT" if "\n" in a else a for a in argv),
            r.returncode, r.stdout, r.stderr))
    return r.stdout


class Installed(unittest.TestCase):
    def test_every_module_is_installed(self):
        site = run([venv_bin("python"), "-c", "import os, quintet; "
                    "print(os.path.dirname(quintet.__file__))"]).strip()
        self.assertTrue(site.startswith(VENV + os.sep), site)
        for folder, names in (("", QUINTET), ("runner", RUNNER)):
            for name in names:
                base = name.split(".")[-1]
                base = "__init__" if base in ("quintet", "runner") else base
                path = os.path.join(site, folder, base + ".py")
                self.assertTrue(os.path.isfile(path),
                                "%s is not in the package (%s)" %
                                (name, path))

    def test_import_and_play(self):
        got = json.loads(run([venv_bin("python"), "-c", PLAY, ENGINE] +
                             QUINTET + RUNNER))
        # quintet is the venv's, and the checkout is not on the path
        self.assertTrue(got["file"].startswith(VENV + os.sep), got["file"])
        self.assertFalse([p for p in got["path"] if p == ROOT or
                          p.startswith(ROOT + os.sep)], got["path"])
        self.assertEqual(got["history"][1:3], ["play c3",
                                               "play " + got["reply"]])
        self.assertEqual(len(got["history"]), 4)
        self.assertTrue(got["history"][0].startswith("newgame checkertoe "))
        self.assertTrue(got["status"].startswith("play "), got["status"])
        if got["version"] is not None:
            self.assertEqual(got["version"], got["engine_version"],
                             "pyproject.toml's version is not the engine's "
                             "(engine.h, ENGINE_VERSION)")

    def test_commands_help(self):
        out = run([venv_bin("quintet-tournament"), "--help"])
        self.assertTrue(out.startswith("usage: quintet-tournament GAME"),
                        out[:200])
        self.assertIn("--referee CMD", out)
        self.assertIn("Example: quintet-tournament checkertoe", out)
        out = run([venv_bin("quintet-review"), "--help"])
        self.assertTrue(out.startswith("usage: quintet-review "), out[:200])
        self.assertIn("(default: ./engine)", out)

    def test_tournament_and_review(self):
        out = run([venv_bin("quintet-tournament"), "checkertoe", "-g", "2",
                   "-q", "--seed", "5", "--referee", ENGINE,
                   "-p", ENGINE, "-s", "set level 0",
                   "-p", ENGINE, "-s", "set level 0",
                   "-o", "match.json", "--record-dir", "games"])
        self.assertIn("checkertoe, match seed 5, games 1-2: 2 played", out)
        with open(os.path.join(ELSEWHERE, "match.json")) as f:
            results = json.load(f)["results"]
        self.assertEqual(len(results), 2)
        record = os.path.join(ELSEWHERE, "games", "game-0001.txt")
        entries = json.loads(run([venv_bin("quintet-review"), "--engine",
                                  ENGINE, "--playouts", "100", "--json",
                                  record]))
        first = [r for r in results if r["game"] == 1][0]
        moves = [l for l in first["record"].splitlines()
                 if l.startswith("play ")]
        self.assertEqual([x["command"] for x in entries], moves)
        self.assertTrue(all("mistake" in x for x in entries))
        # a bad record is refused in the command's name
        r = subprocess.run([venv_bin("quintet-review"), "--engine", ENGINE,
                            "-"], input="play c3\n", cwd=ELSEWHERE,
                           env=clean_env(), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=60)
        self.assertEqual(r.returncode, 1)
        self.assertIn("quintet-review: a record starts with its newgame",
                      r.stderr)


def main():
    global ENGINE, PYTHON
    if len(sys.argv) > 1:
        ENGINE = os.path.abspath(sys.argv[1])
    py, what = pick_python()
    if py is None:
        print("%s: skipped: no Python here can install the package without "
              "a network (%s)" % (NAME, what))
        if os.environ.get("CI"):
            print("%s: CI is set, where the test must run: FAIL" % NAME)
            return 1
        return 0
    PYTHON = (py, what)
    out = io.StringIO()
    result = unittest.main(argv=sys.argv[:1], exit=False,
                           testRunner=unittest.TextTestRunner(
                               stream=out, verbosity=2)).result
    bad = len(result.failures) + len(result.errors)
    if bad or not result.wasSuccessful():
        sys.stdout.write(out.getvalue())
        print("%s: a venv of %s (%s)" % (NAME, py, what))
        if INSTALL_LOG:
            print("pip's output:\n" + INSTALL_LOG)
        print("%s: %d passed, %d failed" % (NAME, max(0, result.testsRun -
                                                      bad), max(bad, 1)))
        return 1
    print("%s: %d passed, 0 failed" % (NAME, result.testsRun))
    return 0


if __name__ == "__main__":
    sys.exit(main())
