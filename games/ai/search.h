/* search.h: the tree search (mcts.c with pool.c, mcts_solve.c,
 * mcts_report.c and mcts_team.c, which share mcts.h), as the player
 * (ai.c) and the tests and benchmarks of the search see it. */
#ifndef SEARCH_H
#define SEARCH_H

#include <stdio.h>

#include "ai.h"
#include "playout.h"
#include "reward.h"
#include "scratch.h"
#include "solve.h"
#include "timeman.h"

/* One thread's scratch space for the tree search. */
struct mcts_scratch {
	struct scratch list;          /* max_moves moves */
	struct scratch solve_list;    /* the solver's root moves */
	struct scratch values;        /* the solver's values */
	struct scratch bounds;        /* what the solver proved of each */
	struct scratch cls;           /* one byte a move */
	struct scratch prior;         /* one double a move */
	struct scratch states;        /* scratch states */
	struct scratch reroot;        /* states on the way to a new root */
	struct scratch margin_list;   /* the moves whose margins are solved */
	struct scratch margin_bounds; /* their values */
	struct scratch margin_index; /* where they stand in the solver's list */
	struct scratch margin_order; /* the tree's visits of them */
	struct scratch pending;      /* a shared tree's updates held back */
};
void mcts_scratch_free(struct mcts_scratch *s);

/* What a search works with besides its tree, all of it its player's,
 * kept between searches: the calling thread's scratch space, and the
 * exact solver's table with its scratch. */
struct mcts_kit {
	struct mcts_scratch *scratch;
	struct solve_ctx *solver;
};

/* The MCTS player's tree (mcts.c), kept by struct ai between searches:
 * its nodes live in one pool sized by the memory budget. */
struct mcts_tree;

/* A tree with room for `bytes` of nodes (allocated when first needed), or
 * NULL when out of memory. */
struct mcts_tree *mcts_tree_new(size_t bytes);
void mcts_tree_free(struct mcts_tree *t);
/* Drops the tree and gives its memory back; the budget becomes `bytes`. */
void mcts_tree_reset(struct mcts_tree *t, size_t bytes);
/* Searches with n threads from now on (set threads; mcts_team.c): n - 1
 * helpers that grow the tree with the calling thread; drops the tree.
 * Returns 0, or -1 when out of memory (one thread then). */
int mcts_tree_set_threads(struct mcts_tree *t, int n);

/* What the last search did with the tree (for the tests and the
 * benchmark). */
struct mcts_info {
	unsigned long reused;    /* root visits kept from earlier searches */
	unsigned long visits;    /* root visits at the end */
	unsigned long chosen;    /* visits of the move chosen, at the end */
	unsigned long nodes;     /* nodes in use at the end */
	unsigned long peak;      /* the most nodes in use at once */
	unsigned long cap;       /* the most nodes the budget holds */
	long iterations;         /* iterations of the last search */
	double planned;          /* the most ms its clock allowed it (0: no
				  * clock) */
	int settled;             /* it ended before its budget because the
				  * choice was settled: one move, a proof, the
				  * solver */
	long collections;        /* compactions of the pool during it */
	int full;                /* the pool is full (until compacted) */
	unsigned long expand_at; /* visits a leaf needs before it grows */
	double solver_ms;        /* processor time the exact solver had, of
				  * the last search */
	int threads;             /* the threads that searched (set threads) */
	long own;                /* the iterations of the calling thread */
	unsigned long prior_visits; /* the visits a prior counts for */
};
void mcts_tree_info(struct mcts_tree *t, struct mcts_info *out);
/* For tests: the nodes of the tree below its root whose minimax value
 * (implicit minimax, mcts.h) is not the one their children give, after a
 * search with one thread; *seen gets the nodes whose children have such
 * values (0 where the search keeps none). */
long mcts_tree_im_faults(struct mcts_tree *t, long *seen);
/* The same of a player's tree. */
void ai_tree_info(const struct ai *ai, struct mcts_info *out);

/* The MCTS player (level 2 and up): searches st until `time` says (see
 * struct ai_time), how->playouts are done, or how->stop says so, and writes
 * the move to play.  A clock-bound search (how->playouts == 0) starts from
 * the part of the kept tree below st when st is a few plies below the
 * tree's root, and keeps its tree for the next search; a playout-bound one
 * starts from an empty tree and empty tables. */
int mcts_choose(struct mcts_tree *t, const struct mcts_kit *kit,
		const struct game *g, const void *st,
		const struct ai_search *how, const struct ai_time *time,
		struct move *out);

/* ai_analyze's search (see ai.h). */
int mcts_analyze(struct mcts_tree *t, const struct mcts_kit *kit,
		 const struct game *g, const void *st,
		 const struct ai_search *how, double interval);

/* ai_ponder's search: grows the tree of st until how->stop says so. */
int mcts_ponder(struct mcts_tree *t, const struct mcts_kit *kit,
		const struct game *g, const void *st,
		const struct ai_search *how);

#endif
