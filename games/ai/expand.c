/* expand.c: what a leaf of the search tree becomes when it grows: its
 * children (the moves, or the chance outcomes with their odds), what each
 * move does at once (a player always takes a win on the spot and avoids
 * a move that loses on the spot), their first values (the game's
 * judgement, a prior worth a few visits) and the proofs that follow
 * (expand.h). */
#include "expand.h"

#include <string.h>

#include "../util/numbers.h"

#define LINE_SAMPLES 24 /* moves drawn where moves cannot be listed */
/* The weight of evaluate() in a new node's value, in visits, unless the
 * game names its own (prior_visits).  At movetime 100, 7 against 4 scored
 * +38.4 Elo in Tiptoe 8x8 (55.5% of 400 games), +92.5 (+24.6 to +168.1)
 * in Tiptoe hex (100 games), +26.1 (-16.2 to +69.2) in Take It Away and
 * -10.4 (-59.1 to +37.9) in Take-Back-Toe (200 games each). */
#define PRIOR_VISITS 7
#define PRIOR_MAX 15 /* a game's own weight at most */
#define CHUNK 1024   /* nodes a thread of a shared tree takes at a time */

void expand_setup(struct tree *t, const struct game *g, const void *st)
{
	int im = g->players(st) == 2 && game_search(g)->evaluate &&
		 !g->chance && game_search(g)->minimax_eval &&
		 game_search(g)->minimax_eval(st);
	/* (a tree grown without the values has none in its nodes, and one
	 * grown with them keeps them for a search without: Take It Away's
	 * stop once few pieces are left) */
	t->im = im;
	/* the prior's weight is the tree's: a tree grown with another cannot
	 * be searched on */
	const struct game_search *gs = game_search(g);
	int prior = (gs->evaluate || gs->contents_table) && gs->prior_visits
			    ? gs->prior_visits(st)
			    : 0;
	uint32_t pv = prior < 0           ? 0 /* none */
		      : prior == 0        ? PRIOR_VISITS
		      : prior > PRIOR_MAX ? PRIOR_MAX
					  : (uint32_t)prior;
	if (pv != t->prior_visits)
		t->kept = 0;
	t->prior_visits = pv;
}

/* What a move does at once, in cls[]: 0 the game goes on, else 1 + the
 * winning team (1: a draw). */
#define CLS_OPEN 0

static unsigned char end_class(const struct worker *m, struct game_status cs)
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
static int decisive(struct worker *m, const void *st, int mover, int n)
{
	const struct game *g = m->g;
	int nwin = 0, nsafe = 0, own = 1 + m->pl.team[mover - 1];
	int judges = worker_judges(m) && m->t->prior_visits;
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
		/* (the game's preview judges by its evaluate(), not by a
		 * contents table) */
		if (!m->table && game_search(g)->preview &&
		    game_search(g)->preview(st, &m->list[i], &cs, val, pts) ==
			    0) {
			if (cs.phase == GAME_OVER)
				ai_reward_points(pts, cs, &m->pl, val);
		} else {
			game_copy(g, m->st2, st);
			g->play(m->st2, &m->list[i]);
			cs = g->status(m->st2);
			if (judges && cs.phase == GAME_OVER)
				ai_reward_at(g, m->st2, cs, &m->pl, val);
			else if (judges)
				worker_judge(m, m->st2, val);
		}
		cls[i] = end_class(m, cs);
		nwin += cls[i] == own;
		nsafe += cls[i] <= 1;
		if (judges)
			m->prior[i] = val[mover - 1];
	}
	m->have_prior = judges;
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
static int list_moves(struct worker *m, const void *st, int root, int *sampled)
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
static uint32_t node_alloc(struct worker *m, uint32_t n)
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

/* A random order of n children into m->order (the inside-out
 * Fisher-Yates shuffle): the first visits go in this order (iterate.c,
 * first_visit), and UCT picks among moves of equal priors by it, or every
 * node would try the first listed first.  Drawn here, once, so that
 * threads that share the tree need not move a node another may be
 * reading.  Each step takes 16 bits of a draw (multiply and shift: off
 * uniform by less than n / 65536, nothing to an order of first visits):
 * a draw a step, by rng_below, cost checkertoe 2% of its instructions an
 * iteration. */
static void shuffle(struct worker *m, int n)
{
	uint16_t *order = m->order;
	uint64_t bits = 0;
	for (int i = 0; i < n; i++) {
		if ((i & 3) == 0)
			bits = rng_next(m->r);
		uint32_t j =
			(uint32_t)((bits & 0xffff) * (uint32_t)(i + 1)) >> 16;
		bits >>= 16;
		order[i] = order[j];
		order[j] = (uint16_t)i;
	}
}

/* Gives the leaf `at`, a roll due at st, its chance outcomes with their
 * odds (grow). */
static int grow_chance(struct worker *m, uint32_t at, const void *st)
{
	struct tree *t = m->t;
	int values[GAME_MAX_CHANCE];
	double probs[GAME_MAX_CHANCE];
	int n = m->g->chance(st, values, probs);
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

/* Gives the leaf `at` its children or makes it a finished node (expand). */
static int grow(struct worker *m, uint32_t at, const void *st, int root)
{
	const struct game *g = m->g;
	struct tree *t = m->t;
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
	if (s.phase == GAME_ROLL)
		return grow_chance(m, at, st);
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
	/* the children in a random order (child i is move order[i]) */
	shuffle(m, n);
	struct node *c = node_at(t, first);
	for (int i = 0; i < n; i++) {
		int o = m->order[i];
		c[i].mv = m->list[o].w[0];
		if (wide)
			memcpy(&c[n + i], &m->list[o].w[1],
			       sizeof m->list[o].w - sizeof m->list[o].w[0]);
		c[i].who = (uint8_t)(s.player - 1);
		if (m->np == 2 && m->cls[o] != CLS_OPEN) {
			set_proof(&c[i], proof_of_end((struct game_status){
						 GAME_OVER, m->cls[o] - 1}));
			flags_change(node_at(t, at), 0, F_MIXED);
		}
		if (m->im) /* (a proven child's counts by its proof:
			    * im_of_children) */
			c[i].im = m->have_prior ? im_code(m->prior[o]) : 0;
		if (m->have_prior) {
			/* the game's judgement counts as a few visits, so that
			 * wide nodes try their promising moves first */
			c[i].virt = 1;
			c[i].visits = t->prior_visits;
			c[i].q = (float)m->prior[o];
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

int expand(struct worker *m, uint32_t at, const void *st, int root)
{
	if (!m->lock)
		return grow(m, at, st, root);
	/* a shared tree: the thread that claims the leaf grows it, and the
	 * others play out from it meanwhile (see team.c) */
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
