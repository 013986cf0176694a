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
	long hash_mb; /* the memory the search may hold */
};

#define HASH_MB_DEFAULT 64

struct ai *ai_new(void)
{
	struct ai *ai = calloc(1, sizeof *ai);
	if (ai)
		ai->hash_mb = HASH_MB_DEFAULT;
	return ai;
}

void ai_free(struct ai *ai)
{
	free(ai);
}

void ai_forget(struct ai *ai)
{
	(void)ai; /* every search starts from an empty tree for now */
	solve_forget();
}

/* The solver's transposition table gets this share of the hash; the tree
 * the rest. */
#define SOLVER_SHARE 4

void ai_set_hash(struct ai *ai, long mb)
{
	ai->hash_mb = mb;
	solve_set_memory(((size_t)mb << 20) / SOLVER_SHARE);
	ai_forget(ai);
}

/* How many more moves of its own the mover should expect to make, for
 * spreading main time over them: a guess that holds for no game in
 * particular, so the main time never runs out however long the game. */
#define CLOCK_MOVES 25

/* The milliseconds this move may take on the clock c, keeping overhead_ms
 * per move for the frontend's delays: a share of the main time, plus what
 * the overtime or the increment gives back, never more than the clock
 * allows without losing (a byo-yomi period is kept whole). */
static double clock_budget(const struct ai_clock *c, double overhead)
{
	double main = c->main_ms - overhead, t = main / CLOCK_MOVES, cap = main;
	switch (c->kind) {
	case AI_CLOCK_ABSOLUTE:
		break;
	case AI_CLOCK_FISCHER:
		t += 0.8 * c->inc_ms;
		break;
	case AI_CLOCK_CANADIAN: {
		double per = c->stones > 0
				     ? (c->period_ms - c->stones * overhead) /
					       c->stones
				     : 0;
		if (c->main_ms > 0) {
			t += 0.5 * per; /* the periods are still to come */
			cap = (main > 0 ? main : 0) + 0.5 * per;
		} else {
			t = cap = per;
		}
		break;
	}
	case AI_CLOCK_BYOYOMI: {
		/* a move that ends within a period costs nothing */
		double per = 0.9 * (c->period_ms - overhead);
		if (c->periods <= 0)
			per = 0;
		if (c->main_ms > 0) {
			t += per;
			cap = (main > 0 ? main : 0) + per;
		} else {
			t = cap = per;
		}
		break;
	}
	}
	if (t > cap)
		t = cap;
	return t > 0 ? t : 0;
}

/* When a search must have ended: movetime, or the clock's budget, less a
 * small margin for what follows the last iteration; 0 with a playout
 * budget and no clock (the clock then never decides anything). */
static double deadline(const struct ai_search *how)
{
	double t;
	if (how->clock)
		t = clock_budget(how->clock, how->overhead_ms);
	else if (how->playouts > 0)
		return 0;
	else
		t = how->movetime_ms;
	double margin = t > 20 ? 1.0 : 0.05 * t;
	return how->start_ms + t - margin;
}

int ai_choose(struct ai *ai, const struct game *g, const void *st,
	      const struct ai_search *how, struct move *out)
{
	(void)ai;
	if (g->status(st).phase != GAME_PLAY)
		return -1;
	int value;
	if (how->level >= 2 && book_probe(g, st, out, &value)) {
		if (how->log) {
			char buf[MOVE_TEXT_MAX];
			g->format(st, out, buf);
			fprintf(how->log, "ai: %s from the book (value %d)\n",
				buf, value);
		}
		return 0;
	}
	if (how->level >= 2)
		return mcts_choose(g, st, how, deadline(how), out);
	struct rng r;
	rng_seed(&r, how->seed);
	size_t list_bytes = sizeof(struct move) * (size_t)g->max_moves;
	unsigned char *mem = ai_scratch(AI_SIMPLE, list_bytes + g->state_size);
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
	(void)ai;
	if (g->status(st).phase != GAME_PLAY || !how->info)
		return -1;
	return mcts_analyze(g, st, how, interval_ms);
}
