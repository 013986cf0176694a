#!/bin/sh
# check-robust.sh ENGINE: a short stress run against ENGINE (20,000 random
# commands, valid and invalid, every answer's framing checked), then quit,
# end of input, and the frontend closing the pipe mid-answer (SIGPIPE).
# scripts/testing/stress does the work; run it alone for the full million.
engine=${1:-./engine}
if ! command -v python3 >/dev/null 2>&1; then
	echo "check-robust: SKIP: python3 is not installed"
	exit 0
fi
exec python3 "$(dirname "$0")/../scripts/testing/stress" "$engine" -n 20000 --seed 1
