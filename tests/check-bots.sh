#!/bin/sh
# check-bots.sh ENGINE: scripts/tournament --check against every broken
# player in tests/players/ (each must fail, for its own defect), our engine
# and the example bot scripts/examples/randombot (both must pass), and the
# example bot in matches through the runner (tests/test_check.py).
set -u
. "$(dirname "$0")/checks.sh"
unittest_check bots test_check.py "${1:-./engine}"
