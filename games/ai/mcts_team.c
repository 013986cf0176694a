/* mcts_team.c: the search on every core (`set threads N`).
 *
 * Tree parallelism: the player's tree has N - 1 helpers, each a thread
 * with its own scratch space (a context of its own), random stream and
 * search, which grow the one tree beside the main search, each phase of
 * it (mcts.c calls team_run where one thread would run), and stop when it
 * stops.  There is no lock on the tree: the threads read and write the
 * fields of a node that change atomically, a leaf is grown by the thread
 * that claims it, and a virtual loss sends the others elsewhere while a
 * line is played out (iterate_shared in mcts.c).  An iteration is a few
 * microseconds here, so the threads meeting at the busy top of the tree
 * would spend most of it passing cache lines to each other: there each
 * thread holds its visits back and adds them in batches.
 *
 * A tree per thread, with the roots' visits summed (root parallelism),
 * was tried first: it scaled the playouts as well, but each tree was only
 * as deep as its own playouts made it, and at movetime 100 two threads
 * played no better than one (docs/strength.md, "Two threads against one").
 *
 * The pool is compacted only while the helpers are stopped: between
 * phases, and when it fills up during one (team_run stops the team,
 * compacts and starts it again).
 * The exact solver and the book run between phases, on the main thread;
 * the solver splits the root moves between it and threads of its own that
 * use the helpers' contexts (solve_job's crew), all on one table.
 * A playout budget is one counter for the whole team (take_ticket in
 * mcts.c): the threads together play exactly that many playouts, unless
 * stopped.  Threads are started for each phase and joined at its end
 * (tens of microseconds), so that the main search reads the tree alone
 * between phases.  A phase the engine's `stop` ends is the exception: its
 * move is chosen and answered while the helpers finish (team_release),
 * and the next entry to the tree waits for them (team_settle). */
#include "mcts.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

int team_resize(struct mcts_tree *t, int n)
{
	team_free(t);
	if (n <= 1)
		return 0;
	struct helper *crew = calloc((size_t)n - 1, sizeof *crew);
	t->crew_solver = calloc((size_t)n - 1, sizeof *t->crew_solver);
	if (!crew || !t->crew_solver) {
		free(crew);
		team_free(t);
		return -1;
	}
	t->crew = crew;
	for (int i = 0; i < n - 1; i++)
		t->crew_solver[i] = &crew[i].solver;
	t->ncrew = n - 1;
	return 0;
}

void team_free(struct mcts_tree *t)
{
	team_settle(t);
	for (int i = 0; i < t->ncrew; i++) {
		mcts_scratch_free(&t->crew[i].scratch);
		solve_scratch_free(&t->crew[i].solver);
	}
	free(t->crew);
	free(t->crew_solver);
	t->crew = NULL;
	t->crew_solver = NULL;
	t->ncrew = 0;
}

int mcts_tree_set_threads(struct mcts_tree *t, int n)
{
	int r = team_resize(t, n);
	mcts_tree_reset(t, t->bytes);
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

void team_start(struct mcts *m)
{
	struct mcts_tree *t = m->t;
	m->team = 0;
	m->tickets = NULL;
	m->lock = NULL;
	if (!t->ncrew || pending_ready(m) < 0)
		return; /* the main thread searches alone */
	if (m->how->playouts > 0) {
		atomic_store(&t->tickets, 0);
		m->tickets = &t->tickets;
	}
	m->lock = &t->lock;
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
		h->ready =
			mcts_follow(&h->m, m, &h->scratch, &h->how, &h->r) == 0;
		h->m.clock.halt = &t->halt;
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
	t->shared = 1;
	/* the pool may have been compacted since: no chunk is left */
	m->chunk_next = m->chunk_end = 0;
	for (int i = 0; i < t->ncrew; i++) {
		struct helper *h = &t->crew[i];
		if (!h->ready)
			continue;
		h->m.clock.stopped = 0; /* the last phase's halt */
		h->m.chunk_next = h->m.chunk_end = 0;
		h->m.clock.timed = m->clock.timed;
		h->m.ignore_proofs = m->ignore_proofs;
		h->until = until_ms;
		h->until_iters = m->tickets ? until_iters : LONG_MAX;
		/* a thread that cannot start leaves its share to the others */
		h->running =
			pthread_create(&h->thread, NULL, helper_main, h) == 0;
	}
}

/* Tells the team to end its phase: after the playout each plays when a
 * budget the team used up ended it (halting them would cut that playout
 * short), else at once. */
static void team_halt(struct mcts *m)
{
	if (!m->spent)
		atomic_store(&m->t->halt, 1);
}

void team_settle(struct mcts_tree *t)
{
	for (int i = 0; i < t->ncrew; i++) {
		struct helper *h = &t->crew[i];
		if (h->running)
			pthread_join(h->thread, NULL);
		h->running = 0;
	}
	t->shared = 0;
}

void team_join(struct mcts *m)
{
	if (!m->team)
		return;
	team_halt(m);
	team_settle(m->t);
}

void team_release(struct mcts *m)
{
	if (m->team)
		team_halt(m);
}

void team_run(struct mcts *m, double until_ms, long until_iters)
{
	/* the pool is compacted only while the tree is the main search's
	 * alone: when it fills up, the main search leaves mcts_run, the
	 * helpers are stopped, and the phase goes on after the compaction
	 * (make_room gives up, and the tree stays full, when the search's
	 * time left is too short for one) */
	if (m->clock.stopped)
		return; /* (its helpers released: see team_release) */
	for (;;) {
		if (m->team && m->t->full && !m->grown)
			make_room(m);
		team_launch(m, until_ms, until_iters);
		mcts_run(m, until_ms, until_iters);
		if (m->clock.stopped) {
			/* the engine's stop: answered without waiting for
			 * the helpers (see team_release) */
			team_release(m);
			return;
		}
		team_join(m);
		if (!m->for_room || (until_ms > 0 && ai_now_ms() >= until_ms))
			return;
	}
}

long team_iters(const struct mcts *m)
{
	long n = m->iters;
	for (int i = 0; m->team && i < m->t->ncrew; i++)
		if (m->t->crew[i].ready)
			n += __atomic_load_n(&m->t->crew[i].m.iters,
					     __ATOMIC_RELAXED);
	return n;
}
