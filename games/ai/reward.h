/* reward.h: what a finished game is worth to each player (reward.c): the
 * teams, the shares of first place, and the rewards the search backs up
 * and the solver ranks by. */
#ifndef REWARD_H
#define REWARD_H

#include "../game.h"

/* The players of a set-up and the team each wins with: partners share a
 * win (Abs-Trac-Toe's teams, where status() names the team's
 * lowest-numbered player); a player outside a team is a team of its own. */
struct ai_players {
	int n;                      /* players() */
	int team[GAME_MAX_PLAYERS]; /* player p + 1's: 1 to n */
};
void ai_players_of(const struct game *g, const void *st,
		   struct ai_players *out);
/* The most points among the players outside player p + 1's team (pts:
 * score()'s); INT_MIN when there are none. */
int ai_best_other(const struct ai_players *pl, const int *pts, int p);
/* Each player's share of first place, in AI_SHARES-ths, into share: all of
 * it to a winner and its partner, else split evenly among the teams tied
 * at the top (as the tournament runner counts it: a third each when
 * three tie), nothing to the others.  The rewards and the exact solver
 * both count results so. */
#define AI_SHARES 12 /* divides evenly among 1 to 4 teams */
void ai_shares(const struct ai_players *pl, const int *pts,
	       struct game_status s, int *share);

/* The reward of a proven result (-1 loss, 0 draw, 1 win) whose margin is
 * not known: what ai_reward gives for that result with a margin of 0. */
double ai_result_reward(int result);

/* What each player gets from the finished (or stuck) state st, into rew
 * (players() values).  With two or more players: the share of first
 * place (ai_shares: 1 win, the winner's partner's too, 0 loss, a draw's
 * 1 shared among the teams tied at the top), blended with a small term
 * for the margin over the best other team, so that bigger wins (and
 * smaller losses) are preferred; the result always dominates.  Solo: the
 * score itself, raw. */
void ai_reward(const struct game *g, const void *st,
	       const struct ai_players *pl, double *rew);
/* The same, for a state whose status s is known already. */
void ai_reward_at(const struct game *g, const void *st, struct game_status s,
		  const struct ai_players *pl, double *rew);
/* The same, from the points score() would give and the status. */
void ai_reward_points(const int *pts, struct game_status s,
		      const struct ai_players *pl, double *rew);

#endif
