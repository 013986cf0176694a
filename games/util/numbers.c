/* numbers.c: square roots and logarithms without libm, and the tables of
 * numbers.h. */
#include "numbers.h"

#include <pthread.h>

double num_sqrtlog_table[NUM_SQRTLOG_N];
double num_big_points[(NUM_BIG_OCTAVES << NUM_BIG_BITS) + 1];
double num_rsqrt_table[NUM_RSQRT_N];

double num_sqrt(double x)
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

/* From the exponent and mantissa bits of the double: x = m 2^e with m in
 * [1, 2), ln m = 2 atanh((m - 1) / (m + 1)). */
double num_log(double x)
{
	uint64_t bits;
	memcpy(&bits, &x, sizeof bits);
	int e = (int)((bits >> 52) & 0x7ff) - 1023;
	bits = (bits & ((1ULL << 52) - 1)) | (1023ULL << 52);
	double mant;
	memcpy(&mant, &bits, sizeof mant);
	double s = (mant - 1) / (mant + 1), s2 = s * s, t = s, sum = 0;
	for (int i = 1; i < 16; i += 2, t *= s2)
		sum += t / i;
	return 2 * sum + e * 0.6931471805599453;
}

double num_logistic(double x)
{
	if (x < -40)
		return 0;
	if (x > 40)
		return 1;
	/* e^-x = 2^k e^r, |r| <= ln 2 / 2: k in the exponent's bits, e^r
	 * by its series (12 terms: under 1e-15 of it) */
	double t = -x * 1.4426950408889634;
	int k = (int)(t < 0 ? t - 0.5 : t + 0.5);
	double r = -x - k * 0.6931471805599453, term = 1, e = 1;
	for (int i = 1; i < 12; i++)
		e += term *= r / i;
	uint64_t bits = (uint64_t)(k + 1023) << 52;
	double p2;
	memcpy(&p2, &bits, sizeof p2);
	return 1 / (1 + e * p2);
}

/* The octave's points and the first of the next, which the next octave
 * writes alike. */
static void fill_octave(int octave)
{
	double base = (double)(1u << (octave + NUM_BIG_FIRST));
	double *p = &num_big_points[octave << NUM_BIG_BITS];
	for (int j = 0; j <= 1 << NUM_BIG_BITS; j++)
		p[j] = num_sqrt(
			num_log(base * (1 + j * (1.0 / (1 << NUM_BIG_BITS)))));
}

/* Every table at once, before any search reads them: the search's
 * threads share them. */
static void fill_all(void)
{
	for (uint32_t i = 1; i < NUM_RSQRT_N; i++)
		num_rsqrt_table[i] = 1 / num_sqrt((double)i);
	for (uint32_t n = 2; n < NUM_SQRTLOG_N; n++)
		num_sqrtlog_table[n] = num_sqrt(num_log((double)n));
	for (int o = 0; o < NUM_BIG_OCTAVES; o++)
		fill_octave(o);
}

void num_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, fill_all);
}
