/* playout.c: the search's playouts: random play through the game
 * interface (playout.h). */
#include "playout.h"

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
