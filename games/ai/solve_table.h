/* solve_table.h: the exact solver's memory (solve_table.c): its
 * transposition table, the keys it files positions under, and each
 * thread's scratch.  The look-ups the solver makes at every node are
 * inline here. */
#ifndef SOLVE_TABLE_H
#define SOLVE_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../game.h"
#include "scratch.h"

#define TT_BUCKET 4       /* entries a bucket: 64 bytes, one cache line */
#define TT_NO_BEST 0xffff /* no best move known */

/* What the table holds of a position.  The top byte of `tag` is the
 * generation that wrote it (entries of other generations are empty), the
 * rest the key's low 56 bits.  Two players keep bounds, the index of the
 * best move in moves()'s order, and the log2 of the nodes the entry saved
 * (what the replacement keeps); more players keep the exact value of
 * each. */
struct tt_val {
	uint64_t tag;
	union {
		struct {
			int16_t lo, hi;
			uint16_t best;
			uint8_t work;
		} ab;
		int16_t v[GAME_MAX_PLAYERS];
		uint64_t word;
	} u;
};

/* One table entry, 16 bytes: the value's word, and its tag XOR-ed with
 * that word.  The threads of a root split (solve_moves) share the table
 * without a lock: an entry one thread reads while another writes it may
 * pair one write's word with the other's check, and then reads as no
 * entry at all (the "lockless" table of Hyatt and Mann). */
struct tt_entry {
	uint64_t check, word;
};

#define TAG_KEY(k) ((k) & (((uint64_t)1 << 56) - 1))
#define TAG(k, gen) (TAG_KEY(k) | (uint64_t)(gen) << 56)

/* The table lives as long as the game: clearing it for every call would
 * cost milliseconds and throw proofs away.  A generation number empties it
 * at once (solve_table_clear); every 255 generations it is really zeroed.
 * Each player owns its own. */
struct solve_table {
	struct tt_entry *tt;
	size_t buckets_max;  /* buckets allocated, a power of 2 */
	size_t buckets_mask; /* buckets in use - 1: see solve_table_ready */
	size_t bytes;        /* the most the table may take */
	unsigned gen;        /* the generation of the live entries */
};

/* An empty table of the default size, allocated when first needed. */
void solve_table_init(struct solve_table *T);
/* Empties the table and gives its memory back (a new game). */
void solve_table_free(struct solve_table *T);
/* The memory the table may take (a share of the player's hash); the
 * table is emptied. */
void solve_table_set_memory(struct solve_table *T, size_t bytes);
/* The bytes the table holds now (0 before the first search). */
size_t solve_table_memory(const struct solve_table *T);
/* Empties the table and keeps its memory. */
void solve_table_clear(struct solve_table *T);

/* Makes the table ready for a call that may search `nodes` nodes
 * (allocating it when first needed), asking stop(ctx) (which may be NULL)
 * now and then while it widens.  Returns 1, or 0 when out of memory. */
int solve_table_ready(struct solve_table *T, double nodes,
		      int (*stop)(void *ctx), void *ctx);

/* The key under which the solver and the book file st: the game's key()
 * (which folds its symmetries) when it has one, else a hash of the state's
 * bytes, mixed with the game's identity. */
uint64_t solve_key(const struct game *g, const void *st);

/* The index, in moves()'s order, of the move T remembers as best at st
 * (after solving st, a move that reaches its value), or -1: a hint, for
 * where key() folds mirror images it may name the move of an image. */
int solve_hint(const struct solve_table *T, const struct game *g,
	       const void *st);

/* One thread's scratch space for the solver. */
struct solve_scratch {
	struct scratch states; /* one state a ply */
	struct scratch moves;  /* the stack of move lists */
	struct scratch hist;   /* history counts */
	struct scratch root;   /* the root's order */
	struct scratch bounds; /* solve_values's bounds */
};
void solve_scratch_free(struct solve_scratch *s);

/* What the solver works with: its table and the calling thread's scratch.
 * A player owns one, and with it the table; the threads of a root split
 * bring scratch of their own (struct solve_job, crew). */
struct solve_ctx {
	struct solve_table table;
	struct solve_scratch scratch;
};

/* An empty context (its table at the default size), or NULL when out of
 * memory. */
struct solve_ctx *solve_ctx_new(void);
void solve_ctx_free(struct solve_ctx *c);

/* The memory c's table may take (a share of the player's hash); the table
 * is emptied. */
void solve_set_memory(struct solve_ctx *c, size_t bytes);

/* Empties c's table and gives its memory back (a new game). */
void solve_forget(struct solve_ctx *c);

/* The bytes c's table holds now (0 before the first search). */
size_t solve_memory(const struct solve_ctx *c);

/* Empties c's table and keeps its memory: what a search that must not
 * depend on earlier ones (a fixed playout budget) calls first. */
void solve_clear(struct solve_ctx *c);

static inline uint64_t solve_mix(uint64_t h)
{
	h ^= h >> 31;
	h *= 0x7fb5d329728ea185ULL;
	h ^= h >> 27;
	h *= 0x81dadef4bc2dd44dULL;
	return h ^ (h >> 33);
}

static inline uint64_t solve_hash_bytes(const void *st, size_t n)
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
	return h;
}

/* Entry e's value; its tag is 0 (no generation's) when e is empty or
 * half written. */
static inline struct tt_val tt_read(const struct tt_entry *e)
{
	struct tt_val v;
	v.u.word = __atomic_load_n(&e->word, __ATOMIC_RELAXED);
	v.tag = __atomic_load_n(&e->check, __ATOMIC_RELAXED) ^ v.u.word;
	return v;
}

static inline void tt_write(struct tt_entry *e, const struct tt_val *v)
{
	__atomic_store_n(&e->word, v->u.word, __ATOMIC_RELAXED);
	__atomic_store_n(&e->check, v->tag ^ v->u.word, __ATOMIC_RELAXED);
}

/* A tag of this generation: the others are empty. */
static inline int tt_live(const struct solve_table *T, uint64_t tag)
{
	return tag >> 56 == T->gen;
}

static inline struct tt_entry *tt_bucket(const struct solve_table *T,
					 uint64_t key)
{
	return &T->tt[(key & T->buckets_mask) * TT_BUCKET];
}

/* Whether the table holds key; its entry into *out when it does. */
static inline int tt_find(const struct solve_table *T, uint64_t key,
			  struct tt_val *out)
{
	const struct tt_entry *b = tt_bucket(T, key);
	uint64_t tag = TAG(key, T->gen);
	for (int i = 0; i < TT_BUCKET; i++) {
		struct tt_val v = tt_read(&b[i]);
		if (v.tag == tag) {
			*out = v;
			return 1;
		}
	}
	return 0;
}

/* The slot for key: its own entry, an empty one, or the one whose proof
 * was cheapest to find (entries near the root are worth the most).  Sets
 * *fresh when the slot held no entry of key, and otherwise *old to what
 * it held. */
static inline struct tt_entry *tt_slot(const struct solve_table *T,
				       uint64_t key, int *fresh,
				       struct tt_val *old)
{
	struct tt_entry *b = tt_bucket(T, key), *victim = &b[0];
	uint64_t tag = TAG(key, T->gen);
	int least = 256;
	*fresh = 1;
	for (int i = 0; i < TT_BUCKET; i++) {
		struct tt_val v = tt_read(&b[i]);
		if (v.tag == tag) {
			*fresh = 0;
			*old = v;
			return &b[i];
		}
		if (!tt_live(T, v.tag))
			return &b[i];
		if (v.u.ab.work < least)
			least = v.u.ab.work, victim = &b[i];
	}
	return victim;
}

#endif
