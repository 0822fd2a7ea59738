/* SPDX-License-Identifier: MIT */
/*
 * What a region keeps of one call, per event: the delta less the calibrated cost of an empty pair,
 * summed, the enabled and running times summed (to scale a multiplexed count), the smallest and
 * largest delta. One copy, used by pmu_region_end/leave (region.c) and by the floor the region
 * benchmark measures them against (bench/region-floor.h), so that the floor accumulates exactly as
 * the library does. Needs struct pmu_value (<pmu.h>) declared first.
 */
#ifndef PMU_REGION_ACCUM_H
#define PMU_REGION_ACCUM_H

#include <stddef.h>
#include <stdint.h>

/*
 * @nev events of @S, a pointer to a struct with arrays start, sum (struct pmu_value), min and max
 * (uint64_t) — a region's slot, the benchmark's floor —, closed with the counts @NOW, less @OV, the
 * pair's own cost (0 until calibrated). A macro, not a function taking the four arrays: given them
 * as separate pointers, gcc 12 compiled pmu_region_leave to 6 more instructions on x86-64, restrict or
 * not (as a macro the machine code is the same as before, byte for byte on arm64 and riscv64). Every
 * load before the first store: @NOW is the thread state's, which the compiler must otherwise assume
 * the stores to the slot change (reloads: 3 more instructions per event).
 */
/* One event's count in one call: its delta @NOW - @START less @OV, the pair's own cost (0 when less). */
#define PMU_REGION_DELTA(NOW, START, OV) ((NOW) - (START) > (OV) ? (NOW) - (START) - (OV) : 0)

#define PMU_REGION_ACCUMULATE(S, NOW, OV, NEV)                                                    \
	do {                                                                                     \
		for (size_t k_ = 0; k_ < (NEV); k_++) {                                          \
			struct pmu_value n_ = (NOW)[k_], st_ = (S)->start[k_], sum_ = (S)->sum[k_]; \
			uint64_t lo_ = (S)->min[k_], hi_ = (S)->max[k_];                             \
			uint64_t d_ = PMU_REGION_DELTA(n_.value, st_.value, (OV)[k_]);                \
			sum_.value += d_;                                                            \
			sum_.enabled += n_.enabled - st_.enabled;                                    \
			sum_.running += n_.running - st_.running;                                    \
			(S)->sum[k_] = sum_;                                                         \
			if (d_ < lo_)                                                                \
				(S)->min[k_] = d_;                                                   \
			if (d_ > hi_)                                                                \
				(S)->max[k_] = d_;                                                   \
		}                                                                                \
	} while (0)

#endif
