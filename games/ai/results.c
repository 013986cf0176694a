/* results.c: what a search found (results.h): the move it plays (the
 * most visited of the best standing; a hotter choice for the levels below
 * the top; the longest fight where everything is lost), and the root
 * moves as typed candidates (their visits, values, proofs and lines),
 * which the engine alone writes as text. */
#include "results.h"

#include <stdlib.h>
#include <string.h>

#include "../util/numbers.h"

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
int root_lost(const struct worker *m)
{
	const struct node *root = node_at(m->t, m->t->root);
	return proof_of(root) && root->nchild &&
	       result_for(proof_of(root), node_at(m->t, root->child)->who) < 0;
}

/* standing() of root move i, one more for a proven win that ends the
 * game at once. */
static int rank_at_root(const struct worker *m, int i)
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
static int holds_out(const struct worker *m, int i)
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
static int longest_fight(const struct worker *m, int fallback)
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
uint32_t best_child(const struct worker *m)
{
	const struct tree *t = m->t;
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
				tree_mean(t, m->np, ld_f(&c[i].q)) >
					tree_mean(t, m->np, ld_f(&c[best].q))))
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

uint32_t tempered_child(const struct worker *m, double temper)
{
	uint32_t top = best_child(m);
	const struct tree *t = m->t;
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
void top_two(const struct worker *m, double *first, double *second)
{
	const struct tree *t = m->t;
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

/* The line the search expects from the root move `first`: up to 16
 * moves, the most visited child of each, and at each chance event its most
 * visited outcome (the likeliest, explored most). */
static void line_of(const struct tree *t, uint32_t first,
		    struct ai_candidate *c)
{
	const struct node *parent = node_at(t, t->root);
	uint32_t at = first;
	c->steps = 0;
	for (int ply = 0; ply < 16 && c->steps < AI_LINE_MAX; ply++) {
		struct ai_step *step = &c->line[c->steps++];
		*step = (struct ai_step){0};
		child_move(t, parent, at - child_of(parent), &step->mv);
		const struct node *nd = node_at(t, at);
		while (kind(nd) == CHANCE && ld_u(&nd->visits)) {
			const struct node *ch = node_at(t, child_of(nd));
			int b = 0;
			for (int i = 1; i < nd->nchild; i++)
				if (ld_u(&ch[i].visits) > ld_u(&ch[b].visits))
					b = i;
			if (c->steps >= AI_LINE_MAX)
				return;
			c->line[c->steps++] = (struct ai_step){
				.roll = 1, .outcome = (int)(int64_t)ch[b].mv};
			nd = &ch[b];
		}
		if (kind(nd) != DECIDE || ld_u(&nd->visits) < 2)
			break;
		const struct node *ch = node_at(t, child_of(nd));
		int b = -1;
		uint32_t most = 0;
		for (int i = 0; i < nd->nchild; i++) {
			uint32_t v = ld_u(&ch[i].visits);
			if (v > most)
				b = i, most = v;
		}
		if (b < 0)
			break;
		parent = nd;
		at = child_of(nd) + (uint32_t)b;
	}
}

void results_candidate(const struct worker *m, const struct endgame *e,
		       uint32_t k, struct ai_candidate *c)
{
	const struct tree *t = m->t;
	const struct node *root = node_at(t, t->root);
	const struct node *kid = node_at(t, root->child + k);
	*c = (struct ai_candidate){0};
	child_move(t, root, k, &c->mv);
	uint32_t visits = ld_u(&kid->visits);
	c->visits = (unsigned long)(visits - prior_of(t, kid));
	c->judged = visits != 0;
	c->mean = ld_f(&kid->q);
	c->value = c->mean;
	c->scale = m->np == 1 ? AI_SCALE_POINTS : AI_SCALE_RESULT;
	c->aside = (flags_of(kid) & F_BANNED) || lost(kid);
	const int *pv = endgame_value(e, &c->mv);
	if (proof_of(kid)) {
		int r = result_for(proof_of(kid), kid->who);
		c->proof = r > 0   ? AI_PROVEN_WIN
			   : r < 0 ? AI_PROVEN_LOSS
				   : AI_PROVEN_DRAW;
		c->value = 0.5 * (r + 1);
	} else if (pv && m->np == 1) {
		c->proof = AI_PROVEN_POINTS;
		c->value = *pv;
	} else if (pv) {
		/* more players: the share of first place (the whole of it,
		 * alone or with a partner: a win; some: a draw, with the
		 * teams tied at the top; none: a loss) */
		int share = solve_share(*pv);
		c->proof = share == AI_SHARES ? AI_PROVEN_WIN
			   : share == 0       ? AI_PROVEN_LOSS
					      : AI_PROVEN_DRAW;
		c->value = (double)share / AI_SHARES;
	}
	line_of(t, root->child + k, c);
}

int results_candidates(const struct worker *m, const struct endgame *e,
		       int most, struct ai_candidate *out)
{
	const struct tree *t = m->t;
	const struct node *root = node_at(t, t->root);
	const struct node *kids = node_at(t, root->child);
	if (most > root->nchild)
		most = root->nchild;
	int *order = malloc(sizeof *order * (size_t)(most ? most : 1)), n = 0;
	if (!order)
		return 0; /* out of memory: none this time */
	for (int pass = 0; pass < 2; pass++)
		for (int k = 0; k < root->nchild; k++) {
			const struct node *c = &kids[k];
			int aside = (flags_of(c) & F_BANNED) || lost(c);
			/* a proven move is worth a line without a visit (a
			 * root proven on expansion is searched no more) */
			double visits = ld_u(&kids[k].visits);
			if (aside != pass ||
			    (visits <= prior_of(t, c) && !proof_of(c)))
				continue;
			int j = pass ? n : 0;
			if (!pass)
				while (j < n &&
				       ld_u(&kids[order[j]].visits) >= visits)
					j++;
			if (j >= most)
				continue;
			if (n < most)
				n++;
			memmove(order + j + 1, order + j,
				sizeof *order * (size_t)(n - 1 - j));
			order[j] = k;
		}
	for (int i = 0; i < n; i++)
		results_candidate(m, e, (uint32_t)order[i], &out[i]);
	free(order);
	return n;
}
