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
	const struct ai_search *how;
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
	int timed;        /* a deadline ends the search */
	double deadline;  /* when timed */
	double next_poll; /* when to ask how->stop next */
	int stopped;      /* how->stop said so */
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

/* How often the engine's input is looked at while thinking: often enough
 * that a `stop` is noticed within a couple of milliseconds, rarely enough
 * that the poll costs nothing measurable. */
#define POLL_MS 1.0

/* Whether the search must end now: its deadline has passed, or (asked at
 * most every POLL_MS) the engine says stop.  Reads the clock. */
static int out_of_time(struct mcts *m)
{
	if (m->stopped)
		return 1;
	double now = ai_now_ms();
	if (m->timed && now >= m->deadline)
		return 1;
	if (m->how->stop && now >= m->next_poll) {
		m->next_poll = now + POLL_MS;
		m->stopped = m->how->stop(m->how->ctx) != 0;
	}
	return m->stopped;
}

/* Whether the clock needs watching at all: a deadline or a stop hook. */
static int watched(const struct mcts *m)
{
	return m->timed || m->how->stop;
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
		if ((i & 31) == 31 && watched(m) && out_of_time(m))
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
		if ((ply & 127) == 127 && watched(m) && out_of_time(m))
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
		if (k > 0 && ((m->timed && ai_now_ms() >= until_ms) ||
			      (watched(m) && out_of_time(m))))
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
			if ((ply & 127) == 127 && watched(m) &&
			    ((m->timed && ai_now_ms() >= until_ms) ||
			     out_of_time(m)))
				return 1e9;
		}
		sum += ply;
	}
	return k ? sum / k : 1e9;
}

/* Runs iterations until the clock passes until_ms (when timed), iters
 * reaches until_iters, or the engine says stop.  Without a deadline the
 * clock is read every 16 iterations only, for the stop poll. */
static void run(struct mcts *m, double until_ms, long until_iters)
{
	while (!m->aborted && m->iters < until_iters) {
		if (m->timed && ai_now_ms() >= until_ms)
			break;
		if ((m->timed || (m->iters & 15) == 0) && watched(m) &&
		    out_of_time(m))
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

/* The most visited line from the root move `first`, up to max plies,
 * written as moves after a space each.  With rolls, chance events show as
 * "(roll N)", the likeliest outcome explored most; without, the line
 * stops before the first chance event. */
static void line_text(const struct mcts *m, const struct node *first, int max,
		      int rolls, struct text *out)
{
	const struct game *g = m->g;
	unsigned char *st = m->st;
	memcpy(st, m->root_state, m->ss);
	const struct node *nd = first;
	char buf[MOVE_TEXT_MAX];
	for (int ply = 0; nd && ply < max; ply++) {
		g->format(st, &nd->mv, buf);
		text_printf(out, " %s", buf);
		g->play(st, &nd->mv);
		while (rolls && nd && nd->kind == CHANCE && nd->visits) {
			const struct node *c = node_at(nd->child), *b = NULL;
			for (int i = 0; i < nd->nchild; i++)
				if (!b || c[i].visits > b->visits)
					b = &c[i];
			text_printf(out, " (roll %d)",
				    (int)(int64_t)b->mv.w[0]);
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

/* Sets up a search of st: scratch buffers, the root and its children.
 * Returns 0, or -1 when there is no room or no move. */
static int start(struct mcts *m, const struct game *g, const void *st,
		 const struct ai_search *how, struct rng *r, double deadline)
{
	tables_init();
	*m = (struct mcts){0};
	m->g = g;
	m->how = how;
	m->r = r;
	m->np = g->players(st);
	m->ss = g->state_size;
	m->root_state = st;
	m->expand_at = 2;
	m->explore = UCT_C;
	m->timed = deadline > 0;
	m->deadline = deadline;
	size_t nm = (size_t)g->max_moves;
	m->st = ai_scratch(AI_STATES, 2 * m->ss);
	m->st2 = m->st ? m->st + m->ss : NULL;
	m->cls = ai_scratch(AI_CLASS, nm);
	m->prior = ai_scratch(AI_PRIOR, sizeof *m->prior * nm);
	m->list = ai_scratch(AI_LIST, sizeof *m->list * nm);
	if (!m->st || !m->cls || !m->prior || !m->list)
		return -1;
	if (alloc_nodes(m, 1) != 0)
		return -1;
	return 0;
}

/* What the exact solver found about the root moves. */
struct solved {
	int done; /* the solver finished */
	int best; /* the best value */
	int n;    /* moves in list */
	struct move *list;
	int *value; /* per move of list, the mover's value */
	long nodes;
	const char *what; /* for the log: "solved: win" ... */
};

/* The solver's value of the root move mv, when it has one. */
static const int *solved_value(const struct solved *sv, const struct move *mv)
{
	if (!sv->done)
		return NULL;
	for (int i = 0; i < sv->n; i++)
		if (move_equal(&sv->list[i], mv))
			return &sv->value[i];
	return NULL;
}

/* Gives the exact solver until `until` (a timed search) or `limit` nodes.
 * When it finishes, the root moves that are worse than the best are
 * banned, so that the search only weighs the moves that keep the best
 * result (with two players the margin is left to the search).  Returns 1
 * when it finished. */
static int try_solve(struct mcts *m, struct node *root, double until,
		     long limit, struct solved *sv)
{
	const struct game *g = m->g;
	sv->n = g->moves(m->root_state, sv->list);
	if (sv->n <= 0 ||
	    !search_solve(g, m->root_state, sv->list, sv->n, until, limit,
			  m->how->stop, m->how->ctx, sv->value, &sv->nodes))
		return 0;
	sv->done = 1;
	sv->best = sv->value[0];
	for (int i = 1; i < sv->n; i++)
		if (sv->value[i] > sv->best)
			sv->best = sv->value[i];
	sv->what = m->np != 2      ? "solved"
		   : sv->best > 0  ? "solved: win"
		   : sv->best == 0 ? "solved: draw"
				   : "solved: loss";
	struct node *kids = node_at(root->child);
	for (int k = 0; k < root->nchild; k++) {
		const int *v = solved_value(sv, &kids[k].mv);
		kids[k].banned = v && *v < sv->best;
	}
	return 1;
}

/* The search line on the log: the move, the effort, and what it expects. */
static void report(struct mcts *m, const struct node *root,
		   const struct move *mv, const struct solved *sv, FILE *log,
		   double start_ms)
{
	const struct game *g = m->g;
	double ms = ai_now_ms() - start_ms;
	char buf[MOVE_TEXT_MAX];
	g->format(m->root_state, mv, buf);
	struct text t;
	text_init(&t);
	text_printf(&t,
		    "ai: %s after %ld playouts in %.0f ms (%.0f/s), %u nodes",
		    buf, m->iters, ms, ms > 0 ? m->iters / ms * 1000 : 0.0,
		    m->used);
	if (m->stopped)
		text_puts(&t, "; stopped");
	if (sv->what)
		text_printf(&t, "; %s (%ld nodes)", sv->what, sv->nodes);
	const struct node *b = NULL, *kids = node_at(root->child);
	for (int k = 0; k < root->nchild; k++)
		if (move_equal(&kids[k].mv, mv))
			b = &kids[k];
	if (b && b->visits) {
		if (m->np == 1)
			text_printf(&t, "; expected score %.2f",
				    b->sum / b->visits);
		else
			text_printf(&t, "; value %.3f", b->sum / b->visits);
		text_puts(&t, "; line");
		line_text(m, b, 8, 1, &t);
	}
	fprintf(log, "%s\n", t.s);
	text_free(&t);
}

int mcts_choose(const struct game *g, const void *st,
		const struct ai_search *how, double deadline, struct move *out)
{
	struct rng r;
	rng_seed(&r, how->seed);
	struct mcts m;
	struct solved sv = {0};
	sv.list = ai_scratch(AI_SOLVE_LIST, sizeof *sv.list * g->max_moves);
	sv.value = ai_scratch(AI_VALUES, sizeof *sv.value * g->max_moves);
	if (!sv.list || !sv.value || start(&m, g, st, how, &r, deadline) < 0)
		return -1;
	struct node *root = node_at(0);
	if (expand(&m, root, st, 1) < 0) /* more moves than a node holds */
		return ai_random_move(g, st, &r, m.list, out);
	if (root->kind != DECIDE)
		return -1;
	struct node *kids = node_at(root->child);
	if (root->nchild == 1) {
		*out = kids[0].mv;
		sv.what = "only move";
	} else {
		long budget = how->playouts > 0 ? how->playouts : LONG_MAX;
		double span = m.timed ? deadline - how->start_ms : 0;
		/* a first look: how long is the rest of the game?  (The
		 * search's own playouts may stop early at evaluate().) */
		double plies = game_length(&m, how->start_ms + 0.02 * span);
		run(&m, how->start_ms + 0.1 * span, budget / 10 + 1);
		if (plies <= 16 && !m.aborted && !m.stopped) {
			double share = plies <= 12 ? 0.7 : 0.35;
			double now = ai_now_ms();
			double until =
				m.timed ? now + share * (deadline - now) : 0;
			long limit =
				how->playouts > 0
					? (long)(share * (double)how->playouts *
						 (plies + 1)) +
						  1
					: LONG_MAX;
			try_solve(&m, root, until, limit, &sv);
		}
		int allowed = 0;
		struct node *last = NULL;
		for (int k = 0; k < root->nchild; k++)
			if (!kids[k].banned)
				allowed++, last = &kids[k];
		if (allowed == 1 && !m.stopped) {
			*out = last->mv;
		} else {
			if (m.np != 2 && sv.done) {
				/* max-n's choice is the solver's own */
				int bi = 0;
				for (int i = 1; i < sv.n; i++)
					if (sv.value[i] > sv.value[bi])
						bi = i;
				*out = sv.list[bi];
			} else {
				run(&m, deadline, budget);
				*out = best_child(&m, root)->mv;
			}
		}
	}
	if (how->log)
		report(&m, root, out, &sv, how->log, how->start_ms);
	return 0;
}

/* The analysis line: one group per visited root move, best first (the
 * allowed moves by visits, then the moves the solver showed worse), at
 * most 20. */
#define INFO_MOVES 20
static void info_line(struct mcts *m, const struct node *root,
		      const struct solved *sv, struct text *out)
{
	const struct node *kids = node_at(root->child), *order[INFO_MOVES];
	int n = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int k = 0; k < root->nchild; k++) {
			const struct node *c = &kids[k];
			if (c->banned != pass || c->visits <= c->virt)
				continue;
			int j = pass ? n : 0;
			if (!pass)
				while (j < n && !order[j]->banned &&
				       order[j]->visits >= c->visits)
					j++;
			if (j >= INFO_MOVES)
				continue;
			if (n < INFO_MOVES)
				n++;
			memmove(order + j + 1, order + j,
				sizeof *order * (size_t)(n - 1 - j));
			order[j] = c;
		}
	char buf[MOVE_TEXT_MAX];
	for (int i = 0; i < n; i++) {
		const struct node *c = order[i];
		const int *pv = solved_value(sv, &c->mv);
		double v = c->sum / c->visits;
		if (pv && m->np == 2)
			v = *pv > 0 ? 1 : *pv == 0 ? 0.5 : 0;
		else if (pv && m->np == 1)
			v = *pv;
		m->g->format(m->root_state, &c->mv, buf);
		text_printf(out, "%sinfo move %s visits %u value %.4f",
			    i ? " " : "", buf, c->visits - c->virt, v);
		if (pv && m->np == 2)
			text_printf(out, " proven %s",
				    *pv > 0    ? "win"
				    : *pv == 0 ? "draw"
					       : "loss");
		else if (pv && m->np == 1)
			text_printf(out, " proven %d", *pv);
		text_printf(out, " order %d pv", i);
		line_text(m, c, 16, 0, out);
	}
}

int mcts_analyze(const struct game *g, const void *st,
		 const struct ai_search *how, double interval)
{
	struct rng r;
	rng_seed(&r, how->seed);
	struct mcts m;
	struct solved sv = {0};
	sv.list = ai_scratch(AI_SOLVE_LIST, sizeof *sv.list * g->max_moves);
	sv.value = ai_scratch(AI_VALUES, sizeof *sv.value * g->max_moves);
	if (!sv.list || !sv.value || start(&m, g, st, how, &r, 0) < 0)
		return -1;
	struct node *root = node_at(0);
	if (expand(&m, root, st, 1) < 0 || root->kind != DECIDE)
		return -1;
	if (out_of_time(&m))
		return 0; /* a line was already waiting */
	double plies = game_length(&m, 0);
	struct text line;
	text_init(&line);
	for (int round = 0; !m.stopped; round++) {
		double next = ai_now_ms() + interval;
		m.aborted = 0; /* an iteration the last interval cut short */
		/* near the end, the solver gets half of each interval until
		 * it finishes; its table makes each try cheaper */
		if (plies <= 16 && !sv.done && round > 0)
			try_solve(&m, root, ai_now_ms() + interval / 2,
				  LONG_MAX, &sv);
		m.timed = 1;
		m.deadline = next;
		run(&m, next, LONG_MAX);
		if (m.stopped)
			break;
		while (ai_now_ms() < next && !out_of_time(&m))
			; /* nothing left to search: wait for the interval */
		if (m.stopped)
			break;
		text_clear(&line);
		info_line(&m, root, &sv, &line);
		how->info(how->ctx, line.s ? line.s : "");
	}
	text_free(&line);
	return 0;
}
