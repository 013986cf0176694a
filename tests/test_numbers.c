/* test_numbers.c: the search's square roots and logarithms
 * (games/util/numbers.h), against known values and against each other. */
#include "test_util.h"

#include <math.h>

#include "../games/util/numbers.h"

static double rel(double a, double b)
{
	return (a > b ? a - b : b - a) / b;
}

START_TEST(sqrt_and_log_known_values)
{
	ck_assert(rel(num_sqrt(2), 1.4142135623730951) < 1e-15);
	ck_assert(rel(num_sqrt(1e6), 1000) < 1e-15);
	ck_assert(num_sqrt(0) == 0);
	ck_assert(num_log(1) == 0);
	ck_assert(rel(num_log(2), 0.6931471805599453) < 1e-9);
	ck_assert(rel(num_log(10), 2.302585092994046) < 1e-9);
	ck_assert(rel(num_log(4294967295.0), 22.18070977768542) < 1e-9);
}
END_TEST

/* The square root of the logarithm, exactly as far as num_sqrt and
 * num_log go. */
static double sqrtlog_ref(uint32_t n)
{
	return num_sqrt(num_log((double)n));
}

START_TEST(sqrtlog_follows_the_function)
{
	num_init();
	/* the small table, then every octave of the points (at the points,
	 * between them, and the largest count) */
	for (uint32_t n = 2; n < 70000; n += 7)
		ck_assert_msg(rel(num_sqrtlog(n), sqrtlog_ref(n)) < 1e-8,
			      "n=%u: %.17g, not %.17g", n, num_sqrtlog(n),
			      sqrtlog_ref(n));
	for (uint64_t n = 65536; n <= 0xffffffffu; n += 1 + n / 7919) {
		uint32_t k = (uint32_t)n;
		ck_assert_msg(rel(num_sqrtlog(k), sqrtlog_ref(k)) < 1e-8,
			      "n=%u: %.17g, not %.17g", k, num_sqrtlog(k),
			      sqrtlog_ref(k));
	}
	ck_assert(rel(num_sqrtlog(0xffffffffu), sqrtlog_ref(0xffffffffu)) <
		  1e-8);
}
END_TEST

START_TEST(sqrtlog_never_falls)
{
	num_init();
	/* across the end of the small table and each octave's first point,
	 * where the lines meet */
	for (int e = 16; e < 32; e++) {
		uint32_t at = (uint32_t)1 << e;
		double last = num_sqrtlog(at - 3000);
		for (uint32_t n = at - 2999; n != at + 3000; n++) {
			double v = num_sqrtlog(n);
			ck_assert_msg(v >= last, "n=%u: %.17g after %.17g", n,
				      v, last);
			last = v;
		}
	}
}
END_TEST

START_TEST(rsqrt_of_counts)
{
	num_init();
	for (uint32_t n = 1; n < 100000; n += 13)
		ck_assert_msg(rel(num_rsqrt_n(n) * num_sqrt(n), 1) < 1e-12,
			      "n=%u", n);
}
END_TEST

/* The learned evaluations' squashing (learn.h), against libm's exp. */
START_TEST(logistic_follows_exp)
{
	for (double x = -45; x <= 45; x += 0.0137) {
		double want = 1 / (1 + exp(-x));
		ck_assert_msg(fabs(num_logistic(x) - want) < 1e-14,
			      "x=%g: %.17g, not %.17g", x, num_logistic(x),
			      want);
	}
	ck_assert(num_logistic(0) == 0.5);
	ck_assert(num_logistic(-1000) == 0 && num_logistic(1000) == 1);
}
END_TEST

static Suite *suite(void)
{
	Suite *su = suite_create("numbers");
	TCase *tc = tcase_create("numbers");
	tcase_add_test(tc, sqrt_and_log_known_values);
	tcase_add_test(tc, sqrtlog_follows_the_function);
	tcase_add_test(tc, sqrtlog_never_falls);
	tcase_add_test(tc, rsqrt_of_counts);
	tcase_add_test(tc, logistic_follows_exp);
	suite_add_tcase(su, tc);
	return su;
}

TEST_MAIN()
