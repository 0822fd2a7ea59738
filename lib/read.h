/* SPDX-License-Identifier: MIT */
/* Private: the read of a set by the thread that owns it, group by group, as
 * pmu_fast_slow() does it. A static inline so that tests/test-fast-sim.c
 * compiles it against its simulated PMU; it calls only exported functions. */
#ifndef PMU_READ_H
#define PMU_READ_H
#include "set-layout.h"

/*
 * pmu__fast_read_groups - every group of @s for the thread that owns the set
 * (the caller checks that): user space where the group's pages allow, one
 * read(2) for a group where they do not; then the hybrid parts' times.
 * Returns 0 or the negative errno of a read(2).
 */
static inline int pmu__fast_read_groups(struct pmu_set *s, struct pmu_value *out)
{
	const struct pmu_fast_group *gr = s->fgroups, *end;
	struct perf_event_mmap_page *const *pages = s->pages;

	for (end = gr + s->ngroups; gr < end; gr++) {
		struct perf_event_mmap_page *const *pg = pages + gr->first;
		struct pmu_value *o = out + gr->first, *last = o + gr->count;
		uint64_t enabled, running;

		/* the leader's page gives the group's times; members only their counts */
		if (!gr->fast || pmu__page_read(*pg, (pmu_counter_fn)0, (pmu_time_fn)0, (void *)0, 1, o, (uint64_t *)0))
			goto slow;
		enabled = o->enabled;
		running = o->running;
		while (++o < last) {
			if (pmu__page_read(*++pg, (pmu_counter_fn)0, (pmu_time_fn)0, (void *)0, 0, o, (uint64_t *)0))
				goto slow;
			o->enabled = enabled;
			o->running = running;
		}
		continue;
slow:
		{
			int r = pmu_set_read_group(s, (unsigned)(gr - s->fgroups), out);
			if (r < 0)
				return r;
		}
	}
	if (s->hybrid_parts || s->npresence)
		pmu_fast_hybrid(&s->fast, out);
	return 0;
}
#endif
