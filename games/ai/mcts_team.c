/* mcts_team.c: the search on every core (`set threads N`).
 *
 * Root parallelism: the player's tree has N - 1 helpers, each a thread
 * with a tree of its own (and its own scratch space, in its tree's
 * context, and its own random stream), which search the same root side
 * by side with the main search, each phase of it (mcts.c calls team_run
 * where one thread would run), and stop when it stops.  Then the main
 * search reads every tree's root: a root move's visits and mean reward
 * are those of all the trees together (root_visits, root_q), and a move
 * proven in any tree is proven in the main one.  What the exact solver
 * finds at the root (mcts_solve.c, main thread only) goes to every tree.
 *
 * Why not one shared tree with virtual loss: every field of a node would
 * have to be read and written atomically, expansion and compaction
 * locked, and the first-visit shuffle and the lazy scan (mcts.c, LAZY_FROM)
 * made safe, on a 32-byte node that leaves no room for a lock.  Separate
 * trees share nothing while they search, so the threads never wait for
 * each other and a search on one thread is what it always was; the price
 * is that each tree is only as deep as its own playouts make it.
 *
 * Memory: the trees split the tree's part of `set hash` evenly (the
 * solver's table stays the main thread's).  A playout budget is one
 * counter for the whole team (take_ticket in mcts.c): the threads
 * together play exactly that many playouts, unless stopped.  Threads are
 * started for each phase and joined at its end (tens of microseconds),
 * so that the main search reads the trees only while no thread runs. */
#include "mcts.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

int team_resize(struct mcts_tree *t, int n, size_t share)
{
	team_free(t);
	if (n <= 1)
		return 0;
	struct helper *crew = calloc((size_t)n - 1, sizeof *crew);
	if (!crew)
		return -1;
	t->crew = crew;
	for (int i = 0; i < n - 1; i++) {
		crew[i].t = mcts_tree_new(share);
		if (!crew[i].t) {
			team_free(t);
			return -1;
		}
		t->ncrew = i + 1;
	}
	return 0;
}

void team_reset(struct mcts_tree *t, size_t share)
{
	for (int i = 0; i < t->ncrew; i++)
		mcts_tree_reset(t->crew[i].t, share);
}

void team_free(struct mcts_tree *t)
{
	for (int i = 0; i < t->ncrew; i++)
		mcts_tree_free(t->crew[i].t);
	free(t->crew);
	t->crew = NULL;
	t->ncrew = 0;
}

int mcts_tree_set_threads(struct mcts_tree *t, int n)
{
	int r = team_resize(t, n, t->total / (size_t)(n > 0 ? n : 1));
	mcts_tree_reset(t, t->total);
	return r;
}

/* A helper's seed: far from the main search's and from the others'. */
static uint64_t helper_seed(uint64_t seed, int i)
{
	uint64_t h = seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1));
	h ^= h >> 31;
	h *= 0x7fb5d329728ea185ULL;
	h ^= h >> 27;
	h *= 0x81dadef4bc2dd44dULL;
	return h ^ (h >> 33);
}

/* The slot of move mv in the main root's index (see root_index_build). */
static uint64_t move_hash(const struct move *mv)
{
	uint64_t h = 0;
	for (int w = 0; w < MOVE_WORDS; w++) {
		h = (h ^ mv->w[w]) * 0xbf58476d1ce4e5b9ULL;
		h ^= h >> 29;
	}
	return h;
}

/* The main root's children by move, in m->index (open addressing,
 * m->index_mask + 1 slots, -1 empty), so that the helpers' root moves
 * find theirs in a step whatever their order. */
static void root_index_build(struct mcts *m)
{
	const struct node *root = node_at(m->t, m->t->root);
	memset(m->index, 0xff, sizeof *m->index * (m->index_mask + 1));
	for (uint32_t k = 0; k < root->nchild; k++) {
		struct move mv;
		child_move(m->t, root, k, &mv);
		size_t i = move_hash(&mv) & m->index_mask;
		while (m->index[i] >= 0)
			i = (i + 1) & m->index_mask;
		m->index[i] = (int32_t)k;
	}
}

/* The main root's child with move mv, or -1. */
static int root_find(const struct mcts *m, const struct move *mv)
{
	const struct node *root = node_at(m->t, m->t->root);
	for (size_t i = move_hash(mv) & m->index_mask; m->index[i] >= 0;
	     i = (i + 1) & m->index_mask) {
		struct move c;
		child_move(m->t, root, (uint32_t)m->index[i], &c);
		if (move_equal(&c, mv))
			return m->index[i];
	}
	return -1;
}

void team_start(struct mcts *m, const void *st, double give_up,
		double tidy_until)
{
	struct mcts_tree *t = m->t;
	m->team = 0;
	m->merged = 0;
	m->tickets = NULL;
	if (!t->ncrew)
		return;
	const struct node *root = node_at(t, t->root);
	size_t n = root->nchild, slots = 16;
	while (slots < 2 * n)
		slots *= 2;
	unsigned char *mem =
		ai_scratch(t->ctx, AI_TEAM,
			   2 * sizeof(double) * n + sizeof(int32_t) * slots);
	if (!mem)
		return; /* the main thread searches alone */
	m->mvis = (double *)mem;
	m->mq = m->mvis + n;
	m->index = (int32_t *)(m->mq + n);
	m->index_mask = slots - 1;
	root_index_build(m);
	if (m->how->playouts > 0) {
		atomic_store(&t->tickets, 0);
		m->tickets = &t->tickets;
	}
	for (int i = 0; i < t->ncrew; i++) {
		struct helper *h = &t->crew[i];
		h->how = *m->how;
		h->how.stop =
			NULL; /* the engine's input is the main thread's */
		h->how.info = NULL;
		h->how.ctx = NULL;
		h->how.log = NULL;
		h->how.seed = helper_seed(m->how->seed, i);
		rng_seed(&h->r, h->how.seed);
		h->ready = mcts_start(&h->m, h->t, m->g, st, &h->how, &h->r,
				      give_up, tidy_until) == 0 &&
			   mcts_root_ready(&h->m) == 0 &&
			   kind(node_at(h->t, h->t->root)) == DECIDE;
		h->m.halt = &t->halt;
		h->m.tickets = m->tickets;
		h->running = 0;
	}
	m->team = 1;
}

static void *helper_main(void *arg)
{
	struct helper *h = arg;
	mcts_run(&h->m, h->until, h->until_iters);
	return NULL;
}

void team_launch(struct mcts *m, double until_ms, long until_iters)
{
	if (!m->team)
		return;
	struct mcts_tree *t = m->t;
	atomic_store(&t->halt, 0);
	m->spent = 0;
	for (int i = 0; i < t->ncrew; i++) {
		struct helper *h = &t->crew[i];
		if (!h->ready)
			continue;
		h->m.stopped = 0; /* the last phase's halt */
		h->m.timed = m->timed;
		h->m.ignore_proofs = m->ignore_proofs;
		h->until = until_ms;
		h->until_iters = m->tickets ? until_iters : LONG_MAX;
		/* a thread that cannot start leaves its share to the others */
		h->running =
			pthread_create(&h->thread, NULL, helper_main, h) == 0;
	}
}

/* The whole team's view of the root (see root_visits), and the proofs
 * of the helpers' trees in the main one. */
static void merge(struct mcts *m)
{
	struct mcts_tree *t = m->t;
	struct node *root = node_at(t, t->root);
	struct node *kids = node_at(t, root->child);
	int n = root->nchild, proved = 0;
	for (int k = 0; k < n; k++) {
		m->mvis[k] = kids[k].visits;
		m->mq[k] = (double)kids[k].q * kids[k].visits;
	}
	for (int i = 0; i < t->ncrew; i++) {
		struct helper *h = &t->crew[i];
		if (!h->ready)
			continue;
		const struct node *hr = node_at(h->t, h->t->root);
		const struct node *hk = node_at(h->t, hr->child);
		for (uint32_t j = 0; j < hr->nchild; j++) {
			struct move mv;
			child_move(h->t, hr, j, &mv);
			int k = root_find(m, &mv);
			if (k < 0)
				continue;
			double real = hk[j].visits - hk[j].virt;
			m->mvis[k] += real;
			m->mq[k] += (double)hk[j].q * real;
			if (proof_of(&hk[j]) && !proof_of(&kids[k])) {
				set_proof(&kids[k], proof_of(&hk[j]));
				root->flags |= F_MIXED;
				proved = 1;
			}
		}
	}
	for (int k = 0; k < n; k++)
		m->mq[k] = m->mvis[k] > 0 ? m->mq[k] / m->mvis[k] : kids[k].q;
	if (proved && m->np == 2)
		try_prove(t, root);
	m->merged = 1;
}

void team_join(struct mcts *m)
{
	if (!m->team)
		return;
	struct mcts_tree *t = m->t;
	/* a budget the team used up ends each thread after the playout it
	 * plays (halting them would cut that playout short) */
	if (!m->spent)
		atomic_store(&t->halt, 1);
	for (int i = 0; i < t->ncrew; i++) {
		struct helper *h = &t->crew[i];
		if (h->running)
			pthread_join(h->thread, NULL);
		h->running = 0;
	}
	merge(m);
}

void team_run(struct mcts *m, double until_ms, long until_iters)
{
	team_launch(m, until_ms, until_iters);
	mcts_run(m, until_ms, until_iters);
	team_join(m);
}

void team_share(struct mcts *m)
{
	if (!m->team)
		return;
	struct mcts_tree *t = m->t;
	const struct node *root = node_at(t, t->root);
	const struct node *kids = node_at(t, root->child);
	for (int i = 0; i < t->ncrew; i++) {
		struct helper *h = &t->crew[i];
		if (!h->ready)
			continue;
		struct node *hr = node_at(h->t, h->t->root);
		struct node *hk = node_at(h->t, hr->child);
		for (uint32_t j = 0; j < hr->nchild; j++) {
			struct move mv;
			child_move(h->t, hr, j, &mv);
			int k = root_find(m, &mv);
			if (k < 0)
				continue;
			if (kids[k].flags & F_BANNED)
				hk[j].flags |= F_BANNED;
			if (proof_of(&kids[k]) && !proof_of(&hk[j]))
				set_proof(&hk[j], proof_of(&kids[k]));
		}
		hr->flags |= F_MIXED;
		if (m->np == 2)
			try_prove(h->t, hr);
	}
}

long team_iters(const struct mcts *m)
{
	long n = m->iters;
	for (int i = 0; m->team && i < m->t->ncrew; i++)
		if (m->t->crew[i].ready)
			n += m->t->crew[i].m.iters;
	return n;
}
