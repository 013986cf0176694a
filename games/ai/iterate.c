/* iterate.c: one iteration of the tree search, and a phase of them on one
 * thread (iterate.h).
 *
 * UCT over a tree of three kinds of node: decisions (a player picks a
 * move), chance events (a die: the outcomes are visited in proportion to
 * their odds, so the search never counts on a roll it has not seen) and
 * finished states.  Every node keeps the reward of the player who moved
 * into it, and each player picks what is best for itself (max-n), which
 * covers 1 to 4 players.  Rewards come from ai_reward: result first, then a
 * small margin term; a solo game's raw score is scaled to [0, 1] by the
 * lowest and highest scores seen so far.  An iteration goes down the tree
 * by the tree policy (select_child), grows the leaf it reaches (expand.c),
 * plays it out (playout.c) and backs the rewards up.
 *
 * Where the game asks for it (minimax_eval), each node also keeps the
 * minimax of the evaluations below it, which UCT weighs beside the
 * playouts' mean (implicit minimax: im_code in tree.h).  The exploration
 * constant follows the spread of the rewards seen (see explore_for), and a
 * busy node scans its children at one visit in four (see LAZY_FROM).  (No
 * RAVE: it measured weaker in Tiptoe 8x8; docs/strength.md, "Tried and
 * left out".)
 *
 * Proven results (two players): a finished state is proven, and so is a
 * decision with a move that wins for its mover, or whose moves are all
 * proven, and a chance event whose outcomes are all proven alike
 * (MCTS-solver).  The search never descends into a proven node: it takes
 * its exact result instead of a playout, and never picks a move proven
 * lost while another is left.
 *
 * Nothing is allocated while searching, and playouts run on one scratch
 * state. */
#include "iterate.h"

#include <string.h>

#include "../util/bits.h"
#include "../util/numbers.h"
#include "expand.h"
#include "playout.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* The weight of a child's minimax value (see im_code in tree.h) in UCT's
 * mean, where the search keeps one: docs/strength.md, "Implicit
 * minimax". */
#define IM_WEIGHT 0.15f
/* A leaf grows after expand_at visits, and one more for every WIDE_STEP
 * moves of its parent: in a wide game (676 moves on Tiptoe 26x26) most
 * leaves are visited a few times only, and giving each of them hundreds
 * of children at its second visit filled the 48 MB pool within a few
 * moves at movetime 50. */
#define WIDE_STEP 32
/* And one more for every 2^GROWTH_SHIFT nodes in use: a big tree is a deep
 * one, and each level down costs a scan of the children and a cache miss
 * or two.  Measured on checkertoe (processor time, medians of 2): from
 * 0.1 s to 5 s the iterations per second fell to 79% without this, 82%
 * with it; at movetime 50 the trees stay below 2^17 nodes. */
#define GROWTH_SHIFT 17
/* A node with LAZY_FROM visits or more follows the child its last scan
 * chose for LAZY_SKIP more visits before it scans again (each thread
 * remembers its scans in a table of its own: struct worker, lazy).  At a
 * node that busy, four visits in a row to one child move the shares of
 * its visits by about one percent, and the scan of every child at every
 * level was most of what made an iteration of a big tree (a deep one)
 * dear: on checkertoe the iterations a second at 5 s were 81% of those at
 * 0.1 s with a scan at every visit, and 98% with this.  At equal playouts
 * no game played measurably weaker (docs/benchmarks.md). */
#define LAZY_FROM 256
#define LAZY_SKIP 3
/* The exploration constant follows the spread of the rewards (explore_for)
 * and is worked out again each time EXPLORE_EVERY more have been seen:
 * each thread sums that many of its own before adding them to the tree's
 * (under the tree's lock when it is shared: fold_rewards).  Folding every
 * 64 cost two threads on Abs-Trac-Toe 2% of their speed
 * (docs/benchmarks.md, "Threads"). */
#define EXPLORE_EVERY 256
_Static_assert((EXPLORE_EVERY & (EXPLORE_EVERY - 1)) == 0, "a power of 2");
/* On a shared tree, a node with BUSY visits or more gets its visits from
 * a thread in batches of up to 1 / 2^BATCH_SHIFT of them, held back
 * meanwhile in PENDING slots (worker.h; see "one iteration" below), and
 * is busy for the lazy scans (LAZY_FROM) from there on. */
#define BUSY 64
#define BATCH_SHIFT 5

/* Takes one of the team's playouts (a shared budget): 1 when there was
 * one left below `limit`. */
static int take_ticket(atomic_long *tickets, long limit)
{
	long v = atomic_load_explicit(tickets, memory_order_relaxed);
	while (v < limit)
		if (atomic_compare_exchange_weak_explicit(tickets, &v, v + 1,
							  memory_order_relaxed,
							  memory_order_relaxed))
			return 1;
	return 0;
}

/* ---- proofs and minimax values (two players) ---- */

/* After path[depth] was proven: proves what it settles above it. */
static void prove_up(const struct tree *t, const uint32_t *path, int depth)
{
	for (int d = depth - 1; d >= 0; d--) {
		struct node *nd = node_at(t, path[d]);
		flags_change(nd, 0, F_MIXED);
		if (!try_prove(t, nd))
			break;
	}
}

/* Sets nd's minimax value from its children's; returns whether it changed.
 * (A value another thread changes below meanwhile counts at the next
 * pass.) */
static int im_update(struct worker *m, struct node *nd)
{
	uint16_t v = im_of_children(m->t, nd);
	if (!v || v == __atomic_load_n(&nd->im, __ATOMIC_RELAXED))
		return 0;
	__atomic_store_n(&nd->im, v, __ATOMIC_RELAXED);
	return 1;
}

/* After an iteration down path[0..depth]: the minimax values from the
 * bottom up, as far as they change (the last node may be a leaf, its
 * parent may have just grown its children).  Not the root's, which no
 * choice reads: every thread passes the root, and a write there would
 * move its cache line from core to core (see BUSY). */
static void im_back(struct worker *m, const uint32_t *path, int depth)
{
	for (int i = depth; i >= 1; i--)
		if (!im_update(m, node_at(m->t, path[i])) && i < depth)
			break;
}

/* ---- one iteration ----
 *
 * One path for one thread and for many, written once and built twice
 * (iterate: the functions below take `shared` as a constant, and are
 * inlined), so that a thread alone pays nothing for the others.  On a
 * tree shared with other
 * threads (team.c) the fields others change (a node's visits, q, rs,
 * tried, child and flags; the pool's use; the reward statistics) are read
 * and written atomically (relaxed: plain moves on the machines we build
 * for), a leaf is grown by the thread that claims it (expand.c), and each
 * visit counts at once as a loss, until its playout's result replaces it,
 * so that the threads spread over the tree (a virtual loss).  A mean can
 * lose a result when two threads update it at the same moment; it is a
 * mean of many.  A thread alone counts each visit as its result comes
 * back.
 *
 * A busy node (BUSY visits or more) of a shared tree, which every thread
 * passes at almost every iteration, gets no virtual loss (one visit more
 * would not change the choice there): each thread holds its visits to it
 * back in a slot of its own and adds them in batches of up to
 * 1 / 2^BATCH_SHIFT of the node's visits (hold_visit).  Each write to a
 * node shared by two cores moves its cache line from one to the other;
 * with the visits at the busy top of the tree added one by one, two
 * threads on checkertoe ran slower than one (docs/benchmarks.md,
 * "Threads"). */

/* A child's mean reward for UCT: its playouts' mean q, and its minimax
 * value (code im, 0: none) beside it. */
static inline float im_mean(float q, uint16_t im)
{
	return im ? q + IM_WEIGHT * (im_value(im) - q) : q;
}

/* Inlined wherever it is called: the iteration's functions, each built
 * for a thread alone and for a shared tree. */
#define INLINE static inline __attribute__((always_inline))

/* A child's mean, exploration term and minimax value, read atomically on a
 * shared tree.  A thread alone reads them plainly: an atomic float goes
 * through an integer register, two instructions more a child in UCT's
 * scan, where a plain load folds into the arithmetic. */
INLINE float ld_q(const struct node *nd, int shared)
{
	return shared ? ld_f(&nd->q) : nd->q;
}

INLINE float ld_rs(const struct node *nd, int shared)
{
	return shared ? ld_f(&nd->rs) : nd->rs;
}

INLINE uint16_t ld_im(const struct node *nd, int shared)
{
	return shared ? __atomic_load_n(&nd->im, __ATOMIC_RELAXED) : nd->im;
}

/* The tree's doubles that a shared tree's threads change (its range of
 * solo scores, its exploration constant), read likewise. */
INLINE double ld_d(const double *x, int shared)
{
	double v = *x;
	if (shared)
		__atomic_load(x, &v, __ATOMIC_RELAXED);
	return v;
}

INLINE int uct_scan(const struct node *c, int n, float a, float k, int im,
		    int shared)
{
	float best = -1e30f;
	int bi = -1, i = 0;
#ifdef __SSE2__
	if (n >= 8 && !shared) {
		__m128 aa = _mm_set1_ps(a), kk = _mm_set1_ps(k);
		__m128 top = _mm_set1_ps(best);
		__m128i at = _mm_setr_epi32(0, 1, 2, 3),
			four = _mm_set1_epi32(4);
		__m128i top_at = _mm_set1_epi32(-1);
		for (; i + 4 <= n; i += 4) {
			/* (q, rs) of each child: 8 bytes, side by side */
			__m128i lo = _mm_unpacklo_epi64(
				_mm_loadl_epi64((const __m128i *)&c[i].q),
				_mm_loadl_epi64((const __m128i *)&c[i + 1].q));
			__m128i hi = _mm_unpacklo_epi64(
				_mm_loadl_epi64((const __m128i *)&c[i + 2].q),
				_mm_loadl_epi64((const __m128i *)&c[i + 3].q));
			__m128 q = _mm_shuffle_ps(_mm_castsi128_ps(lo),
						  _mm_castsi128_ps(hi),
						  _MM_SHUFFLE(2, 0, 2, 0));
			__m128 rs = _mm_shuffle_ps(_mm_castsi128_ps(lo),
						   _mm_castsi128_ps(hi),
						   _MM_SHUFFLE(3, 1, 3, 1));
			if (im) { /* im_mean, where the code is not 0 */
				__m128i code = _mm_setr_epi32(
					c[i].im, c[i + 1].im, c[i + 2].im,
					c[i + 3].im);
				__m128 v = _mm_div_ps(
					_mm_cvtepi32_ps(_mm_sub_epi32(
						code, _mm_set1_epi32(1))),
					_mm_set1_ps(IM_SCALE));
				__m128 mq = _mm_add_ps(
					q, _mm_mul_ps(_mm_set1_ps(IM_WEIGHT),
						      _mm_sub_ps(v, q)));
				__m128 none = _mm_castsi128_ps(_mm_cmpeq_epi32(
					code, _mm_setzero_si128()));
				q = _mm_or_ps(_mm_and_ps(none, q),
					      _mm_andnot_ps(none, mq));
			}
			__m128 u = _mm_add_ps(_mm_mul_ps(aa, q),
					      _mm_mul_ps(kk, rs));
			__m128i more = _mm_castps_si128(_mm_cmpgt_ps(u, top));
			top = _mm_max_ps(u, top);
			top_at = _mm_or_si128(_mm_and_si128(more, at),
					      _mm_andnot_si128(more, top_at));
			at = _mm_add_epi32(at, four);
		}
		/* the best of the lanes, then the first child among the
		 * lanes that hold it (each lane saw two children at least) */
		__m128 m = _mm_max_ps(top, _mm_shuffle_ps(top, top, 0x4e));
		m = _mm_max_ps(m, _mm_shuffle_ps(m, m, 0xb1));
		int w[4], lanes = _mm_movemask_ps(_mm_cmpeq_ps(top, m));
		_mm_storeu_si128((__m128i *)w, top_at);
		best = _mm_cvtss_f32(m);
		bi = n;
		for (; lanes; lanes &= lanes - 1)
			if (w[bit_first((uint64_t)lanes)] < bi)
				bi = w[bit_first((uint64_t)lanes)];
	}
#endif
	float best2 = -1e30f;
	int bi2 = -1;
	for (; i + 1 < n; i += 2) {
		float qu = ld_q(&c[i], shared), qv = ld_q(&c[i + 1], shared);
		if (im) {
			qu = im_mean(qu, ld_im(&c[i], shared));
			qv = im_mean(qv, ld_im(&c[i + 1], shared));
		}
		float u = a * qu + k * ld_rs(&c[i], shared);
		float v = a * qv + k * ld_rs(&c[i + 1], shared);
		if (u > best)
			best = u, bi = i;
		if (v > best2)
			best2 = v, bi2 = i + 1;
	}
	if (i < n) {
		float q = ld_q(&c[i], shared);
		if (im)
			q = im_mean(q, ld_im(&c[i], shared));
		float rs = ld_rs(&c[i], shared);
		if (a * q + k * rs > best)
			best = a * q + k * rs, bi = i;
	}
	if (best2 > best || (best2 == best && bi2 < bi))
		bi = bi2;
	return bi < 0 ? 0 : bi; /* (only NaNs: any child will do) */
}

/* select_child's scans: without minimax values, and where the search
 * keeps them (im_mean). */

/* The first visits of nd's children, in the order they were shuffled in
 * when nd grew (expand.c): the next child not tried yet that is neither
 * set aside nor (unless proofs are ignored) proven lost, or -1 when all
 * have been tried.  Threads that share the tree take their turns by
 * compare-and-swap. */
INLINE int first_visit(struct worker *m, struct node *nd, const struct node *c,
		       int shared)
{
	int n = nd->nchild;
	uint16_t i = __atomic_load_n(&nd->tried, __ATOMIC_RELAXED);
	while (i < n) {
		if (!shared)
			nd->tried = (uint16_t)(i + 1);
		else if (!__atomic_compare_exchange_n(
				 &nd->tried, &i, (uint16_t)(i + 1), 1,
				 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			continue; /* (another thread took it: i is theirs) */
		if (!(flags_of(&c[i]) & F_BANNED) &&
		    (m->ignore_proofs || !lost(&c[i])))
			return i;
		i = __atomic_load_n(&nd->tried, __ATOMIC_RELAXED);
	}
	return -1;
}

/* UCT at a node where some child is proven or set aside (F_MIXED): never
 * a move proven lost or set aside while there is another, a proven draw
 * or win its exact value with no bonus for exploring. */
INLINE int uct_mixed(const struct worker *m, const struct node *c, int n,
		     float a, float k, int shared)
{
	float best = -1e30f;
	int bi = -1;
	for (int i = 0; i < n; i++) {
		const struct node *ci = &c[i];
		uint8_t f = flags_of(ci);
		float u;
		if (f & (PROOF | F_BANNED)) {
			if (f & F_BANNED)
				continue;
			if (m->ignore_proofs) {
				u = a * ld_q(ci, shared) +
				    k * ld_rs(ci, shared);
			} else {
				int r = result_for(proof_of(ci), ci->who);
				if (r < 0)
					continue;
				u = 0.5f * (float)(r + 1);
			}
		} else {
			u = a * im_mean(ld_q(ci, shared),
					m->im ? ld_im(ci, shared) : 0) +
			    k * ld_rs(ci, shared);
		}
		if (u > best)
			best = u, bi = i;
	}
	return bi < 0 ? 0 : bi; /* (only NaNs: any child will do) */
}

/* The lazy memory of node `at` (n children) when it is busy (LAZY_FROM
 * visits, BUSY on a shared tree) with nothing proven or set aside below
 * it, else NULL; *follow gets the child to follow when the memory still
 * holds one for it. */
INLINE struct lazy *lazy_of(struct worker *m, uint32_t at,
			    const struct node *nd, uint32_t visits, int n,
			    int shared, int *follow)
{
	*follow = -1;
	if (visits < (shared ? BUSY : LAZY_FROM) || (flags_of(nd) & F_MIXED))
		return NULL;
	struct lazy *z = &m->lazy[at & (LAZY_SLOTS - 1)];
	if (z->at == at && z->skip && z->last < n) {
		z->skip--;
		*follow = z->last;
	}
	return z;
}

/* The child of nd (node `at`) to follow: the tree policy.  A chance
 * outcome by its odds (the one furthest behind its share of the visits);
 * a move first by the order of first visits, then by UCT: the mean
 * (scaled to [0, 1] in the solo game: only the scale matters to the
 * choice) plus the exploration bonus.  A busy node, a move's or a die's,
 * follows the child its last choice took for LAZY_SKIP more visits
 * (lazy_of; at a chance node of Take-Back-Toe the six faces weighed at
 * every visit were a twelfth of a thread's time). */
INLINE uint32_t select_child(struct worker *m, uint32_t at, struct node *nd,
			     int shared)
{
	struct tree *t = m->t;
	uint32_t first = child_of(nd);
	struct node *c = node_at(t, first);
	int n = nd->nchild, follow;
	uint32_t visits = ld_u(&nd->visits);
	struct lazy *z;
	if (kind(nd) == CHANCE) {
		z = lazy_of(m, at, nd, visits, n, shared, &follow);
		if (follow >= 0)
			return first + (uint32_t)follow;
		/* the outcome furthest behind its share of the visits */
		double n1 = (double)visits + 1, best = -1e300;
		int bi = 0;
		for (int i = 0; i < n; i++) {
			double d = c[i].q * n1 - ld_u(&c[i].visits);
			if (d > best)
				best = d, bi = i;
		}
		if (z)
			*z = (struct lazy){at, (uint16_t)bi, LAZY_SKIP};
		return first + (uint32_t)bi;
	}
	if (__atomic_load_n(&nd->tried, __ATOMIC_RELAXED) < n) {
		int i = first_visit(m, nd, c, shared);
		if (i >= 0)
			return first + (uint32_t)i;
	}
	z = lazy_of(m, at, nd, visits, n, shared, &follow);
	if (follow >= 0)
		return first + (uint32_t)follow;
	float a = 1;
	if (m->np == 1) {
		double lo = ld_d(&t->lo, shared), hi = ld_d(&t->hi, shared);
		a = hi > lo ? (float)(1 / (hi - lo)) : 1;
	}
	float k = (float)(ld_d(&t->explore, shared) * num_sqrtlog(visits + 1));
	if (flags_of(nd) & F_MIXED)
		return first + (uint32_t)uct_mixed(m, c, n, a, k, shared);
	/* the common case: nothing set aside */
	int b = m->im ? uct_scan(c, n, a, k, 1, shared)
		      : uct_scan(c, n, a, k, 0, shared);
	if (z)
		*z = (struct lazy){at, (uint16_t)b, LAZY_SKIP};
	return first + (uint32_t)b;
}

/* The rewards of an iteration that stopped at leaf, depth plies below the
 * root, with its state in m->st: a finished game's, a proven result's
 * (*exact is then set: no playout's noise in it), or a playout's.
 * Returns 0, or -1 when the clock cut the playout short. */
static int leaf_rewards(struct worker *m, const struct node *leaf, int depth,
			double *rew, int *exact)
{
	if (kind(leaf) == END) {
		ai_reward(m->g, m->st, &m->pl, rew);
	} else if (depth > 0 && proof_of(leaf) && !m->ignore_proofs) {
		rew[0] = ai_result_reward(result_for(proof_of(leaf), 0));
		rew[1] = ai_result_reward(result_for(proof_of(leaf), 1));
		*exact = 1;
	} else {
		return playout(m, m->st, rew);
	}
	return 0;
}

/* ---- how a visit counts ---- */

/* A visit that counts as a loss for now (a virtual loss). */
static void visit_shared(struct node *nd)
{
	uint32_t n = __atomic_add_fetch(&nd->visits, 1, __ATOMIC_RELAXED);
	if (nd->who != NOBODY)
		st_f(&nd->q, ld_f(&nd->q) * (float)(n - 1) / (float)n);
	st_f(&nd->rs, (float)num_rsqrt_n(n));
}

/* Replaces the loss of visit_shared by the rewards rew, or (rew NULL)
 * takes the visit back. */
static void settle_shared(struct node *nd, const double *rew)
{
	if (!rew) {
		uint32_t n =
			__atomic_sub_fetch(&nd->visits, 1, __ATOMIC_RELAXED);
		if (nd->who != NOBODY)
			st_f(&nd->q,
			     n ? ld_f(&nd->q) * (float)(n + 1) / (float)n : 0);
		st_f(&nd->rs, n ? (float)num_rsqrt_n(n) : 0);
	} else if (nd->who != NOBODY) {
		st_f(&nd->q, ld_f(&nd->q) + (float)rew[nd->who] /
						    (float)ld_u(&nd->visits));
	}
}

/* A busy node's visits are added to it a batch at a time: up to
 * 1 / 2^BATCH_SHIFT of them. */
static void flush_one(struct worker *m, struct pending *p)
{
	if (!p->visits)
		return;
	struct node *nd = node_at(m->t, p->node);
	uint32_t n =
		__atomic_add_fetch(&nd->visits, p->visits, __ATOMIC_RELAXED);
	if (p->who != NOBODY) {
		float q = ld_f(&nd->q);
		st_f(&nd->q, q + (p->sum - (float)p->visits * q) / (float)n);
	}
	st_f(&nd->rs, (float)num_rsqrt_n(n));
	p->visits = 0;
	p->sum = 0;
	p->batch = n >> BATCH_SHIFT;
}

/* This thread's slot of pending visits for the busy node at, taken from
 * the node it held before (whose visits are added to it first). */
static struct pending *slot(struct worker *m, uint32_t at)
{
	struct pending *p =
		&m->pending[(at * 0x9e3779b1u) >> (32 - PENDING_BITS)];
	if (p->node != at) {
		flush_one(m, p);
		const struct node *nd = node_at(m->t, at);
		*p = (struct pending){.node = at,
				      .batch = ld_u(&nd->visits) >> BATCH_SHIFT,
				      .who = nd->who};
	}
	return p;
}

/* Adds every visit held back to the tree, and forgets the nodes (the
 * pool may be compacted before the next phase). */
static void flush_pending(struct worker *m)
{
	for (int i = 0; m->pending && i < PENDING; i++) {
		flush_one(m, &m->pending[i]);
		m->pending[i] = (struct pending){.node = UINT32_MAX};
	}
}

/* Holds back a visit with rewards rew to the busy node at.  It reads
 * nothing of the node: the other threads keep writing its cache line,
 * and a read there would wait for it (Abs-Trac-Toe's iterations are short
 * enough for that to be the threads' main cost). */
static void hold_visit(struct worker *m, uint32_t at, const double *rew)
{
	struct pending *p = slot(m, at);
	p->visits++;
	p->sum += p->who != NOBODY ? (float)rew[p->who] : 0;
	if (p->visits >= p->batch)
		flush_one(m, p);
}

/* An iteration on a shared tree enters node `at`: a visit that counts as
 * a loss for now, or, at a busy node, one held back (returns 1). */
static int enter(struct worker *m, uint32_t at)
{
	if (ld_u(&node_at(m->t, at)->visits) >= BUSY)
		return 1;
	visit_shared(node_at(m->t, at));
	return 0;
}

/* The rewards rew of an iteration on a shared tree reach node `at` (held:
 * its visit was held back), or, with rew NULL (the clock cut the playout
 * short), its visit is taken back. */
static void leave(struct worker *m, uint32_t at, int held, const double *rew)
{
	if (held) {
		if (rew)
			hold_visit(m, at, rew);
	} else {
		settle_shared(node_at(m->t, at), rew);
	}
}

/* The rewards rew of an iteration of a thread alone reach node nd: a
 * visit, and its mean for its mover. */
static void count(struct node *nd, const double *rew)
{
	nd->visits++;
	if (nd->who != NOBODY)
		nd->q += (float)(rew[nd->who] - nd->q) / nd->visits;
	nd->rs = (float)num_rsqrt_n(nd->visits);
}

/* ---- the rewards seen ---- */

/* UCT's exploration term assumes rewards spread over [0, 1] like wins and
 * losses; a game's evaluate() or a points race gives rewards bunched near
 * the middle, where the same constant would explore almost blindly.  So the
 * constant follows the spread (standard deviation) of the rewards seen,
 * 0.5 being the spread of a coin toss. */
static double explore_for(const struct tree *t, int np)
{
	double mu = t->r1 / t->rn, var = t->r2 / t->rn - mu * mu;
	if (np == 1) /* raw scores: scale like tree_mean() does */
		var = t->hi > t->lo ? var / ((t->hi - t->lo) * (t->hi - t->lo))
				    : 0.25;
	double f = 2 * num_sqrt(var > 0 ? var : 0);
	return UCT_C * (f < 0.1 ? 0.1 : f > 1 ? 1 : f);
}

/* Adds this thread's reward statistics to the tree's (under the tree's
 * lock when it is shared: they are sums, and the tree's explore follows
 * them). */
static void fold_rewards(struct worker *m)
{
	struct tree *t = m->t;
	if (m->rn == 0)
		return;
	if (m->lock)
		pthread_mutex_lock(m->lock);
	t->r1 += m->r1, t->r2 += m->r2, t->rn += m->rn;
	double explore = explore_for(t, m->np);
	__atomic_store(&t->explore, &explore, __ATOMIC_RELAXED);
	if (m->lock)
		pthread_mutex_unlock(m->lock);
	m->r1 = m->r2 = m->rn = 0;
}

/* The solo game's reward r, beyond the lowest or highest score the tree
 * has seen (m->lo and m->hi: this thread's copy), widens the tree's. */
static void widen(struct worker *m, double r)
{
	struct tree *t = m->t;
	if (m->lock)
		pthread_mutex_lock(m->lock);
	double lo = !t->seen || r < t->lo ? r : t->lo;
	double hi = !t->seen || r > t->hi ? r : t->hi;
	__atomic_store(&t->lo, &lo, __ATOMIC_RELAXED);
	__atomic_store(&t->hi, &hi, __ATOMIC_RELAXED);
	__atomic_store_n(&t->seen, 1, __ATOMIC_RELAXED);
	if (m->lock)
		pthread_mutex_unlock(m->lock);
	m->lo = lo, m->hi = hi;
}

/* The rewards of an iteration join the statistics: the range of the solo
 * game's scores at once, the sums (explore_for) every EXPLORE_EVERY of
 * this thread's, unless they were exact. */
INLINE void rewards_seen(struct worker *m, const double *rew, int exact)
{
	if (m->np == 1 && (!__atomic_load_n(&m->t->seen, __ATOMIC_RELAXED) ||
			   rew[0] < m->lo || rew[0] > m->hi))
		widen(m, rew[0]);
	if (exact)
		return;
	for (int p = 0; p < m->np; p++)
		m->r1 += rew[p], m->r2 += rew[p] * rew[p], m->rn++;
	if (m->rn >= EXPLORE_EVERY)
		fold_rewards(m);
}

/* One iteration: down the tree by the tree policy, out at random, and the
 * rewards back up, on a tree m shares with other threads or not.  Returns
 * -1 when the clock stopped it (nothing is counted then). */
INLINE int iterate_on(struct worker *m, int shared)
{
	struct tree *t = m->t;
	uint32_t path[MAX_PATH];
	int depth = 0, exact = 0, proved = 0;
	double rew[GAME_MAX_PLAYERS] = {0};
	uint64_t held = 0; /* shared: the levels whose visits are held back */
	game_copy(m->g, m->st, t->state);
	uint32_t at = t->root;
	path[0] = at;
	if (shared)
		held = (uint64_t)enter(m, at);
	for (;;) {
		struct node *nd = node_at(t, at);
		if (depth > 0 && proof_of(nd) && !m->ignore_proofs)
			break; /* its exact result stands for a playout */
		if (kind(nd) == LEAF) {
			/* (on a shared tree its visits count this one) */
			uint32_t seen = ld_u(&nd->visits) - (uint32_t)shared;
			if (depth > 0 &&
			    (seen - prior_of(t, nd) <
				     t->expand_at +
					     node_at(t, path[depth - 1])
							     ->nchild /
						     WIDE_STEP +
					     (ld_u(&t->used) >> GROWTH_SHIFT) ||
			     __atomic_load_n(&t->full, __ATOMIC_RELAXED)))
				break;
			if (expand(m, at, m->st, depth == 0) < 0)
				break;
			proved = m->new_proof;
			if (depth > 0 && proof_of(nd) && !m->ignore_proofs)
				break;
		}
		if (kind(nd) == END || depth + 1 >= MAX_PATH)
			break;
		uint32_t c = select_child(m, at, nd, shared);
		node_step(t, m->g, nd, c - child_of(nd), m->st);
		path[++depth] = at = c;
		if (shared && depth < 64)
			held |= (uint64_t)enter(m, at) << depth;
		else if (shared)
			visit_shared(node_at(t, at));
	}
	int r = leaf_rewards(m, node_at(t, at), depth, rew, &exact);
	if (shared)
		for (int i = 0; i <= depth; i++)
			leave(m, path[i], i < 64 && held >> i & 1,
			      r < 0 ? NULL : rew);
	if (r < 0)
		return -1;
	if (!shared)
		for (int i = 0; i <= depth; i++)
			count(node_at(t, path[i]), rew);
	if (proved)
		prove_up(t, path, depth);
	if (m->im)
		im_back(m, path, depth);
	rewards_seen(m, rew, exact);
	/* (read by the main search while it runs: team_iters) */
	__atomic_store_n(&m->iters, m->iters + 1, __ATOMIC_RELAXED);
	return 0;
}

/* One iteration (iterate_on), built for a thread alone and for a shared
 * tree. */
static int iterate(struct worker *m)
{
	return m->lock ? iterate_on(m, 1) : iterate_on(m, 0);
}

/* ---- a phase of iterations ---- */

/* Compacts a full pool when the time left allows (as long as the last
 * compaction took per node, and more): a full 48 MB pool takes 40 to 90 ms
 * on a busy machine, which a short move cannot spare.  Otherwise the tree
 * stops growing for the rest of this search.  The time left is the
 * search's (m->clock.end), not its phase's: weighed against the end of a phase,
 * a pool that filled just before one ended stayed full for the rest of
 * the move, and an analysis, whose phases are its intervals, could stop
 * growing for good (test_ai analysis_compacts_a_full_pool; `bench_ai rate
 * takeitaway ""` at 5 s, in two rounds of three, made 9.6 million
 * iterations of a tree that no longer grew, where the third compacted it
 * three times and made 3.8 million).  A `stop` that comes while the pool
 * is marked ends the compaction there, the pool as it was (test_ai
 * a_stop_ends_a_compaction). */
void worker_make_room(struct worker *m)
{
	struct tree *t = m->t;
	if (!tm_room_for(&m->clock, pool_compact_cost(t, t->used))) {
		m->grown = 1;
		return;
	}
	struct pool_stop stop = {tm_compaction_stop, &m->clock};
	m->clock.next_poll = 0; /* asked at once: a compaction is a long step */
	if (pool_compact(t, &stop)) {
		memset(m->lazy, 0, sizeof m->lazy); /* nodes were cut */
		m->collections = t->collections;
	}
}

/* Runs iterations until the clock passes until_ms (when timed), iters
 * reaches until_iters (with a budget shared by a team of threads, the
 * team's playouts), or the engine says stop.  A full pool is compacted
 * between iterations. */
void worker_run(struct worker *m, double until_ms, long until_iters)
{
	if (m->collections != m->t->collections) {
		/* the pool was compacted (by the lead, the team stopped)
		 * since this thread last ran: the nodes it remembers may be
		 * gone */
		memset(m->lazy, 0, sizeof m->lazy);
		m->collections = m->t->collections;
	}
	tm_phase(&m->clock, until_ms);
	m->aborted = 0; /* an iteration the last phase's end cut short */
	m->for_room = 0;
	while (!m->aborted && (m->tickets || m->iters < until_iters)) {
		if (__atomic_load_n(&m->t->full, __ATOMIC_RELAXED) &&
		    !m->grown) {
			if (m->team) {
				/* team_run compacts with the team stopped */
				m->for_room = 1;
				break;
			}
			if (!m->lock)
				worker_make_room(m);
		}
		if (tm_time_to_stop(&m->clock))
			break;
		if (m->np == 2 && !m->ignore_proofs &&
		    proof_of(node_at(m->t, m->t->root)))
			break; /* settled: more iterations would only spin */
		if (m->tickets && !take_ticket(m->tickets, until_iters)) {
			m->spent = 1;
			break;
		}
		if (iterate(m) < 0) {
			m->aborted = 1;
			/* a playout cut short (the team stopped to compact the
			 * pool) leaves its ticket to the next phase */
			if (m->tickets)
				atomic_fetch_sub_explicit(m->tickets, 1,
							  memory_order_relaxed);
		}
		m->clock.since++;
	}
	if (m->lock)
		flush_pending(m);
	fold_rewards(m);
}
