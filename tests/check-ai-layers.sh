#!/bin/sh
# check-ai-layers.sh ENGINE: the files of games/ai/ stand in layers
# (docs/design.md, "The computer player in layers"): each refers only to
# files below it, so that no two call each other, however far round.
# Two readings: every #include "X.h" of a file of games/ai/ names a file
# of a lower layer (or the file's own header), and every symbol an object
# of games/ai/ next to ENGINE takes from another of them (nm: undefined
# there, defined there) is defined in a lower layer.
set -eu
build=$(dirname "$1")
src=$(dirname "$0")/../games/ai
# the layers, lowest first (book_data.c is the book's data, in its layer)
layers="scratch pattern reward request train timeman solve_table solve tree worker
playout expand endgame results iterate team search book ai"
rank() { # NAME: its layer's place, or nothing
	name=${1%_data}
	i=0
	for l in $layers; do
		[ "$l" = "$name" ] && { echo $i; return; }
		i=$((i + 1))
	done
}
bad=0
n=0
for f in "$src"/*.c "$src"/*.h; do
	base=$(basename "$f")
	me=$(rank "${base%.*}")
	if [ -z "$me" ]; then
		echo "$base: in no layer (tests/check-ai-layers.sh)"
		bad=1
		continue
	fi
	for h in $(sed -n 's/^#include "\([a-z_]*\)\.h"$/\1/p' "$f"); do
		[ "$h" = "${base%.*}" ] && continue
		[ "$base" = book_data.c ] && [ "$h" = book ] && continue
		r=$(rank "$h")
		if [ -z "$r" ] || [ "$r" -ge "$me" ]; then
			echo "$base includes $h.h, which is not below it"
			bad=1
		fi
		n=$((n + 1))
	done
done
defs=$(mktemp)
trap 'rm -f "$defs"' EXIT
# (an object whose source is gone, left by an older build, is no file)
for o in "$build"/games/ai/*.o; do
	[ -f "$src/$(basename "$o" .o).c" ] || continue
	nm -P "$o" | awk -v f="$(basename "$o" .o)" \
		'$2 ~ /^[TDBR]$/ { print $1, f }' >>"$defs"
done
if [ ! -s "$defs" ]; then
	echo "no objects under $build/games/ai"
	exit 1
fi
for o in "$build"/games/ai/*.o; do
	f=$(basename "$o" .o)
	[ -f "$src/$f.c" ] || continue
	me=$(rank "$f")
	for s in $(nm -P -u "$o" | awk '{ print $1 }'); do
		owner=$(awk -v s="$s" '$1 == s { print $2; exit }' "$defs")
		[ -z "$owner" ] || [ "$owner" = "$f" ] && continue
		[ "$f" = book ] && [ "$owner" = book_data ] && continue
		r=$(rank "$owner")
		if [ "$r" -ge "$me" ]; then
			echo "$f.c uses $s of $owner.c, which is not below it"
			bad=1
		fi
		n=$((n + 1))
	done
done
[ "$bad" -eq 0 ] && echo "ok: games/ai in layers ($n references, all downwards)"
exit "$bad"
