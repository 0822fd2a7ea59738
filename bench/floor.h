/* SPDX-License-Identifier: MIT */
/*
 * bench/floor.h: the floor both read benchmarks measure libpmu against
 * (bench/x86-read-count.c on x86 under callgrind, tests/lab/guest/
 * bench-read-cost.c in the QEMU guests), written once so both results
 * files cite the same code. Include after <pmu.h>: the hardware read is
 * the includer's pmu_arch_counter() (the real one, or x86-read-count's
 * simulated rdpmc).
 */
#ifndef PMU_BENCH_FLOOR_H
#define PMU_BENCH_FLOOR_H

#include <stdint.h>
#include <linux/perf_event.h>

/* The least a user-space read can do: the seqlock loop around the counter
 * read and its sign extension, in the library's shape (each field of the
 * volatile page loaded once), no times. */
static inline uint64_t bench_bare_read(const struct perf_event_mmap_page *pc)
{
	const volatile struct perf_event_mmap_page *p = pc;
	uint32_t seq;
	uint64_t count, pmc;
	do {
		unsigned shift;
		seq = p->lock;
		__asm__ __volatile__("" ::: "memory");
		count = p->offset;
		shift = 64u - p->pmc_width;
		pmc = pmu_arch_counter(0, p->index);
		count += (uint64_t)((int64_t)(pmc << shift) >> shift);
		__asm__ __volatile__("" ::: "memory");
	} while (p->lock != seq);
	return count;
}

#endif
