/* SPDX-License-Identifier: MIT */
/* The two fixture machines the event-list and metric targets run on: an Ice Lake server and an
 * Alder Lake hybrid (two core PMUs). Made once, for the first input, and kept (trace.h says why
 * that is safe and how state.sh checks it). */
#ifndef PMU_FUZZ_MACHINES_H
#define PMU_FUZZ_MACHINES_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmu.h>

static void fuzz_machines(struct pmu_ctx *ctxs[2]) __attribute__((unused));
static void fuzz_machines(struct pmu_ctx *ctxs[2])
{
	static const char *const machines[2][2] = { { "intel-icx", "GenuineIntel-6-6A-6" },
						    { "intel-adl-hybrid", "GenuineIntel-6-9A-3" } };
	static char sys[2][1024];
	const char *src = getenv("PMU_TEST_SRCDIR");

	for (int i = 0; i < 2; i++) {
		struct pmu_ctx_opts co;
		snprintf(sys[i], sizeof(sys[i]), "%s/tests/fixtures/%s/sys", src ? src : ".", machines[i][0]);
		memset(&co, 0, sizeof(co));
		co.size = sizeof(co);
		co.sysfs_root = sys[i];
		co.cpuid = machines[i][1];
		if (pmu_ctx_new(&ctxs[i], &co) < 0)
			abort();
	}
}
#endif
