/* SPDX-License-Identifier: MIT */
/* Constants of metric formulas (lib/constants.c). */
#ifndef PMU_CONSTANTS_H
#define PMU_CONSTANTS_H
#include <stddef.h>

struct pmu_ctx;

/* The machine constants, in the order of their names */
enum {
	MC_SMT_ON, MC_NUM_CPUS, MC_NUM_CPUS_ONLINE, MC_NUM_PACKAGES, MC_NUM_DIES, MC_NUM_CORES, MC_CORE_WIDE,
	MC_HAS_PMEM, MC_SLOTS, MC_CHAS_PER_SOCKET, MC_SYSTEM_TSC_FREQ, MC_N
};

/* The machine constant named @name (any case: perf's tables write #SMT_on), or -1. */
int pmu__mc_index(const char *name);
/* Read machine constant @which of @ctx's machine into *@out, where it came from into @origin (@ol
 * bytes). 0; -ENOENT when the machine does not tell it; -ENOMEM. */
int pmu__mc_read(struct pmu_ctx *ctx, int which, double *out, char *origin, size_t ol);

#endif
