/* test_abstractoe.c: Abs-Trac-Toe on a hand-drawn board whose regions and
 * borders are worked out by hand, the rules of the bending line, the
 * random boards, and scores against a count made from the geometry. */
#include "test_util.h"

#include <math.h>

#include "../games/abstractoe_board.h"

/* The hand board: a 7x7 lattice, the figure a square with its four corner
 * cells cut off, vertical lines at c and f, horizontal lines at rows 3 and
 * 6.  The sections are cells x in [0,2) [2,5) [5,7) times the same in y. */
#define HAND_OPTS "outline=.5x./7x/7x/7x/7x/7x/.5x. vlines=c,f hlines=3,6"
#define HAND "newgame abstractoe seed=3 " HAND_OPTS

/* With the line straight across between cell rows 3 and 4 (y = 3), it
 * crosses both vertical lines: 12 regions in 4 rows of 3. */
static const char hand_map[] = "0 1 2 2 2 3 0\n"
			       "1 1 2 2 2 3 3\n"
			       "4 4 5 5 5 6 6\n"
			       "4 4 5 5 5 6 6\n"
			       "7 7 8 8 8 9 9\n"
			       "10 10 11 11 11 12 12\n"
			       "0 10 11 11 11 12 0\n";
static const char hand_adj[] = "adjacent 1-2 1-4 2-3 2-5 3-6 4-5 4-7 5-6 5-8 "
			       "6-9 7-8 7-10 8-9 8-11 9-12 10-11 11-12";

static struct session *hand(const char *line)
{
	struct session *s = quiet_session();
	char cmd[512];
	snprintf(cmd, sizeof cmd, "%s line=%s", HAND, line);
	ok(s, cmd);
	return s;
}

static int regions(struct session *s)
{
	const char *g = strstr(ok(s, "geometry"), "regions ");
	ck_assert(g != NULL);
	return atoi(g + 8);
}

START_TEST(test_hand_board)
{
	struct session *s = hand("a4-h4");
	const char *g = ok(s, "geometry");
	ck_assert_msg(strstr(g, hand_map) != NULL, "map:\n%s", g);
	ck_assert_msg(strstr(g, hand_adj) != NULL, "adjacency:\n%s", g);
	ck_assert(strstr(
		g, "lattice 7 7\nvlines 2 5\nhlines 2 5\nline 0 3 7 3\n"));
	ck_assert_str_eq(ok(s, "moves"), "1 2 3 4 5 6 7 8 9 10 11 12");
	ck_assert_str_eq(ok(s, "status"), "play 1");
	/* the history writes the board out and rebuilds it */
	ck_assert_str_eq(
		ok(s, "history"),
		"\nnewgame abstractoe seed=3 players=2 teams=0 "
		"outline=.5x./7x/7x/7x/7x/7x/.5x. vlines=c,f hlines=3,6 "
		"draw=0 line=a4-h4");
	/* player 1 takes the left column and the top of the right one,
	 * player 2 the middle column and the bottom of the right one */
	const char *p1[] = {"1", "4", "7", "10", "3", "6"};
	const char *p2[] = {"2", "5", "8", "11", "9", "12"};
	char cmd[32];
	for (int i = 0; i < 6; i++) {
		snprintf(cmd, sizeof cmd, "play %s", p1[i]);
		ok(s, cmd);
		snprintf(cmd, sizeof cmd, "play %s", p2[i]);
		ok(s, cmd);
	}
	/* player 1: 1-4 4-7 7-10 3-6; player 2: 2-5 5-8 8-9 8-11 9-12 11-12 */
	ck_assert_str_eq(ok(s, "score"), "4 6");
	ck_assert_str_eq(ok(s, "status"), "over 2");
	ck_assert_str_eq(ok(s, "moves"), "");
	ck_assert(strstr(bad(s, "play 1"), "over"));
	session_free(s);
}
END_TEST

START_TEST(test_corner_contact)
{
	/* 1 and 5 meet only where two straight lines cross; 4 and 8 only
	 * where the bending line crosses line c */
	struct session *s = hand("a4-h4");
	ok(s, "play 1"), ok(s, "play 3"), ok(s, "play 5");
	ck_assert_str_eq(ok(s, "score"), "0 0");
	session_free(s);
	s = hand("a4-h4");
	ok(s, "play 4"), ok(s, "play 3"), ok(s, "play 8");
	ck_assert_str_eq(ok(s, "score"), "0 0");
	ok(s, "play 12"), ok(s, "play 5");
	ck_assert_str_eq(ok(s, "score"), "2 0"); /* 4-5 and 5-8 */
	ok(s, "play 6");
	ck_assert_str_eq(ok(s, "score"), "2 1"); /* 3-6 */
	ck_assert(strstr(bad(s, "play 5"), "already claimed"));
	ck_assert(strstr(bad(s, "play 13"), "1 to 12"));
	ck_assert(strstr(bad(s, "play 0"), "1 to 12"));
	ck_assert(strstr(bad(s, "play a4-h4"), "already drawn"));
	session_free(s);
}
END_TEST

START_TEST(test_crossings_make_regions)
{
	/* k crossings of the straight lines: 10 + k regions */
	static const struct {
		const char *line;
		int k;
	} cases[] = {
		{"d8-d7-e7-e8", 0}, /* cuts one cell off the top section */
		{"a4-h4", 2},
		{"a4-d4-d2-g2", 3},
		{"a4-d4-d7-g7", 3},
		{"d1-d8", 2},
		{"a5-d5-d2-e2-e7-g7", 5},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct session *s = hand(cases[i].line);
		ck_assert_msg(regions(s) == 10 + cases[i].k, "%s: %d regions",
			      cases[i].line, regions(s));
		session_free(s);
	}
}
END_TEST

START_TEST(test_illegal_lines)
{
	static const struct {
		const char *line, *why;
	} cases[] = {
		{"a4-e4-e5-d5-d3", "meets itself"}, /* self-crossing */
		{"a4-b4-b3-c3-c1",
		 "two straight lines cross"},           /* intersection */
		{"a4-c4-c5-b5-b8", "without crossing"}, /* touch, turn back */
		{"a4-c4-c5-h5",
		 "along a straight line"}, /* along, then across */
		{"a4-d4", "must end on the outline"},
		{"b4-h4", "must start on the outline"},
		{"a4-b4-b6-a6", "where a straight line meets the outline"},
		{"a3-h3",
		 "where a straight line meets the outline"}, /* start */
		{"a4-b4-b2-d2-d1", "touches the outline at b2"},
		{"a2-b2", "along the outline"},
		{"b1-a1", "outside the figure"},
		{"a4-h5", "straight piece"},
		{"a4", "write a line"},
		{"a4-z4", "write a line"},
	};
	struct session *s = quiet_session();
	char cmd[512];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		/* as an option ... */
		snprintf(cmd, sizeof cmd, "%s line=%s", HAND, cases[i].line);
		const char *m = bad(s, cmd);
		ck_assert_msg(strstr(m, cases[i].why) != NULL, "%s: %s",
			      cases[i].line, m);
		/* ... and drawn by player 1 */
		snprintf(cmd, sizeof cmd, "%s draw=1", HAND);
		ok(s, cmd);
		snprintf(cmd, sizeof cmd, "play %s", cases[i].line);
		m = bad(s, cmd);
		ck_assert_msg(!strncmp(m, "illegal move: ", 14) &&
				      strstr(m, cases[i].why) != NULL,
			      "%s: %s", cases[i].line, m);
	}
	session_free(s);
}
END_TEST

START_TEST(test_draw_turn)
{
	struct session *s = quiet_session();
	ok(s, HAND " draw=1 players=3");
	ck_assert_str_eq(ok(s, "status"), "play 1");
	ck_assert_str_eq(ok(s, "moves"), "");
	ck_assert(strstr(bad(s, "play 5"), "draw the line"));
	ok(s, "play a4-c4-h4"); /* a corner on a straight piece is fine */
	ck_assert_str_eq(
		ok(s, "history"),
		"\nnewgame abstractoe seed=3 players=3 teams=0 "
		"outline=.5x./7x/7x/7x/7x/7x/.5x. vlines=c,f hlines=3,6 "
		"draw=1\nplay a4-h4");
	ck_assert_msg(strstr(ok(s, "geometry"), hand_map) != NULL, "map");
	/* the other players claim first, then turns go round */
	ck_assert_str_eq(ok(s, "status"), "play 2");
	ok(s, "play 1");
	ck_assert_str_eq(ok(s, "status"), "play 3");
	ok(s, "play 2");
	ck_assert_str_eq(ok(s, "status"), "play 1");
	ok(s, "undo"), ok(s, "undo"), ok(s, "undo");
	ck_assert_str_eq(ok(s, "status"), "play 1");
	ck_assert_str_eq(ok(s, "moves"), "");
	/* the engine draws a legal line when asked */
	for (int i = 0; i < 5; i++) {
		char cmd[64];
		snprintf(cmd, sizeof cmd, "set seed %d", i);
		ok(s, cmd);
		ok(s, "genmove");
		ck_assert(regions(s) >= 10);
		ck_assert_str_eq(ok(s, "status"), "play 2");
		ok(s, "undo");
	}
	ck_assert(
		strstr(bad(s, "newgame abstractoe draw=1 line=a4-h4"), "draw"));
	session_free(s);
}
END_TEST

START_TEST(test_solo)
{
	struct session *s = hand("a4-h4");
	ok(s, "newgame abstractoe seed=3 players=1 "
	      "outline=.5x./7x/7x/7x/7x/7x/.5x. "
	      "vlines=c,f hlines=3,6 line=a4-h4");
	/* marks alternate: 1 (mark 1) 2 (mark 2) 4 (mark 1) 5 (mark 2) ... */
	const char *seq[] = {"1",  "2",  "4", "5", "7", "8",
			     "10", "11", "3", "6", "9", "12"};
	for (int i = 0; i < 12; i++) {
		ck_assert_str_eq(ok(s, "status"), "play 1");
		char cmd[32];
		snprintf(cmd, sizeof cmd, "play %s", seq[i]);
		ok(s, cmd);
	}
	/* mark 1: 1 4 7 10 3 9 -> 1-4 4-7 7-10; mark 2: 2 5 8 11 6 12 ->
	 * 2-5 5-6 5-8 8-11 11-12 */
	ck_assert_str_eq(ok(s, "score"), "3");
	ck_assert_str_eq(ok(s, "status"), "over 1");
	ck_assert(strstr(ok(s, "showboard"), "mark 2: 5 points"));
	session_free(s);
}
END_TEST

/* Newgames (a prefix, then each case's options) that must be refused with
 * a message that says why. */
struct refusal {
	const char *opts, *why;
};

static void refusals(struct session *s, const char *prefix,
		     const struct refusal *cases, size_t n)
{
	char cmd[512];
	for (size_t i = 0; i < n; i++) {
		snprintf(cmd, sizeof cmd, "%s%s", prefix, cases[i].opts);
		const char *m = bad(s, cmd);
		ck_assert_msg(strstr(m, cases[i].why) != NULL, "%s: %s",
			      cases[i].opts, m);
	}
}

START_TEST(test_bad_options)
{
	static const struct refusal cases[] = {
		{"outline=7x/7x/7x/7x/7x/7x/7x", "go together"},
		{"vlines=c,f", "go together"},
		{"outline=7x/7x/7x/7x/7x/7x/7y vlines=c,f hlines=3,6",
		 "outline"},
		{"outline=7x/7x/7x/7x/7x/7x/6x vlines=c,f hlines=3,6",
		 "same number"},
		{"outline=7x/7x/7x/7x/7x/7x/7x vlines=c,d hlines=3,6",
		 "2 apart"},
		{"outline=7x/7x/7x/7x/7x/7x/7x vlines=c,z hlines=3,6",
		 "vlines"},
		{"outline=7x/7x/7x/7x/7x/7x/7x vlines=c,f hlines=3,9",
		 "hlines"},
		{"outline=7x/7x/7x/3x.3x/7x/7x/7x vlines=c,f hlines=3,6",
		 "holes"},
		{"outline=7x/7x/7x/7x/7x/7x/2x5. vlines=c,f hlines=3,6",
		 "runs along"},
		{"outline=.6x/7x/7x/7x/7x/7x/7x vlines=b,f hlines=3,6",
		 "runs along"},
		{"outline=7x/7x/7x/7x/7x/7x/.6x vlines=c,f hlines=2,6",
		 "runs along"},
		{"outline=7x/7x/7x/3.4x/7x/7x/7x vlines=c,f hlines=3,6",
		 "more than twice"},
		{"outline=7x/7x/7x/7x/7x/3x4./3x4. vlines=c,f hlines=3,6",
		 "cross both"},
		{"outline=x6./.6x/7x/7x/7x/7x/7x vlines=c,f hlines=3,6",
		 "one piece"},
		{"players=5", "players"},
		{"draw=2", "draw"},
	};
	struct session *s = quiet_session();
	refusals(s, "newgame abstractoe seed=1 ", cases,
		 sizeof cases / sizeof cases[0]);
	/* a full square is fine; counts are optional */
	ok(s, "newgame abstractoe outline=xxxxxxx/7x/7x/7x/7x/7x/7x vlines=f,c "
	      "hlines=3,6 line=a4-h4");
	ck_assert_int_eq(regions(s), 12);
	session_free(s);
}
END_TEST

/* Plays the claims of a space-separated list in turn. */
static void claims(struct session *s, const char *list)
{
	char buf[256], cmd[32], *save;
	snprintf(buf, sizeof buf, "%s", list);
	for (char *m = strtok_r(buf, " ", &save); m;
	     m = strtok_r(NULL, " ", &save)) {
		snprintf(cmd, sizeof cmd, "play %s", m);
		ok(s, cmd);
	}
}

START_TEST(test_teams)
{
	/* the hand board's regions:  1  2  3
	 *                            4  5  6
	 *                            7  8  9
	 *                           10 11 12
	 * turns 1 2 3 4 ...; team A is players 1 and 3, team B 2 and 4 */
	struct session *s = quiet_session();
	char cmd[512];
	snprintf(cmd, sizeof cmd, "%s line=a4-h4 players=4 teams", HAND);
	ok(s, cmd);
	/* P1 1, P2 2, P3 4: team A has 1-4 (a pair across partners) */
	claims(s, "1 2 4");
	ck_assert_str_eq(ok(s, "score"), "1 0 1 0");
	ck_assert_str_eq(ok(s, "status"), "play 4");
	claims(s, "3"); /* B: 2-3 */
	ck_assert_str_eq(ok(s, "score"), "1 1 1 1");
	/* A: 7 (4-7), 10 (7-10), 8 (7-8); B: 5 (2-5), 6 (3-6 5-6), 9 (6-9) */
	claims(s, "7 5 10 6 8 9");
	ck_assert_str_eq(ok(s, "score"), "4 5 4 5");
	/* A: 11 (8-11 10-11), B: 12 (9-12): 6 all, a draw */
	claims(s, "11 12");
	ck_assert_str_eq(ok(s, "score"), "6 6 6 6");
	ck_assert_str_eq(ok(s, "status"), "over draw");
	const char *t = ok(s, "showboard");
	ck_assert_msg(strstr(t, "X player 1 (with player 3): 6 team points, "
				"regions 1 7 8\n") != NULL,
		      "%s", t);
	ck_assert(strstr(t, "game over: draw"));
	/* the other way round the last two: A gains nothing with 12, B
	 * nothing with 11, so team B wins 5 to 4, named by player 2 */
	ok(s, "undo"), ok(s, "undo");
	claims(s, "12 11");
	ck_assert_str_eq(ok(s, "score"), "4 5 4 5");
	ck_assert_str_eq(ok(s, "status"), "over 2");
	ck_assert(strstr(ok(s, "showboard"), "game over: players 2 and 4 win"));
	/* the same claims without teams: every player has one pair */
	snprintf(cmd, sizeof cmd, "%s line=a4-h4 players=4", HAND);
	ok(s, cmd);
	claims(s, "1 2 4 3 7 5 10 6 8 9 11 12");
	ck_assert_str_eq(ok(s, "score"), "1 1 1 1");
	ck_assert_str_eq(ok(s, "status"), "over draw");
	/* teams needs four players, and says so */
	for (int np = 1; np <= 3; np++) {
		snprintf(cmd, sizeof cmd, "%s players=%d teams", HAND, np);
		ck_assert(strstr(bad(s, cmd), "teams needs players=4"));
	}
	ck_assert(strstr(bad(s, "newgame abstractoe teams"), "players=4"));
	ok(s, "newgame abstractoe players=4 teams=0");
	session_free(s);
}
END_TEST

START_TEST(test_messages)
{
	struct session *s = quiet_session();
	const char *m = bad(s, "newgame abstractoe first=2");
	ck_assert_msg(strstr(m, "player 1 always claims first") &&
			      strstr(m, "draw=1"),
		      "%s", m);
	/* one row of two cells: too few rows and too few cells, not rows of
	 * unequal length */
	m = bad(s, "newgame abstractoe outline=xx vlines=b,c hlines=2,3");
	ck_assert_msg(strstr(m, "1 row of 2 cells") &&
			      strstr(m, "4 to 24 rows") && !strstr(m, "same"),
		      "%s", m);
	m = bad(s, "newgame abstractoe outline=7x/7x/6x/7x vlines=b,e "
		   "hlines=2,3");
	ck_assert_msg(strstr(m, "row 3 has 6 cells and row 1 has 7"), "%s", m);
	ck_assert(strstr(bad(s, "newgame abstractoe outline=25x/4x/4x/4x "
				"vlines=b,e hlines=2,3"),
			 "more than 24 cells"));
	const char *lo = ok(s, "list_options abstractoe");
	ck_assert_msg(strstr(lo, "\nplayers type int default 2 min 1 max 4\n"
				 "teams type bool default 0\n"
				 "draw type bool default 0\n"
				 "outline type string\n"),
		      "%s", lo);
	ck_assert(!strstr(lo, "claims"));
	session_free(s);
}
END_TEST

#define HAND_POS "newgame abstractoe seed=9 " HAND_OPTS " "

START_TEST(test_position)
{
	struct session *s = hand("a4-h4"), *t = quiet_session();
	claims(s, "5 1 12");
	const char *p = ok(s, "position");
	ck_assert_str_eq(p, "abstractoe players=2 teams=0 "
			    "outline=.5x./7x/7x/7x/7x/7x/.5x. vlines=c,f "
			    "hlines=3,6 draw=0 line=a4-h4 claims=2...1......1");
	char cmd[512], want[4096];
	ck_assert(strlen(p) < 400);
	snprintf(cmd, sizeof cmd, "newgame %.400s", p);
	ok(t, cmd);
	static const char *const ask[] = {"status",    "moves",    "score",
					  "showboard", "geometry", "position"};
	for (size_t i = 0; i < sizeof ask / sizeof ask[0]; i++) {
		KEEP(want, ok(s, ask[i]));
		ck_assert_str_eq(ok(t, ask[i]), want);
	}
	/* the history of a game from a position starts with the position */
	ck_assert(strstr(ok(t, "history"), "claims=2...1......1"));
	/* play on in both: the same game */
	claims(s, "4 8"), claims(t, "4 8");
	KEEP(want, ok(s, "showboard"));
	ck_assert_str_eq(ok(t, "showboard"), want);
	ck_assert_str_eq(ok(t, "score"), "1 1"); /* 5-8, 1-4 */

	/* the draw turn: no claim yet, player 1 draws, then 2 claims */
	ok(t, HAND_POS "players=3 draw=1 claims=.........");
	ck_assert_str_eq(ok(t, "status"), "play 1");
	ck_assert_str_eq(ok(t, "moves"), "");
	ok(t, "play a4-h4");
	ck_assert_str_eq(ok(t, "position"),
			 "abstractoe players=3 teams=0 "
			 "outline=.5x./7x/7x/7x/7x/7x/.5x. vlines=c,f "
			 "hlines=3,6 draw=1 line=a4-h4 claims=............");
	/* after the line: draw=1 with line=, refused in a fresh game, is a
	 * position; player 2 claimed first, so 3 is next after one claim */
	ok(t, HAND_POS "players=3 draw=1 line=a4-h4 claims=2...........");
	ck_assert_str_eq(ok(t, "status"), "play 3");
	ck_assert(strstr(bad(t, HAND_POS "draw=1 line=a4-h4"),
			 "cannot be combined"));
	/* the end: every region claimed */
	ok(t, HAND_POS "line=a4-h4 claims=121212121212");
	ck_assert_str_eq(ok(t, "status"), "over draw");
	ck_assert_str_eq(ok(t, "score"), "0 0");
	ok(t, HAND_POS "players=1 line=a4-h4 claims=1212.......1");
	ck_assert_str_eq(ok(t, "status"), "play 1");
	ck_assert(strstr(ok(t, "showboard"), "mark 2 (O) to place"));
	session_free(s);
	session_free(t);
}
END_TEST

START_TEST(test_bad_positions)
{
	static const struct refusal cases[] = {
		/* the count and the letters of claims */
		{"line=a4-h4 claims=1..", "12 regions: write 12 characters"},
		{"line=a4-h4 claims=3...........", "or its owner, 1 to 2"},
		{"line=a4-h4 claims=x...........", "write . for a vacant"},
		{"players=1 line=a4-h4 claims=3...........", "1 to 2"},
		/* counts that no turn order gives */
		{"line=a4-h4 claims=11..........",
		 "player 1 holds 2 regions, but after 2 claims in turn it "
		 "holds 1"},
		{"line=a4-h4 claims=2...........", "player 1 holds 0 regions"},
		{"players=3 draw=1 line=a4-h4 claims=1...........",
		 "player 1 holds 1 region, but after 1 claim in turn it "
		 "holds 0"},
		{"players=1 line=a4-h4 claims=11..........", "mark 1 holds 2"},
		/* a claim before the line */
		{"draw=1 claims=1........", "before player 1 draws the line"},
		{"draw=1 claims=.........1", "9 regions"},
		/* a position leaves nothing to the seed */
		{"claims=............", "needs outline=, vlines=, hlines= and "
					"line="},
		/* set-up values are checked as in a fresh game */
		{"players=3 teams line=a4-h4 claims=............",
		 "teams needs players=4"},
		{"players=5 line=a4-h4 claims=............", "players"},
		{"line=a4-d4 claims=............", "must end on the outline"},
	};
	struct session *s = quiet_session();
	refusals(s, HAND_POS, cases, sizeof cases / sizeof cases[0]);
	ck_assert(strstr(bad(s, "newgame abstractoe claims=....."),
			 "needs outline="));
	session_free(s);
}
END_TEST

START_TEST(test_geometry_shared)
{
	struct session *s = quiet_session();
	ok(s, HAND " draw=1");
	char g[8192];
	KEEP(g, ok(s, "geometry"));
	/* the sections, each at a cell of its own: 1 at b6 (the corner cell
	 * a7 is outside), 5 in the middle of the centre */
	ck_assert(!strncmp(g, "\ncell 1 1 5\ncell 2 3 6\n", 23));
	ck_assert(strstr(g, "\ncell 5 3 3\n"));
	/* points: lattice point (x, y) at (x - 1/2, y - 1/2); a1 and h8 touch
	 * only cells outside the figure, a2 and h1 the outline */
	ck_assert(strstr(g, "\npoint a4 -0.5 2.5\n"));
	ck_assert(strstr(g, "\npoint h7 6.5 5.5\n"));
	ck_assert(strstr(g, "\npoint a2 -0.5 0.5\n"));
	ck_assert(!strstr(g, "point a1 ") && !strstr(g, "point h8 "));
	ck_assert(strstr(g, "\nsep -\nlattice 7 7\n"));
	/* 8 x 8 points less the 4 corners */
	int points = 0;
	for (const char *p = g; (p = strstr(p, "\npoint ")); p++)
		points++;
	ck_assert_int_eq(points, 60);
	/* once the line is drawn no move names a point */
	ok(s, "play a4-h4");
	KEEP(g, ok(s, "geometry"));
	ck_assert(strstr(g, "\ncell 12 5 1\nlattice 7 7\n"));
	ck_assert(!strstr(g, "point") && !strstr(g, "sep"));
	session_free(s);
}
END_TEST

/* The game's own playout: it stops after max_plies, leaves a state whose
 * claims, vacant regions and points agree with a state rebuilt from its
 * position (which counts the points claim by claim, as play() does), and
 * picks every vacant region equally often. */
START_TEST(test_playout)
{
	static const char *const variants[] = {
		"", "players=3", "players=4 teams", "players=1", "draw=1"};
	const struct game *g = game_find("abstractoe");
	struct session *s = quiet_session();
	char err[GAME_ERR_MAX], line[4096];
	struct rng r;
	rng_seed(&r, 7);
	for (int v = 0; v < 5; v++)
		for (int seed = 1; seed <= 4; seed++) {
			void *st = game_new_state(g, variants[v],
						  (uint64_t)seed, err);
			ck_assert_msg(st != NULL, "%s", err);
			int cut = seed == 1 ? 0 : seed == 2 ? 3 : 1 << 30;
			int plies = game_search(g)->playout(st, &r, cut);
			struct move list[ABT_MAX_REGIONS];
			int left = g->moves(st, list);
			ck_assert(plies <= cut);
			ck_assert(cut < (1 << 30) ||
				  (left == 0 &&
				   g->status(st).phase == GAME_OVER));
			/* the same state, rebuilt from its position */
			struct text pos;
			text_init(&pos);
			g->position(st, &pos);
			void *twin = game_new_state(g, pos.s, 1, err);
			ck_assert_msg(twin != NULL, "%s: %s", pos.s, err);
			ck_assert_msg(!memcmp(st, twin, g->state_size),
				      "%s [%s]: the playout's state differs "
				      "from its position's",
				      variants[v], pos.s);
			ck_assert_int_eq(g->key(st), g->key(twin));
			snprintf(line, sizeof line, "newgame abstractoe %s",
				 pos.s);
			ok(s, line);
			text_free(&pos);
			free(st), free(twin);
		}
	/* the first claim on a board of n regions: each about 1/n */
	void *start = game_new_state(g, "", 5, err),
	     *st = malloc(g->state_size);
	struct move list[ABT_MAX_REGIONS];
	int n = g->moves(start, list), count[ABT_MAX_REGIONS + 1] = {0};
	const int runs = 20000;
	for (int i = 0; i < runs; i++) {
		memcpy(st, start, g->state_size);
		ck_assert_int_eq(game_search(g)->playout(st, &r, 1), 1);
		ck_assert_int_eq(g->moves(st, list), n - 1);
		int vacant[ABT_MAX_REGIONS + 1] = {0}, picked = 0;
		for (int k = 0; k < n - 1; k++)
			vacant[list[k].w[0] >> 1] = 1;
		for (int k = 1; k <= n; k++)
			picked = vacant[k] ? picked : k;
		count[picked]++;
	}
	double e = (double)runs / n;
	for (int k = 1; k <= n; k++)
		ck_assert_msg(count[k] > e - 5 * sqrt(e) &&
				      count[k] < e + 5 * sqrt(e),
			      "region %d picked %d times of %d", k, count[k],
			      runs);
	free(start), free(st);
	session_free(s);
}
END_TEST

/* key(): the claims, not the order they came in, on the same board. */
START_TEST(test_key)
{
	const struct game *g = game_find("abstractoe");
	char err[GAME_ERR_MAX];
	void *a = game_new_state(g, HAND_OPTS " line=a4-h4", 1, err);
	void *b = game_new_state(g, HAND_OPTS " line=a4-h4", 2, err);
	void *c = game_new_state(g, HAND_OPTS " line=a4-d4-d2-g2", 1, err);
	ck_assert(a && b && c);
	ck_assert(g->key(a) == g->key(b) && g->key(a) != g->key(c));
	/* 1 then 5 by player 1 with 2 then 3 by player 2, in either order */
	static const char *const one[] = {"1", "2", "5", "3"};
	static const char *const two[] = {"5", "3", "1", "2"};
	uint64_t seen[5];
	for (int i = 0; i < 4; i++) {
		struct move m;
		seen[i] = g->key(a);
		ck_assert(g->parse(a, one[i], &m, err) == 0);
		g->play(a, &m);
		ck_assert(g->parse(b, two[i], &m, err) == 0);
		g->play(b, &m);
		for (int j = 0; j < i; j++)
			ck_assert(seen[j] != g->key(a));
	}
	ck_assert(g->key(a) == g->key(b));
	free(a), free(b), free(c);
}
END_TEST

/* ---- random boards, checked from the geometry alone ---- */

struct board {
	int w, h, vx[2], hy[2], n;
	int map[24][24]; /* [y][x], y from the bottom */
	int line[256], nline;
	char adj[4096];
	int owner[130];
};

static void read_board(struct session *s, struct board *b)
{
	/* the game's own lines follow the shared ones */
	const char *g = strstr(ok(s, "geometry"), "\nlattice ");
	ck_assert(g != NULL);
	memset(b, 0, sizeof *b);
	int used;
	ck_assert(sscanf(g,
			 " lattice %d %d\nvlines %d %d\nhlines %d %d\nline%n",
			 &b->w, &b->h, &b->vx[0], &b->vx[1], &b->hy[0],
			 &b->hy[1], &used) == 6);
	g += used;
	while (*g == ' ') {
		ck_assert(sscanf(g, " %d%n", &b->line[b->nline++], &used) == 1);
		g += used;
	}
	ck_assert(sscanf(g, "\nregions %d\n%n", &b->n, &used) == 1);
	g += used;
	for (int y = b->h - 1; y >= 0; y--)
		for (int x = 0; x < b->w; x++) {
			ck_assert(sscanf(g, "%d%n", &b->map[y][x], &used) == 1);
			g += used;
		}
	ck_assert(sscanf(g, "\n%4095[^\n]%n", b->adj, &used) == 1);
	g += used;
	ck_assert(!strncmp(g, "\nowners", 7));
	g += 7;
	for (int r = 1; r <= b->n; r++) {
		ck_assert(sscanf(g, " %d%n", &b->owner[r], &used) == 1);
		g += used;
	}
}

static int cell(const struct board *b, int x, int y)
{
	return x < 0 || y < 0 || x >= b->w || y >= b->h ? 0 : b->map[y][x];
}

/* The pairs of regions with a common edge, written as geometry does. */
static void pairs_from_map(const struct board *b, char adj[130][130])
{
	memset(adj, 0, 130 * 130);
	for (int y = 0; y < b->h; y++)
		for (int x = 0; x < b->w; x++) {
			int a = cell(b, x, y), r = cell(b, x + 1, y),
			    u = cell(b, x, y + 1);
			if (a && r && a != r)
				adj[a][r] = adj[r][a] = 1;
			if (a && u && a != u)
				adj[a][u] = adj[u][a] = 1;
		}
}

START_TEST(test_random_boards)
{
	struct session *s = quiet_session();
	struct board *b = malloc(sizeof *b), *prev = malloc(sizeof *prev);
	char adj[130][130], cmd[64];
	int distinct = 0;
	for (int seed = 0; seed < 40; seed++) {
		snprintf(cmd, sizeof cmd, "newgame abstractoe seed=%d", seed);
		ok(s, cmd);
		read_board(s, b);
		ck_assert(b->n >= 10 && b->n <= 30);
		if (seed && memcmp(b->map, prev->map, sizeof b->map))
			distinct++;
		/* each straight line meets the outline exactly twice: the cells
		 * on its two sides agree and the figure's cells along it are
		 * one run that reaches past both lines of the other kind */
		for (int i = 0; i < 2; i++) {
			int x = b->vx[i], lo = -1, hi = -1, runs = 0;
			for (int y = 0; y < b->h; y++) {
				ck_assert(!cell(b, x - 1, y) == !cell(b, x, y));
				if (cell(b, x, y)) {
					runs += lo < 0 || hi != y - 1;
					lo = lo < 0 ? y : lo, hi = y;
				}
			}
			ck_assert(runs == 1 && lo < b->hy[0] && hi >= b->hy[1]);
			int y = b->hy[i];
			lo = hi = -1, runs = 0;
			for (int x2 = 0; x2 < b->w; x2++) {
				ck_assert(!cell(b, x2, y - 1) ==
					  !cell(b, x2, y));
				if (cell(b, x2, y)) {
					runs += lo < 0 || hi != x2 - 1;
					lo = lo < 0 ? x2 : lo, hi = x2;
				}
			}
			ck_assert(runs == 1 && lo < b->vx[0] && hi >= b->vx[1]);
		}
		/* 10 + k regions, k counted along the line's unit steps */
		int k = 0;
		for (int c = 0; c + 3 < b->nline; c += 2) {
			int x = b->line[c], y = b->line[c + 1];
			int tx = b->line[c + 2], ty = b->line[c + 3];
			while (x != tx || y != ty) {
				x += (tx > x) - (tx < x),
					y += (ty > y) - (ty < y);
				if (x == tx && y == ty && c + 4 == b->nline)
					break; /* the far end, on the outline */
				k += x == b->vx[0] || x == b->vx[1] ||
				     y == b->hy[0] || y == b->hy[1];
			}
		}
		ck_assert_msg(b->n == 10 + k,
			      "seed %d: %d regions, %d crossings", seed, b->n,
			      k);
		/* the adjacency the engine gives is the one the map shows */
		pairs_from_map(b, adj);
		char want[4096] = "adjacent";
		for (int i = 1; i <= b->n; i++)
			for (int j = i + 1; j <= b->n; j++)
				if (adj[i][j])
					snprintf(want + strlen(want),
						 sizeof want - strlen(want),
						 " %d-%d", i, j);
		ck_assert_str_eq(b->adj, want);
		/* the same seed, the same board */
		ok(s, cmd);
		read_board(s, prev);
		ck_assert(!memcmp(b, prev, sizeof *b));
	}
	ck_assert_int_ge(distinct, 35);
	free(b), free(prev);
	session_free(s);
}
END_TEST

/* The boards a seed gives stay as they were: a hash of the positions of
 * seeds 1 to 100, taken before the generator was made faster, so that no
 * speed-up changes them unnoticed (as position wrote them then, without
 * the explicit teams=0 and draw=0).  Every random figure passes the whole
 * checks. */
START_TEST(test_seed_boards)
{
	const struct game *g = game_find("abstractoe");
	char err[GAME_ERR_MAX];
	uint64_t h = 0xcbf29ce484222325ULL;
	for (int seed = 1; seed <= 100; seed++) {
		void *st = game_new_state(g, "", (uint64_t)seed, err);
		struct text t;
		text_init(&t);
		g->position(st, &t);
		for (const char *p = t.s; *p; p++) {
			if (!strncmp(p, " teams=0", 8) ||
			    !strncmp(p, " draw=0", 7)) {
				p += p[1] == 't' ? 7 : 6;
				continue;
			}
			h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
		}
		text_free(&t);
		free(st);
	}
	ck_assert_msg(h == 0xb6dc71f8a5e799b5ULL, "boards hash %#llx",
		      (unsigned long long)h);
	struct rng r;
	rng_seed(&r, 11);
	for (int i = 0; i < 300; i++) {
		struct abt_geo geo;
		abt_random_figure(&geo, &r);
		ck_assert_msg(abt_check_figure(&geo, 4, err) == 0,
			      "figure %d: %s", i, err);
	}
}
END_TEST

START_TEST(test_scores_match_geometry)
{
	struct session *s = quiet_session();
	struct board *b = malloc(sizeof *b);
	char adj[130][130], cmd[64];
	static const char *variants[] = {"", "players=3", "players=4",
					 "players=1", "draw=1"};
	for (int game = 0; game < 20; game++) {
		snprintf(cmd, sizeof cmd, "newgame abstractoe seed=%d %s",
			 100 + game, variants[game % 5]);
		ok(s, cmd);
		snprintf(cmd, sizeof cmd, "set seed %d", game);
		ok(s, cmd);
		ok(s, "set level 0");
		while (strncmp(ok(s, "status"), "over", 4))
			ok(s, "genmove");
		read_board(s, b);
		pairs_from_map(b, adj);
		int pts[5] = {0};
		for (int i = 1; i <= b->n; i++) {
			ck_assert(b->owner[i] >= 1 && b->owner[i] <= 4);
			for (int j = i + 1; j <= b->n; j++)
				if (adj[i][j] && b->owner[i] == b->owner[j])
					pts[b->owner[i]]++;
		}
		int np = game % 5 == 1   ? 3
			 : game % 5 == 2 ? 4
			 : game % 5 == 3 ? 1
					 : 2;
		char want[64] = "";
		for (int p = 1; p <= np; p++)
			snprintf(want + strlen(want),
				 sizeof want - strlen(want), "%s%d",
				 p > 1 ? " " : "", pts[p]);
		ck_assert_str_eq(ok(s, "score"), want);
	}
	free(b);
	session_free(s);
}
END_TEST

START_TEST(test_showboard)
{
	struct session *s = hand("a4-h4");
	ok(s, "play 5");
	const char *t = ok(s, "showboard");
	/* the numbers are there, the claimed region is filled with its mark */
	for (int r = 1; r <= 12; r++) {
		char num[16];
		snprintf(num, sizeof num, "%2d", r);
		ck_assert_msg(strstr(t, num) != NULL, "%d missing:\n%s", r, t);
	}
	ck_assert(strstr(t, "XX"));
	ck_assert(strstr(t, "X player 1: 0 points, regions 5\n"));
	ck_assert(strstr(t, "11 regions vacant; player 2 (O) to claim"));
	session_free(s);
}
END_TEST

/* game_info: teams and the solo puzzle's second mark; turn_info: the line
 * to draw, then claims counted, the solo puzzle's mark 2 as side 2;
 * scoring: each pair of bordering regions of one side (seed=1's board has
 * 1-2 and 3-5 bordering), filed under the team's lower player. */
START_TEST(test_turn_info_and_scoring)
{
	struct session *s = quiet_session();
	ok(s, "newgame abstractoe seed=1 draw=1");
	ck_assert_str_eq(ok(s, "turn_info"),
			 "phase draw\nplayer 1\nmoves free\nprompt player 1: "
			 "draw the "
			 "bending line from the outline to the outline, as "
			 "lattice points joined by -");
	ok(s, "newgame abstractoe seed=1");
	ck_assert_str_eq(ok(s, "turn_info"),
			 "phase claim 1 20\nplayer 1\nprompt player 1: claim a "
			 "vacant region (claim 1 of 20)");
	ok(s, "play 1");
	ok(s, "play 3");
	ok(s, "play 2");
	ok(s, "play 5");
	ck_assert_str_eq(ok(s, "scoring"),
			 "unit pair player 1 points 1 cells 1 2\n"
			 "unit pair player 2 points 1 cells 3 5");
	ok(s, "newgame abstractoe seed=1 players=4 teams");
	ck_assert_str_eq(ok(s, "game_info"),
			 "game abstractoe\ntitle Abs-Trac-Toe\nplayers 4\n"
			 "player 1 mark X\nplayer 2 mark O\nplayer 3 mark #\n"
			 "player 4 mark @\nteam 1 3\nteam 2 4");
	ok(s, "play 1");
	ok(s, "play 3");
	ok(s, "play 2");
	ok(s, "play 5");
	ck_assert_str_eq(ok(s, "scoring"),
			 "unit pair player 1 points 1 cells 1 2\n"
			 "unit pair player 2 points 1 cells 3 5");
	ck_assert_str_eq(ok(s, "score"), "1 1 1 1");
	ok(s, "newgame abstractoe seed=1 players=1");
	ck_assert_str_eq(ok(s, "game_info"),
			 "game abstractoe\ntitle Abs-Trac-Toe\nplayers 1\n"
			 "player 1 mark X\nside 2 mark O played_by 1");
	ok(s, "play 1");
	ck_assert_str_eq(ok(s, "turn_info"),
			 "phase claim 2 20\nplayer 1\nside 2\nprompt player 1: "
			 "claim a vacant region for mark O (claim 2 of 20)");
	ok(s, "play 2");
	ok(s, "play 9");
	ok(s, "play 3");
	/* mark 2's pair 2-3 scores nothing in the puzzle */
	ck_assert_str_eq(ok(s, "scoring"),
			 "unit pair player 1 points 1 cells 1 9");
	session_free(s);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("abstractoe");
	TCase *tc = tcase_create("rules");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_hand_board);
	tcase_add_test(tc, test_corner_contact);
	tcase_add_test(tc, test_crossings_make_regions);
	tcase_add_test(tc, test_illegal_lines);
	tcase_add_test(tc, test_draw_turn);
	tcase_add_test(tc, test_solo);
	tcase_add_test(tc, test_bad_options);
	tcase_add_test(tc, test_random_boards);
	tcase_add_test(tc, test_scores_match_geometry);
	tcase_add_test(tc, test_showboard);
	tcase_add_test(tc, test_teams);
	tcase_add_test(tc, test_messages);
	tcase_add_test(tc, test_position);
	tcase_add_test(tc, test_bad_positions);
	tcase_add_test(tc, test_geometry_shared);
	tcase_add_test(tc, test_playout);
	tcase_add_test(tc, test_key);
	tcase_add_test(tc, test_seed_boards);
	tcase_add_test(tc, test_turn_info_and_scoring);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN()
