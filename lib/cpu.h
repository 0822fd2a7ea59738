/* SPDX-License-Identifier: MIT */
/* CPU identity as perf spells it (lib/cpu.c). Private. */
#ifndef PMU_CPU_H
#define PMU_CPU_H
#include <stdbool.h>
#include <stdint.h>

struct pmu_ctx;

struct pmu_cpu {
	int arch;
	char cpuid[64];
	char name[128];
	char vendor[16];
	unsigned family, model, stepping;
	uint64_t midr;
	uint64_t mvendorid, marchid, mimpid;
	bool overridden;
};

int pmu__cpu_detect(struct pmu_ctx *ctx, const char *override);
int pmu__cpu_parse_id(const char *id, struct pmu_cpu *cpu);

#endif
