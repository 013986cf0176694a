/* solve.h: the exact solver (solve.c): the whole rest of a small game,
 * searched through the game interface, with its proofs kept in a table
 * (solve_table.h) from one call to the next. */
#ifndef SOLVE_H
#define SOLVE_H

#include "../game.h"
#include "solve_table.h"

/* What the solver knows of one value: it lies in [lo, hi]; lo == hi when
 * it is exact, -SOLVE_INF and SOLVE_INF when nothing is known. */
struct solve_bound {
	int lo, hi;
};

/* Exact solver.  For the GAME_PLAY state st with the n moves list[]:
 * searches the whole rest of the game until node_limit nodes are spent or
 * the clock passes deadline_ms (0: no clock) or stop(ctx) (when stop is
 * not NULL, asked every AI_POLL_MS) says so.  On success returns 1 and
 * writes value[i] for each move, from the mover's point of view: with two
 * players -1 loss, 0 draw, 1 win (under perfect play); otherwise a number
 * that ranks the results for the mover (result first, then margin; solo: the
 * final score).  Returns 0 when it ran out of budget or met something it
 * cannot solve (chance, unlisted moves).  *nodes gets the nodes searched.
 * A call without a deadline starts from an empty table, so that its answer
 * under a node budget never depends on earlier calls; with a deadline the
 * table is kept (see solve_moves).  When bounds is not NULL, bounds[i]
 * gets what was proved of move i's value (struct solve_bound), also when
 * the budget ran out. */
int search_solve(struct solve_ctx *c, const struct game *g, const void *st,
		 const struct move *list, int n, double deadline_ms,
		 long node_limit, int (*stop)(void *), void *ctx, int *value,
		 struct solve_bound *bounds, long *nodes);

/* The solver's values, from the mover's point of view.  Two players: the
 * result times SOLVE_RESULT (1 win, 0 draw, -1 loss) plus the margin (the
 * mover's points less the other's, clipped to +-SOLVE_MARGIN_MAX), so a
 * win is above SOLVE_MARGIN_MAX and a loss below -SOLVE_MARGIN_MAX.  Three
 * or four players: the player's share of first place (ai_shares: AI_SHARES
 * won, alone or with a partner; tied with k - 1 other teams,
 * AI_SHARES / k; else 0) times SOLVE_RESULT plus the margin over the best
 * other team (ai_players); solo: the final score, within +-SOLVE_INF. */
#define SOLVE_RESULT 1000
#define SOLVE_MARGIN_MAX 499
#define SOLVE_INF 30000

/* The result (1 win, 0 draw, -1 loss) of a two-player value. */
static inline int solve_result(int v)
{
	return v > SOLVE_MARGIN_MAX ? 1 : v < -SOLVE_MARGIN_MAX ? -1 : 0;
}

/* The lowest two-player value of v's result class: a win by the least, a
 * draw's worst margin, a loss by the most. */
static inline int solve_class_lo(int v)
{
	int r = solve_result(v);
	return r > 0    ? SOLVE_MARGIN_MAX + 1
	       : r == 0 ? -SOLVE_MARGIN_MAX
			: -SOLVE_RESULT - SOLVE_MARGIN_MAX;
}

/* The share of first place (ai_shares: 0 to AI_SHARES) in a value of
 * three or four players: the solver's value is the share times
 * SOLVE_RESULT plus a margin within +-SOLVE_MARGIN_MAX. */
static inline int solve_share(int v)
{
	return (v + SOLVE_MARGIN_MAX + 1) / SOLVE_RESULT;
}

enum solve_want {
	SOLVE_WDL,    /* two players: each move's result (win, draw, loss) */
	SOLVE_MARGIN, /* and the best value exactly, margin included: every
		       * move's value exact or shown to be below the best */
};

/* One call of the solver: what it may spend and what it reports. */
struct solve_job {
	enum solve_want want; /* more than two players: always exact */
	double deadline_ms;   /* an ai_now_ms() time; 0: no clock */
	long node_limit;      /* nodes it may search; 0: no limit */
	int (*stop)(void *);  /* asked every AI_POLL_MS; may be NULL */
	void *ctx;
	/* NULL, or a score for each root move (a tree's visits): the solver
	 * tries the higher ones first */
	const double *order;
	/* helpers for a root split: up to `crews` threads more search root
	 * moves, each with scratch of its own from crew (none asked about
	 * stop; the table is c's, and the node limit each thread's) */
	int crews;
	struct solve_scratch *const *crew;
	long nodes; /* out: the nodes searched */
};

/* Solves the n moves list[] of the GAME_PLAY state st: writes what it
 * proved of each move's value into out[i] (the mover's value after the
 * move) and returns 1 when every move is settled as job->want asks.  When
 * the budget runs out, or the game rolls dice or has moves it cannot list,
 * it returns 0; the moves settled before that keep their bounds (a partly
 * solved position can still steer a search).  Results stay in the table
 * between calls, within solve_set_memory, so a call that ran out of budget
 * makes the next one cheaper. */
int solve_moves(struct solve_ctx *c, const struct game *g, const void *st,
		const struct move *list, int n, struct solve_job *job,
		struct solve_bound *out);

/* search_solve with the budget, the input to watch and the helpers of
 * job (whose want it sets to SOLVE_WDL); job->nodes gets the nodes
 * searched. */
int solve_values(struct solve_ctx *c, const struct game *g, const void *st,
		 const struct move *list, int n, struct solve_job *job,
		 int *value, struct solve_bound *bounds);

/* The value of the GAME_PLAY state st for its mover, as solve_moves: a
 * search below one node of a tree.  Returns 1 when settled as asked. */
int solve_position(struct solve_ctx *c, const struct game *g, const void *st,
		   struct solve_job *job, struct solve_bound *out);

#endif
