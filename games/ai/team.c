/* team.c: the search on every core (`set threads N`): the helper threads
 * of a player, which grow its tree beside its main search (team.h).
 *
 * Tree parallelism: the player has N - 1 helpers, each a thread with its
 * own scratch space, random stream and worker (worker.h), which grow the
 * one tree beside the main search, each phase of it (the search calls
 * team_run where one thread would run), and stop when it stops.  There is no
 * lock on the tree: the threads read and write the fields of a node that change
 * atomically, a leaf is grown by the thread that claims it, and a virtual loss
 * sends the others elsewhere while a line is played out (iterate.c, one
 * iteration path for one thread and for many).  An iteration is a few
 * microseconds here, so the threads meeting at the busy top of the tree would
 * spend most of it passing cache lines to each other: there each thread holds
 * its visits back and adds them in batches.
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
 * use the helpers' scratch (solve_job's crew), all on one table.
 * A playout budget is one counter for the whole team (take_ticket in
 * iterate.c): the threads together play exactly that many playouts, unless
 * stopped.  Threads are started for each phase and joined at its end
 * (tens of microseconds), so that the main search reads the tree alone
 * between phases.  A phase the engine's `stop` ends is the exception: its
 * move is chosen and answered while the helpers finish (team_release),
 * and the next entry to the tree waits for them (team_settle). */
#include "team.h"

#include <limits.h>
#include <stdlib.h>

#include "iterate.h"

/* One helper of a search: a thread with its own scratch space, random
 * stream and worker, on the main search's tree. */
struct helper {
	struct worker_scratch scratch;
	struct solve_scratch solver; /* for the solver's root split */
	struct worker m;
	struct rng r;
	pthread_t thread;
	double until;     /* the phase it runs: the main search's deadline */
	long until_iters; /* and its playout budget */
	int ready;        /* set up for this search */
	int running;      /* its thread runs */
};

struct team *team_new(int helpers)
{
	struct team *team = calloc(1, sizeof *team);
	if (!team)
		return NULL;
	team->crew = calloc((size_t)helpers, sizeof *team->crew);
	team->crew_solver = calloc((size_t)helpers, sizeof *team->crew_solver);
	if (!team->crew || !team->crew_solver) {
		team_free(team);
		return NULL;
	}
	for (int i = 0; i < helpers; i++)
		team->crew_solver[i] = &team->crew[i].solver;
	team->ncrew = helpers;
	return team;
}

void team_free(struct team *team)
{
	if (!team)
		return;
	team_settle(team);
	for (int i = 0; i < team->ncrew; i++) {
		worker_scratch_free(&team->crew[i].scratch);
		solve_scratch_free(&team->crew[i].solver);
	}
	free(team->crew);
	free(team->crew_solver);
	free(team);
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

void team_start(struct team *team, struct worker *m, uint64_t seed,
		long playouts)
{
	m->team = NULL;
	m->tickets = NULL;
	m->lock = NULL;
	if (!team || !team->ncrew || worker_share(m) < 0)
		return; /* the main thread searches alone */
	if (playouts > 0) {
		atomic_store(&team->tickets, 0);
		m->tickets = &team->tickets;
	}
	m->lock = &m->t->lock;
	for (int i = 0; i < team->ncrew; i++) {
		struct helper *h = &team->crew[i];
		rng_seed(&h->r, helper_seed(seed, i));
		h->ready = worker_follow(&h->m, m, &h->scratch, &h->r) == 0;
		h->m.clock.halt = &team->halt;
		h->running = 0;
	}
	m->team = team;
}

static void *helper_main(void *arg)
{
	struct helper *h = arg;
	worker_run(&h->m, h->until, h->until_iters);
	return NULL;
}

void team_launch(struct worker *m, double until_ms, long until_iters)
{
	struct team *team = m->team;
	if (!team)
		return;
	atomic_store(&team->halt, 0);
	m->spent = 0;
	team->tree = m->t;
	m->t->shared = 1;
	/* the pool may have been compacted since: no chunk is left */
	m->chunk_next = m->chunk_end = 0;
	for (int i = 0; i < team->ncrew; i++) {
		struct helper *h = &team->crew[i];
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
static void team_halt(struct worker *m)
{
	if (!m->spent)
		atomic_store(&m->team->halt, 1);
}

void team_settle(struct team *team)
{
	if (!team)
		return;
	for (int i = 0; i < team->ncrew; i++) {
		struct helper *h = &team->crew[i];
		if (h->running)
			pthread_join(h->thread, NULL);
		h->running = 0;
	}
	if (team->tree)
		team->tree->shared = 0;
	team->tree = NULL;
}

void team_join(struct worker *m)
{
	if (!m->team)
		return;
	team_halt(m);
	team_settle(m->team);
}

void team_release(struct worker *m)
{
	if (m->team)
		team_halt(m);
}

void team_run(struct worker *m, double until_ms, long until_iters)
{
	/* the pool is compacted only while the tree is the main search's
	 * alone: when it fills up, the main search leaves worker_run, the
	 * helpers are stopped, and the phase goes on after the compaction
	 * (worker_make_room gives up, and the tree stays full, when the
	 * search's time left is too short for one) */
	if (m->clock.stopped)
		return; /* (its helpers released: see team_release) */
	for (;;) {
		if (m->team && m->t->full && !m->grown)
			worker_make_room(m);
		team_launch(m, until_ms, until_iters);
		worker_run(m, until_ms, until_iters);
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

long team_iters(const struct worker *m)
{
	long n = m->iters;
	for (int i = 0; m->team && i < m->team->ncrew; i++)
		if (m->team->crew[i].ready)
			n += __atomic_load_n(&m->team->crew[i].m.iters,
					     __ATOMIC_RELAXED);
	return n;
}

int team_threads(const struct worker *m)
{
	return m->team ? m->team->ncrew + 1 : 1;
}
