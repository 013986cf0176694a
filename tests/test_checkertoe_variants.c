/* test_checkertoe_variants.c: the three variations of Tic-Tac-Toe On A
 * Checkerboard (size=6, float, exchange), through the protocol. */
#include "test_util.h"

/* The character showboard draws on square x, y (from 0) of a board with
 * `rows` rows. */
static char cell(const char *board, int rows, int x, int y)
{
	const char *p = board + strspn(board, "\n");
	for (int i = 0; i < rows - 1 - y; i++)
		p = strchr(p, '\n') + 1;
	p += strspn(p, " 0123456789");
	return p[2 * x];
}

static int count_words(const char *s)
{
	int n = 0;
	for (const char *p = s; *p; p++)
		n += *p != ' ' && (p == s || p[-1] == ' ');
	return n;
}

static int has_word(const char *list, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = strstr(list, w); p; p = strstr(p + 1, w))
		if ((p == list || p[-1] == ' ') &&
		    (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

START_TEST(test_options)
{
	struct session *s = quiet_session();
	ok(s, "newgame checkertoe seed=5 first=2");
	ck_assert(strstr(
		ok(s, "history"),
		"newgame checkertoe seed=5 first=2 size=5 float=0 exchange=0"));
	ok(s, "newgame checkertoe seed=5 first=1 size=6 exchange");
	ck_assert(
		strstr(ok(s, "history"), "first=1 size=6 float=0 exchange=1"));
	ok(s, "newgame checkertoe seed=5 first=1 float=1 exchange=1");
	ck_assert(
		strstr(ok(s, "history"), "first=1 size=5 float=1 exchange=1"));
	ok(s, "newgame checkertoe seed=5 first=1 float=0 exchange=0 size=5");
	ck_assert(
		strstr(ok(s, "history"), "first=1 size=5 float=0 exchange=0"));
	/* float builds a 5x5 layout: size=6 makes no sense with it */
	ck_assert(strstr(bad(s, "newgame checkertoe float size=6"), "float"));
	/* the failed newgame kept the game */
	ck_assert(
		strstr(ok(s, "history"), "first=1 size=5 float=0 exchange=0"));
	ck_assert(strstr(bad(s, "newgame checkertoe size=7"), "size"));
	ck_assert(strstr(bad(s, "newgame checkertoe size=4"), "size"));
	ck_assert(
		strstr(bad(s, "newgame checkertoe exchange=yes"), "exchange"));
	ck_assert(strstr(bad(s, "newgame checkertoe float=2"), "float"));
	session_free(s);
}
END_TEST

/* 6x6, first=1, placed so that the board ends
 *   6  X X X X O O
 *   5  O O X O X O
 *   4  X O X O O X
 *   3  X O X X O O
 *   2  O X O X X O
 *   1  X X O O X O
 *      a b c d e f */
static const char *six_x =
	"a1 b1 e1 b2 d2 e2 a3 c3 d3 a4 c4 f4 c5 e5 a6 b6 c6 d6";
static const char *six_o =
	"c1 d1 f1 a2 c2 f2 b3 e3 f3 b4 d4 e4 a5 b5 d5 f5 e6 f6";

START_TEST(test_six_by_six)
{
	struct session *s = quiet_session();
	ok(s, "newgame checkertoe seed=1 first=1 size=6");
	ck_assert_str_eq(
		ok(s, "moves"),
		"a1 b1 c1 d1 e1 f1 a2 b2 c2 d2 e2 f2 a3 b3 c3 d3 e3 f3 "
		"a4 b4 c4 d4 e4 f4 a5 b5 c5 d5 e5 f5 a6 b6 c6 d6 e6 f6");
	ck_assert(strstr(bad(s, "play g1"), "illegal move"));
	ck_assert(strstr(bad(s, "play a7"), "illegal move"));
	play_both(s, six_x, six_o);
	/* Counted by hand.  X: a6-b6-c6-d6 (four in a row: two),
	 * c3-c4-c5-c6 (two), a1-b2-c3, e1-d2-c3, e2-d3-c4 and f4-e5-d6: 8.
	 * O: b3-b4-b5, f1-f2-f3, d1-c2-b3, f2-e3-d4 and f3-e4-d5: 5.  Every
	 * square is taken, so no empty square helps anybody. */
	ck_assert_str_eq(ok(s, "score"), "8 5");
	ck_assert_str_eq(ok(s, "status"), "over 1");
	ck_assert_str_eq(ok(s, "moves"), "");
	ck_assert(strstr(ok(s, "showboard"), "0 in hand") != NULL);
	ck_assert(strchr(ok(s, "showboard"), '.') == NULL);
	/* one move earlier f6 was empty and counted for nobody: the same
	 * lines, as none runs through f6 */
	ok(s, "undo");
	ck_assert_str_eq(ok(s, "status"), "play 2");
	ck_assert_str_eq(ok(s, "score"), "8 5");
	/* and 18 checkers each: the 36th was player 2's */
	ck_assert(strstr(ok(s, "showboard"), "O player 2: 1 in hand"));
	session_free(s);
}
END_TEST

START_TEST(test_float_start_and_columns)
{
	struct session *s = quiet_session();
	ok(s, "newgame checkertoe seed=1 first=1 float");
	ck_assert_str_eq(ok(s, "moves"), "d4 e4 d5 e5");
	ck_assert(strstr(bad(s, "play a1"), "centre"));
	ck_assert(strstr(bad(s, "play i1"), "illegal move"));
	ok(s, "play d4");
	ok(s, "play h4"); /* columns d-h: five */
	const char *m = ok(s, "moves");
	ck_assert_int_eq(count_words(m), 5 * 8 - 2);
	ck_assert(!has_word(m, "c4") && !has_word(m, "c1") &&
		  has_word(m, "d8"));
	ck_assert(strstr(bad(s, "play c4"), "6 columns"));
	ck_assert(strstr(bad(s, "play a8"), "columns"));
	ck_assert(strstr(bad(s, "play h4"), "occupied"));
	ok(s, "play e8"); /* rows 4-8: five */
	ck_assert(strstr(bad(s, "play e3"), "6 rows"));
	ck_assert(!has_word(ok(s, "moves"), "e3"));
	ck_assert_str_eq(ok(s, "status"), "play 2");
	session_free(s);
}
END_TEST

/* Reads a square name; x, y from 0. */
static void square_of(const char *t, int *x, int *y)
{
	*x = t[0] - 'a';
	*y = t[1] - '1';
}

/* In random float games, `moves` lists exactly the empty squares that keep
 * the bounding box of all checkers within 5 columns and 5 rows. */
START_TEST(test_float_moves_are_the_layout)
{
	struct session *s = quiet_session();
	ok(s, "set level 0");
	ok(s, "set seed 3");
	for (int g = 0; g < 20; g++) {
		char cmd[64];
		snprintf(cmd, sizeof cmd, "newgame checkertoe float seed=%d",
			 g);
		ok(s, cmd);
		int taken[8][8] = {{0}}, x0 = 8, x1 = -1, y0 = 8, y1 = -1;
		for (int i = 0; i < 24; i++) {
			char want[512] = "", got[512], name[16];
			for (int y = 0; y < 8; y++)
				for (int x = 0; x < 8; x++) {
					int w = (x > x1 ? x : x1) -
						(x < x0 ? x : x0);
					int h = (y > y1 ? y : y1) -
						(y < y0 ? y : y0);
					int ok_sq =
						i == 0 ? (x == 3 || x == 4) &&
								 (y == 3 ||
								  y == 4)
						       : w < 5 && h < 5;
					if (taken[y][x] || !ok_sq)
						continue;
					snprintf(name, sizeof name, "%c%d",
						 'a' + x, y + 1);
					if (*want)
						strcat(want, " ");
					strcat(want, name);
				}
			KEEP(got, ok(s, "moves"));
			ck_assert_str_eq(got, want);
			int x, y;
			square_of(ok(s, "genmove"), &x, &y);
			taken[y][x] = 1;
			x0 = x < x0 ? x : x0, x1 = x > x1 ? x : x1;
			y0 = y < y0 ? y : y0, y1 = y > y1 ? y : y1;
		}
		ck_assert_int_eq(x1 - x0, 4);
		ck_assert_int_eq(y1 - y0, 4);
		ck_assert(strncmp(ok(s, "status"), "over", 4) == 0);
	}
	session_free(s);
}
END_TEST

/* A float game is the 5x5 game moved on the big board: the same placements
 * shifted give the same score at every step, so only lines inside the
 * layout count and only its own empty square counts at the end (the big
 * board's other empty squares do not). */
START_TEST(test_float_scores_like_the_moved_5x5)
{
	struct session *plain = quiet_session(), *fl = quiet_session();
	ok(plain, "set level 0");
	ok(plain, "set seed 11");
	for (int g = 0; g < 30; g++) {
		char cmd[256], sq[24][8];
		snprintf(cmd, sizeof cmd, "newgame checkertoe first=1 seed=%d",
			 g);
		ok(plain, cmd);
		for (int i = 0; i < 24; i++)
			KEEP(sq[i], ok(plain, "genmove"));
		ok(plain, cmd);
		int x, y;
		square_of(sq[0], &x, &y);
		/* a shift that puts the first checker on a centre square (d or
		 * e, 4 or 5) and keeps the 5x5 area on the 8x8 board */
		int dx = x <= 3 ? 3 - x : 0, dy = y <= 3 ? 3 - y : 0;
		ok(fl, "newgame checkertoe first=1 float seed=1");
		for (int i = 0; i < 24; i++) {
			char a[32], b[32];
			square_of(sq[i], &x, &y);
			snprintf(cmd, sizeof cmd, "play %c%d", 'a' + x + dx,
				 y + dy + 1);
			ok(fl, cmd);
			snprintf(cmd, sizeof cmd, "play %s", sq[i]);
			ok(plain, cmd);
			KEEP(a, ok(plain, "score"));
			KEEP(b, ok(fl, "score"));
			ck_assert_str_eq(a, b);
		}
		char a[32], b[32];
		KEEP(a, ok(plain, "status"));
		KEEP(b, ok(fl, "status"));
		ck_assert_str_eq(a, b);
	}
	session_free(plain);
	session_free(fl);
}
END_TEST

/* The checkerboard pattern with c3 empty, first=1. */
static const char *pat_x = "a1 c1 e1 b2 d2 a3 e3 b4 d4 a5 c5 e5";
static const char *pat_o = "b1 d1 a2 c2 e2 b3 d3 a4 c4 e4 b5 d5";

START_TEST(test_exchange_swaps_and_locks)
{
	struct session *s = quiet_session();
	ok(s, "newgame checkertoe seed=1 first=1 exchange");
	play_both(s, pat_x, pat_o);
	/* all placed: the starting player exchanges or passes */
	ck_assert_str_eq(ok(s, "status"), "play 1");
	const char *m = ok(s, "moves");
	ck_assert_int_eq(count_words(m), 12 * 12 + 1);
	ck_assert(has_word(m, "a1:b1") && has_word(m, "pass"));
	ck_assert(!has_word(m, "b1:a1") && !has_word(m, "c3"));
	ck_assert(strstr(bad(s, "play c3"), "illegal move"));
	ck_assert(strstr(bad(s, "play b1:a1"), "not your checker"));
	ck_assert(strstr(bad(s, "play a1:c1"), "not your opponent"));
	ck_assert(strstr(bad(s, "play a1:c3"), "not your opponent"));
	ck_assert(strstr(bad(s, "play a1-b1"), "illegal move"));

	ok(s, "play a1:b1");
	char board[1024];
	KEEP(board, ok(s, "showboard"));
	ck_assert_int_eq(cell(board, 5, 0, 0), 'O');
	ck_assert_int_eq(cell(board, 5, 1, 0), 'X');
	ck_assert_str_eq(ok(s, "status"), "play 2");
	/* player 2 may not use either exchanged checker: the O now on a1
	 * nor the X now on b1 */
	ck_assert(strstr(bad(s, "play a1:c1"), "exchanged"));
	ck_assert(strstr(bad(s, "play d1:b1"), "exchanged"));
	m = ok(s, "moves");
	ck_assert_int_eq(count_words(m), 11 * 11 + 1);
	ck_assert(!strstr(m, "a1") && !strstr(m, "b1") && has_word(m, "d1:c1"));

	/* a pass ends the game */
	ok(s, "play pass");
	ck_assert_str_eq(ok(s, "moves"), "");
	char score[32], status[32];
	KEEP(score, ok(s, "score"));
	KEEP(status, ok(s, "status"));
	ck_assert(strstr(ok(s, "history"), "play a1:b1\nplay pass"));
	ck_assert(strstr(bad(s, "play pass"), "over"));

	/* the same as a plain game placed that way from the start */
	struct session *t = quiet_session();
	ok(t, "newgame checkertoe seed=1 first=1");
	play_both(t, "b1 c1 e1 b2 d2 a3 e3 b4 d4 a5 c5 e5",
		  "a1 d1 a2 c2 e2 b3 d3 a4 c4 e4 b5 d5");
	ck_assert_str_eq(ok(t, "score"), score);
	ck_assert_str_eq(ok(t, "status"), status);
	session_free(t);

	/* undo gives back the exchange turn and the original board */
	ok(s, "undo");
	ok(s, "undo");
	ck_assert_int_eq(count_words(ok(s, "moves")), 12 * 12 + 1);
	KEEP(board, ok(s, "showboard"));
	ck_assert_int_eq(cell(board, 5, 0, 0), 'X');
	ck_assert_int_eq(cell(board, 5, 1, 0), 'O');
	session_free(s);
}
END_TEST

START_TEST(test_exchange_pass_then_free)
{
	struct session *s = quiet_session();
	ok(s, "newgame checkertoe seed=1 first=2 exchange");
	/* player 2 starts, so it places pat_x and exchanges first */
	play_both(s, pat_x, pat_o);
	ck_assert_str_eq(ok(s, "status"), "play 2");
	/* the game is not over yet: only own checkers count (the X pattern
	 * has 4 such lines, the O pattern 8) */
	ck_assert_str_eq(ok(s, "score"), "8 4");
	ok(s, "play pass");
	/* nothing was exchanged: player 1 may use any pair */
	ck_assert_str_eq(ok(s, "status"), "play 1");
	ck_assert_int_eq(count_words(ok(s, "moves")), 12 * 12 + 1);
	/* player 1 (X, on the pat_o squares) swaps its b1 with player 2's b2 */
	ok(s, "play b1:b2");
	char board[1024];
	KEEP(board, ok(s, "showboard"));
	ck_assert_int_eq(cell(board, 5, 1, 0), 'O');
	ck_assert_int_eq(cell(board, 5, 1, 1), 'X');
	ck_assert(strncmp(ok(s, "status"), "over", 4) == 0);
	/* two passes end the game as placed: a draw, 10 10, the empty c3
	 * now counting for both */
	ok(s, "undo");
	ok(s, "play pass");
	ck_assert_str_eq(ok(s, "status"), "over draw");
	ck_assert_str_eq(ok(s, "score"), "10 10");
	session_free(s);
}
END_TEST

START_TEST(test_exchange_combines)
{
	struct session *s = quiet_session();
	ok(s, "newgame checkertoe seed=2 first=1 size=6 exchange");
	play_both(s, six_x, six_o);
	ck_assert_str_eq(ok(s, "status"), "play 1");
	ck_assert_int_eq(count_words(ok(s, "moves")), 18 * 18 + 1);
	ok(s, "play c6:e6");
	/* player 2's checker that went from e6 to c6 is locked */
	ck_assert(strstr(bad(s, "play c6:a6"), "exchanged"));
	ck_assert(strstr(bad(s, "play e6:a6"), "not your checker"));
	ck_assert_int_eq(count_words(ok(s, "moves")), 17 * 17 + 1);
	ok(s, "play e4:f4");
	ck_assert(strncmp(ok(s, "status"), "over", 4) == 0);

	ok(s, "newgame checkertoe seed=2 first=1 float exchange");
	/* the pattern moved up and right by three */
	play_both(s, "d4 f4 h4 e5 g5 d6 h6 e7 g7 d8 f8 h8",
		  "e4 g4 d5 f5 h5 e6 g6 d7 f7 h7 e8 g8");
	ck_assert_str_eq(ok(s, "score"), "4 8");
	ck_assert_int_eq(count_words(ok(s, "moves")), 12 * 12 + 1);
	ck_assert(strstr(bad(s, "play a1:b1"), "illegal move"));
	ok(s, "play d4:e4");
	ok(s, "play pass");
	ck_assert(strncmp(ok(s, "status"), "over", 4) == 0);
	session_free(s);
}
END_TEST

/* Random games of every variant: history rebuilds the same game, and undo
 * all the way back gives the start again. */
START_TEST(test_history_replays)
{
	static const char *opts[] = {
		"",         "size=6",         "float",
		"exchange", "float exchange", "size=6 exchange"};
	struct session *s = quiet_session(), *t = quiet_session();
	ok(s, "set level 0");
	ok(s, "set seed 9");
	for (int g = 0; g < 24; g++) {
		char cmd[128], hist[4096], a[1024], b[1024];
		snprintf(cmd, sizeof cmd, "newgame checkertoe seed=%d %s", g,
			 opts[g % 6]);
		ok(s, cmd);
		char start[1024];
		KEEP(start, ok(s, "showboard"));
		int n = 0;
		while (strncmp(ok(s, "status"), "play", 4) == 0) {
			ok(s, "genmove");
			n++;
		}
		KEEP(hist, ok(s, "history"));
		char *save;
		for (char *line = strtok_r(hist, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			ok(t, line);
		KEEP(a, ok(s, "showboard"));
		KEEP(b, ok(t, "showboard"));
		ck_assert_str_eq(a, b);
		KEEP(a, ok(s, "score"));
		KEEP(b, ok(t, "score"));
		ck_assert_str_eq(a, b);
		while (n--)
			ok(s, "undo");
		ck_assert_str_eq(ok(s, "showboard"), start);
	}
	session_free(s);
	session_free(t);
}
END_TEST

/* The game's own lines of geometry: those after the shared cell, word and
 * sep lines. */
static const char *own_lines(const char *geo)
{
	static char buf[256];
	buf[0] = '\0';
	for (const char *p = geo; *p; p = strchr(p, '\n') + 1) {
		size_t n = strcspn(p, "\n");
		if (strncmp(p, "cell ", 5) && strncmp(p, "word ", 5) &&
		    strncmp(p, "sep ", 4) && n) {
			strncat(buf, p, n);
			strcat(buf, "\n");
		}
		if (!p[n])
			break;
	}
	return buf;
}

static int count_lines(const char *text, const char *prefix)
{
	int n = 0;
	for (const char *p = text; (p = strstr(p, prefix)); p++)
		n += p == text || p[-1] == '\n';
	return n;
}

START_TEST(test_geometry_variants)
{
	struct session *s = quiet_session();
	ok(s, "newgame checkertoe seed=1 first=1 size=6 exchange");
	const char *g = ok(s, "geometry");
	ck_assert_int_eq(count_lines(g, "cell "), 36);
	ck_assert(strstr(g, "\ncell f6 5 5\nword pass\nsep :"));
	ck_assert_str_eq(own_lines(g), "");

	/* float: 64 squares; where a checker may go, and the layout so far */
	ok(s, "newgame checkertoe seed=1 first=1 float");
	g = ok(s, "geometry");
	ck_assert_int_eq(count_lines(g, "cell "), 64);
	ck_assert(strstr(g, "\ncell h8 7 7\n"));
	ck_assert_int_eq(count_lines(g, "word "), 0);
	ck_assert_str_eq(own_lines(g), "reach d4 e5\n");
	ok(s, "play d4");
	ck_assert_str_eq(own_lines(ok(s, "geometry")),
			 "reach a1 h8\nlayout d4 d4\n");
	ok(s, "play h4");
	ck_assert_str_eq(own_lines(ok(s, "geometry")),
			 "reach d1 h8\nlayout d4 h4\n");
	ok(s, "play e8");
	ck_assert_str_eq(own_lines(ok(s, "geometry")),
			 "reach d4 h8\nlayout d4 h8\n");
	/* at the end only the layout is left */
	ok(s, "newgame checkertoe seed=1 first=1 float exchange");
	play_both(s, "d4 f4 h4 e5 g5 d6 h6 e7 g7 d8 f8 h8",
		  "e4 g4 d5 f5 h5 e6 g6 d7 f7 h7 e8 g8");
	g = ok(s, "geometry");
	ck_assert(strstr(g, "\nword pass\nsep :\n"));
	ck_assert_str_eq(own_lines(g), "layout d4 h8\n");
	session_free(s);
}
END_TEST

/* Positions of the variants: written, read back by a fresh engine, which
 * then plays on alike. */
START_TEST(test_position_variants)
{
	struct session *s = quiet_session(), *t = quiet_session();
	ok(s, "newgame checkertoe seed=1 first=1 exchange");
	play_both(s, pat_x, pat_o);
	ck_assert_str_eq(ok(s, "position"),
			 "checkertoe first=1 size=5 float=0 exchange=1 "
			 "board=xoxox/oxoxo/xo.ox/oxoxo/xoxox turns=0");
	ok(s, "play a1:b1");
	ck_assert_str_eq(ok(s, "position"),
			 "checkertoe first=1 size=5 float=0 exchange=1 "
			 "board=xoxox/oxoxo/xo.ox/oxoxo/oxxox turns=1 "
			 "locked=a1,b1");
	ok(t, "newgame checkertoe first=1 size=5 float=0 exchange=1 "
	      "board=xoxox/oxoxo/xo.ox/oxoxo/oxxox turns=1 locked=b1,a1");
	ck_assert_str_eq(ok(t, "status"), "play 2");
	ck_assert(strstr(bad(t, "play a1:c1"), "exchanged"));
	ck_assert_str_eq(ok(t, "moves"), ok(s, "moves"));
	ck_assert(strstr(ok(t, "showboard"),
			 "exchanged, not to be used again: a1 b1"));
	ok(s, "play d1:c1");
	ok(t, "play d1:c1");
	ck_assert_str_eq(ok(t, "position"),
			 "checkertoe first=1 size=5 float=0 exchange=1 "
			 "board=xoxox/oxoxo/xo.ox/oxoxo/oxoxx turns=2 "
			 "locked=a1,b1");
	ck_assert_str_eq(ok(t, "score"), ok(s, "score"));
	ck_assert_str_eq(ok(t, "status"), ok(s, "status"));
	/* a first-turn pass locks nothing */
	ok(t, "newgame checkertoe first=1 size=5 float=0 exchange=1 "
	      "board=xoxox/oxoxo/xo.ox/oxoxo/oxxox turns=1");
	ck_assert_int_eq(count_words(ok(t, "moves")), 12 * 12 + 1);

	/* float: the 8x8 board; the box follows from the checkers; player 2
	 * (o) starts */
	ok(s, "newgame checkertoe seed=1 first=2 float");
	play_both(s, "d4 e8", "h4");
	ck_assert_str_eq(ok(s, "position"),
			 "checkertoe first=2 size=5 float=1 exchange=0 "
			 "board=....o.../......../......../......../"
			 "...o...x/......../......../........");
	char pos[256], cmd[300];
	KEEP(pos, ok(s, "position"));
	snprintf(cmd, sizeof cmd, "newgame %s", pos);
	ok(t, cmd);
	ck_assert_str_eq(ok(t, "moves"), ok(s, "moves"));
	ck_assert(strstr(bad(t, "play e3"), "6 rows"));
	ck_assert(strstr(bad(t, "newgame checkertoe first=1 float "
				"board=......../......../......../......../"
				"..x....o/......../......../........"),
			 "board=: the smallest rectangle around the checkers "
			 "is 6x1 (columns x rows), and with float it is at "
			 "most 5x5"));
	ck_assert(strstr(bad(t, "newgame checkertoe first=1 float "
				"board=...../...../..x../...../....."),
			 "board= row 8 has 5 squares: every row of the 8x8 "
			 "board has 8"));

	/* 6x6: six rows of six, 18 checkers each */
	ok(t, "newgame checkertoe first=1 size=6 "
	      "board=xxxxoo/ooxoxo/xoxoox/xoxxoo/oxoxxo/xxooxo");
	ck_assert_str_eq(ok(t, "status"), "over 1");
	ck_assert_str_eq(ok(t, "score"), "8 5");
	ck_assert(strstr(bad(t, "newgame checkertoe first=1 size=6 "
				"board=...../...../..x../...../....."),
			 "board= row 6 has 5 squares: every row of the 6x6 "
			 "board has 6"));
	session_free(s);
	session_free(t);
}
END_TEST

/* ---- key(): symmetric positions share a key, others do not ---- */

/* A position line (position() without the game name) with its board= read
 * into grid[y][x], y = 0 the bottom row, n the side. */
struct pos {
	char line[512];
	char grid[8][8];
	int n;
};

static void pos_read(struct pos *p, const char *line)
{
	KEEP(p->line, line);
	const char *b = strstr(line, "board=") + 6;
	p->n = (int)strcspn(b, "/");
	for (int y = p->n - 1; y >= 0; y--, b++)
		for (int x = 0; x < p->n; x++)
			p->grid[y][x] = *b++;
}

/* Square (x, y) under symmetry g: bit 0 swaps x and y, bit 1 mirrors the
 * columns, bit 2 the rows; then moved by (dx, dy). */
static void move_square(int g, int n, int dx, int dy, int *x, int *y)
{
	if (g & 1) {
		int t = *x;
		*x = *y;
		*y = t;
	}
	if (g & 2)
		*x = n - 1 - *x;
	if (g & 4)
		*y = n - 1 - *y;
	*x += dx;
	*y += dy;
}

/* The line of p's image under g, moved by (dx, dy): board= and locked=
 * rewritten, every other key kept. */
static void pos_image(const struct pos *p, int g, int dx, int dy, char *out)
{
	char grid[8][8];
	memset(grid, '.', sizeof grid);
	for (int y = 0; y < p->n; y++)
		for (int x = 0; x < p->n; x++) {
			int u = x, v = y;
			move_square(g, p->n, dx, dy, &u, &v);
			if (p->grid[y][x] != '.')
				grid[v][u] = p->grid[y][x];
		}
	const char *b = strstr(p->line, "board=");
	int at = (int)(b - p->line) + 6;
	memcpy(out, p->line, (size_t)at);
	for (int y = p->n - 1; y >= 0; y--) {
		memcpy(out + at, grid[y], (size_t)p->n);
		at += p->n;
		out[at++] = y ? '/' : '\0';
	}
	const char *l = strstr(p->line, " locked=");
	if (!strstr(p->line, " turns="))
		return;
	sprintf(out + at - 1, " turns=%c", strstr(p->line, " turns=")[7]);
	if (!l)
		return;
	int sq[2][2];
	sscanf(l, " locked=%c%d,%c%d", (char *)&sq[0][0], &sq[0][1],
	       (char *)&sq[1][0], &sq[1][1]);
	strcat(out, " locked=");
	for (int i = 0; i < 2; i++) {
		int x = (char)sq[i][0] - 'a', y = sq[i][1] - 1;
		move_square(g, p->n, dx, dy, &x, &y);
		sprintf(out + strlen(out), "%s%c%d", i ? "," : "", 'a' + x,
			y + 1);
	}
}

static uint64_t key_of(const char *line)
{
	const struct game *g = game_find("checkertoe");
	char err[GAME_ERR_MAX];
	void *st = game_new_state(g, line, 1, err);
	ck_assert_msg(st != NULL, "%s: %s", line, err);
	uint64_t k = g->key(st);
	free(st);
	return k;
}

/* The position lines of random games of a variant, every ply. */
static int random_lines(const char *opts, int games, char (*lines)[512],
			int max)
{
	const struct game *g = game_find("checkertoe");
	char err[GAME_ERR_MAX];
	struct rng r;
	rng_seed(&r, 42);
	int n = 0;
	for (int i = 0; i < games; i++) {
		void *st = game_new_state(g, opts, (uint64_t)i, err);
		ck_assert_msg(st != NULL, "%s", err);
		for (;;) {
			struct text t;
			text_init(&t);
			g->position(st, &t);
			if (n < max)
				snprintf(lines[n++], 512, "%s", t.s);
			text_free(&t);
			struct move mv;
			if (g->random_move(st, &r, &mv) < 0)
				break;
			g->play(st, &mv);
		}
		free(st);
	}
	return n;
}

/* The columns (or rows) p's checkers span. */
static void span(const struct pos *p, int rows, int *lo, int *hi)
{
	*lo = 8, *hi = -1;
	for (int y = 0; y < p->n; y++)
		for (int x = 0; x < p->n; x++)
			if (p->grid[y][x] != '.') {
				int v = rows ? y : x;
				*lo = v < *lo ? v : *lo;
				*hi = v > *hi ? v : *hi;
			}
}

START_TEST(test_key_symmetries)
{
	static const char *const variants[] = {"",         "size=6",
					       "exchange", "size=6 exchange",
					       "float",    "float exchange"};
	static char lines[2000][512];
	for (int v = 0; v < 6; v++) {
		int n = random_lines(variants[v], 12, lines, 2000);
		for (int i = 0; i < n; i++) {
			struct pos p;
			char img[512];
			pos_read(&p, lines[i]);
			uint64_t k = key_of(lines[i]);
			for (int g = 1; g < 8; g++) {
				pos_image(&p, g, 0, 0, img);
				ck_assert_msg(key_of(img) == k,
					      "%s and its image %s: other keys",
					      lines[i], img);
			}
			if (p.n != 8)
				continue;
			/* float: moved while spanning both centre lines */
			int lo, hi;
			for (int rows = 0; rows < 2; rows++) {
				span(&p, rows, &lo, &hi);
				if (!(lo <= 3 && hi >= 4))
					continue;
				for (int d = 4 - hi; d <= 3 - lo; d++) {
					pos_image(&p, 0, rows ? 0 : d,
						  rows ? d : 0, img);
					ck_assert_msg(key_of(img) == k,
						      "%s and %s moved: other "
						      "keys",
						      lines[i], img);
				}
			}
		}
	}
}
END_TEST

struct keyed {
	uint64_t key;
	char canon[512]; /* the smallest line of the 8 images */
};

static int by_key(const void *a, const void *b)
{
	uint64_t x = ((const struct keyed *)a)->key,
		 y = ((const struct keyed *)b)->key;
	return x < y ? -1 : x > y;
}

static int by_canon(const void *a, const void *b)
{
	return strcmp(((const struct keyed *)a)->canon,
		      ((const struct keyed *)b)->canon);
}

/* On the square boards, two positions share a key exactly when one is an
 * image of the other: no two classes of thousands of random positions
 * collide, and every class has one key. */
START_TEST(test_key_classes)
{
	static const char *const variants[] = {"", "size=6 first=2",
					       "exchange first=1"};
	static char lines[3000][512];
	static struct keyed k[3 * 3000];
	int nk = 0;
	for (int v = 0; v < 3; v++) {
		int n = random_lines(variants[v], 120, lines, 3000);
		for (int i = 0; i < n; i++, nk++) {
			struct pos p;
			char img[512];
			pos_read(&p, lines[i]);
			k[nk].key = key_of(lines[i]);
			strcpy(k[nk].canon, lines[i]); /* < 512 bytes */
			for (int g = 1; g < 8; g++) {
				pos_image(&p, g, 0, 0, img);
				if (strcmp(img, k[nk].canon) < 0)
					strcpy(k[nk].canon, img);
			}
		}
	}
	int classes = 0;
	qsort(k, (size_t)nk, sizeof *k, by_canon);
	for (int i = 1; i < nk; i++) {
		classes += strcmp(k[i].canon, k[i - 1].canon) != 0;
		if (!strcmp(k[i].canon, k[i - 1].canon))
			ck_assert(k[i].key == k[i - 1].key);
	}
	qsort(k, (size_t)nk, sizeof *k, by_key);
	for (int i = 1; i < nk; i++)
		if (k[i].key == k[i - 1].key)
			ck_assert_msg(!strcmp(k[i].canon, k[i - 1].canon),
				      "%s and %s share a key", k[i].canon,
				      k[i - 1].canon);
	/* the test means something: many positions, shared and not */
	ck_assert_int_gt(classes, 3000);
	ck_assert_int_lt(classes, nk - 500);
}
END_TEST

/* Hand-picked float positions: moves that keep the centre lines spanned
 * share the key, those that do not (or that change whose turn it is)
 * do not. */
START_TEST(test_key_float)
{
	const char *f1 = "float ";
	char a[256], b[256];
#define FLOAT_KEY(buf, opts, board)                                            \
	(snprintf(buf, sizeof buf, "%s%sboard=%s", f1, opts, board),           \
	 key_of(buf))
	/* x d4, o h4 (columns d-h) = x a4, o e4 = x c4, o g4 */
	uint64_t k = FLOAT_KEY(a, "first=1 ",
			       "......../......../......../......../"
			       "...x...o/......../......../........");
	ck_assert(k == FLOAT_KEY(b, "first=1 ",
				 "......../......../......../"
				 "......../x...o.../......../"
				 "......../........"));
	ck_assert(k == FLOAT_KEY(b, "first=1 ",
				 "......../......../......../"
				 "......../..x...o./......../"
				 "......../........"));
	/* and row 5 is row 4 mirrored */
	ck_assert(k == FLOAT_KEY(b, "first=1 ",
				 "......../......../......../"
				 "...x...o/......../......../"
				 "......../........"));
	/* row 3 touches no centre row: another game */
	ck_assert(k != FLOAT_KEY(b, "first=1 ",
				 "......../......../......../"
				 "......../......../...x...o/"
				 "......../........"));
	/* a lone checker on c4 spans no centre column: not d4's class */
	ck_assert(FLOAT_KEY(a, "first=2 ",
			    "......../......../......../"
			    "......../..o...../......../"
			    "......../........") !=
		  FLOAT_KEY(b, "first=2 ",
			    "......../......../......../"
			    "......../...o..../......../"
			    "......../........"));
	/* the same checkers with o to move */
	ck_assert(k != FLOAT_KEY(b, "first=2 ",
				 "......../......../......../"
				 "......../...x...o/"
				 "......../......../........"));
#undef FLOAT_KEY
}
END_TEST

/* The exchange phase: the turns taken and the locked pair are part of the
 * key, and locked squares turn with the board. */
START_TEST(test_key_exchange)
{
	const char *pat =
		"first=1 exchange board=xoxox/oxoxo/xo.ox/oxoxo/oxxox";
	char a[256], b[256];
	snprintf(a, sizeof a, "%s turns=0", pat);
	snprintf(b, sizeof b, "%s turns=2", pat);
	/* the same mover, but the game is over after two turns */
	ck_assert(key_of(a) != key_of(b));
	snprintf(a, sizeof a, "%s turns=1", pat);
	snprintf(b, sizeof b, "%s turns=1 locked=a1,b1", pat);
	ck_assert(key_of(a) != key_of(b));
	/* mirrored columns: a1,b1 become e1,d1 */
	ck_assert(key_of(b) == key_of("first=1 exchange "
				      "board=xoxox/oxoxo/xo.ox/oxoxo/xoxxo "
				      "turns=1 locked=d1,e1"));
	ck_assert(key_of(b) != key_of("first=1 exchange "
				      "board=xoxox/oxoxo/xo.ox/oxoxo/xoxxo "
				      "turns=1 locked=a1,b1"));
}
END_TEST

static Suite *suite(void)
{
	Suite *su = suite_create("checkertoe_variants");
	TCase *tc = tcase_create("variants");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_options);
	tcase_add_test(tc, test_six_by_six);
	tcase_add_test(tc, test_float_start_and_columns);
	tcase_add_test(tc, test_float_moves_are_the_layout);
	tcase_add_test(tc, test_float_scores_like_the_moved_5x5);
	tcase_add_test(tc, test_exchange_swaps_and_locks);
	tcase_add_test(tc, test_exchange_pass_then_free);
	tcase_add_test(tc, test_exchange_combines);
	tcase_add_test(tc, test_history_replays);
	tcase_add_test(tc, test_geometry_variants);
	tcase_add_test(tc, test_position_variants);
	tcase_add_test(tc, test_key_symmetries);
	tcase_add_test(tc, test_key_classes);
	tcase_add_test(tc, test_key_float);
	tcase_add_test(tc, test_key_exchange);
	suite_add_tcase(su, tc);
	return su;
}

TEST_MAIN()
