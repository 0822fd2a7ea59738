/* SPDX-License-Identifier: MIT */
/* The work bench/startup (its "first in a process" and in-process rows) and bench/startup-fork time:
 * a context for Skylake-X (with @events_path's tables too, when not NULL), the 10 names of
 * startup-names.h, and pmu_ctx_free. Returns 0, or says on stderr what failed and returns -1. Only the
 * API of 2026-11-22 (bench/startup-then.sh builds it against that library too). */
#ifndef BENCH_STARTUP_WORK_H
#define BENCH_STARTUP_WORK_H
#include <stdio.h>
#include <string.h>
#include <pmu.h>
#include "startup-names.h"

static inline int startup_work(const char *events_path)
{
	struct pmu_ctx_opts o;
	struct pmu_ctx *ctx;
	struct pmu_event_info e;
	int r;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.cpuid = "GenuineIntel-6-55-4";
	o.events_path = events_path;
	if ((r = pmu_ctx_new(&ctx, &o)) < 0) {
		fprintf(stderr, "startup: pmu_ctx_new: %s\n", pmu_strerror(r));
		return -1;
	}
	for (int i = 0; i < 10; i++)
		if ((r = pmu_event_resolve(ctx, names[i], &e)) < 0) {
			fprintf(stderr, "startup: %s: %s\n", names[i], pmu_strerror(r));
			pmu_ctx_free(ctx);
			return -1;
		}
	pmu_ctx_free(ctx);
	return 0;
}
#endif
