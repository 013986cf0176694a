/* reward.c: what a finished game is worth to each player: the teams, the
 * shares of first place, the margin (reward.h). */
#include "reward.h"

#include <limits.h>

/* Weight of the score-margin term in a reward, and the margin that earns
 * half of it: small enough that a win always beats a draw beats a loss. */
#define MARGIN_WEIGHT 0.1
#define MARGIN_HALF 4.0

double ai_result_reward(int result)
{
	return (1.0 - MARGIN_WEIGHT) * 0.5 * (result + 1) + MARGIN_WEIGHT * 0.5;
}

void ai_players_of(const struct game *g, const void *st, struct ai_players *out)
{
	struct game_sides sd = {0};
	if (g->sides)
		g->sides(st, &sd);
	out->n = g->players(st);
	for (int p = 0; p < out->n; p++)
		out->team[p] = sd.team[p] ? sd.team[p] : p + 1;
}

int ai_best_other(const struct ai_players *pl, const int *pts, int p)
{
	int best = INT_MIN;
	for (int q = 0; q < pl->n; q++)
		if (pl->team[q] != pl->team[p] && pts[q] > best)
			best = pts[q];
	return best;
}

/* The most points of any player into *top, and how many teams hold that
 * many. */
static int top_teams(const struct ai_players *pl, const int *pts, int *top)
{
	int best = pts[0], n = 0;
	for (int p = 1; p < pl->n; p++)
		if (pts[p] > best)
			best = pts[p];
	unsigned tied = 0; /* bit t: team t holds a top score */
	for (int p = 0; p < pl->n; p++)
		if (pts[p] == best)
			tied |= 1u << pl->team[p];
	for (; tied; tied &= tied - 1)
		n++;
	*top = best;
	return n;
}

void ai_shares(const struct ai_players *pl, const int *pts,
	       struct game_status s, int *share)
{
	if (s.phase == GAME_OVER && s.player) {
		int winner = pl->team[s.player - 1];
		for (int p = 0; p < pl->n; p++)
			share[p] = pl->team[p] == winner ? AI_SHARES : 0;
		return;
	}
	int top, ntied = top_teams(pl, pts, &top); /* a draw, or stuck */
	for (int p = 0; p < pl->n; p++)
		share[p] = pts[p] == top ? AI_SHARES / ntied : 0;
}

void ai_reward(const struct game *g, const void *st,
	       const struct ai_players *pl, double *rew)
{
	ai_reward_at(g, st, g->status(st), pl, rew);
}

void ai_reward_at(const struct game *g, const void *st, struct game_status s,
		  const struct ai_players *pl, double *rew)
{
	int pts[GAME_MAX_PLAYERS] = {0};
	g->score(st, pts);
	ai_reward_points(pts, s, pl, rew);
}

void ai_reward_points(const int *pts, struct game_status s,
		      const struct ai_players *pl, double *rew)
{
	if (pl->n <= 1) {
		rew[0] = pts[0];
		return;
	}
	int share[GAME_MAX_PLAYERS];
	ai_shares(pl, pts, s, share);
	for (int p = 0; p < pl->n; p++) {
		double result = (double)share[p] / AI_SHARES;
		double m = (double)pts[p] - (double)ai_best_other(pl, pts, p);
		double squash = m / (m < 0 ? MARGIN_HALF - m : MARGIN_HALF + m);
		rew[p] = (1.0 - MARGIN_WEIGHT) * result +
			 MARGIN_WEIGHT * 0.5 * (1.0 + squash);
	}
}
