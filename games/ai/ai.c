/* ai.c: the computer player: what it keeps between searches (the tree and
 * the threads, the solver's table, the book, the scratch space), its two
 * simple levels (random and greedy) and the searching levels below the
 * top.  The search is in search.c and the layers below it, the exact
 * solver in solve.c, the opening book in book.c, time management in
 * timeman.c. */
#include "ai.h"

#include <stdlib.h>
#include <string.h>

#include "book.h"
#include "playout.h"
#include "reward.h"
#include "search.h"
#include "timeman.h"

/* Greedy: the move with the best immediate result for the mover: a win
 * (of the mover's team) first, then the mover's score lead over the best
 * other team after the move (solo: the score), a loss last; ties broken at
 * random. */
static int greedy(const struct game *g, const void *st, const struct move *list,
		  int n, void *scratch, struct rng *r)
{
	struct ai_players pl;
	ai_players_of(g, st, &pl);
	int player = g->status(st).player, team = pl.team[player - 1];
	double best = -1e18;
	int best_i = 0, ties = 0;
	for (int i = 0; i < n; i++) {
		memcpy(scratch, st, g->state_size);
		g->play(scratch, &list[i]);
		int pts[GAME_MAX_PLAYERS] = {0};
		g->score(scratch, pts);
		double v = pts[player - 1];
		if (pl.n > 1) {
			v -= ai_best_other(&pl, pts, player - 1);
			struct game_status s = g->status(scratch);
			if (s.phase == GAME_OVER && s.player)
				v += pl.team[s.player - 1] == team ? 1e9 : -1e9;
		}
		if (v > best) {
			best = v, best_i = i, ties = 1;
		} else if (v == best && rng_below(r, (uint32_t)++ties) == 0) {
			best_i = i;
		}
	}
	return best_i;
}

/* The levels between greedy and the top play the greedy move at some odds
 * and otherwise search a few playouts a move, per legal move (so that a
 * level means about the same on a big board as on a small one; set
 * playouts lowers them, never raises them), then play one of the four
 * moves they visited most, drawn with odds of visits^(1 / temperature)
 * (results.c, tempered_child): about even among them at the low levels,
 * mostly the most visited near the top.  Playouts alone left the levels
 * of the games a small search plays well (Take-Back-Toe, Abs-Trac-Toe)
 * all alike, and the greedy odds fill the span where even the smallest
 * search beats greedy by far (Tiptoe, Take-Back-Toe).  A game spaces its
 * own (struct game_search's levels); this ladder is for a game that does not.
 * The matches that set them are in docs/strength.md, "Levels". */
static const struct game_level default_levels[GAME_LEVELS] = {
	{0, 5, 3},    {0, 8, 2},      {0, 14, 1.4},  {0, 25, 1},
	{0, 60, 0.7}, {0, 150, 0.35}, {0, 500, 0.2},
};
_Static_assert(GAME_LEVELS == AI_LEVEL_MAX - 2, "levels 2 to 8");

static const struct game_level *level_of(const struct game *g, int level)
{
	return &(game_search(g)->levels ? game_search(g)->levels
					: default_levels)[level - 2];
}

/* The player: what it keeps between searches.  It makes and owns
 * everything its searches use, and hands it down. */
struct ai {
	long hash_mb;          /* the memory the search may hold */
	int threads;           /* the threads a search runs on */
	struct search_kit kit; /* the tree (kept between clock-bound
				* searches), the threads, the solver and the
				* search's scratch space */
	struct book *book;     /* the book's positions, as probed */
	struct scratch simple; /* levels 0 to 8: a move list and a state */
};

#define HASH_MB_DEFAULT 64

/* The solver's transposition table gets this share of the hash; the tree
 * the rest. */
#define SOLVER_SHARE 4

static size_t solver_bytes(long mb)
{
	return ((size_t)mb << 20) / SOLVER_SHARE;
}

static size_t tree_bytes(long mb)
{
	return ((size_t)mb << 20) - solver_bytes(mb);
}

struct ai *ai_new(void)
{
	struct ai *ai = calloc(1, sizeof *ai);
	if (!ai)
		return NULL;
	ai->hash_mb = HASH_MB_DEFAULT;
	ai->threads = 1;
	ai->kit.tree = tree_new(tree_bytes(ai->hash_mb));
	ai->kit.solver = solve_ctx_new();
	ai->book = book_new();
	if (!ai->kit.tree || !ai->kit.solver || !ai->book) {
		ai_free(ai);
		return NULL;
	}
	return ai;
}

void ai_free(struct ai *ai)
{
	if (!ai)
		return;
	search_kit_free(&ai->kit);
	book_free(ai->book);
	scratch_free(&ai->simple);
	free(ai);
}

void ai_forget(struct ai *ai)
{
	search_settle(&ai->kit);
	tree_reset(ai->kit.tree, tree_bytes(ai->hash_mb));
	solve_forget(ai->kit.solver);
}

int ai_set_threads(struct ai *ai, int n)
{
	if (n < 1 || n > AI_THREADS_MAX)
		return -1;
	ai->threads = n;
	search_settle(&ai->kit);
	team_free(ai->kit.team);
	ai->kit.team = n > 1 ? team_new(n - 1) : NULL;
	int r = n > 1 && !ai->kit.team ? -1 : 0;
	ai_forget(ai);
	return r;
}

void ai_set_hash(struct ai *ai, long mb)
{
	ai->hash_mb = mb;
	solve_set_memory(ai->kit.solver, solver_bytes(mb));
	ai_forget(ai);
}

void ai_tree_info(struct ai *ai, struct search_info *out)
{
	search_info(&ai->kit, out);
}

/* The playouts of a move at a level between greedy and the top in st,
 * or -1 when out of memory. */
static long level_budget(struct ai *ai, const struct game *g, const void *st,
			 int level)
{
	struct move *list = scratch_get(
		&ai->simple, sizeof(struct move) * (size_t)g->max_moves);
	if (!list)
		return -1;
	int n = g->moves(st, list);
	long most =
		(long)(level_of(g, level)->playouts * (n > 0 ? n : 1) + 0.5);
	return most > 0 ? most : 1;
}

int ai_choose(struct ai *ai, const struct game *g, const void *st,
	      const struct ai_search *how, struct move *out,
	      struct ai_result *res)
{
	struct ai_result none;
	if (!res)
		res = &none;
	*res = (struct ai_result){.source = AI_QUIET, .level = how->level};
	if (g->status(st).phase != GAME_PLAY)
		return -1;
	int value, level = how->level;
	struct rng r;
	rng_seed(&r, how->seed);
	if (level >= 2 && level < AI_LEVEL_MAX) {
		float odds = level_of(g, level)->greedy;
		if (odds > 0 && rng_below(&r, 1u << 24) < odds * (1u << 24))
			level = 1; /* this move is greedy's */
	}
	if (level >= 2 && level < AI_LEVEL_MAX) {
		struct ai_search weak = *how;
		long most = level_budget(ai, g, st, level);
		if (most < 0)
			return -1;
		if (weak.playouts <= 0 || weak.playouts > most)
			weak.playouts = most;
		weak.no_book = weak.no_solver = 1;
		weak.temper = level_of(g, level)->temper;
		/* (the time is the level's too, movetime or the clock, but
		 * only ends its search) */
		struct ai_time t = tm_search_time(how);
		t.budgeted = 1;
		return search_choose(&ai->kit, g, st, &weak, &t, out, res);
	}
	if (level >= 2 && !how->no_book &&
	    book_probe(ai->book, g, st, out, &value)) {
		res->source = AI_BOOK;
		res->mv = *out;
		res->book_value = value;
		return 0;
	}
	if (level >= 2) {
		struct ai_time t = tm_search_time(how);
		return search_choose(&ai->kit, g, st, how, &t, out, res);
	}
	size_t list_bytes = sizeof(struct move) * (size_t)g->max_moves;
	unsigned char *mem =
		scratch_get(&ai->simple, list_bytes + g->state_size);
	if (!mem)
		return -1;
	struct move *list = (struct move *)mem;
	void *scratch = mem + list_bytes;
	int n = g->moves(st, list);
	if (n == 0) /* a turn whose moves cannot be listed (a drawn line) */
		return ai_random_move(g, st, &r, list, out);
	if (level <= 0)
		*out = list[rng_below(&r, (uint32_t)n)];
	else
		*out = list[greedy(g, st, list, n, scratch, &r)];
	res->source = level <= 0 ? AI_RANDOM : AI_GREEDY;
	res->mv = *out;
	return 0;
}

int ai_analyze(struct ai *ai, const struct game *g, const void *st,
	       const struct ai_search *how, double interval_ms)
{
	if (g->status(st).phase != GAME_PLAY || !how->info)
		return -1;
	return search_analyze(&ai->kit, g, st, how, interval_ms);
}

int ai_ponder(struct ai *ai, const struct game *g, const void *st,
	      const struct ai_search *how)
{
	if (how->level < AI_LEVEL_MAX || how->playouts > 0 || !how->stop ||
	    g->status(st).phase == GAME_OVER)
		return -1;
	return search_ponder(&ai->kit, g, st, how);
}
