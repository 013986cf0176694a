/* search.h: the computer player's insides, shared by ai.c (the entry
 * point and levels 0 and 1), the tree search (mcts.c with pool.c,
 * mcts_solve.c and mcts_report.c, which share mcts.h), solve.c (the exact
 * solver), book.c, timeman.c (time management) and support.c (what they
 * all use).  Nothing outside games/ai/ includes it but the tests and
 * benchmarks of the search.
 *
 * The calls go one way: ai.c -> mcts.c -> solve.c, and each of them ->
 * support.c and timeman.c; none calls back into ai.c. */
#ifndef SEARCH_H
#define SEARCH_H

#include <stdio.h>

#include "ai.h"
#include "solve_table.h"
#include "timeman.h"

/* Scratch buffers, one per slot, kept by each thread of a player (struct
 * ai_ctx): a search allocates nothing per move once they are big enough
 * (the clock would have to cover large mallocs and frees). */
enum ai_slot {
	AI_LIST,          /* mcts.c: max_moves moves */
	AI_SOLVE_LIST,    /* mcts.c: the solver's root moves */
	AI_VALUES,        /* mcts.c: the solver's values */
	AI_BOUNDS,        /* mcts.c: what the solver proved of each */
	AI_CLASS,         /* mcts.c: one byte a move */
	AI_PRIOR,         /* mcts.c: one double a move */
	AI_STATES,        /* mcts.c: scratch states */
	AI_REROOT,        /* mcts.c: states on the way to a new root */
	AI_MARGIN_LIST,   /* mcts.c: the moves whose margins are solved */
	AI_MARGIN_BOUNDS, /* mcts.c: their values */
	AI_MARGIN_INDEX,  /* mcts.c: where they stand in the solver's list */
	AI_MARGIN_ORDER,  /* mcts.c: the tree's visits of them */
	AI_SOLVER_STATES, /* solve.c: one state a ply */
	AI_SOLVER_MOVES,  /* solve.c: the stack of move lists */
	AI_SOLVER_HIST,   /* solve.c: history counts */
	AI_SOLVER_ROOT,   /* solve.c: the root's order */
	AI_SOLVER_BOUNDS, /* solve.c: search_solve's bounds */
	AI_BOOK,          /* book.c: a move list and a state */
	AI_SIMPLE,        /* ai.c: levels 0 to 8 (a move list) */
	AI_PENDING,       /* mcts.c: a shared tree's updates held back */
	AI_SLOTS
};

/* The opening book's positions, filed per game when first probed
 * (book.c). */
struct book_cache;

/* What a search touches besides its tree: scratch space, the solver's
 * table and the book's positions.  Every thread of a player has its own,
 * so that two players (or two threads) never share writable state; the
 * solver and the book are used through the first thread's. */
struct ai_ctx {
	void *buf[AI_SLOTS];
	size_t cap[AI_SLOTS];
	struct solve_table solver;
	struct book_cache *book;
};

/* An empty context (its table at the default size), or NULL when out of
 * memory. */
struct ai_ctx *ai_ctx_new(void);
void ai_ctx_free(struct ai_ctx *c);

/* At least `bytes` bytes of c's slot (contents undefined), or NULL when out
 * of memory. */
void *ai_scratch(struct ai_ctx *c, enum ai_slot slot, size_t bytes);

/* A random legal move of the player to move: the game's random_move when it
 * has one, else a uniform pick from moves() (list: max_moves scratch).
 * Returns 0, or -1 when there is none. */
int ai_random_move(const struct game *g, const void *st, struct rng *r,
		   struct move *list, struct move *mv);

/* The players of a set-up and the team each wins with: partners share a
 * win (Abs-Trac-Toe's teams, where status() names the team's
 * lowest-numbered player); a player outside a team is a team of its own. */
struct ai_players {
	int n;                      /* players() */
	int team[GAME_MAX_PLAYERS]; /* player p + 1's: 1 to n */
};
void ai_players_of(const struct game *g, const void *st,
		   struct ai_players *out);
/* The most points among the players outside player p + 1's team (pts:
 * score()'s); INT_MIN when there are none. */
int ai_best_other(const struct ai_players *pl, const int *pts, int p);
/* Each player's share of first place, in AI_SHARES-ths, into share: all of
 * it to a winner and its partner, else split evenly among the teams tied
 * at the top (as the tournament runner counts it: a third each when
 * three tie), nothing to the others.  The rewards and the exact solver
 * both count results so. */
#define AI_SHARES 12 /* divides evenly among 1 to 4 teams */
void ai_shares(const struct ai_players *pl, const int *pts,
	       struct game_status s, int *share);

/* The reward of a proven result (-1 loss, 0 draw, 1 win) whose margin is
 * not known: what ai_reward gives for that result with a margin of 0. */
double ai_result_reward(int result);

/* What each player gets from the finished (or stuck) state st, into rew
 * (players() values).  With two or more players: the share of first
 * place (ai_shares: 1 win, the winner's partner's too, 0 loss, a draw's
 * 1 shared among the teams tied at the top), blended with a small term
 * for the margin over the best other team, so that bigger wins (and
 * smaller losses) are preferred; the result always dominates.  Solo: the
 * score itself, raw. */
void ai_reward(const struct game *g, const void *st,
	       const struct ai_players *pl, double *rew);
/* The same, for a state whose status s is known already. */
void ai_reward_at(const struct game *g, const void *st, struct game_status s,
		  const struct ai_players *pl, double *rew);
/* The same, from the points score() would give and the status. */
void ai_reward_points(const int *pts, struct game_status s,
		      const struct ai_players *pl, double *rew);

/* The MCTS player's tree (mcts.c), kept by struct ai between searches:
 * its nodes live in one pool sized by the memory budget.  It owns the
 * context (struct ai_ctx) its searches use. */
struct mcts_tree;

/* A tree with room for `bytes` of nodes (allocated when first needed), or
 * NULL when out of memory. */
struct mcts_tree *mcts_tree_new(size_t bytes);
void mcts_tree_free(struct mcts_tree *t);
/* The tree's context: its scratch space, the solver's table, the book. */
struct ai_ctx *mcts_tree_ctx(struct mcts_tree *t);
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
int mcts_choose(struct mcts_tree *t, const struct game *g, const void *st,
		const struct ai_search *how, const struct ai_time *time,
		struct move *out);

/* ai_analyze's search (see ai.h). */
int mcts_analyze(struct mcts_tree *t, const struct game *g, const void *st,
		 const struct ai_search *how, double interval);

/* ai_ponder's search: grows the tree of st until how->stop says so. */
int mcts_ponder(struct mcts_tree *t, const struct game *g, const void *st,
		const struct ai_search *how);

/* What the solver knows of one value: it lies in [lo, hi]; lo == hi when
 * it is exact, -SOLVE_INF and SOLVE_INF when nothing is known. */
struct solve_bound {
	int lo, hi;
};

/* How often a search asks its stop hook (the engine's input): a stop is
 * answered within about this much (bench: "a stop while genmove thinks"),
 * and the poll() behind it costs about 0.1% of the search (bench_ai poll). */
#define AI_POLL_MS 0.5

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
int search_solve(struct ai_ctx *c, const struct game *g, const void *st,
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
	/* helpers for a root split: up to `crew` threads more search root
	 * moves, each with a context of its own from crew_ctx (none asked
	 * about stop; the table is c's, and the node limit each thread's) */
	int crew;
	struct ai_ctx *const *crew_ctx;
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
int solve_moves(struct ai_ctx *c, const struct game *g, const void *st,
		const struct move *list, int n, struct solve_job *job,
		struct solve_bound *out);

/* search_solve with the budget, the input to watch and the helpers of
 * job (whose want it sets to SOLVE_WDL); job->nodes gets the nodes
 * searched. */
int solve_values(struct ai_ctx *c, const struct game *g, const void *st,
		 const struct move *list, int n, struct solve_job *job,
		 int *value, struct solve_bound *bounds);

/* The value of the GAME_PLAY state st for its mover, as solve_moves: a
 * search below one node of a tree.  Returns 1 when settled as asked. */
int solve_position(struct ai_ctx *c, const struct game *g, const void *st,
		   struct solve_job *job, struct solve_bound *out);

/* The memory c's solver table may take (a share of the player's hash);
 * the table is emptied. */
void solve_set_memory(struct ai_ctx *c, size_t bytes);

/* Empties the solver's table and gives its memory back (a new game). */
void solve_forget(struct ai_ctx *c);

/* The bytes the solver's table holds now (0 before the first search). */
size_t solve_memory(const struct ai_ctx *c);

/* Empties the solver's table and keeps its memory: what a search that must
 * not depend on earlier ones (a fixed playout budget) calls first. */
void solve_clear(struct ai_ctx *c);

/* The opening book (book.c): the move the book gives for st, with its
 * value for the mover (as search_solve's), when st is in the book.
 * Returns 1 when it is, 0 when not. */
int book_probe(struct ai_ctx *c, const struct game *g, const void *st,
	       struct move *mv, int *value);

/* The same, with the exact value (solve_moves's scale: the margin too),
 * for a search that carries proven values into its tree. */
int book_find(struct ai_ctx *c, const struct game *g, const void *st,
	      struct move *mv, int *value);

/* Gives back the memory of c's book positions. */
void book_free(struct ai_ctx *c);

#endif
