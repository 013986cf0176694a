#!/bin/sh
# check-tournament.sh ENGINE: tests scripts/tournament with ENGINE as
# referee and players.
#   - a short match of every game that `list_games` lists, between two fast
#     settings (and with 3 and 4 programs where the game takes players=3/4):
#     the totals must add up, seats must rotate, every record must replay
#     on a fresh engine to the same history and final status;
#   - the broken players in tests/players/ (illegal move, exit, silence,
#     garbage) must forfeit with the right reason, the match must finish,
#     and a dead player must be restarted for the next game;
#   - programs that do not start or do not speak the protocol must stop the
#     runner with a clear error;
#   - shards of a match merged must equal the whole match;
#   - tests/test_tournament.py: clocks, round robins and gauntlets, ratings,
#     pentanomial counts and the SPRT against values worked out by hand,
#     resume after SIGTERM, the HTML report, merge's checks.
set -u
engine=${1:-./engine}
case $engine in /*) ;; *) engine=$(pwd)/$engine ;; esac
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
runner=$root/scripts/tournament
players=$here/players
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
nfail=0
npass=0

fail() {
	echo "FAIL tournament: $*"
	nfail=$((nfail + 1))
}

pass() {
	npass=$((npass + 1))
}

# tests/test_tournament.py (hand-worked arithmetic, and the runner against
# the fake players) mostly waits on clocks and sleeping players: it runs
# beside the rest, which keeps this script within a minute under the
# sanitizers too.
ENGINE="$engine" python3 "$here/test_tournament.py" >"$tmp/unit.out" 2>&1 &
unit_pid=$!

# run NAME ARGS...: runs the tournament quietly with ENGINE as referee;
# keeps stdout in $tmp/NAME.out and stderr in $tmp/NAME.err.
run() {
	name=$1
	shift
	python3 "$runner" "$@" --referee "$engine" -q >"$tmp/$name.out" \
		2>"$tmp/$name.err"
}

# check_results FILE.json GAMES NPROG [EXPECT]: the totals of a results file
# add up, seats rotate, and every record replays.  EXPECT, when given, is
# "SEAT_PROGRAM:KIND:TEXT": every game must be forfeited by that program
# with that kind and a reason containing TEXT.
check_results() {
	python3 - "$engine" "$@" <<'EOF'
import json, subprocess, sys
engine, path, ngames, nprog = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
expect = sys.argv[5].split(":", 2) if len(sys.argv) > 5 else None
doc = json.load(open(path))
res = doc["results"]
errs = []
def err(msg):
    errs.append(msg)
if doc["aborted"]:
    err("aborted games: %r" % doc["aborted"])
if sorted(r["game"] for r in res) != list(range(1, ngames + 1)):
    err("games played %r, wanted 1-%d" % ([r["game"] for r in res], ngames))
games = [0] * nprog
points = [0.0] * nprog
first = [0] * nprog
for r in res:
    g, seats = r["game"], r["seats"]
    if sorted(seats) != list(range(nprog)):
        err("game %d: seats %r are not one seat per program" % (g, seats))
        continue
    if abs(sum(r["points"]) - 1.0) > 1e-9:
        err("game %d: points %r do not add up to 1" % (g, r["points"]))
    if seats[r["first"] - 1] != (g - 1) % nprog:
        err("game %d: program %d moved first, wanted %d" %
            (g, seats[r["first"] - 1], (g - 1) % nprog))
    for s, prog in enumerate(seats):
        games[prog] += 1
        points[prog] += r["points"][s]
    first[seats[r["first"] - 1]] += 1
    st = r["status"].split()
    f = r.get("forfeit")
    if st[0] == "over" and st[1] != "draw":
        want = ["win" if s + 1 == int(st[1]) else "loss" for s in range(nprog)]
        if r["outcome"] != want:
            err("game %d: %s but outcomes %r" % (g, r["status"], r["outcome"]))
    elif st[0] == "forfeit":
        if not f or r["outcome"][f["seat"] - 1] != "loss" or \
                r["points"][f["seat"] - 1] != 0:
            err("game %d: forfeit not scored as a loss: %r" % (g, r))
    elif st != ["over", "draw"]:
        err("game %d: status %r" % (g, r["status"]))
    if expect:
        prog, kind, text = int(expect[0]), expect[1], expect[2]
        if not f or seats[f["seat"] - 1] != prog or f["kind"] != kind or \
                text not in f["reason"]:
            err("game %d: wanted a forfeit by program %d (%s, %r), got %r" %
                (g, prog, kind, text, f))
    elif f:
        err("game %d: unexpected forfeit %r" % (g, f))
    # The record replays on a fresh engine: same history, same status.
    body = r["record"] + "\nstatus\nhistory\n"
    out = subprocess.run([engine], input=body.encode(), stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, timeout=60).stdout.decode()
    answers = [a for a in out.split("\n\n") if a]
    if any(a.startswith("?") for a in answers):
        err("game %d: the record does not replay: %r" %
            (g, [a for a in answers if a.startswith("?")][:2]))
    elif answers[-1][2:].strip("\n") != r["record"]:
        err("game %d: replayed history differs" % g)
    elif not f and answers[-2][2:] != r["status"]:
        err("game %d: replayed status %r, result %r" %
            (g, answers[-2], r["status"]))
# The games of one round (one game per program) share the seed, so they
# start from the same position with the programs in different seats.
rounds = {}
for r in res:
    rounds.setdefault((r["game"] - 1) // nprog, set()).add(r["newgame"])
if doc["repeat"] and any(len(v) != 1 for v in rounds.values()):
    err("the games of a round do not share their set-up: %r" % rounds)
if len(rounds) > 1 and len(set.union(*rounds.values())) == 1:
    err("every round has the same set-up")
if not errs:
    if games != [ngames] * nprog:
        err("games per program %r, wanted %d each" % (games, ngames))
    if abs(sum(points) - ngames) > 1e-9:
        err("points %r do not add up to %d" % (points, ngames))
    if ngames % nprog == 0 and first != [ngames // nprog] * nprog:
        err("first moves per program %r are not equal" % first)
for e in errs[:5]:
    print("   ", e)
sys.exit(1 if errs else 0)
EOF
}

# ---- every game, 2 programs (and 3 and 4 where the game allows) ----
games=$(printf 'list_games\n' | "$engine" 2>/dev/null |
	sed -e 's/^=[0-9]* *//' | awk 'NF { print $1 }')
[ -n "$games" ] || fail "list_games gave no game"
for g in $games; do
	if run "$g-2" "$g" -g 4 -j 2 --seed 7 -t 60 -o "$tmp/$g-2.json" \
		--record-dir "$tmp/$g-records" \
		-p "$engine" -s "set level 0" -p "$engine" -s "set level 1" &&
		check_results "$tmp/$g-2.json" 4 2 &&
		[ "$(ls "$tmp/$g-records" | wc -l)" -eq 4 ] &&
		grep -q "games 1-4: 4 played" "$tmp/$g-2.out" &&
		grep -q "^Elo difference" "$tmp/$g-2.out"; then
		pass
	else
		fail "$g: 2-program match"
		cat "$tmp/$g-2.err" "$tmp/$g-2.out" | head -20
	fi
	for k in 3 4; do
		printf 'newgame %s players=%d\n' "$g" "$k" | "$engine" 2>/dev/null |
			grep -q '^=' || continue
		set -- -p "$engine" -s "set level 0" -p "$engine" -s "set level 1" \
			-p "$engine" -s "set level 0"
		[ "$k" = 4 ] && set -- "$@" -p "$engine" -s "set level 1"
		if run "$g-$k" "$g" -g "$k" -j 2 --seed 7 -t 60 \
			-o "$tmp/$g-$k.json" "$@" &&
			check_results "$tmp/$g-$k.json" "$k" "$k"; then
			pass
		else
			fail "$g: $k-program match"
			cat "$tmp/$g-$k.err" "$tmp/$g-$k.out" | head -20
		fi
	done
done

# ---- broken players: forfeit with the right reason, match finishes ----
g=$(echo "$games" | head -n 1)
for spec in "illegal-move:illegal:illegal move zz99" \
	"exits:exited:exited with status 3 during genmove" \
	"silent:timeout:no answer to genmove within 0.5 s" \
	"malformed:malformed:which is not a response"; do
	bot=${spec%%:*}
	want=${spec#*:}
	# -j 1: the same worker plays both games, so the second game checks
	# that a dead or killed player was restarted.
	if run "bot-$bot" "$g" -g 2 -j 1 --seed 3 -t 0.5 -o "$tmp/bot-$bot.json" \
		-p "$engine" -s "set level 0" -p "$players/$bot" &&
		check_results "$tmp/bot-$bot.json" 2 2 "1:$want" &&
		grep -q "$bot: " "$tmp/bot-$bot.out"; then
		pass
	else
		fail "broken player $bot"
		cat "$tmp/bot-$bot.err" "$tmp/bot-$bot.out" | head -20
	fi
done

# ---- programs that cannot play at all: clear errors, no match ----
for spec in "/nonexistent/bot:could not start" \
	"cat:does not seem to speak the protocol" \
	"true:does not seem to speak the protocol"; do
	cmd=${spec%%:*}
	want=${spec#*:}
	name=start-$(basename "$cmd")
	if run "$name" "$g" -g 2 -p "$engine" -p "$cmd"; then
		fail "$cmd as a player: the runner went on"
	elif grep -q "program 2 .*$want" "$tmp/$name.err"; then
		pass
	else
		fail "$cmd as a player: wanted '$want', got:"
		cat "$tmp/$name.err"
	fi
done
if run setup-bad "$g" -g 2 -p "$engine" -s "set nonsense 1" -p "$engine"; then
	fail "a failing set-up command did not stop the runner"
elif grep -q "set-up command 'set nonsense 1' failed" "$tmp/setup-bad.err"
then
	pass
else
	fail "a failing set-up command: unclear error"
	cat "$tmp/setup-bad.err"
fi

# ---- shards: 1-3 and 4-6 merged equal the whole match 1-6 ----
set -- -p "$engine" -s "set level 0" -p "$engine" -s "set level 1"
if run whole "$g" -g 6 -j 2 --seed 11 -o "$tmp/whole.json" "$@" &&
	run shard1 "$g" -g 1-3 -j 2 --seed 11 -o "$tmp/shard1.json" "$@" &&
	run shard2 "$g" -g 4-6 -j 2 --seed 11 -o "$tmp/shard2.json" "$@" &&
	python3 "$runner" merge "$tmp/shard2.json" "$tmp/shard1.json" \
		-o "$tmp/merged.json" --record "$tmp/merged.txt" \
		>"$tmp/merged.out" 2>&1 &&
	check_results "$tmp/merged.json" 6 2 &&
	python3 - "$tmp/whole.json" "$tmp/merged.json" <<'EOF'
import json, sys
a, b = (json.load(open(p))["results"] for p in sys.argv[1:])
key = lambda r: (r["game"], r["seed"], r["seats"], r["record"], r["points"])
sys.exit(0 if [key(r) for r in a] == [key(r) for r in b] else 1)
EOF
then
	if grep -q "games 1-6: 6 played" "$tmp/merged.out" &&
		[ "$(grep -c '^newgame' "$tmp/merged.txt")" -eq 6 ]; then
		pass
	else
		fail "merge report or record file"
		cat "$tmp/merged.out"
	fi
else
	fail "shards merged differ from the whole match"
	cat "$tmp"/whole.err "$tmp"/shard*.err "$tmp/merged.out" 2>/dev/null |
		head -20
fi
if run noseed "$g" -g 5-6 -p "$engine" -p "$engine"; then
	fail "a shard without --seed was accepted"
else
	pass
fi
cp "$tmp/shard1.json" "$tmp/other.json"
sed -i.bak 's/"seed": 11,/"seed": 12,/' "$tmp/other.json"
if python3 "$runner" merge "$tmp/shard1.json" "$tmp/other.json" \
	>/dev/null 2>&1; then
	fail "merge accepted shards of different matches"
else
	pass
fi

# ---- clocks, round robins, ratings, SPRT, resume, report, merge ----
# (tests/test_tournament.py, started at the top)
if wait "$unit_pid"; then
	pass
else
	fail "tests/test_tournament.py"
	tail -40 "$tmp/unit.out"
fi

echo "tournament: $npass passed, $nfail failed"
[ "$nfail" = 0 ]
