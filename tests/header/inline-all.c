/* SPDX-License-Identifier: MIT */
/* Calls every static inline function of <pmu.h> (the fast path and its
 * helpers) the way a user's program would: compiled by
 * tests/test-header-levels.sh with every compiler at every -O level.
 * Compiled only, never run. */
#include <pmu.h>

static uint64_t my_counter(void *arg, uint32_t index)
{
	(void)arg;
	return index;
}

static uint64_t my_time(void *arg)
{
	(void)arg;
	return 0;
}

int use_fast_read(struct pmu_set *s, struct pmu_value *v);
int use_page_read(const struct perf_event_mmap_page *pc, struct pmu_value *v);
int use_page_read_with(const struct perf_event_mmap_page *pc, struct pmu_value *v);
int use_topdown(const struct perf_event_mmap_page *pc, struct pmu_topdown_sample *t);
int use_topdown_with(const struct perf_event_mmap_page *pc, struct pmu_topdown_sample *t);
uint32_t use_selectors(unsigned n);

int use_fast_read(struct pmu_set *s, struct pmu_value *v)
{
	return pmu_fast_read(pmu_set_fast(s), v);
}

int use_page_read(const struct perf_event_mmap_page *pc, struct pmu_value *v)
{
	return pmu_page_read(pc, v);
}

int use_page_read_with(const struct perf_event_mmap_page *pc, struct pmu_value *v)
{
	return pmu_page_read_with(pc, my_counter, my_time, (void *)0, v);
}

int use_topdown(const struct perf_event_mmap_page *pc, struct pmu_topdown_sample *t)
{
	return pmu_topdown_page_sample(pc, t);
}

int use_topdown_with(const struct perf_event_mmap_page *pc, struct pmu_topdown_sample *t)
{
	return pmu_topdown_page_sample_with(pc, my_counter, (void *)0, t);
}

uint32_t use_selectors(unsigned n)
{
	return pmu_x86_rdpmc_fixed(n) ^ pmu_x86_rdpmc_metrics(n);
}
