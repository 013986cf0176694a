/* ai.c: a flat Monte Carlo player.  Every legal move gets random playouts in
 * turn until the clock or the playout budget runs out; the move with the best
 * average result for the mover is played. */
#include "ai.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Picks a chance outcome by its odds. */
static int pick_outcome(const struct game *g, const void *st, struct rng *r)
{
	int values[GAME_MAX_CHANCE];
	double probs[GAME_MAX_CHANCE];
	int n = g->chance(st, values, probs);
	double u = rng_unit(r);
	for (int i = 0; i < n - 1; i++) {
		if (u < probs[i])
			return values[i];
		u -= probs[i];
	}
	return values[n - 1];
}

static int random_move(const struct game *g, const void *st, struct rng *r,
		       struct move *list, struct move *mv)
{
	if (g->random_move)
		return g->random_move(st, r, mv);
	int n = g->moves(st, list);
	if (n == 0)
		return -1;
	*mv = list[rng_below(r, (uint32_t)n)];
	return 0;
}

/* Plays st out at random; returns the result for `player`: 1 win, 0.5 draw,
 * 0 loss.  A stuck state (no move yet not over) counts as a draw. */
static double playout(const struct game *g, void *st, int player, struct rng *r,
		      struct move *list)
{
	for (;;) {
		struct game_status s = g->status(st);
		if (s.phase == GAME_OVER)
			return s.player == player ? 1.0 : s.player == 0 ? 0.5 : 0.0;
		if (s.phase == GAME_ROLL) {
			g->roll(st, pick_outcome(g, st, r));
			continue;
		}
		struct move mv;
		if (random_move(g, st, r, list, &mv) < 0)
			return 0.5;
		g->play(st, &mv);
	}
}

/* Greedy: the move after which the mover's score lead is largest, a win
 * beating everything; ties broken at random. */
static int greedy(const struct game *g, const void *st, struct move *list, int n,
		  void *scratch, struct rng *r)
{
	int player = g->status(st).player, np = g->players(st);
	double best = -1e18;
	int best_i = 0, ties = 0;
	for (int i = 0; i < n; i++) {
		memcpy(scratch, st, g->state_size);
		g->play(scratch, &list[i]);
		int pts[GAME_MAX_PLAYERS];
		g->score(scratch, pts);
		double v = pts[player - 1];
		for (int p = 0; p < np; p++)
			if (p != player - 1)
				v -= pts[p] / (double)(np - 1);
		struct game_status s = g->status(scratch);
		if (s.phase == GAME_OVER)
			v += s.player == player ? 1e9 : s.player == 0 ? 0 : -1e9;
		if (v > best) {
			best = v, best_i = i, ties = 1;
		} else if (v == best && rng_below(r, (uint32_t)++ties) == 0) {
			best_i = i;
		}
	}
	return best_i;
}

int ai_choose(const struct game *g, const void *st, const struct ai_settings *cfg,
	      struct rng *r, struct move *out, FILE *log)
{
	struct move *list = malloc(sizeof *list * (size_t)g->max_moves * 2);
	double *sum = NULL;
	long *visits = NULL;
	void *scratch = malloc(g->state_size);
	int ret = -1;
	if (!list || !scratch)
		goto done;
	struct move *play_list = list + g->max_moves;
	int n = g->moves(st, list);
	if (n == 0) {
		if (g->random_move && g->random_move(st, r, out) == 0)
			ret = 0;
		goto done;
	}
	ret = 0;
	if (n == 1 || cfg->level <= 0) {
		*out = list[n == 1 ? 0 : rng_below(r, (uint32_t)n)];
		goto done;
	}
	if (cfg->level == 1) {
		*out = list[greedy(g, st, list, n, scratch, r)];
		goto done;
	}
	sum = calloc((size_t)n, sizeof *sum);
	visits = calloc((size_t)n, sizeof *visits);
	if (!sum || !visits) {
		*out = list[0];
		goto done;
	}
	int player = g->status(st).player;
	double deadline = now_ms() + (double)cfg->movetime - 1.0;
	long total = 0;
	for (;;) {
		if (cfg->playouts > 0 ? total >= cfg->playouts
				      : (total % 16 == 0 && now_ms() >= deadline))
			break;
		int i = (int)(total % n);
		memcpy(scratch, st, g->state_size);
		g->play(scratch, &list[i]);
		sum[i] += playout(g, scratch, player, r, play_list);
		visits[i]++;
		total++;
	}
	int best = 0;
	for (int i = 1; i < n; i++)
		if (visits[i] && (!visits[best] ||
				  sum[i] / visits[i] > sum[best] / visits[best]))
			best = i;
	*out = list[best];
	if (log && visits[best])
		fprintf(log, "ai: %ld playouts, best %.3f\n", total,
			sum[best] / visits[best]);
done:
	free(list);
	free(scratch);
	free(sum);
	free(visits);
	return ret;
}
