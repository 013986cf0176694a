#!/bin/sh
# check-docs.sh ENGINE: every example of README.md, protocol.md, quintet.6
# and docs/adding-a-game.md that shows a command and its output is run
# against ENGINE and must show exactly that output (tests/check_docs.py
# says how examples are written; about 15 s).
set -u
engine=${1:-./engine}
exec python3 "$(dirname "$0")/check_docs.py" "$engine"
