/* SPDX-License-Identifier: MIT */
/*
 * bench/region-floor.h: the least a region pair can do, which bench-region-cost
 * (tests/lab/guest) measures libpmu's regions against. Include after <pmu.h>.
 *
 * What it keeps is what libpmu's region report gives per event — the sum of
 * the deltas less the calibrated cost of an empty pair, the sums of enabled
 * and running time (to scale a multiplexed count), the smallest and largest
 * delta of a call — and per region the number of calls: the accumulation of
 * pmu_region_leave(), the same code (lib/region-accum.h). Two calls that
 * the compiler cannot inline or specialise (a region is entered and left through the library),
 * one pointer argument each, as pmu_region_enter(h) / pmu_region_leave(h);
 * the reads are pmu_fast_read()'s (its inline part, pmu__fast_try(), with
 * the fall-back in tail position, so that the common path needs no stack
 * frame, as in libpmu's regions), as the "2 reads" baseline's.
 *
 * What it leaves out, each a check that keeps a region's counts right in a
 * case the floor does not meet: that the handle belongs to the calling
 * thread (a handle passed to another thread would read that thread's
 * counters into this one's region), the re-entrancy guard (a signal handler
 * that enters a region between a read and its accumulation), the nesting
 * depth (recursion counts the outermost pair once), and finding the
 * calling thread's state (its set is passed in here). So floor pair - 2
 * reads is a lower bound of what regions can add over their two reads, not
 * a design.
 *
 * The floor by name (bench_floor_begin_named / bench_floor_end_named) adds
 * to it only what a pair by name cannot leave out: each call compares the
 * caller's name with the region's by content, the library's byte loop
 * (lib/region-name.h), the begin before its read and the end after it, as
 * libpmu's do. A pointer compare would not do: a caller's buffer reused for
 * another name between two calls is another region (the trust issue).
 */
#ifndef PMU_BENCH_REGION_FLOOR_H
#define PMU_BENCH_REGION_FLOOR_H

#include <stddef.h>
#include <stdint.h>
#include "../lib/region-accum.h"
#include "../lib/region-name.h"

#define BENCH_FLOOR_MAXEV 8

struct bench_region_floor {
	const struct pmu_fast *f;
	size_t nev;
	uint64_t ov[BENCH_FLOOR_MAXEV]; /* the calibrated cost of an empty pair, per event */
	uint64_t min[BENCH_FLOOR_MAXEV], max[BENCH_FLOOR_MAXEV], calls;
	struct pmu_value start[BENCH_FLOOR_MAXEV], now[BENCH_FLOOR_MAXEV], sum[BENCH_FLOOR_MAXEV];
	char name[128];                 /* the floor by name's region */
};

#if defined(__GNUC__) && !defined(__clang__)
#define BENCH_FLOOR_CALL __attribute__((noinline, noipa))
#else
#define BENCH_FLOOR_CALL __attribute__((noinline))
#endif

/* The accumulation of one call: what pmu_region_leave() keeps, per event (the library's own code,
 * lib/region-accum.h) and per region. */
static inline void bench_floor_add(struct bench_region_floor *r)
{
	size_t nev = r->nev;

	PMU_REGION_ACCUMULATE(r, r->now, r->ov, nev);
	r->calls++;
}

/* A read that user space could not do: the library's read(2) path, then the accumulation. */
BENCH_FLOOR_CALL static int bench_floor_leave_slow(struct bench_region_floor *r)
{
	int e = pmu_fast_slow(r->f, r->now);

	if (e < 0)
		return e;
	bench_floor_add(r);
	return 0;
}

/* Enter and leave are leaves on their common path, as libpmu's are (pmu__fast_try(), the inline part
 * of pmu_fast_read(), with its fall-back called in tail position): no stack frame for a call the
 * common path never makes. */
BENCH_FLOOR_CALL static int bench_floor_enter(struct bench_region_floor *r)
{
	if (__builtin_expect(pmu__fast_try(r->f, r->start), 0))
		return pmu_fast_slow(r->f, r->start);
	return 0;
}

BENCH_FLOOR_CALL static int bench_floor_leave(struct bench_region_floor *r)
{
	if (__builtin_expect(pmu__fast_try(r->f, r->now), 0))
		return bench_floor_leave_slow(r);
	bench_floor_add(r);
	return 0;
}

/* By name: another name than the region's is not this region (-2: the library would look it up). */
BENCH_FLOOR_CALL static int bench_floor_begin_named(struct bench_region_floor *r, const char *name)
{
	if (__builtin_expect(!pmu__region_name_eq(r->name, name), 0))
		return -2;
	if (__builtin_expect(pmu__fast_try(r->f, r->start), 0))
		return pmu_fast_slow(r->f, r->start);
	return 0;
}

BENCH_FLOOR_CALL static int bench_floor_leave_slow_named(struct bench_region_floor *r, const char *name)
{
	int e = pmu_fast_slow(r->f, r->now);

	if (e < 0)
		return e;
	if (!pmu__region_name_eq(r->name, name))
		return -2;
	bench_floor_add(r);
	return 0;
}

/* The read first, then the name: the compare is not part of the region (as pmu_region_end()). */
BENCH_FLOOR_CALL static int bench_floor_end_named(struct bench_region_floor *r, const char *name)
{
	if (__builtin_expect(pmu__fast_try(r->f, r->now), 0))
		return bench_floor_leave_slow_named(r, name);
	if (__builtin_expect(!pmu__region_name_eq(r->name, name), 0))
		return -2;
	bench_floor_add(r);
	return 0;
}

#endif
