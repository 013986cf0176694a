#!/bin/sh
# check-cli.sh ENGINE: the command line users expect of a Unix program
# (protocol.md, "Command line"): -h and --help, --version, an unknown option, -c, FILE, -, and the
# exit statuses; then `make install` into a DESTDIR and the installed
# program and manual page.
set -u
engine=${1:-./engine}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
checks_name=cli
. "$(dirname "$0")/checks.sh"

"$engine" --help >"$tmp/out" 2>&1
check "--help exits 0" [ $? = 0 ]
check "--help shows the usage" grep -q '^usage: .*-c COMMAND' "$tmp/out"
"$engine" -h >"$tmp/out" 2>&1
check "-h exits 0" [ $? = 0 ]
check "-h shows the usage" grep -q '^usage: .*-c COMMAND' "$tmp/out"
"$engine" --version >"$tmp/out" 2>&1
check "--version exits 0" [ $? = 0 ]
check "--version names the engine" grep -qx 'quintet [0-9.]*' "$tmp/out"
"$engine" -x </dev/null >"$tmp/out" 2>"$tmp/err"
check "an unknown option exits 2" [ $? = 2 ]
check "an unknown option names itself" grep -q -- '-x' "$tmp/err"
check "nothing on stdout for a usage error" [ ! -s "$tmp/out" ]
"$engine" -c </dev/null >/dev/null 2>"$tmp/err"
check "-c without a command exits 2" [ $? = 2 ]

printf 'newgame checkertoe seed=1 first=1\nplay c3\n' >"$tmp/cmds"
"$engine" "$tmp/cmds" -c status -c 'play b2' -c history >"$tmp/out" </dev/null
check "FILE then -c exits 0" [ $? = 0 ]
printf '= \n\n= \n\n= play 2\n\n= \n\n= \nnewgame checkertoe seed=1 first=1 size=5 float=0 exchange=0\nplay c3\nplay b2\n\n' >"$tmp/want"
check "FILE and -c run in order in one session" cmp -s "$tmp/out" "$tmp/want"
printf 'moves\n' | "$engine" -c 'newgame tiptoe size=4' - -c score >"$tmp/out"
check "- reads standard input in its place" \
	grep -q '^= a1 b1 c1 d1 a2' "$tmp/out"
check "the -c after - runs too" grep -q '^= 0 0$' "$tmp/out"
"$engine" -c quit -c name >"$tmp/out"
check "quit ends everything" [ "$(cat "$tmp/out")" = "= " ]
"$engine" "$tmp/nosuchfile" -c name >"$tmp/out" 2>"$tmp/err"
check "a missing file exits 1" [ $? = 1 ]
check "a missing file is named" grep -q nosuchfile "$tmp/err"
printf 'name\n' | "$engine" >"$tmp/out"
check "no arguments read standard input" [ "$(cat "$tmp/out")" = "= quintet" ]

# make install into a DESTDIR, from the source tree this script is in
top=$(cd "$(dirname "$0")/.." && pwd)
if make -s -C "$top" install DESTDIR="$tmp/stage" PREFIX=/usr \
	BUILD="$(cd "$(dirname "$engine")" && pwd)" >"$tmp/log" 2>&1; then
	check "install puts quintet in bin" [ -x "$tmp/stage/usr/bin/quintet" ]
	check "the installed quintet runs" \
		[ "$("$tmp/stage/usr/bin/quintet" -c name)" = "= quintet" ]
	check "install puts the manual page in man6" \
		[ -f "$tmp/stage/usr/share/man/man6/quintet.6" ]
	check "the manual page names the installed protocol.md" \
		grep -q /usr/share/doc/quintet/protocol.md \
		"$tmp/stage/usr/share/man/man6/quintet.6"
	check "install puts protocol.md in the doc folder" \
		[ -f "$tmp/stage/usr/share/doc/quintet/protocol.md" ]
	if command -v man >/dev/null 2>&1; then
		man --warnings -l "$tmp/stage/usr/share/man/man6/quintet.6" \
			>"$tmp/man" 2>"$tmp/manerr"
		check "the manual page renders" grep -q 'quintet' "$tmp/man"
		check "the manual page renders without warnings" \
			[ ! -s "$tmp/manerr" ]
	fi
	make -s -C "$top" uninstall DESTDIR="$tmp/stage" PREFIX=/usr \
		>/dev/null 2>&1
	check "uninstall removes every file" \
		[ -z "$(find "$tmp/stage" -type f)" ]
else
	fail=$((fail + 1))
	echo "FAIL cli: make install"
	cat "$tmp/log"
fi
checks_done
