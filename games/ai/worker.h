/* worker.h: one thread's part of a search (worker.c): what it reads of
 * the game and the tree, its scratch space, its random stream, its clock,
 * and what it holds back on a tree it shares with other threads.  The
 * tree policy (expand.c, iterate.c) and the playouts (playout.c) work on
 * it; the main search's is the lead of the others (team.c). */
#ifndef WORKER_H
#define WORKER_H

#include <stdatomic.h>

#include "pattern.h"
#include "reward.h"
#include "scratch.h"
#include "timeman.h"
#include "tree.h"

/* One thread's scratch space for the tree search. */
struct worker_scratch {
	struct scratch list;    /* max_moves moves */
	struct scratch cls;     /* one byte a move */
	struct scratch prior;   /* one double a move */
	struct scratch order;   /* one uint16_t a move */
	struct scratch states;  /* scratch states */
	struct scratch reroot;  /* states on the way to a new root */
	struct scratch pending; /* a shared tree's updates held back */
	struct pattern pat;     /* the lines of the search's board, where the
				 * game's contents table judges it */
};
void worker_scratch_free(struct worker_scratch *s);

/* A lazy scan's memory (iterate.c, LAZY_FROM): the node (its index), the
 * child its last scan chose, and the visits left before the next scan.
 * Each thread keeps its own, a slot a node by its index (a slot another
 * node took over scans afresh). */
#define LAZY_SLOTS 1024
struct lazy {
	uint32_t at;
	uint16_t last;
	uint16_t skip;
};

/* The visits a thread of a shared tree holds back (iterate.c, BUSY):
 * slots hashed by node, PENDING of them.  A busy node that shares its slot
 * with another on the paths a thread takes adds its visits one at a time
 * again.  With 256 slots two threads ran Take It Away at 1.49 to 1.59
 * times one thread's iterations, with 4,096 (80 kB a thread) at 1.68 to
 * 1.78 (`bench_ai threads takeitaway "" 1000 1 2`, in turn;
 * docs/benchmarks.md, "Threads"). */
#define PENDING_BITS 12
#define PENDING (1 << PENDING_BITS)

/* Visits to one node held back by a thread of a shared tree. */
struct pending {
	uint32_t node;
	uint32_t visits;
	uint32_t batch; /* visits to hold before adding them to the node */
	float sum;      /* of their rewards for the node's mover */
	uint8_t who;    /* the node's mover (a copy: see hold_visit) */
};

struct team;

/* One thread's part of one search over the tree. */
struct worker {
	struct tree *t;
	struct worker_scratch *sc; /* this thread's scratch space */
	const struct game *g;
	struct rng *r;
	int np;               /* players */
	struct ai_players pl; /* and their teams */
	int im;               /* the nodes keep minimax values (node's im) */
	/* the game's contents table (game_search's contents_table), where
	 * it judges this search's positions through sc->pat; NULL: the
	 * game's evaluate(), if any */
	const int16_t *table;
	/* the lazy scans of the busiest nodes, emptied when the pool is
	 * compacted: the tree's compactions when they were last emptied */
	struct lazy lazy[LAZY_SLOTS];
	long collections;
	size_t ss;
	unsigned char *st;  /* the iteration's scratch state */
	unsigned char *st2; /* another, for looking one move ahead */
	unsigned char *cls; /* max_moves bytes: what each move does at once */
	double *prior;      /* max_moves: evaluate() after each move */
	uint16_t *order;    /* max_moves: the order of a node's children */
	int have_prior;     /* decisive() filled prior[] */
	struct move *list;  /* max_moves scratch */
	int new_proof;      /* the last expansion proved its node */
	struct tm_watch clock; /* its phase's end, the engine's stop */
	int aborted;           /* the clock cut an iteration short */
	int grown;         /* the pool is full and stays so for this search */
	int ignore_proofs; /* the root is proven lost: search on as if
			    * nothing were proven, for the best chances
			    * against an opponent who may err */
	long iters;
	/* the solo game's range of scores, as the tree had it when last
	 * widened (iterate.c, widen); the reward statistics not yet added to
	 * the tree's; on a shared tree, the visits of busy nodes held back */
	double lo, hi, r1, r2, rn;
	struct pending *pending;
	uint32_t chunk_next, chunk_end; /* its nodes not given out yet */
	/* the team (team.c): all 0 with one thread */
	pthread_mutex_t *lock; /* the tree is shared (iterate.c) */
	atomic_long *tickets;  /* a playout budget shared by the team */
	struct team *team;     /* the lead's helpers, set up for this search */
	int spent;             /* the shared budget ran out */
	int for_room;          /* the last worker_run left to have the pool
				* compacted with the team stopped */
};

/* Sets up m, with the scratch space sc and the random stream r, to search
 * the tree t (whose root stands for st) of game g, watching stop(ctx)
 * (stop may be NULL).  Returns 0, or -1 when out of memory. */
int worker_start(struct worker *m, struct tree *t, struct worker_scratch *sc,
		 const struct game *g, const void *st, struct rng *r,
		 int (*stop)(void *ctx), void *ctx);

/* Sets up m, with the scratch space sc and the random stream r, to search
 * lead's tree beside it (a helper thread of lead's team).  Returns 0, or
 * -1 when out of memory. */
int worker_follow(struct worker *m, const struct worker *lead,
		  struct worker_scratch *sc, struct rng *r);

/* Whether m's search judges positions (the game's evaluate(), or its
 * contents table): only then do new nodes get a prior and playouts stop
 * early. */
static inline int worker_judges(const struct worker *m)
{
	return m->table || game_search(m->g)->evaluate;
}

/* The judgement of st, a state going on, for each player: by the game's
 * contents table where m has it, else by its evaluate(). */
void worker_judge(struct worker *m, const void *st, double *value);

/* Gives m, about to search a shared tree, its room for held back visits
 * (from its scratch space).  Returns 0, or -1 when out of memory. */
int worker_share(struct worker *m);

#endif
