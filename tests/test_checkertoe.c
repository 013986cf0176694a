/* test_checkertoe.c: the base rules of Tic-Tac-Toe On A Checkerboard, on
 * hand-built positions and against an independent count of every line. */
#include "test_util.h"

/* A checkertoe game where player 1 (X) placed xs and player 2 (O) placed
 * os, alternately; the lists are space-separated squares. */
static struct session *position(const char *xs, const char *os)
{
	struct session *s = quiet_session();
	ok(s, "newgame checkertoe seed=1 first=1");
	play_both(s, xs, os);
	return s;
}

static void expect_score(const char *xs, const char *os, const char *score)
{
	struct session *s = position(xs, os);
	ck_assert_str_eq(ok(s, "score"), score);
	session_free(s);
}

START_TEST(test_start)
{
	struct session *s = quiet_session();
	ok(s, "newgame checkertoe seed=9 first=2");
	ck_assert_str_eq(ok(s, "status"), "play 2");
	ck_assert_str_eq(ok(s, "moves"),
			 "a1 b1 c1 d1 e1 a2 b2 c2 d2 e2 a3 b3 c3 d3 "
			 "e3 a4 b4 c4 d4 e4 a5 b5 c5 d5 e5");
	ck_assert_str_eq(ok(s, "score"), "0 0");
	ck_assert_str_eq(bad(s, "newgame checkertoe players=3"),
			 "checkertoe is a game for 2 players: it has no "
			 "players option\n\n");
	/* without first=, the seed decides, and both players get to start */
	int starts[3] = {0};
	char cmd[64];
	for (int seed = 0; seed < 40; seed++) {
		snprintf(cmd, sizeof cmd, "newgame checkertoe seed=%d", seed);
		ok(s, cmd);
		starts[ok(s, "status")[5] - '0']++;
	}
	ck_assert(starts[1] > 5 && starts[2] > 5);
	session_free(s);
}
END_TEST

/* Messages a person meets: the board's letters name players, and bad move
 * text is echoed cleaned. */
START_TEST(test_messages)
{
	struct session *s = quiet_session();
	ok(s, "newgame checkertoe seed=1 first=1");
	ck_assert_str_eq(bad(s, "play X e5"),
			 "no player x: the board's X is player 1; write 1 (or "
			 "b)\n\n");
	ck_assert_str_eq(bad(s, "play O e5"),
			 "no player o: the board's O is player 2; write 2 (or "
			 "w)\n\n");
	ck_assert_str_eq(bad(s, "play c\x01\xff"
				"3"),
			 "illegal move: c?3 is not a square of the 5x5 "
			 "board\n\n");
	ck_assert_str_eq(bad(s, "play f1"),
			 "illegal move: f1 is not a square of the 5x5 "
			 "board\n\n");
	ok(s, "play c3");
	ck_assert_str_eq(bad(s, "play c3"), "illegal move: c3 is occupied\n\n");
	session_free(s);
}
END_TEST

START_TEST(test_lines_of_three)
{
	/* player 2's checkers are scattered so that they form no line */
	expect_score("a1 b1 c1", "a5 c5 e3", "1 0");       /* row */
	expect_score("b1 b2 b3", "a5 c5 e3", "1 0");       /* column */
	expect_score("a1 b2 c3", "a5 c5 e3", "1 0");       /* diagonal */
	expect_score("e1 d2 c3", "a5 c5 e3", "1 0");       /* other diagonal */
	expect_score("a2 b2 c2 d2", "a5 c5 e3 a4", "2 0"); /* four: two */
	expect_score("a2 b2 c2 d2 e2", "a5 c5 e3 a4 e4",
		     "3 0");                         /* five: three */
	expect_score("a1 b1 d1", "a5 c5 e3", "0 0"); /* gap: none */
	expect_score("a1 b2 d4", "a5 c5 e3", "0 0");
	expect_score("a5 c5 e3", "a1 b1 c1", "0 1"); /* player 2 too */
	/* a corner: row, column and diagonal through a1, and a3-b2-c1 */
	expect_score("a1 b1 c1 a2 a3 b2 c3", "e5 e4 c5 e1 e2 d4 b5", "4 0");
}
END_TEST

START_TEST(test_empty_square_counts_for_both)
{
	/* The checkerboard pattern with c3 empty: both long diagonals run
	 * through c3, so do b3-c3-d3 and c2-c3-c4.  Counted by hand: X has
	 * 3 + 3 on the long diagonals and 1 each on a3-b4-c5, c1-d2-e3,
	 * a3-b2-c1, c5-d4-e3; O has 2 on each of the four length-4
	 * diagonals and 1 each on b3-c3-d3 and c2-c3-c4. */
	const char *xs = "a1 c1 e1 b2 d2 a3 e3 b4 d4 a5 c5 e5";
	const char *os = "b1 d1 a2 c2 e2 b3 d3 a4 c4 e4 b5 d5";
	struct session *s = position(xs, os);
	ck_assert_str_eq(ok(s, "status"), "over draw");
	ck_assert_str_eq(ok(s, "score"), "10 10");
	ck_assert_str_eq(ok(s, "moves"), "");
	/* before the last checker (O's d5) the empty squares count for
	 * nobody: X keeps its four short lines, O loses the lines through c3
	 * and one of a2-b3-c4-d5 */
	ok(s, "undo");
	ck_assert_str_eq(ok(s, "status"), "play 2");
	ck_assert_str_eq(ok(s, "score"), "4 7");
	session_free(s);

	/* a decided game: move one O into the middle instead */
	s = position("a1 c1 e1 b2 d2 a3 e3 b4 d4 a5 c5 e5",
		     "b1 d1 a2 c2 e2 c3 d3 a4 c4 e4 b5 d5");
	/* now b3 is empty: X loses both long diagonals (c3 is O) but gains
	 * b2-b3-b4; O keeps its four diagonals (b3 now counts for O too)
	 * and gets b3-c3-d3 and c2-c3-c4 */
	ck_assert_str_eq(ok(s, "score"), "5 10");
	ck_assert_str_eq(ok(s, "status"), "over 2");
	session_free(s);
}
END_TEST

/* The lines of three on an n x n board (n at most 8), each as its three
 * squares {x, y}; returns how many.  The oracles below count along them,
 * independently of the game's own tables. */
#define LINES_MAX (4 * 8 * 8)
static int lines_of_three(int n, int line[][3][2])
{
	static const int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
	int count = 0;
	for (int y = 0; y < n; y++)
		for (int x = 0; x < n; x++)
			for (int d = 0; d < 4; d++) {
				int ex = x + 2 * dirs[d][0],
				    ey = y + 2 * dirs[d][1];
				if (ex < 0 || ex >= n || ey < 0 || ey >= n)
					continue;
				for (int k = 0; k < 3; k++) {
					line[count][k][0] = x + k * dirs[d][0];
					line[count][k][1] = y + k * dirs[d][1];
				}
				count++;
			}
	return count;
}

/* An independent count: reads showboard's grid and counts every line of
 * three of one player's checkers (and, when over, the empty square). */
static void oracle(const char *board, int over, int *pts, int *nlines)
{
	char grid[5][5];
	const char *p = board + strspn(board, "\n");
	for (int y = 4; y >= 0; y--) {
		p += strspn(p, " 0123456789"); /* past the row number */
		for (int x = 0; x < 5; x++) {
			grid[y][x] = *p++;
			p += strspn(p, " ");
		}
		p = strchr(p, '\n') + 1;
	}
	int line[LINES_MAX][3][2];
	*nlines = lines_of_three(5, line);
	pts[0] = pts[1] = 0;
	for (int i = 0; i < *nlines; i++)
		for (int pl = 0; pl < 2; pl++) {
			char me = pl ? 'O' : 'X';
			int good = 1;
			for (int k = 0; k < 3; k++) {
				char c = grid[line[i][k][1]][line[i][k][0]];
				good &= c == me || (over && c == '.');
			}
			pts[pl] += good;
		}
}

START_TEST(test_random_games_against_oracle)
{
	struct session *s = quiet_session();
	ok(s, "set level 0");
	ok(s, "set seed 77");
	for (int g = 0; g < 200; g++) {
		char cmd[64];
		snprintf(cmd, sizeof cmd, "newgame checkertoe seed=%d", g);
		ok(s, cmd);
		for (int i = 0; i < 24; i++) {
			ok(s, "genmove");
			char board[1024], score[32];
			KEEP(board, ok(s, "showboard"));
			KEEP(score, ok(s, "score"));
			int pts[2], n;
			oracle(board, i == 23, pts, &n);
			/* the 5x5 board has 48 lines */
			ck_assert_int_eq(n, 48);
			snprintf(cmd, sizeof cmd, "%d %d", pts[0], pts[1]);
			ck_assert_msg(!strcmp(score, cmd),
				      "score %s, counted %s on\n%s", score, cmd,
				      board);
		}
		char st[32], board[1024];
		int pts[2], n;
		KEEP(st, ok(s, "status"));
		KEEP(board, ok(s, "showboard"));
		oracle(board, 1, pts, &n);
		ck_assert_str_eq(st, pts[0] > pts[1]   ? "over 1"
				     : pts[1] > pts[0] ? "over 2"
						       : "over draw");
		ck_assert(strchr(board, '.') !=
			  NULL); /* one square stays empty */
	}
	session_free(s);
}
END_TEST

START_TEST(test_ai_beats_random)
{
	/* "most games": the placeholder and the real search alike must win
	 * clearly more than they lose against uniform random moves */
	int wins = 0, losses = 0;
	for (int g = 0; g < 20; g++) {
		struct session *s = quiet_session();
		char cmd[64];
		snprintf(cmd, sizeof cmd, "newgame checkertoe seed=%d first=%d",
			 g, 1 + g % 2);
		ok(s, cmd);
		snprintf(cmd, sizeof cmd, "set seed %d", g);
		ok(s, cmd);
		ok(s, "set playouts 3000");
		while (strncmp(ok(s, "status"), "play", 4) == 0) {
			int ai_turn = ok(s, "status")[5] == '1';
			ok(s, ai_turn ? "set level 9" : "set level 0");
			ok(s, "genmove");
		}
		const char *st = ok(s, "status");
		wins += !strcmp(st, "over 1");
		losses += !strcmp(st, "over 2");
		session_free(s);
	}
	ck_assert_msg(wins >= 15 && wins > 3 * losses, "won %d, lost %d of 20",
		      wins, losses);
}
END_TEST

/* Two sessions answer alike: the answers a GUI reads. */
static void same_answers(struct session *a, struct session *b)
{
	static const char *const cmds[] = {"status",    "moves",    "score",
					   "showboard", "geometry", "position"};
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		char x[2048];
		KEEP(x, ok(a, cmds[i]));
		ck_assert_msg(!strcmp(x, ok(b, cmds[i])), "%s: %s / %s",
			      cmds[i], x, ok(b, cmds[i]));
	}
}

START_TEST(test_position_round_trip)
{
	struct session *s = quiet_session(), *t = quiet_session();
	ok(s, "newgame checkertoe seed=3 first=2");
	ck_assert_str_eq(ok(s, "position"),
			 "checkertoe first=2 size=5 float=0 exchange=0 "
			 "board=...../...../...../...../.....");
	play_both(s, "c3 e5", "a1");
	/* rows from the top (row 5) down; O (player 2) started */
	ck_assert_str_eq(ok(s, "position"),
			 "checkertoe first=2 size=5 float=0 exchange=0 "
			 "board=....o/...../..o../...../x....");
	/* another seed, capitals: the same game, played on alike to the end */
	ok(t, "newgame checkertoe seed=99 FIRST=2 size=5 float=0 exchange=0 "
	      "board=....O/...../..o../...../X....");
	same_answers(s, t);
	ck_assert(strstr(ok(t, "history"),
			 "newgame checkertoe seed=99 first=2 size=5 float=0 "
			 "exchange=0 board=....o/...../..o../...../x...."));
	ok(s, "set seed 5");
	ok(t, "set seed 5");
	ok(s, "set playouts 200");
	ok(t, "set playouts 200");
	while (!strncmp(ok(s, "status"), "play", 4)) {
		char mv[16];
		KEEP(mv, ok(s, "genmove"));
		ck_assert_str_eq(ok(t, "genmove"), mv);
		same_answers(s, t);
	}
	/* a finished game: X has 12, O 12 and one square is empty */
	char pos[256], cmd[300];
	KEEP(pos, ok(s, "position"));
	snprintf(cmd, sizeof cmd, "newgame %s", pos);
	ok(t, cmd);
	same_answers(s, t);
	ck_assert_str_eq(ok(t, "moves"), "");
	session_free(s);
	session_free(t);
}
END_TEST

/* Hand-written bad positions: each refused with its reason, the game kept. */
START_TEST(test_bad_positions)
{
	static const struct {
		const char *opts, *reason;
	} cases[] = {
		{"first=1 board=xo.../...../...../.....",
		 "board= has 4 rows: the 5x5 board has 5, from the top row "
		 "down, separated by /"},
		{"first=1 board=xo.../...../...../...../...../.....",
		 "board= has more than 5 rows: the 5x5 board has 5"},
		{"first=1 board=xo../...../...../...../.....",
		 "board= row 5 has 4 squares: every row of the 5x5 board has "
		 "5"},
		{"first=1 board=...../...../..x.o./...../.....",
		 "board= row 3 has 6 squares: every row of the 5x5 board has "
		 "5"},
		{"first=1 board=...../...../..z../...../.....",
		 "board= row 3: z is neither x (player 1), o (player 2) nor . "
		 "(empty)"},
		{"first=1 board=xxxxx/xxxxx/xxx../ooooo/ooooo",
		 "board= has 13 x checkers: each player has 12"},
		{"first=1 board=o..../...../...../...../.....",
		 "board= has 0 x and 1 o checkers: players place in turn from "
		 "player 1 (first=1), so x has as many as o or one more"},
		{"first=2 board=xx.../...../...../...../..o..",
		 "board= has 2 x and 1 o checkers: players place in turn from "
		 "player 2 (first=2), so o has as many as x or one more"},
		{"first=1 turns=1", "turns= and locked= are the exchange "
				    "turns: they need exchange"},
		{"first=1 locked=a1,b1", "turns= and locked= are the exchange "
					 "turns: they need exchange"},
		{"first=1 exchange turns=1 board=xo.../...../...../...../.....",
		 "turns=1: the exchange turns begin once all 24 checkers are "
		 "placed, and the board has 2"},
		{"first=1 exchange turns=3",
		 "turns must be a number from 0 to 2"},
		{"first=1 exchange board=xoxox/oxoxo/xo.ox/oxoxo/xoxox "
		 "locked=a1,b1",
		 "locked= needs the first exchange made: turns=1 or turns=2"},
		{"first=1 exchange turns=1 "
		 "board=xoxox/oxoxo/xo.ox/oxoxo/xoxox locked=a1,c1",
		 "locked= a1,c1: after an exchange its two squares hold one x "
		 "and one o"},
		{"first=1 exchange turns=1 "
		 "board=xoxox/oxoxo/xo.ox/oxoxo/xoxox locked=a1,c3",
		 "locked= a1,c3: after an exchange its two squares hold one x "
		 "and one o"},
		{"first=1 exchange turns=2 "
		 "board=xoxox/oxoxo/xo.ox/oxoxo/xoxox locked=a1",
		 "locked= names the two squares of the first exchange: "
		 "locked=c3,d4"},
		{"first=1 exchange turns=2 "
		 "board=xoxox/oxoxo/xo.ox/oxoxo/xoxox locked=a1,a1",
		 "locked= names the two squares of the first exchange: "
		 "locked=c3,d4"},
		{"first=1 exchange turns=2 "
		 "board=xoxox/oxoxo/xo.ox/oxoxo/xoxox locked=a1,f1",
		 "locked= names the two squares of the first exchange: "
		 "locked=c3,d4"},
	};
	struct session *s = quiet_session();
	ok(s, "newgame checkertoe seed=1 first=2");
	ok(s, "play c3");
	char before[256];
	KEEP(before, ok(s, "position"));
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char cmd[256], want[256];
		snprintf(cmd, sizeof cmd, "newgame checkertoe %s",
			 cases[i].opts);
		snprintf(want, sizeof want, "%s\n\n", cases[i].reason);
		ck_assert_str_eq(bad(s, cmd), want);
		ck_assert_str_eq(ok(s, "position"), before);
	}
	session_free(s);
}
END_TEST

START_TEST(test_geometry)
{
	struct session *s = quiet_session();
	ok(s, "newgame checkertoe seed=1");
	char geo[2048], want[2048] = "";
	KEEP(geo, ok(s, "geometry"));
	for (int y = 0; y < 5; y++)
		for (int x = 0; x < 5; x++) {
			char line[64];
			snprintf(line, sizeof line, "%scell %c%d %d %d",
				 *want ? "\n" : "", 'a' + x, y + 1, x, y);
			strcat(want, line);
		}
	/* the answer starts on the line after "= " */
	ck_assert_str_eq(geo + 1, want);
	/* the contents do not change the shape */
	ok(s, "play c3");
	ck_assert_str_eq(ok(s, "geometry") + 1, want);
	session_free(s);
}
END_TEST

/* random_move draws moves()[k] for k uniform (one rng_below), and the
 * playout hook plays the very games that random_move and play would, from
 * the same generator: a uniformly random legal move every ply.  From
 * starts part-way through, with ply limits, in every variant. */
START_TEST(test_playout_is_random_move)
{
	static const char *const variants[] = {
		"first=1",  "first=2",        "size=6",         "float",
		"exchange", "float exchange", "size=6 exchange"};
	const struct game *g = game_find("checkertoe");
	char err[GAME_ERR_MAX];
	for (int v = 0; v < 7; v++)
		for (int seed = 0; seed < 300; seed++) {
			void *a = game_new_state(g, variants[v], 1, err);
			ck_assert_msg(a != NULL, "%s", err);
			void *b = malloc(g->state_size);
			struct rng r1, r2;
			rng_seed(&r1, (uint64_t)seed);
			/* a start part-way through, up to the end itself */
			int skip = (int)rng_below(&r1, 40);
			for (int i = 0; i < skip; i++) {
				/* random_move is moves()[k], k uniform */
				struct move mv, list[18 * 18 + 1];
				int nm = g->moves(a, list);
				struct rng copy = r1;
				if (g->random_move(a, &r1, &mv) < 0) {
					ck_assert_int_eq(nm, 0);
					break;
				}
				ck_assert(move_equal(
					&mv,
					&list[rng_below(&copy, (uint32_t)nm)]));
				g->play(a, &mv);
			}
			int limit =
				seed % 3 ? 1 << 30 : (int)rng_below(&r1, 12);
			memcpy(b, a, g->state_size);
			r2 = r1;
			int n = game_search(g)->playout(a, &r1, limit), m = 0;
			struct move mv;
			while (m < limit && g->random_move(b, &r2, &mv) == 0) {
				g->play(b, &mv);
				m++;
			}
			ck_assert_int_eq(n, m);
			ck_assert_msg(!memcmp(a, b, g->state_size),
				      "%s seed %d: playout ends elsewhere",
				      variants[v], seed);
			ck_assert(!memcmp(&r1, &r2, sizeof r1));
			if (limit == 1 << 30)
				ck_assert(g->status(a).phase == GAME_OVER);
			free(a);
			free(b);
		}
}
END_TEST

/* The tic-tac-toes player pl would count if each square of `open` went
 * to either player with even odds, counted line by line: grid[y][x] is
 * 'x', 'o' or '.', from board= (n rows, the top row first). */
static double expected_oracle(char grid[8][8], int n, const int open[8][8],
			      int pl)
{
	char me = pl ? 'o' : 'x';
	int line[LINES_MAX][3][2], nlines = lines_of_three(n, line);
	double sum = 0;
	for (int i = 0; i < nlines; i++) {
		double w = 1;
		for (int k = 0; k < 3; k++) {
			int cx = line[i][k][0], cy = line[i][k][1];
			if (grid[cy][cx] != me)
				w *= open[cy][cx] ? 0.5 : 0;
		}
		sum += w;
	}
	return sum;
}

/* The difference of the players' expected tic-tac-toes at st, counted
 * line by line from `position`'s board= and, while checkers are placed,
 * the squares `moves` lists (placements are named by their square;
 * exchanges and pass are longer). */
static double expected_difference(const struct game *g, const void *st)
{
	struct text t;
	text_init(&t);
	g->position(st, &t);
	const char *b = strstr(t.s, "board=") + 6;
	char grid[8][8];
	int open[8][8] = {{0}};
	int n = (int)strcspn(b, "/ ");
	for (int y = n - 1; y >= 0; y--, b++)
		for (int x = 0; x < n; x++)
			grid[y][x] = *b++;
	text_free(&t);
	struct move list[18 * 18 + 1];
	int nm = g->moves(st, list);
	for (int i = 0; i < nm; i++) {
		char name[MOVE_TEXT_MAX];
		g->format(st, &list[i], name);
		if (strlen(name) == 2)
			open[name[1] - '1'][name[0] - 'a'] = 1;
	}
	return expected_oracle(grid, n, open, 0) -
	       expected_oracle(grid, n, open, 1);
}

/* A position's expected_difference and the first guess's value of it
 * for player 1, in order of the one, then the other. */
struct guess {
	double diff, val;
};

static int by_difference(const void *a, const void *b)
{
	const struct guess *x = a, *y = b;
	return x->diff != y->diff ? (x->diff > y->diff) - (x->diff < y->diff)
				  : (x->val > y->val) - (x->val < y->val);
}

/* The search's first guess at a position (evaluate()) follows the
 * difference of both players' expected tic-tac-toes (expected_difference):
 * along random games of every variant, a bigger difference never gets a
 * smaller value, an equal one the same value, and the sign of the
 * difference is the side of 0.5. */
START_TEST(test_first_guess_follows_the_expected_lines)
{
	static const char *const variants[] = {"first=1", "size=6", "float",
					       "exchange", "size=6 exchange"};
	const struct game *g = game_find("checkertoe");
	ck_assert_ptr_nonnull(game_search(g)->evaluate);
	char err[GAME_ERR_MAX];
	enum { N = 2000, PLIES = 20 };
	static struct guess seen[N];
	int k = 0;
	struct rng r;
	rng_seed(&r, 5);
	for (int v = 0; v < 5; v++)
		for (int game = 0; game < N / 5 / PLIES; game++) {
			void *st = game_new_state(g, variants[v], 1, err);
			ck_assert_msg(st != NULL, "%s", err);
			/* one or two random moves between looks */
			struct move mv;
			for (int look = 0; look < PLIES; look++) {
				for (int i = (int)rng_below(&r, 2); i < 2; i++)
					if (g->random_move(st, &r, &mv) == 0)
						g->play(st, &mv);
				if (g->status(st).phase == GAME_OVER)
					break;
				double value[GAME_MAX_PLAYERS];
				game_search(g)->evaluate(st, value);
				struct guess x = {expected_difference(g, st),
						  value[0]};
				ck_assert_double_eq_tol(value[0] + value[1], 1,
							1e-12);
				ck_assert_msg((x.val > 0.5) == (x.diff > 0) &&
						      (x.val < 0.5) ==
							      (x.diff < 0),
					      "%s: difference %g, value %g",
					      variants[v], x.diff, x.val);
				seen[k++] = x;
			}
			free(st);
		}
	ck_assert_int_gt(k, N / 2);
	/* in order: each value at least the one before, and the same where
	 * the difference is */
	qsort(seen, (size_t)k, sizeof seen[0], by_difference);
	for (int i = 1; i < k; i++) {
		struct guess a = seen[i - 1], b = seen[i];
		if (b.val < a.val - 1e-12 ||
		    (b.diff == a.diff && b.val > a.val + 1e-12))
			ck_abort_msg("differences %g and %g, values %g and %g",
				     a.diff, b.diff, a.val, b.val);
	}
}
END_TEST

/* turn_info counts the placements; scoring lists each line of three, a
 * line of four as its two, and only at the end the lines through the
 * empty square. */
START_TEST(test_turn_info_and_scoring)
{
	struct session *s = position("a1 b1 c1", "a2 b2");
	ck_assert_str_eq(
		ok(s, "game_info"),
		"game checkertoe\ntitle Tic-Tac-Toe On A Checkerboard\n"
		"players 2\nplayer 1 colour red mark X\n"
		"player 2 colour black mark O");
	ck_assert_str_eq(ok(s, "turn_info"),
			 "phase place 6 24\nplayer 2\nprompt player 2: place "
			 "checker 6 of 24 on an empty square");
	ck_assert_str_eq(ok(s, "scoring"),
			 "unit line player 1 points 1 cells a1 b1 c1");
	play_both(s, "", "c2");
	ok(s, "play d1");
	ck_assert_str_eq(ok(s, "scoring"),
			 "unit line player 1 points 1 cells a1 b1 c1\n"
			 "unit line player 1 points 1 cells b1 c1 d1\n"
			 "unit line player 2 points 1 cells a2 b2 c2");
	session_free(s);

	/* c5 d5 and the empty e5 count for player 2 once it is over */
	s = quiet_session();
	ok(s, "newgame checkertoe seed=1 first=1 exchange");
	play_both(s, "a1 b1 c1 d1 e1 a3 b3 c3 d3 e3 a5 b5",
		  "a2 b2 c2 d2 e2 a4 b4 c4 d4 e4 c5 d5");
	ck_assert_str_eq(ok(s, "turn_info"),
			 "phase exchange 1 2\nplayer 1\nalso pass\nprompt "
			 "player 1: swap one of your checkers with one of the "
			 "opponent's (mine:theirs), or pass; exchange turn 1 "
			 "of 2");
	ck_assert(!strstr(ok(s, "scoring"), "e5"));
	ok(s, "play pass");
	ck_assert(strstr(ok(s, "turn_info"), "phase exchange 2 2\nplayer 2\n"));
	ok(s, "play pass");
	ck_assert_str_eq(ok(s, "turn_info"),
			 "phase over\nprompt game over: player 2 wins with 7 "
			 "tic-tac-toes to 6");
	ck_assert(strstr(ok(s, "scoring"),
			 "unit line player 2 points 1 cells c4 d4 e4\n"
			 "unit line player 2 points 1 cells c5 d5 e5"));
	session_free(s);

	s = quiet_session();
	ok(s, "newgame checkertoe seed=1 first=2 float");
	ck_assert_str_eq(ok(s, "turn_info"),
			 "phase place 1 24\nplayer 2\nprompt player 2: place "
			 "checker 1 of 24 on an empty square that keeps the "
			 "layout within 5x5");
	session_free(s);
}
END_TEST

static Suite *suite(void)
{
	Suite *su = suite_create("checkertoe");
	TCase *tc = tcase_create("rules");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_start);
	tcase_add_test(tc, test_messages);
	tcase_add_test(tc, test_lines_of_three);
	tcase_add_test(tc, test_empty_square_counts_for_both);
	tcase_add_test(tc, test_random_games_against_oracle);
	tcase_add_test(tc, test_ai_beats_random);
	tcase_add_test(tc, test_position_round_trip);
	tcase_add_test(tc, test_bad_positions);
	tcase_add_test(tc, test_geometry);
	tcase_add_test(tc, test_playout_is_random_move);
	tcase_add_test(tc, test_turn_info_and_scoring);
	tcase_add_test(tc, test_first_guess_follows_the_expected_lines);
	suite_add_tcase(su, tc);
	return su;
}

TEST_MAIN()
