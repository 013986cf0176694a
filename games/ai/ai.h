/* ai.h: the computer player.  It plays any game of the table through
 * struct game and nothing else.
 *
 * Level 0 plays a random legal move, level 1 the greedy move (the best
 * immediate result), level 2 searches: Monte Carlo tree search with chance
 * nodes and per-player (max-n) rewards, plus an exact solver that takes over
 * when the rest of the game fits in the time.
 *
 * With a movetime the search stops in time (the clock is read between
 * iterations, every few hundred playout plies and every few solver nodes,
 * with a millisecond to spare).  With a playout budget the clock never
 * changes a decision: the same position, budget and seed give the same
 * move.  One thread: the search runs on one core. */
#ifndef AI_H
#define AI_H

#include <stdio.h>

#include "../game.h"

#define AI_LEVEL_MAX 2 /* the strongest level, the default */

struct ai_settings {
	long movetime; /* milliseconds to think at most */
	long playouts; /* a fixed budget instead of the clock; 0: movetime */
	int level;     /* 0 random, 1 greedy one-move look-ahead, 2+ search */
};

/* Chooses a move for the player to move in st (a GAME_PLAY state).  Draws
 * all its randomness from r.  Writes search information to log when log is
 * not NULL.  Returns 0, or -1 when the player has no move. */
int ai_choose(const struct game *g, const void *st,
	      const struct ai_settings *cfg, struct rng *r, struct move *out,
	      FILE *log);

#endif
