/* mcts.h: the tree search's insides, shared by its files: the node pool
 * (pool.c), the tree search (mcts.c), its bridge to the exact solver
 * (mcts_solve.c) and its reports (mcts_report.c).  Nothing else includes
 * it. */
#ifndef MCTS_H
#define MCTS_H

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "playout.h"
#include "reward.h"
#include "search.h"

#define UCT_C 0.7 /* exploration, for rewards spread like coin tosses */
/* Tree plies followed in one iteration: no tree is deeper (pool.c walks
 * it with a path this long). */
#define MAX_PATH 512

/* A node's kind and flags. */
enum { LEAF, DECIDE, CHANCE, END };
#define KIND 3
#define F_WIDE 4 /* the children's other move words follow their block */
#define F_SAMPLED                                                              \
	8             /* the children are a sample: moves that cannot be       \
		       * listed */
#define F_BANNED 16   /* a root move the exact solver showed to be worse */
#define PROOF_SHIFT 5 /* two bits: the proof (see UNPROVEN) */
#define PROOF (3 << PROOF_SHIFT)
#define F_MIXED 128 /* some child is proven or set aside (UCT's slow path) */
#define NOBODY 7    /* `who` of a chance outcome */

/* proof: 0 unknown, else 2 + the result for player 1 (two players only):
 * 1 player 2 wins, 2 draw, 3 player 1 wins. */
#define UNPROVEN 0

struct node {
	uint64_t mv; /* the move's first word, or a chance outcome */
	float q;     /* the mean reward of `who` over the visits; a chance
		      * outcome: its odds */
	float rs;    /* 1 / sqrt(visits), for UCT's exploration term */
	uint32_t visits;
	uint32_t child;         /* the first child; 0: none */
	uint16_t nchild, tried; /* children; first visits given so far */
	uint8_t who : 3;        /* the player (from 0) who made mv, or NOBODY */
	uint8_t virt : 1;       /* its visits include the prior (mcts_tree's) */
	uint8_t skip : 2; /* visits still to follow `last` without a scan */
	uint8_t flags;    /* kind, F_WIDE, F_SAMPLED, F_BANNED, proof */
	union {
		uint16_t last; /* the child UCT's last scan chose */
		uint16_t im;   /* a search with minimax values (struct mcts,
				* im): see im_code */
	};
};
_Static_assert(sizeof(struct node) == 32, "a node is 32 bytes");

/* Implicit minimax (Lanctot, Winands, Pepels and Sturtevant, 2014): where
 * a game of two players without dice has an evaluate() and asks for this
 * (struct game_search, minimax_eval), each node also keeps the minimax of the
 * evaluations below it, for `who`: a leaf the game's judgement after its
 * move (or its proven result), a node with children the best of theirs
 * for the player who moves there.  UCT weighs it beside the mean of the
 * playouts (IM_WEIGHT in mcts.c).  It is stored in 16 bits, in the place
 * of `last`, whose lazy scans such a search remembers in a table of its
 * own (struct mcts, lazy): 0 none, else 1 + the value times IM_SCALE. */
#define IM_SCALE 65534.0f
static inline uint16_t im_code(double v)
{
	float f = v < 0 ? 0 : v > 1 ? 1 : (float)v;
	return (uint16_t)(1.5f + f * IM_SCALE);
}
/* v's code and (1 - v)'s add up to this */
#define IM_CODE_SUM 65536
static inline float im_value(uint16_t code)
{
	return (float)(code - 1) / IM_SCALE;
}

/* No node: node 0 is not always the root (see pool_compact), so no index
 * stands for none. */
#define NO_NODE UINT32_MAX

struct mcts_tree {
	size_t bytes;       /* the budget of this tree */
	struct node *pool;  /* cap nodes, allocated when first needed */
	uint64_t *mark;     /* compaction: the nodes kept, a bit each */
	uint64_t *ext;      /* compaction: which of them are move words */
	uint64_t *cut;      /* compaction: the nodes to make leaves again */
	uint32_t cap, used; /* nodes: room, in use */
	/* pool_take's: what it hands out next, [next, end); the holes of the
	 * last compaction lie below `holes`, unmarked, from `scan` on; all
	 * nodes from `top` on are free */
	uint32_t next, end, scan, holes, top;
	uint32_t root;
	uint32_t chosen;    /* the root's child the last search chose, or
			     * NO_NODE */
	int full;           /* a block did not fit: compact before growing */
	uint32_t expand_at; /* real visits before a leaf grows */
	double compact_ms;  /* the last compaction's time per node kept (and
			     * per 64 in use) */
	/* How late clock-bound searches ended past their deadlines lately
	 * (milliseconds, a moving average).  On a busy machine the process
	 * waits for the processor in slices of the scheduler's tick (4 ms
	 * here; 4 to 36 ms seen inside single playouts with ten processes on
	 * two cores), so a search ends late however often it reads the
	 * clock; the plans end that much earlier instead.  Kept when the tree
	 * is dropped: it is the machine's, not the game's. */
	double late;
	int im; /* its nodes keep minimax values (struct mcts, im) */
	/* the visits a prior counts for (struct game_search, prior_visits) */
	uint32_t prior_visits;
	/* what the root stands for, when the tree is kept between searches */
	const struct game *g;
	unsigned char *state;
	size_t state_cap;
	int kept;
	/* reward statistics, kept with the tree */
	double lo, hi;  /* solo: lowest and highest score seen */
	double r1, r2;  /* sum and sum of squares of the rewards seen */
	double rn;      /* how many */
	double explore; /* the exploration constant, scaled to the rewards */
	double plies;   /* with a clock: random games' length from the root */
	int plies_age;  /* searches since it was measured */
	struct mcts_info info;
	/* set threads: the helpers that search this tree beside its own
	 * search (mcts_team.c); none with one thread */
	struct helper *crew;
	int ncrew;
	struct solve_scratch **crew_solver; /* their solver scratch, for
					     * the solver's root split */
	pthread_mutex_t lock; /* its reward statistics, while shared */
	int shared;           /* helpers search it now */
	atomic_int halt;      /* the main search tells its helpers to stop */
	atomic_long tickets;  /* a playout budget: the playouts begun by all */
};

/* A lazy scan's memory (mcts.c, LAZY_FROM) where the nodes keep minimax
 * values in the place of their own: the node (its index), the child its
 * last scan chose, and the visits left before the next scan. */
#define IM_LAZY 256
struct im_lazy {
	uint32_t at;
	uint16_t last;
	uint16_t skip;
};

/* One search over the tree. */
struct mcts {
	struct mcts_tree *t;
	struct mcts_scratch *sc;  /* this thread's scratch space */
	struct solve_ctx *solver; /* the player's (the main search's) */
	const struct game *g;
	const struct ai_search *how;
	struct rng *r;
	int np;               /* players */
	struct ai_players pl; /* and their teams */
	int im;               /* the nodes keep minimax values (node's im) */
	/* then the lazy scans of the busiest nodes, by index, one node a
	 * slot; emptied when the pool is compacted */
	struct im_lazy lazy[IM_LAZY];
	size_t ss;
	unsigned char *st;  /* the iteration's scratch state */
	unsigned char *st2; /* another, for looking one move ahead */
	unsigned char *cls; /* max_moves bytes: what each move does at once */
	double *prior;      /* max_moves: evaluate() after each move */
	int have_prior;     /* decisive() filled prior[] */
	struct move *list;  /* max_moves scratch */
	int new_proof;      /* the last expansion proved its node */
	int moved;          /* plies from the kept root to this one; -1: a
			     * new tree */
	struct tm_watch clock; /* its phase's end, the engine's stop */
	int aborted;           /* the clock cut an iteration short */
	int grown;         /* the pool is full and stays so for this search */
	int ignore_proofs; /* the root is proven lost: search on as if
			    * nothing were proven, for the best chances
			    * against an opponent who may err */
	double tidy_until; /* timed: when compacting at the start must end */
	long iters;
	/* on a shared tree: reward statistics not yet added to the tree's,
	 * and the visits of busy nodes held back (see iterate_shared) */
	double lo, hi, r1, r2, rn;
	struct pending *pending;
	uint32_t chunk_next, chunk_end; /* its nodes not given out yet */
	/* the team (mcts_team.c): all 0 with one thread */
	pthread_mutex_t *lock; /* the tree is shared (see iterate_shared) */
	atomic_long *tickets;  /* a playout budget shared by the team */
	int team;              /* helpers set up for this search */
	int spent;             /* the shared budget ran out */
	int for_room;          /* the last mcts_run left to have the pool
				* compacted with the team stopped */
};

/* Visits to one node held back by a thread of a shared tree. */
struct pending {
	uint32_t node;
	uint32_t visits;
	uint32_t batch; /* visits to hold before adding them to the node */
	float sum;      /* of their rewards for the node's mover */
	uint16_t last;  /* the child this thread's last scan chose */
	uint8_t skip;   /* visits still to follow it without a scan */
	uint8_t who;    /* the node's mover (a copy: see hold_visit) */
};

/* One helper of a search (mcts_team.c): a thread with its own scratch
 * space (its context), random stream and search, on the main tree. */
struct helper {
	struct mcts_scratch scratch;
	struct solve_scratch solver; /* for the solver's root split */
	struct mcts m;
	struct ai_search how; /* the main search's, without its hooks */
	struct rng r;
	pthread_t thread;
	double until;     /* the phase it runs: the main search's deadline */
	long until_iters; /* and its playout budget */
	int ready;        /* set up for this search */
	int running;      /* its thread runs */
};

/* What the exact solver found about the root moves. */
struct solved {
	int done; /* the solver finished */
	int best; /* the best value */
	int n;    /* moves in list */
	struct move *list;
	int *value; /* per move of list, the mover's value */
	/* per move of list, what the solver proved of its value, also when
	 * it ran out of budget */
	struct solve_bound *bound;
	long nodes;
};

static inline struct node *node_at(const struct mcts_tree *t, uint32_t i)
{
	return &t->pool[i];
}

/* The visits of nd that are the game's evaluate(), not playouts. */
static inline uint32_t prior_of(const struct mcts_tree *t,
				const struct node *nd)
{
	return nd->virt ? t->prior_visits : 0;
}

/* A node's flags are read and changed through these: threads that share
 * a tree (mcts_team.c) prove and grow nodes others are reading.  On the
 * machines we build for an acquiring load is a plain one; a change is a
 * compare-and-swap, and releases what was written before it (a new node's
 * children are published by the change of its kind). */
static inline uint8_t flags_of(const struct node *nd)
{
	return __atomic_load_n(&nd->flags, __ATOMIC_ACQUIRE);
}

static inline void flags_change(struct node *nd, uint8_t clear, uint8_t set)
{
	uint8_t f = __atomic_load_n(&nd->flags, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&nd->flags, &f,
					    (uint8_t)((f & ~clear) | set), 1,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		;
}

/* A float and a count of a node that threads sharing the tree change,
 * read and written whole (relaxed atomics: plain moves on the machines
 * we build for). */
static inline float ld_f(const float *x)
{
	float v;
	__atomic_load(x, &v, __ATOMIC_RELAXED);
	return v;
}

static inline void st_f(float *x, float v)
{
	__atomic_store(x, &v, __ATOMIC_RELAXED);
}

static inline uint32_t ld_u(const uint32_t *x)
{
	return __atomic_load_n(x, __ATOMIC_RELAXED);
}

/* A node's first child, read atomically: threads that share a tree try
 * to claim a leaf's by compare-and-swap (see expand in mcts.c). */
static inline uint32_t child_of(const struct node *nd)
{
	return __atomic_load_n(&nd->child, __ATOMIC_RELAXED);
}

static inline int kind(const struct node *nd)
{
	return flags_of(nd) & KIND;
}

static inline void set_kind(struct node *nd, int k)
{
	flags_change(nd, KIND, (uint8_t)k);
}

/* The move of child i of nd (a decision). */
static inline void child_move(const struct mcts_tree *t, const struct node *nd,
			      uint32_t i, struct move *mv)
{
	*mv = (struct move){{node_at(t, child_of(nd) + i)->mv}};
	if (flags_of(nd) & F_WIDE)
		memcpy(&mv->w[1], node_at(t, child_of(nd) + nd->nchild + i),
		       sizeof mv->w - sizeof mv->w[0]);
}

static inline int proof_of(const struct node *nd)
{
	return (flags_of(nd) & PROOF) >> PROOF_SHIFT;
}

static inline void set_proof(struct node *nd, int p)
{
	flags_change(nd, PROOF, (uint8_t)(p << PROOF_SHIFT));
}

/* The proven result of proof p for player `who` (from 0): -1, 0 or 1. */
static inline int result_for(int p, int who)
{
	return who == 0 ? p - 2 : 2 - p;
}

/* The proof that gives player `who` the result r (-1, 0, 1). */
static inline uint8_t proof_for(int r, int who)
{
	return (uint8_t)(who == 0 ? 2 + r : 2 - r);
}

/* The proof of a finished state (two players). */
static inline uint8_t proof_of_end(struct game_status s)
{
	return (uint8_t)(s.player == 1 ? 3 : s.player == 2 ? 1 : 2);
}

/* Whether child c is proven lost for the player who would pick it. */
static inline int lost(const struct node *c)
{
	return proof_of(c) && result_for(proof_of(c), c->who) < 0;
}

/* ---- the node pool (pool.c) ---- */

/* n fresh nodes side by side; returns the first, or 0 when they do not
 * fit (the tree is then full until compacted). */
uint32_t pool_alloc(struct mcts_tree *t, uint32_t n);
/* At least n and at most `most` fresh nodes side by side, as many as the
 * free run at hand holds; returns the first and sets *got (when not NULL)
 * to how many, or returns 0.  Safe from threads that share the tree. */
uint32_t pool_take(struct mcts_tree *t, uint32_t n, uint32_t most,
		   uint32_t *got);
/* An empty tree: the root alone.  Returns 0, or -1 when out of memory. */
int pool_clear(struct mcts_tree *t);
/* What may stop a compaction: fn(ctx) returns 1 to give up. */
struct pool_stop {
	int (*fn)(void *ctx);
	void *ctx;
};
/* Makes room in a full pool (see pool.c); returns 1, or 0 when stop (or
 * NULL) gave up, the pool as it was. */
int pool_compact(struct mcts_tree *t, const struct pool_stop *stop);
/* What compacting the pool would take, keeping `live` nodes, in ms. */
double pool_compact_cost(const struct mcts_tree *t, double live);

/* ---- the tree search (mcts.c) ---- */

/* Sets up a search of st on t (see mcts.c).  Returns 0, or -1 when there
 * is no room. */
int mcts_start(struct mcts *m, struct mcts_tree *t, const struct mcts_kit *kit,
	       const struct game *g, const void *st,
	       const struct ai_search *how, struct rng *r, double give_up,
	       double tidy_until);
/* Gives the root its children when it has none yet.  Returns 0, or -1. */
int mcts_root_ready(struct mcts *m);
/* Gives m, about to search a shared tree, its room for held back visits
 * (from its scratch space).  Returns 0, or -1 when out of memory. */
int pending_ready(struct mcts *m);
/* Sets up m, with the scratch space sc, to search lead's tree beside it
 * (a helper thread of lead's team).  Returns 0, or -1 when out of
 * memory. */
int mcts_follow(struct mcts *m, const struct mcts *lead,
		struct mcts_scratch *sc, const struct ai_search *how,
		struct rng *r);
/* Runs iterations until until_ms (when timed), until_iters (the team's
 * playouts when it shares a budget), or a stop. */
void mcts_run(struct mcts *m, double until_ms, long until_iters);
/* Compacts a full pool when the time left allows (see mcts.c). */
void make_room(struct mcts *m);

/* Proves nd from its children when they settle it.  Returns 1 when nd is
 * proven. */
int try_prove(const struct mcts_tree *t, struct node *nd);

/* ---- the team of threads (mcts_team.c) ---- */

/* Gives t n - 1 helpers.  Returns 0, or -1 when out of memory (t is then
 * left with none). */
int team_resize(struct mcts_tree *t, int n);
void team_free(struct mcts_tree *t);
/* Sets the helpers up to search m's tree beside m (after m's root is
 * ready). */
void team_start(struct mcts *m);
/* mcts_run on every thread of the team at once. */
void team_run(struct mcts *m, double until_ms, long until_iters);
/* The same in two halves, for a search that runs in steps (ponder): the
 * helpers run until team_join. */
void team_launch(struct mcts *m, double until_ms, long until_iters);
void team_join(struct mcts *m);
/* Tells the team to stop and returns at once, leaving the tree shared:
 * the engine's stop is answered from the tree as the helpers leave it,
 * with no wait for a helper the system has taken the processor from (up
 * to several milliseconds on a machine with no core to spare).  While
 * they finish, what the choice reads of the tree is read atomically, as
 * a helper would read it; anything more waits for them (team_settle),
 * which every entry to the tree from outside does first. */
void team_release(struct mcts *m);
/* Waits for helpers a team_release left running. */
void team_settle(struct mcts_tree *t);
/* The playouts of the whole team in this search. */
long team_iters(const struct mcts *m);

/* ---- the bridge to the solver (mcts_solve.c) ---- */

/* An empty record with room for g's moves.  Returns 0, or -1 when out of
 * memory. */
int solved_init(struct solved *sv, struct mcts_scratch *sc,
		const struct game *g);
/* The index of the root's child for move mv, or -1. */
int root_index(const struct mcts_tree *t, const struct move *mv);
/* The solver's value of the root move mv, when it has one. */
const int *solved_value(const struct solved *sv, const struct move *mv);
/* Gives the exact solver the root until `until` or `limit` nodes (see
 * mcts_solve.c).  Returns 1 when it finished. */
int try_solve(struct mcts *m, double until, double margins_until, long limit,
	      struct solved *sv);

/* ---- reports (mcts_report.c) ---- */

/* The search line on the log: the move, the effort, and what it expects. */
void report_search(struct mcts *m, uint32_t chosen, const struct solved *sv,
		   const char *why, const struct tm_plan *plan, FILE *log,
		   double start_ms);
/* analyze's line: the root moves, best first (protocol.md, "analyze"). */
void report_info(struct mcts *m, const struct solved *sv, struct text *out);

#endif
