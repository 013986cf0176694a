/* ai.h: the computer player.  It plays any game of the table through
 * struct game and nothing else. */
#ifndef AI_H
#define AI_H

#include <stdio.h>

#include "game.h"

#define AI_LEVEL_MAX 2 /* the strongest level, the default */

struct ai_settings {
	long movetime; /* milliseconds to think at most */
	long playouts; /* a fixed budget instead of the clock; 0: use movetime */
	int level;     /* 0 random, 1 greedy one-move look-ahead, 2+ search */
};

/* Chooses a move for the player to move in st (a GAME_PLAY state).  Draws
 * all its randomness from r.  Writes search information to log when log is
 * not NULL.  Returns 0, or -1 when the player has no move. */
int ai_choose(const struct game *g, const void *st, const struct ai_settings *cfg,
	      struct rng *r, struct move *out, FILE *log);

#endif
