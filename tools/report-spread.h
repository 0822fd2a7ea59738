/* SPDX-License-Identifier: MIT */
/*
 * The statistics of a count across ranks (or files), in one place for the two that compute them:
 * libpmu-mpi's reduction inside a job (mpi/pmu-mpi.c) and pmu report's merge of per-rank files
 * (tools/report-merge.c), so that the two documents agree to the bit. Sums are exact integers (the
 * sum in 64 bits, the sum of squares in 128), so the order in which ranks are added (an MPI
 * reduction tree, a list of files) changes nothing: mean = sum / n and the population standard
 * deviation sqrt(n * sumsq - sum^2) / n are each computed once from exact integers. No MPI here.
 */
#ifndef PMU_TOOLS_REPORT_SPREAD_H
#define PMU_TOOLS_REPORT_SPREAD_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/* A 128-bit sum of squares as two 64-bit halves (what an MPI datatype of uint64 carries; no __int128,
 * which 32-bit targets lack); all ones: past 128 bits (then no standard deviation). */
struct spread_sq {
	uint64_t lo, hi;
};

/* *@a += @b; false (and *@a all ones) where 64 bits do not hold it. */
static inline bool spread_add64(uint64_t *a, uint64_t b)
{
	if (__builtin_add_overflow(*a, b, a)) {
		*a = UINT64_MAX;
		return false;
	}
	return true;
}

/* @a x @b, exactly, in 128 bits (32-bit halves: four products that fit 64 bits). */
static inline struct spread_sq spread_mul64(uint64_t a, uint64_t b)
{
	uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);

	return (struct spread_sq){ mid << 32 | (p00 & 0xffffffffu), p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32) };
}

static inline bool spread_sq_full(const struct spread_sq *q)
{
	return q->lo == UINT64_MAX && q->hi == UINT64_MAX;
}

/* *@q += @b (saturating at all ones). */
static inline void spread_sq_add(struct spread_sq *q, const struct spread_sq *b)
{
	uint64_t lo = q->lo + b->lo, hi;
	bool over = __builtin_add_overflow(q->hi, b->hi, &hi) || __builtin_add_overflow(hi, (uint64_t)(lo < q->lo), &hi);

	if (over || spread_sq_full(q) || spread_sq_full(b))
		lo = hi = UINT64_MAX;
	q->lo = lo;
	q->hi = hi;
}

/* *@q += @x * @x (exact: a square of 64 bits fits 128). */
static inline void spread_sq_add_square(struct spread_sq *q, uint64_t x)
{
	struct spread_sq b = spread_mul64(x, x);

	spread_sq_add(q, &b);
}

/* The mean of @n counts summing to @sum (exact in 64 bits). */
static inline double spread_mean(uint64_t n, uint64_t sum)
{
	return n ? (double)sum / (double)n : 0;
}

/* The population standard deviation of @n counts of sum @sum and sum of squares @q: sqrt(n q - sum^2) / n,
 * the difference exact in 128 bits; NAN where it does not fit (a sum past 64 bits, squares past 128). */
static inline double spread_stddev(uint64_t n, uint64_t sum, bool sum_ok, const struct spread_sq *q)
{
	struct spread_sq lo, hi, s2 = spread_mul64(sum, sum);
	uint64_t up, dlo, dhi;

	if (!n || !sum_ok || spread_sq_full(q))
		return NAN;
	/* n q = n q.lo + 2^64 n q.hi, within 128 bits */
	lo = spread_mul64(q->lo, n);
	hi = spread_mul64(q->hi, n);
	if (hi.hi || __builtin_add_overflow(lo.hi, hi.lo, &up))
		return NAN;
	if (up < s2.hi || (up == s2.hi && lo.lo < s2.lo))
		return NAN; /* n q < sum^2: not the sums of one set of counts */
	dlo = lo.lo - s2.lo;
	dhi = up - s2.hi - (lo.lo < s2.lo);
	return sqrt((double)dhi * 0x1p64 + (double)dlo) / (double)n;
}

#endif
