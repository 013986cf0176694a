/* playout.c: the search's playouts: random play through the game
 * interface, or the game's own playout policy, to the end of the game or,
 * where the game can judge a position, for a few plies (playout.h). */
#include "playout.h"

#include <string.h>

#define MAX_PLAYOUT 100000 /* plies; a longer playout counts as stuck */
/* Playout plies before the search judges a position (worker_judge: the
 * game's evaluate() or contents table), where it can,
 * unless the game names its own (eval_after): a short random tail, then
 * the game's own judgement.  At movetime 100 against 8, 200 games each:
 * Tiptoe 8x8 with 4 scored -34.9 Elo (-84.3 to +13.2) and with 16 -190.8,
 * Take-Back-Toe with 4 +24.4 (-23.7 to +73.4) and with 2 +3.5; Take It
 * Away with two players gained from 4 (takeitaway.c; docs/strength.md,
 * "Playout plies before the evaluation"). */
#define EVAL_AFTER 8
#define PLAYOUT_CHUNK 128 /* playout plies between looks at the clock */

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

/* Plays up to n plies of random moves (dice rolled by their odds) on st,
 * with the game's own playout when it has one; returns the plies played,
 * fewer than n when the game ended (or got stuck). */
static int random_plies(struct worker *m, void *st, int n)
{
	const struct game *g = m->g;
	if (game_search(g)->playout)
		return game_search(g)->playout(st, m->r, n);
	int k = 0;
	for (; k < n; k++) {
		struct game_status s = g->status(st);
		if (s.phase == GAME_OVER)
			break;
		if (s.phase == GAME_ROLL) {
			g->roll(st, game_chance_pick(g, st, m->r));
			continue;
		}
		struct move mv;
		if (ai_random_move(g, st, m->r, m->list, &mv) < 0)
			break;
		g->play(st, &mv);
	}
	return k;
}

/* Plays st out at random until the game ends, or, where the game can
 * judge a position, for EVAL_AFTER plies; writes the rewards.  Returns 0,
 * or -1 when the clock ran out first. */
int playout(struct worker *m, void *st, double *rew)
{
	const struct game *g = m->g;
	int judge = worker_judges(m) && m->np > 1;
	int after = judge && game_search(g)->eval_after
			    ? game_search(g)->eval_after(st)
			    : 0;
	if (!after)
		after = EVAL_AFTER;
	if (after < 0)
		after = 0; /* the game's word: no playout */
	struct game_status s = g->status(st);
	for (int ply = 0; s.phase != GAME_OVER && ply < MAX_PLAYOUT;) {
		if (judge && ply >= after) {
			worker_judge(m, st, rew);
			return 0;
		}
		if (ply && tm_watched(&m->clock) && tm_out_of_time(&m->clock))
			return -1;
		int chunk = judge ? after : PLAYOUT_CHUNK;
		int done = random_plies(m, st, chunk);
		s = g->status(st);
		ply += chunk;
		if (done < chunk)
			break; /* over, or stuck */
	}
	ai_reward_at(g, st, s, &m->pl, rew); /* over, stuck or too long */
	return 0;
}

/* The mean length in plies of up to 8 random games from the root.  It
 * stops early once their plies add up to more than `enough` (the mean is
 * then past enough / 8; with `whole`, the first game still runs to its
 * end) or the clock passes until_ms; a game cut short counts with the
 * plies it reached.  1e9 when the clock allowed none. */
double playout_game_length(struct worker *m, double until_ms, double enough,
			   int whole)
{
	double sum = 0, saved = m->clock.deadline;
	int games = 0, cut = 0;
	if (m->clock.timed)
		m->clock.deadline = until_ms;
	while (games < 8 && sum <= enough && !cut) {
		if (games > 0 && tm_watched(&m->clock) &&
		    tm_out_of_time(&m->clock))
			break;
		memcpy(m->st, m->t->state, m->ss);
		int ply = 0;
		while (ply < MAX_PLAYOUT &&
		       ((whole && games == 0) || sum + ply <= enough)) {
			if (ply && tm_watched(&m->clock) &&
			    tm_out_of_time(&m->clock)) {
				cut = 1;
				break;
			}
			int j = random_plies(m, m->st, PLAYOUT_CHUNK);
			ply += j;
			if (j < PLAYOUT_CHUNK)
				break;
		}
		sum += ply;
		games++;
	}
	m->clock.deadline = saved;
	return sum > 0 ? sum / games : 1e9;
}
