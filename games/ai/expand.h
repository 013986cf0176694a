/* expand.h: the growth of the search tree's leaves (expand.c). */
#ifndef EXPAND_H
#define EXPAND_H

#include "worker.h"

/* Sets t up for a search of st of game g: whether its nodes keep minimax
 * values (implicit minimax: where the game asks for it), and the visits
 * the game's judgement of a new move counts for; a tree grown otherwise
 * is no longer kept. */
void expand_setup(struct tree *t, const struct game *g, const void *st);

/* Gives the leaf `at` (whose state is st; `root`: the tree's root) its
 * children, or makes it a finished node.  Returns 0, or -1 when it cannot
 * (the pool is full, too many moves, or another thread is growing it):
 * the iteration then plays out from the leaf.  Sets m->new_proof when the
 * node got proven. */
int expand(struct worker *m, uint32_t at, const void *st, int root);

#endif
