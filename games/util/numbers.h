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
/* Fills the table of num_rsqrt_n(); call once before it. */
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

/* ln x for x >= 1 with no division: x = m 2^e, m = c (1 + r) where c =
 * 1 + i/256 holds m's first 8 bits, ln c and 1/c from tables, ln(1 + r)
 * by three terms of its series (r < 1/256: off by less than 1e-10).  The
 * top nodes of a big tree have more visits than num_sqrtlog's table
 * covers, and num_log's eight divisions there were a tenth of a 5 s
 * search. */
#define NUM_LOG_BITS 8
extern double num_log_table[1 << NUM_LOG_BITS],
	num_inv_table[1 << NUM_LOG_BITS];

static inline double num_big_log(double x)
{
	uint64_t bits;
	memcpy(&bits, &x, sizeof bits);
	int e = (int)((bits >> 52) & 0x7ff) - 1023;
	int i = (int)((bits >> (52 - NUM_LOG_BITS)) &
		      ((1 << NUM_LOG_BITS) - 1));
	bits = (bits & ((1ULL << 52) - 1)) | (1023ULL << 52);
	double m;
	memcpy(&m, &bits, sizeof m);
	double r =
		(m - (1 + i * (1.0 / (1 << NUM_LOG_BITS)))) * num_inv_table[i];
	return e * 0.6931471805599453 + num_log_table[i] +
	       r * (1 - r * (0.5 - r * (1.0 / 3)));
}

/* sqrt(ln n) for n >= 2 (a parent's visits), small n from a table filled
 * in as needed (0 marks a value not computed yet: ln n > 0 for every
 * n >= 2). */
#define NUM_SQRTLOG_N 65536
extern double num_sqrtlog_table[NUM_SQRTLOG_N];

static inline double num_sqrtlog(uint32_t n)
{
	if (n >= NUM_SQRTLOG_N) {
		double l = num_big_log((double)n);
		return l * num_rsqrt(l);
	}
	if (num_sqrtlog_table[n] == 0)
		num_sqrtlog_table[n] = num_sqrt(num_log((double)n));
	return num_sqrtlog_table[n];
}

/* 1/sqrt(n) for n >= 1 (a child's visits), small n from a table that
 * num_init() builds. */
#define NUM_RSQRT_N 4096
extern double num_rsqrt_table[NUM_RSQRT_N];

static inline double num_rsqrt_n(uint32_t n)
{
	if (n < NUM_RSQRT_N)
		return num_rsqrt_table[n];
	return num_rsqrt((double)n);
}

#endif
