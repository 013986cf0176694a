#!/bin/sh
# check-book.sh ENGINE: `solver book` (scripts/tools/solver.c, beside
# ENGINE in the build) writes each position once, writes lines for the player who
# moves first alone under PLIES/first, and with -r copies the lines of the
# book compiled in instead of solving them again (docs/strength.md).  Tiptoe 4x4,
# whose walks take well under a second.
set -u
engine=${1:-build/engine}
solver=$(dirname "$engine")/scripts/solver
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
checks_name=book
. "$(dirname "$0")/checks.sh"
# the book lines of a written file, one per line
lines() { grep '^	{"[^"]' "$1"; }

"$solver" -q -m 64 book "$tmp/follow.c" tiptoe size=4 2/follow
"$solver" -q -m 64 book "$tmp/first.c" tiptoe size=4 4/first
"$solver" -q -m 64 book "$tmp/both.c" tiptoe size=4 2/follow \
	tiptoe size=4 4/first
lines "$tmp/follow.c" >"$tmp/follow"
lines "$tmp/first.c" >"$tmp/first"
lines "$tmp/both.c" >"$tmp/both"
check "the walks write lines" [ -s "$tmp/follow" ] && [ -s "$tmp/first" ]

# /first: every line is a position where player 1 (who starts) moves
sed 's/^	{"tiptoe", "size=4", "\([^"]*\)".*/\1/' "$tmp/first" |
	while read -r moves; do
		echo "newgame tiptoe size=4"
		for m in $moves; do echo "play $m"; done
		echo "status"
	done | "$engine" | grep '^= play' | sort | uniq -c >"$tmp/movers"
check "/first writes lines for the first player alone" \
	grep -qx " *$(wc -l <"$tmp/first") = play 1" "$tmp/movers"

# one file for both walks: the second follows the first's lines where
# they meet (the opening) and writes only the positions new to it (their
# moves may differ from a walk of its own, which solved the opening first
# and so searched with another table)
where() { cut -d'"' -f2-6 "$1"; } # game, set-up and moves of each line
where "$tmp/follow" >"$tmp/follow.at"
{
	cat "$tmp/follow.at"
	where "$tmp/first" | grep -vxF -f "$tmp/follow.at"
} >"$tmp/union.at"
where "$tmp/both" >"$tmp/both.at"
check "a position met again is not written twice" cmp -s "$tmp/both.at" \
	"$tmp/union.at"
check "the walks met" [ "$(wc -l <"$tmp/both")" -lt \
	"$(($(wc -l <"$tmp/follow") + $(wc -l <"$tmp/first")))" ]
check "the first walk's lines stand" [ "$(head -n "$(wc -l <"$tmp/follow")" \
	"$tmp/both")" = "$(cat "$tmp/follow")" ]

# -r: the compiled-in book's checkertoe lines with first=1 come back word
# for word, unsolved (solving them takes more than an hour), from the
# walks the Makefile's BOOK_SPEC gives for that set-up
"$solver" -q -r -m 64 book "$tmp/again.c" checkertoe first=1 5/follow \
	checkertoe first=1 7/first checkertoe first=1 4
lines "$tmp/again.c" >"$tmp/again"
grep '^	{"checkertoe", "first=1", ' \
	"$(dirname "$0")/../games/ai/book_data.c" >"$tmp/compiled"
check "-r copies the compiled-in lines" cmp -s "$tmp/again" "$tmp/compiled"
check "-r found lines to copy" [ -s "$tmp/again" ]

# -R: the lines of a file are copied word for word, the rest solved.  The
# file: the first three lines of a plain walk (every position, whatever
# the moves), the third one's value changed so that a copy shows and
# broken over two lines as clang-format may leave it, then a line cut
# short, as a walk stopped mid-write leaves it.
"$solver" -q -m 64 book "$tmp/plain.c" tiptoe size=4 3
lines "$tmp/plain.c" >"$tmp/plain"
sed '3s/, -\{0,1\}[0-9]*, 1},$/, 77, 1},/' "$tmp/plain" >"$tmp/want"
{
	head -n 2 "$tmp/want"
	sed -n 3p "$tmp/want" | sed 's/, 77, 1},$/,\n\t77, 1},/'
	sed -n 4p "$tmp/want" | cut -c1-30
} >"$tmp/part.c"
"$solver" -q -m 64 -R "$tmp/part.c" book "$tmp/resumed.c" tiptoe size=4 3
lines "$tmp/resumed.c" >"$tmp/resumed"
# each line's position and value (a line solved again may name another
# move of the same value: the table differs)
worth() { sed 's/^	{"[^"]*", "[^"]*", "\([^"]*\)", "[^"]*", /\1: /' "$1"; }
check "-R copies the file's lines word for word" \
	[ "$(head -n 3 "$tmp/resumed")" = "$(head -n 3 "$tmp/want")" ]
check "-R solves the positions the file lacks" \
	[ "$(worth "$tmp/resumed")" = "$(worth "$tmp/want")" ]

# -R twice: the lines of both files are copied (a walk resumed from one
# walk's file per first player), more lines in all than the first file
# needed room for; a line of each with its value changed shows the copy.
"$solver" -q -m 64 book "$tmp/plain4.c" tiptoe size=4 4
lines "$tmp/plain4.c" >"$tmp/plain4"
sed '5s/, -\{0,1\}[0-9]*, 1},$/, 77, 1},/
250s/, -\{0,1\}[0-9]*, 1},$/, 78, 1},/' "$tmp/plain4" >"$tmp/want4"
head -n 200 "$tmp/want4" >"$tmp/one.c"
tail -n +150 "$tmp/want4" >"$tmp/two.c"
"$solver" -q -m 64 -R "$tmp/one.c" -R "$tmp/two.c" book "$tmp/both4.c" \
	tiptoe size=4 4
lines "$tmp/both4.c" >"$tmp/both4"
check "-R twice copies the lines of both files" cmp -s "$tmp/both4" \
	"$tmp/want4"

checks_done
