/* learn.h: a position evaluation learned from self-play.
 *
 * A game that has one names, in its `struct game`, a learn_spec: how many
 * weights its table holds and which of them a state picks (its features,
 * seen from the player to act), and may give a first guess, a
 * hand-written evaluation.  The value of a state for that player is the
 * logistic function of the guess plus the weights the state picks, so
 * the table is a plain n-tuple network over the guess: a feature is one
 * cell of one table, read from a few squares at once.  The training tool
 * (scripts/tools/train.c, games/ai/train.c) learns the weights by
 * temporal differences over games the player plays against itself and
 * writes them as C, games/<game>_weights.c (games/<game>_size6_weights.c
 * from the set-up size=6), compiled in like the opening book.  The
 * game's evaluate() reads them through learn_value; the search sees
 * evaluate() alone. */
#ifndef LEARN_H
#define LEARN_H

#include <stdint.h>

#include "util/numbers.h"

/* The compiled weights are int16 in units of 1 / LEARN_SCALE. */
#define LEARN_SCALE 1024

struct learn_weights;

struct learn_spec {
	uint32_t size;    /* weights in the table */
	int max_features; /* features a state picks at most */
	/* The features of st, a state whose player to act (status().player,
	 * moving or rolling) the value is for: indices below size into idx
	 * (max_features entries); and into *base a first guess at that
	 * value, in the logistic's units (the log of the odds), that the
	 * weights correct: a hand-written evaluation the table starts from
	 * and learns what it misses (0, even odds, where there is none).
	 * One call for both, as they often read the same things
	 * (Take-Back-Toe's threats).  Returns how many features.  Called on
	 * states still going on, with two players. */
	int (*features)(const void *st, uint32_t *idx, double *base);
	/* The tables compiled in, that evaluate() reads, each for the
	 * set-ups its options name (the training tool measures a new table
	 * against the one of its own set-up), ended by NULL.  NULL: none
	 * yet. */
	const struct learn_weights *const *compiled;
};

/* The compiled weights and how they were made (scripts/tools/train.c
 * writes this struct), so that a test can make a sample of them again. */
struct learn_weights {
	const char *game;
	const char *options; /* the set-up the games were played from */
	uint64_t seed;
	int games;           /* games a round */
	int rounds;          /* rounds played */
	double alpha;        /* step size */
	double epsilon;      /* share of random moves in the games */
	int sample;          /* rounds of the sample below */
	uint64_t sample_sum; /* learn_sum of the table after `sample` rounds */
	uint64_t sum;        /* learn_sum of w */
	/* the features are the board's contents' lines (games/ai/pattern.h),
	 * not the game's learn_spec */
	int contents;
	uint32_t size;
	const int16_t *w;
};

/* The value for the player to act of a state with the first guess base
 * and the n features idx, in [0, 1]. */
static inline double learn_value(const int16_t *w, double base,
				 const uint32_t *idx, int n)
{
	int32_t s = 0;
	for (int i = 0; i < n; i++)
		s += w[idx[i]];
	return num_logistic(base + (double)s / LEARN_SCALE);
}

/* A checksum of a table (FNV-1a over its little-endian bytes). */
static inline uint64_t learn_sum(const int16_t *w, uint32_t size)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (uint32_t i = 0; i < size; i++) {
		uint16_t v = (uint16_t)w[i];
		h = (h ^ (v & 0xff)) * 0x100000001b3ULL;
		h = (h ^ (v >> 8)) * 0x100000001b3ULL;
	}
	return h;
}

#endif
