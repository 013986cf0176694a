/* test_tiptoe.c: the rules of Tiptoe on hand-built positions, and random
 * games checked against an independent, naive move generator (flood-filled
 * groups, every line walked) on the square, diagonal and hex boards. */
#include "test_util.h"

/* A session with a new game (newgame options opts) and the moves of the
 * space-separated list played in order. */
static struct session *position(const char *opts, const char *list)
{
	struct session *s = quiet_session();
	char buf[512], cmd[64];
	snprintf(cmd, sizeof cmd, "newgame tiptoe seed=1 %s", opts);
	ok(s, cmd);
	snprintf(buf, sizeof buf, "%s", list);
	char *save;
	for (char *m = strtok_r(buf, " ", &save); m;
	     m = strtok_r(NULL, " ", &save)) {
		snprintf(cmd, sizeof cmd, "play %s", m);
		ok(s, cmd);
	}
	return s;
}

static void expect_moves(const char *opts, const char *list, const char *moves)
{
	struct session *s = position(opts, list);
	ck_assert_str_eq(ok(s, "moves"), moves);
	session_free(s);
}

START_TEST(test_setup_order)
{
	/* players by placement: 1 2 2 1, then 1 2 1 2 */
	static const char *const seq[] = {"d4", "a8", "h8", "f4",
					  "e4", "b8", "a4"};
	static const char *const who[] = {"play 1", "play 2", "play 2",
					  "play 1", "play 1", "play 2",
					  "play 1", "play 2"};
	struct session *s = quiet_session();
	ok(s, "newgame tiptoe seed=3");
	ck_assert_str_eq(ok(s, "history"),
			 "\nnewgame tiptoe seed=3 size=8 diagonal=0 hex=0");
	char cmd[32];
	for (int i = 0; i < 7; i++) {
		ck_assert_str_eq(ok(s, "status"), who[i]);
		if (i < 4) {
			/* the set-up takes any empty square: 64 less those used
			 */
			const char *m = ok(s, "moves");
			int n = 1;
			for (; *m; m++)
				n += *m == ' ';
			ck_assert_int_eq(n, 64 - i);
		}
		snprintf(cmd, sizeof cmd, "play %s", seq[i]);
		ok(s, cmd);
	}
	ck_assert_str_eq(ok(s, "status"), who[7]);
	/* Black's second set-up piece needs Black, not White */
	ok(s, "newgame tiptoe");
	ok(s, "play 1 a1");
	ck_assert(strstr(bad(s, "play 1 h8"), "turn"));
	ok(s, "play 2 h8");
	ok(s, "play 2 h1");
	ok(s, "play 1 a8");
	/* White's step after its last set-up piece: a8 steps 1 */
	ck_assert_str_eq(ok(s, "moves"), "b1 a2 a7 b8");
	ck_assert_str_eq(ok(s, "status"), "play 1");
	session_free(s);
}
END_TEST

START_TEST(test_lone_piece_steps_one)
{
	/* lone d4 and g1: every square one away, on the board */
	expect_moves("", "d4 a8 h8 g1", "f1 h1 g2 d3 c4 e4 d5");
	/* Black's lone pieces a8 and h8 after White's e4 */
	expect_moves("", "d4 a8 h8 g1 e4", "a7 h7 b8 g8");
}
END_TEST

START_TEST(test_group_of_three_steps_three)
{
	/* d5 joins d4 and d6: the group of 3 steps exactly 3, never 1 or 2,
	 * and d6 cannot reach d9 (off the board) */
	expect_moves("", "d4 a1 h1 d6 d5 a2", "d1 a4 g4 a5 g5 a6 g6");
}
END_TEST

START_TEST(test_blocked_line)
{
	/* White's a1-a2 (size 2) is walled in by Black's b1 b2: only a4 */
	struct session *s = position("", "a1 b1 b2 a2");
	ck_assert_str_eq(ok(s, "moves"), "a4");
	ck_assert(strstr(bad(s, "play c1"),
			 "illegal move: no piece of White's reaches c1"));
	ck_assert(strstr(bad(s, "play c2"), "illegal move"));
	ck_assert(strstr(bad(s, "play a3"), "illegal move"));
	ok(s, "play a4");
	/* Black's b1-b2: right over c1/c2, up over b3; left is blocked */
	ck_assert_str_eq(ok(s, "moves"), "d1 d2 b4");
	session_free(s);
}
END_TEST

START_TEST(test_occupied_square_refused)
{
	struct session *s = position("", "d4 e4 a8 h1");
	ck_assert_str_eq(ok(s, "moves"), "g1 h2 d3 c4 d5");
	ck_assert_str_eq(bad(s, "play e4"), "illegal move: e4 is occupied\n\n");
	ck_assert_str_eq(bad(s, "play h1"), "illegal move: h1 is occupied\n\n");
	ck_assert_str_eq(ok(s, "history"),
			 "\nnewgame tiptoe seed=1 size=8 diagonal=0 "
			 "hex=0\nplay d4\nplay e4\nplay a8\nplay h1");
	ck_assert(strstr(bad(s, "play i1"), "not on the 8x8 board"));
	ck_assert(strstr(bad(s, "play 4d"), "not a square name"));
	session_free(s);
}
END_TEST

START_TEST(test_merging_changes_steps)
{
	/* before: d4 and f4 are lone pieces, c4 and g4 are one step away */
	expect_moves("", "d4 a8 h8 f4", "d3 f3 c4 e4 g4 d5 f5");
	/* e4 joins them into a group of 3: every step is now 3 long; f4
	 * cannot step right (g4, h4, then the edge) */
	expect_moves("", "d4 a8 h8 f4 e4 b8", "d1 e1 f1 a4 d7 e7 f7");
	/* Black's a8-b8 steps 2: d8 to the right, a6 and b6 down; the lone
	 * h8 still steps 1 */
	expect_moves("", "d4 a8 h8 f4 e4 b8 a4", "a6 b6 h7 d8 g8");
}
END_TEST

START_TEST(test_loser_has_no_move)
{
	/* after the set-up White's b4-c4 (size 2) has no line of two empty
	 * squares: White is stuck at once and Black wins */
	struct session *s = position("size=4", "c4 b2 c3 b4");
	ck_assert_str_eq(ok(s, "status"), "over 2");
	ck_assert_str_eq(ok(s, "moves"), "");
	ck_assert_str_eq(ok(s, "score"), "0 1");
	ck_assert_str_eq(bad(s, "play a4"), "the game is over\n\n");
	ck_assert(strstr(ok(s, "showboard"), "White cannot place"));
	ok(s, "undo");
	ck_assert_str_eq(ok(s, "status"), "play 1");
	ck_assert_str_eq(ok(s, "score"), "0 0");
	session_free(s);

	/* White's step d2 leaves Black's c4-d4 (size 2) without a move */
	s = position("size=5", "a4 d4 c4 c2");
	ck_assert_str_eq(ok(s, "status"), "play 1");
	ok(s, "play d2");
	ck_assert_str_eq(ok(s, "status"), "over 1");
	ck_assert_str_eq(ok(s, "score"), "1 0");
	session_free(s);
}
END_TEST

START_TEST(test_diagonal)
{
	/* orthogonal rules: d4 and e5 are two lone pieces */
	expect_moves("", "d4 a8 h8 e5", "d3 c4 e4 d5 f5 e6");
	/* diagonal: they form a group of 2 stepping 2 in 8 directions; d4's
	 * step up-right is blocked by e5 and e5's down-left by d4 */
	expect_moves("diagonal", "d4 a8 h8 e5",
		     "b2 d2 f2 e3 g3 b4 f4 c5 g5 b6 d6 c7 e7 g7");
	/* Black's corners step 1 diagonally too */
	expect_moves("diagonal", "d4 a8 h8 e5 e3", "a7 b7 g7 h7 b8 g8");
	struct session *s = quiet_session();
	ck_assert(strstr(bad(s, "newgame tiptoe hex diagonal"),
			 "cannot be combined"));
	ok(s, "newgame tiptoe diagonal size=6 seed=1");
	ck_assert_str_eq(ok(s, "history"),
			 "\nnewgame tiptoe seed=1 size=6 diagonal=1 hex=0");
	session_free(s);
}
END_TEST

START_TEST(test_hex)
{
	struct session *s = quiet_session();
	/* side 3: 19 cells, axial (q, r) named column q+3, row r+3 */
	ok(s, "newgame tiptoe hex size=3 seed=1");
	ck_assert_str_eq(ok(s, "moves"), "c1 d1 e1 b2 c2 d2 e2 a3 b3 c3 d3 e3 "
					 "a4 b4 c4 d4 a5 b5 c5");
	ck_assert(strstr(bad(s, "play a1"),
			 "not on the hexagonal board of side 3"));
	ck_assert(strstr(bad(s, "play e5"), "not on the hexagonal board"));
	ck_assert(strstr(bad(s, "play f3"), "not on the hexagonal board"));
	ck_assert_str_eq(ok(s, "history"),
			 "\nnewgame tiptoe seed=1 size=3 diagonal=0 hex=1");
	ck_assert(strstr(bad(s, "newgame tiptoe hex size=14"), "side"));
	ck_assert(strstr(bad(s, "newgame tiptoe hex size=1"), "side"));
	ok(s, "newgame tiptoe hex size=2");
	ck_assert_str_eq(ok(s, "moves"), "b1 c1 a2 b2 c2 a3 b3");
	session_free(s);

	/* White's c3-d3 (size 2) steps 2 along the 6 lines: not onto Black's
	 * e1 (along (+1,-1)) or a5 (along (-1,+1)), nor off the board */
	expect_moves("hex size=3", "c3 a5 e1 d3", "c1 d1 a3 b5 c5");
	/* lone pieces step to their 6 neighbours: a5 has 3 on the board;
	 * e1's (-1,+1) neighbour d2 is one of them */
	expect_moves("hex size=3", "c3 a5 e1 d3 c5", "d1 d2 e2 a4 b4 b5");
}
END_TEST

/* ---- random games against a naive generator ---- */

struct naive {
	int n, hex, nd; /* span of the grid; hexagonal; directions */
	int dir[8][2];
	int cell[26][26]; /* 0 empty, 1 or 2 a piece, -1 not on the board */
};

static void naive_init(struct naive *b, int size, int diagonal, int hex)
{
	static const int d8[8][2] = {{1, 0}, {-1, 0},  {0, 1},  {0, -1},
				     {1, 1}, {-1, -1}, {1, -1}, {-1, 1}};
	memset(b, 0, sizeof *b);
	b->hex = hex;
	b->n = hex ? 2 * size - 1 : size;
	b->nd = hex ? 6 : diagonal ? 8 : 4;
	for (int i = 0; i < 8; i++)
		b->dir[i][0] = d8[i][0], b->dir[i][1] = d8[i][1];
	if (hex) /* (+1, -1) and (-1, +1), not (1, 1) and (-1, -1) */
		for (int i = 4; i < 6; i++)
			b->dir[i][0] = d8[i + 2][0],
			b->dir[i][1] = d8[i + 2][1];
	for (int y = 0; y < 26; y++)
		for (int x = 0; x < 26; x++) {
			int q = x - (size - 1), r = y - (size - 1);
			int on = x < b->n && y < b->n &&
				 (!hex ||
				  (q + r <= size - 1 && q + r >= 1 - size));
			b->cell[x][y] = on ? 0 : -1;
		}
}

static int naive_at(const struct naive *b, int x, int y)
{
	if (x < 0 || y < 0 || x >= 26 || y >= 26)
		return -1;
	return b->cell[x][y];
}

/* The size of the group at (x, y), by a flood fill from scratch. */
static int naive_group(const struct naive *b, int x, int y)
{
	static int seen[26][26], stack[676][2];
	memset(seen, 0, sizeof seen);
	int p = b->cell[x][y], n = 0, top = 0;
	stack[top][0] = x, stack[top][1] = y, top++;
	seen[x][y] = 1;
	while (top) {
		top--;
		int cx = stack[top][0], cy = stack[top][1];
		n++;
		for (int i = 0; i < b->nd; i++) {
			int nx = cx + b->dir[i][0], ny = cy + b->dir[i][1];
			if (naive_at(b, nx, ny) == p && !seen[nx][ny]) {
				seen[nx][ny] = 1;
				stack[top][0] = nx, stack[top][1] = ny, top++;
			}
		}
	}
	return n;
}

/* The legal moves of player p after `placed` pieces, as the engine writes
 * them (rows from 1, each from a).  Returns how many. */
static int naive_moves(const struct naive *b, int p, int placed, char *out)
{
	int ok_at[26][26] = {{0}}, count = 0;
	for (int x = 0; x < b->n; x++)
		for (int y = 0; y < b->n; y++) {
			if (b->cell[x][y] == 0 && placed < 4)
				ok_at[x][y] = 1;
			if (b->cell[x][y] != p || placed < 4)
				continue;
			int size = naive_group(b, x, y);
			for (int i = 0; i < b->nd; i++) {
				int k = 1;
				for (; k <= size; k++)
					if (naive_at(b, x + k * b->dir[i][0],
						     y + k * b->dir[i][1]) != 0)
						break;
				if (k > size)
					ok_at[x + size * b->dir[i][0]]
					     [y + size * b->dir[i][1]] = 1;
			}
		}
	out[0] = '\0';
	for (int y = 0; y < b->n; y++)
		for (int x = 0; x < b->n; x++)
			if (ok_at[x][y]) {
				char name[8];
				square_name(x, y, name);
				if (count++)
					strcat(out, " ");
				strcat(out, name);
			}
	return count;
}

/* The engine's moves() list as text. */
static void listed(const struct game *g, const void *st, struct move *list,
		   char *out)
{
	int n = g->moves(st, list);
	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		char buf[MOVE_TEXT_MAX];
		g->format(st, &list[i], buf);
		if (i)
			strcat(out, " ");
		strcat(out, buf);
	}
}

/* Whether name is one of the words of the space-separated list. */
static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; (p = strstr(p, name)) != NULL; p++)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}

static void random_games(const char *opts, int size, int diagonal, int hex,
			 int games)
{
	const struct game *g = game_find("tiptoe");
	struct move *list = malloc(sizeof *list * (size_t)g->max_moves);
	static char want[676 * 4], got[676 * 4], seq[676][8];
	struct naive b;
	struct rng r;
	rng_seed(&r, 12345);
	for (int game = 0; game < games; game++) {
		void *st = new_state(g, opts, 1);
		naive_init(&b, size, diagonal, hex);
		for (int placed = 0;; placed++) {
			int p = placed < 4
					? (placed == 1 || placed == 2 ? 2 : 1)
					: (placed % 2 ? 2 : 1);
			int n = naive_moves(&b, p, placed, want);
			listed(g, st, list, got);
			ck_assert_str_eq(got, want);
			struct game_status gs = g->status(st);
			if (n == 0) {
				ck_assert_int_eq(gs.phase, GAME_OVER);
				ck_assert_int_eq(gs.player, 3 - p);
				struct move mv;
				ck_assert_int_eq(g->random_move(st, &r, &mv),
						 -1);
				/* replaying the game gives the same bytes */
				void *again = new_state(g, opts, 7);
				for (int i = 0; i < placed; i++)
					play_text(g, again, seq[i]);
				ck_assert(memcmp(again, st, g->state_size) ==
					  0);
				free(again);
				break;
			}
			ck_assert_int_eq(gs.phase, GAME_PLAY);
			ck_assert_int_eq(gs.player, p);
			/* every empty cell parses exactly when it is listed */
			for (int x = 0; x < b.n; x++)
				for (int y = 0; y < b.n; y++) {
					char name[8], err[GAME_ERR_MAX];
					struct move mv;
					square_name(x, y, name);
					ck_assert_int_eq(g->parse(st, name, &mv,
								  err) == 0,
							 in_list(want, name));
				}
			struct move mv;
			ck_assert_int_eq(g->random_move(st, &r, &mv), 0);
			g->format(st, &mv, seq[placed]);
			ck_assert(in_list(want, seq[placed]));
			g->play(st, &mv);
			int x, y;
			const char *t = seq[placed];
			ck_assert(square_read(&t, &x, &y) == 0);
			b.cell[x][y] = p;
		}
		free(st);
	}
	free(list);
}

START_TEST(test_random_square)
{
	random_games("size=6", 6, 0, 0, 60);
	random_games("size=9", 9, 0, 0, 10);
	random_games("size=26", 26, 0, 0, 1);
}
END_TEST

START_TEST(test_random_diagonal)
{
	random_games("size=5 diagonal", 5, 1, 0, 60);
	random_games("size=11 diagonal", 11, 1, 0, 5);
}
END_TEST

START_TEST(test_random_hex)
{
	random_games("hex size=3", 3, 0, 1, 60);
	random_games("hex size=6", 6, 0, 1, 10);
	random_games("hex size=13", 13, 0, 1, 1);
}
END_TEST

/* playout() plays, draw for draw, the games a loop of random_move and
 * play gives (a uniformly random legal placement each ply), and stops
 * after max_plies. */
START_TEST(test_playout_is_random_moves)
{
	static const char *const opts[] = {"size=8", "size=5 diagonal",
					   "hex size=4", "size=13", "size=4"};
	const struct game *g = game_find("tiptoe");
	for (size_t v = 0; v < sizeof opts / sizeof opts[0]; v++)
		for (int game = 0; game < 30; game++) {
			void *a = new_state(g, opts[v], 1);
			void *b = new_state(g, opts[v], 1);
			struct rng ra, rb;
			rng_seed(&ra, (uint64_t)game);
			rng_seed(&rb, (uint64_t)game);
			int cut = game % 3 ? 1 << 30 : 1 + game % 7, plies = 0;
			int n = game_search(g)->playout(a, &ra, cut);
			struct move mv;
			while (plies < cut && g->status(b).phase != GAME_OVER) {
				ck_assert_int_eq(g->random_move(b, &rb, &mv),
						 0);
				g->play(b, &mv);
				plies++;
			}
			ck_assert_int_eq(n, plies);
			ck_assert(memcmp(a, b, g->state_size) == 0);
			ck_assert_int_eq(rng_next(&ra), rng_next(&rb));
			free(a);
			free(b);
		}
}
END_TEST

/* The state is a function of the position: the same pieces placed in
 * another order (groups merged in another order) give the same bytes. */
START_TEST(test_transposition_same_bytes)
{
	static const char *const orders[2][6] = {
		{"d4", "a8", "h8", "d5", "d7", "a7"},
		{"d5", "h8", "a8", "d4", "d7", "a7"},
	};
	const struct game *g = game_find("tiptoe");
	void *st[2];
	for (int k = 0; k < 2; k++) {
		st[k] = new_state(g, "diagonal=0", 1);
		for (int i = 0; i < 6; i++)
			play_text(g, st[k], orders[k][i]);
	}
	ck_assert(memcmp(st[0], st[1], g->state_size) == 0);
	free(st[0]);
	free(st[1]);
}
END_TEST

START_TEST(test_showboard)
{
	struct session *s = position("size=5", "c3 a1 e5 b2");
	const char *b = ok(s, "showboard");
	ck_assert(strstr(b, " 3  . * O * .\n"));
	ck_assert(strstr(b, " 1  X * . . .\n"));
	ck_assert(strstr(b, "    a b c d e\n"));
	ck_assert(strstr(b, "White (player 1) to place: 6 places, marked *"));
	session_free(s);
	/* side 3: rows of 3, 4, 5, 4, 3 cells, each half a cell right of the
	 * row below; column letters at the upper ends of the columns */
	s = position("hex size=3", "c3 a5 e1 d3");
	b = ok(s, "showboard");
	ck_assert(strstr(b, "\n"
			    "       a b c\n"
			    " 5    X * * d\n"
			    " 4   . . . . e\n"
			    " 3  * . O O .\n"
			    " 2   . . . .\n"
			    " 1    * * X\n"));
	ck_assert(strstr(b, "White (player 1) to place: 5 places, marked *"));
	session_free(s);
}
END_TEST

/* ---- positions and geometry ---- */

START_TEST(test_position_round_trip)
{
	/* a 5x5 game after the set-up and one step, written and read back */
	struct session *s = position("size=5", "c3 a1 e5 b2 b3");
	static const char *const want = "tiptoe size=5 diagonal=0 hex=0 "
					"board=....x/...../.oo../.o.../x....";
	ck_assert_str_eq(ok(s, "position"), want);
	char moves[256], board[1024], line[256];
	KEEP(moves, ok(s, "moves"));
	KEEP(board, ok(s, "showboard"));
	snprintf(line, sizeof line, "newgame %s", want);
	struct session *t = quiet_session();
	ok(t, line);
	ck_assert_str_eq(ok(t, "position"), want);
	ck_assert_str_eq(ok(t, "moves"), moves);
	ck_assert_str_eq(ok(t, "showboard"), board);
	ck_assert_str_eq(ok(t, "status"), "play 2");
	/* history starts from the position, not from an empty board */
	ok(t, "play a2");
	ck_assert(strstr(ok(t, "history"), "board=....x/...../.oo../.o.../"
					   "x....\nplay a2"));
	session_free(t);
	session_free(s);

	/* the set-up order follows from the counts: 1 White and 2 Black is
	 * White's last set-up piece, placed anywhere */
	s = quiet_session();
	ok(s, "newgame tiptoe size=4 board=..../x.x./..../o...");
	ck_assert_str_eq(ok(s, "status"), "play 1");
	ck_assert(strstr(ok(s, "showboard"), "set-up piece 4 of 4"));
	/* a finished game reads back finished: White's b4-c4 cannot step */
	ok(s, "newgame tiptoe size=4 board=.oo./..x./.x../....");
	ck_assert_str_eq(ok(s, "status"), "over 2");
	ck_assert_str_eq(ok(s, "moves"), "");
	ck_assert_str_eq(ok(s, "score"), "0 1");
	/* hex rows hold only their cells: 2, 3 and 2 on side 2 */
	ok(s, "newgame tiptoe hex size=2 board=o./.x./..");
	ck_assert_str_eq(ok(s, "position"),
			 "tiptoe size=2 diagonal=0 hex=1 board=o./.x./..");
	ck_assert_str_eq(ok(s, "status"), "play 2");
	ck_assert_str_eq(ok(s, "moves"), "b1 c1 a2 c2 b3");
	session_free(s);
}
END_TEST

START_TEST(test_position_refused)
{
	static const char *const cases[][2] = {
		{"size=4 board=..../..../....", "3 rows, but the 4x4 board "
						"has 4"},
		{"size=4 board=..../..../....//", "5 rows"},
		{"size=4 board=", "1 row, but the 4x4 board has 4"},
		{"size=4 board=..../...../..../....", "row 3 has 5 cells, but "
						      "on the 4x4 board it "
						      "has 4"},
		{"size=4 board=..../..../..../...", "row 1 has 3 cells"},
		{"size=4 board=w.../..../..../....", "'w' in row 4 is no "
						     "cell: write o for "
						     "White, x for Black"},
		{"size=4 board=oo../..../..../....", "2 White and 0 Black "
						     "pieces, which no turn "
						     "order leaves"},
		{"size=4 board=oo../x.../..../....", "2 White and 1 Black"},
		{"size=4 board=x.../..../..../....", "0 White and 1 Black"},
		{"size=4 board=o.../xxx./..../....", "1 White and 3 Black"},
		{"hex size=2 board=.../.../..", "row 3 has 3 cells, but on "
						"the hexagonal board of side "
						"2 it has 2"},
		{"hex size=2 board=../.../.", "row 1 has 1 cells"},
		{"hex diagonal board=../.../..", "cannot be combined"},
		{"size=27 board=.", "size"},
	};
	struct session *s = quiet_session();
	ok(s, "newgame tiptoe size=5");
	ok(s, "play c3");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char line[256];
		snprintf(line, sizeof line, "newgame tiptoe %s", cases[i][0]);
		const char *why = bad(s, line);
		ck_assert_msg(strstr(why, cases[i][1]), "%s: %s", line, why);
		/* the game in progress is kept */
		ck_assert_str_eq(ok(s, "position"),
				 "tiptoe size=5 diagonal=0 hex=0 "
				 "board=...../...../..o../...../.....");
	}
	session_free(s);
}
END_TEST

START_TEST(test_geometry)
{
	struct session *s = quiet_session();
	ok(s, "newgame tiptoe size=4");
	const char *g = ok(s, "geometry");
	ck_assert(!strncmp(g,
			   "\ncell a1 0 0\ncell b1 1 0\ncell c1 2 0\n"
			   "cell d1 3 0\ncell a2 0 1\n",
			   43));
	ck_assert(strstr(g, "\ncell d4 3 3\nshape square 4\nlinks "
			    "orthogonal"));
	ok(s, "newgame tiptoe size=6 diagonal");
	g = ok(s, "geometry");
	ck_assert(strstr(g, "\ncell f6 5 5\nshape square 6\nlinks diagonal"));
	/* hex cell (q, r) at (q + r/2, r * sqrt(3)/2): b2 is the centre */
	ok(s, "newgame tiptoe hex size=2");
	ck_assert_str_eq(ok(s, "geometry"), "\n"
					    "cell b1 -0.5 -0.866\n"
					    "cell c1 0.5 -0.866\n"
					    "cell a2 -1 0\n"
					    "cell b2 0 0\n"
					    "cell c2 1 0\n"
					    "cell a3 -0.5 0.866\n"
					    "cell b3 0.5 0.866\n"
					    "shape hex 2\n"
					    "links hex");
	/* the shape only: pieces change nothing */
	ok(s, "play b2");
	ck_assert(strstr(ok(s, "geometry"), "cell b2 0 0\n"));
	session_free(s);
}
END_TEST

/* ---- key(): one key for each class of symmetric positions ---- */

/* The cells of a board as the test numbers them: (x, y) on the grid of
 * names, cube coordinates (a, b, -a-b) about the centre on a hexagon. */
struct cells {
	int n, hex, side, x[169], y[169];
};

static void cells_of(struct cells *c, int hex, int side)
{
	int m = side - 1, w = hex ? 2 * side - 1 : side;
	c->n = 0, c->hex = hex, c->side = side;
	for (int y = w - 1; y >= 0; y--) /* position's order: top row first */
		for (int x = 0; x < w; x++)
			if (!hex || abs((x - m) + (y - m)) <= m)
				c->x[c->n] = x, c->y[c->n++] = y;
}

/* The index of cell (x, y), or -1. */
static int cell_index(const struct cells *c, int x, int y)
{
	for (int i = 0; i < c->n; i++)
		if (c->x[i] == x && c->y[i] == y)
			return i;
	return -1;
}

/* Image k of cell i: on a square, k's bits swap x and y, then mirror x,
 * then mirror y (8); on a hexagon, a permutation of the cube coordinates
 * (k % 6) and a sign (k / 6) (12).  Written apart from the engine's. */
static int image(const struct cells *c, int i, int k)
{
	int x = c->x[i], y = c->y[i];
	if (!c->hex) {
		int m = c->side - 1, t;
		if (k & 1)
			t = x, x = y, y = t;
		if (k & 2)
			x = m - x;
		if (k & 4)
			y = m - y;
		return cell_index(c, x, y);
	}
	static const int perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
				       {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
	int m = c->side - 1, cube[3] = {x - m, y - m, -(x - m) - (y - m)};
	int sign = k / 6 ? -1 : 1;
	int a = sign * cube[perm[k % 6][0]], b = sign * cube[perm[k % 6][1]];
	return cell_index(c, a + m, b + m);
}

/* The board= value of a position given one letter a cell. */
static void board_text(const struct cells *c, const char *letters, char *out)
{
	int k = 0;
	for (int i = 0; i < c->n; i++) {
		if (i && c->y[i] != c->y[i - 1])
			out[k++] = '/';
		out[k++] = letters[i];
	}
	out[k] = '\0';
}

/* Every position with the pieces of `pieces` ("ox": White then Black) on
 * distinct cells: two positions get equal keys exactly when one is an
 * image of the other (the test's own canonical form: the least board text
 * among the images). */
static void key_classes(const char *opts, int hex, int side, const char *pieces)
{
	const struct game *g = game_find("tiptoe");
	struct cells c;
	cells_of(&c, hex, side);
	int np = (int)strlen(pieces), at[3] = {0, 0, 0}, count = 0;
	int nsym = hex ? 12 : 8;
	static char canon[8000][256];
	static uint64_t keys[8000];
	for (;;) {
		int distinct = 1;
		for (int i = 0; i < np; i++)
			for (int j = 0; j < i; j++)
				distinct &= at[i] != at[j];
		if (distinct) {
			char letters[200], text[256], best[256];
			best[0] = '\0';
			for (int k = 0; k < nsym; k++) {
				memset(letters, '.', (size_t)c.n);
				for (int i = 0; i < np; i++)
					letters[image(&c, at[i], k)] =
						pieces[i];
				letters[c.n] = '\0';
				board_text(&c, letters, text);
				if (!best[0] || strcmp(text, best) < 0)
					snprintf(best, sizeof best, "%s", text);
				if (k == 0) {
					char o[300];
					snprintf(o, sizeof o, "%s board=%s",
						 opts, text);
					void *st = new_state(g, o, 1);
					keys[count] = g->key(st);
					free(st);
				}
			}
			snprintf(canon[count++], sizeof canon[0], "%s", best);
		}
		int i = 0;
		while (i < np && ++at[i] == c.n)
			at[i++] = 0;
		if (i == np)
			break;
	}
	int classes = 0;
	for (int a = 0; a < count; a++) {
		int first = 1;
		for (int b = 0; b < count; b++) {
			int same = !strcmp(canon[a], canon[b]);
			ck_assert_msg((keys[a] == keys[b]) == same,
				      "%s: %s and %s", opts, canon[a],
				      canon[b]);
			if (same && b < a)
				first = 0;
		}
		classes += first;
	}
	/* the symmetries do fold: fewer classes than positions */
	ck_assert_int_lt(classes, count);
}

START_TEST(test_key_folds_symmetries)
{
	key_classes("size=5", 0, 5, "ox");
	key_classes("size=5 diagonal", 0, 5, "ox");
	key_classes("size=4", 0, 4, "oxx");
	key_classes("hex size=3", 1, 3, "ox");
	key_classes("hex size=2", 1, 2, "oxx");
	/* the same pieces on another kind of board: another key */
	const struct game *g = game_find("tiptoe");
	void *a = new_state(g, "size=5 board=..o../...../...../...../.....", 1);
	void *b = new_state(
		g, "size=5 diagonal board=..o../...../...../...../.....", 1);
	ck_assert(g->key(a) != g->key(b));
	free(a);
	free(b);
}
END_TEST

/* turn_info counts the four set-up pieces, by whom they are due (1 2 2 1),
 * then says place; the end names the winner, whose one unit is the win. */
START_TEST(test_turn_info_and_scoring)
{
	static const char *const due[] = {
		"phase setup 1 4\nplayer 1\nprompt White (player 1): place "
		"set-up piece 1 of 4 on any empty square",
		"phase setup 2 4\nplayer 2\nprompt Black (player 2): place "
		"set-up piece 2 of 4 on any empty square",
		"phase setup 3 4\nplayer 2\nprompt Black (player 2): place "
		"set-up piece 3 of 4 on any empty square",
		"phase setup 4 4\nplayer 1\nprompt White (player 1): place "
		"set-up piece 4 of 4 on any empty square",
	};
	static const char *const seq[] = {"a4", "d4", "c4", "c2"};
	struct session *s = position("size=5", "");
	ck_assert_str_eq(ok(s, "game_info"),
			 "game tiptoe\ntitle Tiptoe\nplayers 2\n"
			 "player 1 name white colour white mark O\n"
			 "player 2 name black colour black mark X");
	for (int i = 0; i < 4; i++) {
		char cmd[16];
		ck_assert_str_eq(ok(s, "turn_info"), due[i]);
		ck_assert_str_eq(ok(s, "scoring"), "");
		snprintf(cmd, sizeof cmd, "play %s", seq[i]);
		ok(s, cmd);
	}
	ck_assert_str_eq(ok(s, "turn_info"),
			 "phase place\nplayer 1\nprompt White (player 1): "
			 "place a piece exactly as many squares from one of "
			 "yours as its group has pieces");
	ok(s, "play d2");
	ck_assert_str_eq(ok(s, "turn_info"),
			 "phase over\nprompt game over: Black cannot place, "
			 "White (player 1) wins");
	ck_assert_str_eq(ok(s, "scoring"), "unit win player 1 points 1");
	session_free(s);
	s = position("hex size=3", "");
	ck_assert(strstr(ok(s, "turn_info"), "on any empty cell"));
	session_free(s);
}
END_TEST

static Suite *suite(void)
{
	Suite *su = suite_create("tiptoe");
	TCase *tc = tcase_create("rules");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_setup_order);
	tcase_add_test(tc, test_lone_piece_steps_one);
	tcase_add_test(tc, test_group_of_three_steps_three);
	tcase_add_test(tc, test_blocked_line);
	tcase_add_test(tc, test_occupied_square_refused);
	tcase_add_test(tc, test_merging_changes_steps);
	tcase_add_test(tc, test_loser_has_no_move);
	tcase_add_test(tc, test_diagonal);
	tcase_add_test(tc, test_hex);
	tcase_add_test(tc, test_random_square);
	tcase_add_test(tc, test_random_diagonal);
	tcase_add_test(tc, test_random_hex);
	tcase_add_test(tc, test_playout_is_random_moves);
	tcase_add_test(tc, test_transposition_same_bytes);
	tcase_add_test(tc, test_showboard);
	tcase_add_test(tc, test_position_round_trip);
	tcase_add_test(tc, test_position_refused);
	tcase_add_test(tc, test_geometry);
	tcase_add_test(tc, test_key_folds_symmetries);
	tcase_add_test(tc, test_turn_info_and_scoring);
	suite_add_tcase(su, tc);
	return su;
}

TEST_MAIN()
