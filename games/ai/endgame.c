/* endgame.c: the exact solver's share of a search (endgame.h): its
 * verdict on the root moves, and what the tree makes of it (proofs, the
 * moves set aside, the margins). */
#include "endgame.h"

#include <string.h>

#include "timeman.h"

void endgame_scratch_free(struct endgame_scratch *s)
{
	scratch_free(&s->list);
	scratch_free(&s->values);
	scratch_free(&s->bounds);
	scratch_free(&s->margin_list);
	scratch_free(&s->margin_bounds);
	scratch_free(&s->margin_index);
	scratch_free(&s->margin_order);
}

int endgame_init(struct endgame *e, struct endgame_scratch *sc,
		 const struct game *g)
{
	*e = (struct endgame){0};
	e->sc = sc;
	e->g = g;
	e->list = scratch_get(&sc->list, sizeof *e->list * g->max_moves);
	e->value = scratch_get(&sc->values, sizeof *e->value * g->max_moves);
	e->bound = scratch_get(&sc->bounds, sizeof *e->bound * g->max_moves);
	return e->list && e->value && e->bound ? 0 : -1;
}

const int *endgame_value(const struct endgame *e, const struct move *mv)
{
	if (!e->done)
		return NULL;
	for (int i = 0; i < e->n; i++)
		if (move_equal(&e->list[i], mv))
			return &e->value[i];
	return NULL;
}

/* The solver's job for e: until the clock passes `until` (0: no clock) or
 * `limit` nodes, watching the engine's input, split among the player's
 * helpers (set threads). */
static struct solve_job job_for(const struct endgame *e, enum solve_want want,
				double until, long limit)
{
	return (struct solve_job){.want = want,
				  .deadline_ms = until,
				  .node_limit = limit,
				  .stop = e->stop,
				  .ctx = e->ctx,
				  .crews = e->crews,
				  .crew = e->crew};
}

/* Two players: turns the solver's results (1 win, 0 draw, -1 loss) into
 * values on its own scale (SOLVE_RESULT times the result), and where the
 * budget allows settles the margin among the moves of the best result, so
 * that the others of those fall below it: the tree's proofs know only win,
 * draw and loss, and the score decides the rest (the biggest win, the
 * smallest loss).  When the budget runs out first, each of those moves is
 * worth what the solver proved it gets at least: as a search cut short
 * keeps its best move so far, the moves settled (the tree's favourites,
 * which it takes first) outrank the ones it did not reach.  The tree, left
 * to choose among proven wins, hardly tells a win by 27 points from one by
 * 30 (Take It Away's endgames at 1 s, on the same 137 positions: the best
 * margin in 96.4 and 95.6% of them, against 92.0 and 93.4% when the
 * results stood alone). */
static void add_margins(struct endgame *e, double until, long limit)
{
	int best = -1;
	for (int i = 0; i < e->n; i++) {
		if (e->value[i] > best)
			best = e->value[i];
		e->value[i] *= SOLVE_RESULT;
	}
	struct move *list =
		scratch_get(&e->sc->margin_list, sizeof *list * (size_t)e->n);
	struct solve_bound *b =
		scratch_get(&e->sc->margin_bounds, sizeof *b * (size_t)e->n);
	int *at = scratch_get(&e->sc->margin_index, sizeof *at * (size_t)e->n);
	double *visits = scratch_get(&e->sc->margin_order,
				     sizeof *visits * (size_t)e->n);
	if (!list || !b || !at || !visits)
		return;
	int n = 0;
	for (int i = 0; i < e->n; i++)
		if (e->value[i] == best * SOLVE_RESULT) {
			at[n] = i;
			list[n++] = e->list[i];
		}
	if (n < 2)
		return;
	/* the tree's favourites first: cut short, the solver has settled the
	 * moves the search liked best */
	const struct node *root = node_at(e->t, e->t->root);
	for (int j = 0; j < n; j++) {
		int k = tree_root_index(e->t, &list[j]);
		visits[j] = k < 0 ? 0
				  : node_at(e->t, root->child + (uint32_t)k)
					    ->visits;
	}
	struct solve_job job = job_for(e, SOLVE_MARGIN, until, limit);
	job.order = visits;
	int done = solve_moves(e->solver, e->g, e->t->state, list, n, &job, b);
	e->nodes += job.nodes;
	/* settled: each exact, or shown below the best; cut short: what was
	 * proven, and never less than the least value of their result (a move
	 * the solver did not reach again keeps the result it was proven to
	 * have) */
	int least = solve_class_lo(best * SOLVE_RESULT);
	for (int j = 0; j < n; j++) {
		int lo = b[j].lo > least ? b[j].lo : least;
		e->value[at[j]] = done ? b[j].hi : lo;
	}
}

/* Two players, a solver cut short: sets aside the root moves whose result
 * it proved worse than another's (a loss where a move is proven to draw).
 * The moves it settled are often all but a few: in a Take It Away endgame
 * at 1 s, of 15 losing moves and 3 drawing ones, it had shown 13 lost and
 * two or three drawn when time ran out, and the tree, left to itself,
 * played one of the 13. */
static void set_aside(struct endgame *e)
{
	int floor = -1; /* the best result some move is proven to reach */
	for (int i = 0; i < e->n; i++)
		if (solve_result(e->bound[i].lo) > floor)
			floor = solve_result(e->bound[i].lo);
	struct node *root = node_at(e->t, e->t->root);
	for (int i = 0; i < e->n; i++) {
		int k = solve_result(e->bound[i].hi) < floor
				? tree_root_index(e->t, &e->list[i])
				: -1;
		if (k < 0)
			continue;
		/* UCT's slow path knows the moves set aside */
		flags_change(root, 0, F_MIXED);
		flags_change(node_at(e->t, root->child + (uint32_t)k), 0,
			     F_BANNED);
	}
}

/* Gives the exact solver until `until` (a timed search) or `limit` nodes,
 * and with two players the margins until `margins_until` (add_margins).
 * When it finishes, the root moves that are worse than the best are set
 * aside, so that the search only weighs the moves that keep the best
 * result (with two players the margin is left to the search), and with two
 * players each root move gets its proof; cut short, with two players, the
 * moves it proved worse than another are set aside.  Returns 1 when it
 * finished. */
int endgame_solve(struct endgame *e, double until, double margins_until,
		  long limit)
{
	const struct game *g = e->g;
	struct tree *t = e->t;
	e->n = g->moves(t->state, e->list);
	double t0 = tm_cpu_ms();
	struct solve_job job = job_for(e, SOLVE_WDL, until, limit);
	e->done = e->n > 0 && solve_values(e->solver, g, t->state, e->list,
					   e->n, &job, e->value, e->bound);
	e->nodes = job.nodes;
	if (e->done && e->np == 2)
		add_margins(e, margins_until, limit);
	e->ms += tm_cpu_ms() - t0;
	if (!e->done && e->np == 2 && e->n > 0)
		set_aside(e);
	if (!e->done)
		return 0;
	e->best = e->value[0];
	for (int i = 1; i < e->n; i++)
		if (e->value[i] > e->best)
			e->best = e->value[i];
	struct node *root = node_at(t, t->root);
	struct node *kids = node_at(t, root->child);
	flags_change(root, 0, F_MIXED);
	for (int k = 0; k < root->nchild; k++) {
		struct move mv;
		child_move(t, root, (uint32_t)k, &mv);
		const int *v = endgame_value(e, &mv);
		if (!v)
			continue;
		if (*v < e->best)
			flags_change(&kids[k], 0, F_BANNED);
		if (e->np == 2)
			set_proof(&kids[k],
				  proof_for(solve_result(*v), kids[k].who));
	}
	if (e->np == 2)
		try_prove(t, root);
	return 1;
}
