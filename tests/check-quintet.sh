#!/bin/sh
# check-quintet.sh ENGINE: the protocol client scripts/quintet against
# ENGINE and against broken programs (tests/test_quintet.py, seconds), and
# the Python package: the checkout installed by pip into a new venv, used
# from elsewhere (tests/test_pip_install.py, seconds; it says so when this
# machine cannot build it, and is skipped).
set -u
. "$(dirname "$0")/checks.sh"
engine=${1:-./engine}
rc=0
unittest_check quintet test_quintet.py "$engine" || rc=1
python3 "$(dirname "$0")/test_pip_install.py" "$engine" || rc=1
exit $rc
