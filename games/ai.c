/* ai.c: the computer player's entry point, its two simple levels (random
 * and greedy) and the helpers the searches share.  The search itself is in
 * mcts.c, the exact endgame solver in search_solve.c. */
#include "ai.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

double ai_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void *ai_scratch(enum ai_slot slot, size_t bytes)
{
	static void *buf[AI_SLOTS];
	static size_t cap[AI_SLOTS];
	if (bytes > cap[slot]) {
		free(buf[slot]);
		size_t want = bytes < 4096 ? 4096 : bytes;
		buf[slot] = malloc(want);
		cap[slot] = buf[slot] ? want : 0;
	}
	return buf[slot];
}

int ai_outcome(const struct game *g, const void *st, struct rng *r)
{
	int values[GAME_MAX_CHANCE];
	double probs[GAME_MAX_CHANCE];
	int n = g->chance(st, values, probs);
	if (n <= 0)
		return 0;
	double u = rng_unit(r);
	for (int i = 0; i < n - 1; i++) {
		if (u < probs[i])
			return values[i];
		u -= probs[i];
	}
	return values[n - 1];
}

int ai_random_move(const struct game *g, const void *st, struct rng *r,
                   struct move *list, struct move *mv)
{
	if (g->random_move)
		return g->random_move(st, r, mv);
	int n = g->moves(st, list);
	if (n <= 0)
		return -1;
	*mv = list[rng_below(r, (uint32_t)n)];
	return 0;
}

/* Weight of the score-margin term in a reward, and the margin that earns
 * half of it: small enough that a win always beats a draw beats a loss. */
#define MARGIN_WEIGHT 0.1
#define MARGIN_HALF 4.0

void ai_reward(const struct game *g, const void *st, int np, double *rew)
{
	int pts[GAME_MAX_PLAYERS] = {0};
	g->score(st, pts);
	if (np <= 1) {
		rew[0] = pts[0];
		return;
	}
	struct game_status s = g->status(st);
	int top = pts[0];
	for (int p = 1; p < np; p++)
		if (pts[p] > top)
			top = pts[p];
	for (int p = 0; p < np; p++) {
		double result;
		if (s.phase != GAME_OVER || s.player == 0)
			result = pts[p] == top ? 0.5 : 0.0; /* draw or stuck */
		else
			result = s.player == p + 1 ? 1.0 : 0.0;
		int other = INT32_MIN;
		for (int q = 0; q < np; q++)
			if (q != p && pts[q] > other)
				other = pts[q];
		double m = (double)pts[p] - (double)other;
		double squash = m / (m < 0 ? MARGIN_HALF - m : MARGIN_HALF + m);
		rew[p] = (1.0 - MARGIN_WEIGHT) * result +
		         MARGIN_WEIGHT * 0.5 * (1.0 + squash);
	}
}

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
