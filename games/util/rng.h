/* rng.h: the one pseudo-random generator every part of the engine uses.
 *
 * Every random choice (a random set-up, a die roll, an AI playout) comes
 * from a struct rng seeded explicitly, so that the same seed and the same
 * commands give the same game.  splitmix64 seeds xoshiro256** here: both are
 * small, fast, public-domain algorithms with no bad seeds. */
#ifndef RNG_H
#define RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, n); n must be at least 1.  Unbiased (rejection). */
uint32_t rng_below(struct rng *r, uint32_t n);
/* Uniform in [0, 1). */
double rng_unit(struct rng *r);

#endif
