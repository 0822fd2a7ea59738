/* SPDX-License-Identifier: MIT */
/*
 * tools/report-spread.h, the spread's statistics that pmu report and libpmu-mpi share: its 128-bit
 * arithmetic in 64-bit halves (which 32-bit targets need) against the compiler's unsigned __int128
 * on a million generated pairs and the extremes, the saturation past 128 bits, and the standard
 * deviation of sets whose value is known by hand (the population's: {2,4,4,4,5,5,7,9} gives 2).
 * Exit 77 where the compiler has no __int128 (the oracle).
 */
#include <math.h>
#include <stdio.h>
#include "../tools/report-spread.h"

static int fails, checks;

static void check(int ok, const char *what)
{
	checks++;
	if (!ok) {
		fails++;
		printf("FAIL: %s\n", what);
	}
}

static double stddev_of(const uint64_t *xs, size_t n)
{
	struct spread_sq q = { 0, 0 };
	uint64_t sum = 0;
	bool ok = true;

	for (size_t i = 0; i < n; i++) {
		spread_sq_add_square(&q, xs[i]);
		ok = spread_add64(&sum, xs[i]) && ok;
	}
	return spread_stddev(n, sum, ok, &q);
}

int main(void)
{
#ifndef __SIZEOF_INT128__
	printf("SKIP: this compiler has no unsigned __int128, the oracle of the 64-bit halves\n");
	return 77;
#else
	uint64_t seed = 88172645463325252ull;
	int mul_bad = 0, add_bad = 0;

	for (int i = 0; i < 1000000; i++) {
		uint64_t a, b;
		unsigned __int128 w, qq, sum;
		struct spread_sq m, q, s;
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		a = seed >> (i % 3 == 0 ? i % 64 : 0);
		b = seed * 2654435761u;
		if (i < 4) /* the extremes */
			a = b = i & 1 ? UINT64_MAX : i == 2 ? 1 : 0;
		m = spread_mul64(a, b);
		w = (unsigned __int128)a * b;
		mul_bad += m.lo != (uint64_t)w || m.hi != (uint64_t)(w >> 64);
		q = (struct spread_sq){ seed, seed >> (i % 65 == 64 ? 0 : i % 64) };
		s = q;
		spread_sq_add(&s, &m);
		qq = (unsigned __int128)q.hi << 64 | q.lo;
		if (__builtin_add_overflow(qq, w, &sum) || (~sum == 0))
			add_bad += !(s.lo == UINT64_MAX && s.hi == UINT64_MAX);
		else
			add_bad += s.lo != (uint64_t)sum || s.hi != (uint64_t)(sum >> 64);
	}
	check(!mul_bad, "spread_mul64 equals __int128's product on a million pairs");
	check(!add_bad, "spread_sq_add equals __int128's sum, all ones past 128 bits, on a million pairs");
	{
		static const uint64_t a[] = { 2, 4, 4, 4, 5, 5, 7, 9 }, b[] = { 1ull << 40, (1ull << 40) + 2 },
				      c[] = { 7, 7, 7 }, d[] = { 1ull << 63, 0, 0, 0 };
		double sa = stddev_of(a, 8), sb = stddev_of(b, 2), sc = stddev_of(c, 3), sd = stddev_of(d, 4);
		printf("stddev {2,4,4,4,5,5,7,9} %.17g, {2^40, 2^40+2} %.17g, {7,7,7} %.17g, {2^63,0,0,0} %.17g\n", sa, sb, sc,
		       sd);
		check(sa == 2, "the population stddev of {2,4,4,4,5,5,7,9} is 2");
		check(sb == 1, "of {2^40, 2^40 + 2}: 1, exactly (a naive double sum of squares loses it)");
		check(sc == 0, "of {7,7,7}: 0");
		check(isnan(sd), "of {2^63, 0, 0, 0}: NAN (the sum fits 64 bits, n * the squares, 2^128, does not fit 128)");
	}
	{
		uint64_t s = UINT64_MAX - 1;
		check(spread_add64(&s, 1) && s == UINT64_MAX, "UINT64_MAX - 1 + 1 fits");
		check(!spread_add64(&s, 1) && s == UINT64_MAX, "UINT64_MAX + 1 saturates, said");
		check(spread_mean(4, 10) == 2.5 && spread_mean(0, 0) == 0, "mean 10 / 4 = 2.5; of none, 0");
	}
	printf("test-report-spread: %d checks, %d failed\n", checks, fails);
	return fails != 0;
#endif
}
