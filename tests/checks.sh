# checks.sh: named checks for the shell tests (tests/check-*.sh), which
# set checks_name and source this file.  `check NAME CONDITION...` runs
# the condition and counts it, saying FAIL with the name when it fails;
# `checks_done` prints the tally and is true when nothing failed.
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
