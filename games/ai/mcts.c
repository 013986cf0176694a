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
 * value (a prior worth a few visits) and ends playouts after a short random
 * tail.  The exploration constant follows the spread of the rewards seen
 * (see scale_explore).
 *
 * When the playouts show the game is nearly over, the exact solver gets a
 * share of the time; if it finishes, the search only considers the moves
 * that keep the best result (or plays the solved move outright).
 *
 * Nothing is allocated while searching: the tree lives in chunks that are
 * kept for the whole process (allocating and freeing a large tree on every
 * move would cost time that the clock has to cover), and playouts run on
 * one scratch state. */
#include "search.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_BITS 16
#define CHUNK_NODES ((uint32_t)1 << CHUNK_BITS)
#define MAX_CHUNKS 32      /* 2M nodes of 64 bytes at most */
#define MAX_PATH 512       /* tree plies followed in one iteration */
#define MAX_PLAYOUT 100000 /* plies; a longer playout counts as stuck */
/* Playout plies before a game's evaluate() (when it has one) takes over: a
 * short random tail, then the game's own judgement.  Measured at movetime
 * 50: 32 plies lose clearly to 2 in Tiptoe and Take It Away; with the
 * priors below, 8 plies beat greedy in 80 of 80 Take It Away games where 2
 * plies won 74%, while in Tiptoe 2 plies were at most a little better
 * (55% of 40 games against 8). */
#define EVAL_AFTER 8
#define LINE_SAMPLES 24 /* moves drawn where moves cannot be listed */
#define UCT_C 0.7       /* exploration, for rewards spread like coin tosses */
#define PRIOR_VISITS 4  /* weight of evaluate() in a new node's value */

enum { LEAF, DECIDE, CHANCE, END };
#define NOBODY 255 /* `who` of a chance outcome */

struct node {
	struct move mv; /* the move, or the outcome in w[0], that led here */
	double sum;     /* rewards of `who` over the visits */
	uint32_t visits;
	uint32_t child;         /* index of the first child, when expanded */
	uint16_t nchild, tried; /* children; first visits given so far */
	float prob;             /* odds of a chance outcome */
	uint8_t who;            /* the player (from 0) who made mv, or NOBODY */
	uint8_t kind;           /* LEAF, DECIDE, CHANCE or END */
	uint8_t banned;         /* a root move the solver showed to be worse */
	uint8_t virt; /* visits that are the game's evaluate() (a prior) */
};

static struct node *chunks[MAX_CHUNKS];

struct mcts {
	const struct game *g;
	struct rng *r;
	int np;
	size_t ss;
	const void *root_state;
	unsigned char *st;  /* the iteration's scratch state */
	unsigned char *st2; /* another, for looking one move ahead */
	unsigned char *cls; /* max_moves bytes: what each move does at once */
	double *prior;      /* max_moves: evaluate() after each move */
	int have_prior;     /* decisive() filled prior[] */
	struct move *list;  /* max_moves scratch */
	uint32_t used;      /* nodes handed out */
	uint32_t expand_at; /* visits before a leaf gets children */
	int mem_full;
	int timed;
	double deadline;
	long iters;
	double lo, hi;  /* solo: lowest and highest score seen */
	double r1, r2;  /* sum and sum of squares of the rewards seen */
	double rn;      /* how many */
	double explore; /* the exploration constant, scaled to the rewards */
	int aborted;
};

static struct node *node_at(uint32_t i)
{
	return &chunks[i >> CHUNK_BITS][i & (CHUNK_NODES - 1)];
}

/* n contiguous fresh nodes; returns the first index, or UINT32_MAX. */
static uint32_t alloc_nodes(struct mcts *m, uint32_t n)
{
	if (n == 0 || n > CHUNK_NODES)
		return UINT32_MAX;
	uint32_t off = m->used & (CHUNK_NODES - 1);
	if (off && off + n > CHUNK_NODES)
		m->used +=
			CHUNK_NODES - off; /* children never straddle chunks */
	uint32_t c = m->used >> CHUNK_BITS;
	if (c >= MAX_CHUNKS) {
		m->mem_full = 1;
		return UINT32_MAX;
	}
	if (!chunks[c]) {
		chunks[c] = malloc(sizeof(struct node) * CHUNK_NODES);
		if (!chunks[c]) {
			m->mem_full = 1;
			return UINT32_MAX;
		}
	}
	uint32_t first = m->used;
	m->used += n;
	memset(node_at(first), 0, sizeof(struct node) * n);
	return first;
}

/* sqrt and log without libm (the engine links nothing but libc). */
static double my_sqrt(double x)
{
	if (x <= 0)
		return 0;
	/* scale into [0.25, 4] so that a few Newton steps converge */
	double k = 1;
	while (x > 4)
		x /= 4, k *= 2;
	while (x < 0.25)
		x *= 4, k /= 2;
	double y = (x + 1) / 2;
	for (int i = 0; i < 6; i++)
		y = (y + x / y) / 2;
	return y * k;
}

static double my_log(double x)
{
	if (x <= 0)
		return -1e300;
	int e = 0;
	while (x >= 2)
		x /= 2, e++;
	while (x < 1)
		x *= 2, e--;
	/* ln x = 2 atanh((x - 1) / (x + 1)), with x in [1, 2) */
	double s = (x - 1) / (x + 1), s2 = s * s, t = s, sum = 0;
	for (int i = 1; i < 24; i += 2, t *= s2)
		sum += t / i;
	return 2 * sum + e * 0.6931471805599453;
}

/* sqrt(log(n)) for the visit counts of a parent, filled in as needed (0
 * marks a value not computed yet: log(n) > 0 for every n >= 2). */
#define SQRTLOG_N 65536
static double sqrtlog_table[SQRTLOG_N];

static double sqrtlog(uint32_t n)
{
	if (n >= SQRTLOG_N)
		return my_sqrt(my_log((double)n));
	if (sqrtlog_table[n] == 0)
		sqrtlog_table[n] = my_sqrt(my_log((double)n));
	return sqrtlog_table[n];
}

/* 1/sqrt(n) for small visit counts, built once. */
#define RSQRT_N 4096
static double rsqrt_table[RSQRT_N];

static double rsqrt(uint32_t n)
{
	if (n < RSQRT_N)
		return rsqrt_table[n];
	return 1 / my_sqrt((double)n);
}

static void tables_init(void)
{
	if (rsqrt_table[1] != 0)
		return;
	for (uint32_t i = 1; i < RSQRT_N; i++)
		rsqrt_table[i] = 1 / my_sqrt((double)i);
}

/* The mean reward of a node for its mover, in [0, 1]. */
static double mean(const struct mcts *m, const struct node *c)
{
	double q = c->sum / c->visits;
	if (m->np == 1)
		q = m->hi > m->lo ? (q - m->lo) / (m->hi - m->lo) : 0.5;
	return q;
}

/* Keeps the moves that win at once, if any (a player never misses one);
 * otherwise drops the moves that lose at once (a move can complete the
 * opponent's row), unless nothing else is left.  Random playouts miss such
 * one-move facts often; this costs one play per move per expansion. */
static int decisive(struct mcts *m, const void *st, int mover, int n)
{
	const struct game *g = m->g;
	int nwin = 0, nsafe = 0;
	unsigned char *cls = m->cls;
	double val[GAME_MAX_PLAYERS];
	m->have_prior = 0;
	for (int i = 0; i < n; i++) {
		/* wide nodes of slow games take long: mind the clock */
		if ((i & 31) == 31 && m->timed && ai_now_ms() >= m->deadline)
			return n;
		memcpy(m->st2, st, m->ss);
		g->play(m->st2, &m->list[i]);
		struct game_status cs = g->status(m->st2);
		cls[i] = cs.phase != GAME_OVER || cs.player == 0 ? 1
			 : cs.player == mover                    ? 2
								 : 0;
		nwin += cls[i] == 2;
		nsafe += cls[i] == 1;
		if (g->evaluate) {
			if (cs.phase == GAME_OVER)
				ai_reward(g, m->st2, m->np, val);
			else
				g->evaluate(m->st2, val);
			m->prior[i] = val[mover - 1];
		}
	}
	m->have_prior = g->evaluate != NULL;
	int keep = nwin ? 2 : nsafe ? 1 : 0, k = 0;
	if (keep == 0 || (keep == 1 && nsafe == n))
		return n;
	for (int i = 0; i < n; i++)
		if (cls[i] == keep) {
			m->prior[k] = m->prior[i];
			m->list[k++] = m->list[i];
		}
	return k;
}

/* Gives a leaf its children.  Returns 0, or -1 when it cannot (no memory
 * left, too many moves): the iteration then plays out from the leaf. */
static int expand(struct mcts *m, struct node *nd, const void *st, int root)
{
	const struct game *g = m->g;
	struct game_status s = g->status(st);
	if (s.phase == GAME_OVER) {
		nd->kind = END;
		return 0;
	}
	if (s.phase == GAME_ROLL) {
		int values[GAME_MAX_CHANCE];
		double probs[GAME_MAX_CHANCE];
		int n = g->chance(st, values, probs);
		if (n <= 0) {
			nd->kind = END;
			return 0;
		}
		uint32_t first = alloc_nodes(m, (uint32_t)n);
		if (first == UINT32_MAX)
			return -1;
		struct node *c = node_at(first);
		for (int i = 0; i < n; i++) {
			c[i].mv.w[0] = (uint64_t)(int64_t)values[i];
			c[i].prob = (float)probs[i];
			c[i].who = NOBODY;
		}
		nd->child = first;
		nd->nchild = (uint16_t)n;
		nd->kind = CHANCE;
		return 0;
	}
	int n = g->moves(st, m->list);
	if (n == 0 && g->random_move) {
		/* moves that cannot be listed (a drawn line): a sample of
		 * distinct ones stands for them */
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
	}
	if (n == 0) {
		nd->kind = END; /* stuck */
		return 0;
	}
	if (n > UINT16_MAX)
		return -1;
	m->have_prior = 0;
	if (m->np > 1)
		n = decisive(m, st, s.player, n);
	uint32_t first = alloc_nodes(m, (uint32_t)n);
	if (first == UINT32_MAX)
		return -1;
	/* a random order for the first visits */
	for (int i = n - 1; i > 0; i--) {
		int j = (int)rng_below(m->r, (uint32_t)i + 1);
		struct move t = m->list[i];
		m->list[i] = m->list[j];
		m->list[j] = t;
		if (m->have_prior) {
			double p = m->prior[i];
			m->prior[i] = m->prior[j];
			m->prior[j] = p;
		}
	}
	struct node *c = node_at(first);
	for (int i = 0; i < n; i++) {
		c[i].mv = m->list[i];
		c[i].who = (uint8_t)(s.player - 1);
		if (m->have_prior) {
			/* the game's judgement counts as a few visits, so that
			 * wide nodes try their promising moves first */
			c[i].virt = PRIOR_VISITS;
			c[i].visits = PRIOR_VISITS;
			c[i].sum = PRIOR_VISITS * m->prior[i];
		}
	}
	if (m->have_prior)
		nd->tried = (uint16_t)n; /* no need to try each move once */
	nd->child = first;
	nd->nchild = (uint16_t)n;
	nd->kind = DECIDE;
	return 0;
}

static struct node *select_child(struct mcts *m, struct node *nd)
{
	struct node *c = node_at(nd->child);
	if (nd->kind == CHANCE) {
		/* the outcome furthest behind its share of the visits */
		double n1 = (double)nd->visits + 1, best = -1e300;
		int bi = 0;
		for (int i = 0; i < nd->nchild; i++) {
			double d = c[i].prob * n1 - c[i].visits;
			if (d > best)
				best = d, bi = i;
		}
		return &c[bi];
	}
	while (nd->tried < nd->nchild && c[nd->tried].banned)
		nd->tried++;
	if (nd->tried < nd->nchild)
		return &c[nd->tried++];
	double k = m->explore * sqrtlog(nd->visits + 1), best = -1e300;
	int bi = -1;
	for (int i = 0; i < nd->nchild; i++) {
		if (c[i].banned)
			continue;
		double u = mean(m, &c[i]) + k * rsqrt(c[i].visits);
		if (u > best)
			best = u, bi = i;
	}
	return bi < 0 ? &c[0] : &c[bi];
}

/* Plays st out at random; writes the rewards.  Returns the plies played,
 * or -1 when the clock ran out first. */
static int playout(struct mcts *m, void *st, double *rew)
{
	const struct game *g = m->g;
	for (int ply = 0; ply < MAX_PLAYOUT; ply++) {
		struct game_status s = g->status(st);
		if (s.phase == GAME_OVER) {
			ai_reward(g, st, m->np, rew);
			return ply;
		}
		if (s.phase == GAME_ROLL) {
			g->roll(st, game_chance_pick(g, st, m->r));
			continue;
		}
		if ((ply & 127) == 127 && m->timed &&
		    ai_now_ms() >= m->deadline)
			return -1;
		if (g->evaluate && m->np > 1 && ply >= EVAL_AFTER) {
			g->evaluate(st, rew);
			return ply;
		}
		struct move mv;
		if (ai_random_move(g, st, m->r, m->list, &mv) < 0)
			break;
		g->play(st, &mv);
	}
	ai_reward(g, st, m->np, rew); /* stuck */
	return MAX_PLAYOUT;
}

/* UCT's exploration term assumes rewards spread over [0, 1] like wins and
 * losses; a game's evaluate() or a points race gives rewards bunched near
 * the middle, where the same constant would explore almost blindly.  So the
 * constant follows the spread (standard deviation) of the rewards seen,
 * 0.5 being the spread of a coin toss. */
static void scale_explore(struct mcts *m)
{
	double mu = m->r1 / m->rn, var = m->r2 / m->rn - mu * mu;
	if (m->np == 1) /* raw scores: scale like mean() does */
		var = m->hi > m->lo ? var / ((m->hi - m->lo) * (m->hi - m->lo))
				    : 0.25;
	double f = 2 * my_sqrt(var > 0 ? var : 0);
	m->explore = UCT_C * (f < 0.1 ? 0.1 : f > 1 ? 1 : f);
}

/* One iteration: down the tree, out at random, and the rewards back up.
 * Returns -1 when the clock stopped it (nothing is updated then). */
static int iterate(struct mcts *m)
{
	const struct game *g = m->g;
	struct node *path[MAX_PATH];
	int depth = 0;
	double rew[GAME_MAX_PLAYERS] = {0};
	memcpy(m->st, m->root_state, m->ss);
	struct node *nd = node_at(0);
	path[0] = nd;
	for (;;) {
		if (nd->kind == LEAF) {
			if (depth > 0 &&
			    (nd->visits - nd->virt < m->expand_at ||
			     m->mem_full))
				break;
			if (expand(m, nd, m->st, depth == 0) < 0)
				break;
		}
		if (nd->kind == END || depth + 1 >= MAX_PATH)
			break;
		struct node *c = select_child(m, nd);
		if (nd->kind == CHANCE) {
			g->roll(m->st, (int)(int64_t)c->mv.w[0]);
		} else {
			g->play(m->st, &c->mv);
		}
		path[++depth] = nd = c;
	}
	if (playout(m, m->st, rew) < 0)
		return -1;
	for (int i = 0; i <= depth; i++) {
		path[i]->visits++;
		if (path[i]->who != NOBODY)
			path[i]->sum += rew[path[i]->who];
	}
	if (m->np == 1) {
		if (m->iters == 0 || rew[0] < m->lo)
			m->lo = rew[0];
		if (m->iters == 0 || rew[0] > m->hi)
			m->hi = rew[0];
	}
	for (int p = 0; p < m->np; p++)
		m->r1 += rew[p], m->r2 += rew[p] * rew[p], m->rn++;
	m->iters++;
	if ((m->iters & 255) == 0)
		scale_explore(m);
	if (m->used > CHUNK_NODES * (MAX_CHUNKS / 2))
		m->expand_at = 8; /* keep the rest of the memory for depth */
	return 0;
}

/* The mean length in plies of a few random games from the root (1e9 when
 * the clock passes until_ms first). */
static double game_length(struct mcts *m, double until_ms)
{
	const struct game *g = m->g;
	double sum = 0;
	int k = 0;
	for (; k < 8; k++) {
		if (m->timed && k > 0 && ai_now_ms() >= until_ms)
			break;
		memcpy(m->st, m->root_state, m->ss);
		int ply = 0;
		for (; ply < MAX_PLAYOUT; ply++) {
			struct game_status s = g->status(m->st);
			if (s.phase == GAME_OVER)
				break;
			if (s.phase == GAME_ROLL) {
				g->roll(m->st,
					game_chance_pick(g, m->st, m->r));
				continue;
			}
			struct move mv;
			if (ai_random_move(g, m->st, m->r, m->list, &mv) < 0)
				break;
			g->play(m->st, &mv);
			if ((ply & 127) == 127 && m->timed &&
			    ai_now_ms() >= until_ms)
				return 1e9;
		}
		sum += ply;
	}
	return k ? sum / k : 1e9;
}

/* Runs iterations until the clock passes until_ms (timed) or iters reaches
 * until_iters (fixed playouts). */
static void run(struct mcts *m, double until_ms, long until_iters)
{
	while (!m->aborted) {
		if (m->timed ? ai_now_ms() >= until_ms
			     : m->iters >= until_iters)
			break;
		if (iterate(m) < 0)
			m->aborted = 1;
	}
}

/* The root move to play: the most visited allowed child (ties: the better
 * mean). */
static struct node *best_child(const struct mcts *m, const struct node *root)
{
	struct node *c = node_at(root->child), *best = NULL;
	for (int i = 0; i < root->nchild; i++) {
		if (c[i].banned)
			continue;
		if (!best || c[i].visits > best->visits ||
		    (c[i].visits == best->visits && c[i].visits &&
		     mean(m, &c[i]) > mean(m, best)))
			best = &c[i];
	}
	return best;
}

/* The most visited line from the root, up to 8 plies, on the log. */
static void print_line(const struct mcts *m, FILE *log, const struct node *best)
{
	const struct game *g = m->g;
	unsigned char *st = m->st;
	memcpy(st, m->root_state, m->ss);
	const struct node *nd = best;
	char buf[MOVE_TEXT_MAX];
	for (int ply = 0; nd && ply < 8; ply++) {
		g->format(st, &nd->mv, buf);
		fprintf(log, " %s", buf);
		g->play(st, &nd->mv);
		while (nd && nd->kind == CHANCE && nd->visits) {
			/* show the likeliest outcome explored most */
			const struct node *c = node_at(nd->child), *b = NULL;
			for (int i = 0; i < nd->nchild; i++)
				if (!b || c[i].visits > b->visits)
					b = &c[i];
			fprintf(log, " (roll %d)", (int)(int64_t)b->mv.w[0]);
			g->roll(st, (int)(int64_t)b->mv.w[0]);
			nd = b;
		}
		if (!nd || nd->kind != DECIDE || nd->visits < 2)
			break;
		const struct node *c = node_at(nd->child), *b = NULL;
		for (int i = 0; i < nd->nchild; i++)
			if (c[i].visits && (!b || c[i].visits > b->visits))
				b = &c[i];
		nd = b;
	}
}

int mcts_choose(const struct game *g, const void *st,
		const struct ai_settings *cfg, struct rng *r, struct move *out,
		FILE *log, double start_ms)
{
	tables_init();
	struct mcts m = {0};
	m.g = g;
	m.r = r;
	m.np = g->players(st);
	m.ss = g->state_size;
	m.root_state = st;
	m.expand_at = 2;
	m.explore = UCT_C;
	m.timed = cfg->playouts <= 0;
	/* a safety margin for what follows the last iteration */
	double margin = cfg->movetime > 20 ? 1.0 : 0.05 * (double)cfg->movetime;
	m.deadline = start_ms + (double)cfg->movetime - margin;
	long budget = cfg->playouts;
	size_t nm = (size_t)g->max_moves;
	m.st = ai_scratch(AI_STATES, 2 * m.ss);
	m.st2 = m.st ? m.st + m.ss : NULL;
	m.cls = ai_scratch(AI_CLASS, nm);
	m.prior = ai_scratch(AI_PRIOR, sizeof *m.prior * nm);
	m.list = ai_scratch(AI_LIST, sizeof *m.list * nm);
	int *value = ai_scratch(AI_VALUES, sizeof *value * nm);
	struct move *solve_list =
		ai_scratch(AI_SOLVE_LIST, sizeof *solve_list * nm);
	const char *solved = "";
	long solve_nodes = 0;
	if (!m.st || !m.cls || !m.prior || !m.list || !value || !solve_list)
		return -1;
	if (alloc_nodes(&m, 1) != 0)
		return -1;
	struct node *root = node_at(0);
	if (expand(&m, root, st, 1) < 0) /* more moves than a node holds */
		return ai_random_move(g, st, r, m.list, out);
	if (root->kind != DECIDE)
		return -1;
	struct node *kids = node_at(root->child);
	if (root->nchild == 1) {
		*out = kids[0].mv;
		solved = "only move";
		goto report;
	}

	/* a first look: how long is the rest of the game?  (The search's own
	 * playouts may stop early at evaluate().) */
	double plies = game_length(&m, start_ms + 0.02 * (double)cfg->movetime);
	run(&m, start_ms + 0.1 * (double)cfg->movetime, budget / 10 + 1);
	int n = g->moves(st, solve_list);
	if (plies <= 16 && n > 0 && !m.aborted) {
		double share = plies <= 12 ? 0.7 : 0.35;
		double now = ai_now_ms();
		double until = m.timed ? now + share * (m.deadline - now) : 0;
		long limit =
			m.timed ? LONG_MAX
				: (long)(share * (double)budget * (plies + 1)) +
					  1;
		if (search_solve(g, st, solve_list, n, until, limit, value,
				 &solve_nodes)) {
			int best = value[0], bi = 0;
			for (int i = 1; i < n; i++)
				if (value[i] > best)
					best = value[i], bi = i;
			if (m.np != 2) {
				*out = solve_list[bi];
				solved = "solved";
				goto report;
			}
			solved = best > 0    ? "solved: win"
				 : best == 0 ? "solved: draw"
					     : "solved: loss";
			/* a lost game: every move loses, so let the search find
			 * the one that makes the opponent work hardest */
			int allowed = 0;
			struct node *last = NULL;
			for (int k = 0; k < root->nchild; k++) {
				for (int i = 0; i < n; i++)
					if (move_equal(&kids[k].mv,
						       &solve_list[i]))
						kids[k].banned =
							value[i] < best;
				if (!kids[k].banned)
					allowed++, last = &kids[k];
			}
			if (allowed == 1) {
				*out = last->mv;
				goto report;
			}
		}
	}
	run(&m, m.deadline, budget);
	*out = best_child(&m, root)->mv;
report:
	if (log) {
		double ms = ai_now_ms() - start_ms;
		char buf[MOVE_TEXT_MAX];
		g->format(st, out, buf);
		fprintf(log,
			"ai: %s after %ld playouts in %.0f ms (%.0f/s), %u "
			"nodes",
			buf, m.iters, ms, ms > 0 ? m.iters / ms * 1000 : 0.0,
			m.used);
		if (solved[0])
			fprintf(log, "; %s (%ld nodes)", solved, solve_nodes);
		const struct node *b = NULL;
		for (int k = 0; k < root->nchild; k++)
			if (move_equal(&kids[k].mv, out))
				b = &kids[k];
		if (b && b->visits) {
			if (m.np == 1)
				fprintf(log, "; expected score %.2f",
					b->sum / b->visits);
			else
				fprintf(log, "; value %.3f",
					b->sum / b->visits);
			fprintf(log, "; line");
			print_line(&m, log, b);
		}
		fputc('\n', log);
	}
	return 0;
}
