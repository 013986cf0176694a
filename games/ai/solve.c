/* solve.c: the exact endgame solver.
 *
 * When the rest of a game is small, searching it all beats sampling it.
 * Two players: negamax alpha-beta over win/draw/loss (a tiny range of values
 * prunes hard); the margin is left to the Monte Carlo search, which then
 * chooses among the moves that keep the best result.  One, three or four
 * players: a full max-n search in which each player maximises its own result
 * and then its margin (solo: the score).  Both keep a transposition table
 * keyed by a hash of the state's bytes, which works for every game because
 * states are written deterministically.  Chance and moves that cannot be
 * listed stop the solver: it says "unsolved" rather than guess. */
#include "search.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define SOLVE_DEPTH 100              /* plies; deeper games are never small */
#define TT_BYTES_DEFAULT (24u << 20) /* until solve_set_memory says */
#define NO_BEST 255

enum { TT_EXACT = 1, TT_LOWER, TT_UPPER };

struct tt_entry {
	uint64_t key;
	int16_t v[GAME_MAX_PLAYERS];
	uint16_t gen;  /* the search that wrote it; others are empty */
	uint8_t flag;  /* TT_EXACT, TT_LOWER, TT_UPPER */
	uint8_t best;  /* index of the best move in moves(), or NO_BEST */
	uint8_t depth; /* ply from the root: shallow entries cost more */
};

/* The table lives for the whole process: clearing 24 MB for every search
 * would cost milliseconds; a generation number empties it instead. */
static struct tt_entry *tt;
static size_t tt_mask; /* entries - 1, entries a power of 2 */
static size_t tt_bytes = TT_BYTES_DEFAULT; /* the most the table may take */
static uint16_t tt_gen;

void solve_set_memory(size_t bytes)
{
	tt_bytes = bytes;
	solve_forget();
}

void solve_forget(void)
{
	free(tt);
	tt = NULL;
}

/* The table at the size allowed, allocated when first needed (calloc's
 * zero pages cost nothing until they are written). */
static int tt_ready(void)
{
	if (tt)
		return 1;
	size_t n = 2;
	while (n * 2 * sizeof *tt <= tt_bytes)
		n *= 2;
	tt = calloc(n, sizeof *tt);
	tt_mask = n - 1;
	tt_gen = 0;
	return tt != NULL;
}

struct solver {
	const struct game *g;
	int np;
	size_t ss;
	unsigned char *states; /* one state per ply */
	struct move *lists;    /* the move lists of plies 1.., end to end */
	size_t cap;            /* moves that fit in lists */
	size_t off[SOLVE_DEPTH + 2]; /* where ply d's list starts */
	long nodes, limit;
	double deadline;
	int (*stop)(void *); /* the engine's input, asked every POLL_MS */
	void *ctx;
	double next_poll;
	int abort;
	uint32_t *hist; /* HIST_SIZE cutoff counts by move */
};

static uint64_t mix(uint64_t h)
{
	h ^= h >> 31;
	h *= 0x7fb5d329728ea185ULL;
	h ^= h >> 27;
	h *= 0x81dadef4bc2dd44dULL;
	return h ^ (h >> 33);
}

static uint64_t hash_state(const void *st, size_t n)
{
	const unsigned char *p = st;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
	for (; n >= 8; p += 8, n -= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
		h ^= h >> 29;
	}
	if (n) {
		uint64_t w = 0;
		memcpy(&w, p, n);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
	}
	return mix(h);
}

static struct tt_entry *tt_find(uint64_t key)
{
	struct tt_entry *b = &tt[key & (tt_mask - 1)];
	for (int i = 0; i < 2; i++)
		if (b[i].gen == tt_gen && b[i].key == key)
			return &b[i];
	return NULL;
}

/* Two slots a bucket: the first keeps the entry nearest the root (the most
 * work saved), the second always takes the newest. */
static void tt_store(uint64_t key, const int *v, int nv, int flag, int best,
		     int depth)
{
	struct tt_entry *b = &tt[key & (tt_mask - 1)];
	struct tt_entry *e = &b[1];
	if (b[0].gen != tt_gen || b[0].key == key || depth <= b[0].depth)
		e = &b[0];
	e->key = key;
	for (int i = 0; i < GAME_MAX_PLAYERS; i++)
		e->v[i] = (int16_t)(i < nv ? v[i] : 0);
	e->gen = tt_gen;
	e->flag = (uint8_t)flag;
	e->best = (uint8_t)(best < NO_BEST ? best : NO_BEST);
	e->depth = (uint8_t)depth;
}

#define POLL_MS 1.0

static int out_of_budget(struct solver *s, int d)
{
	if (d >= SOLVE_DEPTH || ++s->nodes > s->limit) {
		s->abort = 1;
	} else if ((s->nodes & 15) == 0 && (s->deadline > 0 || s->stop)) {
		double now = ai_now_ms();
		if (s->deadline > 0 && now >= s->deadline)
			s->abort = 1;
		if (s->stop && now >= s->next_poll) {
			s->next_poll = now + POLL_MS;
			if (s->stop(s->ctx))
				s->abort = 1;
		}
	}
	return s->abort;
}

#define HIST_SIZE 4096

static unsigned move_slot(const struct move *mv)
{
	uint64_t h = mv->w[0] ^ mv->w[1] * 3 ^ mv->w[2] * 5 ^ mv->w[3] * 7;
	return (unsigned)(mix(h) & (HIST_SIZE - 1));
}

/* The order to try moves in: the table's best first, then the moves that
 * caused cutoffs most often elsewhere (the history heuristic: in games
 * where a move is a place, a good place stays good). */
static void order(const struct solver *s, const struct move *list, int *ord,
		  int n, int first)
{
	int k = 0;
	uint32_t score[n];
	if (first >= 0 && first < n)
		ord[k++] = first;
	for (int i = 0; i < n; i++) {
		if (i == first)
			continue;
		uint32_t h = s->hist[move_slot(&list[i])];
		int j = k++;
		for (; j > (first >= 0 && first < n) && score[j - 1] < h; j--) {
			ord[j] = ord[j - 1];
			score[j] = score[j - 1];
		}
		ord[j] = i;
		score[j] = h;
	}
}

/* Win/draw/loss of a finished state for player me. */
static int wdl(struct game_status cs, int me)
{
	return cs.player == me ? 1 : cs.player == 0 ? 0 : -1;
}

/* Negamax with alpha-beta over win/draw/loss for the player to move at
 * ply d (a GAME_PLAY state).  A player may move twice in a row (Tiptoe's
 * set-up), so the sign flips only when the mover changes. */
static int alphabeta(struct solver *s, int d, int alpha, int beta)
{
	const struct game *g = s->g;
	unsigned char *st = s->states + (size_t)d * s->ss;
	if (out_of_budget(s, d))
		return 0;
	int me = g->status(st).player;
	uint64_t key = hash_state(st, s->ss);
	int first = -1;
	struct tt_entry *e = tt_find(key);
	if (e) {
		int v = e->v[0];
		if (e->flag == TT_EXACT || (e->flag == TT_LOWER && v >= beta) ||
		    (e->flag == TT_UPPER && v <= alpha))
			return v;
		first = e->best == NO_BEST ? -1 : e->best;
	}
	if (s->cap - s->off[d] < (size_t)g->max_moves) {
		s->abort = 1;
		return 0;
	}
	struct move *list = s->lists + s->off[d];
	int n = g->moves(st, list);
	s->off[d + 1] = s->off[d] + (size_t)n;
	if (n == 0) {
		if (g->random_move)
			s->abort = 1; /* moves we cannot list */
		return 0;             /* stuck: neither side can win */
	}
	int ord[n];
	order(s, list, ord, n, first);
	int a0 = alpha, best = -2, bi = 0;
	unsigned char *child = st + s->ss;
	for (int k = 0; k < n; k++) {
		int i = ord[k], v;
		memcpy(child, st, s->ss);
		g->play(child, &list[i]);
		struct game_status cs = g->status(child);
		if (cs.phase == GAME_OVER)
			v = wdl(cs, me);
		else if (cs.phase == GAME_ROLL)
			s->abort = 1, v = 0;
		else if (cs.player == me)
			v = alphabeta(s, d + 1, alpha, beta);
		else
			v = -alphabeta(s, d + 1, -beta, -alpha);
		if (s->abort)
			return 0;
		if (v > best) {
			best = v, bi = i;
			if (v > alpha)
				alpha = v;
			if (alpha >= beta) {
				s->hist[move_slot(&list[i])] += 1;
				break;
			}
		}
	}
	int flag = best <= a0 ? TT_UPPER : best >= beta ? TT_LOWER : TT_EXACT;
	tt_store(key, &best, 1, flag, bi, d);
	return best;
}

/* The value vector of a finished (or stuck) state: each player's result
 * (2 win, 1 shared top, 0 otherwise) then margin; solo: the score. */
static void terminal(struct solver *s, const void *st, int *vec)
{
	int pts[GAME_MAX_PLAYERS] = {0};
	s->g->score(st, pts);
	if (s->np == 1) {
		vec[0] = pts[0] < -30000  ? -30000
			 : pts[0] > 30000 ? 30000
					  : pts[0];
		return;
	}
	struct game_status cs = s->g->status(st);
	int top = INT_MIN;
	for (int p = 0; p < s->np; p++)
		if (pts[p] > top)
			top = pts[p];
	for (int p = 0; p < s->np; p++) {
		int other = INT_MIN;
		for (int q = 0; q < s->np; q++)
			if (q != p && pts[q] > other)
				other = pts[q];
		long m = (long)pts[p] - other;
		m = m < -499 ? -499 : m > 499 ? 499 : m;
		int result = cs.phase == GAME_OVER && cs.player
				     ? 2 * (cs.player == p + 1)
				     : pts[p] == top;
		vec[p] = result * 1000 + (int)m;
	}
}

/* Max-n: every player maximises its own entry of the value vector. */
static void maxn(struct solver *s, int d, int *vec)
{
	const struct game *g = s->g;
	unsigned char *st = s->states + (size_t)d * s->ss;
	if (out_of_budget(s, d))
		return;
	int me = g->status(st).player - 1;
	uint64_t key = hash_state(st, s->ss);
	struct tt_entry *e = tt_find(key);
	if (e) {
		for (int p = 0; p < s->np; p++)
			vec[p] = e->v[p];
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
			terminal(s, st, vec);
		return;
	}
	int best[GAME_MAX_PLAYERS] = {0}, cv[GAME_MAX_PLAYERS] = {0}, bi = 0;
	best[me] = INT_MIN;
	unsigned char *child = st + s->ss;
	for (int i = 0; i < n; i++) {
		memcpy(child, st, s->ss);
		g->play(child, &list[i]);
		struct game_status cs = g->status(child);
		if (cs.phase == GAME_OVER)
			terminal(s, child, cv);
		else if (cs.phase == GAME_ROLL)
			s->abort = 1;
		else
			maxn(s, d + 1, cv);
		if (s->abort)
			return;
		if (cv[me] > best[me]) {
			memcpy(best, cv, sizeof best);
			bi = i;
		}
	}
	memcpy(vec, best, sizeof best);
	tt_store(key, vec, s->np, TT_EXACT, bi, d);
}

int search_solve(const struct game *g, const void *st, const struct move *list,
		 int n, double deadline_ms, long node_limit,
		 int (*stop)(void *), void *ctx, int *value, long *nodes)
{
	struct solver s;
	memset(&s, 0, sizeof s);
	s.g = g;
	s.np = g->players(st);
	s.ss = g->state_size;
	s.limit = node_limit;
	s.deadline = deadline_ms;
	s.stop = stop;
	s.ctx = ctx;
	*nodes = 0;
	if (!tt_ready())
		return 0;
	if (++tt_gen == 0) {
		/* the generations wrapped: really empty the table once */
		memset(tt, 0, sizeof *tt * (tt_mask + 1));
		tt_gen = 1;
	}
	s.states = ai_scratch(AI_SOLVER_STATES, s.ss * (SOLVE_DEPTH + 2));
	/* room for the widest list at any ply, and for a few hundred moves a
	 * ply down the whole depth; a deeper stack than that gives up */
	size_t per_ply = g->max_moves < 256 ? (size_t)g->max_moves : 256;
	s.cap = (size_t)g->max_moves + per_ply * SOLVE_DEPTH;
	s.lists = ai_scratch(AI_SOLVER_MOVES, sizeof *s.lists * s.cap);
	s.hist = ai_scratch(AI_SOLVER_HIST, HIST_SIZE * sizeof *s.hist);
	if (!s.states || !s.lists || !s.hist)
		s.abort = 1;
	else
		memset(s.hist, 0, HIST_SIZE * sizeof *s.hist);
	s.off[1] = 0;
	int me = g->status(st).player;
	for (int i = 0; i < n && !s.abort; i++) {
		unsigned char *child = s.states + s.ss;
		memcpy(child, st, s.ss);
		g->play(child, &list[i]);
		struct game_status cs = g->status(child);
		int vec[GAME_MAX_PLAYERS];
		if (cs.phase == GAME_ROLL) {
			s.abort = 1;
		} else if (s.np == 2) {
			if (cs.phase == GAME_OVER)
				value[i] = wdl(cs, me);
			else if (cs.player == me)
				value[i] = alphabeta(&s, 1, -1, 1);
			else
				value[i] = -alphabeta(&s, 1, -1, 1);
		} else {
			if (cs.phase == GAME_OVER)
				terminal(&s, child, vec);
			else
				maxn(&s, 1, vec);
			value[i] = vec[me - 1];
		}
	}
	*nodes = s.nodes;
	return !s.abort;
}
