/* tree.h: the search tree (tree.c): its nodes, their memory (one pool,
 * compacted when full) and the tree's life, and what a node says: its
 * kind, its statistics, its proof.  Threads that share the tree read and
 * change a node through the accessors here. */
#ifndef TREE_H
#define TREE_H

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "../game.h"

#define UCT_C 0.7 /* exploration, for rewards spread like coin tosses */
/* Tree plies followed in one iteration: no tree is deeper (tree.c walks
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
	uint8_t virt : 1;       /* its visits include the prior (the tree's) */
	uint8_t flags;          /* kind, F_WIDE, F_SAMPLED, F_BANNED, proof */
	uint16_t im; /* a search with minimax values (struct worker, im): see
		      * im_code */
};
_Static_assert(sizeof(struct node) == 32, "a node is 32 bytes");

/* Implicit minimax (Lanctot, Winands, Pepels and Sturtevant, 2014): where
 * a game of two players without dice has an evaluate() and asks for this
 * (struct game_search, minimax_eval), each node also keeps the minimax of the
 * evaluations below it, for `who`: a leaf the game's judgement after its
 * move (or its proven result), a node with children the best of theirs
 * for the player who moves there.  UCT weighs it beside the mean of the
 * playouts (IM_WEIGHT in iterate.c).  It is stored in 16 bits: 0 none,
 * else 1 + the value times IM_SCALE. */
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

/* The tree a player keeps between searches: the nodes in one pool of a
 * fixed size (the tree's part of `set hash`), the position its root stands
 * for, and the statistics of the rewards its searches have seen. */
struct tree {
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
	unsigned long peak; /* the most nodes in use at once since cleared */
	long collections;   /* compactions since the count was reset */
	int im; /* its nodes keep minimax values (struct worker, im) */
	/* the visits a prior counts for (struct game_search, prior_visits) */
	uint32_t prior_visits;
	/* what the root stands for, when the tree is kept between searches */
	const struct game *g;
	unsigned char *state;
	size_t state_cap;
	int kept;
	/* reward statistics, kept with the tree */
	int seen;       /* solo: lo and hi hold scores seen */
	double lo, hi;  /* solo: lowest and highest score seen */
	double r1, r2;  /* sum and sum of squares of the rewards seen */
	double rn;      /* how many */
	double explore; /* the exploration constant, scaled to the rewards */
	double plies;   /* with a clock: random games' length from the root */
	int plies_age;  /* searches since it was measured */
	pthread_mutex_t lock; /* the pool and the statistics, while shared */
	int shared;           /* helper threads search it now (team.c) */
};

/* A tree with room for `bytes` of nodes (allocated when first needed), or
 * NULL when out of memory. */
struct tree *tree_new(size_t bytes);
void tree_free(struct tree *t);
/* Drops the tree and gives its memory back; the budget becomes `bytes`. */
void tree_reset(struct tree *t, size_t bytes);
/* The nodes the budget holds. */
uint32_t tree_capacity(const struct tree *t);

static inline struct node *node_at(const struct tree *t, uint32_t i)
{
	return &t->pool[i];
}

/* The visits of nd that are the game's evaluate(), not playouts. */
static inline uint32_t prior_of(const struct tree *t, const struct node *nd)
{
	return nd->virt ? t->prior_visits : 0;
}

/* A node's flags are read and changed through these: threads that share
 * a tree (team.c) prove and grow nodes others are reading.  On the
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
 * to claim a leaf's by compare-and-swap (see expand.c). */
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
static inline void child_move(const struct tree *t, const struct node *nd,
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

/* Plays child i of nd on st: its move, or its chance outcome. */
static inline void node_step(const struct tree *t, const struct game *g,
			     const struct node *nd, uint32_t i, void *st)
{
	if (kind(nd) == CHANCE) {
		g->roll(st, (int)(int64_t)node_at(t, child_of(nd) + i)->mv);
		return;
	}
	struct move mv;
	child_move(t, nd, i, &mv);
	g->play(st, &mv);
}

/* The mean reward q of a node for its mover, in [0, 1]: as it is, or in
 * the solo game (np 1) scaled by the lowest and highest scores seen. */
static inline double tree_mean(const struct tree *t, int np, double q)
{
	if (np != 1)
		return q;
	double lo, hi; /* (helpers may be adding theirs: fold_rewards) */
	__atomic_load(&t->lo, &lo, __ATOMIC_RELAXED);
	__atomic_load(&t->hi, &hi, __ATOMIC_RELAXED);
	return hi > lo ? (q - lo) / (hi - lo) : 0.5;
}

/* Proves nd from its children when they settle it (two players).  Returns
 * 1 when nd is proven. */
int try_prove(const struct tree *t, struct node *nd);

/* nd's minimax value (im_code) from its children's: the best of them for
 * the player who moves at nd (a proven child's, its result), as nd's mover
 * sees it; 0 when none has one. */
uint16_t im_of_children(const struct tree *t, const struct node *nd);

/* For tests: the nodes below the root whose minimax value is not the one
 * their children give, after a search with one thread; *seen gets the
 * nodes whose children have such values (0 where the search keeps
 * none). */
long tree_im_faults(const struct tree *t, long *seen);

/* The index of the root's child for move mv, or -1. */
int tree_root_index(const struct tree *t, const struct move *mv);

/* ---- the pool ---- */

/* n fresh nodes side by side; returns the first, or 0 when they do not
 * fit (the tree is then full until compacted). */
uint32_t pool_alloc(struct tree *t, uint32_t n);
/* At least n and at most `most` fresh nodes side by side, as many as the
 * free run at hand holds; returns the first and sets *got (when not NULL)
 * to how many, or returns 0.  Safe from threads that share the tree. */
uint32_t pool_take(struct tree *t, uint32_t n, uint32_t most, uint32_t *got);
/* An empty tree: the root alone.  Returns 0, or -1 when out of memory. */
int tree_clear(struct tree *t);
/* What may stop a compaction: fn(ctx) returns 1 to give up. */
struct pool_stop {
	int (*fn)(void *ctx);
	void *ctx;
};
/* Makes room in a full pool (see tree.c); returns 1, or 0 when stop (or
 * NULL) gave up, the pool as it was. */
int pool_compact(struct tree *t, const struct pool_stop *stop);
/* What compacting the pool would take, keeping `live` nodes, in ms. */
double pool_compact_cost(const struct tree *t, double live);

#endif
