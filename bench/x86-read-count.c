/* SPDX-License-Identifier: MIT */
/*
 * bench/x86-read-count: instructions of the x86 user-space read, counted
 * exactly by valgrind (callgrind) on a machine without a PMU.
 *
 * The inline pmu_fast_read() of <pmu.h> is compiled here exactly as a
 * program compiles it, except for the hardware access: PMU_ARCH_CUSTOM
 * replaces rdpmc (which valgrind cannot execute without a PMU) by one mov
 * of a value from memory, and rdtsc by one mov too, so each read executes
 * what the real one does with those two instructions exchanged one for one.
 * The user pages are simulated (index != 0, cap_user_rdpmc, cap_user_time
 * and cap_user_time_short as x86 kernels publish them), in a plan set up as
 * the library sets it up for the owner thread (guard word = this thread's
 * pointer). Each measured function does K reads of a group of N counters;
 * an empty function with the same loop is measured the same way; callgrind
 * counts the instructions executed inside each (--toggle-collect), so
 * (reads - empty) / K is exact. A bare seqlock read (no library, no times)
 * and one with the time extrapolation are the floors.
 *
 * Run by bench/x86-read-count.sh, which compiles it with the project's
 * flags and runs it under callgrind. Output lines: "BENCH x86 ...".
 */
#define _GNU_SOURCE
#define PMU_ARCH_CUSTOM 1
#define PMU_ARCH_FAST 1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile uint64_t sim_counter = 12345, sim_tsc = 1000000;

static inline __attribute__((always_inline)) uint64_t pmu_arch_counter(void *arg, uint32_t index)
{
	(void)arg;
	(void)index;
	return sim_counter; /* one mov where the real read has one rdpmc */
}

static inline __attribute__((always_inline)) uint64_t pmu_arch_time(void *arg)
{
	(void)arg;
	return sim_tsc; /* one mov where the real read has one rdtsc */
}

#include <pmu.h>
#include "floor.h"

#define K 1000
#define NMAX 8

static struct perf_event_mmap_page pages[NMAX] __attribute__((aligned(4096)));
static struct perf_event_mmap_page *page_ptrs[NMAX];
static uintptr_t guard;
static struct pmu_fast plan;
static struct pmu_value out[NMAX];
static volatile uint64_t sink;

static void setup(unsigned n)
{
	memset(pages, 0, sizeof(pages));
	for (unsigned i = 0; i < n; i++) {
		struct perf_event_mmap_page *p = &pages[i];
		p->lock = 2;
		p->index = 1 + i;
		p->cap_user_rdpmc = 1;
		p->cap_user_time = 1;
		p->cap_user_time_short = 1;
		p->pmc_width = 48;
		p->offset = 1000;
		p->time_enabled = p->time_running = 5000;
		p->time_mult = 0x29aaaaab;
		p->time_shift = 30;
		p->time_offset = (uint64_t)-77;
		p->time_cycles = 999000;
		p->time_mask = ~0ull;
		page_ptrs[i] = p;
	}
	guard = pmu_arch_thread();
	plan.guard = &guard;
	plan.abi = PMU_FAST_ABI;
	plan.count = n;
	plan.pages = page_ptrs;
}

__attribute__((noinline)) void measure_empty(unsigned n)
{
	(void)n;
	for (int i = 0; i < K; i++)
		__asm__ __volatile__("" ::: "memory");
}

__attribute__((noinline)) void measure_bare(unsigned n)
{
	for (int i = 0; i < K; i++) {
		for (unsigned c = 0; c < n; c++)
			sink = bench_bare_read(&pages[c]);
		__asm__ __volatile__("" ::: "memory");
	}
}

__attribute__((noinline)) void measure_bare_times(unsigned n)
{
	/* the bare read plus the times of the first counter: pmu_page_read() of the first, bare for the rest */
	for (int i = 0; i < K; i++) {
		struct pmu_value v;
		pmu_page_read(&pages[0], &v);
		sink = v.value + v.enabled;
		for (unsigned c = 1; c < n; c++)
			sink = bench_bare_read(&pages[c]);
		__asm__ __volatile__("" ::: "memory");
	}
}

__attribute__((noinline)) void measure_fast(unsigned n)
{
	(void)n;
	for (int i = 0; i < K; i++) {
		if (pmu_fast_read(&plan, out) != 0)
			sink = 1;
		__asm__ __volatile__("" ::: "memory");
	}
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 1;

	if (n < 1 || n > NMAX)
		return 2;
	setup(n);
	measure_empty(n);
	measure_bare(n);
	measure_bare_times(n);
	measure_fast(n);
	if (out[0].value != 1000 + 12345 || out[0].enabled == 5000) {
		fprintf(stderr, "x86-read-count: the simulated read gave %llu / %llu: the plan is not read from user space\n",
			(unsigned long long)out[0].value, (unsigned long long)out[0].enabled);
		return 1;
	}
	return 0;
}
