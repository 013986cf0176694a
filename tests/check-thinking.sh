#!/bin/sh
# check-thinking.sh ENGINE: stop, analyze, quit while thinking, seeded
# determinism and verbose, through pipes (tests/thinking_test.py).  The
# whole games under clocks take minutes: .ci/run runs them with --clocks.
exec python3 "$(dirname "$0")/thinking_test.py" "${1:-./engine}"
