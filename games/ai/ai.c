/* ai.c: the computer player's entry point and its two simple levels
 * (random and greedy).  The tree search is in mcts.c, the exact solver in
 * solve.c, what they share in support.c. */
#include "ai.h"

#include <stdlib.h>
#include <string.h>

#include "search.h"

/* Greedy: the move with the best immediate result for the mover: a win
 * first, then the mover's score lead after the move (solo: the score), a
 * loss last; ties broken at random. */
static int greedy(const struct game *g, const void *st, const struct move *list,
		  int n, void *scratch, struct rng *r)
{
	int player = g->status(st).player, np = g->players(st);
	double best = -1e18;
	int best_i = 0, ties = 0;
	for (int i = 0; i < n; i++) {
		memcpy(scratch, st, g->state_size);
		g->play(scratch, &list[i]);
		int pts[GAME_MAX_PLAYERS] = {0};
		g->score(scratch, pts);
		double v = pts[player - 1];
		if (np > 1) {
			int other = INT32_MIN;
			for (int p = 0; p < np; p++)
				if (p != player - 1 && pts[p] > other)
					other = pts[p];
			v -= other;
			struct game_status s = g->status(scratch);
			if (s.phase == GAME_OVER && s.player)
				v += s.player == player ? 1e9 : -1e9;
		}
		if (v > best) {
			best = v, best_i = i, ties = 1;
		} else if (v == best && rng_below(r, (uint32_t)++ties) == 0) {
			best_i = i;
		}
	}
	return best_i;
}

/* The player: what it keeps between searches. */
struct ai {
	long hash_mb;           /* the memory the search may hold */
	struct mcts_tree *tree; /* kept between clock-bound searches */
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
	ai->tree = mcts_tree_new(tree_bytes(ai->hash_mb));
	if (!ai->tree) {
		free(ai);
		return NULL;
	}
	return ai;
}

void ai_free(struct ai *ai)
{
	if (!ai)
		return;
	mcts_tree_free(ai->tree);
	free(ai);
}

void ai_forget(struct ai *ai)
{
	mcts_tree_reset(ai->tree, tree_bytes(ai->hash_mb));
	solve_forget(mcts_tree_ctx(ai->tree));
}

void ai_set_hash(struct ai *ai, long mb)
{
	ai->hash_mb = mb;
	solve_set_memory(mcts_tree_ctx(ai->tree), solver_bytes(mb));
	ai_forget(ai);
}

/* What each move costs on the frontend's clock beyond the engine's own
 * thinking, as a share of the overhead: the engine's account charges each
 * move this much too (engine.c, clock_spend). */
#define LAG_SHARE 10

/* What the clock c allows this move, keeping overhead_ms for the
 * frontend's delays and a lag for each move to come: the main time to
 * spread over the moves still to come, what the move gets besides (the
 * increment, the overtime), and the most it may take without losing (a
 * byo-yomi period is kept whole). */
static void clock_time(const struct ai_clock *c, double overhead,
		       struct ai_time *t)
{
	double main = c->main_ms > overhead ? c->main_ms - overhead : 0;
	t->main = main;
	t->extra = 0;
	t->cap = main;
	t->lag = overhead / LAG_SHARE;
	switch (c->kind) {
	case AI_CLOCK_ABSOLUTE:
		break;
	case AI_CLOCK_FISCHER:
		/* most of the increment comes back after the move, less what
		 * the move costs besides its thinking (over a 26x26 Tiptoe
		 * game under Fischer 2 s + 0.05 s, spending 0.8 of the whole
		 * increment ran the clock out) */
		if (c->inc_ms > t->lag)
			t->extra = 0.8 * (c->inc_ms - t->lag);
		break;
	case AI_CLOCK_CANADIAN: {
		double per = c->stones > 0
				     ? (c->period_ms - c->stones * overhead) /
					       c->stones
				     : 0;
		if (per < 0)
			per = 0;
		if (c->main_ms > 0) {
			t->extra =
				0.5 * per; /* the periods are still to come */
			t->cap = main + 0.5 * per;
		} else {
			t->extra = t->cap = per;
		}
		break;
	}
	case AI_CLOCK_BYOYOMI: {
		/* a move that ends within a period costs nothing */
		double per =
			c->periods > 0 ? 0.9 * (c->period_ms - overhead) : 0;
		if (per < 0)
			per = 0;
		if (c->main_ms > 0) {
			t->extra = per;
			t->cap = main + per;
		} else {
			t->extra = t->cap = per;
		}
		break;
	}
	}
}

/* When the search must end: a clock, movetime, or (a playout budget and
 * no clock) nothing. */
static struct ai_time search_time(const struct ai_search *how)
{
	struct ai_time t = {0};
	t.start = how->start_ms;
	if (how->clock) {
		t.clock = 1;
		clock_time(how->clock, how->overhead_ms, &t);
	} else if (how->playouts <= 0) {
		t.fixed = how->movetime_ms;
	}
	return t;
}

void ai_tree_info(const struct ai *ai, struct mcts_info *out)
{
	mcts_tree_info(ai->tree, out);
}

int ai_choose(struct ai *ai, const struct game *g, const void *st,
	      const struct ai_search *how, struct move *out)
{
	if (g->status(st).phase != GAME_PLAY)
		return -1;
	int value;
	if (how->level >= 2 && !how->no_book &&
	    book_probe(mcts_tree_ctx(ai->tree), g, st, out, &value)) {
		if (how->log) {
			char buf[MOVE_TEXT_MAX];
			g->format(st, out, buf);
			fprintf(how->log, "ai: %s from the book (value %d)\n",
				buf, value);
		}
		return 0;
	}
	if (how->level >= 2) {
		struct ai_time t = search_time(how);
		return mcts_choose(ai->tree, g, st, how, &t, out);
	}
	struct rng r;
	rng_seed(&r, how->seed);
	size_t list_bytes = sizeof(struct move) * (size_t)g->max_moves;
	unsigned char *mem = ai_scratch(mcts_tree_ctx(ai->tree), AI_SIMPLE,
					list_bytes + g->state_size);
	if (!mem)
		return -1;
	struct move *list = (struct move *)mem;
	void *scratch = mem + list_bytes;
	int n = g->moves(st, list);
	if (n == 0) /* a turn whose moves cannot be listed (a drawn line) */
		return ai_random_move(g, st, &r, list, out);
	if (how->level <= 0)
		*out = list[rng_below(&r, (uint32_t)n)];
	else
		*out = list[greedy(g, st, list, n, scratch, &r)];
	if (how->log) {
		char buf[MOVE_TEXT_MAX];
		g->format(st, out, buf);
		fprintf(how->log, "ai: level %d plays %s\n", how->level, buf);
	}
	return 0;
}

int ai_analyze(struct ai *ai, const struct game *g, const void *st,
	       const struct ai_search *how, double interval_ms)
{
	if (g->status(st).phase != GAME_PLAY || !how->info)
		return -1;
	return mcts_analyze(ai->tree, g, st, how, interval_ms);
}

int ai_ponder(struct ai *ai, const struct game *g, const void *st,
	      const struct ai_search *how)
{
	if (how->level < 2 || how->playouts > 0 || !how->stop ||
	    g->status(st).phase == GAME_OVER)
		return -1;
	return mcts_ponder(ai->tree, g, st, how);
}
