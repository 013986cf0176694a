#!/bin/sh
# check-quintet.sh ENGINE: the protocol client scripts/quintet against
# ENGINE and against broken programs (tests/test_quintet.py, seconds).
set -u
. "$(dirname "$0")/checks.sh"
unittest_check quintet test_quintet.py "${1:-./engine}"
