/* numbers.h: square roots and logarithms without libm (the engine links
 * nothing but libc), and the two the tree search asks at every node it
 * passes: sqrt(ln n) of a parent's visits and 1/sqrt(n) of a child's.
 * Those two are inline and mostly table lookups; the rest is in
 * numbers.c. */
#ifndef NUMBERS_H
#define NUMBERS_H

#include <stdint.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* sqrt(x), 0 for x <= 0: Newton steps, to the last bit or so. */
double num_sqrt(double x);
/* ln x for x >= 1, to about 1e-9. */
double num_log(double x);
/* 1 / (1 + e^-x), the logistic function, to about 1e-15. */
double num_logistic(double x);
/* Fills the tables of num_rsqrt_n() and num_sqrtlog(), all of them at
 * once, the first time it is called in the process (later calls, from any
 * thread, wait for that one and return).  They read the tables and fill
 * nothing: a search calls this before its threads start (4 ms, once a
 * process; at start-up it would double the engine's time to its first
 * answer). */
void num_init(void);

/* 1/sqrt(x) for x >= 1: the processor's square root where it has one
 * (SSE2: exact, and fewer instructions than the Newton steps below, which
 * the top nodes of a big tree took at every visit), else to about 1e-9: a
 * first guess from the bits of the double (halving the exponent), then
 * Newton steps. */
static inline double num_rsqrt(double x)
{
#ifdef __SSE2__
	return 1 / _mm_cvtsd_f64(_mm_sqrt_sd(_mm_setzero_pd(), _mm_set_sd(x)));
#else
	uint64_t bits;
	memcpy(&bits, &x, sizeof bits);
	bits = 0x5fe6eb50c7b537a9ULL - (bits >> 1);
	double y;
	memcpy(&y, &bits, sizeof y);
	for (int i = 0; i < 3; i++)
		y *= 1.5 - 0.5 * x * y * y;
	return y;
#endif
}

/* sqrt(ln n) for n >= 1 (a parent's visits), small n from a table
 * (num_init). */
#define NUM_SQRTLOG_N 65536
extern double num_sqrtlog_table[NUM_SQRTLOG_N];

/* Above that, where the top nodes of a big tree ask at every visit: the
 * values at 2^NUM_BIG_BITS points of each octave from NUM_SQRTLOG_N up,
 * joined by straight lines.  Off by
 * less than 6e-9 of the value, under the precision of the float a search
 * weighs it in.  A logarithm and a square root there, one waiting on the
 * other, were a third of a 3M-iteration search of the solo Abs-Trac-Toe
 * puzzle, whose best line runs deep through such nodes. */
#define NUM_BIG_BITS 10
#define NUM_BIG_FIRST 16 /* log2(NUM_SQRTLOG_N) */
#define NUM_BIG_OCTAVES (32 - NUM_BIG_FIRST)
/* the last point of each octave is the first of the next */
extern double num_big_points[(NUM_BIG_OCTAVES << NUM_BIG_BITS) + 1];

static inline double num_sqrtlog(uint32_t n)
{
	if (n >= NUM_SQRTLOG_N) {
		/* n = 2^e (1 + (j + f) / 2^NUM_BIG_BITS): j the top bits of
		 * the double's mantissa, f in [0, 1) the rest */
		double x = n, f;
		uint64_t bits;
		memcpy(&bits, &x, sizeof bits);
		int o = (int)(bits >> 52) - 1023 - NUM_BIG_FIRST;
		const double *p =
			&num_big_points[(o << NUM_BIG_BITS) |
					(int)((bits >> (52 - NUM_BIG_BITS)) &
					      ((1 << NUM_BIG_BITS) - 1))];
		bits = (bits << NUM_BIG_BITS & ((1ULL << 52) - 1)) |
		       1023ULL << 52;
		memcpy(&f, &bits, sizeof f);
		return p[0] + (p[1] - p[0]) * (f - 1);
	}
	return num_sqrtlog_table[n]; /* (0 at n = 1: ln 1) */
}

/* 1/sqrt(n) for n >= 1 (a child's visits), small n from a table
 * (num_init). */
#define NUM_RSQRT_N 4096
extern double num_rsqrt_table[NUM_RSQRT_N];

static inline double num_rsqrt_n(uint32_t n)
{
	if (n < NUM_RSQRT_N)
		return num_rsqrt_table[n];
	return num_rsqrt((double)n);
}

#endif
