#!/bin/sh
# check-gui.sh ENGINE: the GUI's server (scripts/gui) with ENGINE behind
# it, through HTTP: bad requests, an engine that dies, two tabs at once,
# stop and analyze, and what an attacker tries (tests/gui_server_test.py,
# half a minute).  The page
# itself is tested in headless Chromium by tests/gui_e2e_test.py, which
# .ci/run runs.
set -u
engine=${1:-./engine}
case $engine in /*) ;; *) engine=$(pwd)/$engine ;; esac
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
if python3 "$here/gui_server_test.py" "$engine" >"$tmp" 2>&1; then
	echo "gui: $(sed -n 's/^Ran \([0-9]*\) tests* in .*/\1/p' "$tmp") passed, 0 failed"
else
	cat "$tmp"
	echo "gui: the server test failed"
	exit 1
fi
