/* search.c: the course of one search (search.h): genmove's (search_choose),
 * analyze's and ponder's.
 *
 * A search sets the tree up for its position: a clock-bound one goes on
 * with the part of the kept tree below it (reroot), a playout-bound one
 * starts from nothing.  It takes a first look at how long the rest of the
 * game is, gives the tree the first tenth of its time, and when the game
 * is nearly over gives the exact solver a share (endgame.c: a root the
 * tree has proven too, since the proofs know only win, draw and loss and
 * the solver also the margin); what the solver settles about the root
 * moves becomes proofs, and the moves it shows worse are set aside.  The
 * rest of the time goes to the tree along the plan (timeman.c).  It stops
 * at once when the root is proven won or drawn; a lost root is searched
 * on as if nothing were proven, for the best chances against an opponent
 * who may err, and the move it plays holds out (results.c,
 * longest_fight).  The threads (team.c) grow the tree in every phase;
 * the time (timeman.c) says how long each phase runs. */
#include "search.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../util/numbers.h"
#include "expand.h"
#include "iterate.h"
#include "playout.h"
#include "results.h"

#define REROOT_PLAYS 4096 /* moves tried to find the new root in the tree */
#define SOLVE_PLIES 16    /* random games this short: the solver may try */

/* One search: the main thread's worker, the solver's share, and the
 * course's own state. */
struct search {
	struct search_kit *k;
	const struct ai_search *how;
	struct worker m; /* the main thread's */
	struct endgame e;
	struct rng r;
	int moved;         /* plies from the kept root to this one; -1: a
			    * new tree */
	double tidy_until; /* timed: when compacting at the start must end */
};

void search_kit_free(struct search_kit *k)
{
	team_free(k->team);
	tree_free(k->tree);
	solve_ctx_free(k->solver);
	worker_scratch_free(&k->scratch);
	endgame_scratch_free(&k->endgame);
	scratch_free(&k->candidates);
	*k = (struct search_kit){0};
}

void search_settle(struct search_kit *k)
{
	team_settle(k->team);
}

/* Whether the state bytes a and b are the same position. */
static int same_state(const struct worker *m, const void *a, const void *b)
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
static void find_state(struct worker *m, uint32_t at, const void *st, int ply,
		       int depth, long *budget, uint32_t *found)
{
	struct tree *t = m->t;
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
		node_step(t, m->g, node_at(t, at), (uint32_t)i, next);
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
static int reroot(struct search *s, const void *st, int keep)
{
	struct worker *m = &s->m;
	struct tree *t = m->t;
	s->k->info.reused = 0;
	t->collections = 0;
	int have = 0;
	uint32_t found = NO_NODE;
	s->moved = -1;
	if (keep && t->kept && t->g == m->g && t->pool) {
		if (same_state(m, t->state, st)) {
			found = t->root, have = 1;
			s->moved = 0;
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
					s->moved = d;
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
	if (!t->state || (!have && tree_clear(t) < 0))
		return -1;
	if (!have)
		s->moved = -1;
	if (have) {
		/* the old tree's rest is garbage: dropping it now costs little
		 * (compaction takes time by the nodes kept, guessed from the
		 * share of the visits kept) and spares the search a
		 * compaction of a full pool */
		double share = (double)node_at(t, found)->visits /
			       (node_at(t, t->root)->visits + 1);
		t->root = found;
		t->chosen = NO_NODE;
		s->k->info.reused = node_at(t, found)->visits;
		struct pool_stop stop = {tm_compaction_stop, &m->clock};
		if (t->used > t->cap / 2 &&
		    (!m->clock.timed ||
		     ai_now_ms() + pool_compact_cost(t, share * t->used) <
			     s->tidy_until))
			pool_compact(t, &stop);
	}
	memcpy(t->state, st, m->ss);
	t->g = m->g;
	t->kept = keep;
	return 0;
}

/* Sets a search of st up: the tree (looking for st in the kept tree until
 * give_up, an ai_now_ms() time, and compacting it until tidy_until; 0: no
 * limit), the main thread's worker, and the solver's share.  Returns 0,
 * or -1 when there is no room. */
static int start(struct search *s, struct search_kit *k, const struct game *g,
		 const void *st, const struct ai_search *how, double give_up,
		 double tidy_until)
{
	search_settle(k); /* (a stopped search's helpers) */
	num_init();
	s->k = k;
	s->how = how;
	rng_seed(&s->r, how->seed);
	struct tree *t = k->tree;
	expand_setup(t, g, st);
	struct worker *m = &s->m;
	if (worker_start(m, t, &k->scratch, g, st, &s->r, how->stop, how->ctx) <
	    0)
		return -1;
	m->clock.timed = give_up > 0; /* finding the new root may take long */
	m->clock.deadline = give_up;
	s->tidy_until = tidy_until;
	/* a playout budget means a search that depends on nothing earlier */
	int keep = how->playouts <= 0;
	if (!keep)
		solve_forget(k->solver);
	if (reroot(s, st, keep) < 0)
		return -1;
	struct endgame *e = &s->e;
	e->t = t;
	e->np = m->np;
	e->solver = k->solver;
	e->crews = k->team ? k->team->ncrew : 0;
	e->crew = k->team ? k->team->crew_solver : NULL;
	e->stop = how->stop;
	e->ctx = how->ctx;
	k->info.iterations = 0;
	k->info.solver_ms = 0;
	return 0;
}

/* Gives the root its children when it has none yet, making room in a
 * full pool first.  Returns 0, or -1 when it cannot. */
static int root_ready(struct search *s)
{
	struct worker *m = &s->m;
	struct tree *t = m->t;
	if (kind(node_at(t, t->root)) != LEAF)
		return 0;
	if (expand(m, t->root, t->state, 1) == 0)
		return 0;
	if (!t->full)
		return -1;
	pool_compact(t, NULL); /* not stopped: the root needs its children */
	return expand(m, t->root, t->state, 1);
}

/* Runs a clock-bound search along its plan (timeman.c, tm_course). */
static void run_plan(struct worker *m, const struct tm_plan *p, long budget)
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

/* A first look: how long is the rest of the game, in plies?  (The
 * search's own playouts may stop early at evaluate().)  Under a clock the
 * plan follows the answer. */
static double first_look(struct search *s, const struct ai_time *time,
			 struct tm_plan *plan)
{
	struct worker *m = &s->m;
	struct tree *t = m->t;
	double first = tm_first_look(plan, time->start);
	double plies;
	if (!time->clock) {
		/* only "is the end near?" matters (see SOLVE_PLIES) */
		plies = playout_game_length(m, first, 8 * SOLVE_PLIES, 0);
	} else if (t->plies > 2 * SOLVE_PLIES && s->moved >= 0 &&
		   t->plies_age < 8) {
		/* the kept estimate, less the plies since */
		plies = t->plies - s->moved;
		t->plies_age++;
	} else {
		plies = playout_game_length(m, first, 512, 1);
		t->plies_age = 0;
	}
	t->plies = plies;
	if (time->fixed <= 0 && plan->hard > 0)
		*plan = tm_plan(m->np, time, plies, s->k->late);
	return plies;
}

/* The exact solver's turn, near the end of the game (plies to go): a
 * share of the time, or of the playout budget's worth of nodes. */
static void endgame_turn(struct search *s, const struct tm_plan *plan,
			 double plies)
{
	long playouts = s->how->playouts;
	double share = plies <= 12 ? 0.7 : 0.35;
	double until = tm_solver_until(plan, ai_now_ms(), share);
	long limit =
		playouts > 0
			? (long)(share * (double)playouts * (plies + 1)) + 1
			: LONG_MAX;
	endgame_solve(&s->e, until, tm_margins_until(plan, until), limit);
}

/* Whether the root's choice is settled after the solver's turn: a proof,
 * a single move left standing, or (more than two players) the solver's
 * own choice. */
static enum ai_settled settled(struct search *s)
{
	struct worker *m = &s->m;
	const struct node *root = node_at(m->t, m->t->root);
	int allowed = 0;
	const struct node *kids = node_at(m->t, root->child);
	for (int k = 0; k < root->nchild; k++)
		allowed += !(flags_of(&kids[k]) & F_BANNED) && !lost(&kids[k]);
	m->ignore_proofs = root_lost(m);
	if (proof_of(root) && !m->ignore_proofs)
		return AI_PROVEN;
	if (allowed == 1 && !m->clock.stopped)
		return AI_ONE_LEFT;
	if (m->np != 2 && s->e.done)
		return AI_SOLVED;
	return AI_OPEN;
}

/* The search of a root with more than one move, along the plan; returns
 * what settled its choice early, if anything. */
static enum ai_settled think(struct search *s, const struct ai_time *time,
			     struct tm_plan *plan, long budget)
{
	struct worker *m = &s->m;
	const struct ai_search *how = s->how;
	/* a root the tree has proven still goes to the solver below, which
	 * keeps the best margin among the moves that keep the result (the
	 * tree's proofs know only win, draw and loss) */
	m->ignore_proofs = root_lost(m);
	/* the helper threads (set threads) */
	team_start(s->k->team, m, how->seed, how->playouts);
	double plies = first_look(s, time, plan);
	team_run(m, tm_warm_up(plan, time->start), budget / 10 + 1);
	if (plies <= SOLVE_PLIES && !m->clock.stopped && !how->no_solver &&
	    (!m->clock.timed || ai_now_ms() < plan->soft))
		endgame_turn(s, plan, plies);
	enum ai_settled why = settled(s);
	if (why != AI_OPEN)
		return why;
	if (m->clock.timed)
		run_plan(m, plan, budget);
	else
		team_run(m, 0, budget);
	return AI_OPEN;
}

/* The root move chosen, as the root's child, into *out too. */
static uint32_t pick(struct search *s, enum ai_settled why, struct move *out)
{
	struct worker *m = &s->m;
	struct tree *t = m->t;
	const struct endgame *e = &s->e;
	if (why == AI_SOLVED) {
		/* max-n's choice is the solver's own */
		int bi = 0;
		for (int i = 1; i < e->n; i++)
			if (e->value[i] > e->value[bi])
				bi = i;
		*out = e->list[bi];
		int k = tree_root_index(t, out);
		return node_at(t, t->root)->child + (uint32_t)(k < 0 ? 0 : k);
	}
	uint32_t chosen = s->how->temper > 0 && why == AI_OPEN
				  ? tempered_child(m, s->how->temper)
				  : best_child(m);
	const struct node *root = node_at(t, t->root);
	child_move(t, root, chosen - root->child, out);
	return chosen;
}

/* What search s found, into res: the effort, and the first `most`
 * candidates (none when most is 0). */
static void found(struct search *s, int most, struct ai_result *res)
{
	struct worker *m = &s->m;
	struct search_kit *k = s->k;
	*res = (struct ai_result){.source = AI_SEARCH, .level = s->how->level};
	res->playouts = team_iters(m);
	res->nodes = __atomic_load_n(&m->t->used, __ATOMIC_RELAXED);
	res->kept = k->info.reused;
	res->stopped = m->clock.stopped;
	res->solved = s->e.done;
	res->solver_nodes = s->e.nodes;
	struct ai_candidate *cand =
		most > 0 ? scratch_get(&k->candidates,
				       sizeof *cand * (size_t)most)
			 : NULL;
	if (cand) {
		res->n = results_candidates(m, &s->e, most, cand);
		res->cand = cand;
	}
}

int search_choose(struct search_kit *k, const struct game *g, const void *st,
		  const struct ai_search *how, const struct ai_time *time,
		  struct move *out, struct ai_result *res)
{
	struct search s;
	struct worker *m = &s.m;
	struct tm_plan plan = tm_plan(g->players(st), time, 0, k->late);
	if (endgame_init(&s.e, &k->endgame, g) < 0 ||
	    start(&s, k, g, st, how, tm_reroot_until(&plan, time->start),
		  tm_tidy_until(&plan, time->start)) < 0)
		return -1;
	struct tree *t = k->tree;
	m->clock.timed = plan.hard > 0;
	m->clock.deadline = m->clock.end = plan.hard;
	if (root_ready(&s) < 0) {
		/* more moves than a node holds */
		t->kept = 0;
		if (res)
			*res = (struct ai_result){.source = AI_QUIET,
						  .level = how->level};
		return ai_random_move(g, st, &s.r, m->list, out);
	}
	if (kind(node_at(t, t->root)) != DECIDE)
		return -1;
	long budget = how->playouts > 0 ? how->playouts : LONG_MAX;
	enum ai_settled why = node_at(t, t->root)->nchild == 1
				      ? AI_ONLY_MOVE
				      : think(&s, time, &plan, budget);
	uint32_t chosen = pick(&s, why, out);
	if (m->clock.timed && !m->clock.stopped) {
		/* past the deadline of its last phase by preemption mostly */
		double late = ai_now_ms() - m->clock.deadline;
		k->late = tm_late(k->late, late);
	}
	k->info.iterations = team_iters(m);
	k->info.settled = why != AI_OPEN;
	k->info.own = m->iters;
	k->info.threads = team_threads(m);
	k->info.planned = plan.hard > 0 ? plan.hard - time->start : 0;
	k->info.chosen = ld_u(&node_at(t, chosen)->visits);
	k->info.solver_ms = s.e.ms;
	t->chosen = chosen;
	if (res) {
		found(&s, how->info_moves, res);
		res->mv = *out;
		res->settled = why;
		res->flexible = plan.flexible;
		res->soft_ms = plan.soft - time->start;
		res->hard_ms = plan.hard - time->start;
		results_candidate(m, &s.e, chosen - node_at(t, t->root)->child,
				  &res->pick);
	}
	return 0;
}

int search_analyze(struct search_kit *k, const struct game *g, const void *st,
		   const struct ai_search *how, double interval)
{
	struct search s;
	struct worker *m = &s.m;
	if (endgame_init(&s.e, &k->endgame, g) < 0 ||
	    start(&s, k, g, st, how, 0, 0) < 0)
		return -1;
	struct tree *t = k->tree;
	if (root_ready(&s) < 0 || kind(node_at(t, t->root)) != DECIDE)
		return -1;
	if (tm_out_of_time(&m->clock))
		return 0; /* a line was already waiting */
	team_start(k->team, m, how->seed, how->playouts);
	double plies = playout_game_length(m, 0, 8 * SOLVE_PLIES, 0);
	int most = how->info_moves > 0 ? how->info_moves : AI_INFO_MOVES;
	for (int round = 0; !m->clock.stopped; round++) {
		double next = ai_now_ms() + interval;
		m->aborted = 0; /* an iteration the last interval cut short */
		/* near the end, the solver gets half of each interval until
		 * it finishes; its table makes each try cheaper */
		if (plies <= SOLVE_PLIES && !s.e.done && round > 0 &&
		    !proof_of(node_at(t, t->root))) {
			double half = ai_now_ms() + interval / 2;
			endgame_solve(&s.e, half, half, LONG_MAX);
		}
		m->clock.timed = 1;
		m->clock.step = 0;
		team_run(m, next, LONG_MAX);
		if (m->clock.stopped)
			break;
		while (ai_now_ms() < next && !tm_out_of_time(&m->clock))
			; /* nothing left to search: wait for the interval */
		if (m->clock.stopped)
			break;
		if (!how->info)
			continue; /* (tests that watch the tree alone) */
		struct ai_result res;
		found(&s, most, &res);
		if (res.n > 0) /* nothing seen yet: nothing to show */
			how->info(how->ctx, &res);
	}
	k->info.iterations = team_iters(m);
	k->info.own = m->iters;
	k->info.threads = team_threads(m);
	k->info.solver_ms = s.e.ms;
	return 0;
}

int search_ponder(struct search_kit *k, const struct game *g, const void *st,
		  const struct ai_search *how)
{
	struct search s;
	struct worker *m = &s.m;
	if (!how->stop || start(&s, k, g, st, how, 0, 0) < 0)
		return -1;
	struct tree *t = k->tree;
	if (root_ready(&s) < 0)
		return -1;
	/* the helper threads think on beside this one, stopped only while
	 * the pool is compacted */
	team_start(k->team, m, how->seed, how->playouts);
	team_launch(m, 0, LONG_MAX);
	/* a proven or finished root has nothing left to learn */
	for (;;) {
		if (m->team)
			pthread_mutex_lock(m->lock);
		int done = proof_of(node_at(t, t->root)) ||
			   kind(node_at(t, t->root)) == END;
		int full = t->full;
		if (m->team)
			pthread_mutex_unlock(m->lock);
		if (m->clock.stopped || done)
			break;
		if (full && m->team && !m->grown) {
			team_join(m);
			worker_make_room(m);
			team_launch(m, 0, LONG_MAX);
		}
		m->aborted = 0;
		worker_run(m, 0, m->iters + 1024);
	}
	if (m->clock.stopped)
		team_release(m); /* (a command waits on no helper) */
	else
		team_join(m);
	k->info.iterations = team_iters(m);
	k->info.own = m->iters;
	k->info.threads = team_threads(m);
	return 0;
}

void search_info(struct search_kit *k, struct search_info *out)
{
	search_settle(k);
	const struct tree *t = k->tree;
	*out = k->info;
	out->peak = t->peak;
	out->collections = t->collections;
	out->cap = tree_capacity(t);
	out->nodes = t->used;
	out->full = __atomic_load_n(&t->full, __ATOMIC_RELAXED) != 0;
	out->expand_at = t->expand_at;
	out->prior_visits = t->prior_visits;
	out->visits = t->pool ? node_at(t, t->root)->visits : 0;
}
