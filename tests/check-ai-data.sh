#!/bin/sh
# check-ai-data.sh ENGINE: the computer player keeps no writable data of
# its own in the process (ai.h: everything a search touches is reached
# from its struct ai), so that two players, and the threads of one, never
# share state.  nm over the objects of games/ai/ next to ENGINE must show
# no data or bss symbol (D, d, B, b); the opening book's lines are const.
set -eu
build=$(dirname "$1")
n=0
bad=0
for o in "$build"/games/ai/*.o; do
	[ -f "$o" ] || continue
	n=$((n + 1))
	# (AddressSanitizer adds a one-byte __odr_asan.NAME beside each
	# global, const ones too: the sanitizer's, not the program's)
	syms=$(nm "$o" | awk '$2 ~ /^[DdBb]$/ && $3 !~ /^__odr_asan/ {
		printf " %s", $3 }')
	if [ -n "$syms" ]; then
		echo "writable data in $o:$syms"
		bad=1
	fi
done
if [ "$n" -eq 0 ]; then
	echo "no objects under $build/games/ai"
	exit 1
fi
[ "$bad" -eq 0 ] && echo "ok: no writable data in $n objects of games/ai"
exit "$bad"
