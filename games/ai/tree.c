/* tree.c: the search tree's nodes and their memory (tree.h).  The nodes
 * live in one pool of a fixed size (the tree's part of `set hash`), 32
 * bytes each, a node's children side by side in one block taken when the
 * node first needs them.  A move is one word in its node; moves that need
 * more words (checkertoe's exchange, long Take It Away chains) keep the
 * others in a second block of the same size right after the children.
 * When the pool is full the search goes on: the pool is compacted, keeping
 * the subtrees that have had visits and dropping the rest (their roots
 * become leaves again), and leaves need more visits before they grow.
 * Compaction moves no node: new blocks go to the holes the dropped ones
 * left, so that it can stop between any two steps (a `stop` does not wait
 * for it).  What a node's children settle (its proof, its minimax value)
 * is read here too. */
#include "tree.h"

#include <stdlib.h>
#include <string.h>

#include "../util/bits.h"
#include "timeman.h"

/* Nodes the budget holds: 32 bytes each, plus three bits for
 * compaction. */
static uint32_t capacity(size_t bytes)
{
	double per = sizeof(struct node) + 3.0 / 8;
	double n = (double)bytes / per;
	if (n > (double)(UINT32_MAX - 64))
		n = (double)(UINT32_MAX - 64);
	return n < 256 ? 256 : (uint32_t)n;
}

/* Frees the pool and its tables. */
static void pool_free(struct tree *t)
{
	free(t->pool);
	free(t->mark);
	free(t->ext);
	free(t->cut);
	t->pool = NULL;
	t->mark = t->ext = t->cut = NULL;
	t->used = 0;
}

/* The pool at the size allowed (a smaller one when the system refuses
 * that much).  The system commits its pages only as they are written, so a
 * small tree costs little of a large budget. */
static int pool_ready(struct tree *t)
{
	if (t->pool)
		return 1;
	for (uint32_t cap = capacity(t->bytes); cap >= 256; cap /= 2) {
		size_t words = (size_t)cap / 64 + 1;
		t->pool = malloc(sizeof *t->pool * cap);
		t->mark = malloc(sizeof *t->mark * words);
		t->ext = malloc(sizeof *t->ext * words);
		t->cut = malloc(sizeof *t->cut * words);
		if (t->pool && t->mark && t->ext && t->cut) {
			t->cap = cap;
			t->used = 0;
			return 1;
		}
		pool_free(t);
	}
	return 0;
}

/* The first node at or after `from` (and before `to`) whose bit in b is
 * `set`, or `to`. */
static uint32_t bit_find(const uint64_t *b, uint32_t from, uint32_t to, int set)
{
	uint64_t flip = set ? 0 : ~0ULL;
	uint32_t w = from >> 6;
	uint64_t bits = (b[w] ^ flip) & (~0ULL << (from & 63));
	while (!bits) {
		if (++w >= (to + 63) >> 6)
			return to;
		bits = b[w] ^ flip;
	}
	uint32_t i = (w << 6) + (uint32_t)bit_first(bits);
	return i < to ? i : to;
}

/* Makes [next, end) the next run of at least n free nodes: a hole of the
 * last compaction's (unmarked below `holes`, searched from `scan`), else
 * the nodes above all those handed out.  Returns 0 when none is left. */
static int next_run(struct tree *t, uint32_t n)
{
	while (t->scan < t->holes) {
		uint32_t a = bit_find(t->mark, t->scan, t->holes, 0);
		uint32_t b = bit_find(t->mark, a, t->holes, 1);
		t->scan = b;
		if (b - a >= n) {
			t->next = a, t->end = b;
			return 1;
		}
	}
	t->next = t->top, t->end = t->cap;
	return t->cap - t->top >= n;
}

uint32_t pool_take(struct tree *t, uint32_t n, uint32_t most, uint32_t *got)
{
	/* threads that share the tree take chunks of it (expand.c, node_alloc)
	 */
	if (t->shared)
		pthread_mutex_lock(&t->lock);
	uint32_t first = 0, k = 0;
	if (t->end - t->next >= n || next_run(t, n)) {
		first = t->next;
		k = t->end - first < most ? t->end - first : most;
		t->next += k;
		__atomic_store_n(&t->used, t->used + k, __ATOMIC_RELAXED);
		if (t->next > t->top)
			t->top = t->next;
		if (t->used > t->peak)
			t->peak = t->used;
	} else {
		__atomic_store_n(&t->full, 1, __ATOMIC_RELAXED);
	}
	if (t->shared)
		pthread_mutex_unlock(&t->lock);
	if (got)
		*got = k;
	if (k)
		memset(node_at(t, first), 0, sizeof(struct node) * k);
	return first;
}

/* n fresh nodes side by side; returns the first, or 0 when they do not fit
 * (the tree is then full until compacted).  Node 0 is never handed out
 * here: it is the root of a new tree, and a child 0 stands for none. */
uint32_t pool_alloc(struct tree *t, uint32_t n)
{
	return pool_take(t, n, n, NULL);
}

/* An empty tree: the root alone, standing for nothing yet. */
int tree_clear(struct tree *t)
{
	t->used = t->top = 0;
	t->next = t->end = t->scan = t->holes = 0;
	t->full = 0;
	t->kept = 0;
	t->expand_at = 2;
	t->seen = 0;
	t->lo = t->hi = t->r1 = t->r2 = t->rn = 0;
	t->explore = UCT_C;
	t->plies = 0;
	t->peak = 0;
	if (!pool_ready(t))
		return -1;
	t->root = 0;
	t->chosen = NO_NODE;
	t->used = t->top = 1;
	memset(node_at(t, 0), 0, sizeof(struct node));
	node_at(t, 0)->who = NOBODY;
	return 0;
}

struct tree *tree_new(size_t bytes)
{
	struct tree *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->bytes = bytes;
	if (pthread_mutex_init(&t->lock, NULL) != 0) {
		free(t);
		return NULL;
	}
	return t;
}

void tree_free(struct tree *t)
{
	if (!t)
		return;
	pool_free(t);
	free(t->state);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

void tree_reset(struct tree *t, size_t bytes)
{
	pool_free(t);
	free(t->state);
	t->state = NULL;
	t->state_cap = 0;
	t->kept = 0;
	t->bytes = bytes;
}

uint32_t tree_capacity(const struct tree *t)
{
	return t->cap ? t->cap : capacity(t->bytes);
}

static void bits_set(uint64_t *b, uint32_t from, uint32_t n)
{
	while (n) {
		uint32_t o = from & 63, k = 64 - o < n ? 64 - o : n;
		uint64_t m = k == 64 ? ~0ULL : ((1ULL << k) - 1) << o;
		b[from >> 6] |= m;
		from += k;
		n -= k;
	}
}

/* The nodes of nd's child block: the children, and their other move
 * words when there are any. */
static uint32_t block_len(const struct node *nd)
{
	return (uint32_t)nd->nchild << (nd->flags & F_WIDE ? 1 : 0);
}

/* The work between two questions to a compaction's stop: a node visited
 * or a word of bits read counts one.  Blocks that lie apart in the pool
 * take up to 100 ns a node to walk, so that this is under a millisecond. */
#define STOP_WORK 8192

/* A marking of the pool (mark_live), and its questions to stop. */
struct marking {
	struct tree *t;
	uint32_t keep;  /* real visits a node needs to keep its block */
	uint64_t *hist; /* or NULL: the nodes of the blocks kept, by visits */
	uint32_t live;  /* the nodes marked */
	const struct pool_stop *stop;
	uint32_t work; /* since the last question */
};

/* Counts `work`, and asks stop (when there is one) each STOP_WORK: 1 when
 * it says to give up. */
static int give_up(struct marking *k, uint32_t work)
{
	if ((k->work += work) < STOP_WORK)
		return 0;
	k->work = 0;
	return k->stop && k->stop->fn(k->stop->ctx);
}

/* mark_live's step at the marked node i: counts it and, when it has at
 * least `keep` real visits (or is the root), marks its block (and counts
 * it in hist); otherwise, when it has children, marks i in t->cut.
 * Returns 1 when i keeps children.  It changes no node, so that a
 * compaction stopped while marking leaves the tree as it was. */
static int mark_node(struct marking *k, uint32_t i)
{
	struct tree *t = k->t;
	const struct node *nd = node_at(t, i);
	k->live++;
	if (!nd->nchild)
		return 0;
	uint32_t real = nd->visits - prior_of(t, nd);
	if (real < k->keep && i != t->root) {
		bits_set(t->cut, i, 1);
		return 0;
	}
	uint32_t len = block_len(nd);
	if (k->hist) {
		int b = 0;
		while (b < 31 && (real >> (b + 1)))
			b++;
		k->hist[b] += len;
	}
	bits_set(t->mark, nd->child, len);
	if (nd->flags & F_WIDE) {
		bits_set(t->ext, nd->child + nd->nchild, nd->nchild);
		k->live += nd->nchild;
	}
	return 1;
}

/* mark_live's walk of the nodes below `below` (which its pass upwards
 * has left behind) in the child block of `parent`, and of theirs there,
 * depth first.  Nodes at `below` and above are left to the pass.
 * Returns 0 when stop said to give up, else 1. */
static int mark_behind(struct marking *k, uint32_t parent, uint32_t below)
{
	struct {
		uint32_t parent, k;
	} path[MAX_PATH];
	int top = 0;
	path[0].parent = parent, path[0].k = 0;
	while (top >= 0) {
		const struct node *nd = node_at(k->t, path[top].parent);
		if (path[top].k >= nd->nchild) {
			top--;
			continue;
		}
		if (give_up(k, 1))
			return 0;
		uint32_t j = nd->child + path[top].k++;
		if (j < below && mark_node(k, j) &&
		    node_at(k->t, j)->child < below && top + 1 < MAX_PATH) {
			top++;
			path[top].parent = j, path[top].k = 0;
		}
	}
	return 1;
}

/* Marks what is reachable from the root, leaving out the children of
 * nodes with fewer than `keep` real visits (marked in t->cut: cut_marked
 * makes them leaves again).  With `hist`, counts per power of two of real
 * visits the nodes of the blocks below.  Returns the nodes marked, or
 * UINT32_MAX when stop (asked first, then every STOP_WORK) said to give
 * up.  One pass upwards from the root's word sees every block that lies
 * after its parent, which is where blocks go while the pool has never been
 * compacted; after that they fill the holes, and threads that share a tree
 * take theirs from chunks of their own (expand.c, node_alloc), so a block may
 * lie below its parent (or the root), and mark_behind walks those.  (The
 * tree is no deeper than an iteration's path, MAX_PATH.) */
static BITS_HOT uint32_t mark_live(struct tree *t, uint32_t keep,
				   uint64_t *hist, const struct pool_stop *stop)
{
	struct marking k = {t, keep, hist, 0, stop, STOP_WORK};
	uint32_t words = (t->top + 63) >> 6;
	/* the bits of a large pool take a while to clear (50 MB of them
	 * for a 4 GB hash) */
	for (uint32_t w = 0; w < words; w += STOP_WORK) {
		uint32_t n = words - w < STOP_WORK ? words - w : STOP_WORK;
		if (give_up(&k, n / 16))
			return UINT32_MAX;
		memset(t->mark + w, 0, sizeof *t->mark * n);
		memset(t->ext + w, 0, sizeof *t->ext * n);
		memset(t->cut + w, 0, sizeof *t->cut * n);
	}
	bits_set(t->mark, t->root, 1);
	for (uint32_t w = t->root >> 6; w < words; w++) {
		if (give_up(&k, 1 + (uint32_t)bit_count(t->mark[w])))
			return UINT32_MAX;
		uint64_t done = 0, bits;
		while ((bits = t->mark[w] & ~t->ext[w] & ~done)) {
			int b = bit_first(bits);
			done |= 1ULL << b;
			uint32_t i = (w << 6) + (uint32_t)b;
			if (mark_node(&k, i) && node_at(t, i)->child < w << 6 &&
			    !mark_behind(&k, i, w << 6))
				return UINT32_MAX;
		}
	}
	return k.live;
}

/* Makes the nodes marked in t->cut leaves again, their blocks left to
 * the holes.  Each cut leaves a whole tree behind, so that stop (asked
 * every STOP_WORK) may end it anywhere: returns 0 then, else 1. */
static BITS_HOT int cut_marked(struct tree *t, const struct pool_stop *stop)
{
	struct marking k = {.t = t, .stop = stop};
	uint32_t words = (t->top + 63) >> 6;
	for (uint32_t w = 0; w < words; w++) {
		uint64_t bits = t->cut[w];
		if (give_up(&k, 1 + (uint32_t)bit_count(bits)))
			return 0;
		for (; bits; bits &= bits - 1) {
			struct node *nd = node_at(
				t, (w << 6) + (uint32_t)bit_first(bits));
			nd->child = 0;
			nd->nchild = nd->tried = 0;
			nd->flags &= (uint8_t) ~(KIND | F_WIDE | F_SAMPLED |
						 F_MIXED);
		}
	}
	return 1;
}

/* Makes room in a full pool: drops what is no longer reachable (what lay
 * outside the subtree of a new root) and, when that is not enough, the
 * subtrees with the fewest visits, keeping at most half of the pool; then
 * leaves need twice the visits before they grow, so the pool fills up more
 * slowly each time (and half as many again when most of it was an old
 * tree's rest).  The nodes kept stay where they are: what was dropped
 * becomes the holes that pool_take hands out next.  Takes time in
 * proportion to the nodes in use (10 to 20 ms for a full 64 MB pool on an
 * idle machine, most of it the marking).  stop (or NULL) is asked
 * throughout: when it says to give up while marking, no node has changed;
 * later, some of the subtrees to drop may be gone already.  Either way the
 * pool is no emptier (still full) and pool_compact returns 0.  Returns 1
 * when it compacted. */
int pool_compact(struct tree *t, const struct pool_stop *stop)
{
	double t0 = ai_now_ms();
	uint32_t top = t->top;
	uint64_t hist[32] = {0};
	/* the marks are the map of the holes: no more holes from them */
	t->holes = t->scan;
	uint32_t live = mark_live(t, 0, hist, stop), kept = live;
	if (live == UINT32_MAX)
		return 0;
	int crowded = live > t->cap / 2;
	if (crowded) {
		/* the least visit count that keeps below half of the pool */
		uint64_t below = 1;
		int k = 31;
		while (k > 0 && below + hist[k] <= t->cap / 2)
			below += hist[k--];
		if ((kept = mark_live(t, 2u << k, NULL, stop)) == UINT32_MAX ||
		    !cut_marked(t, stop))
			return 0;
	}
	if (live < t->cap / 4 && t->expand_at > 2)
		t->expand_at /= 2; /* mostly garbage: an old tree's rest */
	if (crowded && t->expand_at < (1u << 20))
		t->expand_at *= 2;
	t->used = kept;
	t->next = t->end = 0;
	t->scan = 1; /* node 0 is never handed out */
	t->holes = top;
	t->full = 0;
	t->collections++;
	t->compact_ms = (ai_now_ms() - t0) / (live + top / 64 + 1);
	return 1;
}

/* What compacting the pool would take, keeping `live` nodes: twice the
 * last compaction's pace, to be safe (10 ns a node before the first). */
double pool_compact_cost(const struct tree *t, double live)
{
	double per = t->compact_ms > 0 ? t->compact_ms : 1e-5;
	return 2 * per * (live + t->top / 64);
}

/* ---- what a node's children settle ---- */

/* Proves nd from its children when they settle it: a decision when a move
 * wins for its mover or every move is proven (the best of them), a chance
 * event when every outcome is proven alike.  Returns 1 when nd is proven. */
int try_prove(const struct tree *t, struct node *nd)
{
	if (proof_of(nd))
		return 1;
	if (!nd->nchild)
		return 0;
	const struct node *c = node_at(t, child_of(nd));
	if (kind(nd) == CHANCE) {
		for (int i = 0; i < nd->nchild; i++)
			if (!proof_of(&c[i]) ||
			    proof_of(&c[i]) != proof_of(&c[0]))
				return 0;
		set_proof(nd, proof_of(&c[0]));
		return 1;
	}
	int best = -2, all = !(flags_of(nd) & F_SAMPLED);
	uint8_t proof = UNPROVEN;
	for (int i = 0; i < nd->nchild; i++) {
		if (!proof_of(&c[i])) {
			all = 0;
			continue;
		}
		int r = result_for(proof_of(&c[i]), c[i].who);
		if (r > best)
			best = r, proof = proof_of(&c[i]);
		if (r > 0)
			break;
	}
	if (best > 0 || all)
		set_proof(nd, proof);
	return proof_of(nd) != UNPROVEN;
}

/* nd's minimax value (im_code) from its children's: the best of them for
 * the player who moves at nd (a proven child's, its result), as nd's mover
 * sees it; 0 when none has one.  Read atomically, as threads that share the
 * tree write them. */
uint16_t im_of_children(const struct tree *t, const struct node *nd)
{
	if (kind(nd) != DECIDE || nd->who == NOBODY)
		return 0;
	const struct node *c =
		node_at(t, __atomic_load_n(&nd->child, __ATOMIC_RELAXED));
	uint16_t best = 0;
	int who = 0;
	for (int i = 0; i < nd->nchild; i++) {
		int p = proof_of(&c[i]);
		uint16_t v = p ? im_code(0.5 * (1 + result_for(p, c[i].who)))
			       : __atomic_load_n(&c[i].im, __ATOMIC_RELAXED);
		if (v > best)
			best = v, who = c[i].who;
	}
	return !best || who == nd->who ? best : (uint16_t)(IM_CODE_SUM - best);
}

/* The nodes below n whose minimax value is not their children's, and (in
 * *seen) those whose children have values. */
static long im_faults_below(const struct tree *t, uint32_t n, long *seen)
{
	const struct node *nd = node_at(t, n);
	if (kind(nd) != DECIDE)
		return 0;
	long faults = 0;
	for (uint32_t i = 0; i < nd->nchild; i++) {
		const struct node *c = node_at(t, nd->child + i);
		uint16_t v = im_of_children(t, c);
		faults += v && v != c->im;
		*seen += v != 0;
		faults += im_faults_below(t, nd->child + i, seen);
	}
	return faults;
}

long tree_im_faults(const struct tree *t, long *seen)
{
	*seen = 0;
	return t->im && t->pool ? im_faults_below(t, t->root, seen) : 0;
}

/* The index of the root's child for move mv, or -1. */
int tree_root_index(const struct tree *t, const struct move *mv)
{
	const struct node *root = node_at(t, t->root);
	for (int k = 0; k < root->nchild; k++) {
		struct move c;
		child_move(t, root, (uint32_t)k, &c);
		if (move_equal(&c, mv))
			return k;
	}
	return -1;
}
