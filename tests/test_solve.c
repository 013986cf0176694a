/* test_solve.c: the exact solver (games/ai/solve.c) and the opening book.
 *
 * The values here were counted by hand (each test says how), or come from
 * the theory of tic-tac-toe, or from a plain search written here that
 * shares nothing with the solver but the game interface. */
#include "test_util.h"

#include "../games/ai/book.h"
#include "../games/ai/solve.h"
#include "../games/util/rng.h"

/* The solver's context (solve.h, struct solve_ctx) used here:
 * one for the whole program, as a player would keep. */
static struct solve_ctx *tctx(void)
{
	static struct solve_ctx *c;
	if (!c && !(c = solve_ctx_new()))
		abort();
	return c;
}

/* The opening book's positions, as a player keeps them. */
static struct book *tbook(void)
{
	static struct book *b;
	if (!b && !(b = book_new()))
		abort();
	return b;
}

#define WIN(m) (SOLVE_RESULT + (m))
#define LOSS(m) (-SOLVE_RESULT - (m))

/* ---- tic-tac-toe: a game of the test's own, small enough to know ----
 *
 * Cells 0..8 are a1 b1 c1 a2 .. c3; X (player 1) starts.  Two versions:
 * one without key() (the solver hashes the state's bytes) and one whose
 * key folds the board's 8 symmetries. */
struct ttt {
	uint8_t cell[9]; /* 0 empty, 1 X, 2 O */
	uint8_t placed, winner;
};

static const uint8_t ttt_lines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8},
					{0, 3, 6}, {1, 4, 7}, {2, 5, 8},
					{0, 4, 8}, {2, 4, 6}};

static int ttt_init(void *st, struct game_options *o, uint64_t seed, char *err)
{
	(void)st, (void)o, (void)seed, (void)err;
	return 0;
}

static int ttt_players(const void *st)
{
	(void)st;
	return 2;
}

static struct game_status ttt_status(const void *st)
{
	const struct ttt *s = st;
	if (s->winner || s->placed == 9)
		return (struct game_status){GAME_OVER, s->winner};
	return (struct game_status){GAME_PLAY, 1 + s->placed % 2};
}

static int ttt_moves(const void *st, struct move *out)
{
	const struct ttt *s = st;
	int n = 0;
	if (ttt_status(st).phase != GAME_PLAY)
		return 0;
	for (int c = 0; c < 9; c++)
		if (!s->cell[c])
			out[n++] = (struct move){{(uint64_t)c}};
	return n;
}

static void ttt_play(void *st, const struct move *mv)
{
	struct ttt *s = st;
	int p = 1 + s->placed % 2;
	s->cell[mv->w[0]] = (uint8_t)p;
	s->placed++;
	for (int i = 0; i < 8; i++)
		if (s->cell[ttt_lines[i][0]] == p &&
		    s->cell[ttt_lines[i][1]] == p &&
		    s->cell[ttt_lines[i][2]] == p)
			s->winner = (uint8_t)p;
}

static int ttt_parse(const void *st, const char *text, struct move *mv,
		     char *err)
{
	const struct ttt *s = st;
	if (strlen(text) != 2 || text[0] < 'a' || text[0] > 'c' ||
	    text[1] < '1' || text[1] > '3')
		return game_fail(err, "not a square");
	int c = (text[1] - '1') * 3 + text[0] - 'a';
	if (s->cell[c])
		return game_fail(err, "occupied");
	*mv = (struct move){{(uint64_t)c}};
	return 0;
}

static void ttt_format(const void *st, const struct move *mv, char *buf)
{
	(void)st;
	sprintf(buf, "%c%d", 'a' + (int)(mv->w[0] % 3),
		1 + (int)(mv->w[0] / 3));
}

static void ttt_score(const void *st, int *points)
{
	const struct ttt *s = st;
	points[0] = s->winner == 1;
	points[1] = s->winner == 2;
}

/* The smallest base-3 number of the 8 images of the board. */
static uint64_t ttt_key(const void *st)
{
	const struct ttt *s = st;
	uint64_t best = UINT64_MAX;
	for (int t = 0; t < 8; t++) {
		uint64_t k = 0;
		for (int c = 0; c < 9; c++) {
			int x = c % 3, y = c / 3, u = t & 4 ? y : x,
			    v = t & 4 ? x : y;
			if (t & 1)
				u = 2 - u;
			if (t & 2)
				v = 2 - v;
			k = k * 3 + s->cell[v * 3 + u];
		}
		if (k < best)
			best = k;
	}
	return best;
}

static const struct game ttt_plain = {
	.name = "ttt",
	.state_size = sizeof(struct ttt),
	.max_moves = 9,
	.init = ttt_init,
	.players = ttt_players,
	.status = ttt_status,
	.moves = ttt_moves,
	.play = ttt_play,
	.parse = ttt_parse,
	.format = ttt_format,
	.score = ttt_score,
};

static const struct game ttt_sym = {
	.name = "ttt-sym",
	.state_size = sizeof(struct ttt),
	.max_moves = 9,
	.init = ttt_init,
	.players = ttt_players,
	.status = ttt_status,
	.moves = ttt_moves,
	.play = ttt_play,
	.parse = ttt_parse,
	.format = ttt_format,
	.score = ttt_score,
	.key = ttt_key,
};

/* ---- helpers ---- */

/* A state of g: the set-up opts, then the moves of `line`. */
static void *at(const struct game *g, const char *opts, const char *line)
{
	void *st = g->init == ttt_init ? calloc(1, g->state_size)
				       : new_state(g, opts, 1);
	ck_assert(st != NULL);
	play_line(g, st, line);
	return st;
}

/* The exact value, for the mover of st, of the move written mv. */
static int move_value(const struct game *g, const void *st, const char *mv,
		      long *nodes)
{
	unsigned char *c = malloc(g->state_size);
	memcpy(c, st, g->state_size);
	play_text(g, c, mv);
	struct game_status cs = g->status(c);
	int me = g->status(st).player, v;
	if (cs.phase == GAME_OVER) {
		int pts[GAME_MAX_PLAYERS] = {0};
		g->score(c, pts);
		int r = cs.player == me ? 1 : cs.player ? -1 : 0;
		v = r * SOLVE_RESULT + pts[me - 1] - pts[2 - me];
		if (nodes)
			*nodes = 0;
	} else {
		struct solve_job job = {.want = SOLVE_MARGIN};
		struct solve_bound b;
		ck_assert(solve_position(tctx(), g, c, &job, &b));
		ck_assert_int_eq(b.lo, b.hi);
		v = cs.player == me ? b.lo : -b.lo;
		if (nodes)
			*nodes = job.nodes;
	}
	free(c);
	return v;
}

/* The moves of st with solve_moves's bounds, as "a1 [lo,hi]" lines. */
static int solve_all(const struct game *g, const void *st, enum solve_want want,
		     struct move *list, struct solve_bound *b, long *nodes)
{
	int n = g->moves(st, list);
	struct solve_job job = {.want = want};
	ck_assert(solve_moves(tctx(), g, st, list, n, &job, b));
	if (nodes)
		*nodes = job.nodes;
	return n;
}

/* The bounds solve_moves gave the move written text. */
static struct solve_bound bound_of(const struct game *g, const void *st,
				   const struct move *list,
				   const struct solve_bound *b, int n,
				   const char *text)
{
	char buf[MOVE_TEXT_MAX];
	for (int i = 0; i < n; i++) {
		g->format(st, &list[i], buf);
		if (!strcmp(buf, text))
			return b[i];
	}
	ck_abort_msg("%s is not a move here", text);
	return b[0];
}

/* ---- tic-tac-toe: the theory ---- */

/* Every first move of tic-tac-toe draws; after X takes a corner, only the
 * centre saves O; after X takes the centre, O on an edge loses. */
START_TEST(tictactoe_by_the_theory)
{
	const struct game *games[] = {&ttt_plain, &ttt_sym};
	struct move list[9];
	struct solve_bound b[9];
	for (int k = 0; k < 2; k++) {
		const struct game *g = games[k];
		solve_forget(tctx());
		void *st = at(g, "", "");
		int n = solve_all(g, st, SOLVE_MARGIN, list, b, NULL);
		ck_assert_int_eq(n, 9);
		for (int i = 0; i < n; i++)
			ck_assert_msg(b[i].lo == 0 && b[i].hi == 0,
				      "%s move %d: [%d, %d]", g->name, i,
				      b[i].lo, b[i].hi);
		free(st);
		st = at(g, "", "a1");
		n = solve_all(g, st, SOLVE_WDL, list, b, NULL);
		for (int i = 0; i < n; i++) {
			char buf[8];
			g->format(st, &list[i], buf);
			int want = strcmp(buf, "b2") ? -1 : 0;
			ck_assert_msg(solve_result(b[i].lo) == want &&
					      solve_result(b[i].hi) == want,
				      "%s a1 %s: [%d, %d]", g->name, buf,
				      b[i].lo, b[i].hi);
		}
		free(st);
		st = at(g, "", "b2 b1");
		n = solve_all(g, st, SOLVE_MARGIN, list, b, NULL);
		/* X wins by one line: some move is worth exactly that */
		int best = -SOLVE_INF;
		for (int i = 0; i < n; i++)
			if (b[i].lo > best)
				best = b[i].lo;
		ck_assert_int_eq(best, WIN(1));
		free(st);
	}
}
END_TEST

/* The same position reached in another order is found in the table, which
 * is kept from one call to the next: one node settles it. */
START_TEST(transpositions_are_found_in_the_table)
{
	const struct game *g = &ttt_plain;
	solve_forget(tctx());
	void *a = at(g, "", "a1 b2 c3"), *b = at(g, "", "c3 b2 a1");
	ck_assert(memcmp(a, b, g->state_size) == 0);
	struct solve_job job = {.want = SOLVE_MARGIN};
	struct solve_bound va, vb;
	ck_assert(solve_position(tctx(), g, a, &job, &va));
	ck_assert_int_gt(job.nodes, 10);
	ck_assert(solve_position(tctx(), g, b, &job, &vb));
	ck_assert_int_le(job.nodes, 1);
	ck_assert(va.lo == vb.lo && va.hi == vb.hi);
	/* solve_clear empties the table: the work is done again */
	solve_clear(tctx());
	ck_assert(solve_position(tctx(), g, b, &job, &vb));
	ck_assert_int_gt(job.nodes, 10);
	free(a);
	free(b);
}
END_TEST

/* With a key that folds the board's symmetries, a mirror image is found
 * in the table, and the whole game takes fewer nodes, with the same
 * values. */
START_TEST(symmetry_through_the_key)
{
	struct move list[9];
	struct solve_bound bp[9], bs[9];
	long plain, sym;
	solve_forget(tctx());
	void *st = at(&ttt_plain, "", "");
	int n = solve_all(&ttt_plain, st, SOLVE_MARGIN, list, bp, &plain);
	solve_forget(tctx());
	solve_all(&ttt_sym, st, SOLVE_MARGIN, list, bs, &sym);
	for (int i = 0; i < n; i++)
		ck_assert(bp[i].lo == bs[i].lo && bp[i].hi == bs[i].hi);
	ck_assert_msg(sym * 3 < plain, "nodes: %ld with the key, %ld without",
		      sym, plain);
	free(st);
	/* a1 c2 and its mirror image c1 a2 (a1-c1 swapped, across b) */
	solve_forget(tctx());
	void *a = at(&ttt_sym, "", "a1 c2"), *b = at(&ttt_sym, "", "c1 a2");
	struct solve_job job = {.want = SOLVE_MARGIN};
	struct solve_bound va, vb;
	ck_assert(solve_position(tctx(), &ttt_sym, a, &job, &va));
	ck_assert_int_gt(job.nodes, 1);
	ck_assert(solve_position(tctx(), &ttt_sym, b, &job, &vb));
	ck_assert_int_le(job.nodes, 1);
	ck_assert_int_eq(va.lo, vb.lo);
	ck_assert_int_eq(solve_key(&ttt_sym, a), solve_key(&ttt_sym, b));
	ck_assert_int_ne(solve_key(&ttt_plain, a), solve_key(&ttt_plain, b));
	free(a);
	free(b);
}
END_TEST

/* A game whose key() folds its board's symmetries gets the same: a
 * checkertoe position solved once is known in its mirror image. */
START_TEST(a_games_own_key_folds_mirror_images)
{
	const struct game *g = game_find("checkertoe");
	if (!g->key)
		return; /* until the game has one: ttt_sym stands for it */
	solve_forget(tctx());
	/* the second line is the first mirrored left to right */
	void *a = at(g, "first=1",
		     "c3 b2 d4 b4 c2 c4 b3 d3 a1 e1 a5 e5 b1 d1 a2 e2");
	void *b = at(g, "first=1",
		     "c3 d2 b4 d4 c2 c4 d3 b3 e1 a1 e5 a5 d1 b1 e2 a2");
	ck_assert_int_eq(solve_key(g, a), solve_key(g, b));
	struct solve_job job = {.want = SOLVE_MARGIN};
	struct solve_bound va, vb;
	ck_assert(solve_position(tctx(), g, a, &job, &va));
	ck_assert_int_gt(job.nodes, 1);
	ck_assert(solve_position(tctx(), g, b, &job, &vb));
	ck_assert_int_le(job.nodes, 1);
	ck_assert_int_eq(va.lo, vb.lo);
	free(a);
	free(b);
}
END_TEST

/* ---- hand-counted endgames of the real games ---- */

/* Checkertoe, X (player 1) to place with e4, c2 and c1 empty; O places
 * last and one square stays empty, counting for both:
 *
 *   5  X O X O X
 *   4  O X X O .
 *   3  X O O X O
 *   2  O X . X O
 *   1  X O . O X
 *      a b c d e
 *
 * X c2: if O takes e4 (c1 empty), X has c1-b2-a3, b2-c2-d2 and a3-b4-c5
 * (3), O has b1-c1-d1 and e2-e3-e4 (2); if O takes c1 (e4 empty), X has
 * b2-c2-d2, c2-d3-e4 and a3-b4-c5 (3), O b1-c1-d1 and e2-e3-e4 (2): +1
 * either way.  X c1: O c2 (e4 empty) leaves X c1-b2-a3 and a3-b4-c5 (2)
 * against d1-c2-b3, c2-b3-a4 and e2-e3-e4 (3): -1 (O e4 would draw 3-3).
 * X e4: O c2 (c1 empty) leaves X c1-b2-a3 and a3-b4-c5 (2) against
 * b1-c1-d1, c1-c2-c3, d1-c2-b3 and c2-b3-a4 (4): -2 (O c1: -1). */
START_TEST(checkertoe_endgame_counted_by_hand)
{
	const struct game *g = game_find("checkertoe");
	ck_assert(g != NULL);
	solve_forget(tctx());
	void *st = at(g, "first=1",
		      "a5 b5 c5 d5 e5 a4 b4 d4 c4 b3 a3 c3 d3 e3 b2 a2 d2 e2 "
		      "a1 b1 e1 d1");
	ck_assert_int_eq(g->status(st).player, 1);
	ck_assert_int_eq(move_value(g, st, "c2", NULL), WIN(1));
	ck_assert_int_eq(move_value(g, st, "c1", NULL), LOSS(1));
	ck_assert_int_eq(move_value(g, st, "e4", NULL), LOSS(2));
	struct move list[4];
	struct solve_bound b[4];
	int n = solve_all(g, st, SOLVE_MARGIN, list, b, NULL);
	ck_assert_int_eq(n, 3);
	struct solve_bound c2 = bound_of(g, st, list, b, n, "c2");
	ck_assert(c2.lo == WIN(1) && c2.hi == WIN(1));
	ck_assert_int_lt(bound_of(g, st, list, b, n, "c1").hi, WIN(1));
	ck_assert_int_lt(bound_of(g, st, list, b, n, "e4").hi, WIN(1));
	int value[4];
	long nodes;
	ck_assert(search_solve(tctx(), g, st, list, n, 0, 1000, NULL, NULL,
			       value, NULL, &nodes));
	for (int i = 0; i < n; i++) {
		char buf[8];
		g->format(st, &list[i], buf);
		ck_assert_int_eq(value[i], strcmp(buf, "c2") ? -1 : 1);
	}
	free(st);
}
END_TEST

/* Tiptoe 4x4 after b4 c3 c2 b1 b3 a2 c1 a1 d4 a4 (O White, X Black):
 *
 *   4  X O . O      White's groups: b3-b4 and b1-c1 (2 each), d4 (1);
 *   3  . O X .      only d4 can step: c4 or d3.
 *   2  X . X .
 *   1  X O O .
 *      a b c d
 *
 * White c4 joins b4 and d4 into a group of 4 that reaches nothing; Black
 * steps a4-a3; then b1-c1 and the big group are stuck: White loses.
 * White d3 makes d3-d4 (2); Black's only step is again a3 (c2-c3 and
 * a1-a2 are blocked or run off the board); White steps d3 down two to d1
 * (b1-c1-d1 now); Black's column of four and c2-c3 reach nothing: White
 * wins. */
START_TEST(tiptoe_endgame_counted_by_hand)
{
	const struct game *g = game_find("tiptoe");
	ck_assert(g != NULL);
	solve_forget(tctx());
	void *st = at(g, "size=4", "b4 c3 c2 b1 b3 a2 c1 a1 d4 a4");
	struct move list[4];
	struct solve_bound b[4];
	int n = solve_all(g, st, SOLVE_MARGIN, list, b, NULL);
	ck_assert_int_eq(n, 2);
	struct solve_bound d3 = bound_of(g, st, list, b, n, "d3");
	ck_assert(d3.lo == WIN(1) && d3.hi == WIN(1));
	ck_assert_int_eq(move_value(g, st, "c4", NULL), LOSS(1));
	free(st);
}
END_TEST

/* The 4x4 board is a win for Black (player 2), as the solver finds: every
 * first placement loses. */
START_TEST(tiptoe_4x4_is_a_win_for_black)
{
	const struct game *g = game_find("tiptoe");
	solve_forget(tctx());
	void *st = at(g, "size=4", "");
	struct move list[16];
	struct solve_bound b[16];
	int n = solve_all(g, st, SOLVE_WDL, list, b, NULL);
	ck_assert_int_eq(n, 16);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(solve_result(b[i].hi), -1);
	free(st);
}
END_TEST

/* A Take It Away board= of row 1 (a1..h1) and nothing else. */
static void *row1(const struct game *g, const char *row)
{
	char opts[128];
	snprintf(opts, sizeof opts, "board=%.*s%s", 56,
		 "................................................"
		 "........",
		 row);
	return at(g, opts, "");
}

/* Take It Away, two players, player 1 to move on a1 W, c1 R, d1 W (white
 * 1, red 2).  c1-e1 takes a white (1) and leaves a1 and e1 apart: over,
 * +1.  d1-b1 takes the red (2); player 2 then takes b1 with a1-c1 (1):
 * +1.  A drop leaves player 2 alone, who takes 2 then 1 and pays twice
 * the last white: 3 - 2 = 1, so -1.  The best margin is +1.
 *
 * On a1 W, b1 R, d1 B, f1 B (blue 3), a1 must jump on to g1, 2 + 3 + 3 =
 * +8; dropping hands player 2 the same chain, less twice the white left:
 * 8 - 2 = 6, so -6. */
START_TEST(takeitaway_endgames_counted_by_hand)
{
	const struct game *g = game_find("takeitaway");
	ck_assert(g != NULL);
	solve_forget(tctx());
	void *st = row1(g, "w.rw....");
	ck_assert_int_eq(move_value(g, st, "c1-e1", NULL), WIN(1));
	ck_assert_int_eq(move_value(g, st, "d1-b1", NULL), WIN(1));
	ck_assert_int_eq(move_value(g, st, "drop", NULL), LOSS(1));
	free(st);
	st = row1(g, "wr.b.b..");
	ck_assert_int_eq(move_value(g, st, "a1-c1-e1-g1", NULL), WIN(8));
	ck_assert_int_eq(move_value(g, st, "drop", NULL), LOSS(6));
	struct move list[4];
	struct solve_bound b[4];
	int n = solve_all(g, st, SOLVE_MARGIN, list, b, NULL);
	ck_assert_int_eq(n, 2);
	struct solve_bound chain = bound_of(g, st, list, b, n, "a1-c1-e1-g1");
	ck_assert(chain.lo == WIN(8) && chain.hi == WIN(8));
	ck_assert_int_lt(bound_of(g, st, list, b, n, "drop").hi, WIN(8));
	free(st);
}
END_TEST

/* Take It Away asks the solver to try the moves that win most points at
 * once first (points_first): 10 moves before the end of a self-played
 * game it then settles the position's exact value (a win by 3) in 344k
 * nodes, where the history of cutoffs alone takes 7.1M; the test gives
 * the second three times the nodes of the first. */
START_TEST(points_first_finds_the_value_sooner)
{
	const struct game *g = game_find("takeitaway");
	ck_assert(g != NULL && game_search(g)->points_first);
	struct game plain = *g;
	struct game_search gs = *game_search(g);
	plain.search = &gs;
	gs.points_first = 0;
	void *st =
		at(g,
		   "players=2 board=wbwwrrrwwbrbrwbwwrwwbbwwrwwrrwrrwrwwwwrrww"
		   "rwwbbbrwwrwwrrwwwwbwwr",
		   "g1 e1-g1 c3-e1 d1-f1 a3-c3 b1-d1-b3-b1 a1-a3 e3-e1 g3-e3 "
		   "f4-d2 c4-c2-e2-c4 g1-g3 g4-g2-e2 e6-g4 d5-d3-f5-d5-b3 "
		   "a4-a2-c4-a4 h5-f3-d1 f7-h5-f5-f7 e1-c1-a1 h3-h5 g8-g6 "
		   "e8-g8-e6-e8 h6-h4 h8-h6-f6");
	struct solve_job job = {.want = SOLVE_MARGIN};
	struct solve_bound b;
	solve_forget(tctx());
	ck_assert(solve_position(tctx(), g, st, &job, &b));
	ck_assert(b.lo == b.hi && b.lo == WIN(3));
	long by_points = job.nodes;
	solve_forget(tctx());
	job.node_limit = 3 * by_points;
	ck_assert_msg(!solve_position(tctx(), &plain, st, &job, &b),
		      "history alone settled it in %ld nodes, points first "
		      "in %ld",
		      job.nodes, by_points);
	solve_forget(tctx());
	free(st);
}
END_TEST

/* ---- against a plain search ---- */

/* Plain negamax over the same values (result, then margin), no table, no
 * pruning, with a node budget: what the solver must agree with.  Its move
 * lists sit end to end in one buffer. */
#define PLAIN_NODES 100000
static long plain_nodes;
static struct move *plain_buf;
static size_t plain_top, plain_cap;

static int plain_value(const struct game *g, const void *st, int me)
{
	struct game_status s = g->status(st);
	if (s.phase == GAME_OVER) {
		int pts[GAME_MAX_PLAYERS] = {0};
		g->score(st, pts);
		int r = s.player == me ? 1 : s.player ? -1 : 0;
		return r * SOLVE_RESULT + pts[me - 1] - pts[2 - me];
	}
	ck_assert_int_eq(s.phase, GAME_PLAY);
	if (++plain_nodes > PLAIN_NODES ||
	    plain_cap - plain_top < (size_t)g->max_moves) {
		plain_nodes = PLAIN_NODES + 1;
		return 0;
	}
	struct move *list = plain_buf + plain_top;
	unsigned char c[g->state_size];
	int n = g->moves(st, list), best = -SOLVE_INF;
	ck_assert_int_gt(n, 0);
	plain_top += (size_t)n;
	for (int i = 0; i < n && plain_nodes <= PLAIN_NODES; i++) {
		memcpy(c, st, g->state_size);
		g->play(c, &list[i]);
		int v = plain_value(g, c, s.player);
		if (v > best)
			best = v;
	}
	plain_top -= (size_t)n;
	return s.player == me ? best : -best;
}

/* The plain value of each move of st into want; 0 when over budget. */
static int plain_moves(const struct game *g, const void *st,
		       const struct move *list, int n, int *want)
{
	size_t need = (size_t)g->max_moves * 64;
	if (plain_cap < need) {
		free(plain_buf);
		plain_buf = malloc(sizeof *plain_buf * need);
		ck_assert(plain_buf != NULL);
		plain_cap = need;
	}
	plain_top = 0;
	plain_nodes = 0;
	unsigned char c[g->state_size];
	for (int i = 0; i < n && plain_nodes <= PLAIN_NODES; i++) {
		memcpy(c, st, g->state_size);
		g->play(c, &list[i]);
		want[i] = plain_value(g, c, g->status(st).player);
	}
	return plain_nodes <= PLAIN_NODES;
}

/* Near the end of random games of every two-player game without dice, the
 * solver's best value is the plain search's, every move it settles exactly
 * has the plain value, every other move is shown below the best, and every
 * result (win, draw, loss) is right. */
static const char *const agree_setups[][2] = {
	{"checkertoe", ""},       {"checkertoe", "exchange"},
	{"checkertoe", "size=6"}, {"checkertoe", "float"},
	{"tiptoe", "size=5"},     {"tiptoe", "size=5 diagonal"},
	{"tiptoe", "hex size=3"}, {"takeitaway", ""},
	{"takeitaway", "nodrop"}, {"takeitaway", "plain"},
	{"abstractoe", ""},
};

static void agree_at(const struct game *g, const char *opts, const void *st,
		     const struct move *list, int n, const int *want)
{
	struct solve_bound b[n];
	struct solve_job job = {.want = SOLVE_MARGIN};
	solve_clear(tctx());
	ck_assert(solve_moves(tctx(), g, st, list, n, &job, b));
	int best = -SOLVE_INF, top = -SOLVE_INF;
	for (int i = 0; i < n; i++) {
		best = want[i] > best ? want[i] : best;
		top = b[i].lo > top ? b[i].lo : top;
		ck_assert_msg(b[i].lo <= want[i] && want[i] <= b[i].hi,
			      "%s %s move %d: [%d, %d], plain %d", g->name,
			      opts, i, b[i].lo, b[i].hi, want[i]);
	}
	ck_assert_int_eq(top, best);
	for (int i = 0; i < n; i++)
		ck_assert(b[i].lo == b[i].hi || b[i].hi < best);
	/* the position's own value, as a judge asks for it (its searches
	 * start from the points as they stand, whatever the result) */
	struct solve_bound whole;
	solve_clear(tctx());
	ck_assert(solve_position(tctx(), g, st, &job, &whole));
	ck_assert_msg(whole.lo == best && whole.hi == best,
		      "%s %s: [%d, %d], plain %d", g->name, opts, whole.lo,
		      whole.hi, best);
	/* and the results alone */
	solve_clear(tctx());
	job.want = SOLVE_WDL;
	ck_assert(solve_moves(tctx(), g, st, list, n, &job, b));
	for (int i = 0; i < n; i++)
		ck_assert(solve_result(b[i].lo) == solve_result(want[i]) &&
			  solve_result(b[i].hi) == solve_result(want[i]));
}

START_TEST(the_solver_agrees_with_a_plain_search)
{
	const char *game = agree_setups[_i][0], *opts = agree_setups[_i][1];
	const struct game *g = game_find(game);
	ck_assert(g != NULL);
	char err[GAME_ERR_MAX];
	size_t ss = g->state_size;
	struct move *list = malloc(sizeof *list * (size_t)g->max_moves);
	int *want = malloc(sizeof *want * (size_t)g->max_moves);
	unsigned char *trail = malloc(ss * 200);
	int checked = 0;
	for (uint64_t seed = 1; seed <= 3; seed++) {
		void *st = game_new_state(g, opts, seed, err);
		ck_assert_msg(st != NULL, "%s %s: %s", game, opts, err);
		/* a random game to its end, then back to the first position
		 * (of every third) the plain search can still finish */
		int len = random_trail(g, st, seed, 200, trail, list);
		for (int k = len - 1; k >= 0; k -= 3) {
			const void *p = trail + ss * (size_t)k;
			int n = g->moves(p, list);
			if (!plain_moves(g, p, list, n, want))
				break;
			agree_at(g, opts, p, list, n, want);
			checked++;
		}
		free(st);
	}
	ck_assert_int_gt(checked, 0);
	free(list);
	free(want);
	free(trail);
}
END_TEST

/* ---- what stops the solver ---- */

/* Dice are not solved: after a roll every move leads to the next roll. */
START_TEST(chance_stops_the_solver)
{
	const struct game *g = game_find("takebacktoe");
	ck_assert(g != NULL);
	void *st = at(g, "first=1", "");
	ck_assert_int_eq(g->status(st).phase, GAME_ROLL);
	g->roll(st, 3);
	struct move *list = malloc(sizeof *list * (size_t)g->max_moves);
	struct solve_bound *b = malloc(sizeof *b * (size_t)g->max_moves);
	int n = g->moves(st, list);
	ck_assert_int_gt(n, 0);
	struct solve_job job = {.want = SOLVE_WDL};
	ck_assert(!solve_moves(tctx(), g, st, list, n, &job, b));
	ck_assert_int_lt(job.nodes, 10);
	ck_assert(b[0].lo == -SOLVE_INF && b[0].hi == SOLVE_INF);
	free(list);
	free(b);
	free(st);
}
END_TEST

/* Moves that cannot be listed (Abs-Trac-Toe's drawn line) are not solved
 * either. */
START_TEST(unlisted_moves_stop_the_solver)
{
	const struct game *g = game_find("abstractoe");
	ck_assert(g != NULL);
	void *st = at(g, "draw=1", "");
	struct move mv;
	ck_assert_int_eq(g->moves(st, &mv), 0);
	struct solve_job job = {.want = SOLVE_WDL};
	struct solve_bound b;
	ck_assert(!solve_position(tctx(), g, st, &job, &b));
	free(st);
}
END_TEST

static int stop_calls;

static int stop_at_once(void *ctx)
{
	(void)ctx;
	stop_calls++;
	return 1;
}

static int never_stop(void *ctx)
{
	(void)ctx;
	stop_calls++;
	return 0;
}

/* The stop callback is asked while the solver works, and a yes ends it
 * with nothing claimed; a no changes nothing. */
START_TEST(the_stop_callback_is_honoured)
{
	const struct game *g = game_find("tiptoe");
	solve_forget(tctx());
	void *st = at(g, "size=5", "c3 b2");
	struct solve_job job = {.want = SOLVE_WDL, .stop = stop_at_once};
	struct solve_bound b;
	stop_calls = 0;
	ck_assert(!solve_position(tctx(), g, st, &job, &b));
	ck_assert_int_eq(stop_calls, 1);
	ck_assert(b.lo == -SOLVE_INF && b.hi == SOLVE_INF);
	/* a search of 10,000 nodes or more runs long enough to be asked */
	ck_assert_int_lt(job.nodes, 10000);
	solve_forget(tctx());
	job = (struct solve_job){.want = SOLVE_WDL, .stop = never_stop};
	stop_calls = 0;
	ck_assert(solve_position(tctx(), g, st, &job, &b));
	ck_assert_int_gt(stop_calls, 0);
	ck_assert_int_gt(job.nodes, 10000);
	free(st);
}
END_TEST

static int stop_on; /* the call of stop_at_call that says stop */

static int stop_at_call(void *ctx)
{
	(void)ctx;
	return ++stop_calls == stop_on;
}

/* Widening the table for a larger budget takes milliseconds (all 16 MB:
 * 7 ms), so it asks the stop callback as it goes: a yes at once ends the
 * search before its first node, the table as wide as it was; a yes
 * anywhere leaves a table whose later results are exact. */
START_TEST(a_stop_ends_the_widening_of_the_table)
{
	const struct game *g = game_find("tiptoe");
	void *st = at(g, "size=5", "c3 b2");
	struct solve_ctx *c = solve_ctx_new();
	ck_assert_ptr_nonnull(c);
	struct solve_bound whole, b;
	struct solve_job job = {.want = SOLVE_WDL};
	ck_assert(solve_position(c, g, st, &job, &whole));
	for (stop_on = 1; stop_on <= 8; stop_on++) {
		solve_forget(c);
		/* a small budget: the least table, with some entries */
		job = (struct solve_job){.want = SOLVE_WDL, .node_limit = 500};
		ck_assert(!solve_position(c, g, st, &job, &b));
		size_t least = solve_memory(c);
		job = (struct solve_job){.want = SOLVE_WDL,
					 .stop = stop_at_call};
		stop_calls = 0;
		ck_assert(!solve_position(c, g, st, &job, &b));
		if (stop_on == 1) {
			ck_assert_int_eq(job.nodes, 0);
			ck_assert_uint_eq(solve_memory(c), least);
		}
		job = (struct solve_job){.want = SOLVE_WDL};
		ck_assert(solve_position(c, g, st, &job, &b));
		ck_assert_uint_gt(solve_memory(c), least);
		ck_assert_int_eq(solve_result(b.lo), solve_result(whole.lo));
		ck_assert_int_eq(solve_result(b.hi), solve_result(whole.hi));
	}
	solve_ctx_free(c);
	free(st);
}
END_TEST

/* A node budget ends a search within it; what it proved stays in the
 * table, so growing budgets finish, with the value a fresh search gives. */
START_TEST(the_node_limit_is_kept)
{
	const struct game *g = game_find("tiptoe");
	void *st = at(g, "size=5", "c3 b2 b4");
	struct solve_bound b, full;
	solve_forget(tctx());
	struct solve_job job = {.want = SOLVE_WDL};
	ck_assert(solve_position(tctx(), g, st, &job, &full));
	long total = job.nodes;
	ck_assert_int_gt(total, 2000);
	solve_forget(tctx());
	job = (struct solve_job){.want = SOLVE_WDL, .node_limit = 1000};
	ck_assert(!solve_position(tctx(), g, st, &job, &b));
	ck_assert_int_le(job.nodes, 1001);
	int tries = 1;
	while (!solve_position(tctx(), g, st, &job, &b)) {
		ck_assert_int_le(job.nodes, 1001);
		ck_assert_int_lt(tries++, 1000);
	}
	ck_assert_int_eq(solve_result(b.lo), solve_result(full.lo));
	ck_assert_int_eq(solve_result(b.hi), solve_result(full.hi));
	free(st);
}
END_TEST

/* The table stays within the memory it is given, and a table far too
 * small for the search still gives exact values (only slower). */
START_TEST(the_memory_limit_is_kept)
{
	const struct game *g = game_find("tiptoe");
	void *st = at(g, "size=4", "");
	struct move list[16];
	struct solve_bound b[16];
	solve_set_memory(tctx(), 64 << 10);
	ck_assert_int_eq(solve_memory(tctx()), 0);
	int n = solve_all(g, st, SOLVE_WDL, list, b, NULL);
	ck_assert_int_gt(solve_memory(tctx()), 0);
	ck_assert_int_le(solve_memory(tctx()), 64 << 10);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(solve_result(b[i].hi), -1);
	solve_set_memory(tctx(), 1000);
	solve_all(g, st, SOLVE_WDL, list, b, NULL);
	ck_assert_int_le(solve_memory(tctx()), 1000);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(solve_result(b[i].hi), -1);
	solve_forget(tctx());
	ck_assert_int_eq(solve_memory(tctx()), 0);
	solve_set_memory(tctx(), 16 << 20);
	free(st);
}
END_TEST

/* A small budget uses a small part of the table: the system gives a page
 * its memory when it is first written, and a search of a 50 ms move that
 * wrote all over the table spent its time there.  A bigger budget widens
 * the part in use, and what was proven before is still found: the same
 * question again takes a few nodes. */
START_TEST(the_table_in_use_grows_with_the_budget)
{
	const struct game *g = game_find("checkertoe");
	void *st = at(g, "first=1", "c3 c2 c1 c4 b3 b2 d4 d3 d2 a3 e3");
	struct move list[32];
	struct solve_bound b[32], again[32];
	int n = g->moves(st, list);
	solve_forget(tctx());
	struct solve_job job = {.want = SOLVE_WDL, .node_limit = 200000};
	ck_assert(solve_moves(tctx(), g, st, list, n, &job, b));
	long first = job.nodes;
	ck_assert_int_gt(first, 10000);
	/* room for the 200,000 nodes allowed, far from the whole 16 MB */
	ck_assert_int_le(solve_memory(tctx()), 4 << 20);
	job = (struct solve_job){.want = SOLVE_WDL};
	ck_assert(solve_moves(tctx(), g, st, list, n, &job, again));
	ck_assert_int_eq(solve_memory(tctx()), 16 << 20);
	ck_assert_int_lt(job.nodes, first / 20);
	for (int i = 0; i < n; i++) {
		ck_assert_int_eq(solve_result(again[i].lo),
				 solve_result(b[i].lo));
		ck_assert_int_eq(solve_result(again[i].hi),
				 solve_result(b[i].hi));
	}
	free(st);
}
END_TEST

/* ---- the opening book ---- */

/* The state after a book line's moves. */
static void *book_state(const struct book_line *l)
{
	const struct game *g = game_find(l->game);
	ck_assert_msg(g != NULL, "the book names a game %s", l->game);
	return at(g, l->setup, l->moves);
}

/* Every line of the book plays under today's rules, and the book gives its
 * move (or the same move turned, in a mirror image) with its value. */
START_TEST(every_book_line_plays_and_is_found)
{
	ck_assert_int_gt(book_size, 0);
	for (int i = 0; i < book_size; i++) {
		const struct book_line *l = &book_lines[i];
		const struct game *g = game_find(l->game);
		void *st = book_state(l);
		unsigned char *a = malloc(g->state_size),
			      *b = malloc(g->state_size);
		memcpy(a, st, g->state_size);
		play_text(g, a, l->best);
		struct move mv;
		int v;
		ck_assert_msg(book_find(tbook(), g, st, &mv, &v),
			      "%s %s: %s is not found", l->game, l->setup,
			      l->moves);
		ck_assert_int_eq(v, l->value);
		memcpy(b, st, g->state_size);
		g->play(b, &mv);
		ck_assert(solve_key(g, a) == solve_key(g, b));
		free(a);
		free(b);
		free(st);
	}
	/* a position the book does not hold: nothing */
	const struct game *g = game_find("takeitaway");
	void *st = at(g, "", "");
	struct move mv;
	int v;
	ck_assert(!book_find(tbook(), g, st, &mv, &v));
	free(st);
}
END_TEST

/* Solves the position of book line l again from scratch, within budget
 * nodes (0: any): it has the value written, and the written move keeps
 * it.  Returns 0 when the budget ran out first. */
static int solved_again(const struct book_line *l, long budget)
{
	const struct game *g = game_find(l->game);
	void *st = book_state(l);
	int me = g->status(st).player;
	struct solve_job job = {
		.want = l->exact ? SOLVE_MARGIN : SOLVE_WDL,
		.node_limit = budget,
	};
	struct solve_bound b;
	solve_forget(tctx());
	if (!solve_position(tctx(), g, st, &job, &b)) {
		free(st);
		return 0;
	}
	int v = l->exact ? b.lo : SOLVE_RESULT * solve_result(b.lo);
	ck_assert_msg(b.lo == b.hi || !l->exact, "inexact");
	ck_assert_msg(v == l->value, "%s %s: %s is worth %d, the book says %d",
		      l->game, l->setup, l->moves, v, l->value);
	/* the written move keeps it */
	unsigned char *c = malloc(g->state_size);
	memcpy(c, st, g->state_size);
	play_text(g, c, l->best);
	int cv;
	if (g->status(c).phase == GAME_OVER) {
		cv = move_value(g, st, l->best, NULL);
	} else {
		job.node_limit = 0;
		ck_assert(solve_position(tctx(), g, c, &job, &b));
		cv = g->status(c).player == me ? b.lo : -b.lo;
		if (!l->exact)
			cv = SOLVE_RESULT * solve_result(cv);
	}
	ck_assert_msg(cv == l->value, "%s %s: %s then %s is worth %d", l->game,
		      l->setup, l->moves, l->best, cv);
	free(c);
	free(st);
	return 1;
}

/* How many plies in book line l's checkertoe position is; -1 for other
 * games. */
static int checkertoe_ply(const struct book_line *l)
{
	int words = *l->moves != '\0';
	for (const char *m = l->moves; *m; m++)
		words += *m == ' ';
	return strcmp(l->game, "checkertoe") ? -1 : words;
}

/* A sample of the book's lines for games other than checkertoe (Tiptoe
 * 5x5's set-up), spread over them, solved again from scratch: each within
 * a few million nodes, so the test stays within seconds.  Checkertoe's
 * lines take more (6 to 16 million nodes at ply 6, some 10 s each at ply
 * 3); the tests below take samples of them. */
START_TEST(a_sample_of_the_book_is_solved_again)
{
	enum { SAMPLE = 24, BUDGET = 3000000 };
	int *other = malloc(sizeof *other * (size_t)book_size), n = 0;
	for (int i = 0; i < book_size; i++)
		if (checkertoe_ply(&book_lines[i]) < 0)
			other[n++] = i;
	ck_assert_int_ge(n, SAMPLE);
	for (int k = 0; k < SAMPLE; k++)
		ck_assert(solved_again(&book_lines[other[(long)k * n / SAMPLE]],
				       BUDGET));
	free(other);
}
END_TEST

/* Checkertoe, either player starting: the book answers the starting
 * player through its fourth move whatever the other plays (a few hundred
 * random replies), each time with a win. */
START_TEST(the_book_answers_checkertoe_first_player_four_times)
{
	const struct game *g = game_find("checkertoe");
	struct move list[32], mv;
	struct rng r;
	rng_seed(&r, 18);
	for (int game = 0; game < 200; game++) {
		void *st = at(g, game % 2 ? "first=2" : "first=1", "");
		for (int ply = 0; ply < 7; ply++) {
			int v;
			if (ply % 2 == 0) {
				ck_assert_msg(
					book_find(tbook(), g, st, &mv, &v),
					"game %d: no line at ply %d", game,
					ply);
				ck_assert_int_gt(v, SOLVE_MARGIN_MAX);
			} else {
				int n = g->moves(st, list);
				mv = list[rng_below(&r, (uint32_t)n)];
			}
			g->play(st, &mv);
		}
		free(st);
	}
}
END_TEST

/* Checks the book's line at st (reached by line) and, depth plies on, at
 * every position below it: the book's move leaves the next mover the
 * negation of the mover's value (any move to a mirror image of that
 * position too), and any other move no less than that.  Returns the
 * value at st. */
static int book_agrees(const struct game *g, const void *st, int depth,
		       const char *line)
{
	struct move list[32], mv;
	int v, n = g->moves(st, list);
	ck_assert_msg(book_find(tbook(), g, st, &mv, &v), "no line at '%s'",
		      line);
	if (depth == 0)
		return v;
	unsigned char *c = malloc(g->state_size);
	memcpy(c, st, g->state_size);
	g->play(c, &mv);
	uint64_t best = solve_key(g, c);
	for (int i = 0; i < n; i++) {
		char text[MOVE_TEXT_MAX], here[3 * MOVE_TEXT_MAX];
		g->format(st, &list[i], text);
		fit(here, sizeof here, "%s%s%s", line, *line ? " " : "", text);
		memcpy(c, st, g->state_size);
		g->play(c, &list[i]);
		int cv = book_agrees(g, c, depth - 1, here);
		ck_assert_msg(solve_key(g, c) == best ? cv == -v : cv >= -v,
			      "'%s' is worth %d after %d", here, cv, v);
	}
	free(c);
	return v;
}

/* Checkertoe, either player starting: the book answers every position
 * through ply 3 (`make book`'s plain walks), and its values agree with
 * each other (book_agrees): a value or move off by a margin at ply 0 to 2
 * shows, and a value at ply 3 too low for its parent's; ply 3's own moves
 * rest on the sample solved again below. */
START_TEST(the_book_answers_every_checkertoe_position_through_ply_3)
{
	const struct game *g = game_find("checkertoe");
	for (int first = 1; first <= 2; first++) {
		void *st = at(g, first == 1 ? "first=1" : "first=2", "");
		book_agrees(g, st, 3, "");
		free(st);
	}
}
END_TEST

/* Solves again, whatever it takes, sample of the book's checkertoe lines
 * ply plies in: the last one of each sample-th part, in the book's order
 * (each set-up's walks one after the other, the plain walk last; a sample
 * of two or more takes lines of both set-ups). */
static void solve_sample(int ply, int sample)
{
	int n = 0;
	for (int i = 0; i < book_size; i++)
		n += checkertoe_ply(&book_lines[i]) == ply;
	ck_assert_int_ge(n, sample);
	for (int k = 0, seen = 0, i = 0; k < sample; i++)
		if (checkertoe_ply(&book_lines[i]) == ply &&
		    seen++ == (k + 1) * n / sample - 1) {
			ck_assert(solved_again(&book_lines[i], 0));
			k++;
		}
}

/* The starting player's fourth checkertoe moves (ply 6, `make book`'s
 * 7/first walks). */
START_TEST(a_sample_of_checkertoe_fourth_moves_is_solved_again)
{
	solve_sample(6, 4);
}
END_TEST

/* A checkertoe position three plies in, the plain walks' deepest: one, as
 * each takes some 10 s (three times that with the sanitizers).  The
 * walk above checks the lines before ply 3 against ply 3's. */
START_TEST(a_checkertoe_third_ply_is_solved_again)
{
	solve_sample(3, 1);
}
END_TEST

/* The book holds the tiptoe 5x5 opening, with a move that wins (c1, a3,
 * c3, e3 or c5, by this solver), and the computer player plays
 * it. */
START_TEST(the_player_opens_from_the_book)
{
	const struct game *g = game_find("tiptoe");
	void *st = at(g, "size=5", "");
	struct move mv;
	int v;
	char want[64];
	ck_assert(book_find(tbook(), g, st, &mv, &v));
	ck_assert_int_gt(v, 0);
	g->format(st, &mv, want + 1);
	want[0] = ' ';
	strcat(want, " ");
	ck_assert_msg(strstr(" c1 a3 c3 e3 c5 ", want), "the book opens%s",
		      want);
	struct session *s = quiet_session();
	ok(s, "newgame tiptoe size=5");
	ok(s, "set playouts 10");
	char got[64];
	snprintf(got, sizeof got, " %.8s ", ok(s, "genmove"));
	ck_assert_str_eq(got, want);
	session_free(s);
	free(st);
}
END_TEST

/* Where the tree proves the win on its own, the solver still settles the
 * margin: here every win is by two tic-tac-toes but d3's, by five. */
START_TEST(a_proven_win_keeps_the_biggest_margin)
{
	const char *moves[] = {"b4", "b2", "e5", "a1", "b3", "e4", "c1",
			       "c5", "e3", "a5", "e1", "d4", "a3", "d2",
			       "b5", "a4", "c4", "d5", "c3", "d1"};
	struct session *s = quiet_session();
	ok(s, "newgame checkertoe first=1");
	for (size_t i = 0; i < sizeof moves / sizeof *moves; i++) {
		char line[16];
		snprintf(line, sizeof line, "play %s", moves[i]);
		ok(s, line);
	}
	ok(s, "set movetime 300");
	ck_assert_str_eq(ok(s, "genmove"), "d3");
	session_free(s);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("solve");
	TCase *t = tcase_create("solve");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, tictactoe_by_the_theory);
	tcase_add_test(t, transpositions_are_found_in_the_table);
	tcase_add_test(t, symmetry_through_the_key);
	tcase_add_test(t, a_games_own_key_folds_mirror_images);
	tcase_add_test(t, checkertoe_endgame_counted_by_hand);
	tcase_add_test(t, tiptoe_endgame_counted_by_hand);
	tcase_add_test(t, tiptoe_4x4_is_a_win_for_black);
	tcase_add_test(t, takeitaway_endgames_counted_by_hand);
	tcase_add_test(t, points_first_finds_the_value_sooner);
	tcase_add_loop_test(t, the_solver_agrees_with_a_plain_search, 0,
			    sizeof agree_setups / sizeof agree_setups[0]);
	tcase_add_test(t, chance_stops_the_solver);
	tcase_add_test(t, unlisted_moves_stop_the_solver);
	tcase_add_test(t, the_stop_callback_is_honoured);
	tcase_add_test(t, a_stop_ends_the_widening_of_the_table);
	tcase_add_test(t, the_node_limit_is_kept);
	tcase_add_test(t, the_table_in_use_grows_with_the_budget);
	tcase_add_test(t, the_memory_limit_is_kept);
	tcase_add_test(t, every_book_line_plays_and_is_found);
	tcase_add_test(t, a_sample_of_the_book_is_solved_again);
	tcase_add_test(t, a_sample_of_checkertoe_fourth_moves_is_solved_again);
	tcase_add_test(t, a_checkertoe_third_ply_is_solved_again);
	tcase_add_test(t, the_book_answers_checkertoe_first_player_four_times);
	tcase_add_test(
		t, the_book_answers_every_checkertoe_position_through_ply_3);
	tcase_add_test(t, the_player_opens_from_the_book);
	tcase_add_test(t, a_proven_win_keeps_the_biggest_margin);
	suite_add_tcase(s, t);
	return s;
}

TEST_MAIN()
