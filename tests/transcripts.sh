#!/bin/sh
# transcripts.sh ENGINE: runs every tests/transcripts/*.in through ENGINE
# and compares the whole output with the matching .out file.
engine=${1:-./engine}
dir=$(dirname "$0")/transcripts
pass=0 fail=0
for in in "$dir"/*.in; do
	exp=${in%.in}.out
	if "$engine" <"$in" 2>/dev/null | cmp -s - "$exp"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL transcript $(basename "$in"):"
		"$engine" <"$in" 2>/dev/null | diff "$exp" - | head -20
	fi
done
echo "transcripts: $pass passed, $fail failed"
[ "$fail" = 0 ]
