/* playout.h: the search's playouts (playout.c): random play through the
 * game interface, or the game's own playout policy. */
#ifndef PLAYOUT_H
#define PLAYOUT_H

#include "../game.h"
#include "worker.h"

/* A random legal move of the player to move: the game's random_move when it
 * has one, else a uniform pick from moves() (list: max_moves scratch).
 * Returns 0, or -1 when there is none. */
int ai_random_move(const struct game *g, const void *st, struct rng *r,
		   struct move *list, struct move *mv);

/* Plays st out at random until the game ends, or, where the game can
 * judge a position, for EVAL_AFTER plies (or the game's eval_after);
 * writes each player's reward into rew.  Returns 0, or -1 when m's clock
 * ran out first. */
int playout(struct worker *m, void *st, double *rew);

/* The mean length in plies of up to 8 random games from m's root.  It
 * stops early once their plies add up to more than `enough` (the mean is
 * then past enough / 8; with `whole`, the first game still runs to its
 * end) or the clock passes until_ms; a game cut short counts with the
 * plies it reached.  1e9 when the clock allowed none. */
double playout_game_length(struct worker *m, double until_ms, double enough,
			   int whole);

#endif
