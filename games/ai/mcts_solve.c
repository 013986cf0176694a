/* mcts_solve.c: the tree search's bridge to the exact solver: the
 * solver's verdict on the root moves, and what the tree makes of it
 * (proofs, the moves set aside, the margins). */
#include "mcts.h"

#include <string.h>

/* An empty record with room for g's moves.  Returns 0, or -1 when out of
 * memory. */
int solved_init(struct solved *sv, struct mcts_scratch *sc,
		const struct game *g)
{
	*sv = (struct solved){0};
	sv->list =
		scratch_get(&sc->solve_list, sizeof *sv->list * g->max_moves);
	sv->value = scratch_get(&sc->values, sizeof *sv->value * g->max_moves);
	sv->bound = scratch_get(&sc->bounds, sizeof *sv->bound * g->max_moves);
	return sv->list && sv->value && sv->bound ? 0 : -1;
}

/* The index of the root's child for move mv, or -1. */
int root_index(const struct mcts_tree *t, const struct move *mv)
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

/* The solver's value of the root move mv, when it has one. */
const int *solved_value(const struct solved *sv, const struct move *mv)
{
	if (!sv->done)
		return NULL;
	for (int i = 0; i < sv->n; i++)
		if (move_equal(&sv->list[i], mv))
			return &sv->value[i];
	return NULL;
}

/* The solver's job for m's search: until the clock passes `until` (0: no
 * clock) or `limit` nodes, watching the engine's input, split among the
 * tree's helpers (set threads). */
static struct solve_job job_for(const struct mcts *m, enum solve_want want,
				double until, long limit)
{
	return (struct solve_job){.want = want,
				  .deadline_ms = until,
				  .node_limit = limit,
				  .stop = m->how->stop,
				  .ctx = m->how->ctx,
				  .crews = m->t->ncrew,
				  .crew = m->t->crew_solver};
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
static void add_margins(struct mcts *m, double until, long limit,
			struct solved *sv)
{
	int best = -1;
	for (int i = 0; i < sv->n; i++) {
		if (sv->value[i] > best)
			best = sv->value[i];
		sv->value[i] *= SOLVE_RESULT;
	}
	struct move *list =
		scratch_get(&m->sc->margin_list, sizeof *list * (size_t)sv->n);
	struct solve_bound *b =
		scratch_get(&m->sc->margin_bounds, sizeof *b * (size_t)sv->n);
	int *at = scratch_get(&m->sc->margin_index, sizeof *at * (size_t)sv->n);
	double *visits = scratch_get(&m->sc->margin_order,
				     sizeof *visits * (size_t)sv->n);
	if (!list || !b || !at || !visits)
		return;
	int n = 0;
	for (int i = 0; i < sv->n; i++)
		if (sv->value[i] == best * SOLVE_RESULT) {
			at[n] = i;
			list[n++] = sv->list[i];
		}
	if (n < 2)
		return;
	/* the tree's favourites first: cut short, the solver has settled the
	 * moves the search liked best */
	const struct node *root = node_at(m->t, m->t->root);
	for (int j = 0; j < n; j++) {
		int k = root_index(m->t, &list[j]);
		visits[j] = k < 0 ? 0
				  : node_at(m->t, root->child + (uint32_t)k)
					    ->visits;
	}
	struct solve_job job = job_for(m, SOLVE_MARGIN, until, limit);
	job.order = visits;
	int done = solve_moves(m->solver, m->g, m->t->state, list, n, &job, b);
	sv->nodes += job.nodes;
	/* settled: each exact, or shown below the best; cut short: what was
	 * proven, and never less than the least value of their result (a move
	 * the solver did not reach again keeps the result it was proven to
	 * have) */
	int least = solve_class_lo(best * SOLVE_RESULT);
	for (int j = 0; j < n; j++) {
		int lo = b[j].lo > least ? b[j].lo : least;
		sv->value[at[j]] = done ? b[j].hi : lo;
	}
}

/* Two players, a solver cut short: sets aside the root moves whose result
 * it proved worse than another's (a loss where a move is proven to draw).
 * The moves it settled are often all but a few: in a Take It Away endgame
 * at 1 s, of 15 losing moves and 3 drawing ones, it had shown 13 lost and
 * two or three drawn when time ran out, and the tree, left to itself,
 * played one of the 13. */
static void set_aside(struct mcts *m, const struct solved *sv)
{
	int floor = -1; /* the best result some move is proven to reach */
	for (int i = 0; i < sv->n; i++)
		if (solve_result(sv->bound[i].lo) > floor)
			floor = solve_result(sv->bound[i].lo);
	struct node *root = node_at(m->t, m->t->root);
	for (int i = 0; i < sv->n; i++) {
		int k = solve_result(sv->bound[i].hi) < floor
				? root_index(m->t, &sv->list[i])
				: -1;
		if (k < 0)
			continue;
		/* UCT's slow path knows the moves set aside */
		flags_change(root, 0, F_MIXED);
		flags_change(node_at(m->t, root->child + (uint32_t)k), 0,
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
int try_solve(struct mcts *m, double until, double margins_until, long limit,
	      struct solved *sv)
{
	const struct game *g = m->g;
	struct mcts_tree *t = m->t;
	sv->n = g->moves(t->state, sv->list);
	double t0 = tm_cpu_ms();
	struct solve_job job = job_for(m, SOLVE_WDL, until, limit);
	sv->done = sv->n > 0 && solve_values(m->solver, g, t->state, sv->list,
					     sv->n, &job, sv->value, sv->bound);
	sv->nodes = job.nodes;
	if (sv->done && m->np == 2)
		add_margins(m, margins_until, limit, sv);
	t->info.solver_ms += tm_cpu_ms() - t0;
	if (!sv->done && m->np == 2 && sv->n > 0)
		set_aside(m, sv);
	if (!sv->done)
		return 0;
	sv->best = sv->value[0];
	for (int i = 1; i < sv->n; i++)
		if (sv->value[i] > sv->best)
			sv->best = sv->value[i];
	struct node *root = node_at(t, t->root);
	struct node *kids = node_at(t, root->child);
	flags_change(root, 0, F_MIXED);
	for (int k = 0; k < root->nchild; k++) {
		struct move mv;
		child_move(t, root, (uint32_t)k, &mv);
		const int *v = solved_value(sv, &mv);
		if (!v)
			continue;
		if (*v < sv->best)
			flags_change(&kids[k], 0, F_BANNED);
		if (m->np == 2)
			set_proof(&kids[k],
				  proof_for(solve_result(*v), kids[k].who));
	}
	if (m->np == 2)
		try_prove(t, root);
	return 1;
}
