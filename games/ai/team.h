/* team.h: the helper threads of a player (team.c), which grow its tree
 * beside its main search. */
#ifndef TEAM_H
#define TEAM_H

#include <pthread.h>
#include <stdatomic.h>

#include "solve.h"
#include "worker.h"

struct helper;

/* A player's helpers (set threads N: N - 1 of them). */
struct team {
	struct helper *crew;
	int ncrew;
	/* their solver scratch, for the solver's root split (solve_job) */
	struct solve_scratch **crew_solver;
	struct tree *tree;   /* the tree they search now, shared */
	atomic_int halt;     /* the main search tells its helpers to stop */
	atomic_long tickets; /* a playout budget: the playouts begun by all */
};

/* A team of `helpers` threads, or NULL when out of memory. */
struct team *team_new(int helpers);
/* Waits for the helpers and frees the team (NULL: nothing). */
void team_free(struct team *team);

/* Sets team's helpers (team may be NULL: none) up to search m's tree
 * beside m (after m's root is ready), with random streams drawn from seed
 * and, when playouts > 0, one budget of playouts for all.  m->team is
 * then team, or NULL when m searches alone. */
void team_start(struct team *team, struct worker *m, uint64_t seed,
		long playouts);
/* worker_run on every thread of m's team at once. */
void team_run(struct worker *m, double until_ms, long until_iters);
/* The same in two halves, for a search that runs in steps (ponder): the
 * helpers run until team_join. */
void team_launch(struct worker *m, double until_ms, long until_iters);
void team_join(struct worker *m);
/* Tells the team to stop and returns at once, leaving the tree shared:
 * the engine's stop is answered from the tree as the helpers leave it,
 * with no wait for a helper the system has taken the processor from (up
 * to several milliseconds on a machine with no core to spare).  While
 * they finish, what the choice reads of the tree is read atomically, as
 * a helper would read it; anything more waits for them (team_settle),
 * which every entry to the tree from outside does first. */
void team_release(struct worker *m);
/* Waits for helpers a team_release left running (team may be NULL). */
void team_settle(struct team *team);
/* The playouts of m and its team in this search. */
long team_iters(const struct worker *m);
/* The threads that search with m: its team's and its own. */
int team_threads(const struct worker *m);

#endif
