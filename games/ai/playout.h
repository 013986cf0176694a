/* playout.h: the search's playouts (playout.c): random play through the
 * game interface, or the game's own playout policy. */
#ifndef PLAYOUT_H
#define PLAYOUT_H

#include "../game.h"

/* A random legal move of the player to move: the game's random_move when it
 * has one, else a uniform pick from moves() (list: max_moves scratch).
 * Returns 0, or -1 when there is none. */
int ai_random_move(const struct game *g, const void *st, struct rng *r,
		   struct move *list, struct move *mv);

#endif
