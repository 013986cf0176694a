#!/bin/sh
# check-gui.sh ENGINE: the GUI's server (scripts/gui) with ENGINE behind
# it, through HTTP: bad requests, an engine that dies, two tabs at once,
# stop and analyze, and what an attacker tries (tests/gui_server_test.py,
# half a minute).  The page
# itself is tested in headless Chromium by tests/gui_e2e_test.py, which
# .ci/run runs.
set -u
. "$(dirname "$0")/checks.sh"
unittest_check gui gui_server_test.py "${1:-./engine}"
