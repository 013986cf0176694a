/* solve_table.c: the exact solver's memory (solve_table.h): its
 * transposition table (its generations, its growth with the work asked of
 * it, and the keys it files positions under) and each thread's scratch. */
#include "solve_table.h"

#include <stdlib.h>

#define TT_BYTES_DEFAULT ((size_t)16 << 20) /* until set_memory */
#define TT_MIN_BUCKETS 1024 /* 64 kB: the least of the table in use */

void solve_table_init(struct solve_table *T)
{
	*T = (struct solve_table){.bytes = TT_BYTES_DEFAULT, .gen = 1};
}

void solve_table_free(struct solve_table *T)
{
	free(T->tt);
	T->tt = NULL;
}

void solve_table_set_memory(struct solve_table *T, size_t bytes)
{
	T->bytes = bytes;
	solve_table_free(T);
}

size_t solve_table_memory(const struct solve_table *T)
{
	return T->tt ? sizeof *T->tt * TT_BUCKET * (T->buckets_mask + 1) : 0;
}

void solve_table_clear(struct solve_table *T)
{
	if (++T->gen > 255) {
		if (T->tt)
			memset(T->tt, 0,
			       sizeof *T->tt * TT_BUCKET *
				       (T->buckets_mask + 1));
		T->gen = 1;
	}
}

/* Buckets widen empties or moves between two looks at stop: 512 kB. */
#define WIDEN_SLICE 8192

/* Puts n buckets in use (more than now): an entry moves to the bucket its
 * key names under the wider mask, which is a new one, emptied here, and
 * which only entries of its old bucket move to.  The whole table takes
 * milliseconds (16 MB: 7 ms), so every WIDEN_SLICE buckets it asks
 * stop(ctx) whether to stop; when it says so, the table stays as wide as
 * it was, short of the entries moved so far (a table only saves work).
 * Returns 1 when it widened. */
static int widen(struct solve_table *T, size_t n, int (*stop)(void *),
		 void *ctx)
{
	struct tt_entry *tt = T->tt;
	size_t old = T->buckets_mask + 1;
	for (size_t b = old; b < n; b += WIDEN_SLICE) {
		size_t k = n - b < WIDEN_SLICE ? n - b : WIDEN_SLICE;
		if (stop && stop(ctx))
			return 0;
		memset(&tt[b * TT_BUCKET], 0, sizeof *tt * TT_BUCKET * k);
	}
	for (size_t b = 0; b < old; b++) {
		if (b % WIDEN_SLICE == 0 && stop && stop(ctx))
			return 0;
		struct tt_entry *from = &tt[b * TT_BUCKET], keep[TT_BUCKET];
		int k = 0;
		for (int i = 0; i < TT_BUCKET; i++) {
			uint64_t tag = tt_read(&from[i]).tag;
			if (!tt_live(T, tag))
				continue;
			size_t to = TAG_KEY(tag) & (n - 1);
			if (to == b) {
				keep[k++] = from[i];
				continue;
			}
			struct tt_entry *dst = &tt[to * TT_BUCKET];
			while (tt_live(T, tt_read(dst).tag))
				dst++;
			*dst = from[i];
		}
		memset(from, 0, sizeof *from * TT_BUCKET);
		memcpy(from, keep, sizeof *from * (size_t)k);
	}
	T->buckets_mask = n - 1;
	return 1;
}

/* The table is allocated at the size allowed when first needed, with as
 * many of its buckets in use as a call that may search `nodes` nodes can
 * fill.  The system gives a page its memory when it is first written,
 * which costs a few microseconds: spread over the whole table at once, a
 * search of 60,000 nodes touches all 4,096 pages of 16 MB (7 to 16 ms, a
 * 50 ms move's whole share for the solver).  So only the part in use is
 * written (emptied), and it grows with the budget, its entries keeping
 * their proofs, until the table is freed with the game. */
int solve_table_ready(struct solve_table *T, double nodes,
		      int (*stop)(void *ctx), void *ctx)
{
	if (!T->tt) {
		size_t n = 1, bucket = sizeof *T->tt * TT_BUCKET;
		while (n * 2 * bucket <= T->bytes)
			n *= 2;
		T->tt = malloc(n * bucket);
		if (!T->tt)
			return 0;
		T->buckets_max = n;
		n = n < TT_MIN_BUCKETS ? n : TT_MIN_BUCKETS;
		memset(T->tt, 0, n * bucket);
		T->buckets_mask = n - 1;
		T->gen = 1;
	}
	size_t n = T->buckets_mask + 1;
	while (n < T->buckets_max && (double)n * TT_BUCKET < (double)nodes)
		n *= 2;
	return n == T->buckets_mask + 1 || widen(T, n, stop, ctx);
}

uint64_t solve_key(const struct game *g, const void *st)
{
	uint64_t k = g->key ? g->key(st) : solve_hash_bytes(st, g->state_size);
	/* the game's name keeps two games that share a process apart */
	return solve_mix(k ^ solve_hash_bytes(g->name, strlen(g->name)));
}

int solve_hint(const struct solve_table *T, const struct game *g,
	       const void *st)
{
	if (!T->tt || g->players(st) != 2)
		return -1;
	uint64_t k = solve_key(g, st) & ~(uint64_t)1;
	struct tt_val e;
	return tt_find(T, k, &e) && e.u.ab.best != TT_NO_BEST ? e.u.ab.best
							      : -1;
}

/* ---- a player's solver: its table and its scratch ---- */

void solve_set_memory(struct solve_ctx *c, size_t bytes)
{
	solve_table_set_memory(&c->table, bytes);
}

void solve_forget(struct solve_ctx *c)
{
	solve_table_free(&c->table);
}

size_t solve_memory(const struct solve_ctx *c)
{
	return solve_table_memory(&c->table);
}

void solve_clear(struct solve_ctx *c)
{
	solve_table_clear(&c->table);
}

void solve_scratch_free(struct solve_scratch *s)
{
	scratch_free(&s->states);
	scratch_free(&s->moves);
	scratch_free(&s->hist);
	scratch_free(&s->root);
	scratch_free(&s->bounds);
}

struct solve_ctx *solve_ctx_new(void)
{
	struct solve_ctx *c = calloc(1, sizeof *c);
	if (c)
		solve_table_init(&c->table);
	return c;
}

void solve_ctx_free(struct solve_ctx *c)
{
	if (!c)
		return;
	solve_table_free(&c->table);
	solve_scratch_free(&c->scratch);
	free(c);
}
