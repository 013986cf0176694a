# checks.sh: named checks for the shell tests (tests/check-*.sh), which
# set checks_name and source this file.  `check NAME CONDITION...` runs
# the condition and counts it, saying FAIL with the name when it fails;
# `checks_done` prints the tally and is true when nothing failed.
# `unittest_check NAME FILE ENGINE` runs the Python unittest FILE (in
# tests/) against ENGINE, and prints its tally as one line, or its whole
# output when it fails.
pass=0 fail=0
check() { # NAME CONDITION...
	name=$1
	shift
	if "$@"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $checks_name: $name"
	fi
}
checks_done() {
	echo "$checks_name: $pass passed, $fail failed"
	[ "$fail" = 0 ]
}
unittest_check() { # NAME FILE ENGINE
	case $3 in /*) e=$3 ;; *) e=$(pwd)/$3 ;; esac
	out=$(mktemp)
	if python3 "$(dirname "$0")/$2" "$e" >"$out" 2>&1; then
		echo "$1: $(sed -n 's/^Ran \([0-9]*\) tests* in .*/\1/p' "$out") passed, 0 failed"
		rm -f "$out"
	else
		cat "$out"
		rm -f "$out"
		echo "$1: $2 failed"
		return 1
	fi
}
