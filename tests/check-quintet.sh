#!/bin/sh
# check-quintet.sh ENGINE: the protocol client scripts/quintet against
# ENGINE and against broken programs (tests/test_quintet.py, seconds).
set -u
engine=${1:-./engine}
case $engine in /*) ;; *) engine=$(pwd)/$engine ;; esac
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
if python3 "$here/test_quintet.py" "$engine" >"$tmp" 2>&1; then
	echo "quintet: $(sed -n 's/^Ran \([0-9]*\) tests* in .*/\1/p' "$tmp") passed, 0 failed"
else
	cat "$tmp"
	echo "quintet: the client test failed"
	exit 1
fi
