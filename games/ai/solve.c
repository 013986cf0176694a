/* solve.c: the exact solver.
 *
 * When the rest of a game is small, searching it all beats sampling it.
 * Two players: negamax alpha-beta over one integer that puts the result
 * first and the margin after it (solve.h, SOLVE_RESULT), so that asking
 * only for win, draw or loss is a narrow window around the draws that
 * prunes as hard as a three-valued search, and asking for the margin is the
 * same search with a wider window.  One, three or four players: a full
 * max-n search in which each player maximises its own result, then its
 * margin (solo: the score).
 *
 * The transposition table holds proven bounds, which stay true for the
 * whole game, so it is kept from one call to the next (and from one move
 * to the next) until the game ends; its key is the game's key() when the
 * game has one, so that a position and its mirror images share an entry,
 * else a hash of the state's bytes (states are written deterministically).
 * Moves are tried in the order the table remembers as best, then by the
 * caller's scores at the root (a tree's visits), then by the history of
 * cutoffs.  Chance and moves that cannot be listed stop the solver: it
 * says "unsolved" rather than guess. */
#include "solve.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "reward.h"
#include "timeman.h"

#define SOLVE_DEPTH 100 /* plies; deeper games are never small */
/* The solver's rate, about: what a call's time lets it search, and so how
 * much of the table it can use (solve_table_ready) */
#define NODES_PER_MS 5000
/* Plies from the root that look ahead (look_ahead()) before searching:
 * there a cutoff saves a large subtree; deeper down the look costs more
 * than it saves.  Checkertoe, all 17 moves of c3 b2 d4 b4 c2 c4 b3 d3 (a
 * 16-ply search each): 2.30M nodes without, 1.99M with 8 plies, 1.61M at
 * every ply, which was slower by a third. */
#define LOOK_PLIES 8
#define MAX_VALUE (SOLVE_RESULT + SOLVE_MARGIN_MAX) /* a win by the most */

struct solver {
	struct solve_scratch *sc; /* this thread's scratch space */
	struct solve_table *tt;   /* the player's table */
	const struct game *g;
	int np;
	struct ai_players pl; /* who plays with whom */
	size_t ss;
	uint64_t salt;         /* hash of the game's name, for keys */
	unsigned char *states; /* one state per ply */
	struct move *lists;    /* the move lists of plies 1.., end to end */
	uint64_t *ord;         /* beside lists: the order to try them in */
	uint64_t *keys;        /* and the keys of the positions they lead to */
	int *gain;  /* and, where the game has points_first, the mover's lead
		     * after each (found by look_ahead()) */
	size_t cap; /* moves that fit in lists */
	size_t off[SOLVE_DEPTH + 2]; /* where ply d's list starts */
	long nodes, limit;
	double deadline;
	int (*stop)(void *); /* the engine's input, asked every AI_POLL_MS */
	void *ctx;
	double next_poll;
	int abort;
	int *halt; /* a root split's (set by the first thread to stop short) */
	const double *scores; /* the caller's scores of the root moves */
	const struct move *root_move; /* refine()'s move */
	uint32_t *hist;               /* HIST_SIZE cutoff counts by move */
};

/* A position's key in the table; its low bit is always 0 (look_ahead()
 * keeps a flag there). */
static uint64_t node_key(const struct solver *s, const void *st)
{
	uint64_t k = s->g->key ? s->g->key(st) : solve_hash_bytes(st, s->ss);
	return solve_mix(k ^ s->salt) & ~(uint64_t)1;
}

static unsigned char *ply_state(const struct solver *s, int d)
{
	return s->states + (size_t)d * s->ss;
}

/* Whether the solver must stop now: its deadline has passed, the engine
 * says stop (asked every AI_POLL_MS), or another thread of a root split has
 * stopped short.  Reads the clock. */
static int stopped_now(struct solver *s)
{
	if (s->halt && __atomic_load_n(s->halt, __ATOMIC_RELAXED))
		s->abort = 1;
	if (s->deadline <= 0 && !s->stop)
		return s->abort;
	double now = ai_now_ms();
	if (s->deadline > 0 && now >= s->deadline)
		s->abort = 1;
	if (s->stop && now >= s->next_poll) {
		s->next_poll = now + AI_POLL_MS;
		if (s->stop(s->ctx))
			s->abort = 1;
	}
	return s->abort;
}

/* stopped_now as solve_table_ready asks it. */
static int widen_stop(void *s)
{
	return stopped_now(s);
}

static int out_of_budget(struct solver *s, int d)
{
	if (d >= SOLVE_DEPTH || ++s->nodes > s->limit)
		s->abort = 1;
	else if ((s->nodes & 31) == 0 &&
		 (s->deadline > 0 || s->stop || s->halt))
		stopped_now(s);
	return s->abort;
}

#define HIST_SIZE 4096

static unsigned move_slot(const struct move *mv)
{
	uint64_t h = mv->w[0] ^ mv->w[1] * 3 ^ mv->w[2] * 5 ^ mv->w[3] * 7;
	return (unsigned)(solve_mix(h) & (HIST_SIZE - 1));
}

#define HIST_MAX ((uint64_t)1 << 40)
/* With gains, the order word's score is the gain (offset by GAIN_BIAS, in
 * 10 bits, at most GAIN_TOP) above the history (38 bits); the table's best
 * move, ORDER_FIRST, is above both. */
#define GAIN_SHIFT 38
#define GAIN_BIAS 512
#define GAIN_TOP (2 * GAIN_BIAS - 2)
#define ORDER_FIRST (((uint64_t)1 << 48) - 1)

/* The index of the move an order word names. */
static int move_index(uint64_t ord)
{
	return 0xffff - (int)(ord & 0xffff);
}

static int cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* The order to try the n moves of a ply in, into ord: the table's best
 * first, then, given gains, the moves that leave the mover furthest
 * ahead, then the moves that caused cutoffs most often elsewhere (the
 * history heuristic: in games where a move is a place, a good place stays
 * good).  Each ord word is the sort score above the move's index, so one
 * sort of words orders both.  Gains pay in Take It Away: on 210 positions
 * 6 to 12 moves before the end of 30 self-played games, judged with 10M
 * nodes each, 119 s and 15 left unsettled against 189 s and 26 by history
 * alone.  In checkertoe and Abs-Trac-Toe gains first cost 30% and 75% more
 * nodes (c3 c2 c1 c4 b3 d3; an opening), hence the game's points_first. */
static void order(const struct solver *s, const struct move *list,
		  uint64_t *ord, int n, int first, const int *gain)
{
	for (int i = 0; i < n; i++) {
		uint64_t score = s->hist[move_slot(&list[i])];
		if (score > HIST_MAX)
			score = HIST_MAX;
		if (gain) {
			uint64_t h = ((uint64_t)1 << GAIN_SHIFT) - 1;
			int gv = gain[i] + GAIN_BIAS;
			gv = gv < 0 ? 0 : gv > GAIN_TOP ? GAIN_TOP : gv;
			score = (uint64_t)gv << GAIN_SHIFT |
				(score < h ? score : h);
		}
		if (i == first)
			score = ORDER_FIRST;
		ord[i] = score << 16 | (uint64_t)(0xffff - i);
	}
	if (n > 24) {
		qsort(ord, (size_t)n, sizeof *ord, cmp_desc);
		return;
	}
	for (int i = 1; i < n; i++) {
		uint64_t x = ord[i];
		int j = i;
		for (; j > 0 && ord[j - 1] < x; j--)
			ord[j] = ord[j - 1];
		ord[j] = x;
	}
}

/* The root's order: the caller's scores (a tree's visits) first, then as
 * order() would. */
struct ranked {
	double score;
	uint64_t ord;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->score != y->score)
		return x->score < y->score ? 1 : -1;
	return x->ord < y->ord ? 1 : x->ord > y->ord ? -1 : 0;
}

static int root_order(const struct solver *s, const struct move *list,
		      uint64_t *ord, int n)
{
	order(s, list, ord, n, -1, NULL);
	if (!s->scores)
		return 0;
	struct ranked *r = scratch_get(&s->sc->root, sizeof *r * (size_t)n);
	if (!r)
		return -1;
	for (int k = 0; k < n; k++)
		r[k] = (struct ranked){s->scores[move_index(ord[k])], ord[k]};
	qsort(r, (size_t)n, sizeof *r, cmp_ranked);
	for (int k = 0; k < n; k++)
		ord[k] = r[k].ord;
	return 0;
}

/* A value from a result (1, 0, -1) and a margin of points. */
static int value_of(int result, long margin)
{
	long m = margin < -SOLVE_MARGIN_MAX  ? -SOLVE_MARGIN_MAX
		 : margin > SOLVE_MARGIN_MAX ? SOLVE_MARGIN_MAX
					     : margin;
	return result * SOLVE_RESULT + (int)m;
}

/* Player me's points less the other player's at st (two players). */
static long lead(const struct solver *s, const void *st, int me)
{
	int pts[GAME_MAX_PLAYERS] = {0};
	s->g->score(st, pts);
	return (long)pts[me - 1] - pts[2 - me];
}

/* The result (1, 0, -1) for player me (1 or 2) of a state whose status is
 * cs: none (0) until the game is over. */
static int result_of(struct game_status cs, int me)
{
	return cs.phase != GAME_OVER || cs.player == 0 ? 0
	       : cs.player == me                       ? 1
						       : -1;
}

/* The value for player me of the finished (or stuck) state st, whose
 * status is cs: the result, then the margin of points.  (The callers have
 * the status already; a finished game's status and score count its lines
 * or weigh its pieces, the solver's commonest work at the leaves.) */
static int terminal2(const struct solver *s, const void *st,
		     struct game_status cs, int me)
{
	return value_of(result_of(cs, me), lead(s, st, me));
}

static int alphabeta(struct solver *s, int d, int me, uint64_t key, int alpha,
		     int beta);

/* The value, for player me, of the state at ply d + 1 (just played, whose
 * key is key): a finished game is scored, a position searched.  A player
 * may move twice in a row (Tiptoe's set-up), so the sign flips only when
 * the mover changes. */
static int child_value(struct solver *s, int d, int me, uint64_t key, int alpha,
		       int beta)
{
	const unsigned char *c = ply_state(s, d + 1);
	struct game_status cs = s->g->status(c);
	if (cs.phase == GAME_OVER)
		return terminal2(s, c, cs, me);
	if (cs.phase == GAME_ROLL) {
		s->abort = 1;
		return 0;
	}
	if (cs.player == me)
		return alphabeta(s, d + 1, me, key, alpha, beta);
	return -alphabeta(s, d + 1, cs.player, key, -beta, -alpha);
}

/* The number of bits of n: a cheap log2 of the work an entry saved. */
static int bits(long n)
{
	int b = 0;
	while (n > 0 && b < 255)
		n >>= 1, b++;
	return b;
}

/* Stores bounds [lo, hi] for key, narrowed by what the table knew; work is
 * the nodes the proof took. */
static void tt_store2(const struct solve_table *T, uint64_t key, int lo, int hi,
		      int best, long work)
{
	int fresh, w = bits(work);
	struct tt_val old, v = {.tag = TAG(key, T->gen), .u.word = 0};
	struct tt_entry *e = tt_slot(T, key, &fresh, &old);
	if (!fresh) {
		if (old.u.ab.lo > lo)
			lo = old.u.ab.lo;
		if (old.u.ab.hi < hi)
			hi = old.u.ab.hi;
		if (lo > hi) /* only a key collision can do this */
			return;
		if (best == TT_NO_BEST)
			best = old.u.ab.best;
		if (old.u.ab.work > w)
			w = old.u.ab.work;
	}
	v.u.ab.lo = (int16_t)lo;
	v.u.ab.hi = (int16_t)hi;
	v.u.ab.best = (uint16_t)best;
	v.u.ab.work = (uint8_t)w;
	tt_write(e, &v);
}

/* Before searching any move of ply d: the key of the position each move
 * leads to, into keys (and the mover's lead there into gain, NULL when
 * not wanted), and whether one of them is known to reach beta
 * already, because it ends the game or the table holds a bound for it (an
 * enhanced transposition cutoff).  The keys are found first and their
 * buckets fetched together, so that the table's cache misses overlap.
 * Returns the best lower bound found, -SOLVE_INF when there is none. */
static int look_ahead(struct solver *s, int d, int me, const struct move *list,
		      uint64_t *keys, int *gain, int n, int beta)
{
	const struct game *g = s->g;
	const unsigned char *st = ply_state(s, d);
	unsigned char *child = ply_state(s, d + 1);
	int best = -SOLVE_INF;
	for (int i = 0; i < n; i++) {
		game_copy(g, child, st);
		g->play(child, &list[i]);
		struct game_status cs = g->status(child);
		keys[i] = 0;
		if (gain)
			gain[i] = (int)lead(s, child, me);
		if (cs.phase == GAME_OVER) {
			int v = gain ? value_of(result_of(cs, me), gain[i])
				     : terminal2(s, child, cs, me);
			if (v > best)
				best = v;
			if (best >= beta)
				return best;
		} else if (cs.phase == GAME_PLAY) {
			/* the low bit: the same player moves again */
			keys[i] = node_key(s, child) | (cs.player == me);
			__builtin_prefetch(tt_bucket(s->tt, keys[i]));
		}
	}
	for (int i = 0; i < n && best < beta; i++) {
		struct tt_val e;
		if (!keys[i] || !tt_find(s->tt, keys[i], &e))
			continue;
		int lo = keys[i] & 1 ? e.u.ab.lo : -e.u.ab.hi;
		if (lo > best)
			best = lo;
	}
	return best;
}

/* Negamax with alpha-beta for the player me to move at ply d (a GAME_PLAY
 * state whose key is key), fail-soft: a result at or below alpha is an
 * upper bound, one at or above beta a lower bound, one between them
 * exact. */
static int alphabeta(struct solver *s, int d, int me, uint64_t key, int alpha,
		     int beta)
{
	const struct game *g = s->g;
	unsigned char *st = ply_state(s, d);
	if (out_of_budget(s, d))
		return 0;
	long start = s->nodes;
	int first = -1;
	struct tt_val e;
	if (tt_find(s->tt, key, &e)) {
		int lo = e.u.ab.lo, hi = e.u.ab.hi;
		if (lo >= beta || lo == hi)
			return lo;
		if (hi <= alpha)
			return hi;
		alpha = lo > alpha ? lo : alpha;
		beta = hi < beta ? hi : beta;
		first = e.u.ab.best == TT_NO_BEST ? -1 : e.u.ab.best;
	}
	if (s->cap - s->off[d] < (size_t)g->max_moves) {
		s->abort = 1;
		return 0;
	}
	struct move *list = s->lists + s->off[d];
	uint64_t *ord = s->ord + s->off[d], *keys = s->keys + s->off[d];
	int n = g->moves(st, list);
	s->off[d + 1] = s->off[d] + (size_t)n;
	if (n == 0) {
		if (g->random_move)
			s->abort = 1; /* moves we cannot list */
		/* stuck: scored as it stands */
		return terminal2(s, st, g->status(st), me);
	}
	int cut = -SOLVE_INF;
	int *gain = d < LOOK_PLIES && game_search(g)->points_first
			    ? s->gain + s->off[d]
			    : NULL;
	if (d < LOOK_PLIES)
		cut = look_ahead(s, d, me, list, keys, gain, n, beta);
	else
		for (int i = 0; i < n; i++)
			keys[i] = 1;
	if (cut >= beta) {
		tt_store2(s->tt, key, cut, SOLVE_INF, TT_NO_BEST,
			  s->nodes - start);
		return cut;
	}
	order(s, list, ord, n, first, gain);
	int a0 = alpha, best = -SOLVE_INF, bi = TT_NO_BEST;
	unsigned char *child = ply_state(s, d + 1);
	for (int k = 0; k < n; k++) {
		int i = move_index(ord[k]);
		game_copy(g, child, st);
		g->play(child, &list[i]);
		if (keys[i] == 1)
			keys[i] = node_key(s, child);
		int v = child_value(s, d, me, keys[i] & ~(uint64_t)1, alpha,
				    beta);
		if (s->abort)
			return 0;
		if (v > best) {
			best = v, bi = i;
			if (v > alpha)
				alpha = v;
			if (alpha >= beta) {
				s->hist[move_slot(&list[i])] +=
					(uint32_t)(s->nodes - start);
				break;
			}
		}
	}
	tt_store2(s->tt, key, best > a0 ? best : -SOLVE_INF,
		  best < beta ? best : SOLVE_INF, bi, s->nodes - start);
	return best;
}

/* The value vector of a finished (or stuck) state: each player's share of
 * first place (ai_shares) then the margin over the best other team;
 * solo: the score. */
static void terminal_n(const struct solver *s, const void *st, int *vec)
{
	int pts[GAME_MAX_PLAYERS] = {0};
	s->g->score(st, pts);
	if (s->np == 1) {
		vec[0] = pts[0] < -SOLVE_INF  ? -SOLVE_INF
			 : pts[0] > SOLVE_INF ? SOLVE_INF
					      : pts[0];
		return;
	}
	int share[GAME_MAX_PLAYERS];
	ai_shares(&s->pl, pts, s->g->status(st), share);
	for (int p = 0; p < s->np; p++) {
		long m = (long)pts[p] - ai_best_other(&s->pl, pts, p);
		m = m < -SOLVE_MARGIN_MAX  ? -SOLVE_MARGIN_MAX
		    : m > SOLVE_MARGIN_MAX ? SOLVE_MARGIN_MAX
					   : m;
		vec[p] = share[p] * SOLVE_RESULT + (int)m;
	}
}

/* Max-n: every player maximises its own entry of the value vector (ties go
 * to the first move in moves()'s order). */
static void maxn(struct solver *s, int d, int *vec)
{
	const struct game *g = s->g;
	unsigned char *st = ply_state(s, d);
	if (out_of_budget(s, d))
		return;
	int me = g->status(st).player - 1;
	uint64_t key = node_key(s, st);
	struct tt_val e;
	if (tt_find(s->tt, key, &e)) {
		for (int p = 0; p < s->np; p++)
			vec[p] = e.u.v[p];
		return;
	}
	if (s->cap - s->off[d] < (size_t)g->max_moves) {
		s->abort = 1;
		return;
	}
	struct move *list = s->lists + s->off[d];
	int n = g->moves(st, list);
	s->off[d + 1] = s->off[d] + (size_t)n;
	if (n == 0) {
		if (g->random_move)
			s->abort = 1;
		else
			terminal_n(s, st, vec);
		return;
	}
	int best[GAME_MAX_PLAYERS] = {0}, cv[GAME_MAX_PLAYERS] = {0};
	best[me] = INT_MIN;
	unsigned char *child = ply_state(s, d + 1);
	for (int i = 0; i < n; i++) {
		game_copy(g, child, st);
		g->play(child, &list[i]);
		struct game_status cs = g->status(child);
		if (cs.phase == GAME_OVER)
			terminal_n(s, child, cv);
		else if (cs.phase == GAME_ROLL)
			s->abort = 1;
		else
			maxn(s, d + 1, cv);
		if (s->abort)
			return;
		if (cv[me] > best[me])
			memcpy(best, cv, sizeof best);
	}
	memcpy(vec, best, sizeof best);
	int fresh;
	struct tt_val v = {.tag = TAG(key, s->tt->gen), .u.word = 0};
	for (int p = 0; p < GAME_MAX_PLAYERS; p++)
		v.u.v[p] = (int16_t)(p < s->np ? vec[p] : 0);
	tt_write(tt_slot(s->tt, key, &fresh, &e), &v);
}

/* s's scratch space, from its context.  Returns 0, or -1 when memory is
 * short. */
static int scratch(struct solver *s)
{
	const struct game *g = s->g;
	s->states = scratch_get(&s->sc->states, s->ss * (SOLVE_DEPTH + 2));
	/* room for the widest list at any ply, and for a few hundred moves a
	 * ply down the whole depth; a deeper stack than that gives up */
	size_t per_ply = g->max_moves < 256 ? (size_t)g->max_moves : 256;
	s->cap = (size_t)g->max_moves + per_ply * SOLVE_DEPTH;
	size_t list_bytes = sizeof *s->lists * s->cap;
	unsigned char *mem = scratch_get(
		&s->sc->moves,
		list_bytes + (2 * sizeof *s->ord + sizeof *s->gain) * s->cap);
	s->hist = scratch_get(&s->sc->hist, HIST_SIZE * sizeof *s->hist);
	if (!s->states || !mem || !s->hist)
		return -1;
	s->lists = (struct move *)mem;
	s->ord = (uint64_t *)(mem + list_bytes);
	s->keys = s->ord + s->cap;
	s->gain = (int *)(s->keys + s->cap);
	memset(s->hist, 0, HIST_SIZE * sizeof *s->hist);
	return 0;
}

/* Sets up a solver for st; returns 0, or -1 when memory is short. */
static int begin(struct solver *s, struct solve_ctx *c, const struct game *g,
		 const void *st, struct solve_job *job)
{
	memset(s, 0, sizeof *s);
	s->sc = &c->scratch;
	s->tt = &c->table;
	s->g = g;
	ai_players_of(g, st, &s->pl);
	s->np = s->pl.n;
	s->ss = g->state_size;
	s->salt = solve_hash_bytes(g->name, strlen(g->name));
	s->limit = job->node_limit > 0 ? job->node_limit : LONG_MAX;
	s->deadline = job->deadline_ms;
	s->stop = job->stop;
	s->ctx = job->ctx;
	s->scores = job->order;
	job->nodes = 0;
	double nodes = (double)s->limit;
	if (s->deadline > 0) {
		double by_time = (s->deadline - ai_now_ms()) * NODES_PER_MS;
		if (by_time < nodes)
			nodes = by_time;
	}
	if (g->max_moves >= TT_NO_BEST ||
	    !solve_table_ready(s->tt, nodes, widen_stop, s) || scratch(s) < 0)
		return -1;
	memcpy(s->states, st, s->ss);
	return 0;
}

/* The bounds that a fail-soft search of window (alpha, beta) gave v. */
static struct solve_bound window_bound(int v, int alpha, int beta)
{
	struct solve_bound b = {-SOLVE_INF, SOLVE_INF};
	if (v <= alpha)
		b.hi = v;
	else if (v >= beta)
		b.lo = v;
	else
		b.lo = b.hi = v;
	return b;
}

static struct solve_bound meet(struct solve_bound a, struct solve_bound b)
{
	if (b.lo > a.lo)
		a.lo = b.lo;
	if (b.hi < a.hi)
		a.hi = b.hi;
	return a;
}

/* The window edges just outside the draws: a search of (-DRAW_EDGE,
 * DRAW_EDGE) tells a win from a draw from a loss. */
#define DRAW_EDGE (SOLVE_MARGIN_MAX + 1)

/* The mover's value of the state at ply 1 (just played from the root,
 * whose mover is me) searched with window (alpha, beta), as bounds. */
static struct solve_bound root_child(struct solver *s, int me, int alpha,
				     int beta)
{
	struct solve_bound b = {-SOLVE_INF, SOLVE_INF};
	const unsigned char *c = ply_state(s, 1);
	struct game_status cs = s->g->status(c);
	if (cs.phase == GAME_OVER) {
		b.lo = b.hi = terminal2(s, c, cs, me);
		return b;
	}
	int v = child_value(s, 0, me, node_key(s, c), alpha, beta);
	return s->abort ? b : window_bound(v, alpha, beta);
}

static int settled_class(struct solve_bound b)
{
	return b.lo == b.hi || b.lo > SOLVE_MARGIN_MAX ||
	       b.hi < -SOLVE_MARGIN_MAX ||
	       (b.lo >= -SOLVE_MARGIN_MAX && b.hi <= SOLVE_MARGIN_MAX);
}

/* A null-window search of one position: ply 1 just played from the root
 * (root_move set), or the root itself, for the root's mover me: is its
 * value at least gamma? */
static struct solve_bound probe(struct solver *s, int me, int root_move,
				uint64_t key, int gamma)
{
	if (root_move)
		return root_child(s, me, gamma - 1, gamma);
	int v = alphabeta(s, 0, me, key, gamma - 1, gamma);
	struct solve_bound b = {-SOLVE_INF, SOLVE_INF};
	return s->abort ? b : window_bound(v, gamma - 1, gamma);
}

/* The mover me's value of st if the game ended as it stands: a first
 * guess at its exact value (a few moves from the end the margin seldom
 * moves far from the points already won), kept within the bounds b. */
static int guess(const struct solver *s, const void *st, int me,
		 struct solve_bound b)
{
	long m = lead(s, st, me);
	int v = value_of(m > 0 ? 1 : m < 0 ? -1 : 0, m);
	return v <= b.lo ? b.lo + 1 : v > b.hi ? b.hi : v;
}

/* Narrows *b to the exact value by null-window searches, or until it is
 * clear that the value is below floor.  The first asks about the guess
 * (at least floor), the next ones a point past the bound it moved, as
 * MTD(f) does; when three answers in a row point the same way the steps
 * double, and once the value is bounded on both sides each search halves
 * the gap.  The table keeps each search's work for the next.  (Starting
 * from the edge of the result class instead took 13 searches and 208M
 * nodes to find a Take It Away loss by 12 points; from the guess, 3 and
 * 57M.) */
static void refine(struct solver *s, int me, int root_move, uint64_t key,
		   int floor, struct solve_bound *b)
{
	/* ply 1 holds the root move's position (the searches below it
	 * write only deeper plies) */
	if (root_move) {
		memcpy(ply_state(s, 1), s->states, s->ss);
		s->g->play(ply_state(s, 1), s->root_move);
	}
	int gamma = guess(s, root_move ? ply_state(s, 1) : s->states, me, *b);
	int run = 0, went = 0, both = 0;
	if (gamma < floor)
		gamma = floor;
	while (b->lo < b->hi && b->hi >= floor && !s->abort) {
		*b = meet(*b, probe(s, me, root_move, key, gamma));
		int up = b->lo >= gamma;
		both |= went && up != (went > 0);
		run = went == (up ? 1 : -1) ? run + 1 : 1;
		went = up ? 1 : -1;
		int step = run < 3 ? 1 : 1 << (run < 12 ? run - 2 : 10);
		int lo = b->lo >= -MAX_VALUE ? b->lo : -MAX_VALUE - 1;
		int hi = b->hi < MAX_VALUE ? b->hi : MAX_VALUE;
		gamma = both ? lo + (hi - lo + 1) / 2
			: up ? lo + step
			     : hi - step + 1;
		gamma = gamma <= lo ? lo + 1 : gamma > hi ? hi : gamma;
		if (gamma < floor)
			gamma = floor;
	}
}

/* A pass over the root moves (root_pass), shared by the threads of a
 * root split: each thread takes the next move in the root's order, and
 * the first to stop short (the clock, the budget, the engine's input)
 * stops the others.  The root moves' searches share nothing but the
 * table, so with the table shared a root split loses little of what one
 * thread finds for the next (on one thread the pass is the same loop). */
enum pass { RESULTS, MARGINS, MAXN };

struct split {
	enum pass pass;
	const struct move *list;
	const uint64_t *ord; /* the order to take them in (order words) */
	int n, me;
	struct solve_bound *out;
	int next;  /* the next of ord to take */
	int halt;  /* a thread stopped short */
	int floor; /* MARGINS: the best exact value so far, at least the
		    * best result's class */
};

/* Root move mv played into ply 1. */
static void root_play(struct solver *s, const struct move *mv)
{
	memcpy(ply_state(s, 1), s->states, s->ss);
	s->g->play(ply_state(s, 1), mv);
}

/* The pass's work at root move i: its result (RESULTS: win, draw or
 * loss), its exact value unless it is below the floor (MARGINS: refine),
 * or its max-n value. */
static void root_work(struct solver *s, struct split *sp, int i)
{
	struct solve_bound *b = &sp->out[i];
	if (sp->pass == RESULTS) {
		root_play(s, &sp->list[i]);
		*b = meet(*b, root_child(s, sp->me, -DRAW_EDGE, DRAW_EDGE));
	} else if (sp->pass == MARGINS) {
		s->root_move = &sp->list[i];
		refine(s, sp->me, 1, 0,
		       __atomic_load_n(&sp->floor, __ATOMIC_RELAXED), b);
		int f = __atomic_load_n(&sp->floor, __ATOMIC_RELAXED);
		while (!s->abort && b->lo == b->hi && b->lo > f &&
		       !__atomic_compare_exchange_n(&sp->floor, &f, b->lo, 1,
						    __ATOMIC_RELAXED,
						    __ATOMIC_RELAXED))
			;
	} else {
		root_play(s, &sp->list[i]);
		const unsigned char *child = ply_state(s, 1);
		struct game_status cs = s->g->status(child);
		int vec[GAME_MAX_PLAYERS] = {0};
		if (cs.phase == GAME_ROLL)
			s->abort = 1;
		else if (cs.phase == GAME_OVER)
			terminal_n(s, child, vec);
		else
			maxn(s, 1, vec);
		if (!s->abort)
			b->lo = b->hi = vec[sp->me];
	}
}

/* One thread's share of the pass. */
static void root_share(struct solver *s, struct split *sp)
{
	while (!s->abort) {
		int k = __atomic_fetch_add(&sp->next, 1, __ATOMIC_RELAXED);
		if (k >= sp->n)
			break;
		root_work(s, sp, sp->ord ? move_index(sp->ord[k]) : k);
	}
	if (s->abort)
		__atomic_store_n(&sp->halt, 1, __ATOMIC_RELAXED);
}

/* A helper thread of a root split: a solver of its own (its context's
 * scratch space) on the table of the main one. */
struct hand {
	struct solver s;
	struct split *sp;
	pthread_t thread;
};

static void *hand_main(void *arg)
{
	struct hand *h = arg;
	root_share(&h->s, h->sp);
	return NULL;
}

/* Sets up helper h of main solver s with context c. */
static int hand_ready(struct hand *h, const struct solver *s,
		      struct solve_scratch *sc, struct split *sp)
{
	h->s = (struct solver){.sc = sc,
			       .tt = s->tt,
			       .g = s->g,
			       .np = s->np,
			       .pl = s->pl,
			       .ss = s->ss,
			       .salt = s->salt,
			       .limit = s->limit,
			       .deadline = s->deadline,
			       .halt = &sp->halt};
	h->sp = sp;
	if (scratch(&h->s) < 0)
		return -1;
	memcpy(h->s.states, s->states, s->ss);
	return 0;
}

/* The pass, on the main solver s and up to `crew` helpers (one fewer than
 * the moves).  Returns 1 unless a thread stopped short. */
static int root_pass(struct solver *s, struct split *sp,
		     const struct solve_job *job)
{
	int want = job->crews < sp->n - 1 ? job->crews : sp->n - 1, hands = 0;
	struct hand *h = want > 0 ? calloc((size_t)want, sizeof *h) : NULL;
	for (; h && hands < want; hands++)
		if (hand_ready(&h[hands], s, job->crew[hands], sp) < 0 ||
		    pthread_create(&h[hands].thread, NULL, hand_main,
				   &h[hands]) != 0)
			break;
	if (hands > 0)
		s->halt = &sp->halt;
	root_share(s, sp);
	for (int j = 0; j < hands; j++) {
		pthread_join(h[j].thread, NULL);
		s->nodes += h[j].s.nodes;
	}
	free(h);
	s->halt = NULL;
	if (__atomic_load_n(&sp->halt, __ATOMIC_RELAXED))
		s->abort = 1;
	return !s->abort;
}

/* Two players: each root move's result, then (SOLVE_MARGIN) the exact
 * value of the best moves, the others shown to be below it.  Returns 1
 * when done. */
static int root_ab(struct solver *s, const struct move *list, int n,
		   const struct solve_job *job, struct solve_bound *out)
{
	uint64_t *ord = s->ord;
	s->off[1] = (size_t)n; /* ord[0..n) is the root's */
	if (root_order(s, list, ord, n) < 0)
		return 0;
	/* the result of every move, best guesses first */
	struct split sp = {.pass = RESULTS,
			   .list = list,
			   .ord = ord,
			   .n = n,
			   .me = s->g->status(s->states).player,
			   .out = out};
	if (!root_pass(s, &sp, job) || job->want == SOLVE_WDL)
		return !s->abort;
	/* the margin, among the moves of the best result: the first is
	 * settled exactly, each later one only when it reaches the best so
	 * far (a move that ties it is settled too; with a root split, one
	 * that another thread's move passes after it began is settled as
	 * well) */
	int best = -SOLVE_INF;
	for (int i = 0; i < n; i++)
		if (out[i].lo > best)
			best = out[i].lo;
	sp.pass = MARGINS;
	sp.next = 0;
	sp.floor = solve_class_lo(best);
	return root_pass(s, &sp, job);
}

/* More than two players, or one: max-n gives every move's exact value. */
static int root_maxn(struct solver *s, const struct move *list, int n,
		     const struct solve_job *job, struct solve_bound *out)
{
	s->off[1] = 0;
	struct split sp = {.pass = MAXN,
			   .list = list,
			   .n = n,
			   .me = s->g->status(s->states).player - 1,
			   .out = out};
	return root_pass(s, &sp, job);
}

int solve_moves(struct solve_ctx *c, const struct game *g, const void *st,
		const struct move *list, int n, struct solve_job *job,
		struct solve_bound *out)
{
	struct solver s;
	for (int i = 0; i < n; i++)
		out[i] = (struct solve_bound){-SOLVE_INF, SOLVE_INF};
	if (begin(&s, c, g, st, job) < 0)
		return 0;
	int done = s.np == 2 ? root_ab(&s, list, n, job, out)
			     : root_maxn(&s, list, n, job, out);
	job->nodes = s.nodes;
	return done;
}

int solve_position(struct solve_ctx *c, const struct game *g, const void *st,
		   struct solve_job *job, struct solve_bound *out)
{
	struct solver s;
	*out = (struct solve_bound){-SOLVE_INF, SOLVE_INF};
	if (begin(&s, c, g, st, job) < 0)
		return 0;
	s.off[0] = 0;
	if (s.np == 2) {
		int me = g->status(st).player;
		uint64_t key = node_key(&s, st);
		struct tt_val e;
		if (tt_find(s.tt, key, &e))
			*out = (struct solve_bound){e.u.ab.lo, e.u.ab.hi};
		/* is it a loss?  if not, is it a win?  (refine() needs no
		 * class first) */
		while (job->want == SOLVE_WDL && !settled_class(*out) &&
		       !s.abort) {
			int gamma = out->lo < -SOLVE_MARGIN_MAX
					    ? -SOLVE_MARGIN_MAX
					    : DRAW_EDGE;
			*out = meet(*out, probe(&s, me, 0, key, gamma));
		}
		if (job->want == SOLVE_MARGIN)
			refine(&s, me, 0, key, -SOLVE_INF, out);
	} else {
		int vec[GAME_MAX_PLAYERS] = {0};
		int me = g->status(st).player - 1;
		maxn(&s, 0, vec);
		if (!s.abort)
			out->lo = out->hi = vec[me];
	}
	job->nodes = s.nodes;
	if (s.abort)
		return 0;
	return s.np != 2 || out->lo == out->hi ||
	       (job->want == SOLVE_WDL && settled_class(*out));
}

int search_solve(struct solve_ctx *c, const struct game *g, const void *st,
		 const struct move *list, int n, double deadline_ms,
		 long node_limit, int (*stop)(void *), void *ctx, int *value,
		 struct solve_bound *bounds, long *nodes)
{
	struct solve_job job = {
		.deadline_ms = deadline_ms,
		.node_limit = node_limit,
		.stop = stop,
		.ctx = ctx,
	};
	int done = solve_values(c, g, st, list, n, &job, value, bounds);
	*nodes = job.nodes;
	return done;
}

int solve_values(struct solve_ctx *c, const struct game *g, const void *st,
		 const struct move *list, int n, struct solve_job *job,
		 int *value, struct solve_bound *bounds)
{
	job->want = SOLVE_WDL;
	job->nodes = 0;
	if (job->deadline_ms <= 0)
		solve_clear(c);
	struct solve_bound *b =
		bounds ? bounds
		       : scratch_get(&c->scratch.bounds,
				     sizeof *b * (size_t)(n > 0 ? n : 1));
	if (!b)
		return 0;
	int done = solve_moves(c, g, st, list, n, job, b);
	int np = g->players(st);
	for (int i = 0; i < n && done; i++)
		value[i] = np == 2 ? solve_result(b[i].lo) : b[i].lo;
	return done;
}
