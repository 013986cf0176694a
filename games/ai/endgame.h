/* endgame.h: the exact solver's share of a search (endgame.c). */
#ifndef ENDGAME_H
#define ENDGAME_H

#include "scratch.h"
#include "solve.h"
#include "tree.h"

/* One thread's scratch space for the solver's verdict on the root. */
struct endgame_scratch {
	struct scratch list;          /* the solver's root moves */
	struct scratch values;        /* the solver's values */
	struct scratch bounds;        /* what the solver proved of each */
	struct scratch margin_list;   /* the moves whose margins are solved */
	struct scratch margin_bounds; /* their values */
	struct scratch margin_index; /* where they stand in the solver's list */
	struct scratch margin_order; /* the tree's visits of them */
};
void endgame_scratch_free(struct endgame_scratch *s);

/* The solver's share of a search of the tree t: what it works with and
 * what it found about the root moves. */
struct endgame {
	/* set by the search (endgame_init: g and sc) */
	struct tree *t;
	const struct game *g;
	int np;                   /* players */
	struct solve_ctx *solver; /* the player's */
	int crews;                /* and its helpers' scratch */
	struct solve_scratch *const *crew;
	int (*stop)(void *ctx); /* the engine's input (may be NULL) */
	void *ctx;
	struct endgame_scratch *sc;
	/* what the solver found */
	int done; /* the solver finished */
	int best; /* the best value */
	int n;    /* moves in list */
	struct move *list;
	int *value; /* per move of list, the mover's value */
	/* per move of list, what the solver proved of its value, also when
	 * it ran out of budget */
	struct solve_bound *bound;
	long nodes;
	double ms; /* the processor time it had */
};

/* An empty record with room for g's moves, with the scratch space sc.
 * Returns 0, or -1 when out of memory. */
int endgame_init(struct endgame *e, struct endgame_scratch *sc,
		 const struct game *g);

/* The solver's value of the root move mv, when it has one. */
const int *endgame_value(const struct endgame *e, const struct move *mv);

/* Gives the exact solver the root until `until` (a timed search) or
 * `limit` nodes, and with two players the margins until `margins_until`
 * (see endgame.c).  Returns 1 when it finished. */
int endgame_solve(struct endgame *e, double until, double margins_until,
		  long limit);

#endif
