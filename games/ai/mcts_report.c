/* mcts_report.c: what the tree search tells: the search line on the log
 * after a move, and analyze's info lines. */
#include "mcts.h"

#include <stdlib.h>
#include <string.h>

/* The text of a proof for the player who made the move ("win"...). */
static const char *proof_text(const struct node *c)
{
	int r = result_for(proof_of(c), c->who);
	return r > 0 ? "win" : r < 0 ? "loss" : "draw";
}

/* The most visited line from the root move `first`, up to max plies,
 * written as moves after a space each.  With rolls, chance events show as
 * "(roll N)", the likeliest outcome explored most; without, the line
 * stops before the first chance event. */
static void line_text(const struct mcts *m, uint32_t first, int max, int rolls,
		      struct text *out)
{
	const struct mcts_tree *t = m->t;
	const struct game *g = m->g;
	unsigned char *st = m->st;
	memcpy(st, t->state, m->ss);
	const struct node *parent = node_at(t, t->root);
	uint32_t at = first;
	char buf[MOVE_TEXT_MAX];
	for (int ply = 0; ply < max; ply++) {
		struct move mv;
		child_move(t, parent, at - child_of(parent), &mv);
		g->format(st, &mv, buf);
		text_printf(out, " %s", buf);
		g->play(st, &mv);
		const struct node *nd = node_at(t, at);
		while (rolls && kind(nd) == CHANCE && ld_u(&nd->visits)) {
			const struct node *c = node_at(t, child_of(nd));
			int b = 0;
			for (int i = 1; i < nd->nchild; i++)
				if (ld_u(&c[i].visits) > ld_u(&c[b].visits))
					b = i;
			text_printf(out, " (roll %d)", (int)(int64_t)c[b].mv);
			g->roll(st, (int)(int64_t)c[b].mv);
			nd = &c[b];
		}
		if (kind(nd) != DECIDE || ld_u(&nd->visits) < 2)
			break;
		const struct node *c = node_at(t, child_of(nd));
		int b = -1;
		uint32_t most = 0;
		for (int i = 0; i < nd->nchild; i++) {
			uint32_t v = ld_u(&c[i].visits);
			if (v > most)
				b = i, most = v;
		}
		if (b < 0)
			break;
		parent = nd;
		at = child_of(nd) + (uint32_t)b;
	}
}

/* The search line on the log: the move, the effort, and what it expects. */
void report_search(struct mcts *m, uint32_t chosen, const struct solved *sv,
		   const char *why, const struct tm_plan *plan, FILE *log,
		   double start_ms)
{
	const struct mcts_tree *t = m->t;
	const struct game *g = m->g;
	double ms = ai_now_ms() - start_ms;
	const struct node *root = node_at(t, t->root), *b = node_at(t, chosen);
	char buf[MOVE_TEXT_MAX];
	struct move mv;
	child_move(t, root, chosen - root->child, &mv);
	g->format(t->state, &mv, buf);
	struct text line;
	text_init(&line);
	long iters = team_iters(m); /* every thread's */
	text_printf(&line,
		    "ai: %s after %ld playouts in %.0f ms (%.0f/s), %u nodes",
		    buf, iters, ms, ms > 0 ? iters / ms * 1000 : 0.0,
		    __atomic_load_n(&t->used, __ATOMIC_RELAXED));
	if (t->info.reused)
		text_printf(&line, " (%lu visits kept)", t->info.reused);
	if (plan->flexible)
		text_printf(&line, "; clock %.0f-%.0f ms",
			    plan->soft - start_ms, plan->hard - start_ms);
	if (m->clock.stopped)
		text_puts(&line, "; stopped");
	if (why)
		text_printf(&line, "; %s", why);
	if (sv->done)
		text_printf(&line, "; solved (%ld nodes)", sv->nodes);
	if (proof_of(b))
		text_printf(&line, "; proven %s", proof_text(b));
	else if (sv->done && m->np == 1)
		text_printf(&line, "; proven %d", sv->best);
	const struct node *kids = node_at(t, root->child);
	uint32_t k = chosen - root->child;
	if (ld_u(&kids[k].visits) != 0) {
		if (m->np == 1)
			text_printf(&line, "; expected score %.2f",
				    ld_f(&kids[k].q));
		else
			text_printf(&line, "; value %.3f", ld_f(&kids[k].q));
		text_puts(&line, "; line");
		line_text(m, chosen, 8, 1, &line);
	}
	fprintf(log, "%s\n", line.s);
	text_free(&line);
}

/* The analysis line: one group per visited root move, best first (the
 * allowed moves by visits, then the moves the solver showed worse), at
 * most how->info_moves (AI_INFO_MOVES by default). */
void report_info(struct mcts *m, const struct solved *sv, struct text *out)
{
	const struct mcts_tree *t = m->t;
	const struct node *root = node_at(t, t->root);
	const struct node *kids = node_at(t, root->child);
	int most = m->how->info_moves > 0 ? m->how->info_moves : AI_INFO_MOVES;
	if (most > root->nchild)
		most = root->nchild;
	int *order = malloc(sizeof *order * (size_t)(most ? most : 1)), n = 0;
	if (!order)
		return; /* out of memory: no line this time */
	for (int pass = 0; pass < 2; pass++)
		for (int k = 0; k < root->nchild; k++) {
			const struct node *c = &kids[k];
			int aside = (flags_of(c) & F_BANNED) || lost(c);
			/* a proven move is worth a line without a visit (a
			 * root proven on expansion is searched no more) */
			double visits = kids[k].visits;
			if (aside != pass ||
			    (visits <= prior_of(t, c) && !proof_of(c)))
				continue;
			int j = pass ? n : 0;
			if (!pass)
				while (j < n && kids[order[j]].visits >= visits)
					j++;
			if (j >= most)
				continue;
			if (n < most)
				n++;
			memmove(order + j + 1, order + j,
				sizeof *order * (size_t)(n - 1 - j));
			order[j] = k;
		}
	char buf[MOVE_TEXT_MAX];
	for (int i = 0; i < n; i++) {
		const struct node *c = &kids[order[i]];
		struct move mv;
		child_move(t, root, (uint32_t)order[i], &mv);
		const int *pv = solved_value(sv, &mv);
		double v = kids[order[i]].q;
		if (proof_of(c))
			v = 0.5 * (result_for(proof_of(c), c->who) + 1);
		else if (pv && m->np == 1)
			v = *pv;
		m->g->format(t->state, &mv, buf);
		text_printf(
			out, "%sinfo move %s visits %lu value %.4f",
			i ? " " : "", buf,
			(unsigned long)(kids[order[i]].visits - prior_of(t, c)),
			v);
		if (proof_of(c))
			text_printf(out, " proven %s", proof_text(c));
		else if (pv && m->np == 1)
			text_printf(out, " proven %d", *pv);
		else if (pv) /* more players: result * 1000 + margin */
			text_printf(out, " proven %s",
				    *pv >= 1500  ? "win"
				    : *pv >= 500 ? "draw"
						 : "loss");
		text_printf(out, " order %d pv", i);
		line_text(m, root->child + (uint32_t)order[i], 16, 0, out);
	}
	free(order);
}
