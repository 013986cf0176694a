/* search.h: the course of one search (search.c): genmove's, analyze's and
 * ponder's, from setting up the tree to the move, on the player's tree and
 * threads, within its time.  This is what the player (ai.c) calls; the
 * layers below are the tree (tree.h), one thread's part (worker.h), its
 * iterations (iterate.h) and threads (team.h), the playouts (playout.h),
 * the exact solver's share (endgame.h) and what a search found
 * (results.h). */
#ifndef SEARCH_H
#define SEARCH_H

#include "request.h"
#include "endgame.h"
#include "solve.h"
#include "team.h"
#include "timeman.h"
#include "tree.h"
#include "worker.h"

/* What the last search did with the tree (for the tests and the
 * benchmark). */
struct search_info {
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

/* What a player's searches work with, all of it the player's, which
 * makes it, keeps it between searches and hands it down: the tree, the
 * helper threads, the exact solver (its table and scratch), the calling
 * thread's scratch space, and what the searches remember of the machine
 * and the last search. */
struct search_kit {
	struct tree *tree;
	struct team *team;        /* set threads: the helpers; NULL: none */
	struct solve_ctx *solver; /* the solver's table and scratch */
	struct worker_scratch scratch;
	struct endgame_scratch endgame;
	struct scratch candidates; /* the last result's (struct ai_result) */
	/* How late clock-bound searches ended past their deadlines lately
	 * (milliseconds, a moving average).  On a busy machine the process
	 * waits for the processor in slices of the scheduler's tick (4 ms
	 * here; 4 to 36 ms seen inside single playouts with ten processes on
	 * two cores), so a search ends late however often it reads the
	 * clock; the plans end that much earlier instead.  Kept when the tree
	 * is dropped: it is the machine's, not the game's. */
	double late;
	struct search_info info; /* the last search's */
};

/* Gives back everything k holds (its tree, team and solver too). */
void search_kit_free(struct search_kit *k);

/* Waits for helpers a stopped search left running: what every change to
 * k's tree from outside does first. */
void search_settle(struct search_kit *k);

/* The move of the GAME_PLAY state st (level 2 and up): searches st until
 * `time` says (see struct ai_time), how->playouts are done, or how->stop
 * says so, and writes the move to play, and into res (when not NULL) what
 * the search found, the first how->info_moves candidates among it.  A
 * clock-bound search (how->playouts == 0) starts from the part of the
 * kept tree below st when st is a few plies below the tree's root, and
 * keeps its tree for the next search; a playout-bound one starts from an
 * empty tree and empty tables.  Returns 0, or -1 when there is no
 * move. */
int search_choose(struct search_kit *k, const struct game *g, const void *st,
		  const struct ai_search *how, const struct ai_time *time,
		  struct move *out, struct ai_result *res);

/* ai_analyze's search (see ai.h). */
int search_analyze(struct search_kit *k, const struct game *g, const void *st,
		   const struct ai_search *how, double interval);

/* ai_ponder's search: grows the tree of st until how->stop says so. */
int search_ponder(struct search_kit *k, const struct game *g, const void *st,
		  const struct ai_search *how);

/* What the last search did (struct search_info). */
void search_info(struct search_kit *k, struct search_info *out);

#endif
