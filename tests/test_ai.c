/* test_ai.c: the computer player.
 *
 * Positions come from seeded random walks through struct game, so every
 * game in game_table is covered as it is registered, plus checkertoe
 * positions written out by hand.  All searches here use a fixed playout
 * budget (so they are deterministic and quick); the one clock test is
 * loose on purpose (sanitizer builds are slow), the exact check is in
 * bench_ai. */
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "test_util.h"

#include "../games/ai/ai.h"
#include "../games/ai/pattern.h"
#include "../games/ai/playout.h"
#include "../games/ai/search.h"
#include "../games/ai/tree.h"

/* The solver's context (solve.h, struct solve_ctx) used here: one for
 * the whole program, as a player would keep. */
static struct solve_ctx *tctx(void)
{
	static struct solve_ctx *c;
	if (!c && !(c = solve_ctx_new()))
		abort();
	return c;
}

/* A rig for the search made here, as a player keeps one (search.h, struct
 * search_kit): a tree with room for `bytes` of nodes and a solver of its
 * own. */
static struct search_kit *rig_new(size_t bytes)
{
	struct search_kit *k = calloc(1, sizeof *k);
	if (!k || !(k->tree = tree_new(bytes)) ||
	    !(k->solver = solve_ctx_new()))
		abort();
	return k;
}

static void rig_free(struct search_kit *k)
{
	search_kit_free(k);
	free(k);
}

/* Drops k's tree and tables; the tree's budget becomes `bytes`. */
static void rig_reset(struct search_kit *k, size_t bytes)
{
	search_settle(k);
	tree_reset(k->tree, bytes);
	solve_forget(k->solver);
}

/* Searches of k run on n threads from now on; drops the tree.  Returns 0,
 * or -1 when out of memory. */
static int rig_threads(struct search_kit *k, int n)
{
	search_settle(k);
	team_free(k->team);
	k->team = n > 1 ? team_new(n - 1) : NULL;
	rig_reset(k, k->tree->bytes);
	return n > 1 && !k->team ? -1 : 0;
}

/* Move lists that outlive one call: a fresh list of max_moves moves for
 * every call would cost the sanitizer builds dearly (Take It Away lists up
 * to 65536 moves).  Slot k is one list; each grows as needed. */
static struct move *move_buf(int k, const struct game *g)
{
	static struct move *buf[4];
	static size_t cap[4];
	if (cap[k] < (size_t)g->max_moves) {
		free(buf[k]);
		cap[k] = (size_t)g->max_moves;
		buf[k] = malloc(sizeof *buf[k] * cap[k]);
		ck_assert(buf[k] != NULL);
	}
	return buf[k];
}

/* A state of g from opts, or NULL when the game refuses them. */
static void *try_state(const struct game *g, const char *opts, uint64_t seed)
{
	char err[GAME_ERR_MAX];
	return game_new_state(g, opts, seed, err);
}

/* Every game with its defaults and each of its own variants
 * (test_util.h, each_variant). */
#define each_setup each_variant

/* One step of a random walk: a roll or a random legal move.  Returns 0, or
 * -1 when the game is over or stuck. */
static int walk_step(const struct game *g, void *st, struct rng *r,
		     struct move *list)
{
	struct game_status s = g->status(st);
	if (s.phase == GAME_OVER)
		return -1;
	if (s.phase == GAME_ROLL) {
		g->roll(st, game_chance_pick(g, st, r));
		return 0;
	}
	struct move mv;
	if (ai_random_move(g, st, r, list, &mv) < 0)
		return -1;
	g->play(st, &mv);
	return 0;
}

/* Is mv a legal move in st?  One of moves(), or, where moves cannot be
 * listed, a move whose text parses back. */
static int is_legal(const struct game *g, const void *st, const struct move *mv)
{
	struct move *list = move_buf(0, g);
	int n = g->moves(st, list), ok = 0;
	for (int i = 0; i < n && !ok; i++)
		ok = move_equal(&list[i], mv);
	if (n == 0) {
		char buf[MOVE_TEXT_MAX], err[GAME_ERR_MAX];
		struct move back;
		g->format(st, mv, buf);
		ok = g->parse(st, buf, &back, err) == 0;
	}
	return ok;
}

static int choose(const struct game *g, const void *st, int level,
		  long playouts, uint64_t seed, struct move *mv)
{
	static struct ai *ai;
	if (!ai)
		ai = ai_new();
	struct ai_search how = {.level = level,
				.playouts = playouts,
				.movetime_ms = 1000,
				.start_ms = ai_now_ms(),
				.seed = seed};
	return ai_choose(ai, g, st, &how, mv, NULL);
}

/* A search of 3000 playouts at the top level, without the book and the
 * solver, whose move is drawn at a temperature (the levels below the top;
 * ai.h, temper). */
static void hot_search(const struct game *g, const void *st, double temper,
		       uint64_t seed, struct move *mv, struct search_info *info)
{
	struct ai *ai = ai_new();
	struct ai_search how = {.level = AI_LEVEL_MAX,
				.playouts = 3000,
				.movetime_ms = 60000,
				.start_ms = ai_now_ms(),
				.seed = seed,
				.no_book = 1,
				.no_solver = 1,
				.temper = temper};
	ck_assert_int_eq(ai_choose(ai, g, st, &how, mv, NULL), 0);
	ai_tree_info(ai, info);
	ai_free(ai);
}

/* ---- checkertoe by hand ---- */

static void *checkertoe_after(const char *moves)
{
	void *st = new_state(game_find("checkertoe"), "first=1", 1);
	play_line(game_find("checkertoe"), st, moves);
	return st;
}

static void check_move(const void *st, int level, long playouts, uint64_t seed,
		       const char *want)
{
	const struct game *g = game_find("checkertoe");
	struct move mv;
	char buf[MOVE_TEXT_MAX];
	ck_assert_int_eq(choose(g, st, level, playouts, seed, &mv), 0);
	g->format(st, &mv, buf);
	ck_assert_msg(!strcmp(buf, want), "level %d played %s, not %s", level,
		      buf, want);
}

START_TEST(checkertoe_takes_the_win)
{
	/* O (player 2) places the last checker: b4 wins, e1 does not */
	static const char *const seqs[][2] = {
		{"a3 e2 a2 e1 b1 c5 b5 c4 a5 d5 d1 b2 d4 e5 e3 c1 c3 a4 a1 b3 "
		 "c2 "
		 "d2 b4",
		 NULL},
		{"e2 a3 c5 d1 a4 a2 b1 c4 a5 b5 a1 e1 c1 e4 e3 b4 b3 d3 d2 c2 "
		 "b2 "
		 "e5 c3",
		 NULL},
	};
	for (size_t k = 0; k < 2; k++) {
		void *st = checkertoe_after(seqs[k][0]);
		/* the winning square, found by trying both */
		const struct game *g = game_find("checkertoe");
		struct move list[64];
		int n = g->moves(st, list);
		ck_assert_int_eq(n, 2);
		char win[MOVE_TEXT_MAX] = "";
		int wins = 0;
		for (int i = 0; i < n; i++) {
			unsigned char c[256];
			memcpy(c, st, g->state_size);
			g->play(c, &list[i]);
			if (g->status(c).player == 2) {
				g->format(st, &list[i], win);
				wins++;
			}
		}
		ck_assert_int_eq(wins, 1);
		for (uint64_t seed = 1; seed <= 3; seed++) {
			check_move(st, AI_LEVEL_MAX, 50, seed, win);
			check_move(st, 1, 0, seed, win);
		}
		free(st);
	}
}
END_TEST

START_TEST(checkertoe_blocks_the_loss)
{
	/* X (player 1) to place with three squares left: two of them let O
	 * win with the last checker; only the third holds */
	static const char *const seqs[][2] = {
		{"c5 a1 d5 c1 d4 b4 e5 e2 b1 a3 d3 a2 c4 e4 a5 c3 e3 b2 a4 d1 "
		 "b5 "
		 "e1",
		 "c2"},
		{"b5 e4 d3 e5 d5 d1 b1 a1 c1 b3 a5 a2 b4 a3 c3 d2 e2 a4 c5 c2 "
		 "e1 "
		 "b2",
		 "c4"},
		{"e1 d2 b1 b5 e4 a4 a1 e5 c4 c2 a3 c5 b2 b3 d5 e2 e3 a5 c3 d1 "
		 "c1 "
		 "a2",
		 "d4"},
	};
	for (size_t k = 0; k < 3; k++) {
		void *st = checkertoe_after(seqs[k][0]);
		ck_assert_int_eq(game_find("checkertoe")->status(st).player, 1);
		for (uint64_t seed = 1; seed <= 3; seed++) {
			check_move(st, AI_LEVEL_MAX, 50, seed, seqs[k][1]);
			check_move(st, AI_LEVEL_MAX, 2000, seed, seqs[k][1]);
		}
		free(st);
	}
}
END_TEST

/* ---- every game: one-move wins and losses ---- */

enum { LOSES_NOW, UNSAFE, SAFE, WINS_NOW };

/* What mv does at once for the mover: wins, loses, hands the next player
 * an immediate win, or none of these. */
static int classify(const struct game *g, const void *st, const struct move *mv)
{
	int me = g->status(st).player;
	unsigned char *c = malloc(g->state_size), *d = malloc(g->state_size);
	struct move *list = move_buf(1, g);
	memcpy(c, st, g->state_size);
	g->play(c, mv);
	struct game_status cs = g->status(c);
	int cls = SAFE;
	if (cs.phase == GAME_OVER && cs.player)
		cls = cs.player == me ? WINS_NOW : LOSES_NOW;
	else if (cs.phase == GAME_PLAY && cs.player != me) {
		int n = g->moves(c, list);
		for (int i = 0; i < n && cls == SAFE; i++) {
			memcpy(d, c, g->state_size);
			g->play(d, &list[i]);
			struct game_status ds = g->status(d);
			if (ds.phase == GAME_OVER && ds.player == cs.player)
				cls = UNSAFE;
		}
	}
	free(c);
	free(d);
	return cls;
}

/* Whether mv, not a win at once, wins by more points than every move that
 * wins at once (two players, by the exact solver): a game that goes on may
 * end in a bigger win, and the search keeps such moves for the solver (of
 * equal wins it takes the one at once). */
static int wins_as_much(const struct game *g, const void *st,
			const struct move *mv)
{
	if (g->players(st) != 2)
		return 0;
	struct move *list = move_buf(2, g);
	int n = g->moves(st, list), chosen = -1, best = -SOLVE_INF;
	struct solve_bound *b = malloc(sizeof *b * (size_t)n);
	struct solve_job job = {.want = SOLVE_MARGIN, .node_limit = 20000000};
	solve_forget(tctx());
	int done = solve_moves(tctx(), g, st, list, n, &job, b);
	for (int i = 0; i < n && done; i++) {
		if (move_equal(&list[i], mv))
			chosen = i;
		if (classify(g, st, &list[i]) == WINS_NOW && b[i].lo > best)
			best = b[i].lo;
	}
	int ok = done && chosen >= 0 && b[chosen].lo > best &&
		 solve_result(b[chosen].lo) > 0;
	free(b);
	return ok;
}

/* Whether the exact solver proves st lost for its mover (two players). */
static int proven_lost(const struct game *g, const void *st)
{
	if (g->players(st) != 2)
		return 0;
	struct solve_job job = {.want = SOLVE_WDL, .node_limit = 2000000};
	struct solve_bound b;
	solve_forget(tctx());
	return solve_position(tctx(), g, st, &job, &b) &&
	       solve_result(b.hi) < 0;
}

static int found_wins, found_blocks;

static void one_move_facts(const struct game *g, const char *opts)
{
	struct move *list = malloc(sizeof *list * (size_t)g->max_moves);
	int wins = 0, blocks = 0;
	for (uint64_t seed = 1; seed <= 40 && (wins < 3 || blocks < 3);
	     seed++) {
		void *st = try_state(g, opts, seed);
		struct rng r;
		rng_seed(&r, seed);
		if (g->players(st) < 2) {
			free(st);
			break;
		}
		for (int step = 0; step < 300; step++) {
			if (g->status(st).phase == GAME_PLAY) {
				int n = g->moves(st, list), count[4] = {0};
				int cls[n > 0 ? n : 1];
				for (int i = 0; i < n && n <= 64; i++)
					count[cls[i] = classify(g, st,
								&list[i])]++;
				int want_win = count[WINS_NOW] &&
					       count[WINS_NOW] < n && wins < 3;
				/* with more players a loss can come later; a
				 * lost position holds out too (see
				 * a_lost_root_holds_out) */
				int want_block = g->players(st) == 2 &&
						 !count[WINS_NOW] &&
						 count[SAFE] &&
						 count[SAFE] < n && blocks < 3;
				if (n <= 64 && (want_win || want_block)) {
					struct move mv;
					int k = want_win ? WINS_NOW : SAFE;
					ck_assert_int_eq(choose(g, st,
								AI_LEVEL_MAX,
								400, seed, &mv),
							 0);
					ck_assert_msg(
						classify(g, st, &mv) == k ||
							(want_win &&
							 wins_as_much(g, st,
								      &mv)),
						"%s %s seed %d step %d: the "
						"search "
						"missed a one-move %s",
						g->name, opts, (int)seed, step,
						want_win ? "win" : "loss");
					if (want_block) {
						/* a hot draw keeps to the
						 * moves not proven lost, and
						 * a lost root to one that
						 * holds out */
						struct search_info info;
						hot_search(g, st, 0, seed, &mv,
							   &info);
						int cold = classify(g, st, &mv);
						hot_search(g, st, 1000, seed,
							   &mv, &info);
						ck_assert_msg(
							cold != SAFE ||
								classify(g, st,
									 &mv) ==
									SAFE,
							"%s %s seed %d step "
							"%d: a hot search "
							"missed a one-move "
							"loss",
							g->name, opts,
							(int)seed, step);
					}
					if (want_win) {
						ck_assert_int_eq(
							choose(g, st, 1, 0,
							       seed, &mv),
							0);
						ck_assert_msg(
							classify(g, st, &mv) ==
								WINS_NOW,
							"%s: greedy missed a "
							"win",
							g->name);
					}
					wins += want_win;
					blocks += want_block;
				}
			}
			if (walk_step(g, st, &r, list) < 0)
				break;
		}
		free(st);
	}
	found_wins += wins;
	found_blocks += blocks;
	free(list);
}

START_TEST(every_game_takes_wins_and_blocks_losses)
{
	found_wins = found_blocks = 0;
	each_setup(one_move_facts);
	/* at least checkertoe has both */
	ck_assert_int_gt(found_wins, 0);
	ck_assert_int_gt(found_blocks, 0);
}
END_TEST

/* A two-player Take It Away game on board (64 letters, row 8 first), the
 * moves played: bench-strength's endgames write their positions so. */
static void *takeitaway_after(const struct game *g, const char *board,
			      const char *moves)
{
	char opts[160];
	snprintf(opts, sizeof opts,
		 "players=2 board=%s open=0 nodrop=0 penalty=2 plain=0", board);
	void *st = new_state(g, opts, 1);
	play_line(g, st, moves);
	return st;
}

/* The top level's move at st under a budget of playouts, as its index in
 * list[0..n) (which must hold it); its text into buf. */
static int chosen_index(const struct game *g, const void *st, long playouts,
			uint64_t seed, const struct move *list, int n,
			char *buf)
{
	struct move mv;
	ck_assert_int_eq(choose(g, st, AI_LEVEL_MAX, playouts, seed, &mv), 0);
	g->format(st, &mv, buf);
	int i = 0;
	while (i < n && !move_equal(&list[i], &mv))
		i++;
	ck_assert_int_lt(i, n);
	return i;
}

/* Take It Away, player 2 jumping alone with player 1 dropped out: h1-f3
 * and h1-h3 end the game at once, 3 points ahead; f1-h3 and h2-f2 leave
 * one more jump each, and win by 6.  And a board where h7-h5 wins by 14
 * and the moves that end the game win by 8.  (A win at once used to be
 * all the tree kept of a node, the root too.) */
START_TEST(a_bigger_win_beats_a_win_at_once)
{
	static const char *const cases[][3] = {
		{"board=......w...............w.b.................."
		 "w..........ww.....w.b captured=7:12:1,21:8:7",
		 "f1-h3", "h2-f2"},
		{"board=..w..w........rw.......ww...........w...w......w......"
		 "...r.b.... captured=4:7:4,22:11:5",
		 "h7-h5", "h7-h5"},
	};
	const struct game *g = game_find("takeitaway");
	for (size_t k = 0; k < 2; k++) {
		char opts[256];
		snprintf(opts, sizeof opts,
			 "players=2 %s open=0 nodrop=0 penalty=2 plain=0 "
			 "dropped=1 turn=2",
			 cases[k][0]);
		void *st = new_state(g, opts, 1);
		for (uint64_t seed = 1; seed <= 3; seed++) {
			struct move mv;
			char buf[MOVE_TEXT_MAX];
			ck_assert_int_eq(
				choose(g, st, AI_LEVEL_MAX, 1000, seed, &mv),
				0);
			g->format(st, &mv, buf);
			ck_assert_msg(!strcmp(buf, cases[k][1]) ||
					      !strcmp(buf, cases[k][2]),
				      "case %d seed %d: %s", (int)k, (int)seed,
				      buf);
		}
		free(st);
	}
}
END_TEST

/* Take It Away, player 2 jumping alone (player 1 dropped out) about ten
 * jumps before the end of a self-played game: the win is proven in
 * milliseconds, its margin takes the solver seconds (3.5 s did not settle
 * it).  The proof ends the search, and the margins get the whole move: it
 * used to stop at the end of the solver's first share, 0.7 of it, the
 * rest unused. */
START_TEST(a_proven_root_gives_its_margins_the_whole_move)
{
	struct session *s = quiet_session();
	FILE *log = tmpfile();
	ck_assert(log != NULL);
	session_set_log(s, log);
	ok(s, "newgame takeitaway players=2 board=wwrbwrwwwwwwwrwrwrwwwwrrbwbw"
	      "wbrwwwrrwwwrbwwbwwbrrwrwbwrrrwrrbrwb open=0 nodrop=0 "
	      "penalty=2 plain=0");
	/* every move in its turn (play_both with no second list) */
	play_both(s,
		  "b7 d7-b7 a5-c7 b7-d7 a7-a5 c4-a6 c6-c4 e3-c5 e1-e3 f2-d4-b6 "
		  "g1-e1 b3-b5-b7 d2-d4-b4-d2 a5-a7-c7 b1-d3 g4-e2-c4 g3-g1 "
		  "d5-b3-b1 f5-f3-d5-f5 e6-g4 c8-e6-c6-c8 h1-f1 e1-g1 c1-e1-c3 "
		  "a1-c1 h3-h1-f1 drop h4-f4",
		  "");
	ok(s, "set movetime 300");
	double t0 = ai_now_ms();
	ok(s, "genmove");
	double took = ai_now_ms() - t0;
	char line[1024] = "";
	rewind(log);
	ck_assert(fgets(line, sizeof line, log) != NULL);
	ck_assert_msg(strstr(line, "proven win"), "not proven: %s", line);
	ck_assert_msg(took > 270, "the move took %.1f ms of 300: %s", took,
		      line);
	session_set_log(s, NULL);
	fclose(log);
	session_free(s);
}
END_TEST

/* Take It Away near the end of a self-played game, one player dropped out
 * (bench-strength's endgames, seed 2033): the win is proven in thousands
 * of nodes, the margins need millions.  Under a budget the solver settles
 * the tree's favourites first (several win by 30, the most there is) and
 * runs out before the rest; the search must play one of the moves settled
 * best, where it used to drop what the solver had found and choose among
 * all proven wins by its visits (a6-a4-a2-c2, a win by 27, for two of the
 * three seeds).  The truth comes from the solver with room to finish. */
START_TEST(a_margin_cut_short_keeps_what_it_settled)
{
	const struct game *g = game_find("takeitaway");
	void *st = takeitaway_after(
		g,
		"rrwwwbwrrrwwwwwwrbwrwrbrwrrrwrwwwwwwwwbwbbbwrbrwrwrrbrrwbwww"
		"wwww",
		"h1 f3-h1 g4-g2 g1-g3 e3-g1 e1-e3 e6-g4-g2 d3-f3-f5-d3 "
		"c6-e6-e4-c6 g1-e1 b4-d6 c3-e3-c5-c3 d2-b4 a7-c5 d6-b6-d4 "
		"a2-c4-e4 f7-f5-d3 h6-f6 e8-e6-g6-g4 a8-c6-e8 c1-c3-e3 d1-f1 "
		"c8-a8 a4-c6-c8 drop d8-b8 h8-h6");
	struct move *list = move_buf(2, g);
	int n = g->moves(st, list), best = -SOLVE_INF;
	struct solve_bound *b = malloc(sizeof *b * (size_t)n);
	struct solve_job job = {.want = SOLVE_MARGIN, .node_limit = 50000000};
	solve_forget(tctx());
	ck_assert(solve_moves(tctx(), g, st, list, n, &job, b));
	for (int i = 0; i < n; i++)
		if (b[i].lo > best)
			best = b[i].lo;
	ck_assert_int_gt(solve_result(best), 0);
	for (uint64_t seed = 1; seed <= 3; seed++) {
		char buf[MOVE_TEXT_MAX];
		solve_forget(tctx());
		int i = chosen_index(g, st, 30000, seed, list, n, buf);
		ck_assert_msg(b[i].lo == best,
			      "seed %d: %s wins by %d, the best by %d",
			      (int)seed, buf, b[i].hi - SOLVE_RESULT,
			      best - SOLVE_RESULT);
	}
	free(b);
	free(st);
}
END_TEST

/* Take It Away near the end of a self-played game (bench-strength's
 * endgames, seed 2036): three moves draw and fifteen lose.  Under this
 * budget the solver runs out with most moves settled, the draws among
 * them; the search must not play a move it proved lost, where it used to
 * drop what the solver had found and play a2-c2, a loss by one (under the
 * first seed here).  The truth comes from the solver with room to
 * finish. */
START_TEST(a_solve_cut_short_sets_aside_what_it_proved_worse)
{
	const struct game *g = game_find("takeitaway");
	void *st = takeitaway_after(
		g,
		"wwwrwwwwbrrbwbrwwrrwrrrwwwwbrwrwbwwwrrbwwwwwrwrrwwwbbrbbrwrr"
		"wwww",
		"h8 f6-h8 e7-g7 d5-f7 g8-e6 h5-f7-d5 c8-e6 e8-c8 f3-h5 "
		"g2-g4-g6-g8-e8 b8-d8-f8 e1-g3 e3-e1 e5-g5-e3-e5-e7 b7-d7-f7 "
		"c6-e6-g8-e8 c4-e4-c6-c4-e2 b5-b7 d1-d3 h4-f2-d2-d4 c2-c4-e4 "
		"h6-h4 b1-d1");
	struct move *list = move_buf(2, g);
	int n = g->moves(st, list), *value = malloc(sizeof *value * (size_t)n);
	long nodes;
	ck_assert(search_solve(tctx(), g, st, list, n, 0, 20000000, NULL, NULL,
			       value, NULL, &nodes));
	int draws = 0;
	for (int i = 0; i < n; i++)
		draws += value[i] == 0;
	ck_assert_int_eq(draws, 3); /* and no win */
	for (uint64_t seed = 1; seed <= 3; seed++) {
		char buf[MOVE_TEXT_MAX];
		int i = chosen_index(g, st, 400000, seed, list, n, buf);
		ck_assert_msg(value[i] == 0, "seed %d: %s loses", (int)seed,
			      buf);
	}
	free(value);
	free(st);
}
END_TEST

/* ---- every game: legal moves, determinism ---- */

static void legal_everywhere(const struct game *g, const char *opts)
{
	struct move *list = malloc(sizeof *list * (size_t)g->max_moves);
	for (uint64_t seed = 1; seed <= 4; seed++) {
		void *st = try_state(g, opts, seed);
		struct rng r;
		rng_seed(&r, seed * 31);
		for (int step = 0; step < 150; step++) {
			if (g->status(st).phase == GAME_PLAY && step % 3 == 0) {
				for (int level = 0; level <= AI_LEVEL_MAX;
				     level++) {
					struct move mv;
					ck_assert_msg(
						choose(g, st, level, 30,
						       seed + (uint64_t)step,
						       &mv) == 0,
						"%s %s: level %d found no move",
						g->name, opts, level);
					ck_assert_msg(is_legal(g, st, &mv),
						      "%s %s seed %d step %d: "
						      "level %d "
						      "chose an illegal move",
						      g->name, opts, (int)seed,
						      step, level);
				}
			}
			if (walk_step(g, st, &r, list) < 0)
				break;
		}
		free(st);
	}
	free(list);
}

START_TEST(never_an_illegal_move)
{
	each_setup(legal_everywhere);
}
END_TEST

/* A stop hook that never stops but, at its first call, keeps the search
 * waiting for `ms` milliseconds: a busy machine that takes the processor
 * away for that long at the worst moment, early in the search. */
struct nap {
	double ms;
	int calls;
};

static int nap_once(void *ctx)
{
	struct nap *n = ctx;
	if (n->calls++ == 0) {
		struct timespec ts = {0, (long)(n->ms * 1e6)};
		nanosleep(&ts, NULL);
	}
	return 0;
}

/* The move of `level` (below the top: a playout budget) in st, within
 * movetime_ms, with a first wait of nap_ms (0: none) as nap_once makes.
 * Returns the iterations its search made. */
static long level_move(const struct game *g, const void *st, int level,
		       double movetime_ms, double nap_ms, struct move *mv)
{
	static struct ai *ai;
	if (!ai)
		ai = ai_new();
	struct nap nap = {nap_ms, 0};
	struct ai_search how = {.level = level,
				.movetime_ms = movetime_ms,
				.start_ms = ai_now_ms(),
				.seed = 99,
				.stop = nap_ms > 0 ? nap_once : NULL,
				.ctx = &nap};
	ck_assert_int_eq(ai_choose(ai, g, st, &how, mv, NULL), 0);
	struct search_info info;
	ai_tree_info(ai, &info);
	return info.iterations;
}

static void same_move_twice(const struct game *g, const char *opts)
{
	struct move *list = malloc(sizeof *list * (size_t)g->max_moves);
	for (uint64_t seed = 1; seed <= 2; seed++) {
		void *st = try_state(g, opts, seed);
		struct rng r;
		rng_seed(&r, seed);
		for (int step = 0; step < 40; step++) {
			if (g->status(st).phase == GAME_PLAY && step % 7 == 0) {
				struct move a, b;
				ck_assert_int_eq(choose(g, st, AI_LEVEL_MAX,
							300, 99, &a),
						 0);
				ck_assert_int_eq(choose(g, st, AI_LEVEL_MAX,
							300, 99, &b),
						 0);
				ck_assert_msg(move_equal(&a, &b),
					      "%s %s: two moves for "
					      "one position, seed and budget",
					      g->name, opts);
				/* a level below the top draws its move (a
				 * movetime that cannot end it: its budget
				 * does) */
				level_move(g, st, 4, 3600000, 0, &a);
				level_move(g, st, 4, 3600000, 0, &b);
				ck_assert_msg(move_equal(&a, &b),
					      "%s %s: two moves at level 4 "
					      "for one position and seed",
					      g->name, opts);
			}
			if (walk_step(g, st, &r, list) < 0)
				break;
		}
		free(st);
	}
	free(list);
}

START_TEST(deterministic_with_fixed_playouts)
{
	each_setup(same_move_twice);
}
END_TEST

/* A level's search is a playout budget that its time may end but never
 * steer: a wait early in the search, past every early phase of its time
 * (a tenth of it and less), leaves its move as it was whenever the budget,
 * not the deadline, ended the search (the same iterations).  It once
 * depended on the time: the first look at the game's length stopped at
 * 2% of movetime, so a busy machine changed a level's move. */
static void budget_not_steered(const struct game *g, const char *opts)
{
	struct move *list = move_buf(1, g);
	void *st = try_state(g, opts, 3);
	struct rng r;
	rng_seed(&r, 3);
	for (int step = 0; step < 30; step++) {
		if (g->status(st).phase == GAME_PLAY && step % 5 == 0) {
			struct move calm, busy;
			long n = level_move(g, st, 4, 3600000, 0, &calm);
			/* the early phases end by 20 ms of 200; the search
			 * has the rest */
			long k = level_move(g, st, 4, 200, 25, &busy);
			ck_assert_msg(k != n || move_equal(&calm, &busy),
				      "%s %s step %d: a wait changed level "
				      "4's move",
				      g->name, opts, step);
		}
		if (walk_step(g, st, &r, list) < 0)
			break;
	}
	free(st);
}

START_TEST(a_budget_is_not_steered_by_the_clock)
{
	each_setup(budget_not_steered);
}
END_TEST

/* The same through the protocol: set seed + set playouts, then hint. */
START_TEST(hint_is_reproducible)
{
	struct session *s = quiet_session();
	for (int i = 0; game_table[i]; i++) {
		char cmd[128], *first;
		snprintf(cmd, sizeof cmd, "newgame %s seed=5",
			 game_table[i]->name);
		ok(s, cmd);
		if (!strncmp(ok(s, "status"), "roll", 4))
			ok(s, "roll");
		ok(s, "set playouts 500");
		ok(s, "set seed 11");
		first = strdup(ok(s, "hint"));
		ok(s, "set seed 11");
		ck_assert_str_eq(ok(s, "hint"), first);
		ok(s, "set seed 11");
		ck_assert_str_eq(ok(s, "genmove"), first);
		free(first);
	}
	session_free(s);
}
END_TEST

/* ---- chance: a tiny game of pure odds ---- */

/* Player 1 picks a die, player 1 rolls it, the face decides.  Die 0 wins
 * on face 1 (odds 0.45) and loses on face 2; die 1 wins on faces 1 and 3
 * (odds 0.2 each) and loses on face 2 (0.6).  Die 0 is better (0.45 to
 * 0.4); a search that counted faces alike would take die 1 (2 of 3), and
 * one that hoped for its roll would see no difference. */
struct dice_state {
	uint8_t phase; /* 0 pick, 1 roll, 2 over */
	uint8_t die;
	uint8_t winner;
};

/* Both tiny games of these tests have two players. */
static int two_players(const void *st)
{
	(void)st;
	return 2;
}

static struct game_status dice_status(const void *st)
{
	const struct dice_state *s = st;
	enum game_phase ph = s->phase == 0   ? GAME_PLAY
			     : s->phase == 1 ? GAME_ROLL
					     : GAME_OVER;
	return (struct game_status){ph, ph == GAME_OVER ? s->winner : 1};
}

static int dice_moves(const void *st, struct move *out)
{
	const struct dice_state *s = st;
	if (s->phase != 0)
		return 0;
	out[0] = (struct move){{0}};
	out[1] = (struct move){{1}};
	return 2;
}

static int dice_chance(const void *st, int *values, double *probs)
{
	const struct dice_state *s = st;
	if (s->die == 0) {
		values[0] = 1, probs[0] = 0.45;
		values[1] = 2, probs[1] = 0.55;
		return 2;
	}
	values[0] = 1, probs[0] = 0.2;
	values[1] = 2, probs[1] = 0.6;
	values[2] = 3, probs[2] = 0.2;
	return 3;
}

static void dice_roll(void *st, int value)
{
	struct dice_state *s = st;
	s->winner = value == 2 ? 2 : 1;
	s->phase = 2;
}

static void dice_play(void *st, const struct move *mv)
{
	struct dice_state *s = st;
	s->die = (uint8_t)mv->w[0];
	s->phase = 1;
}

static void dice_format(const void *st, const struct move *mv, char *buf)
{
	(void)st;
	snprintf(buf, MOVE_TEXT_MAX, "die%d", (int)mv->w[0]);
}

static void dice_score(const void *st, int *points)
{
	const struct dice_state *s = st;
	points[0] = s->winner == 1;
	points[1] = s->winner == 2;
}

static const struct game dice_game = {
	.name = "dice",
	.state_size = sizeof(struct dice_state),
	.max_moves = 2,
	.players = two_players,
	.status = dice_status,
	.moves = dice_moves,
	.chance = dice_chance,
	.roll = dice_roll,
	.play = dice_play,
	.format = dice_format,
	.score = dice_score,
};

START_TEST(chance_is_weighted_by_its_odds)
{
	struct dice_state st = {0, 0, 0};
	for (uint64_t seed = 1; seed <= 5; seed++) {
		struct move mv;
		ck_assert_int_eq(
			choose(&dice_game, &st, AI_LEVEL_MAX, 3000, seed, &mv),
			0);
		ck_assert_msg(mv.w[0] == 0, "seed %d: took the worse die",
			      (int)seed);
	}
}
END_TEST

/* ---- the clock ---- */

/* How late one genmove ends past `ms`, at best of TRIES: a late one is
 * taken back (undo) and searched again.  The machine's own pauses do not
 * come back on the next try, an overrun of the search does: under a
 * virtual machine the process stops now and then for 10 to 40 ms while
 * the host runs something else (seen as wall-clock gaps with no processor
 * time behind them); in CI one genmove here once ended 436 ms late, which
 * no run since has repeated. */
#define TRIES 4
static double late_at_best(struct session *s, double ms, double allowed)
{
	double best = 1e9;
	for (int k = 0; k < TRIES && best > allowed; k++) {
		if (k > 0)
			ok(s, "undo");
		double t0 = ai_now_ms();
		ok(s, "genmove");
		double late = ai_now_ms() - t0 - ms;
		if (late < best)
			best = late;
	}
	return best;
}

START_TEST(movetime_is_respected)
{
	struct session *s = quiet_session();
	double worst = -1e9;
	const char *worst_game = "";
	/* loose: the sanitizers stretch it; bench_ai measures it exactly */
	const double allowed = 25;
	for (int i = 0; game_table[i]; i++) {
		char cmd[128];
		snprintf(cmd, sizeof cmd, "newgame %s seed=7",
			 game_table[i]->name);
		ok(s, cmd);
		ok(s, "set movetime 40");
		for (int k = 0; k < 6; k++) {
			const char *st = ok(s, "status");
			if (!strncmp(st, "over", 4))
				break;
			if (!strncmp(st, "roll", 4)) {
				ok(s, "roll");
				continue;
			}
			double late = late_at_best(s, 40, allowed);
			if (late > worst)
				worst = late, worst_game = game_table[i]->name;
		}
	}
	ck_assert_msg(worst < allowed,
		      "genmove ran %.1f ms past movetime in %s, at best of %d",
		      worst, worst_game, TRIES);
	session_free(s);
}
END_TEST

/* ---- the exact solver ---- */

/* Plain negamax over win/draw/loss, no table, with a node budget.  Its
 * move lists sit end to end in one buffer (see move_buf). */
static long plain_nodes;
static struct move *plain_buf;
static size_t plain_cap, plain_top;

static struct move *plain_list(const struct game *g, int *ok)
{
	if (plain_cap - plain_top < (size_t)g->max_moves) {
		*ok = 0;
		return NULL;
	}
	return plain_buf + plain_top;
}

static void plain_begin(const struct game *g)
{
	size_t want = (size_t)g->max_moves + 64 * 256;
	if (plain_cap < want) {
		free(plain_buf);
		plain_buf = malloc(sizeof *plain_buf * want);
		ck_assert(plain_buf != NULL);
		plain_cap = want;
	}
	plain_top = 0;
	plain_nodes = 0;
}

static int plain(const struct game *g, const void *st, int *ok)
{
	if (++plain_nodes > 100000) {
		*ok = 0;
		return 0;
	}
	struct game_status s = g->status(st);
	struct move *list = plain_list(g, ok);
	if (!list)
		return 0;
	unsigned char *c = malloc(g->state_size);
	int n = g->moves(st, list), best = -2;
	plain_top += (size_t)n;
	if (n == 0)
		*ok = 0;
	for (int i = 0; i < n && *ok; i++) {
		memcpy(c, st, g->state_size);
		g->play(c, &list[i]);
		struct game_status cs = g->status(c);
		int v;
		if (cs.phase == GAME_OVER)
			v = cs.player == s.player ? 1 : cs.player ? -1 : 0;
		else if (cs.phase == GAME_ROLL)
			*ok = 0, v = 0;
		else
			v = cs.player == s.player ? plain(g, c, ok)
						  : -plain(g, c, ok);
		if (v > best)
			best = v;
	}
	plain_top -= (size_t)n;
	free(c);
	return best;
}

static int solver_checked;

static void solver_agrees(const struct game *g, const char *opts)
{
	struct move *list = malloc(sizeof *list * (size_t)g->max_moves);
	int *value = malloc(sizeof *value * (size_t)g->max_moves);
	unsigned char *c = malloc(g->state_size);
	int checked = 0;
	for (uint64_t seed = 1; seed <= 6 && checked < 4; seed++) {
		void *st = try_state(g, opts, seed);
		if (g->players(st) != 2) {
			free(st);
			break;
		}
		struct rng r;
		rng_seed(&r, seed);
		/* walk to the end, then step back to the last position a plain
		 * search can still finish */
		unsigned char *trail = malloc(g->state_size * 400);
		int len = 0;
		while (len < 400) {
			memcpy(trail + (size_t)len * g->state_size, st,
			       g->state_size);
			len++;
			if (walk_step(g, st, &r, list) < 0)
				break;
		}
		for (int k = len - 1; k >= 0 && checked < 4; k--) {
			void *p = trail + (size_t)k * g->state_size;
			if (g->status(p).phase != GAME_PLAY)
				continue;
			int n = g->moves(p, list);
			if (n == 0)
				break;
			int want[n], ok = 1;
			plain_begin(g);
			int me = g->status(p).player;
			for (int i = 0; i < n && ok; i++) {
				memcpy(c, p, g->state_size);
				g->play(c, &list[i]);
				struct game_status cs = g->status(c);
				if (cs.phase == GAME_OVER)
					want[i] = cs.player == me ? 1
						  : cs.player     ? -1
								  : 0;
				else if (cs.phase == GAME_ROLL)
					ok = 0;
				else
					want[i] = cs.player == me
							  ? plain(g, c, &ok)
							  : -plain(g, c, &ok);
			}
			if (!ok)
				break; /* earlier positions are bigger still */
			long nodes;
			ck_assert_msg(search_solve(tctx(), g, p, list, n, 0,
						   10000000, NULL, NULL, value,
						   NULL, &nodes),
				      "%s %s: the solver gave up where a plain "
				      "search did not",
				      g->name, opts);
			for (int i = 0; i < n; i++)
				ck_assert_msg(value[i] == want[i],
					      "%s %s seed %d ply %d move %d: "
					      "solver says "
					      "%d, plain search %d",
					      g->name, opts, (int)seed, k, i,
					      value[i], want[i]);
			checked++;
			k -= 2; /* spread the positions out */
		}
		free(trail);
		free(st);
	}
	solver_checked += checked;
	free(list);
	free(value);
	free(c);
}

START_TEST(solver_matches_plain_search)
{
	solver_checked = 0;
	each_setup(solver_agrees);
	ck_assert_int_gt(solver_checked, 0);
}
END_TEST

/* Solo games: the solver's value of each move is the best final score a
 * plain exhaustive search finds. */
static int plain_solo(const struct game *g, const void *st, int *ok)
{
	if (++plain_nodes > 100000) {
		*ok = 0;
		return 0;
	}
	struct game_status s = g->status(st);
	if (s.phase != GAME_PLAY) {
		int pts[GAME_MAX_PLAYERS] = {0};
		g->score(st, pts);
		*ok &= s.phase == GAME_OVER;
		return pts[0];
	}
	struct move *list = plain_list(g, ok);
	if (!list)
		return 0;
	unsigned char *c = malloc(g->state_size);
	int n = g->moves(st, list), best = -1000000;
	plain_top += (size_t)n;
	if (n == 0)
		*ok = 0;
	for (int i = 0; i < n && *ok; i++) {
		memcpy(c, st, g->state_size);
		g->play(c, &list[i]);
		int v = plain_solo(g, c, ok);
		if (v > best)
			best = v;
	}
	plain_top -= (size_t)n;
	free(c);
	return best;
}

static void solo_solver_agrees(const struct game *g, const char *opts)
{
	void *st = try_state(g, opts, 3);
	if (g->players(st) != 1) {
		free(st);
		return;
	}
	struct move *list = malloc(sizeof *list * (size_t)g->max_moves);
	int *value = malloc(sizeof *value * (size_t)g->max_moves);
	unsigned char *c = malloc(g->state_size);
	struct rng r;
	rng_seed(&r, 3);
	for (int step = 0; step < 400; step++) {
		if (g->status(st).phase == GAME_PLAY) {
			int n = g->moves(st, list), ok = n > 0;
			int want[n > 0 ? n : 1];
			plain_begin(g);
			for (int i = 0; i < n && ok; i++) {
				memcpy(c, st, g->state_size);
				g->play(c, &list[i]);
				want[i] = plain_solo(g, c, &ok);
			}
			long nodes;
			if (ok) {
				ck_assert(search_solve(tctx(), g, st, list, n,
						       0, 10000000, NULL, NULL,
						       value, NULL, &nodes));
				for (int i = 0; i < n; i++)
					ck_assert_msg(
						value[i] == want[i],
						"%s %s: solver %d, plain %d",
						g->name, opts, value[i],
						want[i]);
				solver_checked++;
			}
		}
		if (walk_step(g, st, &r, list) < 0)
			break;
	}
	free(list);
	free(value);
	free(c);
	free(st);
}

START_TEST(solo_solver_matches_plain_search)
{
	solver_checked = 0;
	each_setup(solo_solver_agrees);
	if (game_find("abstractoe"))
		ck_assert_int_gt(solver_checked, 0);
}
END_TEST

/* A small Tiptoe board is solved outright (the clock is not involved:
 * the node budget is generous but finite). */
START_TEST(solver_solves_small_tiptoe)
{
	const struct game *g = game_find("tiptoe");
	if (!g)
		return;
	void *st = try_state(g, "size=4", 1);
	ck_assert(st != NULL);
	struct move *list = malloc(sizeof *list * (size_t)g->max_moves);
	int *value = malloc(sizeof *value * (size_t)g->max_moves);
	/* past the set-up, where the game proper starts */
	struct rng r;
	rng_seed(&r, 3);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(walk_step(g, st, &r, list), 0);
	int n = g->moves(st, list);
	long nodes;
	ck_assert_int_gt(n, 0);
	ck_assert(search_solve(tctx(), g, st, list, n, 0, 20000000, NULL, NULL,
			       value, NULL, &nodes));
	for (int i = 0; i < n; i++)
		ck_assert(value[i] == 1 ||
			  value[i] == -1); /* no draws in Tiptoe */
	free(list);
	free(value);
	free(st);
}
END_TEST

/* ---- the tree between searches ---- */

/* A search of st in the tree t: clock-bound (movetime ms) when playouts
 * is 0. */
static int tree_choose(struct search_kit *t, const struct game *g,
		       const void *st, long playouts, double movetime,
		       uint64_t seed, struct move *mv)
{
	double now = ai_now_ms();
	struct ai_search how = {.level = AI_LEVEL_MAX,
				.playouts = playouts,
				.movetime_ms = movetime,
				.start_ms = now,
				.seed = seed};
	struct ai_time time = {.start = now,
			       .fixed = playouts > 0 ? 0 : movetime};
	return search_choose(t, g, st, &how, &time, mv, NULL);
}

/* The time a search gives the exact solver is counted apart (the
 * benchmark's rate of the tree alone): none from the opening of a long
 * game, some of a short one, never more than the whole search, and a new
 * search starts from nothing.  Playout budgets, not clocks: under a clock
 * a slow build (the sanitizers) may not reach the solver's turn. */
START_TEST(the_solver_s_time_is_counted)
{
	struct search_kit *t = rig_new(8 << 20);
	struct search_info info;
	struct move mv;
	const struct game *tip = game_find("tiptoe");
	void *st = new_state(tip, "size=5", 1);
	double t0 = ai_now_ms();
	ck_assert_int_eq(tree_choose(t, tip, st, 2000, 0, 1, &mv), 0);
	double took = ai_now_ms() - t0;
	search_info(t, &info);
	ck_assert_msg(info.solver_ms > 0 && info.solver_ms <= took + 1,
		      "tiptoe 5x5: the solver had %.1f ms of a %.1f ms search",
		      info.solver_ms, took);
	free(st);
	const struct game *ct = game_find("checkertoe");
	st = new_state(ct, "first=1", 1);
	rig_reset(t, 8 << 20);
	ck_assert_int_eq(tree_choose(t, ct, st, 2000, 0, 1, &mv), 0);
	search_info(t, &info);
	ck_assert_msg(info.solver_ms == 0,
		      "checkertoe's opening: the solver had %.1f ms",
		      info.solver_ms);
	free(st);
	rig_free(t);
}
END_TEST

/* How many other moves of st lead where mv does. */
static int transpositions(const struct game *g, const void *st,
			  const struct move *mv)
{
	struct move *list = move_buf(3, g);
	unsigned char *a = malloc(g->state_size), *b = malloc(g->state_size);
	memcpy(a, st, g->state_size);
	g->play(a, mv);
	int n = g->moves(st, list), same = 0;
	for (int i = 0; i < n; i++) {
		memcpy(b, st, g->state_size);
		g->play(b, &list[i]);
		same += !move_equal(&list[i], mv) &&
			!memcmp(a, b, g->state_size);
	}
	free(a);
	free(b);
	return same;
}

static unsigned long reuse_checked;

/* After a clock-bound search chose mv, a search of the position after mv
 * starts from mv's subtree: its root has exactly the visits mv had; a
 * search of that same position again keeps the whole root; a playout
 * budget starts from nothing. */
static void reuse_keeps_visits(const struct game *g, const char *opts)
{
	struct move *list = move_buf(2, g);
	struct search_kit *t = rig_new(8 << 20);
	for (uint64_t seed = 1; seed <= 1; seed++) {
		void *st = try_state(g, opts, seed);
		struct rng r;
		rng_seed(&r, seed);
		for (int step = 0; step < 60; step++) {
			struct game_status s = g->status(st);
			if (s.phase == GAME_OVER)
				break;
			if (s.phase == GAME_ROLL || step % 5) {
				walk_step(g, st, &r, list);
				continue;
			}
			struct move mv;
			struct search_info a, b, c;
			ck_assert_int_eq(tree_choose(t, g, st, 0, 5, seed, &mv),
					 0);
			search_info(t, &a);
			int twins = transpositions(g, st, &mv);
			g->play(st, &mv);
			if (g->status(st).phase != GAME_PLAY)
				continue;
			ck_assert_int_eq(tree_choose(t, g, st, 0, 5, seed, &mv),
					 0);
			search_info(t, &b);
			/* where other moves lead to the same position, the
			 * most visited of their nodes is the new root */
			ck_assert_msg(twins ? b.reused >= a.chosen
					    : b.reused == a.chosen,
				      "%s %s step %d: the new root has %lu "
				      "visits, the move had %lu",
				      g->name, opts, step, b.reused, a.chosen);
			ck_assert_int_eq(tree_choose(t, g, st, 0, 5, seed, &mv),
					 0);
			search_info(t, &c);
			ck_assert_uint_eq(c.reused, b.visits);
			ck_assert_int_eq(
				tree_choose(t, g, st, 50, 0, seed, &mv), 0);
			search_info(t, &c);
			ck_assert_uint_eq(c.reused, 0);
			reuse_checked += a.chosen > 0;
		}
		free(st);
	}
	rig_free(t);
}

/* Where the search keeps minimax values (a game that asks for them:
 * Tiptoe's square board, Take It Away before its endgame), every node's
 * is the best of its children's after a search and after a search of a
 * kept tree, and the other games and boards keep none. */
START_TEST(minimax_values_follow_the_children)
{
	static const struct {
		const char *game, *opts;
		int keeps;
	} cases[] = {{"tiptoe", "", 1},     {"tiptoe", "size=12", 1},
		     {"tiptoe", "hex", 0},  {"tiptoe", "diagonal", 0},
		     {"abstractoe", "", 0}, {"takeitaway", "", 1},
		     {"takebacktoe", "", 0}};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		const struct game *g = game_find(cases[k].game);
		struct move *list = move_buf(2, g);
		struct search_kit *t = rig_new(8 << 20);
		void *st = try_state(g, cases[k].opts, 7);
		struct rng r;
		rng_seed(&r, 7);
		for (int step = 0; step < 8; step++)
			walk_step(g, st, &r, list);
		while (g->status(st).phase == GAME_ROLL)
			walk_step(g, st, &r, list);
		struct move mv;
		long seen;
		ck_assert_int_eq(tree_choose(t, g, st, 20000, 0, 7, &mv), 0);
		ck_assert_int_eq(tree_im_faults(t->tree, &seen), 0);
		if (cases[k].keeps)
			ck_assert_msg(seen > 100,
				      "%s %s: %ld nodes with values",
				      cases[k].game, cases[k].opts, seen);
		else
			ck_assert_int_eq(seen, 0);
		/* clock-bound: the tree is kept for the next search */
		ck_assert_int_eq(tree_choose(t, g, st, 0, 30, 7, &mv), 0);
		g->play(st, &mv);
		while (g->status(st).phase == GAME_ROLL)
			walk_step(g, st, &r, list);
		if (g->status(st).phase == GAME_PLAY) {
			ck_assert_int_eq(tree_choose(t, g, st, 0, 30, 7, &mv),
					 0);
			ck_assert_int_eq(tree_im_faults(t->tree, &seen), 0);
		}
		free(st);
		rig_free(t);
	}
}
END_TEST

/* How often a search's playouts were asked for each number of plies up
 * to 128 (the search also plays whole random games, 128 plies at a time,
 * to judge how long the game will last). */
static long plies_asked[129];
static const struct game *plies_of;

static int counting_playout(void *st, struct rng *r, int max_plies)
{
	plies_asked[max_plies < 128 ? max_plies : 128]++;
	return game_search(plies_of)->playout(st, r, max_plies);
}

static int three_plies(const void *st)
{
	(void)st;
	return 3;
}

/* A search of 2000 playouts of g (a copy of a game, its playouts counted
 * into plies_asked) from st, by a player of its own: g lives on the
 * caller's stack. */
static void count_playouts(const struct game *g, const void *st)
{
	memset(plies_asked, 0, sizeof plies_asked);
	struct ai *ai = ai_new();
	struct ai_search how = {.level = AI_LEVEL_MAX,
				.playouts = 2000,
				.movetime_ms = 60000,
				.start_ms = ai_now_ms(),
				.seed = 1};
	struct move mv;
	ck_assert_int_eq(ai_choose(ai, g, st, &how, &mv, NULL), 0);
	ai_free(ai);
}

/* A game's eval_after sets how far each playout runs before evaluate():
 * Take It Away with its playouts counted, as it is (4 plies with two
 * players) and with a hook that asks for 3. */
START_TEST(playouts_stop_where_the_game_says)
{
	const struct game *ta = game_find("takeitaway");
	void *st = try_state(ta, "", 7);
	struct game g = *ta;
	struct game_search gs = *game_search(ta);
	g.search = &gs;
	gs.playout = counting_playout;
	plies_of = ta;
	for (int k = 0; k < 2; k++) {
		int want = k ? 3 : game_search(ta)->eval_after(st);
		if (k)
			gs.eval_after = three_plies;
		count_playouts(&g, st);
		ck_assert_msg(plies_asked[want] > 1000,
			      "%ld playouts of %d plies", plies_asked[want],
			      want);
		for (int n = 1; n < 128; n++)
			ck_assert_msg(n == want || !plies_asked[n],
				      "%ld playouts of %d plies, not %d",
				      plies_asked[n], n, want);
	}
	ck_assert_int_eq(game_search(ta)->eval_after(st), 4);
	free(st);
}
END_TEST

/* An eval_after of -1 means no playout: Take-Back-Toe's learned
 * evaluation judges the leaves itself, so the search asks its game for
 * no playout at all; the same search with a hook that asks for 3 plies
 * plays them out. */
START_TEST(no_playouts_where_the_game_says_none)
{
	const struct game *tb = game_find("takebacktoe");
	void *st = try_state(tb, "first=1", 7);
	tb->roll(st, 3);
	struct game g = *tb;
	struct game_search gs = *game_search(tb);
	g.search = &gs;
	gs.playout = counting_playout;
	plies_of = tb;
	ck_assert_int_eq(game_search(tb)->eval_after(st), -1);
	for (int k = 0; k < 2; k++) {
		if (k)
			gs.eval_after = three_plies;
		count_playouts(&g, st);
		/* (the 128-ply ones are the time planning's look at how
		 * long a game lasts, not playouts of the search) */
		long asked = 0;
		for (int n = 0; n < 128; n++)
			asked += plies_asked[n];
		if (k)
			ck_assert_msg(plies_asked[3] > 1000, "%ld playouts",
				      plies_asked[3]);
		else
			ck_assert_msg(asked == 0, "%ld playouts", asked);
	}
	free(st);
}
END_TEST

START_TEST(reused_tree_keeps_the_visits_below)
{
	reuse_checked = 0;
	each_setup(reuse_keeps_visits);
	ck_assert_uint_gt(reuse_checked, 10);
}
END_TEST

/* A stop callback that fires once the clock passes a time. */
static int stop_after(void *ctx)
{
	return ai_now_ms() >= *(double *)ctx;
}

START_TEST(pondering_grows_the_next_tree)
{
	const struct game *g = game_find("checkertoe");
	struct search_info plain, pondered;
	for (int ponder = 0; ponder < 2; ponder++) {
		struct search_kit *t = rig_new(16 << 20);
		void *st = new_state(g, "first=1", 1);
		struct move mv;
		ck_assert_int_eq(tree_choose(t, g, st, 0, 20, 1, &mv), 0);
		play_text(g, st, "c3"); /* not the search's move: any move */
		double until = ai_now_ms() + 100;
		struct ai_search how = {.level = AI_LEVEL_MAX,
					.seed = 2,
					.stop = stop_after,
					.ctx = &until};
		if (ponder)
			ck_assert_int_eq(search_ponder(t, g, st, &how), 0);
		play_text(g, st, "d4");
		ck_assert_int_eq(tree_choose(t, g, st, 0, 5, 3, &mv), 0);
		search_info(t, ponder ? &pondered : &plain);
		free(st);
		rig_free(t);
	}
	ck_assert_msg(pondered.reused > plain.reused + 100,
		      "pondering kept %lu visits, not pondering %lu",
		      pondered.reused, plain.reused);
}
END_TEST

/* Small pools, long searches: the pool never holds more nodes than the
 * budget allows, it is compacted when full, and the search does every
 * iteration it was given (it does not stop early) and still plays legal
 * moves. */
static long compactions;

static void budget_holds(const struct game *g, const char *opts)
{
	struct move *list = move_buf(2, g);
	struct search_kit *t = rig_new(32 << 10);
	for (uint64_t seed = 1; seed <= 1; seed++) {
		void *st = try_state(g, opts, seed);
		struct rng r;
		rng_seed(&r, seed);
		for (int step = 0; step < 200; step++) {
			struct game_status s = g->status(st);
			if (s.phase == GAME_OVER)
				break;
			if (s.phase == GAME_PLAY && step % 17 == 0) {
				struct move mv;
				struct search_info info;
				ck_assert_int_eq(tree_choose(t, g, st, 2000, 0,
							     seed, &mv),
						 0);
				search_info(t, &info);
				ck_assert_msg(info.peak <= info.cap,
					      "%s: %lu nodes in a pool of %lu",
					      g->name, info.peak, info.cap);
				ck_assert_msg(is_legal(g, st, &mv),
					      "%s %s seed %d step %d: an "
					      "illegal move after compaction",
					      g->name, opts, (int)seed, step);
				if (!info.settled)
					ck_assert_int_eq(info.iterations, 2000);
				compactions += info.collections;
			}
			if (walk_step(g, st, &r, list) < 0)
				break;
		}
		free(st);
	}
	rig_free(t);
}

START_TEST(memory_budget_holds_over_long_searches)
{
	compactions = 0;
	each_setup(budget_holds);
	ck_assert_int_gt(compactions, 10);
}
END_TEST

/* A whole game from opts (seed 3) played on the tree t at movetime ms a
 * move, the tree kept from move to move, every move checked legal.
 * Returns the pool's compactions. */
static long whole_game_on(struct search_kit *t, const struct game *g,
			  const char *opts, double ms)
{
	struct move *list = move_buf(2, g);
	void *st = try_state(g, opts, 3);
	struct rng r;
	rng_seed(&r, 3);
	long kept = 0;
	for (int step = 0; step < 80; step++) {
		struct game_status s = g->status(st);
		if (s.phase == GAME_OVER)
			break;
		if (s.phase == GAME_ROLL) {
			walk_step(g, st, &r, list);
			continue;
		}
		struct move mv;
		struct search_info info;
		ck_assert_int_eq(
			tree_choose(t, g, st, 0, ms, (uint64_t)step, &mv), 0);
		search_info(t, &info);
		kept += info.collections;
		ck_assert_msg(is_legal(g, st, &mv),
			      "%s %s step %d: an illegal move from a kept "
			      "tree",
			      g->name, opts, step);
		g->play(st, &mv);
	}
	free(st);
	return kept;
}

/* Whole games at a few milliseconds a move with a tiny pool, the tree
 * kept from move to move: compaction of kept trees (and of moves of more
 * than one word: checkertoe's exchange) never loses a legal move. */
static void whole_game_kept_tree(const struct game *g, const char *opts)
{
	struct search_kit *t = rig_new(32 << 10);
	whole_game_on(t, g, opts, 3);
	rig_free(t);
}

START_TEST(kept_trees_stay_sound)
{
	each_setup(whole_game_kept_tree);
}
END_TEST

/* With a playout budget a search answers the same whatever came before
 * in the same tree: clock-bound searches, analysis, pondering, a stopped
 * search. */
static int info_lines;

static void count_info(void *ctx, const struct ai_result *res)
{
	(void)ctx, (void)res;
	info_lines++;
}

static void same_after_other_searches(const struct game *g, const char *opts)
{
	struct move *list = move_buf(2, g);
	for (uint64_t seed = 1; seed <= 1; seed++) {
		void *st = try_state(g, opts, seed);
		struct rng r;
		rng_seed(&r, seed);
		for (int step = 0; step < 120; step++) {
			if (g->status(st).phase == GAME_PLAY &&
			    step % 19 == 0) {
				struct search_kit *fresh = rig_new(8 << 20);
				struct search_kit *used = rig_new(8 << 20);
				struct move a, b;
				ck_assert_int_eq(tree_choose(fresh, g, st, 300,
							     0, 9, &a),
						 0);
				ck_assert_int_eq(
					tree_choose(used, g, st, 0, 10, 5, &b),
					0);
				double until = ai_now_ms() + 15;
				struct ai_search how = {.level = AI_LEVEL_MAX,
							.seed = 7,
							.stop = stop_after,
							.ctx = &until,
							.info = count_info};
				if (g->moves(st, list) > 0)
					search_analyze(used, g, st, &how, 10);
				until = ai_now_ms() + 5;
				search_ponder(used, g, st, &how);
				until = 0; /* stopped at once */
				how.playouts = 300;
				struct ai_time none = {.start = ai_now_ms()};
				search_choose(used, g, st, &how, &none, &b,
					      NULL);
				ck_assert_int_eq(
					tree_choose(used, g, st, 300, 0, 9, &b),
					0);
				ck_assert_msg(
					move_equal(&a, &b),
					"%s %s seed %d step %d: an earlier "
					"search changed a seeded answer",
					g->name, opts, (int)seed, step);
				rig_free(fresh);
				rig_free(used);
			}
			if (walk_step(g, st, &r, list) < 0)
				break;
		}
		free(st);
	}
}

START_TEST(seeded_answers_ignore_earlier_searches)
{
	each_setup(same_after_other_searches);
}
END_TEST

/* ---- proven values ---- */

/* Nim with a die that always shows 1 between moves: 1 to 3 stones a
 * move, whoever takes the last stone wins; a multiple of 4 loses for the
 * player to move.  The die keeps the exact solver out (it gives up at
 * chance), so whatever is proven here the tree proved by itself, through
 * chance nodes too. */
struct nim_state {
	uint8_t stones, mover, roll_due, winner;
};

static struct game_status nim_status(const void *st)
{
	const struct nim_state *s = st;
	if (s->winner)
		return (struct game_status){GAME_OVER, s->winner};
	return (struct game_status){s->roll_due ? GAME_ROLL : GAME_PLAY,
				    s->mover};
}

static int nim_moves(const void *st, struct move *out)
{
	const struct nim_state *s = st;
	int n = 0;
	for (int k = 1; k <= 3 && k <= s->stones && !s->roll_due && !s->winner;
	     k++)
		out[n++] = (struct move){{(uint64_t)k}};
	return n;
}

static int nim_chance(const void *st, int *values, double *probs)
{
	(void)st;
	values[0] = 1, probs[0] = 1;
	return 1;
}

static void nim_roll(void *st, int value)
{
	struct nim_state *s = st;
	(void)value;
	s->roll_due = 0;
	s->mover = (uint8_t)(3 - s->mover);
}

static void nim_play(void *st, const struct move *mv)
{
	struct nim_state *s = st;
	s->stones = (uint8_t)(s->stones - mv->w[0]);
	if (s->stones == 0)
		s->winner = s->mover;
	else
		s->roll_due = 1;
}

static void nim_format(const void *st, const struct move *mv, char *buf)
{
	(void)st;
	snprintf(buf, MOVE_TEXT_MAX, "take%d", (int)mv->w[0]);
}

static void nim_score(const void *st, int *points)
{
	const struct nim_state *s = st;
	points[0] = s->winner == 1;
	points[1] = s->winner == 2;
}

static const struct game nim_game = {
	.name = "nim",
	.state_size = sizeof(struct nim_state),
	.max_moves = 3,
	.players = two_players,
	.status = nim_status,
	.moves = nim_moves,
	.chance = nim_chance,
	.roll = nim_roll,
	.play = nim_play,
	.format = nim_format,
	.score = nim_score,
};

/* The search line of a search of st with a playout budget, as the engine
 * writes it. */
static void search_line(const struct game *g, const void *st, long playouts,
			struct move *mv, char *line, size_t size)
{
	struct search_kit *t = rig_new(8 << 20);
	double now = ai_now_ms();
	struct ai_search how = {.level = AI_LEVEL_MAX,
				.playouts = playouts,
				.start_ms = now,
				.seed = 1};
	struct ai_time time = {.start = now};
	struct ai_result res;
	ck_assert_int_eq(search_choose(t, g, st, &how, &time, mv, &res), 0);
	struct text text;
	text_init(&text);
	engine_search_line(g, st, &res, ai_now_ms() - now, &text);
	snprintf(line, size, "%s", text.s ? text.s : "");
	text_free(&text);
	rig_free(t);
}

START_TEST(the_tree_proves_what_it_settles)
{
	char line[1024];
	struct move mv;
	/* 10 stones: taking 2 leaves a multiple of 4, a proven win; the
	 * search stops as soon as the root is proven, long before the
	 * budget is spent, even before the first tenth of it (the first
	 * look, which once spun on to its end) */
	struct nim_state st = {10, 1, 0, 0};
	search_line(&nim_game, &st, 20000, &mv, line, sizeof line);
	ck_assert_msg(mv.w[0] == 2 && strstr(line, "proven win"), "%s", line);
	const char *after = strstr(line, "after ");
	long done = after ? strtol(after + 6, NULL, 10) : -1;
	ck_assert_msg(done > 0 && done < 2000, "%s", line);
	/* 8 stones: every move loses; the search goes on for the best
	 * chances against an opponent who may err */
	st = (struct nim_state){8, 2, 0, 0};
	search_line(&nim_game, &st, 20000, &mv, line, sizeof line);
	ck_assert_msg(strstr(line, "proven loss"), "%s", line);
	ck_assert_msg(strstr(line, "after 20000 playouts"), "%s", line);
}
END_TEST

/* The moves analyze reports as proven, checked against a plain search:
 * checkertoe and small Tiptoe near their ends. */
struct captured {
	const struct game *g; /* the position analyzed */
	const void *st;
	char line[8192]; /* its last line, as the engine writes it */
	int lines;
	unsigned long shown;     /* the visits the line shows */
	struct search_kit *t;    /* when set: its figures as the line came */
	struct search_info info; /* (search_info) */
};

static void capture_info(void *ctx, const struct ai_result *res)
{
	struct captured *c = ctx;
	struct text line;
	text_init(&line);
	engine_info_line(c->g, c->st, res, &line);
	snprintf(c->line, sizeof c->line, "%s", line.s ? line.s : "");
	text_free(&line);
	c->shown = 0;
	for (int i = 0; i < res->n; i++)
		c->shown += res->cand[i].visits;
	c->lines++;
	if (c->t)
		search_info(c->t, &c->info);
}

static int stop_after_line(void *ctx)
{
	return ((struct captured *)ctx)->lines > 0;
}

/* Analyzes st in a fresh tree until its first info line, kept in *cap;
 * returns search_analyze's answer. */
static int analyze_once(const struct game *g, const void *st, int ms,
			struct captured *cap)
{
	struct search_kit *t = rig_new(8 << 20);
	*cap = (struct captured){.g = g, .st = st};
	struct ai_search how = {.level = AI_LEVEL_MAX,
				.seed = 1,
				.stop = stop_after_line,
				.info = capture_info,
				.ctx = cap};
	int r = search_analyze(t, g, st, &how, ms);
	rig_free(t);
	return r;
}

/* A root proven before any iteration (the mover takes the last two
 * stones and wins at once): analyze has no visits to show, yet every
 * line names the proven move; an empty line would end the answer early. */
START_TEST(analyze_shows_a_root_proven_at_once)
{
	struct nim_state st = {2, 1, 0, 0};
	struct captured cap;
	ck_assert_int_eq(analyze_once(&nim_game, &st, 10, &cap), 0);
	ck_assert_int_eq(cap.lines, 1);
	ck_assert_msg(strstr(cap.line, "info move take2 ") &&
			      strstr(cap.line, "proven win"),
		      "[%s]", cap.line);
}
END_TEST

/* ---- proofs against an exhaustive search ----
 *
 * Every `proven` label that analyze prints, and every result of the exact
 * solver, agrees with a plain exhaustive search through the game
 * interface, in small endgames of every variant of every game where two
 * sides play (two players, or two teams) and of the solo puzzle.  The
 * variants come from each game's option table alone, so that a game added
 * to the table is covered with no edit here.  (A team's draw was once
 * reported as a proven win: the multi-player values were read with the
 * two-player thresholds.) */

#define EXH_DEPTH 48     /* plies and rolls an exhaustive search goes down */
#define EXH_NODES 150000 /* its budget: a bigger endgame is left out */
#define PROOF_PLAYOUTS 3000

/* An exhaustive search of a game's endgame for the side of player `me`:
 * the value (result * SOLVE_RESULT + the margin of points over the best
 * other side, as the solver counts it) of each position under perfect
 * play, the worst and the best the dice allow; for the solo puzzle, the
 * most points. */
struct exhaust {
	const struct game *g;
	int team[GAME_MAX_PLAYERS]; /* each player's side, from sides() */
	int me;                     /* the side searched for */
	int solo;
	long nodes;
	int ok; /* within budget, and every position's moves listed */
	unsigned char *states; /* one a depth */
	struct move *lists;    /* max_moves a depth */
};

static void exhaust_begin(struct exhaust *x, const struct game *g,
			  const void *st)
{
	*x = (struct exhaust){.g = g, .ok = 1};
	struct game_sides sd = {0};
	if (g->sides)
		g->sides(st, &sd);
	int np = g->players(st);
	for (int p = 0; p < np; p++)
		x->team[p] = sd.team[p] ? sd.team[p] : p + 1;
	x->me = x->team[g->status(st).player - 1];
	x->solo = np == 1;
	x->states = malloc(g->state_size * (EXH_DEPTH + 1));
	x->lists = malloc(sizeof *x->lists * (size_t)g->max_moves * EXH_DEPTH);
	ck_assert(x->states && x->lists);
}

static void exhaust_end(struct exhaust *x)
{
	free(x->states);
	free(x->lists);
}

/* The value of a finished state for x's side (solo: its points). */
static int exhaust_over(const struct exhaust *x, const void *st,
			struct game_status s)
{
	const struct game *g = x->g;
	int pts[GAME_MAX_PLAYERS] = {0}, np = g->players(st), mine = 0;
	g->score(st, pts);
	if (x->solo)
		return pts[0];
	int best_other = INT_MIN;
	for (int p = 0; p < np; p++)
		if (x->team[p] == x->me)
			mine = pts[p];
		else if (pts[p] > best_other)
			best_other = pts[p];
	int r = s.player == 0 ? 0 : x->team[s.player - 1] == x->me ? 1 : -1;
	int m = mine - best_other;
	m = m > SOLVE_MARGIN_MAX    ? SOLVE_MARGIN_MAX
	    : m < -SOLVE_MARGIN_MAX ? -SOLVE_MARGIN_MAX
				    : m;
	return r * SOLVE_RESULT + m;
}

/* The value of st (at depth d of x's stack) into [*lo, *hi]: the worst
 * and the best the dice allow (equal without dice). */
static void exhaust(struct exhaust *x, const void *st, int d, int *lo, int *hi)
{
	const struct game *g = x->g;
	*lo = *hi = 0;
	if (!x->ok || ++x->nodes > EXH_NODES || d >= EXH_DEPTH) {
		x->ok = 0;
		return;
	}
	struct game_status s = g->status(st);
	if (s.phase == GAME_OVER) {
		*lo = *hi = exhaust_over(x, st, s);
		return;
	}
	unsigned char *c = x->states + g->state_size * (size_t)(d + 1);
	int clo, chi;
	if (s.phase == GAME_ROLL) {
		int values[GAME_MAX_CHANCE];
		double probs[GAME_MAX_CHANCE];
		int n = g->chance(st, values, probs);
		*lo = INT_MAX, *hi = INT_MIN;
		for (int i = 0; i < n && x->ok; i++) {
			memcpy(c, st, g->state_size);
			g->roll(c, values[i]);
			exhaust(x, c, d + 1, &clo, &chi);
			*lo = clo < *lo ? clo : *lo;
			*hi = chi > *hi ? chi : *hi;
		}
		return;
	}
	struct move *list = x->lists + (size_t)g->max_moves * (size_t)d;
	int n = g->moves(st, list);
	if (n == 0) { /* moves that cannot be listed, or stuck */
		x->ok = 0;
		return;
	}
	int mine = x->solo || x->team[s.player - 1] == x->me;
	*lo = *hi = mine ? INT_MIN : INT_MAX;
	for (int i = 0; i < n && x->ok; i++) {
		memcpy(c, st, g->state_size);
		g->play(c, &list[i]);
		exhaust(x, c, d + 1, &clo, &chi);
		if (mine) {
			*lo = clo > *lo ? clo : *lo;
			*hi = chi > *hi ? chi : *hi;
		} else {
			*lo = clo < *lo ? clo : *lo;
			*hi = chi < *hi ? chi : *hi;
		}
	}
}

/* The result (-1, 0, 1) of an exhaustive value. */
static int exhaust_result(int v)
{
	return solve_result(v);
}

/* The solver's value of a move, for x's side, on the exhaustive scale:
 * with more than two players its share of first place becomes a result
 * (the whole: a win, none: a loss, else a draw). */
static int solver_on_scale(const struct exhaust *x, const struct game *g,
			   const void *st, int v)
{
	if (x->solo || g->players(st) == 2)
		return v;
	int share = solve_share(v);
	int r = share == AI_SHARES ? 1 : share == 0 ? -1 : 0;
	return r * SOLVE_RESULT + (v - share * SOLVE_RESULT);
}

/* The variants of g worth trying, from its option table: its defaults;
 * each on/off option on, each value of an enumerated option and of a
 * number with few values (an option the defaults refuse joined with the
 * first value of another that lets it: Abs-Trac-Toe's teams want four
 * players).  Returns how many went into out. */
#define VARIANT_MAX 48
#define VARIANT_LEN 64
static int variant_words(const struct game_option_spec *o,
			 char words[][VARIANT_LEN], int most)
{
	int k = 0;
	if (o->type == OPT_BOOL) {
		snprintf(words[k++], VARIANT_LEN, "%s", o->key);
	} else if (o->type == OPT_ENUM) {
		for (const char *v = o->values; *v && k < most;) {
			size_t len = strcspn(v, " ");
			snprintf(words[k++], VARIANT_LEN, "%s=%.*s", o->key,
				 (int)len, v);
			v += len + (v[len] == ' ');
		}
	} else if (o->type == OPT_INT && o->max - o->min <= 3) {
		for (long v = o->min; v <= o->max && k < most; v++)
			snprintf(words[k++], VARIANT_LEN, "%s=%ld", o->key, v);
	}
	return k;
}

static int accepted(const struct game *g, const char *opts)
{
	void *st = try_state(g, opts, 1);
	free(st);
	return st != NULL;
}

/* Into opts (VARIANT_LEN bytes): word, an option of g (spec o), as a
 * variant g accepts, joined where the defaults refuse it with the first
 * word of another option that lets it; "" when none does. */
static void let_in(const struct game *g, const struct game_option_spec *o,
		   const char *word, char *opts)
{
	char more[8][VARIANT_LEN], both[2 * VARIANT_LEN];
	opts[0] = '\0';
	if (accepted(g, word)) {
		snprintf(opts, VARIANT_LEN, "%.*s", VARIANT_LEN - 1, word);
		return;
	}
	for (const struct game_option_spec *p = g->options; p && p->key; p++) {
		int k = p == o ? 0 : variant_words(p, more, 8);
		for (int w = 0; w < k; w++) {
			size_t a = strlen(word), b = strlen(more[w]);
			if (a + b + 1 >= VARIANT_LEN)
				continue;
			memcpy(both, word, a);
			both[a] = ' ';
			memcpy(both + a + 1, more[w], b + 1);
			if (accepted(g, both)) {
				memcpy(opts, both, a + b + 2);
				return;
			}
		}
	}
}

static int variants_of(const struct game *g, char out[][VARIANT_LEN])
{
	int n = 0;
	out[n++][0] = '\0';
	for (const struct game_option_spec *o = g->options; o && o->key; o++) {
		char words[8][VARIANT_LEN], opts[VARIANT_LEN];
		int k = variant_words(o, words, 8);
		for (int i = 0; i < k && n < VARIANT_MAX; i++) {
			let_in(g, o, words[i], opts);
			int dup = !*opts;
			for (int v = 0; v < n && !dup; v++)
				dup = !strcmp(out[v], opts);
			if (!dup)
				memcpy(out[n++], opts, VARIANT_LEN);
		}
	}
	return n;
}

/* The sides of st: 1 for the solo puzzle, 2 where two sides play. */
static int sides_of(const struct game *g, const void *st)
{
	struct exhaust x;
	exhaust_begin(&x, g, st);
	unsigned seen = 0;
	int n = 0, np = g->players(st);
	for (int p = 0; p < np; p++)
		if (!(seen & 1u << x.team[p]))
			seen |= 1u << x.team[p], n++;
	exhaust_end(&x);
	return n;
}

/* What analyze would print of st after a search of PROOF_PLAYOUTS (the
 * lines of the typed results, as the engine writes them), into line. */
static void analysis_of(const struct game *g, const void *st, uint64_t seed,
			struct text *line)
{
	struct ai *ai = ai_new();
	ck_assert(ai != NULL);
	struct ai_search how = {.level = AI_LEVEL_MAX,
				.playouts = PROOF_PLAYOUTS,
				.start_ms = ai_now_ms(),
				.seed = seed,
				.info_moves = 1000,
				.no_book = 1};
	struct move mv;
	struct ai_result res;
	ck_assert_int_eq(ai_choose(ai, g, st, &how, &mv, &res), 0);
	text_clear(line);
	engine_info_line(g, st, &res, line);
	ai_free(ai);
}

static int labels_checked, solver_results_checked;

/* Checks every move of st (a GAME_PLAY state whose moves are listed):
 * its label in analyze's line and the solver's result, against the
 * exhaustive search.  Returns 0 when the endgame is too big. */
static int proofs_hold_at(const struct game *g, const void *st,
			  const char *opts, uint64_t seed)
{
	struct move *list = move_buf(2, g);
	int n = g->moves(st, list);
	if (n <= 0)
		return 0;
	int *lo = malloc(sizeof *lo * (size_t)n),
	    *hi = malloc(sizeof *hi * (size_t)n);
	struct exhaust x;
	exhaust_begin(&x, g, st);
	unsigned char *c = malloc(g->state_size);
	for (int i = 0; i < n && x.ok; i++) {
		memcpy(c, st, g->state_size);
		g->play(c, &list[i]);
		exhaust(&x, c, 0, &lo[i], &hi[i]);
	}
	int ok = x.ok;
	char buf[MOVE_TEXT_MAX], want[MOVE_TEXT_MAX + 16];
	struct text line;
	text_init(&line);
	if (ok)
		analysis_of(g, st, seed, &line);
	for (int i = 0; i < n && ok; i++) {
		/* analyze's label of the move, if any */
		g->format(st, &list[i], buf);
		snprintf(want, sizeof want, "info move %s ", buf);
		const char *at = strstr(line.s ? line.s : "", want);
		const char *end = at ? strstr(at, " order ") : NULL;
		const char *pr = at ? strstr(at, " proven ") : NULL;
		if (!pr || pr > end)
			continue;
		char says[16] = "";
		sscanf(pr + 8, "%15s", says);
		char truth[32];
		if (x.solo)
			snprintf(truth, sizeof truth, "%d", lo[i]);
		else if (exhaust_result(lo[i]) != exhaust_result(hi[i]))
			snprintf(truth, sizeof truth, "not settled");
		else
			snprintf(truth, sizeof truth, "%s",
				 exhaust_result(lo[i]) > 0   ? "win"
				 : exhaust_result(lo[i]) < 0 ? "loss"
							     : "draw");
		ck_assert_msg(!strcmp(says, truth),
			      "%s %s: %s is %s, analyze says proven %s: %s",
			      g->name, opts, buf, truth, says, line.s);
		labels_checked++;
	}
	/* the solver's results (it refuses dice), the margins where it
	 * settles them */
	struct solve_bound *b = malloc(sizeof *b * (size_t)n);
	struct solve_ctx *sc = solve_ctx_new();
	struct solve_job job = {.want = SOLVE_MARGIN};
	if (ok && !g->chance && solve_moves(sc, g, st, list, n, &job, b)) {
		int best = INT_MIN;
		for (int i = 0; i < n; i++)
			best = lo[i] > best ? lo[i] : best;
		for (int i = 0; i < n; i++) {
			g->format(st, &list[i], buf);
			int blo = solver_on_scale(&x, g, st, b[i].lo),
			    bhi = solver_on_scale(&x, g, st, b[i].hi);
			if (x.solo || g->players(st) != 2) {
				/* max-n and the solo puzzle: exact */
				ck_assert_msg(blo == lo[i] && bhi == lo[i],
					      "%s %s: %s is worth %d, the "
					      "solver says %d..%d",
					      g->name, opts, buf, lo[i], blo,
					      bhi);
			} else {
				/* the result of each, and the best exactly
				 * (the others shown below it) */
				ck_assert_msg(
					solve_result(blo) ==
							exhaust_result(lo[i]) &&
						blo <= lo[i] && lo[i] <= bhi &&
						(lo[i] < best || blo == bhi),
					"%s %s: %s is worth %d, the solver "
					"says %d..%d",
					g->name, opts, buf, lo[i], blo, bhi);
			}
			solver_results_checked++;
		}
	}
	solve_ctx_free(sc);
	free(b);
	text_free(&line);
	free(c);
	exhaust_end(&x);
	free(lo);
	free(hi);
	return ok;
}

/* Endgames of g's variant opts, where two sides play or one: a random
 * game from seed to its end, checked a few plies before it. */
static int proof_positions;

static void proofs_hold_in(const struct game *g, const char *opts,
			   uint64_t seed)
{
	void *st = try_state(g, opts, seed);
	if (!st)
		return;
	int sides = sides_of(g, st);
	if (sides > 2) {
		free(st);
		return;
	}
	struct move *list = move_buf(1, g);
	struct rng r;
	rng_seed(&r, seed);
	size_t ss = g->state_size;
	int cap = 4096, len = 0;
	unsigned char *trail = malloc(ss * (size_t)cap);
	while (len < cap) {
		memcpy(trail + ss * (size_t)len++, st, ss);
		if (walk_step(g, st, &r, list) < 0)
			break;
	}
	/* the last move's position, and two further back that are small
	 * enough */
	int checked = 0;
	for (int k = len - 2; k >= 0 && checked < 3; k--) {
		const void *p = trail + ss * (size_t)k;
		if (g->status(p).phase != GAME_PLAY || g->moves(p, list) <= 0)
			continue;
		if (!proofs_hold_at(g, p, opts, seed))
			break; /* too big from here back */
		checked++;
		proof_positions++;
		k -= 2;
	}
	free(trail);
	free(st);
}

START_TEST(proofs_agree_with_an_exhaustive_search)
{
	labels_checked = solver_results_checked = proof_positions = 0;
	for (int i = 0; game_table[i]; i++) {
		const struct game *g = game_table[i];
		char variants[VARIANT_MAX][VARIANT_LEN];
		int n = variants_of(g, variants);
		for (int v = 0; v < n; v++)
			proofs_hold_in(g, variants[v], 1 + (uint64_t)v);
	}
	ck_assert_int_gt(proof_positions, 30);
	ck_assert_int_gt(labels_checked, 100);
	ck_assert_int_gt(solver_results_checked, 100);
}
END_TEST

/* The endgame a team's draw was once reported as a proven win in (two
 * regions left, either claim a draw, scores 10 10 10 10): both moves
 * proven draws. */
START_TEST(a_team_s_draw_is_no_win)
{
	const struct game *g = game_find("abstractoe");
	if (!g)
		return;
	void *st = try_state(
		g,
		"players=4 teams=1 "
		"outline=4.4x12./4.5x5.4x2./4.5x5.5x./4.4x4.7x./4.4x3.9x/"
		"3.5x2.10x/2.18x/2.18x/2.17x./3.14x3./5.11x4./5.10x5./"
		"5.10x5./5.3x2.10x/5.3x3.9x/5.3x4.2x4.2x vlines=g,n "
		"hlines=5,10 line=s4-s3-m3-m6-o6-o11-l11-l8-e8-e11-i11 "
		"claims=13311134224422.134.",
		58);
	ck_assert(st != NULL);
	labels_checked = 0;
	ck_assert(proofs_hold_at(g, st, "players=4 teams", 58));
	ck_assert_int_eq(labels_checked, 2);
	struct text line;
	text_init(&line);
	analysis_of(g, st, 58, &line);
	ck_assert_msg(!strstr(line.s, "proven win") &&
			      strstr(line.s, "value 0.5000 proven draw"),
		      "%s", line.s);
	text_free(&line);
	free(st);
}
END_TEST

/* One search of st with 20 ms of main time left, after the overhead; the
 * milliseconds it took. */
static double short_clock_search(struct search_kit *t, const struct game *g,
				 const void *st)
{
	double now = ai_now_ms();
	struct ai_search how = {
		.level = AI_LEVEL_MAX, .start_ms = now, .seed = 1};
	struct ai_time time = {.start = now, .clock = 1, .main = 20, .cap = 20};
	struct move mv;
	ck_assert_int_eq(search_choose(t, g, st, &how, &time, &mv, NULL), 0);
	struct search_info info;
	search_info(t, &info);
	ck_assert_msg(info.planned <= 20,
		      "%s: planned %.1f ms of a 20 ms clock", g->name,
		      info.planned);
	return ai_now_ms() - now;
}

/* A clock with little left: the search plans to end within it, and does
 * (loosely, and at best of TRIES as in movetime_is_respected: a busy
 * machine may hold the process back). */
START_TEST(a_short_clock_is_kept)
{
	for (int i = 0; game_table[i]; i++) {
		const struct game *g = game_table[i];
		void *st = try_state(g, "", 2);
		struct rng r;
		rng_seed(&r, 2);
		while (g->status(st).phase == GAME_ROLL)
			walk_step(g, st, &r, move_buf(2, g));
		struct search_kit *t = rig_new(8 << 20);
		for (int k = 0; k < 3; k++) {
			double took = short_clock_search(t, g, st);
			for (int n = 1; n < TRIES && took >= 200; n++) {
				double again = short_clock_search(t, g, st);
				took = again < took ? again : took;
			}
			ck_assert_msg(took < 200,
				      "%s: %.1f ms on a 20 ms clock", g->name,
				      took);
		}
		rig_free(t);
		free(st);
	}
}
END_TEST

/* ---- the levels between greedy and the top ---- */

/* ai's move at level from st (whose 60 s are never the limit: a level
 * searches a budget), checked legal; returns what the player logged
 * (to be freed). */
static char *logged_choice(struct ai *ai, const struct game *g, const void *st,
			   int level, long playouts, uint64_t seed)
{
	struct ai_search how = {.level = level,
				.playouts = playouts,
				.movetime_ms = 60000,
				.start_ms = ai_now_ms(),
				.seed = seed};
	struct move mv;
	struct ai_result res;
	ck_assert_int_eq(ai_choose(ai, g, st, &how, &mv, &res), 0);
	ck_assert(is_legal(g, st, &mv));
	struct text line;
	text_init(&line);
	engine_search_line(g, st, &res, 0, &line);
	char *log = strdup(line.s ? line.s : "");
	text_free(&line);
	return log;
}

START_TEST(levels_search_more_at_each_step)
{
	/* from the openings of Tiptoe 8x8 and checkertoe (whose first move
	 * the book knows): each level between greedy and the top that
	 * searches (its greedy odds did not come up) searches at least the
	 * playouts of the one below, without the book, and a lower set
	 * playouts caps it; the top level takes the book's move */
	static const char *const setups[][2] = {{"tiptoe", "size=8"},
						{"checkertoe", "first=1"}};
	for (size_t k = 0; k < 2; k++) {
		const struct game *g = game_find(setups[k][0]);
		void *st = new_state(g, setups[k][1], 1);
		long last = 0;
		for (int level = 2; level <= AI_LEVEL_MAX; level++) {
			for (long cap = 0; cap <= 5; cap += 5) {
				struct ai *ai = ai_new();
				char *log = logged_choice(
					ai, g, st, level,
					level == AI_LEVEL_MAX ? 100 : cap, 1);
				struct search_info info;
				ai_tree_info(ai, &info);
				int book = strstr(log, "from the book") != NULL;
				int greedy = strstr(log, "(greedy)") != NULL;
				if (level == AI_LEVEL_MAX) {
					ck_assert_msg(book || k == 0,
						      "the top level: %s", log);
				} else if (greedy) {
					ck_assert(game_search(g)->levels &&
						  game_search(g)->levels[level -
									 2]
								  .greedy > 0);
				} else if (cap) {
					ck_assert_int_eq(info.iterations, cap);
				} else {
					ck_assert_msg(!book, "level %d: %s",
						      level, log);
					ck_assert_msg(info.iterations >= last,
						      "%s: level %d searched "
						      "%ld playouts, the one "
						      "below %ld",
						      g->name, level,
						      info.iterations, last);
					last = info.iterations;
				}
				free(log);
				ai_free(ai);
				if (level == AI_LEVEL_MAX)
					break;
			}
		}
		free(st);
	}
}
END_TEST

/* Each game's levels (struct game_search's levels) climb: from each level to
 * the next the greedy odds never rise, the playouts never fall, the temperature
 * never rises, and one of them moves (else two levels would play alike). */
START_TEST(every_game_s_levels_climb)
{
	for (int i = 0; game_table[i]; i++) {
		const struct game_level *lv =
			game_search(game_table[i])->levels;
		for (int k = 0; lv && k < GAME_LEVELS; k++) {
			const char *name = game_table[i]->name;
			ck_assert_msg(lv[k].greedy >= 0 && lv[k].greedy <= 1 &&
					      lv[k].playouts > 0 &&
					      lv[k].temper > 0,
				      "%s level %d", name, k + 2);
			if (k == 0)
				continue;
			const struct game_level *a = &lv[k - 1], *b = &lv[k];
			ck_assert_msg(b->greedy <= a->greedy &&
					      b->playouts >= a->playouts &&
					      b->temper <= a->temper,
				      "%s: level %d below level %d", name,
				      k + 2, k + 1);
			ck_assert_msg(b->greedy < a->greedy ||
					      b->playouts > a->playouts ||
					      b->temper < a->temper,
				      "%s: levels %d and %d alike", name, k + 1,
				      k + 2);
		}
	}
}
END_TEST

/* A level with greedy odds plays the greedy move at those odds: over 400
 * seeds of Tiptoe 8x8's opening, the lowest level's draws come up
 * greedy as often as its odds say (within five standard deviations), and
 * a level with none never does. */
START_TEST(a_level_plays_greedy_at_its_odds)
{
	const struct game *g = game_find("tiptoe");
	void *st = new_state(g, "size=8", 1);
	ck_assert(game_search(g)->levels);
	int top = 0;
	while (top < GAME_LEVELS - 1 && game_search(g)->levels[top].greedy > 0)
		top++;
	ck_assert(game_search(g)->levels[0].greedy > 0 &&
		  game_search(g)->levels[top].greedy == 0);
	const int levels[2] = {2, top + 2}, seeds = 400;
	struct ai *ai = ai_new(); /* a budget's search starts afresh */
	ck_assert(ai);
	for (int k = 0; k < 2; k++) {
		int greedy = 0;
		for (int seed = 1; seed <= seeds; seed++) {
			char *log = logged_choice(ai, g, st, levels[k], 0,
						  (uint64_t)seed);
			greedy += strstr(log, "(greedy)") != NULL;
			free(log);
		}
		double p = game_search(g)->levels[levels[k] - 2].greedy;
		double sd = sqrt(seeds * p * (1 - p));
		ck_assert_msg(fabs(greedy - seeds * p) <= 5 * sd,
			      "level %d: %d greedy moves of %d, odds %.2f",
			      levels[k], greedy, seeds, p);
	}
	ai_free(ai);
	free(st);
}
END_TEST

/* A search with a temperature (the levels below the top): one seed's
 * search of the Tiptoe 8x8 opening, so hot that the draw is about even
 * among the moves it may take.  Over 30 seeds it plays something other
 * than the search's best move, and never a move it visited less than the
 * average root move (the four most visited of the 64 all have more); and
 * a win at once, which the search proves, is taken whatever the
 * temperature (one_move_facts: nor is a one-move loss played). */
START_TEST(a_hot_choice_keeps_to_the_moves_searched_most)
{
	const struct game *g = game_find("tiptoe");
	void *st = new_state(g, "size=8", 1);
	int n = g->moves(st, move_buf(3, g)), other = 0;
	for (uint64_t seed = 1; seed <= 30; seed++) {
		struct move best, hot;
		struct search_info info;
		hot_search(g, st, 0, seed, &best, &info);
		hot_search(g, st, 1000, seed, &hot, &info);
		ck_assert(is_legal(g, st, &hot));
		ck_assert_msg(info.chosen * (unsigned long)n >= info.visits,
			      "seed %d: a move of %lu visits of %lu, %d moves",
			      (int)seed, info.chosen, info.visits, n);
		other += !move_equal(&best, &hot);
	}
	ck_assert_int_gt(other, 0);
	free(st);

	/* checkertoe, O to place the last checker: one square wins */
	g = game_find("checkertoe");
	st = checkertoe_after("a3 e2 a2 e1 b1 c5 b5 c4 a5 d5 d1 b2 d4 e5 e3 "
			      "c1 c3 a4 a1 b3 c2 d2 b4");
	struct move win;
	struct search_info info;
	hot_search(g, st, 0, 1, &win, &info);
	unsigned char after[256];
	memcpy(after, st, g->state_size);
	g->play(after, &win);
	ck_assert_int_eq(g->status(after).player, 2);
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct move hot;
		hot_search(g, st, 1000, seed, &hot, &info);
		ck_assert_msg(move_equal(&hot, &win),
			      "seed %d passed over a win", (int)seed);
	}
	free(st);
}
END_TEST

/* A hot draw never takes a move proven lost, though it draws from the
 * most visited moves and a loss is visited before it is proven.  Tiptoe
 * 6x6, 12 plies in: of White's four places, c3 lets Black answer b1 and
 * leave White no place at all, which the tree proves within its playouts,
 * and the others keep the game open; at a temperature that would make the
 * draw about even, 30 seeds never play c3 (and some play another than
 * the best). */
START_TEST(a_hot_choice_never_takes_a_proven_loss)
{
	const struct game *g = game_find("tiptoe");
	void *st = new_state(g, "size=6", 1);
	play_line(g, st, "e3 b4 f2 d3 e1 b5 f1 e2 d1 b2 b3 d5");
	ck_assert_int_eq(g->moves(st, move_buf(3, g)), 4);
	struct move loss;
	char err[GAME_ERR_MAX], buf[MOVE_TEXT_MAX];
	ck_assert_int_eq(g->parse(st, "c3", &loss, err), 0);
	int other = 0;
	for (uint64_t seed = 1; seed <= 30; seed++) {
		struct move best, hot;
		struct search_info info;
		hot_search(g, st, 0, seed, &best, &info);
		hot_search(g, st, 1000, seed, &hot, &info);
		ck_assert(!info.settled); /* else no draw is made */
		g->format(st, &hot, buf);
		ck_assert_msg(!move_equal(&hot, &loss),
			      "seed %d played %s, which loses", (int)seed, buf);
		other += !move_equal(&best, &hot);
	}
	ck_assert_int_gt(other, 0);
	free(st);
}
END_TEST

/* A draw's 1 is shared among the teams tied at the top, as the runner
 * counts it: three tied get a third each, two tied half each (a proven
 * draw's reward) and the third nothing, and Abs-Trac-Toe's two teams tied
 * half each.  Equal scores, so the margin terms are all alike. */
START_TEST(a_draw_is_shared_among_the_tied)
{
	const struct ai_players three = {3, {1, 2, 3}},
				teams = {4, {1, 2, 1, 2}};
	const struct game_status draw = {GAME_OVER, 0};
	double half = ai_result_reward(0), rew[GAME_MAX_PLAYERS];
	ai_reward_points((const int[]){5, 5, 5}, draw, &three, rew);
	double third = rew[0];
	ck_assert(rew[1] == third && rew[2] == third);
	ck_assert_msg(third < half - 0.1, "three tied: %f each", third);
	ai_reward_points((const int[]){5, 5, 3}, draw, &three, rew);
	ck_assert(rew[0] == rew[1] && rew[0] > half - 1e-12 &&
		  rew[0] < half + 1e-12);
	ck_assert(rew[2] < third);
	ai_reward_points((const int[]){5, 5, 5, 5}, draw, &teams, rew);
	for (int p = 0; p < 4; p++)
		ck_assert(rew[p] > half - 1e-12 && rew[p] < half + 1e-12);
}
END_TEST

/* Abs-Trac-Toe on test_abstractoe's hand board (12 regions in 4 rows of
 * 3) with `players`, after the claims of `line`, player 3 to move. */
static void *hand_board(const struct game *g, const char *players,
			const char *line)
{
	char opts[128];
	snprintf(opts, sizeof opts,
		 "outline=.5x./7x/7x/7x/7x/7x/.5x. vlines=c,f hlines=3,6 "
		 "line=a4-h4 %s",
		 players);
	void *st = new_state(g, opts, 1);
	play_line(g, st, line);
	ck_assert_int_eq(g->status(st).player, 3);
	return st;
}

/* The exact solver shares first place as the rewards do: on the hand
 * board with three players, player 3 claims the ninth region of twelve;
 * by max-n, region 7 leaves it tied for first with one other player and
 * region 2 with both, each by a margin of 0 (found by playing random
 * games out exhaustively).  Counting any share of first place alike, the
 * solver valued the two equally and played the first listed, 2. */
START_TEST(the_solver_shares_first_place_by_the_tied)
{
	const struct game *g = game_find("abstractoe");
	void *st = hand_board(g, "players=3", "12 10 6 9 8 3 5 1");
	struct move *list = move_buf(2, g), two, seven, mv;
	char err[GAME_ERR_MAX], buf[MOVE_TEXT_MAX];
	ck_assert_int_eq(g->parse(st, "2", &two, err), 0);
	ck_assert_int_eq(g->parse(st, "7", &seven, err), 0);
	int n = g->moves(st, list), at2 = -1, at7 = -1;
	for (int i = 0; i < n; i++) {
		if (move_equal(&list[i], &two))
			at2 = i;
		if (move_equal(&list[i], &seven))
			at7 = i;
	}
	ck_assert(at2 >= 0 && at7 >= 0);
	struct solve_bound b[GAME_MAX_CHANCE];
	ck_assert_int_le(n, GAME_MAX_CHANCE);
	struct solve_job job = {.want = SOLVE_MARGIN};
	solve_forget(tctx());
	ck_assert(solve_moves(tctx(), g, st, list, n, &job, b));
	ck_assert_int_eq(b[at7].lo, AI_SHARES / 2 * SOLVE_RESULT);
	ck_assert_int_eq(b[at2].lo, AI_SHARES / 3 * SOLVE_RESULT);
	for (int i = 0; i < n; i++)
		ck_assert_int_le(b[i].lo, b[at7].lo);
	for (uint64_t seed = 1; seed <= 3; seed++) {
		solve_forget(tctx());
		ck_assert_int_eq(choose(g, st, AI_LEVEL_MAX, 2000, seed, &mv),
				 0);
		g->format(st, &mv, buf);
		ck_assert_msg(move_equal(&mv, &seven),
			      "seed %d: %s, a tie of three", (int)seed, buf);
	}
	free(st);
}
END_TEST

/* Abs-Trac-Toe's teams: players 1 and 3 against 2 and 4, and status()
 * names a winning team by its first player.  On test_abstractoe's hand
 * board (12 regions in 4 rows of 3) player 3 makes the eleventh claim:
 * region 5 wins for players 1 and 3 by two pairs, region 12 draws.  The
 * search with the solver, the search without it and greedy all take the
 * win: a partner's win is the player's own. */
START_TEST(a_partner_s_win_is_a_win)
{
	const struct game *g = game_find("abstractoe");
	void *st = hand_board(g, "players=4 teams", "6 9 3 2 4 1 11 7 8 10");
	struct move win, mv;
	struct search_info info;
	char err[GAME_ERR_MAX], buf[MOVE_TEXT_MAX];
	ck_assert_int_eq(g->parse(st, "5", &win, err), 0);
	/* greedy sees the game go on after either claim: its lead over the
	 * other team decides, where a partner's equal score hid it; with
	 * equal leads it would draw lots, so several seeds */
	for (int i = 0; i < 18; i++) {
		if (i < 16)
			ck_assert_int_eq(choose(g, st, 1, 0, (uint64_t)i, &mv),
					 0);
		else if (i == 16)
			ck_assert_int_eq(
				choose(g, st, AI_LEVEL_MAX, 2000, 1, &mv), 0);
		else
			hot_search(g, st, 0, 1, &mv, &info);
		g->format(st, &mv, buf);
		ck_assert_msg(move_equal(&mv, &win), "%s played %s, a draw",
			      i < 16    ? "greedy"
			      : i == 16 ? "the search"
					: "the tree alone",
			      buf);
	}
	free(st);
}
END_TEST

/* Tiptoe 4x4, Black to move, every move lost (the solver proves it):
 * after d2 White wins at once, after the others later.  With every
 * playout lost alike the visits tell the moves apart no better than the
 * proofs do, and the search used to play d2.  It holds out instead, with
 * the solver and without, under budgets and under a clock. */
START_TEST(a_lost_root_holds_out)
{
	const struct game *g = game_find("tiptoe");
	void *st = new_state(g, "size=4 board=o.../o..x/..../.o.x", 1);
	ck_assert(proven_lost(g, st));
	struct move *list = move_buf(2, g);
	int n = g->moves(st, list), quick = 0;
	for (int i = 0; i < n; i++)
		quick += classify(g, st, &list[i]) != SAFE;
	ck_assert(quick > 0 && quick < n);
	struct search_kit *t = rig_new(8 << 20);
	char buf[MOVE_TEXT_MAX];
	for (uint64_t seed = 1; seed <= 4; seed++) {
		struct move mv[4];
		struct search_info info;
		ck_assert_int_eq(
			choose(g, st, AI_LEVEL_MAX, 10000, seed, &mv[0]), 0);
		hot_search(g, st, 0, seed, &mv[1], &info);
		hot_search(g, st, 1000, seed, &mv[2], &info);
		rig_reset(t, 8 << 20);
		ck_assert_int_eq(tree_choose(t, g, st, 0, 50, seed, &mv[3]), 0);
		for (int k = 0; k < 4; k++) {
			g->format(st, &mv[k], buf);
			ck_assert_msg(classify(g, st, &mv[k]) == SAFE,
				      "seed %d, search %d: %s loses at once",
				      (int)seed, k, buf);
		}
	}
	rig_free(t);
	free(st);
}
END_TEST

/* ---- threads (set threads; games/ai/team.c) ---- */

/* Whether mv is one of st's moves. */
static int legal(const struct game *g, const void *st, const struct move *mv)
{
	struct move *list = malloc(sizeof *list * (size_t)g->max_moves);
	ck_assert(list != NULL);
	int n = g->moves(st, list), found = 0;
	for (int i = 0; i < n && !found; i++)
		found = move_equal(&list[i], mv);
	free(list);
	return found;
}

/* A playout budget caps the playouts of all the threads together, exactly
 * (one counter for the team), whatever the budget, and the helpers play
 * their part of it. */
START_TEST(threads_share_a_playout_budget_exactly)
{
	const struct game *g = game_find("tiptoe");
	void *st = new_state(g, "size=8", 1);
	struct search_kit *t = rig_new(16 << 20);
	ck_assert_int_eq(rig_threads(t, 4), 0);
	struct search_info info;
	struct move mv;
	for (long budget = 1; budget <= 100000; budget *= 10) {
		ck_assert_int_eq(
			tree_choose(t, g, st, budget, 0, (uint64_t)budget, &mv),
			0);
		ck_assert(legal(g, st, &mv));
		search_info(t, &info);
		ck_assert_int_eq(info.threads, 4);
		ck_assert_msg(info.iterations == budget,
			      "budget %ld: %ld playouts", budget,
			      info.iterations);
	}
	ck_assert_msg(info.own > 0 && info.own < info.iterations,
		      "the calling thread played %ld of %ld", info.own,
		      info.iterations);
	/* and with one thread again, the search is the one-thread search */
	ck_assert_int_eq(rig_threads(t, 1), 0);
	ck_assert_int_eq(tree_choose(t, g, st, 1000, 0, 1, &mv), 0);
	search_info(t, &info);
	ck_assert_int_eq(info.threads, 1);
	ck_assert_int_eq(info.own, 1000);
	rig_free(t);
	free(st);
}
END_TEST

/* whole_game_kept_tree on two threads, with a pool of two chunks:
 * blocks then lie below their parents (each thread takes its nodes from
 * a chunk of its own), and a compaction that walked the pool upwards
 * only lost them and played moves from garbage.  (With eight chunks, a
 * build under ThreadSanitizer on a busy machine filled none in 5 ms a
 * move: no compaction to test.) */
static long shared_compactions;

static void whole_game_shared_tree(const struct game *g, const char *opts)
{
	struct search_kit *t = rig_new(64 << 10);
	ck_assert_int_eq(rig_threads(t, 2), 0);
	shared_compactions += whole_game_on(t, g, opts, 5);
	rig_free(t);
}

START_TEST(kept_shared_trees_stay_sound)
{
	shared_compactions = 0;
	each_setup(whole_game_shared_tree);
	ck_assert_int_gt(shared_compactions, 10);
}
END_TEST

/* The threads search one tree: its root counts every playout of every
 * thread (with a tree per thread, the root counted only the main
 * thread's), the visits they held back included. */
START_TEST(threads_search_one_tree)
{
	const struct game *g = game_find("tiptoe");
	void *st = new_state(g, "size=8", 1);
	struct search_kit *t = rig_new(16 << 20);
	struct search_info info;
	struct move mv;
	for (int n = 2; n <= 4; n += 2) {
		ck_assert_int_eq(rig_threads(t, n), 0);
		for (long budget = 1000; budget <= 100000; budget *= 10) {
			ck_assert_int_eq(tree_choose(t, g, st, budget, 0,
						     (uint64_t)budget, &mv),
					 0);
			search_info(t, &info);
			/* (a short search may end before a helper starts) */
			ck_assert(budget < 100000 ||
				  info.own < info.iterations);
			ck_assert_msg(info.visits ==
					      (unsigned long)info.iterations,
				      "threads %d: %lu root visits for %ld "
				      "playouts",
				      n, info.visits, info.iterations);
		}
	}
	rig_free(t);
	free(st);
}
END_TEST

/* One player's search, for a thread of its own. */
struct duo {
	const struct game *g;
	const void *st;
	int threads;
	uint64_t seed;
	struct move mv;
	int rc;
};

static void *duo_search(void *arg)
{
	struct duo *d = arg;
	struct ai *ai = ai_new();
	if (!ai || ai_set_threads(ai, d->threads) < 0) {
		d->rc = -2;
		ai_free(ai);
		return NULL;
	}
	struct ai_search how = {.level = AI_LEVEL_MAX,
				.playouts = 3000,
				.start_ms = ai_now_ms(),
				.seed = d->seed,
				.no_book = 1};
	d->rc = ai_choose(ai, d->g, d->st, &how, &d->mv, NULL);
	ai_free(ai);
	return NULL;
}

/* Two players in one process share nothing: searching at the same time
 * (Tiptoe 5x5, where the exact solver and its table do most of the work,
 * beside Take It Away), each gives the move it gives alone.  With the
 * scratch buffers and the solver's table of the process, the searches
 * wrote over each other's (and ThreadSanitizer names the race). */
START_TEST(two_players_share_nothing)
{
	const struct game *tip = game_find("tiptoe"),
			  *tia = game_find("takeitaway");
	void *a_st = new_state(tip, "size=5", 1);
	play_line(tip, a_st, "c3 b2 d4");
	void *b_st = new_state(tia, "", 1);
	struct duo alone[2] = {{tip, a_st, 1, 5, {{0}}, -1},
			       {tia, b_st, 1, 6, {{0}}, -1}};
	for (int i = 0; i < 2; i++) {
		duo_search(&alone[i]);
		ck_assert_int_eq(alone[i].rc, 0);
	}
	for (int round = 0; round < 3; round++) {
		struct duo both[2] = {alone[0], alone[1]};
		pthread_t th[2];
		for (int i = 0; i < 2; i++)
			ck_assert_int_eq(pthread_create(&th[i], NULL,
							duo_search, &both[i]),
					 0);
		for (int i = 0; i < 2; i++) {
			pthread_join(th[i], NULL);
			ck_assert_int_eq(both[i].rc, 0);
			ck_assert_msg(move_equal(&both[i].mv, &alone[i].mv),
				      "round %d: player %d moved otherwise "
				      "beside the other",
				      round, i);
		}
	}
	/* and two threaded players side by side play legal moves */
	struct duo team[2] = {{tip, a_st, 3, 7, {{0}}, -1},
			      {tia, b_st, 2, 8, {{0}}, -1}};
	pthread_t th[2];
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(
			pthread_create(&th[i], NULL, duo_search, &team[i]), 0);
	for (int i = 0; i < 2; i++) {
		pthread_join(th[i], NULL);
		ck_assert_int_eq(team[i].rc, 0);
		ck_assert(legal(team[i].g, team[i].st, &team[i].mv));
	}
	free(a_st);
	free(b_st);
}
END_TEST

/* `stop` ends a search on four threads (the helpers stop with it) with a
 * legal move, and analyze and ponder run on four threads until stopped. */
START_TEST(stop_ends_a_threaded_search)
{
	const struct game *g = game_find("checkertoe");
	void *st = new_state(g, "first=1", 1);
	struct ai *ai = ai_new();
	ck_assert_int_eq(ai_set_threads(ai, 4), 0);
	double until = ai_now_ms() + 50, t0 = ai_now_ms();
	struct ai_search how = {.level = AI_LEVEL_MAX,
				.movetime_ms = 3600000,
				.start_ms = t0,
				.seed = 1,
				.stop = stop_after,
				.ctx = &until,
				.no_book = 1};
	struct move mv;
	ck_assert_int_eq(ai_choose(ai, g, st, &how, &mv, NULL), 0);
	ck_assert(legal(g, st, &mv));
	/* (not a measure of speed: a stuck helper would hold it an hour) */
	ck_assert_msg(ai_now_ms() - t0 < 60000, "stopped after %.0f ms",
		      ai_now_ms() - t0);
	struct search_info info;
	ai_tree_info(ai, &info);
	ck_assert_int_eq(info.threads, 4);
	ck_assert_int_gt(info.iterations, info.own);
	/* pondering the opponent's turn, then the search goes on from it */
	play_text(g, st, "c3");
	until = ai_now_ms() + 100;
	struct ai_search ponder = {.level = AI_LEVEL_MAX,
				   .seed = 2,
				   .stop = stop_after,
				   .ctx = &until};
	ck_assert_int_eq(ai_ponder(ai, g, st, &ponder), 0);
	ai_tree_info(ai, &info);
	ck_assert_int_eq(info.threads, 4);
	ck_assert_int_gt(info.iterations, info.own);
	free(st);
	ai_free(ai);
}
END_TEST

/* A helper that the system has taken the processor from: Tiptoe, whose
 * first playout on a thread other than the test's waits until the test
 * lets it go on (or 20 s pass: then `gave_up`). */
static struct {
	pthread_t test;
	atomic_int stuck, go, gave_up;
} held;

static int held_playout(void *st, struct rng *r, int max_plies)
{
	int none = 0;
	if (!pthread_equal(pthread_self(), held.test) &&
	    atomic_compare_exchange_strong(&held.stuck, &none, 1)) {
		double until = ai_now_ms() + 20000;
		while (!atomic_load(&held.go) && ai_now_ms() < until) {
			struct timespec ms = {0, 1000000};
			nanosleep(&ms, NULL);
		}
		atomic_store(&held.gave_up, !atomic_load(&held.go));
	}
	return game_search(game_find("tiptoe"))->playout(st, r, max_plies);
}

static int stop_once_held(void *ctx)
{
	(void)ctx;
	return atomic_load(&held.stuck);
}

/* A `stop` is answered from the tree as it stands, without waiting for a
 * helper that cannot run (team.c, team_release): the answer comes
 * while the helper is still held, and the next use of the player waits
 * for it. */
START_TEST(a_stop_waits_for_no_helper)
{
	struct game g = *game_find("tiptoe");
	struct game_search gs = *game_search(&g);
	g.search = &gs;
	gs.playout = held_playout;
	held.test = pthread_self();
	atomic_store(&held.stuck, 0);
	atomic_store(&held.go, 0);
	atomic_store(&held.gave_up, 0);
	void *st = new_state(&g, "", 1);
	play_text(&g, st, "a1");
	play_text(&g, st, "h8");
	play_text(&g, st, "h1");
	play_text(&g, st, "a8");
	struct ai *ai = ai_new();
	ck_assert_int_eq(ai_set_threads(ai, 2), 0);
	struct ai_search how = {.level = AI_LEVEL_MAX,
				.movetime_ms = 3600000,
				.start_ms = ai_now_ms(),
				.seed = 1,
				.stop = stop_once_held,
				.no_book = 1};
	struct move mv;
	ck_assert_int_eq(ai_choose(ai, &g, st, &how, &mv, NULL), 0);
	ck_assert_msg(!atomic_load(&held.gave_up),
		      "the answer waited for the held helper");
	ck_assert(legal(&g, st, &mv));
	atomic_store(&held.go, 1);
	/* the next search waits for it first, then goes on as usual */
	how.stop = NULL;
	how.playouts = 500;
	ck_assert_int_eq(ai_choose(ai, &g, st, &how, &mv, NULL), 0);
	ck_assert(legal(&g, st, &mv));
	ck_assert(!atomic_load(&held.gave_up));
	free(st);
	ai_free(ai);
}
END_TEST

/* Solves the moves of st into b (SOLVE_MARGIN, or SOLVE_WDL), from an
 * empty table, on one thread or split among four (crew: three helpers'
 * contexts). */
static void split_solve(const struct game *g, const void *st,
			const struct move *list, int n, enum solve_want want,
			struct solve_scratch **crew, struct solve_bound *b)
{
	struct solve_job job = {
		.want = want, .crews = crew ? 3 : 0, .crew = crew};
	solve_forget(tctx());
	ck_assert(solve_moves(tctx(), g, st, list, n, &job, b));
}

static int same_result(struct solve_bound a, struct solve_bound b)
{
	return solve_result(a.lo) == solve_result(b.lo) &&
	       solve_result(a.hi) == solve_result(b.hi);
}

/* At st, the bounds of a split among four threads against one thread's:
 * with two players the same best value, each other move settled or shown
 * below it, and every move's result; with more, every move's value. */
static void split_agrees_at(const struct game *g, const void *st,
			    struct solve_scratch **crew)
{
	struct move *list = move_buf(1, g);
	int n = g->moves(st, list), two = g->players(st) == 2;
	struct solve_bound *one = malloc(sizeof *one * (size_t)n * 2),
			   *four = one + n;
	ck_assert(one != NULL);
	split_solve(g, st, list, n, SOLVE_MARGIN, NULL, one);
	split_solve(g, st, list, n, SOLVE_MARGIN, crew, four);
	int best = -SOLVE_INF, top = -SOLVE_INF;
	for (int i = 0; i < n; i++) {
		best = one[i].lo > best ? one[i].lo : best;
		top = four[i].lo > top ? four[i].lo : top;
	}
	ck_assert_int_eq(top, best);
	for (int i = 0; i < n; i++) {
		if (!two) {
			ck_assert(one[i].lo == four[i].lo &&
				  one[i].hi == four[i].hi);
			continue;
		}
		ck_assert(four[i].lo == four[i].hi || four[i].hi < best);
		ck_assert(four[i].lo <= one[i].hi && one[i].lo <= four[i].hi);
	}
	if (two) {
		split_solve(g, st, list, n, SOLVE_WDL, NULL, one);
		split_solve(g, st, list, n, SOLVE_WDL, crew, four);
		for (int i = 0; i < n; i++)
			ck_assert(same_result(one[i], four[i]));
	}
	free(one);
}

/* The solver's root split (solve_job's crew: four threads, one table)
 * proves what one thread proves (split_agrees_at), 4 and 8 plies before
 * the end of random games: Take It Away with two and three players and
 * checkertoe.  A split cut short by its budget says so. */
START_TEST(the_solver_split_among_threads_agrees)
{
	static const char *const setups[][2] = {
		{"takeitaway", ""},
		{"takeitaway", "players=3"},
		{"checkertoe", ""},
	};
	static struct solve_scratch scratch[3];
	struct solve_scratch *crew[3];
	for (int i = 0; i < 3; i++)
		crew[i] = &scratch[i];
	int checked = 0;
	for (size_t k = 0; k < sizeof setups / sizeof setups[0]; k++) {
		const struct game *g = game_find(setups[k][0]);
		size_t ss = g->state_size;
		unsigned char *trail = malloc(ss * 200);
		struct move *list = move_buf(0, g);
		for (uint64_t seed = 1; seed <= 3; seed++) {
			void *st = try_state(g, setups[k][1], seed);
			ck_assert(st != NULL);
			int len = random_trail(g, st, seed, 200, trail, list);
			for (int back = 4; back <= 8 && back <= len;
			     back += 4) {
				const void *p =
					trail + ss * (size_t)(len - back);
				split_agrees_at(g, p, crew);
				checked++;
			}
			free(st);
		}
		free(trail);
	}
	ck_assert_int_ge(checked, 12);
	/* cut short: a budget of nodes that cannot settle an opening; each
	 * thread searches up to it */
	const struct game *g = game_find("checkertoe");
	void *st = try_state(g, "", 1);
	struct move *list = move_buf(0, g);
	int n = g->moves(st, list);
	struct solve_bound *b = malloc(sizeof *b * (size_t)n);
	struct solve_job job = {.want = SOLVE_WDL,
				.node_limit = 5000,
				.crews = 3,
				.crew = crew};
	ck_assert(!solve_moves(tctx(), g, st, list, n, &job, b));
	ck_assert_int_gt(job.nodes, 5000);
	free(b);
	free(st);
	for (int i = 0; i < 3; i++)
		solve_scratch_free(crew[i]);
}
END_TEST

/* A long analysis of a small pool, in intervals far shorter than a
 * compaction: the pool fills, and is compacted as an analysis has no end
 * to keep time for.  (Weighed against the end of each interval, it was
 * never compacted, and the tree stopped growing for good.) */
struct compacting {
	struct search_kit *t;
	double until;
	int lines;
};

static void count_line(void *ctx, const struct ai_result *res)
{
	(void)res;
	((struct compacting *)ctx)->lines++;
}

static int stop_once_compacted(void *ctx)
{
	struct compacting *c = ctx;
	struct search_info info;
	search_info(c->t, &info);
	return info.collections > 0 || ai_now_ms() > c->until;
}

START_TEST(analysis_compacts_a_full_pool)
{
	const struct game *g = game_find("takeitaway");
	void *st = new_state(g, "", 1);
	struct search_kit *t = rig_new(256 << 10);
	struct compacting c = {t, ai_now_ms() + 3000, 0};
	struct ai_search how = {.level = AI_LEVEL_MAX,
				.seed = 1,
				.stop = stop_once_compacted,
				.info = count_line,
				.ctx = &c};
	ck_assert_int_eq(search_analyze(t, g, st, &how, 0.05), 0);
	struct search_info info;
	search_info(t, &info);
	ck_assert_msg(info.collections > 0,
		      "%d lines, %lu of %lu nodes in use, no compaction",
		      c.lines, info.nodes, info.cap);
	rig_free(t);
	free(st);
}
END_TEST

/* A compaction moves no node: what it drops becomes holes, which the
 * search fills before the pool is full again.  (Had it kept taking
 * nodes only above the ones kept, the pool would be full again with
 * little more than the half it kept.) */
struct refilling {
	struct search_kit *t;
	double until;
	int fulls;
	unsigned long least; /* the fewest nodes in use at a full pool after
			      * a compaction */
};

/* Asked as each compaction starts (and every AI_POLL_MS): notes the
 * full pools, and stops after a few compactions. */
static int note_full_pools(void *ctx)
{
	struct refilling *r = ctx;
	struct search_info info;
	search_info(r->t, &info);
	if (info.full && info.collections > 0) {
		r->fulls++;
		if (info.nodes < r->least)
			r->least = info.nodes;
	}
	return info.collections >= 6 || ai_now_ms() > r->until;
}

START_TEST(compaction_leaves_holes_to_fill)
{
	const struct game *g = game_find("takeitaway");
	void *st = new_state(g, "", 1);
	struct search_kit *t = rig_new(256 << 10);
	struct refilling r = {t, ai_now_ms() + 5000, 0, ULONG_MAX};
	struct ai_search how = {.level = AI_LEVEL_MAX,
				.seed = 1,
				.stop = note_full_pools,
				.ctx = &r};
	ck_assert_int_eq(search_analyze(t, g, st, &how, 100), 0);
	struct search_info info;
	search_info(t, &info);
	ck_assert_int_ge(info.collections, 6);
	ck_assert_int_ge(r.fulls, 5);
	ck_assert_msg(r.least >= info.cap / 4 * 3,
		      "full again at %lu of %lu nodes", r.least, info.cap);
	rig_free(t);
	free(st);
}
END_TEST

/* A stop hook that says stop once the pool is full, and notes what the
 * tree held when it first did. */
struct filling {
	struct search_kit *t;
	double until;
	int asked;
	struct search_info then;
};

static int stop_when_full(void *ctx)
{
	struct filling *f = ctx;
	struct search_info info;
	search_info(f->t, &info);
	if (info.full && !f->asked++)
		f->then = info;
	return info.full || ai_now_ms() > f->until;
}

/* A `stop` that comes as a full pool is being compacted ends the search
 * at once, the compaction given up and the tree as it was (a compaction
 * of a large pool takes long: `stop` is not to wait for it); the next
 * search compacts it and plays a legal move. */
START_TEST(a_stop_ends_a_compaction)
{
	const struct game *g = game_find("takeitaway");
	void *st = new_state(g, "", 1);
	struct search_kit *t = rig_new(256 << 10);
	struct filling f = {t, ai_now_ms() + 3000, 0, {0}};
	struct ai_search how = {.level = AI_LEVEL_MAX,
				.seed = 1,
				.stop = stop_when_full,
				.info = count_info,
				.ctx = &f};
	ck_assert_int_eq(search_analyze(t, g, st, &how, 100), 0);
	struct search_info info;
	search_info(t, &info);
	ck_assert_msg(f.asked > 0,
		      "stop was not asked while the pool was "
		      "full (%d compactions)",
		      (int)info.collections);
	ck_assert_int_eq(info.collections, 0);
	ck_assert(info.full);
	ck_assert_uint_eq(info.nodes, f.then.nodes);
	ck_assert_uint_eq(info.visits, f.then.visits);
	struct move mv;
	ck_assert_int_eq(tree_choose(t, g, st, 0, 50, 2, &mv), 0);
	search_info(t, &info);
	ck_assert_int_gt(info.collections, 0);
	ck_assert(is_legal(g, st, &mv));
	rig_free(t);
	free(st);
}
END_TEST

/* analyze on three threads: its lines count the visits of every thread
 * (more than the calling thread's own iterations). */
START_TEST(analyze_counts_every_thread)
{
	const struct game *g = game_find("takeitaway");
	void *st = new_state(g, "", 1);
	struct search_kit *t = rig_new(8 << 20);
	ck_assert_int_eq(rig_threads(t, 3), 0);
	struct captured cap = {.g = g, .st = st};
	struct ai_search how = {.level = AI_LEVEL_MAX,
				.seed = 1,
				.stop = stop_after_line,
				.info = capture_info,
				.ctx = &cap};
	ck_assert_int_eq(search_analyze(t, g, st, &how, 100), 0);
	ck_assert_int_eq(cap.lines, 1);
	struct search_info info;
	search_info(t, &info);
	ck_assert_int_eq(info.threads, 3);
	long shown = (long)cap.shown;
	ck_assert_msg(shown > info.own,
		      "the line shows %ld visits, the calling thread made %ld",
		      shown, info.own);
	rig_free(t);
	free(st);
}
END_TEST

/* Where a game asks for no prior (prior_visits below 0: checkertoe but
 * on the plain 6x6 board) its search is the one it would make with no
 * evaluate() at all: from the same seed, the same moves and the same
 * trees. */
START_TEST(no_prior_searches_as_without_an_evaluation)
{
	const struct game *g = game_find("checkertoe");
	struct game plain = *g;
	struct game_search gs = *game_search(g);
	gs.evaluate = NULL;
	gs.eval_after = NULL;
	gs.prior_visits = NULL;
	plain.search = &gs;
	static const char *const variants[] = {"", "float", "size=6 exchange"};
	for (int v = 0; v < 3; v++) {
		void *st = new_state(g, variants[v], 1);
		for (int ply = 0; ply < 2; ply++) {
			struct move a, b;
			struct search_info ia, ib;
			hot_search(g, st, 0, 9, &a, &ia);
			hot_search(&plain, st, 0, 9, &b, &ib);
			ck_assert_uint_eq(ia.prior_visits, 0);
			ck_assert(move_equal(&a, &b));
			ck_assert_uint_eq(ia.nodes, ib.nodes);
			ck_assert_uint_eq(ia.chosen, ib.chosen);
			g->play(st, &a);
		}
		free(st);
	}
}
END_TEST

/* A game whose prior_visits asks for more than a search gives. */
static int too_many_prior_visits(const void *st)
{
	(void)st;
	return 99;
}

/* The game's evaluation counts in a new node as the visits the game asks
 * for (struct game_search, prior_visits: Tiptoe's hex board 12, the default 7,
 * at most 15, none where the game says so: checkertoe's 5x5 board), and
 * every count of real visits leaves them out: the visits of the root
 * moves an info line names add up to the root's. */
START_TEST(the_prior_weighs_what_the_game_asks)
{
	struct game big = *game_find("tiptoe");
	struct game_search gs = *game_search(&big);
	big.search = &gs;
	gs.prior_visits = too_many_prior_visits;
	const struct {
		const struct game *g;
		const char *opts;
		unsigned long want;
	} cases[] = {{game_find("tiptoe"), "hex=1 size=4", 12},
		     {game_find("tiptoe"), "size=6 diagonal=1", 7},
		     {&big, "size=6", 15},
		     {game_find("checkertoe"), "size=6", 15},
		     {game_find("checkertoe"), "", 0}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		void *st = new_state(cases[i].g, cases[i].opts, 1);
		struct search_kit *t = rig_new(8 << 20);
		struct captured cap = {.g = cases[i].g, .st = st, .t = t};
		struct ai_search how = {.level = AI_LEVEL_MAX,
					.seed = 1,
					.stop = stop_after_line,
					.info = capture_info,
					.info_moves = 1000,
					.ctx = &cap};
		ck_assert_int_eq(search_analyze(t, cases[i].g, st, &how, 30),
				 0);
		ck_assert_int_eq(cap.lines, 1);
		ck_assert_uint_lt(strlen(cap.line), sizeof cap.line - 1);
		struct search_info info = cap.info;
		ck_assert_uint_eq(info.prior_visits, cases[i].want);
		unsigned long shown = cap.shown;
		ck_assert_msg(shown == info.visits && shown > 0,
			      "%s %s: the line shows %lu visits, the root has "
			      "%lu",
			      cases[i].g->name, cases[i].opts, shown,
			      info.visits);
		rig_free(t);
		free(st);
	}
}
END_TEST

/* The search of a game with a contents table (game_search's
 * contents_table, games/ai/pattern.h) judges by it: Connect Four given a
 * table whose every weight is +4, which values every position as a sure
 * win for the player to act there, and no playouts (eval_after -1), so
 * that each leaf is judged where it stands: after 7 iterations from the
 * opening every move has had one visit, and every one looks lost to the
 * root's mover, where without the table random playouts find some of
 * them won; with two threads too, and in a second search on the same
 * kit. */
static int no_playout(const void *st)
{
	(void)st;
	return -1;
}

static double best_of_seven(const struct game *g, const void *st, int threads)
{
	struct search_kit *t = rig_new(8 << 20);
	ck_assert_int_eq(rig_threads(t, threads), 0);
	double now = ai_now_ms();
	struct ai_search how = {.level = AI_LEVEL_MAX,
				.playouts = 7,
				.start_ms = now,
				.seed = 1,
				.info_moves = 7};
	struct ai_time time = {.start = now};
	struct ai_result res;
	struct move mv;
	double best = 0;
	/* twice on one kit: the second search reads the board in the
	 * first's room */
	for (int run = 0; run < 2; run++) {
		ck_assert_int_eq(
			search_choose(t, g, st, &how, &time, &mv, &res), 0);
		for (int i = 0; i < res.n; i++)
			best = res.cand[i].mean > best ? res.cand[i].mean
						       : best;
	}
	rig_free(t);
	return best;
}

START_TEST(a_contents_table_judges_the_search)
{
	static int16_t sure[PAT_SIZE];
	for (int i = 0; i < PAT_SIZE; i++)
		sure[i] = 4 * LEARN_SCALE;
	const struct learn_weights table = {
		.game = "connect4", .contents = 1, .size = PAT_SIZE, .w = sure};
	const struct game *plain = game_find("connect4");
	struct game g = *plain, h = *plain;
	struct game_search gs = *game_search(plain), hs = gs;
	gs.contents_table = &table;
	gs.eval_after = hs.eval_after = no_playout;
	g.search = &gs;
	h.search = &hs;
	void *st = new_state(plain, "", 1);
	for (int threads = 1; threads <= 2; threads++) {
		double with = best_of_seven(&g, st, threads),
		       without = best_of_seven(&h, st, threads);
		ck_assert_msg(with < 0.01, "%d threads: %g", threads, with);
		ck_assert_msg(without > 0.5, "%d threads: %g", threads,
			      without);
	}
	free(st);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("ai");
	TCase *t = tcase_create("ai");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, checkertoe_takes_the_win);
	tcase_add_test(t, the_prior_weighs_what_the_game_asks);
	tcase_add_test(t, no_prior_searches_as_without_an_evaluation);
	tcase_add_test(t, a_contents_table_judges_the_search);
	tcase_add_test(t, checkertoe_blocks_the_loss);
	tcase_add_test(t, every_game_takes_wins_and_blocks_losses);
	tcase_add_test(t, a_bigger_win_beats_a_win_at_once);
	tcase_add_test(t, a_proven_root_gives_its_margins_the_whole_move);
	tcase_add_test(t, a_margin_cut_short_keeps_what_it_settled);
	tcase_add_test(t, a_solve_cut_short_sets_aside_what_it_proved_worse);
	tcase_add_test(t, never_an_illegal_move);
	tcase_add_test(t, deterministic_with_fixed_playouts);
	tcase_add_test(t, a_budget_is_not_steered_by_the_clock);
	tcase_add_test(t, hint_is_reproducible);
	tcase_add_test(t, chance_is_weighted_by_its_odds);
	tcase_add_test(t, movetime_is_respected);
	tcase_add_test(t, solver_matches_plain_search);
	tcase_add_test(t, solo_solver_matches_plain_search);
	tcase_add_test(t, solver_solves_small_tiptoe);
	tcase_add_test(t, minimax_values_follow_the_children);
	tcase_add_test(t, analysis_compacts_a_full_pool);
	tcase_add_test(t, a_stop_ends_a_compaction);
	tcase_add_test(t, compaction_leaves_holes_to_fill);
	tcase_add_test(t, playouts_stop_where_the_game_says);
	tcase_add_test(t, no_playouts_where_the_game_says_none);
	tcase_add_test(t, reused_tree_keeps_the_visits_below);
	tcase_add_test(t, pondering_grows_the_next_tree);
	tcase_add_test(t, memory_budget_holds_over_long_searches);
	tcase_add_test(t, kept_trees_stay_sound);
	tcase_add_test(t, seeded_answers_ignore_earlier_searches);
	tcase_add_test(t, the_tree_proves_what_it_settles);
	tcase_add_test(t, analyze_shows_a_root_proven_at_once);
	tcase_add_test(t, proofs_agree_with_an_exhaustive_search);
	tcase_add_test(t, a_team_s_draw_is_no_win);
	tcase_add_test(t, a_short_clock_is_kept);
	tcase_add_test(t, the_solver_s_time_is_counted);
	tcase_add_test(t, levels_search_more_at_each_step);
	tcase_add_test(t, every_game_s_levels_climb);
	tcase_add_test(t, a_level_plays_greedy_at_its_odds);
	tcase_add_test(t, a_hot_choice_keeps_to_the_moves_searched_most);
	tcase_add_test(t, a_hot_choice_never_takes_a_proven_loss);
	tcase_add_test(t, a_lost_root_holds_out);
	tcase_add_test(t, a_partner_s_win_is_a_win);
	tcase_add_test(t, a_draw_is_shared_among_the_tied);
	tcase_add_test(t, the_solver_shares_first_place_by_the_tied);
	suite_add_tcase(s, t);
	/* the search on several threads: make check-threads runs this case
	 * alone under ThreadSanitizer (CK_RUN_CASE=threads) */
	TCase *th = tcase_create("threads");
	tcase_set_timeout(th, 300);
	tcase_add_test(th, threads_share_a_playout_budget_exactly);
	tcase_add_test(th, threads_search_one_tree);
	tcase_add_test(th, two_players_share_nothing);
	tcase_add_test(th, stop_ends_a_threaded_search);
	tcase_add_test(th, a_stop_waits_for_no_helper);
	tcase_add_test(th, analyze_counts_every_thread);
	tcase_add_test(th, kept_shared_trees_stay_sound);
	tcase_add_test(th, the_solver_split_among_threads_agrees);
	suite_add_tcase(s, th);
	return s;
}

TEST_MAIN()
