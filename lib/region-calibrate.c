/* SPDX-License-Identifier: MIT */
/*
 * Regions: calibration. A thread's first region call measures an empty
 * pair by name and by handle, the smallest of CAL_ROUNDS, per event; an
 * end subtracts it (struct thread_state's ov), so a region counts its own
 * code and not libpmu's.
 */
#include <string.h>
#include "region.h"

/* The calibration pair: what `pmu_region_begin("x"); pmu_region_end("x");`
 * with a literal name compiles to, through the public entry points (their
 * own checks are part of what a user region measures). */
__attribute__((noinline)) static void cal_pair(void)
{
	pmu_region_begin(CAL_NAME);
	pmu_region_end(CAL_NAME);
	/* not a tail call: code usually continues after pmu_region_end, and a
	 * tail call would put this function's epilogue inside the region */
	__asm__ __volatile__("" ::: "memory");
}

/* The same through a handle. */
__attribute__((noinline)) static void cal_pair_h(struct pmu_region *h)
{
	pmu_region_enter(h);
	pmu_region_leave(h);
	__asm__ __volatile__("" ::: "memory");
}

/* Calibration: the smallest cost of an empty pair, per event, into @out. */
static void calibrate_pair(struct thread_state *ts, struct pmu_region *h, uint64_t *out)
{
	uint64_t best[REG_MAX_EV];
	struct slot *s;

	for (size_t k = 0; k < ts->nev; k++)
		best[k] = UINT64_MAX;
	for (int round = 0; round < CAL_ROUNDS; round++) {
		if (h)
			cal_pair_h(h);
		else
			cal_pair();
		s = find(ts, CAL_NAME);
		if (!s || s->calls != 1)
			return;
		for (size_t k = 0; k < ts->nev; k++)
			if (s->max[k] < best[k])
				best[k] = s->max[k];
		/* forget this round so that max is the next round's value */
		memset(s->sum, 0, sizeof(s->sum));
		for (size_t k = 0; k < REG_MAX_EV; k++) {
			s->max[k] = 0;
			s->min[k] = UINT64_MAX;
		}
		s->calls = 0;
	}
	for (size_t k = 0; k < ts->nev; k++)
		out[k] = best[k] == UINT64_MAX ? 0 : best[k];
}

void pmu__region_calibrate(struct thread_state *ts)
{
	struct pmu_region *h = NULL;

	calibrate_pair(ts, NULL, ts->overhead);
	if (pmu_region_get(CAL_NAME, &h) == 0)
		calibrate_pair(ts, h, ts->overhead_h);
	for (size_t k = 0; k < ts->nev; k++) {
		uint64_t mixed = ts->overhead[k] < ts->overhead_h[k] ? ts->overhead[k] : ts->overhead_h[k];
		ts->ov[0][k] = ts->overhead[k];
		ts->ov[1][k] = ts->ov[2][k] = mixed;
		ts->ov[3][k] = ts->overhead_h[k];
	}
	ts->calibrated = 1;
}
