/* ai.c: the computer player's entry point and its two simple levels
 * (random and greedy).  The tree search is in mcts.c, the exact solver in
 * solve.c, what they share in support.c. */
#include "ai.h"

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

int ai_choose(const struct game *g, const void *st,
	      const struct ai_settings *cfg, struct rng *r, struct move *out,
	      FILE *log)
{
	double start = ai_now_ms();
	if (g->status(st).phase != GAME_PLAY)
		return -1;
	if (cfg->level >= 2)
		return mcts_choose(g, st, cfg, r, out, log, start);
	size_t list_bytes = sizeof(struct move) * (size_t)g->max_moves;
	unsigned char *mem = ai_scratch(AI_SIMPLE, list_bytes + g->state_size);
	if (!mem)
		return -1;
	struct move *list = (struct move *)mem;
	void *scratch = mem + list_bytes;
	int n = g->moves(st, list);
	if (n == 0) /* a turn whose moves cannot be listed (a drawn line) */
		return ai_random_move(g, st, r, list, out);
	if (cfg->level <= 0)
		*out = list[rng_below(r, (uint32_t)n)];
	else
		*out = list[greedy(g, st, list, n, scratch, r)];
	if (log) {
		char buf[MOVE_TEXT_MAX];
		g->format(st, out, buf);
		fprintf(log, "ai: level %d plays %s\n", cfg->level, buf);
	}
	return 0;
}
