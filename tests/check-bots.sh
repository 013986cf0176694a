#!/bin/sh
# check-bots.sh ENGINE: scripts/tournament --check against every broken
# player in tests/players/ (each must fail, for its own defect), our engine
# and the example bot scripts/examples/randombot (both must pass), and the
# example bot in matches through the runner (tests/test_check.py).
set -u
engine=${1:-./engine}
case $engine in /*) ;; *) engine=$(pwd)/$engine ;; esac
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
if python3 "$here/test_check.py" "$engine" >"$tmp" 2>&1; then
	echo "bots: $(sed -n 's/^Ran \([0-9]*\) tests* in .*/\1/p' "$tmp") passed, 0 failed"
else
	cat "$tmp"
	echo "bots: the --check test failed"
	exit 1
fi
