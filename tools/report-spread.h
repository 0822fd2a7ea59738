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

/* A 128-bit sum of squares as two 64-bit halves (what an MPI datatype of uint64 carries); all ones:
 * past 128 bits (then no standard deviation). */
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

static inline unsigned __int128 spread_sq_get(const struct spread_sq *q)
{
	return (unsigned __int128)q->hi << 64 | q->lo;
}

static inline void spread_sq_set(struct spread_sq *q, unsigned __int128 v)
{
	q->lo = (uint64_t)v;
	q->hi = (uint64_t)(v >> 64);
}

/* *@q += @b (saturating at all ones). */
static inline void spread_sq_add(struct spread_sq *q, const struct spread_sq *b)
{
	unsigned __int128 s;

	if (__builtin_add_overflow(spread_sq_get(q), spread_sq_get(b), &s))
		s = ~(unsigned __int128)0;
	spread_sq_set(q, s);
}

/* *@q += @x * @x (exact: a square of 64 bits fits 128). */
static inline void spread_sq_add_square(struct spread_sq *q, uint64_t x)
{
	struct spread_sq b;

	spread_sq_set(&b, (unsigned __int128)x * x);
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
	unsigned __int128 nq, s2 = (unsigned __int128)sum * sum;

	if (!n || !sum_ok || (q->lo == UINT64_MAX && q->hi == UINT64_MAX) ||
	    __builtin_mul_overflow((unsigned __int128)n, spread_sq_get(q), &nq) || nq < s2)
		return NAN;
	return sqrt((double)(nq - s2)) / (double)n;
}

#endif
