/* mcts.c: Monte Carlo tree search for every game of the table.
 *
 * UCT over a tree of three kinds of node: decisions (a player picks a
 * move), chance events (a die: the outcomes are visited in proportion to
 * their odds, so the search never counts on a roll it has not seen) and
 * finished states.  Every node keeps the reward of the player who moved
 * into it, and each player picks what is best for itself (max-n), which
 * covers 1 to 4 players.  Rewards come from ai_reward: result first, then a
 * small margin term; a solo game's raw score is scaled to [0, 1] by the
 * lowest and highest scores seen so far.
 *
 * Cheap knowledge that pays in every game: a new node looks one move ahead
 * (a player always takes a win on the spot and avoids a move that loses on
 * the spot).  When the game gives evaluate(), it also seeds each new move's
 * value (a prior worth a few visits: progressive bias) and ends playouts
 * after a short random tail; where the game asks for it (minimax_eval),
 * each node also keeps the minimax of the evaluations below it, which UCT
 * weighs beside the playouts' mean (implicit minimax: im_code in mcts.h).
 * The exploration constant follows the spread of the rewards seen (see
 * explore_for), and a busy node scans its children at one visit in four
 * (see LAZY_FROM).  (No RAVE: it measured weaker in Tiptoe 8x8;
 * docs/strength.md, "Tried and left out".)
 *
 * Proven results (two players): a finished state is proven, and so is a
 * decision with a move that wins for its mover, or whose moves are all
 * proven, and a chance event whose outcomes are all proven alike
 * (MCTS-solver).  The search never descends into a proven node: it takes
 * its exact result instead of a playout, never picks a move proven lost
 * while another is left, and stops at once when the root is proven won or
 * drawn (a lost root searches on as if nothing were proven, for the best
 * chances against an opponent who may err, and then plays a move that
 * holds out: longest_fight).  When
 * the playouts show that the game is nearly over, the exact solver gets a
 * share of the time (a root the tree has proven too: the proofs know only
 * win, draw and loss, the solver also the margin); what it settles about
 * the root moves becomes proofs too, and the moves it shows worse (with
 * two players: a smaller margin of the same result) are set aside.
 *
 * Memory: the nodes live in one pool of a fixed size (pool.c), compacted
 * when full.  Clock-bound searches keep the tree for the next one (see
 * reroot).  Nothing is allocated while searching, and playouts run on one
 * scratch state.  The solver's share of the root is in mcts_solve.c, what
 * the search tells (the search line, analyze's lines) in mcts_report.c.
 *
 * Time (timeman.c): the plan of a search, the moments of its course and
 * the course along the plan (run_plan), and each thread's clock (struct
 * tm_watch), read about every 0.2 ms, in long steps too, which ends a
 * search a margin before its deadline. */
#include "mcts.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../util/bits.h"
#include "../util/numbers.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define MAX_PLAYOUT 100000 /* plies; a longer playout counts as stuck */
/* Playout plies before a game's evaluate() (when it has one) takes over,
 * unless the game names its own (eval_after): a short random tail, then
 * the game's own judgement.  At movetime 100 against 8, 200 games each:
 * Tiptoe 8x8 with 4 scored -34.9 Elo (-84.3 to +13.2) and with 16 -190.8,
 * Take-Back-Toe with 4 +24.4 (-23.7 to +73.4) and with 2 +3.5; Take It
 * Away with two players gained from 4 (takeitaway.c; docs/strength.md,
 * "Playout plies before the evaluation"). */
#define EVAL_AFTER 8
#define LINE_SAMPLES 24 /* moves drawn where moves cannot be listed */
/* The weight of evaluate() in a new node's value, in visits, unless the
 * game names its own (prior_visits).  At movetime 100, 7 against 4 scored
 * +38.4 Elo in Tiptoe 8x8 (55.5% of 400 games), +92.5 (+24.6 to +168.1)
 * in Tiptoe hex (100 games), +26.1 (-16.2 to +69.2) in Take It Away and
 * -10.4 (-59.1 to +37.9) in Take-Back-Toe (200 games each). */
#define PRIOR_VISITS 7
#define PRIOR_MAX 15 /* a game's own weight at most */
/* The weight of a child's minimax value (see im_code in mcts.h) in UCT's
 * mean, where the search keeps one: docs/strength.md, "Implicit
 * minimax". */
#define IM_WEIGHT 0.15f
#define PLAYOUT_CHUNK 128 /* playout plies between looks at the clock */
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
 * chose for LAZY_SKIP more visits before it scans again.  At a node that
 * busy, four visits in a row to one child move the shares of its visits
 * by about one percent, and the scan of every child at every level was
 * most of what made an iteration of a big tree (a deep one) dear: on
 * checkertoe the iterations a second at 5 s were 81% of those at 0.1 s
 * with a scan at every visit, and 98% with this.  At equal playouts no
 * game played measurably weaker (docs/benchmarks.md).  Where the search
 * keeps minimax values, which take the place of `last` (mcts.h), the
 * search's own table remembers the scans (uct_im_lazy). */
#define LAZY_FROM 256
#define LAZY_SKIP 3
#define REROOT_PLAYS 4096 /* moves tried to find the new root in the tree */
_Static_assert(GAME_MAX_PLAYERS < NOBODY, "who fits its bits");
#define SOLVE_PLIES 16 /* random games this short: the solver may try */
/* The exploration constant follows the spread of the rewards (explore_for)
 * and is worked out again each time EXPLORE_EVERY more have been seen: by
 * one thread in iterate; a thread of a shared tree sums that many of its
 * own before adding them to the tree's under its lock (fold_rewards).
 * Folding every 64 cost two threads on Abs-Trac-Toe 2% of their speed
 * (docs/benchmarks.md, "Threads"). */
#define EXPLORE_EVERY 256
_Static_assert((EXPLORE_EVERY & (EXPLORE_EVERY - 1)) == 0, "a power of 2");
/* On a shared tree, a node with BUSY visits or more gets its visits from
 * a thread in batches of up to 1 / 2^BATCH_SHIFT of them, held back
 * meanwhile in PENDING slots (see iterate_shared). */
#define BUSY 64
#define BATCH_SHIFT 5
#define CHUNK 1024 /* nodes a thread of a shared tree takes at a time */
/* The slots are a hash of the node: a busy node that shares its slot
 * with another on the paths a thread takes adds its visits one at a time
 * again.  With 256 slots two threads ran Take It Away at 1.49 to 1.59
 * times one thread's iterations, with 4,096 (80 kB a thread) at 1.68 to
 * 1.78 (`bench_ai threads takeitaway "" 1000 1 2`, in turn;
 * docs/benchmarks.md, "Threads"). */
#define PENDING_BITS 12
#define PENDING (1 << PENDING_BITS)

/* ---- moves ---- */

/* Plays child i of nd on st: its move, or its chance outcome. */
static void step_into(const struct mcts *m, const struct node *nd, uint32_t i,
		      void *st)
{
	if (kind(nd) == CHANCE) {
		m->g->roll(st,
			   (int)(int64_t)node_at(m->t, child_of(nd) + i)->mv);
		return;
	}
	struct move mv;
	child_move(m->t, nd, i, &mv);
	m->g->play(st, &mv);
}

/* Swaps children i and j of nd, neither visited yet, with their move
 * words. */
static void swap_children(struct mcts_tree *t, const struct node *nd,
			  uint32_t i, uint32_t j)
{
	struct node *c = node_at(t, nd->child), x = c[i];
	c[i] = c[j];
	c[j] = x;
	if (nd->flags & F_WIDE) {
		unsigned char w[sizeof(struct node)];
		memcpy(w, &c[nd->nchild + i], sizeof w);
		memcpy(&c[nd->nchild + i], &c[nd->nchild + j], sizeof w);
		memcpy(&c[nd->nchild + j], w, sizeof w);
	}
}

/* ---- the clock ---- */

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

/* ---- proofs (two players) ---- */

/* Proves nd from its children when they settle it: a decision when a move
 * wins for its mover or every move is proven (the best of them), a chance
 * event when every outcome is proven alike.  Returns 1 when nd is proven. */
int try_prove(const struct mcts_tree *t, struct node *nd)
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

/* After path[depth] was proven: proves what it settles above it. */
static void prove_up(const struct mcts_tree *t, const uint32_t *path, int depth)
{
	for (int d = depth - 1; d >= 0; d--) {
		struct node *nd = node_at(t, path[d]);
		flags_change(nd, 0, F_MIXED);
		if (!try_prove(t, nd))
			break;
	}
}

/* ---- expansion ---- */

/* What a move does at once, in cls[]: 0 the game goes on, else 1 + the
 * winning team (1: a draw). */
#define CLS_OPEN 0

static unsigned char end_class(const struct mcts *m, struct game_status cs)
{
	if (cs.phase != GAME_OVER)
		return CLS_OPEN;
	return (unsigned char)(1 + (cs.player ? m->pl.team[cs.player - 1] : 0));
}

/* Keeps the moves that win at once, if any (a player never misses one);
 * otherwise drops the moves that lose at once (a move can complete the
 * opponent's row), unless nothing else is left.  Random playouts miss such
 * one-move facts often; this costs one play per move per expansion.
 * With two players a win at once proves the node, and the search never
 * goes below a proven node, so there the moves that do not lose at once
 * are all kept, for the exact solver: a game that goes on may end in a
 * bigger win (Take It Away: taking the last jump at once won by 3 where
 * two more jumps won by 6, and the root had kept only the first).
 * Fills cls[] and (with evaluate) prior[] for the moves kept. */
static int decisive(struct mcts *m, const void *st, int mover, int n)
{
	const struct game *g = m->g;
	int nwin = 0, nsafe = 0, own = 1 + m->pl.team[mover - 1];
	unsigned char *cls = m->cls;
	double val[GAME_MAX_PLAYERS];
	m->have_prior = 0;
	for (int i = 0; i < n; i++) {
		/* wide nodes of slow games take long: mind the clock */
		if ((i & 31) == 31 && tm_watched(&m->clock) &&
		    tm_out_of_time(&m->clock)) {
			memset(cls, CLS_OPEN, (size_t)n);
			return n;
		}
		struct game_status cs;
		int pts[GAME_MAX_PLAYERS];
		if (game_search(g)->preview &&
		    game_search(g)->preview(st, &m->list[i], &cs, val, pts) ==
			    0) {
			if (cs.phase == GAME_OVER)
				ai_reward_points(pts, cs, &m->pl, val);
		} else {
			game_copy(g, m->st2, st);
			g->play(m->st2, &m->list[i]);
			cs = g->status(m->st2);
			if (game_search(g)->evaluate && cs.phase == GAME_OVER)
				ai_reward_at(g, m->st2, cs, &m->pl, val);
			else if (game_search(g)->evaluate)
				game_search(g)->evaluate(m->st2, val);
		}
		cls[i] = end_class(m, cs);
		nwin += cls[i] == own;
		nsafe += cls[i] <= 1;
		if (game_search(g)->evaluate)
			m->prior[i] = val[mover - 1];
	}
	m->have_prior = game_search(g)->evaluate != NULL;
	if (!nwin && (!nsafe || nsafe == n))
		return n;
	int only_wins = nwin && m->np != 2, k = 0;
	for (int i = 0; i < n; i++)
		if (cls[i] == own || (!only_wins && cls[i] <= 1)) {
			m->prior[k] = m->prior[i];
			cls[k] = cls[i];
			m->list[k++] = m->list[i];
		}
	return k;
}

/* The moves of st into m->list: the listed ones, or, where they cannot be
 * listed (a drawn line), a sample of distinct ones (*sampled set). */
static int list_moves(struct mcts *m, const void *st, int root, int *sampled)
{
	const struct game *g = m->g;
	int n = g->moves(st, m->list);
	*sampled = 0;
	if (n > 0 || !g->random_move)
		return n;
	*sampled = 1;
	int want = root ? 4 * LINE_SAMPLES : LINE_SAMPLES;
	if (want > g->max_moves)
		want = g->max_moves;
	for (int tries = 0; tries < 4 * want && n < want; tries++) {
		struct move mv;
		if (g->random_move(st, m->r, &mv) < 0)
			break;
		int dup = 0;
		for (int i = 0; i < n && !dup; i++)
			dup = move_equal(&m->list[i], &mv);
		if (!dup)
			m->list[n++] = mv;
	}
	return n;
}

/* A leaf's child block, being grown by a thread of a shared tree. */
#define CLAIMED UINT32_MAX

/* Gives nd its children, from `first`, and the kind k: the kind is changed
 * last, and releases the children to threads that read it. */
static void publish(struct node *nd, uint32_t first, int k)
{
	__atomic_store_n(&nd->child, first, __ATOMIC_RELAXED);
	set_kind(nd, k);
}

/* n fresh nodes side by side (pool_alloc).  A thread of a shared tree
 * takes them from a chunk of its own, up to CHUNK nodes at a time: the
 * pool's lock, taken by every thread at every expansion, kept its cache
 * line moving between the cores. */
static uint32_t node_alloc(struct mcts *m, uint32_t n)
{
	if (!m->lock)
		return pool_alloc(m->t, n);
	if (n > m->chunk_end - m->chunk_next) {
		uint32_t got;
		uint32_t first =
			pool_take(m->t, n, n > CHUNK ? n : CHUNK, &got);
		if (!first)
			return 0;
		m->chunk_next = first;
		m->chunk_end = first + got;
	}
	m->chunk_next += n;
	return m->chunk_next - n;
}

/* nd's minimax value (im_code) from its children's: the best of them for
 * the player who moves at nd (a proven child's, its result), as nd's mover
 * sees it; 0 when none has one.  Read atomically, as threads that share the
 * tree write them. */
static uint16_t im_of_children(const struct mcts_tree *t, const struct node *nd)
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

/* Sets nd's minimax value from its children's; returns whether it changed.
 * (A value another thread changes below meanwhile counts at the next
 * pass.) */
static int im_update(struct mcts *m, struct node *nd)
{
	uint16_t v = im_of_children(m->t, nd);
	if (!v || v == __atomic_load_n(&nd->im, __ATOMIC_RELAXED))
		return 0;
	__atomic_store_n(&nd->im, v, __ATOMIC_RELAXED);
	return 1;
}

/* The nodes below n whose minimax value is not their children's, and (in
 * *seen) those whose children have values. */
static long im_faults_below(const struct mcts_tree *t, uint32_t n, long *seen)
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

long mcts_tree_im_faults(struct mcts_tree *t, long *seen)
{
	team_settle(t);
	*seen = 0;
	return t->im && t->pool ? im_faults_below(t, t->root, seen) : 0;
}

/* After an iteration down path[0..depth]: the minimax values from the
 * bottom up, as far as they change (the last node may be a leaf, its
 * parent may have just grown its children).  Not the root's, which no
 * choice reads: every thread passes the root, and a write there would
 * move its cache line from core to core (see BUSY). */
static void im_back(struct mcts *m, const uint32_t *path, int depth)
{
	for (int i = depth; i >= 1; i--)
		if (!im_update(m, node_at(m->t, path[i])) && i < depth)
			break;
}

/* Gives the leaf `at` its children or makes it a finished node (expand). */
static int grow(struct mcts *m, uint32_t at, const void *st, int root)
{
	const struct game *g = m->g;
	struct mcts_tree *t = m->t;
	struct game_status s = g->status(st);
	m->new_proof = 0;
	if (s.phase == GAME_OVER) {
		struct node *nd = node_at(t, at);
		if (m->np == 2) {
			set_proof(nd, proof_of_end(s));
			m->new_proof = 1;
		}
		set_kind(nd, END);
		return 0;
	}
	if (s.phase == GAME_ROLL) {
		int values[GAME_MAX_CHANCE];
		double probs[GAME_MAX_CHANCE];
		int n = g->chance(st, values, probs);
		if (n <= 0) {
			set_kind(node_at(t, at), END);
			return 0;
		}
		uint32_t first = node_alloc(m, (uint32_t)n);
		if (!first)
			return -1;
		struct node *c = node_at(t, first);
		for (int i = 0; i < n; i++) {
			c[i].mv = (uint64_t)(int64_t)values[i];
			c[i].q = (float)probs[i];
			c[i].who = NOBODY;
		}
		struct node *nd = node_at(t, at);
		nd->nchild = (uint16_t)n;
		publish(nd, first, CHANCE);
		return 0;
	}
	int sampled, n = list_moves(m, st, root, &sampled);
	if (n <= 0) {
		set_kind(node_at(t, at), END); /* stuck */
		return 0;
	}
	if (n > UINT16_MAX)
		return -1;
	m->have_prior = 0;
	if (m->np > 1)
		n = decisive(m, st, s.player, n);
	else
		memset(m->cls, CLS_OPEN, (size_t)n);
	int wide = 0;
	for (int i = 0; i < n && !wide; i++)
		for (int w = 1; w < MOVE_WORDS; w++)
			wide |= m->list[i].w[w] != 0;
	uint32_t first = node_alloc(m, (uint32_t)n << wide);
	if (!first)
		return -1;
	if (m->have_prior || m->lock) {
		/* UCT picks among moves of equal priors by their order: a
		 * random one, or every node would try the first listed first
		 * (without priors the first visits are drawn as they come,
		 * but not on a shared tree: see select_shared) */
		for (int i = n - 1; i > 0; i--) {
			int j = (int)rng_below(m->r, (uint32_t)i + 1);
			struct move mv = m->list[i];
			m->list[i] = m->list[j];
			m->list[j] = mv;
			unsigned char k = m->cls[i];
			m->cls[i] = m->cls[j];
			m->cls[j] = k;
			double p = m->prior[i];
			m->prior[i] = m->prior[j];
			m->prior[j] = p;
		}
	}
	struct node *c = node_at(t, first);
	for (int i = 0; i < n; i++) {
		c[i].mv = m->list[i].w[0];
		if (wide)
			memcpy(&c[n + i], &m->list[i].w[1],
			       sizeof m->list[i].w - sizeof m->list[i].w[0]);
		c[i].who = (uint8_t)(s.player - 1);
		if (m->np == 2 && m->cls[i] != CLS_OPEN) {
			set_proof(&c[i], proof_of_end((struct game_status){
						 GAME_OVER, m->cls[i] - 1}));
			flags_change(node_at(t, at), 0, F_MIXED);
		}
		if (m->im) /* (a proven child's counts by its proof:
			    * im_of_children) */
			c[i].im = m->have_prior ? im_code(m->prior[i]) : 0;
		if (m->have_prior) {
			/* the game's judgement counts as a few visits, so that
			 * wide nodes try their promising moves first */
			c[i].virt = 1;
			c[i].visits = t->prior_visits;
			c[i].q = (float)m->prior[i];
			c[i].rs = (float)num_rsqrt_n(t->prior_visits);
		}
	}
	struct node *nd = node_at(t, at);
	if (m->have_prior)
		nd->tried = (uint16_t)n; /* no need to try each move once */
	nd->nchild = (uint16_t)n;
	flags_change(
		nd, 0,
		(uint8_t)((wide ? F_WIDE : 0) | (sampled ? F_SAMPLED : 0)));
	publish(nd, first, DECIDE);
	if (m->np == 2)
		m->new_proof = try_prove(t, nd);
	return 0;
}

/* Gives the leaf `at` its children (or makes it a finished node).  Returns
 * 0, or -1 when it cannot (the pool is full, too many moves, or another
 * thread is growing it): the iteration then plays out from the leaf.  Sets
 * m->new_proof when the node got proven. */
static int expand(struct mcts *m, uint32_t at, const void *st, int root)
{
	if (!m->lock)
		return grow(m, at, st, root);
	/* a shared tree: the thread that claims the leaf grows it, and the
	 * others play out from it meanwhile (see mcts_team.c) */
	struct node *nd = node_at(m->t, at);
	uint32_t none = 0;
	if (!__atomic_compare_exchange_n(&nd->child, &none, CLAIMED, 0,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return -1;
	int r = grow(m, at, st, root);
	if (r < 0 || kind(nd) == END) /* (released to the next claim) */
		__atomic_store_n(&nd->child, 0, __ATOMIC_RELEASE);
	return r;
}

/* ---- one iteration ---- */

/* The mean reward of a node for its mover, in [0, 1]. */
static double mean(const struct mcts_tree *t, int np, double q)
{
	if (np != 1)
		return q;
	double lo, hi; /* (helpers may be adding theirs: fold_rewards) */
	__atomic_load(&t->lo, &lo, __ATOMIC_RELAXED);
	__atomic_load(&t->hi, &hi, __ATOMIC_RELAXED);
	return hi > lo ? (q - lo) / (hi - lo) : 0.5;
}

/* A child's mean reward for UCT: its playouts' mean q, and its minimax
 * value (code im, 0: none) beside it. */
static inline float im_mean(float q, uint16_t im)
{
	return im ? q + IM_WEIGHT * (im_value(im) - q) : q;
}

/* The first of the n children c with the highest a m + k rs, m being the
 * mean q, or with minimax values (`im`, a constant where this is inlined)
 * im_mean: UCT's scan, once a third of the time of a big tree (a deep one;
 * see LAZY_FROM).  With SSE2 four children at a time, each lane keeping the
 * first best of its own children, then the lanes' best, the first of
 * equals; otherwise the even and odd children in two chains, so that each
 * compare waits only on the one before it in its own chain.  Either way
 * the sums are the scalar ones, bit for bit, and the choice the same (a =
 * 1 leaves q as it is). */
static inline int uct_scan(const struct node *c, int n, float a, float k,
			   int im)
{
	float best = -1e30f;
	int bi = -1, i = 0;
#ifdef __SSE2__
	if (n >= 8) {
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
		float qu = im ? im_mean(c[i].q, c[i].im) : c[i].q;
		float qv = im ? im_mean(c[i + 1].q, c[i + 1].im) : c[i + 1].q;
		float u = a * qu + k * c[i].rs;
		float v = a * qv + k * c[i + 1].rs;
		if (u > best)
			best = u, bi = i;
		if (v > best2)
			best2 = v, bi2 = i + 1;
	}
	if (i < n) {
		float q = im ? im_mean(c[i].q, c[i].im) : c[i].q;
		if (a * q + k * c[i].rs > best)
			best = a * q + k * c[i].rs, bi = i;
	}
	if (best2 > best || (best2 == best && bi2 < bi))
		bi = bi2;
	return bi < 0 ? 0 : bi; /* (only NaNs: any child will do) */
}

/* select_child's scans: without minimax values, and where the search
 * keeps them (im_mean). */
static int uct_first_best(const struct node *c, int n, float a, float k)
{
	return uct_scan(c, n, a, k, 0);
}

static int uct_im_best(const struct node *c, int n, float a, float k)
{
	return uct_scan(c, n, a, k, 1);
}

/* uct_im_best at nd, which from LAZY_FROM visits on follows the child its
 * last scan chose for LAZY_SKIP more visits, as select_child does where
 * the nodes keep no minimax values, with its memory in m->lazy (a slot
 * another node took over, or that compaction emptied, scans afresh). */
static int uct_im_lazy(struct mcts *m, const struct node *nd, float a, float k)
{
	const struct node *c = node_at(m->t, nd->child);
	if (nd->visits < LAZY_FROM)
		return uct_im_best(c, nd->nchild, a, k);
	uint32_t at = (uint32_t)(nd - m->t->pool);
	struct im_lazy *z = &m->lazy[at % IM_LAZY];
	if (z->at == at && z->skip && z->last < nd->nchild) {
		z->skip--;
		return z->last;
	}
	int b = uct_im_best(c, nd->nchild, a, k);
	*z = (struct im_lazy){at, (uint16_t)b, LAZY_SKIP};
	return b;
}

/* The child of nd to follow: a chance outcome by its odds; a move first
 * by the order of first visits, then by UCT, never a move proven lost or
 * set aside while there is another (a proven draw counts its exact value,
 * with no bonus for exploring). */
static uint32_t select_child(struct mcts *m, struct node *nd)
{
	struct mcts_tree *t = m->t;
	struct node *c = node_at(t, nd->child);
	int n = nd->nchild;
	if (kind(nd) == CHANCE) {
		/* the outcome furthest behind its share of the visits */
		double n1 = (double)nd->visits + 1, best = -1e300;
		int bi = 0;
		for (int i = 0; i < n; i++) {
			double d = c[i].q * n1 - c[i].visits;
			if (d > best)
				best = d, bi = i;
		}
		return nd->child + (uint32_t)bi;
	}
	/* first visits in a random order, drawn as they are given: a move
	 * not tried yet swaps places with the next one to try */
	while (nd->tried < n) {
		int i = nd->tried++,
		    j = i + (int)rng_below(m->r, (uint32_t)(n - i));
		if (j != i)
			swap_children(t, nd, (uint32_t)i, (uint32_t)j);
		if (!(flags_of(&c[i]) & F_BANNED) &&
		    (m->ignore_proofs || !lost(&c[i])))
			return nd->child + (uint32_t)i;
	}
	if (nd->skip && !(nd->flags & F_MIXED) && !m->im) { /* LAZY_FROM */
		nd->skip--;
		return nd->child + nd->last;
	}
	/* UCT: the mean (scaled to [0, 1] in the solo game: only the scale
	 * matters to the choice) plus the exploration bonus */
	float a =
		m->np == 1 && t->hi > t->lo ? (float)(1 / (t->hi - t->lo)) : 1;
	float k = (float)(t->explore * num_sqrtlog(nd->visits + 1)),
	      best = -1e30f;
	int bi = -1;
	if (!(nd->flags & F_MIXED)) { /* the common case: nothing set aside */
		if (m->im)
			return nd->child + (uint32_t)uct_im_lazy(m, nd, a, k);
		int b = uct_first_best(c, n, a, k);
		if (nd->visits >= LAZY_FROM) {
			nd->last = (uint16_t)b;
			nd->skip = LAZY_SKIP;
		}
		return nd->child + (uint32_t)b;
	}
	for (int i = 0; i < n; i++) {
		const struct node *ci = &c[i];
		float u;
		if (ci->flags & (PROOF | F_BANNED)) {
			if (ci->flags & F_BANNED)
				continue;
			if (m->ignore_proofs) {
				u = a * ci->q + k * ci->rs;
			} else {
				int r = result_for(proof_of(ci), ci->who);
				if (r < 0)
					continue;
				u = 0.5f * (float)(r + 1);
			}
		} else {
			u = a * im_mean(ci->q, m->im ? ci->im : 0) + k * ci->rs;
		}
		if (u > best)
			best = u, bi = i;
	}
	return nd->child + (uint32_t)(bi < 0 ? 0 : bi);
}

/* Plays up to n plies of random moves (dice rolled by their odds) on st,
 * with the game's own playout when it has one; returns the plies played,
 * fewer than n when the game ended (or got stuck). */
static int random_plies(struct mcts *m, void *st, int n)
{
	const struct game *g = m->g;
	if (game_search(g)->playout)
		return game_search(g)->playout(st, m->r, n);
	int k = 0;
	for (; k < n; k++) {
		struct game_status s = g->status(st);
		if (s.phase == GAME_OVER)
			break;
		if (s.phase == GAME_ROLL) {
			g->roll(st, game_chance_pick(g, st, m->r));
			continue;
		}
		struct move mv;
		if (ai_random_move(g, st, m->r, m->list, &mv) < 0)
			break;
		g->play(st, &mv);
	}
	return k;
}

/* Plays st out at random until the game ends, or, where the game can
 * judge a position, for EVAL_AFTER plies; writes the rewards.  Returns 0,
 * or -1 when the clock ran out first. */
static int playout(struct mcts *m, void *st, double *rew)
{
	const struct game *g = m->g;
	int judge = game_search(g)->evaluate && m->np > 1;
	int after = judge && game_search(g)->eval_after
			    ? game_search(g)->eval_after(st)
			    : 0;
	if (!after)
		after = EVAL_AFTER;
	if (after < 0)
		after = 0; /* the game's word: no playout */
	struct game_status s = g->status(st);
	for (int ply = 0; s.phase != GAME_OVER && ply < MAX_PLAYOUT;) {
		if (judge && ply >= after) {
			game_search(g)->evaluate(st, rew);
			return 0;
		}
		if (ply && tm_watched(&m->clock) && tm_out_of_time(&m->clock))
			return -1;
		int chunk = judge ? after : PLAYOUT_CHUNK;
		int done = random_plies(m, st, chunk);
		s = g->status(st);
		ply += chunk;
		if (done < chunk)
			break; /* over, or stuck */
	}
	ai_reward_at(g, st, s, &m->pl, rew); /* over, stuck or too long */
	return 0;
}

/* The rewards of an iteration that stopped at leaf, depth plies below the
 * root, with its state in m->st: a finished game's, a proven result's
 * (*exact is then set: no playout's noise in it), or a playout's.
 * Returns 0, or -1 when the clock cut the playout short. */
static int leaf_rewards(struct mcts *m, const struct node *leaf, int depth,
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

/* UCT's exploration term assumes rewards spread over [0, 1] like wins and
 * losses; a game's evaluate() or a points race gives rewards bunched near
 * the middle, where the same constant would explore almost blindly.  So the
 * constant follows the spread (standard deviation) of the rewards seen,
 * 0.5 being the spread of a coin toss. */
static double explore_for(const struct mcts_tree *t, int np)
{
	double mu = t->r1 / t->rn, var = t->r2 / t->rn - mu * mu;
	if (np == 1) /* raw scores: scale like mean() does */
		var = t->hi > t->lo ? var / ((t->hi - t->lo) * (t->hi - t->lo))
				    : 0.25;
	double f = 2 * num_sqrt(var > 0 ? var : 0);
	return UCT_C * (f < 0.1 ? 0.1 : f > 1 ? 1 : f);
}

/* One iteration: down the tree, out at random, and the rewards back up.
 * Returns -1 when the clock stopped it (nothing is updated then). */
static int iterate(struct mcts *m)
{
	struct mcts_tree *t = m->t;
	uint32_t path[MAX_PATH];
	int depth = 0, exact = 0, proved = 0;
	double rew[GAME_MAX_PLAYERS] = {0};
	game_copy(m->g, m->st, t->state);
	uint32_t at = t->root;
	path[0] = at;
	for (;;) {
		struct node *nd = node_at(t, at);
		if (depth > 0 && proof_of(nd) && !m->ignore_proofs)
			break; /* its exact result stands for a playout */
		if (kind(nd) == LEAF) {
			if (depth > 0 &&
			    (nd->visits - prior_of(t, nd) <
				     t->expand_at +
					     node_at(t, path[depth - 1])
							     ->nchild /
						     WIDE_STEP +
					     (t->used >> GROWTH_SHIFT) ||
			     t->full))
				break;
			if (expand(m, at, m->st, depth == 0) < 0)
				break;
			proved = m->new_proof;
			nd = node_at(t, at);
			if (depth > 0 && proof_of(nd) && !m->ignore_proofs)
				break;
		}
		if (kind(nd) == END || depth + 1 >= MAX_PATH)
			break;
		uint32_t c = select_child(m, nd);
		step_into(m, nd, c - nd->child, m->st);
		path[++depth] = at = c;
	}
	if (leaf_rewards(m, node_at(t, at), depth, rew, &exact) < 0)
		return -1;
	for (int i = 0; i <= depth; i++) {
		struct node *nd = node_at(t, path[i]);
		nd->visits++;
		if (nd->who != NOBODY)
			nd->q += (float)(rew[nd->who] - nd->q) / nd->visits;
		nd->rs = (float)num_rsqrt_n(nd->visits);
	}
	if (proved)
		prove_up(t, path, depth);
	if (m->im)
		im_back(m, path, depth);
	if (m->np == 1) {
		if (t->rn == 0 || rew[0] < t->lo)
			t->lo = rew[0];
		if (t->rn == 0 || rew[0] > t->hi)
			t->hi = rew[0];
	}
	if (!exact) {
		for (int p = 0; p < m->np; p++)
			t->r1 += rew[p], t->r2 += rew[p] * rew[p], t->rn++;
		if (((long)t->rn & (EXPLORE_EVERY - 1)) < m->np)
			t->explore = explore_for(t, m->np);
	}
	m->iters++;
	return 0;
}

/* ---- one iteration on a shared tree ---- */

/* The same as iterate, for threads that share the tree (mcts_team.c):
 * the fields others change (a node's visits, q, rs, tried, child and
 * flags; the pool's use; the exploration constant) are read and written
 * atomically, a leaf is grown by the thread that claims it (expand), and
 * each visit counts at once as a loss, until its playout's result
 * replaces it, so that the threads spread over the tree (a virtual loss).
 * A mean can lose a result when two threads update it at the same moment;
 * it is a mean of many.  First visits go in the order of the children,
 * which were shuffled when the node grew.
 *
 * A busy node (BUSY visits or more), which every thread passes at almost
 * every iteration, gets no virtual loss (one visit more would not change
 * the choice there): each thread holds its visits to it back in a slot of
 * its own and adds them in batches of up to 1 / 2^BATCH_SHIFT of the
 * node's visits (hold_visit), and at such a node it follows the child its
 * last scan chose for LAZY_SKIP more visits, as select_child does from
 * LAZY_FROM visits on (select_busy).  Each write to a node shared by two
 * cores moves its cache line from one to the other; with the visits at
 * the busy top of the tree added one by one, two threads on checkertoe
 * ran slower than one (docs/benchmarks.md, "Threads"). */

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

/* A busy node's visits are added to it a batch at a time (see
 * iterate_shared): up to 1 / 2^BATCH_SHIFT of them. */
static void flush_one(struct mcts *m, struct pending *p)
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
static struct pending *slot(struct mcts *m, uint32_t at)
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
static void flush_pending(struct mcts *m)
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
static void hold_visit(struct mcts *m, uint32_t at, const double *rew)
{
	struct pending *p = slot(m, at);
	p->visits++;
	p->sum += p->who != NOBODY ? (float)rew[p->who] : 0;
	if (p->visits >= p->batch)
		flush_one(m, p);
}

/* Adds this thread's reward statistics to the tree's (see explore_for),
 * under the tree's lock: they are sums, and the tree's explore follows
 * them. */
static void fold_rewards(struct mcts *m)
{
	struct mcts_tree *t = m->t;
	if (m->rn == 0)
		return;
	pthread_mutex_lock(m->lock);
	if (m->np == 1) {
		double lo = t->rn == 0 || m->lo < t->lo ? m->lo : t->lo;
		double hi = t->rn == 0 || m->hi > t->hi ? m->hi : t->hi;
		__atomic_store(&t->lo, &lo, __ATOMIC_RELAXED);
		__atomic_store(&t->hi, &hi, __ATOMIC_RELAXED);
	}
	t->r1 += m->r1, t->r2 += m->r2, t->rn += m->rn;
	double explore = explore_for(t, m->np);
	__atomic_store(&t->explore, &explore, __ATOMIC_RELAXED);
	pthread_mutex_unlock(m->lock);
	m->r1 = m->r2 = m->rn = 0;
}

/* select_child on a shared tree. */
static uint32_t select_shared(struct mcts *m, struct node *nd)
{
	struct mcts_tree *t = m->t;
	uint32_t first = child_of(nd);
	struct node *c = node_at(t, first);
	int n = nd->nchild;
	if (kind(nd) == CHANCE) {
		double n1 = (double)ld_u(&nd->visits) + 1, best = -1e300;
		int bi = 0;
		for (int i = 0; i < n; i++) {
			double d = c[i].q * n1 - ld_u(&c[i].visits);
			if (d > best)
				best = d, bi = i;
		}
		return first + (uint32_t)bi;
	}
	uint16_t i = __atomic_load_n(&nd->tried, __ATOMIC_RELAXED);
	while (i < n)
		if (__atomic_compare_exchange_n(
			    &nd->tried, &i, (uint16_t)(i + 1), 1,
			    __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
			if (!(flags_of(&c[i]) & F_BANNED) &&
			    (m->ignore_proofs || !lost(&c[i])))
				return first + i;
			i = __atomic_load_n(&nd->tried, __ATOMIC_RELAXED);
		}
	double lo, hi, explore;
	__atomic_load(&t->lo, &lo, __ATOMIC_RELAXED);
	__atomic_load(&t->hi, &hi, __ATOMIC_RELAXED);
	__atomic_load(&t->explore, &explore, __ATOMIC_RELAXED);
	float a = m->np == 1 && hi > lo ? (float)(1 / (hi - lo)) : 1;
	float k = (float)(explore * num_sqrtlog(ld_u(&nd->visits) + 1)),
	      best = -1e30f;
	int bi = -1;
	for (int j = 0; j < n; j++) {
		const struct node *cj = &c[j];
		uint8_t f = flags_of(cj);
		float u;
		if (f & (PROOF | F_BANNED)) {
			if (f & F_BANNED)
				continue;
			if (m->ignore_proofs) {
				u = a * ld_f(&cj->q) + k * ld_f(&cj->rs);
			} else {
				int r = result_for(proof_of(cj), cj->who);
				if (r < 0)
					continue;
				u = 0.5f * (float)(r + 1);
			}
		} else {
			u = a * im_mean(ld_f(&cj->q),
					m->im ? __atomic_load_n(
							&cj->im,
							__ATOMIC_RELAXED)
					      : 0) +
			    k * ld_f(&cj->rs);
		}
		if (u > best)
			best = u, bi = j;
	}
	return first + (uint32_t)(bi < 0 ? 0 : bi);
}

/* select_shared at a busy node (see BUSY): the child this thread chose
 * there last, for LAZY_SKIP visits after each scan, as select_child does
 * from LAZY_FROM visits on.  (The node's statistics change only when a
 * batch of visits is added.) */
static uint32_t select_busy(struct mcts *m, uint32_t at, struct node *nd)
{
	struct pending *p = slot(m, at);
	if (p->skip && !(flags_of(nd) & F_MIXED)) {
		p->skip--;
		return child_of(nd) + p->last;
	}
	uint32_t c = select_shared(m, nd);
	p->last = (uint16_t)(c - child_of(nd));
	p->skip = LAZY_SKIP;
	return c;
}

/* iterate on a shared tree.  Returns 1, doing nothing, when the root is
 * settled. */
static int iterate_shared(struct mcts *m)
{
	struct mcts_tree *t = m->t;
	uint32_t path[MAX_PATH];
	int depth = 0, exact = 0, proved = 0;
	double rew[GAME_MAX_PLAYERS] = {0};
	if (m->np == 2 && !m->ignore_proofs && proof_of(node_at(t, t->root)))
		return 1;
	game_copy(m->g, m->st, t->state);
	uint32_t at = t->root;
	path[0] = at;
	uint64_t held = 0; /* the levels whose visits are held back */
	if (ld_u(&node_at(t, at)->visits) >= BUSY)
		held = 1;
	else
		visit_shared(node_at(t, at));
	for (;;) {
		struct node *nd = node_at(t, at);
		if (depth > 0 && proof_of(nd) && !m->ignore_proofs)
			break;
		if (kind(nd) == LEAF) {
			/* (its visits count this one already) */
			if (depth > 0 &&
			    (ld_u(&nd->visits) - 1 - prior_of(t, nd) <
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
		uint32_t c = depth < 64 && held >> depth & 1
				     ? select_busy(m, at, nd)
				     : select_shared(m, nd);
		step_into(m, nd, c - child_of(nd), m->st);
		path[++depth] = at = c;
		if (depth < 64 && ld_u(&node_at(t, at)->visits) >= BUSY)
			held |= (uint64_t)1 << depth;
		else
			visit_shared(node_at(t, at));
	}
	int r = leaf_rewards(m, node_at(t, at), depth, rew, &exact);
	for (int i = 0; i <= depth; i++) {
		struct node *nd = node_at(t, path[i]);
		if (i < 64 && held >> i & 1) {
			if (r >= 0)
				hold_visit(m, path[i], rew);
		} else {
			settle_shared(nd, r < 0 ? NULL : rew);
		}
	}
	if (r < 0)
		return -1;
	if (proved)
		prove_up(t, path, depth);
	if (m->im)
		im_back(m, path, depth);
	if (m->np == 1) {
		if (m->rn == 0 || rew[0] < m->lo)
			m->lo = rew[0];
		if (m->rn == 0 || rew[0] > m->hi)
			m->hi = rew[0];
	}
	if (!exact) {
		for (int p = 0; p < m->np; p++)
			m->r1 += rew[p], m->r2 += rew[p] * rew[p], m->rn++;
		if (m->rn >= EXPLORE_EVERY)
			fold_rewards(m);
	}
	/* (read by the main search while it runs: team_iters) */
	__atomic_store_n(&m->iters, m->iters + 1, __ATOMIC_RELAXED);
	return 0;
}

/* ---- the search's course ---- */

void mcts_scratch_free(struct mcts_scratch *s)
{
	struct scratch *all[] = {
		&s->list,          &s->solve_list,   &s->values,
		&s->bounds,        &s->cls,          &s->prior,
		&s->states,        &s->reroot,       &s->margin_list,
		&s->margin_bounds, &s->margin_index, &s->margin_order,
		&s->pending};
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		scratch_free(all[i]);
}

/* The mean length in plies of up to 8 random games from the root.  It
 * stops early once their plies add up to more than `enough` (the mean is
 * then past enough / 8; with `whole`, the first game still runs to its
 * end) or the clock passes until_ms; a game cut short counts with the
 * plies it reached.  1e9 when the clock allowed none. */
static double game_length(struct mcts *m, double until_ms, double enough,
			  int whole)
{
	double sum = 0, saved = m->clock.deadline;
	int games = 0, cut = 0;
	if (m->clock.timed)
		m->clock.deadline = until_ms;
	while (games < 8 && sum <= enough && !cut) {
		if (games > 0 && tm_watched(&m->clock) &&
		    tm_out_of_time(&m->clock))
			break;
		memcpy(m->st, m->t->state, m->ss);
		int ply = 0;
		while (ply < MAX_PLAYOUT &&
		       ((whole && games == 0) || sum + ply <= enough)) {
			if (ply && tm_watched(&m->clock) &&
			    tm_out_of_time(&m->clock)) {
				cut = 1;
				break;
			}
			int j = random_plies(m, m->st, PLAYOUT_CHUNK);
			ply += j;
			if (j < PLAYOUT_CHUNK)
				break;
		}
		sum += ply;
		games++;
	}
	m->clock.deadline = saved;
	return sum > 0 ? sum / games : 1e9;
}

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
void make_room(struct mcts *m)
{
	struct mcts_tree *t = m->t;
	if (!tm_room_for(&m->clock, pool_compact_cost(t, t->used))) {
		m->grown = 1;
		return;
	}
	struct pool_stop stop = {tm_compaction_stop, &m->clock};
	m->clock.next_poll = 0; /* asked at once: a compaction is a long step */
	if (pool_compact(t, &stop))
		memset(m->lazy, 0, sizeof m->lazy); /* nodes were cut */
}

/* Runs iterations until the clock passes until_ms (when timed), iters
 * reaches until_iters (with a budget shared by a team of threads, the
 * team's playouts), or the engine says stop.  A full pool is compacted
 * between iterations. */
void mcts_run(struct mcts *m, double until_ms, long until_iters)
{
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
				make_room(m);
		}
		if (tm_time_to_stop(&m->clock))
			break;
		if (m->np == 2 && !m->ignore_proofs && !m->lock &&
		    proof_of(node_at(m->t, m->t->root)))
			break; /* settled: more iterations would only spin */
		if (m->tickets && !take_ticket(m->tickets, until_iters)) {
			m->spent = 1;
			break;
		}
		int r = m->lock ? iterate_shared(m) : iterate(m);
		if (r > 0)
			break; /* settled (on a shared tree) */
		if (r < 0) {
			m->aborted = 1;
			/* a playout cut short (the team stopped to compact the
			 * pool) leaves its ticket to the next phase */
			if (m->tickets)
				atomic_fetch_sub_explicit(m->tickets, 1,
							  memory_order_relaxed);
		}
		m->clock.since++;
	}
	if (m->lock) {
		flush_pending(m);
		fold_rewards(m);
	}
}

/* Whether the state bytes a and b are the same position. */
static int same_state(const struct mcts *m, const void *a, const void *b)
{
	return memcmp(a, b, m->ss) == 0;
}

/* Looks for st among the nodes exactly `depth` plies below `at` (whose
 * state is in m->st2 + ply * ss) while *budget plays last and the clock
 * allows; *found (NO_NODE: none yet) gets the most visited match (moves
 * can transpose: several may lead to st).  The child the last search
 * chose goes first, else the most visited, since the moves played are
 * most often the ones the search liked best (where a move costs much to
 * play, as Abs-Trac-Toe's bending lines do, the clock may allow only a
 * few). */
static void find_state(struct mcts *m, uint32_t at, const void *st, int ply,
		       int depth, long *budget, uint32_t *found)
{
	struct mcts_tree *t = m->t;
	unsigned char *here = m->st2 + (size_t)ply * m->ss;
	unsigned char *next = here + m->ss;
	const struct node *c = node_at(t, node_at(t, at)->child);
	int n = node_at(t, at)->nchild, best = 0;
	uint32_t first = node_at(t, at)->child;
	if (at == t->root && t->chosen >= first && t->chosen < first + n)
		best = (int)(t->chosen - first);
	else
		for (int i = 1; i < n; i++)
			if (c[i].visits > c[best].visits)
				best = i;
	for (int k = -1; k<n && * budget> 0; k++) {
		int i = k < 0 ? best : k;
		if (k == best)
			continue;
		if (depth > 1 && !c[i].nchild)
			continue;
		if ((--*budget & 63) == 0 && m->clock.timed &&
		    ai_now_ms() > m->clock.deadline)
			*budget = 0;
		memcpy(next, here, m->ss);
		step_into(m, node_at(t, at), (uint32_t)i, next);
		uint32_t ci = node_at(t, at)->child + (uint32_t)i;
		if (depth > 1)
			find_state(m, ci, st, ply + 1, depth - 1, budget,
				   found);
		else if (same_state(m, next, st) &&
			 (*found == NO_NODE ||
			  node_at(t, ci)->visits > node_at(t, *found)->visits))
			*found = ci;
	}
}

/* Plies searched below the old root for the new one: a move of each
 * player and the dice between them. */
#define REROOT_DEPTH (2 * GAME_MAX_PLAYERS)

/* Sets the tree up for a search of st.  A clock-bound search (`keep`)
 * goes on with the part of the kept tree below st, when st is its root or
 * a few plies below it (the rest is dropped when the pool is next
 * compacted); otherwise the tree starts empty.  Returns 0, or -1 when there
 * is no memory for it. */
static int reroot(struct mcts *m, const void *st, int keep)
{
	struct mcts_tree *t = m->t;
	t->info.reused = 0;
	t->info.collections = 0;
	int have = 0;
	uint32_t found = NO_NODE;
	m->moved = -1;
	if (keep && t->kept && t->g == m->g && t->pool) {
		if (same_state(m, t->state, st)) {
			found = t->root, have = 1;
			m->moved = 0;
		} else {
			unsigned char *stack = scratch_get(
				&m->sc->reroot, m->ss * (REROOT_DEPTH + 2));
			long budget = REROOT_PLAYS;
			if (stack) {
				m->st2 = stack;
				memcpy(stack, t->state, m->ss);
				/* the nearest first: a move or two below
				 * is the usual case */
				for (int d = 1; d <= REROOT_DEPTH &&
						found == NO_NODE && budget > 0;
				     d++) {
					find_state(m, t->root, st, 0, d,
						   &budget, &found);
					m->moved = d;
				}
				have = found != NO_NODE;
			}
		}
	}
	if (t->state_cap < m->ss) {
		free(t->state);
		t->state = malloc(m->ss);
		t->state_cap = t->state ? m->ss : 0;
		have = 0;
	}
	if (!t->state || (!have && pool_clear(t) < 0))
		return -1;
	if (!have)
		m->moved = -1;
	if (have) {
		/* the old tree's rest is garbage: dropping it now costs little
		 * (compaction takes time by the nodes kept, guessed from the
		 * share of the visits kept) and spares the search a
		 * compaction of a full pool */
		double share = (double)node_at(t, found)->visits /
			       (node_at(t, t->root)->visits + 1);
		t->root = found;
		t->chosen = NO_NODE;
		t->info.reused = node_at(t, found)->visits;
		struct pool_stop stop = {tm_compaction_stop, &m->clock};
		if (t->used > t->cap / 2 &&
		    (!m->clock.timed ||
		     ai_now_ms() + pool_compact_cost(t, share * t->used) <
			     m->tidy_until))
			pool_compact(t, &stop);
	}
	memcpy(t->state, st, m->ss);
	t->g = m->g;
	t->kept = keep;
	return 0;
}

/* Gives the root its children when it has none yet, making room in a
 * full pool first.  Returns 0, or -1 when it cannot. */
int mcts_root_ready(struct mcts *m)
{
	struct mcts_tree *t = m->t;
	if (kind(node_at(t, t->root)) != LEAF)
		return 0;
	if (expand(m, t->root, t->state, 1) == 0)
		return 0;
	if (!t->full)
		return -1;
	pool_compact(t, NULL); /* not stopped: the root needs its children */
	return expand(m, t->root, t->state, 1);
}

/* m's scratch space, from ctx.  Returns 0, or -1 when out of memory. */
static int scratch(struct mcts *m)
{
	size_t nm = (size_t)m->g->max_moves;
	m->st = scratch_get(&m->sc->states, 2 * m->ss);
	m->cls = scratch_get(&m->sc->cls, nm);
	m->prior = scratch_get(&m->sc->prior, sizeof *m->prior * nm);
	m->list = scratch_get(&m->sc->list, sizeof *m->list * nm);
	if (!m->st || !m->cls || !m->prior || !m->list)
		return -1;
	m->st2 = m->st + m->ss;
	return 0;
}

/* Sets up a search of st: scratch buffers and the tree (looking for st in
 * the kept tree until give_up, an ai_now_ms() time, and compacting it
 * until tidy_until; 0: no limit).  Returns 0, or -1 when there is no
 * room. */
int mcts_start(struct mcts *m, struct mcts_tree *t, const struct mcts_kit *kit,
	       const struct game *g, const void *st,
	       const struct ai_search *how, struct rng *r, double give_up,
	       double tidy_until)
{
	team_settle(t); /* (a stopped search's helpers) */
	num_init();
	*m = (struct mcts){0};
	m->t = t;
	m->sc = kit->scratch;
	m->solver = kit->solver;
	m->g = g;
	m->how = how;
	m->r = r;
	ai_players_of(g, st, &m->pl);
	m->np = m->pl.n;
	int im = m->np == 2 && game_search(g)->evaluate && !g->chance &&
		 game_search(g)->minimax_eval &&
		 game_search(g)->minimax_eval(st);
	/* a node's minimax value and its lazy scan's last child share their
	 * bits: a tree searched without the values cannot be searched with
	 * them.  (The other way round it can, and is in Take It Away, whose
	 * values stop once few pieces are left: a search with them keeps its
	 * lazy scans in m->lazy, and every node's `skip` stays 0.) */
	if (im && !t->im)
		t->kept = 0;
	m->im = t->im = im;
	/* the prior's weight is the tree's: a tree grown with another cannot
	 * be searched on */
	int prior = game_search(g)->evaluate && game_search(g)->prior_visits
			    ? game_search(g)->prior_visits(st)
			    : 0;
	uint32_t pv = prior <= 0          ? PRIOR_VISITS
		      : prior > PRIOR_MAX ? PRIOR_MAX
					  : (uint32_t)prior;
	if (pv != t->prior_visits)
		t->kept = 0;
	t->prior_visits = pv;
	m->ss = g->state_size;
	tm_watch_start(&m->clock, how->stop, how->ctx);
	m->clock.timed = give_up > 0; /* finding the new root may take long */
	m->clock.deadline = give_up;
	m->tidy_until = tidy_until;
	if (scratch(m) < 0)
		return -1;
	/* a playout budget means a search that depends on nothing earlier */
	int keep = how->playouts <= 0;
	if (!keep)
		solve_forget(m->solver);
	if (reroot(m, st, keep) < 0)
		return -1;
	t->info.iterations = 0;
	t->info.solver_ms = 0;
	return 0;
}

int pending_ready(struct mcts *m)
{
	m->pending = scratch_get(&m->sc->pending, sizeof *m->pending * PENDING);
	if (!m->pending)
		return -1;
	for (int i = 0; i < PENDING; i++)
		m->pending[i] = (struct pending){.node = UINT32_MAX};
	return 0;
}

int mcts_follow(struct mcts *m, const struct mcts *lead,
		struct mcts_scratch *sc, const struct ai_search *how,
		struct rng *r)
{
	*m = (struct mcts){0};
	m->t = lead->t;
	m->sc = sc;
	m->g = lead->g;
	m->how = how;
	m->r = r;
	m->np = lead->np;
	m->pl = lead->pl;
	m->im = lead->im;
	m->ss = lead->ss;
	m->clock.look_every = m->clock.look_in = 1;
	m->clock.stop = how->stop;
	m->clock.ctx = how->ctx;
	m->lock = lead->lock;
	m->tickets = lead->tickets;
	m->grown = 1; /* the main search makes room (team_run) */
	return scratch(m) < 0 || pending_ready(m) < 0 ? -1 : 0;
}

/* ---- choosing ---- */

/* How much a root move is worth choosing: 0 set aside or proven lost, 1
 * open or a proven draw, 2 proven to win. */
static int standing(const struct node *c)
{
	if ((flags_of(c) & F_BANNED) || lost(c))
		return 0;
	if (!proof_of(c))
		return 1;
	return result_for(proof_of(c), c->who) > 0 ? 2 : 1;
}

/* Whether the root is proven lost for its mover. */
static int root_lost(const struct mcts *m)
{
	const struct node *root = node_at(m->t, m->t->root);
	return proof_of(root) && root->nchild &&
	       result_for(proof_of(root), node_at(m->t, root->child)->who) < 0;
}

/* standing() of root move i, one more for a proven win that ends the
 * game at once. */
static int rank_at_root(const struct mcts *m, int i)
{
	const struct node *root = node_at(m->t, m->t->root);
	int r = standing(node_at(m->t, root->child + (uint32_t)i));
	if (r != 2)
		return r;
	struct move mv;
	child_move(m->t, root, (uint32_t)i, &mv);
	memcpy(m->st2, m->t->state, m->ss);
	m->g->play(m->st2, &mv);
	return r + (m->g->status(m->st2).phase == GAME_OVER);
}

/* Root moves longest_fight looks at, the most visited first, and the
 * most replies it plays to each: a few thousand plays at most, so that
 * the move takes no measurable time more (a lost root is near the end,
 * where the lists are short anyway). */
#define HOLD_MOVES 8
#define HOLD_REPLIES 256

/* How long root move i holds out: 0 it loses at once, 1 the opponent can
 * win with its next move, 2 longer (or a roll comes first, or too many
 * replies to look at). */
static int holds_out(const struct mcts *m, int i)
{
	const struct game *g = m->g;
	struct move mv;
	child_move(m->t, node_at(m->t, m->t->root), (uint32_t)i, &mv);
	memcpy(m->st2, m->t->state, m->ss);
	g->play(m->st2, &mv);
	struct game_status s = g->status(m->st2);
	if (s.phase == GAME_OVER)
		return 0;
	if (s.phase != GAME_PLAY)
		return 2;
	int n = g->moves(m->st2, m->list);
	if (n > HOLD_REPLIES)
		return 2;
	for (int j = 0; j < n; j++) {
		memcpy(m->st, m->st2, m->ss);
		g->play(m->st, &m->list[j]);
		struct game_status r = g->status(m->st);
		if (r.phase == GAME_OVER && r.player == s.player)
			return 1;
	}
	return 2;
}

/* A root with nothing but proven losses: of the moves the solver left
 * standing, the most visited of those that hold out longest (holds_out),
 * among the HOLD_MOVES most visited.  The proofs carry no distance, and
 * where every playout is lost alike the visits say nothing either: the
 * search played a loss in one where a longer fight was open (test_ai
 * a_lost_root_holds_out), and a person playing it sees that at once. */
static int longest_fight(const struct mcts *m, int fallback)
{
	const struct node *root = node_at(m->t, m->t->root);
	const struct node *c = node_at(m->t, root->child);
	int seen[HOLD_MOVES], best = fallback, most = -1;
	for (int k = 0; k < HOLD_MOVES && most < 2; k++) {
		int pick = -1;
		for (int i = 0; i < root->nchild; i++) {
			int again = 0;
			for (int j = 0; j < k; j++)
				again |= seen[j] == i;
			if (!again && !(flags_of(&c[i]) & F_BANNED) &&
			    (pick < 0 ||
			     ld_u(&c[i].visits) > ld_u(&c[pick].visits)))
				pick = i;
		}
		if (pick < 0)
			break;
		seen[k] = pick;
		int h = holds_out(m, pick);
		if (h > most)
			best = pick, most = h;
	}
	return best;
}

/* The root move to play: the most visited of the moves of the best
 * standing (ties: the better mean).  Of the proven wins the solver left
 * standing alike (it found them equal, or had no time for the margins), a
 * win at once comes first, as the tree kept nothing else of such a root
 * before it kept every move for the solver (see decisive()); of nothing
 * but losses, one that holds out longest (longest_fight). */
static uint32_t best_child(const struct mcts *m)
{
	const struct mcts_tree *t = m->t;
	const struct node *root = node_at(t, t->root);
	const struct node *c = node_at(t, root->child);
	int best = 0, b = rank_at_root(m, 0);
	for (int i = 1; i < root->nchild; i++) {
		int a = rank_at_root(m, i);
		if (a != b) {
			if (a > b)
				best = i, b = a;
			continue;
		}
		double vi = ld_u(&c[i].visits), vb = ld_u(&c[best].visits);
		if (vi > vb || (vi == vb && vi != 0 &&
				mean(t, m->np, ld_f(&c[i].q)) >
					mean(t, m->np, ld_f(&c[best].q))))
			best = i;
	}
	if (b == 0 && m->np == 2)
		best = longest_fight(m, best);
	return root->child + (uint32_t)best;
}

/* The root move a level below the top plays (how->temper > 0): one of
 * the TEMPER_MOVES most visited moves of the best standing, drawn with
 * odds of visits^(1 / temper) (the Gumbel-max draw), so that a weaker
 * level plays a move its search liked, the best less often the hotter
 * it is.  By visits, not means: the means of the less visited moves are
 * the noisiest, and a draw by means picked the luckiest of them (Tiptoe
 * and Take It Away's top level then beat level 8 by +552 and +636 Elo,
 * docs/strength.md, "Levels").  A proven win is never passed over. */
#define TEMPER_MOVES 4

static uint32_t tempered_child(const struct mcts *m, double temper)
{
	uint32_t top = best_child(m);
	const struct mcts_tree *t = m->t;
	const struct node *root = node_at(t, t->root);
	int best = (int)(top - root->child);
	if (rank_at_root(m, best) != 1)
		return top; /* a proven win, or nothing but losses */
	/* the TEMPER_MOVES most visited of the open moves (the first of
	 * equals), most visited first */
	const struct node *c = node_at(t, root->child);
	int pick[TEMPER_MOVES], n = 0;
	uint32_t seen[TEMPER_MOVES]; /* their visits, read once */
	for (int i = 0; i < root->nchild; i++) {
		uint32_t vi = ld_u(&c[i].visits);
		if (vi < 1 || !standing(&c[i]) ||
		    (n == TEMPER_MOVES && vi <= seen[n - 1]))
			continue;
		int k = n < TEMPER_MOVES ? n++ : n - 1;
		for (; k > 0 && seen[k - 1] < vi; k--)
			pick[k] = pick[k - 1], seen[k] = seen[k - 1];
		pick[k] = i, seen[k] = vi;
	}
	double best_key = -1e300;
	for (int j = 0; j < n; j++) {
		int i = pick[j];
		double u = rng_unit(m->r);
		double key = num_log((double)seen[j]) / temper -
			     num_log(-num_log(u > 0 ? u : 1e-300));
		if (key > best_key)
			best_key = key, best = i;
	}
	return root->child + (uint32_t)best;
}

/* The real visits of the two most visited root moves still in the
 * running. */
static void top_two(const struct mcts *m, double *first, double *second)
{
	const struct mcts_tree *t = m->t;
	const struct node *root = node_at(t, t->root);
	const struct node *c = node_at(t, root->child);
	double a = 0, b = 0;
	for (int i = 0; i < root->nchild; i++) {
		if (flags_of(&c[i]) & F_BANNED || lost(&c[i]))
			continue;
		double v = (double)ld_u(&c[i].visits) - prior_of(t, &c[i]);
		if (v > a)
			b = a, a = v;
		else if (v > b)
			b = v;
	}
	*first = a, *second = b;
}

/* Runs a clock-bound search along its plan (timeman.c, tm_course). */
static void run_plan(struct mcts *m, const struct tm_plan *p, long budget)
{
	struct tm_course c;
	tm_course_start(&c, p, ai_now_ms(), team_iters(m));
	double first = 0, second = 0, until;
	while (!m->clock.stopped &&
	       tm_course_next(&c, ai_now_ms(), team_iters(m), first, second,
			      &until)) {
		team_run(m, until, budget);
		top_two(m, &first, &second);
	}
}

int mcts_choose(struct mcts_tree *t, const struct mcts_kit *kit,
		const struct game *g, const void *st,
		const struct ai_search *how, const struct ai_time *time,
		struct move *out)
{
	struct rng r;
	rng_seed(&r, how->seed);
	struct mcts m;
	struct solved sv;
	int room = solved_init(&sv, kit->scratch, g);
	struct tm_plan plan = tm_plan(g->players(st), time, 0, t->late);
	double give_up = tm_reroot_until(&plan, time->start);
	double tidy = tm_tidy_until(&plan, time->start);
	if (room < 0 ||
	    mcts_start(&m, t, kit, g, st, how, &r, give_up, tidy) < 0)
		return -1;
	m.clock.timed = plan.hard > 0;
	m.clock.deadline = m.clock.end = plan.hard;
	if (mcts_root_ready(&m) < 0) {
		/* more moves than a node holds */
		t->kept = 0;
		return ai_random_move(g, st, &r, m.list, out);
	}
	struct node *root = node_at(t, t->root);
	if (kind(root) != DECIDE)
		return -1;
	const char *why = NULL;
	long budget = how->playouts > 0 ? how->playouts : LONG_MAX;
	if (root->nchild == 1) {
		why = "only move";
	} else {
		/* a root the tree has proven still goes to the solver below,
		 * which keeps the best margin among the moves that keep the
		 * result (the tree's proofs know only win, draw and loss) */
		m.ignore_proofs = root_lost(&m);
		/* the helper threads (set threads) */
		team_start(&m);
		/* a first look: how long is the rest of the game?  (The
		 * search's own playouts may stop early at evaluate().) */
		double first = tm_first_look(&plan, time->start);
		double plies;
		if (!time->clock) {
			/* only "is the end near?" matters (see SOLVE_PLIES) */
			plies = game_length(&m, first, 8 * SOLVE_PLIES, 0);
		} else if (t->plies > 2 * SOLVE_PLIES && m.moved >= 0 &&
			   t->plies_age < 8) {
			/* the kept estimate, less the plies since */
			plies = t->plies - m.moved;
			t->plies_age++;
		} else {
			plies = game_length(&m, first, 512, 1);
			t->plies_age = 0;
		}
		t->plies = plies;
		if (time->fixed <= 0 && plan.hard > 0)
			plan = tm_plan(m.np, time, plies, t->late);
		team_run(&m, tm_warm_up(&plan, time->start), budget / 10 + 1);
		if (plies <= SOLVE_PLIES && !m.clock.stopped &&
		    !how->no_solver &&
		    (!m.clock.timed || ai_now_ms() < plan.soft)) {
			double share = plies <= 12 ? 0.7 : 0.35;
			double until =
				tm_solver_until(&plan, ai_now_ms(), share);
			long limit =
				how->playouts > 0
					? (long)(share * (double)how->playouts *
						 (plies + 1)) +
						  1
					: LONG_MAX;
			try_solve(&m, until, tm_margins_until(&plan, until),
				  limit, &sv);
		}
		root = node_at(t, t->root);
		int allowed = 0;
		const struct node *kids = node_at(t, root->child);
		for (int k = 0; k < root->nchild; k++)
			allowed += !(flags_of(&kids[k]) & F_BANNED) &&
				   !lost(&kids[k]);
		m.ignore_proofs = root_lost(&m);
		if (proof_of(root) && !m.ignore_proofs)
			why = "proven";
		else if (allowed == 1 && !m.clock.stopped)
			why = "one move left";
		else if (m.np != 2 && sv.done)
			why = "solved";
		else if (m.clock.timed)
			run_plan(&m, &plan, budget);
		else
			team_run(&m, 0, budget);
	}
	uint32_t chosen;
	if (why && !strcmp(why, "solved")) {
		/* max-n's choice is the solver's own */
		int bi = 0;
		for (int i = 1; i < sv.n; i++)
			if (sv.value[i] > sv.value[bi])
				bi = i;
		*out = sv.list[bi];
		int k = root_index(t, out);
		chosen = node_at(t, t->root)->child + (uint32_t)(k < 0 ? 0 : k);
	} else {
		chosen = how->temper > 0 && !why
				 ? tempered_child(&m, how->temper)
				 : best_child(&m);
		root = node_at(t, t->root);
		child_move(t, root, chosen - root->child, out);
	}
	if (m.clock.timed && !m.clock.stopped) {
		/* past the deadline of its last phase by preemption mostly */
		double late = ai_now_ms() - m.clock.deadline;
		t->late = tm_late(t->late, late);
	}
	t->info.iterations = team_iters(&m);
	t->info.settled = why != NULL;
	t->info.own = m.iters;
	t->info.threads = m.team ? t->ncrew + 1 : 1;
	t->info.planned = plan.hard > 0 ? plan.hard - time->start : 0;
	t->info.chosen = ld_u(&node_at(t, chosen)->visits);
	t->chosen = chosen;
	if (how->log)
		report_search(&m, chosen, &sv, why, &plan, how->log,
			      time->start);
	return 0;
}

/* ---- analyze and ponder ---- */

int mcts_analyze(struct mcts_tree *t, const struct mcts_kit *kit,
		 const struct game *g, const void *st,
		 const struct ai_search *how, double interval)
{
	struct rng r;
	rng_seed(&r, how->seed);
	struct mcts m;
	struct solved sv;
	int room = solved_init(&sv, kit->scratch, g);
	if (room < 0 || mcts_start(&m, t, kit, g, st, how, &r, 0, 0) < 0)
		return -1;
	if (mcts_root_ready(&m) < 0 || kind(node_at(t, t->root)) != DECIDE)
		return -1;
	if (tm_out_of_time(&m.clock))
		return 0; /* a line was already waiting */
	team_start(&m);
	double plies = game_length(&m, 0, 8 * SOLVE_PLIES, 0);
	struct text line;
	text_init(&line);
	for (int round = 0; !m.clock.stopped; round++) {
		double next = ai_now_ms() + interval;
		m.aborted = 0; /* an iteration the last interval cut short */
		/* near the end, the solver gets half of each interval until
		 * it finishes; its table makes each try cheaper */
		if (plies <= SOLVE_PLIES && !sv.done && round > 0 &&
		    !proof_of(node_at(t, t->root))) {
			double half = ai_now_ms() + interval / 2;
			try_solve(&m, half, half, LONG_MAX, &sv);
		}
		m.clock.timed = 1;
		m.clock.step = 0;
		team_run(&m, next, LONG_MAX);
		if (m.clock.stopped)
			break;
		while (ai_now_ms() < next && !tm_out_of_time(&m.clock))
			; /* nothing left to search: wait for the interval */
		if (m.clock.stopped)
			break;
		text_clear(&line);
		report_info(&m, &sv, &line);
		if (line.s && *line.s) /* nothing seen yet: no empty line */
			how->info(how->ctx, line.s);
	}
	text_free(&line);
	t->info.iterations = team_iters(&m);
	t->info.own = m.iters;
	t->info.threads = m.team ? t->ncrew + 1 : 1;
	return 0;
}

int mcts_ponder(struct mcts_tree *t, const struct mcts_kit *kit,
		const struct game *g, const void *st,
		const struct ai_search *how)
{
	struct rng r;
	rng_seed(&r, how->seed);
	struct mcts m;
	if (!how->stop || mcts_start(&m, t, kit, g, st, how, &r, 0, 0) < 0)
		return -1;
	if (mcts_root_ready(&m) < 0)
		return -1;
	/* the helper threads think on beside this one, stopped only while
	 * the pool is compacted */
	team_start(&m);
	team_launch(&m, 0, LONG_MAX);
	/* a proven or finished root has nothing left to learn */
	for (;;) {
		if (m.team)
			pthread_mutex_lock(m.lock);
		int done = proof_of(node_at(t, t->root)) ||
			   kind(node_at(t, t->root)) == END;
		int full = t->full;
		if (m.team)
			pthread_mutex_unlock(m.lock);
		if (m.clock.stopped || done)
			break;
		if (full && m.team && !m.grown) {
			team_join(&m);
			make_room(&m);
			team_launch(&m, 0, LONG_MAX);
		}
		m.aborted = 0;
		mcts_run(&m, 0, m.iters + 1024);
	}
	if (m.clock.stopped)
		team_release(&m); /* (a command waits on no helper) */
	else
		team_join(&m);
	t->info.iterations = team_iters(&m);
	t->info.own = m.iters;
	t->info.threads = m.team ? t->ncrew + 1 : 1;
	return 0;
}
